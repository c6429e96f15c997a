#!/usr/bin/env bash
# Runs the whole test suite (the README's test command).
#
# The format conformance tests compare our Tatham reader with Simon Tatham's own
# program, Debian's sgt-puzzles; it is installed first when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/games/sgt-keen ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq sgt-puzzles >/dev/null
fi

cargo test --workspace --release
