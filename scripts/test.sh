#!/usr/bin/env bash
# Install what the tests need (Python packages, Debian's Chromium, PostgreSQL, Redis and nginx) and run every
# test. The tests start PostgreSQL, Redis and nginx servers of their own in temporary directories.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/platform -x`.
# Python's packages go into a virtual environment (`.venv` here, or the one active: scripts/venv.sh), and
# everything runs from it: pytest, the servers the tests start (sys.executable), Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import venv, ensurepip" 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  ($sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq python3-venv) >/dev/null || true
fi
source scripts/venv.sh
use_venv
# The versions tested are pinned in constraints.txt (pip-compile --upgrade --extra test; see README).
install_into_venv -e ".[test]"
python -m quadrille.i18n compile  # the translations' .mo files and the browser's catalogs (docs/translating.md)

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  ($sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq chromium) >/dev/null || true
fi
if [ ! -x /usr/bin/chromium ]; then
  python -m playwright install chromium  # no Debian package here: Playwright's own build
fi

source scripts/services.sh
install_services

if [ $# -gt 0 ]; then
  exec python -m pytest -q -p no:cacheprovider "$@"
fi

# The tiers (docs/architecture.md, "Tests"): the engine's tests on both cores (pytest-xdist); everything else on
# both cores by module, but for the tests marked `alone` (round trips measured under attack), which run one at
# a time at the end. Every tier runs; the command fails if one failed.
failed=0
tier() {
  local name=$1; shift
  local started=$SECONDS
  echo "== $name: pytest $*"
  python -m pytest -q -p no:cacheprovider "$@" || failed=1
  echo "== $name: $((SECONDS - started)) s"
}
tier engine -n 2 tests/games tests/ai
# The rest in one session on both cores, a module at a time (a module may share one server among its tests; one
# session leaves no core idle between tiers): the platform, the real servers, the install, the documents, the
# browsers, the attacks and the cluster. Then the tests marked `alone`, one at a time: they measure another
# client's round trips while an attack runs, and a test beside them would be part of what they measure.
rest=(tests --ignore=tests/games --ignore=tests/ai)
tier "platform, servers, install, documents, browsers, attacks and cluster" -n 2 --dist loadfile -m "not alone" \
  "${rest[@]}"
tier "latency under attack, alone" -m alone "${rest[@]}"
exit $failed
