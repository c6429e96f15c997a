#!/usr/bin/env bash
# Writes the grader's page as a static site into DIR: the page of `grader
# serve` (crates/web/assets/index.html and app.js) with its back end switched
# from the HTTP API to the engine in a Web Worker (crates/wasm), nothing else
# changed. Serve DIR with any static file server (python3 -m http.server): no
# request leaves the site's own origin.
#
#   bash scripts/build-site.sh DIR
#
# DIR holds index.html, app.js, worker.js, kenken.js (the npm package's module),
# kenken_wasm.js and kenken_wasm_bg.wasm. What the build needs is installed
# first (scripts/build-wasm.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bash scripts/build-site.sh DIR" >&2
  exit 2
fi
dir="$1"
cd "$(dirname "$0")/.."
built="$(bash scripts/build-wasm.sh)"

mkdir -p "$dir"
# The one switch: the page's back end.
sed 's|<meta name="kenken-backend" content="http">|<meta name="kenken-backend" content="worker">|' \
  crates/web/assets/index.html >"$dir/index.html"
if ! grep -q '<meta name="kenken-backend" content="worker">' "$dir/index.html"; then
  echo "build-site: index.html has no back-end switch to turn" >&2
  exit 1
fi
cp crates/web/assets/app.js crates/wasm/js/worker.js crates/wasm/js/kenken.js "$dir/"
cp "$built/kenken_wasm.js" "$built/kenken_wasm_bg.wasm" "$dir/"
size=0
for file in "$dir"/*.html "$dir"/*.js "$dir"/*.wasm; do
  size=$((size + $(gzip -9 -c "$file" | wc -c)))
done
echo "build-site: wrote $dir ($((size / 1024)) KiB, each file gzipped)" >&2
