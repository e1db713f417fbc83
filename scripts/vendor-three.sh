#!/usr/bin/env bash
# Vendor three.js into static/vendor/three/: the npm package's ES module build, bundled into one file and
# minified by esbuild, and the package's LICENSE. See static/vendor/three/README.md.
#   bash scripts/vendor-three.sh            # the versions below
#   THREE=0.188.0 bash scripts/vendor-three.sh
set -euo pipefail
cd "$(dirname "$0")/.."
THREE="${THREE:-0.187.0}"
ESBUILD="${ESBUILD:-0.28.2}"
OUT=static/vendor/three
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack --silent "three@$THREE" >/dev/null && tar xzf "three-$THREE.tgz")
# three.module.js imports the rest of the library from ./three.core.js; one bundle makes it a single request
# and a single name (a content-hashed URL cannot follow a relative import). --legal-comments=inline keeps
# the @license header.
npx --yes "esbuild@$ESBUILD" "$work/package/build/three.module.js" --bundle --minify --format=esm \
  --legal-comments=inline --log-level=warning --outfile="$OUT/three.module.min.js"
cp "$work/package/LICENSE" "$OUT/LICENSE"
rm -f "$OUT/three.module.js" "$OUT/three.core.js"
echo "three@$THREE -> $OUT/three.module.min.js ($(wc -c <"$OUT/three.module.min.js") bytes, esbuild $ESBUILD)"
