#!/usr/bin/env bash
# Regenerates puzzles/hidden-ops.json: Tatham puzzles that stay unique when their
# operations are hidden (every cage shows only its number). For each size 4 to 9
# and each level easy, normal, hard, extreme, unreasonable, the first PER_FILE
# puzzles of puzzles/tatham-<N>x<N>-<level>.json (in file order) that
# `grader solve --hide-ops` finds unique, each written as
# {"puzzle": "<game ID>", "hide_ops": true}, so `grader batch` grades it with its
# operations hidden and ratings/tatham-*.tsv hold the same puzzle with them shown.
#
# GRADER=path uses that binary instead of building the release one.
#
# With `--share`, it also prints, per size, how many of the 1 000 Tatham puzzles
# of that size stay unique with their operations hidden (the whole files: about a
# CPU-minute for 9×9).
set -euo pipefail
cd "$(dirname "$0")/.."
PER_FILE=8
g=${GRADER:-target/release/grader}
[ -n "${GRADER:-}" ] || cargo build --release -q -p kenken-grader
levels="easy normal hard extreme unreasonable"

if [ "${1:-}" = "--share" ]; then
  for n in 4 5 6 7 8 9; do
    files=$(for l in $levels; do echo "puzzles/tatham-${n}x${n}-$l.json"; done)
    cat $files | python3 -c '
import json, sys
text = sys.stdin.read().replace("]\n[", ",").replace("][", ",")
print("\n".join(json.loads(text)))' |
      $g solve --many --hide-ops --quiet --format ndjson |
      python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
unique = sum(r["status"] == "unique" for r in rows)
print(f"'"${n}x${n}"': {unique} of {len(rows)} unique with operations hidden ({100 * unique / len(rows):.1f}%)")'
  done
  exit 0
fi

for n in 4 5 6 7 8 9; do
  for l in $levels; do
    # The first 40 of a file hold more than PER_FILE such puzzles in every file.
    python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))[:40]))' \
      "puzzles/tatham-${n}x${n}-$l.json" |
      $g solve --many --hide-ops --quiet --format ndjson || [ $? -eq 3 ]
  done
done | python3 -c '
import json, sys
from collections import Counter
per_file, kept, seen = int(sys.argv[1]), [], Counter()
rows = [json.loads(line) for line in sys.stdin]
# Rows come file by file; a file starts where the index goes back to 1.
file = -1
for row in rows:
    if row["index"] == 1:
        file += 1
    if row["status"] == "unique" and seen[file] < per_file:
        seen[file] += 1
        kept.append({"puzzle": row["puzzle"], "hide_ops": True})
assert len(seen) == 30 and all(k == per_file for k in seen.values()), seen
print("[\n" + ",\n".join(json.dumps(k) for k in kept) + "\n]")
' "$PER_FILE" > puzzles/hidden-ops.json
echo "puzzles/hidden-ops.json: $(grep -c hide_ops puzzles/hidden-ops.json) puzzles"
