"""``python -m kenken.dask grade|generate``: ``grader batch`` and ``grader
generate`` on a Dask cluster (a LocalCluster on this machine unless
``--scheduler`` names one). See ``python -m kenken.dask grade --help``."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import warnings
from typing import Any, Optional, Sequence

from ..errors import KenkenError, OutputError
from . import DEFAULT_ATTEMPTS_PER_TASK, DEFAULT_SHARD_SIZE, _clear_stop, _stop_with, attempts_text, band, closest_text, generate, grade

PROG = "python -m kenken.dask"


def _ids(values: Optional[list[str]]) -> list[str]:
    """Technique ids, repeated or separated by commas (an empty one is kept, for
    the library to refuse as ``grader`` refuses it)."""
    return [t.strip() for v in values or [] for t in v.split(",")]


def _whole(text: str) -> int:
    """A whole number (``1e9`` and ``2.5`` are not)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, not {n}")
    return n


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None


def _cage_sizes(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    try:
        return int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a cage-size range LO-HI, e.g. 2-4")


def _cluster_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("cluster")
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the scheduler of a running Dask cluster (tcp://HOST:8786); "
        "default: start a LocalCluster on this machine",
    )
    g.add_argument(
        "--workers",
        type=_positive,
        metavar="N",
        help="worker processes of the LocalCluster, one thread each (default: every core)",
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=PROG, description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    g = sub.add_parser(
        "grade",
        help="grader batch on a cluster",
        description="Grades a batch file (a JSON array, NDJSON, a JSON object of puzzle "
        "arrays, one puzzle per line) on a Dask cluster and writes exactly what "
        "`grader batch --format ndjson` (or tsv) writes with the same options, in input "
        "order. Exit codes as grader batch: 0, 1 (internal error), 2 (bad input or "
        "invalid rows).",
    )
    g.add_argument("input", metavar="INPUT", help="the batch file")
    g.add_argument("-o", "--output", metavar="OUT", help="the output file (default: standard output)")
    g.add_argument("--format", choices=["ndjson", "tsv"], default="ndjson")
    g.add_argument("--mode", choices=["n", "c", "b"], default="n",
                   help="n = the whole ladder, c = cage combinations only, b = both")
    g.add_argument("--disable", action="append", metavar="TECHNIQUE",
                   help="switch a technique off (repeat, or separate ids with commas)")
    g.add_argument("--enable", action="append", metavar="TECHNIQUE",
                   help="switch on a technique that is off by default")
    g.add_argument("--max-depth", type=_whole, default=8, metavar="N")
    g.add_argument("--timeout", type=_number, metavar="SECONDS", help="per puzzle")
    g.add_argument("--max-memory", default="512M", metavar="SIZE")
    g.add_argument("--max-work", type=_whole, metavar="CHECKS")
    g.add_argument("--hide-ops", action="store_true",
                   help="grade every puzzle with its operations hidden (a cage shows only its "
                   "number); an entry {\"puzzle\": …, \"hide_ops\": true} asks for it alone")
    g.add_argument("--times", action="store_true", help="add each puzzle's grading time (ms)")
    g.add_argument("--summary", action="store_true", help="print the difficulty tally to stderr")
    g.add_argument("--quiet", action="store_true", help="no progress, no warnings")
    g.add_argument("--shard-size", type=_positive, default=DEFAULT_SHARD_SIZE, metavar="N",
                   help=f"puzzles per task (default {DEFAULT_SHARD_SIZE})")
    _cluster_options(g)

    n = sub.add_parser(
        "generate",
        help="grader generate on a cluster",
        description="Makes unique puzzles whose max rating lies in a band, splitting the "
        "seeded run into ranges of attempts: the output is that of `grader generate` with "
        "the same seed and options, whatever the number of workers. Exit code 4 when "
        "--max-tries or --timeout stops the run first.",
    )
    n.add_argument("-o", "--output", metavar="OUT", help="the output file (default: standard output)")
    n.add_argument("--size", type=_whole, required=True, metavar="N")
    n.add_argument("--min", type=_number, required=True, metavar="RATING")
    n.add_argument("--max", type=_number, metavar="RATING")
    n.add_argument("--count", type=_whole, default=1, metavar="K")
    n.add_argument("--seed", type=_whole, metavar="S")
    n.add_argument("--format", choices=["ndjson", "tatham", "k6c", "d6c", "text"], default="ndjson")
    n.add_argument("--ops", default="+-*/")
    n.add_argument("--strict", action="store_true")
    n.add_argument("--cage-sizes", type=_cage_sizes, default=(2, 5), metavar="LO-HI")
    n.add_argument("--max-givens", type=_whole, default=1, metavar="N")
    n.add_argument("--max-mean-cage", type=_number, default=2.4, metavar="CELLS")
    n.add_argument("--kendoku", action="store_true")
    n.add_argument("--hide-ops", action="store_true",
                   help="puzzles unique with every operation hidden, in the text format")
    n.add_argument("--require", action="append", metavar="TECHNIQUE")
    n.add_argument("--forbid", action="append", metavar="TECHNIQUE")
    n.add_argument("--max-depth", type=_whole, metavar="N")
    n.add_argument("--max-tries", type=_whole, default=10_000, metavar="N")
    n.add_argument("--steps", type=_whole, metavar="N")
    n.add_argument("--timeout", type=_number, metavar="SECONDS")
    n.add_argument("--quiet", action="store_true")
    n.add_argument("--attempts-per-task", type=_positive, default=DEFAULT_ATTEMPTS_PER_TASK,
                   metavar="N", help=f"default {DEFAULT_ATTEMPTS_PER_TASK}")
    _cluster_options(n)
    return top


def run_grade(a: argparse.Namespace) -> int:
    report = grade(
        a.input,
        a.output,
        scheduler=a.scheduler,
        workers=a.workers,
        shard_size=a.shard_size,
        format=a.format,
        times=a.times,
        summary=a.summary,
        quiet=a.quiet,
        mode=a.mode,
        timeout=a.timeout,
        disable=_ids(a.disable),
        enable=_ids(a.enable),
        max_depth=a.max_depth,
        max_memory=a.max_memory,
        max_work=a.max_work,
        hide_ops=a.hide_ops,
    )
    err = sys.stderr
    if report.summary is not None:
        err.write(report.summary)
    if not a.quiet:
        for status, n in sorted(report.stopped.items()):
            why = "reached --timeout" if status == "timeout" else "stopped before the end"
            print(f"{PROG} grade: {n} puzzle(s) {why} (status `{status}`)", file=err)
    if report.input_error is not None:
        print(f"{PROG} grade: error: {report.input_error} (after {report.rows} rows)", file=err)
    elif report.errors:
        print(f"{PROG} grade: the grader failed on {report.errors} puzzle(s) (see their rows)", file=err)
    elif report.invalid:
        print(
            f"{PROG} grade: {report.invalid} puzzle(s) could not be read or are not valid "
            "puzzles (see their rows)",
            file=err,
        )
    if not a.quiet:
        print(f"{PROG} grade: {report.rows} row(s) in {report.seconds:.2f} s", file=err)
    return report.exit_code


def run_generate(a: argparse.Namespace) -> int:
    report = generate(
        a.output,
        size=a.size,
        min=a.min,
        max=a.max,
        count=a.count,
        seed=a.seed,
        format=a.format,
        scheduler=a.scheduler,
        workers=a.workers,
        attempts_per_task=a.attempts_per_task,
        max_tries=a.max_tries,
        timeout=a.timeout,
        quiet=a.quiet,
        ops=a.ops,
        strict=a.strict,
        cage_sizes=a.cage_sizes,
        max_givens=a.max_givens,
        max_mean_cage=a.max_mean_cage,
        kendoku=a.kendoku,
        hide_ops=a.hide_ops,
        require=_ids(a.require),
        forbid=_ids(a.forbid),
        max_depth=a.max_depth,
        steps=a.steps,
    )
    rated = band(a.min, a.max)
    secs = report.seconds
    attempts = attempts_text(report)
    if report.stopped == "done":
        if not a.quiet:
            print(
                f"generated {report.found} puzzle(s) rated {rated} in {attempts}, "
                f"{secs:.1f} s (seed {report.seed})",
                file=sys.stderr,
            )
        return 0
    why = f"--max-tries {a.max_tries}" if report.stopped == "tries" else f"--timeout {a.timeout}"
    nearest = closest_text(report, a.size, a.min, a.max)
    print(
        f"{PROG}: found {report.found} of {a.count} puzzle(s) rated {rated} in {attempts}, "
        f"{secs:.1f} s (seed {report.seed}): stopped by {why}; among the attempts "
        f"that missed, {nearest}",
        file=sys.stderr,
    )
    return report.exit_code


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread as SIGINT raises KeyboardInterrupt, so
    that a run stopped either way cleans up the same (the output's temporary
    file removed, the cluster closed)."""


def _stopped(signum: int, frame: Any) -> None:
    """SIGINT or SIGTERM: the run unwinds (its output's temporary file removed,
    the cluster closed) and says so in one line; what Dask would log about the
    connections and tasks it drops meanwhile is no news to the user. Every
    logger is silenced, not only Dask's own: Dask gives some of the loggers it
    uses levels of their own (`tornado.application`, which reports a callback
    that failed as the loop unwinds), so a parent's level would not reach them.
    The stop is recorded as well as raised: raised in a finalizer, Python would
    ignore it, and the run looks for it at its next result."""
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    sys.unraisablehook = lambda unraisable: None
    raise _stop_with(KeyboardInterrupt() if signum == signal.SIGINT else _Terminated())


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = parser().parse_args(argv)
    # Signal handlers belong to the main thread (main() may be called elsewhere).
    handled = threading.current_thread() is threading.main_thread()
    previous = {}
    if handled:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, _stopped)
    try:
        return run_grade(a) if a.command == "grade" else run_generate(a)
    except OutputError as e:
        print(f"{PROG} {a.command}: error: {e}", file=sys.stderr)
        return 1
    except KenkenError as e:
        print(f"{PROG} {a.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    except (KeyboardInterrupt, _Terminated) as e:
        # One line, as grader says it (128 + the signal's number).
        name, code = ("SIGINT", 130) if isinstance(e, KeyboardInterrupt) else ("SIGTERM", 143)
        print(f"{PROG} {a.command}: stopped by {name}", file=sys.stderr)
        return code
    except Exception as e:  # a bug, or the cluster failed: one line, as grader says it
        print(f"{PROG} {a.command}: error: {e}", file=sys.stderr)
        return 1
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _clear_stop()


if __name__ == "__main__":
    sys.exit(main())
