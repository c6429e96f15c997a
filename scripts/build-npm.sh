#!/usr/bin/env bash
# Writes the npm package `kenken-grader` into DIR: an ES module with TypeScript
# types whose functions mirror the Python package's (crates/wasm/js/kenken.js,
# kenken.d.ts, README.md), over the engine compiled to WebAssembly. It runs in
# Node (18 or later) and in browsers.
#
#   bash scripts/build-npm.sh DIR
#   (cd DIR && npm pack)        # the tarball to publish or install elsewhere
#
# What the build needs is installed first (scripts/build-wasm.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bash scripts/build-npm.sh DIR" >&2
  exit 2
fi
dir="$1"
cd "$(dirname "$0")/.."
built="$(bash scripts/build-wasm.sh)"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
mkdir -p "$dir"
cp crates/wasm/js/kenken.js crates/wasm/js/kenken.d.ts crates/wasm/js/README.md "$dir/"
cp "$built/kenken_wasm.js" "$built/kenken_wasm_bg.wasm" "$dir/"
cat >"$dir/package.json" <<EOF
{
  "name": "kenken-grader",
  "version": "$version",
  "description": "KenKen / Calcudoku grader, solver and puzzle maker: the grader's engine in WebAssembly, for Node and browsers",
  "license": "MIT",
  "type": "module",
  "main": "./kenken.js",
  "types": "./kenken.d.ts",
  "exports": {
    ".": {
      "types": "./kenken.d.ts",
      "default": "./kenken.js"
    }
  },
  "files": ["kenken.js", "kenken.d.ts", "kenken_wasm.js", "kenken_wasm_bg.wasm", "README.md"],
  "engines": {
    "node": ">=18"
  },
  "keywords": ["kenken", "calcudoku", "puzzle", "solver", "grader", "webassembly"]
}
EOF
echo "build-npm: wrote the package kenken-grader $version to $dir" >&2
