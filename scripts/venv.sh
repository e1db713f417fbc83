# Sourced by scripts/serve.sh, scripts/test.sh and scripts/cluster.sh: the Python environment they install into
# and run from. Stock Debian and Ubuntu refuse `pip install` into the system's Python (PEP 668), so the commands
# use a virtual environment of their own, `.venv` in the repository (QUADRILLE_VENV names another path), made
# with the system's `python3 -m venv`, unless one is active already (VIRTUAL_ENV, or a python3 whose sys.prefix
# is not its base prefix): then they install into that one. Each step is said on standard error.

# use_venv: make (if needed) and activate the environment: `python`, `python3` and `pip` on the PATH are then its
# own, for these scripts and every process they start (the tests' servers, Playwright, the cluster's processes).
use_venv() {
  if python3 -c 'import sys; sys.exit(0 if sys.prefix != sys.base_prefix else 1)' 2>/dev/null; then
    echo "quadrille: using the active virtual environment $(python3 -c 'import sys; print(sys.prefix)')" >&2
    return 0
  fi
  local venv=${QUADRILLE_VENV:-$PWD/.venv}
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    # Made again when missing, half made (no pip) or broken (the system's Python it points at was upgraded).
    echo "quadrille: creating the virtual environment $venv ($(command -v python3) -m venv)" >&2
    if ! python3 -m venv --clear "$venv"; then
      echo "quadrille: \`python3 -m venv\` failed; on Debian or Ubuntu: sudo apt-get install python3-venv" >&2
      return 1
    fi
  else
    echo "quadrille: using the virtual environment $venv" >&2
  fi
  export VIRTUAL_ENV=$venv
  export PATH="$venv/bin:$PATH"
  hash -r
}

# install_into_venv ARGS...: pip-install ARGS (e.g. `-e .`, `-e .[test]`) with the versions pinned in
# constraints.txt, unless the same ARGS were installed from the same pyproject.toml and constraints.txt before (a
# stamp in the environment), so that a second start does not wait for pip.
install_into_venv() {
  local prefix stamp wanted
  prefix=$(python -c 'import sys; print(sys.prefix)')
  stamp="$prefix/.quadrille-installed"
  wanted="$* $(cat pyproject.toml constraints.txt | python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
  if [ -f "$stamp" ] && grep -qxF -- "$wanted" "$stamp"; then
    return 0
  fi
  echo "quadrille: installing $* into $prefix (pip, the versions of constraints.txt)" >&2
  python -m pip install --quiet --disable-pip-version-check -c constraints.txt "$@"
  echo "$wanted" >>"$stamp"
}
