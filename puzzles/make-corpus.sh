#!/usr/bin/env bash
# Regenerates the Tatham corpus files puzzles/tatham-*.json and puzzles/sample.json
# with Simon Tatham's Keen (Debian package sgt-puzzles, binary /usr/games/sgt-keen).
#
# Generation is seeded: every chunk is produced by
#     sgt-keen --generate COUNT 'PARAMS#kenken-corpus-PARAMS-CHUNK'
# and Keen's generator is fully determined by its random-seed string, so with the
# same sgt-puzzles version (20230122.806ae71-2 was used) re-running this script
# reproduces the committed files byte for byte. Chunk outputs are concatenated in
# chunk order, de-duplicated keeping the first occurrence, and the first 200 kept
# (3x3: every distinct ID found is kept).
#
# Usage:
#   puzzles/make-corpus.sh               # everything (9dum alone is ~3 CPU-hours)
#   puzzles/make-corpus.sh 4de 9dum      # only the files for these params
# Environment: JOBS (parallel keen processes, default 2), KEEN (keen binary).
set -euo pipefail

KEEN=${KEEN:-/usr/games/sgt-keen}
JOBS=${JOBS:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
# CORPUS_WORK keeps chunk outputs between runs (a chunk whose output is already
# there is not generated again), so a long run can be interrupted and resumed.
if [ -n "${CORPUS_WORK:-}" ]; then
  WORK=$CORPUS_WORK
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
export KEEN WORK

# params  file-name                       first-chunk  chunks  per-chunk  keep(0=all distinct)
# Listed slowest first so the parallel queue finishes evenly. 9dum costs about a
# CPU-minute per puzzle, so it is made in eight chunks of 25 (chunks 1-8 of its
# seed series; set CORPUS_WORK to resume an interrupted run).
TABLE="
9dum tatham-9x9-unreasonable-mult      1  8  25     0
6dxm tatham-6x6-extreme-mult           0  3  100    200
3dn  tatham-3x3-normal                 0  20 100000 0
3de  tatham-3x3-easy                   0  3  100000 0
"
for n in 4 5 6 7 8 9; do
  for lv in e:easy n:normal h:hard x:extreme u:unreasonable; do
    TABLE+="${n}d${lv%%:*} tatham-${n}x${n}-${lv#*:} 0 3 100 200
"
  done
done

# Optional filter: only the params given on the command line.
if [ $# -gt 0 ]; then
  FILTERED=""
  for p in "$@"; do
    line=$(printf '%s\n' "$TABLE" | awk -v p="$p" '$1 == p')
    [ -n "$line" ] || { echo "unknown params: $p" >&2; exit 2; }
    FILTERED+="$line
"
  done
  TABLE=$FILTERED
fi

gen_chunk() { # params chunk count
  local t0 t1
  [ -s "$WORK/$1.$2.txt" ] && [ -s "$WORK/$1.$2.time" ] && return 0
  t0=$(date +%s.%N)
  "$KEEN" --generate "$3" "$1#kenken-corpus-$1-$2" > "$WORK/$1.$2.txt.part"
  mv "$WORK/$1.$2.txt.part" "$WORK/$1.$2.txt"
  t1=$(date +%s.%N)
  # wall-clock start and end; then (bash builtin times) this shell's own user/sys
  # CPU time and that of its children, i.e. of sgt-keen
  { echo "$1 $2 $3 $t0 $t1"; times; } > "$WORK/$1.$2.time"
}
export -f gen_chunk

printf '%s\n' "$TABLE" | awk 'NF { for (i = $3; i < $3 + $4; i++) print $1, i, $5 }' \
  | xargs -P "$JOBS" -n 3 bash -c 'gen_chunk "$@"' _

printf '%s\n' "$TABLE" | awk 'NF' > "$WORK/table"
python3 - "$WORK" "$HERE" <<'PY'
import json, os, sys
work, out = sys.argv[1], sys.argv[2]

def write(path, ids):
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(s) for s in ids) + "\n]\n")

for line in open(os.path.join(work, "table")):
    params, name, first, chunks, per, keep = line.split()
    first, chunks, per, keep = int(first), int(chunks), int(per), int(keep)
    seen, ids, secs, cpu = set(), [], 0.0, 0.0
    for c in range(first, first + chunks):
        with open(os.path.join(work, f"{params}.{c}.txt")) as f:
            lines = [l.strip() for l in f if l.strip()]
        if len(lines) != per:
            sys.exit(f"{params} chunk {c}: expected {per} IDs, got {len(lines)}")
        for s in lines:
            if not s.startswith(params.split("d")[0] + ":"):
                sys.exit(f"{params}: unexpected line {s!r}")
            if s not in seen:
                seen.add(s)
                ids.append(s)
        with open(os.path.join(work, f"{params}.{c}.time")) as f:
            head, _own, children = f.read().splitlines()
            t = head.split()
            secs += float(t[4]) - float(t[3])
            for v in children.split():  # "1m2.345s"
                m, sec = v.rstrip("s").split("m")
                cpu += 60 * float(m) + float(sec)
    if keep:
        if len(ids) < keep:
            sys.exit(f"{params}: only {len(ids)} distinct IDs, need {keep}")
        ids = ids[:keep]
    write(os.path.join(out, name + ".json"), ids)
    total = chunks * per
    print(f"{params:5} {name + '.json':40} {len(ids):4} kept, {len(seen):5} distinct of "
          f"{total:7} generated; wall {secs:8.1f} s; CPU {cpu:8.1f} s = "
          f"{1000 * cpu / total:9.2f} ms/puzzle",
          file=sys.stderr)

# The bundled sample: the first few puzzles of several files (skipped when a file is
# missing, e.g. on a partial run before the full corpus exists).
SAMPLE = [("tatham-3x3-normal", 1), ("tatham-4x4-easy", 2), ("tatham-4x4-unreasonable", 1),
          ("tatham-5x5-normal", 2), ("tatham-6x6-hard", 2), ("tatham-6x6-extreme-mult", 2),
          ("tatham-7x7-extreme", 2), ("tatham-8x8-hard", 2), ("tatham-8x8-unreasonable", 2),
          ("tatham-9x9-easy", 1), ("tatham-9x9-unreasonable", 2),
          ("tatham-9x9-unreasonable-mult", 1)]
sample = []
for name, k in SAMPLE:
    p = os.path.join(out, name + ".json")
    if os.path.exists(p):
        sample += json.load(open(p))[:k]
write(os.path.join(out, "sample.json"), sample)
print(f"sample.json: {len(sample)} puzzles", file=sys.stderr)
PY
