#!/usr/bin/env bash
# Regenerates the puzzles of `grader generate` in bands that Tatham's generator
# (filtered by the grader) does not reach, or reaches rarely:
# * puzzles/generated-rare.json (graded in mode b by the corpus regression);
# * puzzles/seven-cage/seven-cage.json: 9×9s rated 5.0, a combination of seven
#   cages (several minutes of generation; mode c runs out of its work limit on
#   them, so they are checked apart: see puzzles/seven-cage/README.md).
# The runs are seeded, and the generator gives the same puzzles for the same
# seed and options on any number of threads, so this reproduces the files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p kenken-grader
g=target/release/grader
# NDJSON rows in, a JSON list of their puzzles out.
json_list() {
  python3 -c '
import json, sys
ids = [json.loads(line)["puzzle"] for line in sys.stdin]
print("[\n" + ",\n".join(json.dumps(i) for i in ids) + "\n]")
'
}
{
  $g generate --size 4 --min 4.4 --max 4.4 --count 3 --seed 1 --quiet
  $g generate --size 5 --min 4.6 --max 4.6 --count 3 --seed 1 --quiet
  $g generate --size 5 --min 4.8 --count 1 --seed 1 --quiet
  $g generate --size 6 --min 4.6 --max 4.6 --count 10 --seed 1 --quiet
  $g generate --size 6 --min 4.8 --count 2 --seed 1 --quiet
  $g generate --size 7 --min 4.6 --max 4.6 --count 6 --seed 1 --quiet
  $g generate --size 7 --min 4.8 --count 2 --seed 1 --quiet
  $g generate --size 8 --min 4.8 --count 2 --seed 1 --quiet
  $g generate --size 9 --min 4.6 --max 4.6 --count 4 --seed 1 --quiet
  $g generate --size 6 --min 4.4 --max 4.4 --count 5 --seed 1 --strict --quiet
  $g generate --size 7 --min 3.0 --max 3.9 --require region-sum --forbid cage-combination --count 5 --seed 1 --quiet
} | json_list > puzzles/generated-rare.json
echo "puzzles/generated-rare.json: $(grep -c ':' puzzles/generated-rare.json) puzzles"
$g generate --size 9 --min 5.0 --count 3 --seed 1 --quiet | json_list > puzzles/seven-cage/seven-cage.json
echo "puzzles/seven-cage/seven-cage.json: $(grep -c ':' puzzles/seven-cage/seven-cage.json) puzzles"
