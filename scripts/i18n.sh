#!/usr/bin/env bash
# The translations' chores (docs/translating.md), from the repository's root, in its Python environment:
#   bash scripts/i18n.sh update     # extract the marked strings (babel.cfg) and merge them into every .po
#   bash scripts/i18n.sh compile    # build the .mo files and the browser's catalogs (static/i18n/<lang>/<bundle>.js)
#   bash scripts/i18n.sh check      # list what is untranslated, fuzzy or broken in the six languages
#   bash scripts/i18n.sh init xx    # start a new language's catalogs
# scripts/test.sh and scripts/serve.sh run `compile` themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
use_venv
install_into_venv -e .
exec python -m quadrille.i18n "${@:-compile}"
