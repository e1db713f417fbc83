#!/usr/bin/env bash
# Install what the tests need (Python packages, Debian's Chromium, PostgreSQL, Redis and nginx) and run every
# test. The tests start PostgreSQL, Redis and nginx servers of their own in temporary directories.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh tests/platform -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions tested are pinned in constraints.txt (pip-compile --upgrade --extra test; see README).
python3 -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[test]"

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  ($sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq chromium) >/dev/null || true
fi
if [ ! -x /usr/bin/chromium ]; then
  python3 -m playwright install chromium  # no Debian package here: Playwright's own build
fi

source scripts/services.sh
install_services

exec python3 -m pytest -q -p no:cacheprovider "$@"
