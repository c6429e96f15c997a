#!/usr/bin/env bash
# Builds the engine for the browser and Node once, for scripts/build-site.sh and
# scripts/build-npm.sh: crates/wasm compiled for wasm32-unknown-unknown (profile
# `wasm`), then wasm-bindgen's ES module around it, written to
# target/wasm-bindgen/ (kenken_wasm.js, kenken_wasm_bg.wasm, kenken_wasm.d.ts).
#
# It installs what it needs first: the wasm32-unknown-unknown target (rustup),
# and wasm-bindgen-cli at exactly the version crates/wasm pins, built from the
# crate registry into target/tools/ ($KENKEN_TOOLS when set; a few minutes, once:
# a later run finds it there).
#
#   bash scripts/build-wasm.sh           # builds; prints the folder of the module
#   bash scripts/build-wasm.sh --tools   # installs only; prints the tools' folder
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target"
target="$(cd "$target" && pwd)"
tools="${KENKEN_TOOLS:-$target/tools}"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "build-wasm: adding the wasm32-unknown-unknown target" >&2
  rustup target add wasm32-unknown-unknown >&2
fi

# The version crates/wasm pins (`wasm-bindgen = "=X.Y.Z"`): the CLI must match it.
version="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/wasm/Cargo.toml)"
if [ -z "$version" ]; then
  echo "build-wasm: crates/wasm/Cargo.toml pins no wasm-bindgen version" >&2
  exit 1
fi
bindgen="$tools/bin/wasm-bindgen"
if [ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  echo "build-wasm: installing wasm-bindgen-cli $version into $tools (a few minutes, once)" >&2
  start=$SECONDS
  # --locked takes the versions the CLI was released with; when the registry
  # lacks one of them, the newest compatible ones instead.
  locked_log="$(mktemp)"
  if ! cargo install -q wasm-bindgen-cli --version "$version" --root "$tools" --locked 2>"$locked_log"; then
    echo "build-wasm: the registry lacks a version the CLI was released with; taking the newest compatible ones" >&2
    cargo install -q wasm-bindgen-cli --version "$version" --root "$tools" >&2
  fi
  rm -f "$locked_log"
  echo "build-wasm: wasm-bindgen-cli installed in $((SECONDS - start)) s" >&2
fi

if [ "${1:-}" = "--tools" ]; then
  echo "$tools"
  exit 0
fi

cargo build -q --profile wasm --target wasm32-unknown-unknown -p kenken-wasm >&2
out="$target/wasm-bindgen"
mkdir -p "$out"
"$bindgen" --target web --out-dir "$out" --out-name kenken_wasm \
  "$target/wasm32-unknown-unknown/wasm/kenken_wasm.wasm"
echo "$out"
