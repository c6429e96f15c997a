#!/usr/bin/env bash
# Runs the whole test suite (the README's test command), on a fresh clone of the
# repository with nothing beside it and any Python 3.9+ first on PATH.
#
# What the tests use from outside Rust is installed first, before any test runs:
# * Debian's sgt-puzzles: Simon Tatham's own program, the oracle of the format
#   conformance and generator tests;
# * Debian's chromium, driven headless by Python's playwright and pytest: the
#   browser tests of the page on both its back ends, `grader serve`'s API and the
#   static site's engine in a Web Worker (playwright drives the installed
#   chromium; it never downloads a browser of its own); and Debian's
#   chromium-driver, through which wasm-bindgen-test runs the WebAssembly
#   bindings' tests in it;
# * Node and npm (Debian's nodejs and npm when there is no node): the npm
#   package's tests (Node's test runner), and axe-core from the npm registry
#   (crates/web/tests/browser/package-lock.json), the browser tests'
#   accessibility checker;
# * for the WebAssembly build (scripts/build-wasm.sh): the wasm32-unknown-unknown
#   target and wasm-bindgen-cli at the version crates/wasm pins, built from the
#   crate registry into target/tools (or $KENKEN_TOOLS) once;
# * Debian's qpdf and poppler-utils: the PDF checks of `grader print`;
# * a virtual environment of the project's own (target/python-tests, made from the
#   first python3 on PATH) holding pytest, hypothesis, playwright, schemathesis,
#   maturin, dask, distributed and pandas, and the `kenken` package built from
#   crates/python. Its bin/ comes first on PATH for every test after, so the tests
#   (README's Python and Dask examples among them) see that Python alone.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
missing=()
[ -x /usr/games/sgt-keen ] || missing+=(sgt-puzzles)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v qpdf >/dev/null || missing+=(qpdf)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

target="${CARGO_TARGET_DIR:-target}"
venv="$target/python-tests"
packages=(pytest hypothesis playwright schemathesis maturin dask distributed pandas)
if ! "$venv/bin/python" -c "import pytest, hypothesis, playwright, schemathesis, maturin, dask, distributed, pandas" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q "${packages[@]}"
fi
venv="$(cd "$venv" && pwd)"
export PATH="$venv/bin:$PATH"
export VIRTUAL_ENV="$venv"

# The Python package, built from source and installed with the README's command,
# before the Rust tests (README's Dask example needs it).
python -m pip install -q ./crates/python

cargo test --workspace --release

# The API examples (docs/architecture.md), run: each checks itself with asserts.
# The test build above built them and linked each into target/release/examples
# (`cargo run -p` would build them again, with their own package's features).
for example in grade_and_explain generate_one draw; do
  "$target/release/examples/$example" >/dev/null
done

# The engine in WebAssembly: the static site and the npm package (one
# compilation for both), and what the browser tests load into the page.
bash scripts/build-site.sh "$target/site"
bash scripts/build-npm.sh "$target/npm"
npm ci --prefix crates/web/tests/browser --no-audit --no-fund --loglevel=error

# The tests below compare with the grader binary built above.
export GRADER="$(cd "$target/release" && pwd)/grader"
export KENKEN_SITE="$(cd "$target/site" && pwd)"
# The WebAssembly bindings in headless Chromium (wasm-bindgen-test), built in the
# profile of the site's build, whose compiled crates it shares.
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$(bash scripts/build-wasm.sh --tools)/bin/wasm-bindgen-test-runner" \
  cargo test --profile wasm --target wasm32-unknown-unknown -p kenken-wasm --test web
# The npm package in Node, function by function against the grader binary.
KENKEN_PACKAGE="$target/npm" node --test crates/wasm/tests/node/
# (Two runs: each suite has its own conftest.)
python -m pytest -q crates/python/tests
python -m pytest -q crates/web/tests/browser
