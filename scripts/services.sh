# Sourced by scripts/test.sh and scripts/cluster.sh: install Debian's PostgreSQL, Redis and nginx when one is
# missing. Nothing is started here: the tests and scripts/cluster.py start servers of their own, in their own
# directories, on their own ports, and stop them by PID; a system-wide server is never touched.
install_services() {
  local missing=()
  compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "please install: ${missing[*]}" >&2
      return 1
    fi
    local sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
    # Where an init system runs, Debian starts system-wide servers at installation: ours never use them (their
    # own ports, directories and users).
    $sudo_ apt-get update -qq
    $sudo_ env DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
