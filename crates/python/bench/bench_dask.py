"""Scaling of kenken.dask on this machine, against grader itself.

    python crates/python/bench/bench_dask.py [--puzzles 1000000] [--repeats 2]

1. The input: Tatham puzzles made by Debian's sgt-keen (`--generate`, sizes 4 to
   9, levels easy to unreasonable, `--per-params` of each, seeded, cached in
   `--work`), shuffled and repeated to `--puzzles` NDJSON lines.
2. Grading, in each repeat and in this order: `grader batch --jobs 1`, a
   LocalCluster of 1 worker, `grader batch --jobs 2`, a LocalCluster of 2 workers
   (one thread each); rows/s, the 2-worker/1-worker ratio, the overhead against
   grader with as many threads, the peak RSS of grader, of each worker and of the
   client; and a check that every output is byte-identical to grader's.
3. Generation of `--gen-count` 9x9 puzzles rated 4.4 or more (`--gen-min`) with
   one seed, by `grader generate --jobs W` and on W workers, W = 1, 2: puzzles per
   minute, and the check that the outputs are identical.

The machine is shared and noisy: compare figures within one repeat. Results are
printed as Markdown tables and written to `--work`/results.json.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import kenken.dask

REPO = Path(__file__).resolve().parents[3]
KEEN = os.environ.get("KEEN", "/usr/games/sgt-keen")
TIME = "/usr/bin/time"


def keen_puzzles(work: Path, per_params: int) -> list[str]:
    """Tatham puzzles, 4x4 to 9x9, every level, made once and cached."""
    params = [f"{n}d{lv}" for n in range(4, 10) for lv in "enhxu"]

    def make(p: str) -> Path:
        path = work / f"keen-{p}-{per_params}.txt"
        if not path.exists():
            out = subprocess.run(
                [KEEN, "--generate", str(per_params), f"{p}#kenken-bench-{p}"],
                check=True,
                capture_output=True,
            ).stdout
            path.write_bytes(out)
        return path

    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(make, params))
    ids: list[str] = []
    for path in paths:
        ids.extend(line.split(" ", 1)[0] for line in path.read_text().splitlines() if line.strip())
    return list(dict.fromkeys(ids))


def make_input(work: Path, n: int, per_params: int) -> Path:
    path = work / f"input-{n}.ndjson"
    if path.exists():
        return path
    ids = keen_puzzles(work, per_params)
    random.Random(1).shuffle(ids)
    with open(path, "w") as f:
        for i in range(n):
            f.write(json.dumps(ids[i % len(ids)]) + "\n")
    return path


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_grader(grader: str, args: list[str], out: Path) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (KiB) and CPU seconds of one grader run, stdout to
    `out`."""
    started = time.monotonic()
    with open(out, "wb") as f:
        done = subprocess.run([TIME, "-f", "%M %U %S", grader, *args], stdout=f, stderr=subprocess.PIPE)
    took = time.monotonic() - started
    if done.returncode not in (0, 2, 4):
        raise SystemExit(f"grader {' '.join(args)} failed: {done.stderr.decode()}")
    rss, user, system = done.stderr.decode().strip().splitlines()[-1].split()
    return took, int(rss), float(user) + float(system)


def cpu_seconds() -> float:
    """This process's CPU time (user and system), read in a worker."""
    t = os.times()
    return t.user + t.system


def peak_kib() -> int:
    """This process's peak RSS (KiB), read in a worker."""
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def cluster(workers: int):
    """A LocalCluster of `workers` processes, as `kenken.dask` starts it."""
    stack = contextlib.ExitStack()
    client = stack.enter_context(kenken.dask.connect(workers=workers))
    return stack, client


def bench_grading(args, grader: str, work: Path, source: Path) -> list[dict]:
    results = []
    for repeat in range(args.repeats):
        for jobs in (1, 2):
            g_out = work / f"grader-{jobs}.ndjson"
            took, rss, cpu = run_grader(grader, ["batch", str(source), "--format", "ndjson", "--quiet", "--jobs", str(jobs)], g_out)
            results.append(dict(repeat=repeat, who="grader", n=jobs, seconds=took, peak_kib=rss, cpu=cpu))
            print(
                f"repeat {repeat}: grader --jobs {jobs}: {took:.1f} s, {args.puzzles / took:.0f} rows/s, "
                f"{cpu:.1f} CPU s, peak {rss / 1024:.0f} MiB",
                flush=True,
            )
            started = time.monotonic()
            c, client = cluster(jobs)
            startup = time.monotonic() - started
            d_out = work / f"dask-{jobs}.ndjson"
            worker_cpu0 = sum(client.run(cpu_seconds).values())
            client_cpu0 = cpu_seconds()
            started = time.monotonic()
            kenken.dask.grade(str(source), str(d_out), client=client, quiet=True, shard_size=args.shard_size)
            took = time.monotonic() - started
            client_cpu = cpu_seconds() - client_cpu0
            worker_cpu = sum(client.run(cpu_seconds).values()) - worker_cpu0
            peaks = sorted(client.run(peak_kib).values())
            c.close()
            same = digest(d_out) == digest(g_out)
            results.append(
                dict(repeat=repeat, who="dask", n=jobs, seconds=took, startup=startup, worker_peak_kib=peaks,
                     client_peak_kib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, identical=same,
                     worker_cpu=worker_cpu, client_cpu=client_cpu)
            )
            print(
                f"repeat {repeat}: dask {jobs} worker(s): {took:.1f} s (+{startup:.1f} s start), "
                f"{args.puzzles / took:.0f} rows/s, CPU s: workers {worker_cpu:.1f}, client and scheduler "
                f"{client_cpu:.1f}; worker peaks {[round(p / 1024) for p in peaks]} MiB, "
                f"identical to grader: {same}",
                flush=True,
            )
            if not same:
                raise SystemExit("the outputs differ")
            d_out.unlink()
    return results


def bench_generation(args, grader: str, work: Path) -> list[dict]:
    results = []
    flags = ["--size", "9", "--min", str(args.gen_min), "--count", str(args.gen_count), "--seed", str(args.gen_seed)]
    for n in (1, 2):
        g_out = work / f"gen-grader-{n}.ndjson"
        took, _, _ = run_grader(grader, ["generate", *flags, "--quiet", "--jobs", str(n)], g_out)
        found = len(g_out.read_bytes().splitlines())
        results.append(dict(who="grader", n=n, seconds=took, found=found))
        print(f"generate, grader --jobs {n}: {took:.1f} s, {found / took * 60:.1f} puzzles/min", flush=True)
        c, client = cluster(n)
        d_out = work / f"gen-dask-{n}.ndjson"
        started = time.monotonic()
        report = kenken.dask.generate(
            str(d_out), client=client, size=9, min=args.gen_min, count=args.gen_count, seed=args.gen_seed, quiet=True
        )
        took = time.monotonic() - started
        c.close()
        same = d_out.read_bytes() == g_out.read_bytes()
        results.append(dict(who="dask", n=n, seconds=took, found=report.found, tried=report.tried, identical=same))
        print(
            f"generate, dask {n} worker(s): {took:.1f} s, {report.found / took * 60:.1f} puzzles/min, "
            f"{report.tried} attempts, identical to grader: {same}",
            flush=True,
        )
    return results


def table(grading: list[dict], generation: list[dict], puzzles: int) -> str:
    lines = ["| repeat | grader -j1 rows/s | dask 1 worker rows/s | time overhead | grader -j2 rows/s | dask 2 workers rows/s | time overhead | dask 2/1 | CPU overhead (1 / 2 workers) | worker peak MiB (1 / 2 workers) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in sorted({x["repeat"] for x in grading}):
        row = {(x["who"], x["n"]): x for x in grading if x["repeat"] == r}
        rate = lambda k: puzzles / row[k]["seconds"]
        over = lambda n: row[("dask", n)]["seconds"] / row[("grader", n)]["seconds"] - 1
        cpu_over = lambda n: (row[("dask", n)]["worker_cpu"] + row[("dask", n)]["client_cpu"]) / row[("grader", n)]["cpu"] - 1
        peaks = " / ".join(
            ", ".join(str(round(p / 1024)) for p in row[("dask", n)]["worker_peak_kib"]) for n in (1, 2)
        )
        lines.append(
            f"| {r} | {rate(('grader', 1)):.0f} | {rate(('dask', 1)):.0f} | {over(1):+.1%} | "
            f"{rate(('grader', 2)):.0f} | {rate(('dask', 2)):.0f} | {over(2):+.1%} | "
            f"{rate(('dask', 2)) / rate(('dask', 1)):.2f}x | {cpu_over(1):+.1%} / {cpu_over(2):+.1%} | {peaks} |"
        )
    if generation:
        lines += ["", "| 9x9 generation, puzzles/min | 1 thread or worker | 2 | 2/1 |", "|---|---:|---:|---:|"]
        for who in ("grader", "dask"):
            per = {x["n"]: x["found"] / x["seconds"] * 60 for x in generation if x["who"] == who}
            lines.append(f"| {who} | {per[1]:.1f} | {per[2]:.1f} | {per[2] / per[1]:.2f}x |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--puzzles", type=int, default=1_000_000)
    p.add_argument("--per-params", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--shard-size", type=int, default=kenken.dask.DEFAULT_SHARD_SIZE)
    p.add_argument("--work", type=Path, default=Path("/tmp/kenken-bench"))
    p.add_argument("--grader", default=str(REPO / "target" / "release" / "grader"))
    p.add_argument("--gen-count", type=int, default=60)
    p.add_argument("--gen-min", type=float, default=4.4)
    p.add_argument("--gen-seed", type=int, default=1)
    p.add_argument("--skip-grading", action="store_true")
    p.add_argument("--skip-generation", action="store_true")
    args = p.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if shutil.which(TIME) is None:
        raise SystemExit(f"{TIME} is needed (Debian package time)")
    print(f"load average at start: {os.getloadavg()}", flush=True)
    grading = []
    if not args.skip_grading:
        source = make_input(args.work, args.puzzles, args.per_params)
        grading = bench_grading(args, args.grader, args.work, source)
    generation = [] if args.skip_generation else bench_generation(args, args.grader, args.work)
    print(f"load average at end: {os.getloadavg()}")
    (args.work / "results.json").write_text(json.dumps(dict(grading=grading, generation=generation), indent=1))
    print(table(grading, generation, args.puzzles))


if __name__ == "__main__":
    main()
