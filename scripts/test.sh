#!/usr/bin/env bash
# Runs the whole test suite (the README's test command), on a fresh clone of the
# repository with nothing beside it and any Python 3.9+ first on PATH.
#
# What the tests use from outside Rust is installed first, before any test runs:
# * Debian's sgt-puzzles: Simon Tatham's own program, the oracle of the format
#   conformance and generator tests;
# * Debian's chromium, driven headless by Python's playwright and pytest: the
#   browser tests of `grader serve`'s page (playwright drives the installed
#   chromium; it never downloads a browser of its own);
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
for example in "kenken-techniques grade_and_explain" "kenken-generator generate_one" \
  "kenken-render draw"; do
  set -- $example
  cargo run --release -q -p "$1" --example "$2" >/dev/null
done

# The Python tests compare the package with the grader binary built above.
export GRADER="$(cd "$target/release" && pwd)/grader"
# (Two runs: each suite has its own conftest.)
python -m pytest -q crates/python/tests
python -m pytest -q crates/web/tests/browser
