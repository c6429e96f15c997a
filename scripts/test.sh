#!/usr/bin/env bash
# Runs the whole test suite (the README's test command).
#
# What the tests use from outside Rust is installed first when missing:
# * Debian's sgt-puzzles: Simon Tatham's own program, the oracle of the format
#   conformance and generator tests;
# * Debian's chromium, driven headless by Python's playwright and pytest: the
#   browser tests of `grader serve`'s page (playwright drives the installed
#   chromium; it never downloads a browser of its own);
# * Debian's qpdf and poppler-utils: the PDF checks of `grader print`;
# * Python's maturin, dask, distributed and hypothesis: the `kenken` package
#   (built from crates/python and installed) and its tests, a Dask LocalCluster
#   and property tests included.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
missing=()
[ -x /usr/games/sgt-keen ] || missing+=(sgt-puzzles)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v qpdf >/dev/null || missing+=(qpdf)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python=python3
packages=(pytest playwright maturin dask distributed hypothesis)
if ! $python -c "import pytest, playwright, maturin, dask, distributed, hypothesis" 2>/dev/null; then
  # Into the user's Python when it takes packages, else (a Debian system Python
  # marked as externally managed) into a virtual environment under target/.
  if ! $python -m pip install -q --root-user-action=ignore "${packages[@]}" 2>/dev/null; then
    $python -m venv target/python-tests
    python=target/python-tests/bin/python
    $python -c "import pytest, playwright, maturin, dask, distributed, hypothesis" 2>/dev/null ||
      $python -m pip install -q "${packages[@]}"
  fi
fi

cargo test --workspace --release

# The Python package, built from source and installed with the README's command;
# its tests compare it with the grader binary built above.
$python -m pip install -q --root-user-action=ignore ./crates/python
export GRADER="${CARGO_TARGET_DIR:-target}/release/grader"
# (Two runs: each suite has its own conftest.)
$python -m pytest -q crates/python/tests
$python -m pytest -q crates/web/tests/browser
