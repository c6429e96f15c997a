"""Grading and generating on a Dask cluster, with ``grader``'s output.

:func:`grade` grades a batch file (any input ``grader batch`` reads) on a cluster
and writes exactly the bytes ``grader batch --format ndjson`` (or ``tsv``) writes
with the same options. The client reads the input with ``grader``'s own reader, a
shard at a time (``shard_size`` puzzles), numbered as in the whole input; each
shard is graded by one task on a worker (the same library code as ``grader
batch``, grouped by size); the rows come back and are written in input order. At
most a few shards per worker thread are in flight, so memory stays flat however
long the input.

:func:`generate` splits a seeded generation run into ranges of attempts
(``attempts_per_task``). Attempt *i* of a run depends only on the seed and *i*,
and found puzzles are taken in attempt order, so the output is that of ``grader
generate`` with the same seed and options, whatever the number of workers.

Without ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``) or ``client``,
both start a :class:`distributed.LocalCluster` on this machine: a scheduler and
``workers`` worker processes (one thread each). The workers of a real cluster
need this package installed (``pip install ./crates/python`` on each machine).

A worker that dies (killed, out of memory, its machine gone) loses nothing: Dask
runs its tasks again elsewhere, and a task whose input or result went with it is
submitted again (up to :data:`MAX_RESUBMITS` times each), so the output is the
same. An output file is written under a temporary name beside it and renamed when
the run is over: it holds a whole run's output, or is left as it was when the run
fails.

``python -m kenken.dask grade|generate`` is the command line. A script that
starts a LocalCluster must do so under ``if __name__ == "__main__":`` (its worker
processes import the script).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import numbers
import os
import secrets
import signal
import stat
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterator, Optional, Sequence

from .. import _kenken
from ..errors import OptionsError, OutputError

#: Puzzles per grading task: large enough that a task's overhead (scheduling,
#: transfer, and the client's and scheduler's CPU, which share the cores with the
#: workers on a LocalCluster) is small against its grading, small enough that
#: every worker gets many tasks and the shards in flight stay a few MiB.
DEFAULT_SHARD_SIZE = 16384
#: Attempts per generation task.
DEFAULT_ATTEMPTS_PER_TASK = 2
#: Tasks in flight per worker thread: enough to keep every worker busy while the
#: client writes the oldest shard's rows.
IN_FLIGHT_PER_THREAD = 2
#: How many times one task is submitted again after a worker died with it (or
#: with its input) before the run gives up.
MAX_RESUBMITS = 3

_log = logging.getLogger("kenken.dask")

#: The stop a signal handler raised in this process (``python -m kenken.dask``'s
#: KeyboardInterrupt or SIGTERM), kept until the run is over. Python runs a
#: signal handler between any two steps of the main thread, a finalizer's
#: included (a Dask future's ``__del__``, when the run drops it), and ignores an
#: exception raised there: the run then goes on. So the runs also look here
#: before each result and before the output is put in place.
_stopping: Optional[BaseException] = None


def _stop_with(error: BaseException) -> BaseException:
    """Records that the runs in this process must stop with ``error`` (which the
    signal handler then raises)."""
    global _stopping
    _stopping = error
    return error


def _clear_stop() -> None:
    global _stopping
    _stopping = None


def _check_stop() -> None:
    if _stopping is not None:
        raise _stopping


def _whole(name: str, value: Any, least: int, most: Optional[int] = None) -> None:
    """Checks a whole-number option of the Dask side (the grading and generation
    options are checked by the native code, as ``grader`` checks them)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise OptionsError(f"{name} must be a whole number, not {value!r}")
    if value < least or (most is not None and value > most):
        bounds = f"at least {least}" if most is None else f"{least} to {most}"
        raise OptionsError(f"{name} must be {bounds}, not {value}")


def _cluster(workers: Any) -> None:
    if workers is not None:
        _whole("workers", workers, 1, 65535)


@contextlib.contextmanager
def connect(
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    client: Any = None,
) -> Iterator[Any]:
    """A Dask client: ``client`` itself, or one connected to ``scheduler``, or one
    on a new LocalCluster of ``workers`` processes (every core by default) with
    one thread each, closed on exit."""
    if client is not None:
        yield client
        return
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler) as c:
            yield c
        return
    import dask

    n = workers or os.cpu_count() or 1
    # No dashboard, so no use for the workers' statistical profiler, which
    # samples the task thread every 10 ms.
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        with _children_ignore_ctrl_c():
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        with cluster, Client(cluster) as c:
            yield c


@contextlib.contextmanager
def _children_ignore_ctrl_c() -> Iterator[None]:
    """SIGINT ignored while the LocalCluster starts its worker processes, which
    keep ignoring it (an ignored signal stays ignored in a new program, and
    Python then installs no handler of its own): Ctrl-C in a terminal reaches
    the whole process group, and only the client should answer it, in one line,
    closing the workers itself. (Signal handlers belong to the main thread:
    elsewhere nothing is changed.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _threads(client: Any) -> int:
    return max(1, sum(client.nthreads().values()))


@contextlib.contextmanager
def _open_output(path: Optional[str]) -> Iterator[IO[bytes]]:
    """Standard output (``None`` or ``"-"``), or the file ``path`` written under a
    temporary name in its directory and renamed to ``path`` when the run is over,
    so that ``path`` holds a whole run's output or is left as it was: when the
    run fails (an exception, KeyboardInterrupt included) the temporary file is
    removed. Something that is not a regular file (``/dev/null``, a pipe) is
    written as it is. Opened before a run starts any cluster: a path that cannot
    be written (a missing folder, a directory) is an :class:`OutputError` naming
    it."""
    if path is None or path == "-":
        yield sys.stdout.buffer
        return
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise OutputError(f"cannot write {path}: it is a directory")
    if os.path.exists(target) and not os.path.isfile(target):
        try:
            out = open(path, "wb")
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror}") from e
        with out:
            yield out
        return
    directory, name = os.path.split(target)
    if not os.path.isdir(directory):
        raise OutputError(f"cannot write {path}: there is no folder {os.path.dirname(path) or directory}")
    try:
        fd, partial = _create_partial(directory, name)
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror}") from e
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
        with contextlib.suppress(OSError):
            # A file replaced keeps its permissions, as when written in place.
            os.chmod(partial, stat.S_IMODE(os.stat(target).st_mode))
        _check_stop()
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def _create_partial(directory: str, name: str) -> tuple[int, str]:
    """A new file ``.NAME.PID.RANDOM.part`` in ``directory``, created with the
    permissions a new output file gets (0666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        partial = os.path.join(directory, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.part")
        try:
            return os.open(partial, flags, 0o666), partial
        except FileExistsError:
            continue


def _lost_with_a_worker(error: BaseException) -> bool:
    """Whether a task failed because a worker died (with the task, its input or
    its result) rather than by raising: then it can be submitted again."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker
    from distributed.comm import CommClosedError

    return isinstance(error, (CancelledError, KilledWorker, CommClosedError))


class _Task:
    """A task in flight, with what it takes to submit it again."""

    def __init__(self, submit: Callable[[int], tuple[Any, Any]]) -> None:
        #: ``submit(priority)`` submits the task and returns its future and
        #: whatever must live as long as it (its scattered input).
        self.submit = submit
        self.future: Any = None
        self.keep: Any = None
        self.resubmits = 0


class _InFlight:
    """The tasks of a run in flight, oldest first, whose results are taken in that
    order. A task lost with a worker (its input scattered to that worker, or the
    task killed with it too often for Dask to run it again) is submitted again,
    ahead of the others, up to :data:`MAX_RESUBMITS` times."""

    def __init__(self) -> None:
        self.tasks: collections.deque[_Task] = collections.deque()

    def __len__(self) -> int:
        return len(self.tasks)

    def add(self, submit: Callable[[int], tuple[Any, Any]]) -> None:
        task = _Task(submit)
        self._submit(task, priority=0)
        self.tasks.append(task)

    def next_result(self) -> Any:
        """The oldest task's result."""
        _check_stop()
        task = self.tasks.popleft()
        while True:
            try:
                result = task.future.result()
            except Exception as e:
                if not _lost_with_a_worker(e):
                    raise
                self._resubmit(task, e)
                # The others lost with the same worker: submitted again now
                # rather than one at a time as each becomes the oldest.
                for other in self.tasks:
                    failure = _lost_failure(other.future)
                    if failure is not None:
                        self._resubmit(other, failure)
                continue
            task.future = task.keep = None
            return result

    def cancel(self) -> None:
        for task in self.tasks:
            task.future.cancel()
        self.tasks.clear()

    def _resubmit(self, task: _Task, error: BaseException) -> None:
        task.resubmits += 1
        if task.resubmits > MAX_RESUBMITS:
            raise RuntimeError(
                f"a task was lost {task.resubmits} times with the workers that ran it "
                f"or held its input; the last time: {error}"
            ) from error
        # Dask's own log says the data "can't be recovered": it is, from here.
        _log.warning(
            "kenken.dask: a task was lost with a worker (%s: %s); submitted again (%d of %d)",
            type(error).__name__,
            str(error).splitlines()[0] if str(error) else "",
            task.resubmits,
            MAX_RESUBMITS,
        )
        self._submit(task, priority=1)

    def _submit(self, task: _Task, priority: int) -> None:
        task.future = task.keep = None
        tries = 0
        while True:
            try:
                task.future, task.keep = task.submit(priority)
                return
            except Exception as e:
                # Scattering to a worker that has just died: the scheduler may
                # not know yet, and the connection fails.
                tries += 1
                if not (isinstance(e, OSError) or _lost_with_a_worker(e)) or tries > MAX_RESUBMITS:
                    raise
                time.sleep(0.1 * tries)


def _lost_failure(future: Any) -> Optional[BaseException]:
    """The error of a future that is done and was lost with a worker, else None."""
    if not future.done():
        return None
    if future.status == "cancelled":
        from concurrent.futures import CancelledError

        return CancelledError(f"{future.key} was cancelled")
    if future.status == "error":
        error = future.exception()
        if error is not None and _lost_with_a_worker(error):
            return error
    return None


class _Progress:
    """A one-line count on stderr, when it is a terminal and not quiet."""

    def __init__(self, what: str, quiet: bool) -> None:
        self.what = what
        self.shown = not quiet and sys.stderr.isatty()
        self.started = time.monotonic()
        self.last = 0.0

    def update(self, n: int, extra: str = "") -> None:
        now = time.monotonic()
        if not self.shown or now - self.last < 0.5:
            return
        self.last = now
        rate = n / max(now - self.started, 1e-9)
        sys.stderr.write(f"\r{n} {self.what}  {rate:.0f}/s{extra}\x1b[K")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _grade_task(shard: bytes, options: dict[str, Any]) -> dict[str, Any]:
    return _kenken._grade_shard(shard, **options)


def _shard_submitter(c: Any, shard: bytes, options: dict[str, Any]) -> Callable[[int], tuple[Any, Any]]:
    def submit(priority: int) -> tuple[Any, Any]:
        # Scattered rather than passed as an argument: a task's arguments travel
        # inside its serialised graph, which stayed in the client process after
        # the task was done (about 1 MiB a shard, so memory grew with the input);
        # scattered data goes with its future. It lives on one worker only, so
        # the client keeps the shard until its rows are in, to scatter it again
        # if that worker dies.
        data = c.scatter(shard, hash=False)
        return c.submit(_grade_task, data, options, pure=False, priority=priority), data

    return submit


@dataclass
class GradeReport:
    """What a distributed grading did."""

    rows: int = 0
    invalid: int = 0
    errors: int = 0
    stopped: dict[str, int] = field(default_factory=dict)
    #: Why the input stopped being readable, after ``rows`` rows.
    input_error: Optional[str] = None
    #: ``grader batch --summary``'s tally (with ``summary=True``).
    summary: Optional[str] = None
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """``grader batch``'s exit code for the same run."""
        if self.input_error is not None:
            return 2
        if self.errors:
            return 1
        return 2 if self.invalid else 0


def grade(
    input: str,
    output: Optional[str] = None,
    *,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    client: Any = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    format: str = "ndjson",
    times: bool = False,
    summary: bool = False,
    quiet: bool = False,
    mode: str = "n",
    timeout: Optional[float] = None,
    disable: Sequence[str] = (),
    enable: Sequence[str] = (),
    max_depth: int = 8,
    max_memory: Any = None,
    max_work: Optional[int] = None,
    hide_ops: bool = False,
    messages: Optional[IO[str]] = None,
) -> GradeReport:
    """Grades the batch file ``input`` on a Dask cluster and writes the rows to
    ``output`` (a path; ``None`` or ``"-"``: standard output), byte for byte as
    ``grader batch --format FORMAT`` with the same options writes them.

    The options are ``grader batch``'s (``mode`` defaults to ``"n"`` as there).
    ``hide_ops=True`` grades every puzzle with its operations hidden, as ``grader
    batch --hide-ops`` does (an entry ``{"puzzle": …, "hide_ops": true}`` asks for
    it alone): each job of a shard carries it to the worker. An entry that is not
    a valid puzzle gets its row and a line on ``messages`` (stderr by default), as
    ``grader batch`` reports it.
    """
    _whole("shard_size", shard_size, 1)
    _cluster(workers)
    if format not in ("ndjson", "tsv"):
        raise OptionsError(f'format must be "tsv" or "ndjson", not {format!r}')
    ladder = dict(
        mode=mode,
        timeout=timeout,
        disable=list(disable),
        enable=list(enable),
        max_depth=max_depth,
        max_memory=max_memory,
        max_work=max_work,
    )
    _kenken._check_grade_options(**ladder)
    reader = _kenken._BatchReader(input, hide_ops=hide_ops)
    options = dict(ladder, format=format, times=times, hide_ops_column=hide_ops, jobs=1)
    messages = messages or sys.stderr
    report = GradeReport()
    tallies: list[str] = []
    started = time.monotonic()
    progress = _Progress("puzzles", quiet)
    try:
        with _open_output(output) as out, connect(scheduler, workers, client) as c:
            if format == "tsv":
                out.write(_kenken._tsv_header(mode, times, hide_ops).encode())
            window = IN_FLIGHT_PER_THREAD * _threads(c) + 1
            pending = _InFlight()
            exhausted = False
            while True:
                while not exhausted and len(pending) < window:
                    shard = reader.take(shard_size)
                    if shard is None:
                        exhausted = True
                        break
                    pending.add(_shard_submitter(c, shard, options))
                if not pending:
                    break
                result = pending.next_result()
                out.write(result["rows"])
                out.flush()
                progress.clear()
                for index, text, message in result["failures"]:
                    print(f"kenken.dask grade: puzzle {index} ({text!r}): {message}", file=messages)
                if not quiet:
                    for index, text, message in result["warnings"]:
                        print(
                            f"kenken.dask grade: warning: puzzle {index} ({text!r}): {message}",
                            file=messages,
                        )
                report.rows += result["rows"].count(b"\n")
                report.invalid += result["invalid"]
                report.errors += result["error"]
                for status, n in result["stopped"].items():
                    report.stopped[status] = report.stopped.get(status, 0) + n
                if summary:
                    tallies.append(result["tally"])
                progress.update(report.rows)
    except BaseException:
        # The reader belongs to this thread: dropped here, not by whichever
        # thread collects the traceback of the failure (which holds this frame).
        del reader
        raise
    progress.clear()
    report.input_error = reader.error
    report.seconds = time.monotonic() - started
    if summary:
        report.summary = _kenken._summary(tallies, mode)
    return report


def _attempt_task(
    start: int, end: int, seed: int, deadline: Optional[float], ask: dict[str, Any]
) -> list[tuple[Any, ...]]:
    remaining = None if deadline is None else deadline - time.time()
    return _kenken._attempt_range(start, end, seed, remaining=remaining, jobs=1, **ask)


def _attempts_submitter(
    c: Any, start: int, end: int, seed: int, deadline: Optional[float], ask: dict[str, Any]
) -> Callable[[int], tuple[Any, Any]]:
    def submit(priority: int) -> tuple[Any, Any]:
        return c.submit(_attempt_task, start, end, seed, deadline, ask, pure=False, priority=priority), None

    return submit


@dataclass
class GenerateReport:
    """What a distributed generation did."""

    found: int = 0
    #: Attempts made, in attempt order up to the last one needed.
    tried: int = 0
    seed: int = 0
    #: ``done``, ``tries`` or ``timeout``.
    stopped: str = "done"
    #: Attempts whose puzzle was one found before in the run, or a turn or
    #: reflection of one (counted in ``tried``, not written).
    repeats: int = 0
    #: For the attempts that found nothing: how many came closest to the band at
    #: each max rating (in tenths; -1: a step above the band's max; ``None``: no
    #: unique candidate).
    missed: dict[Optional[int], int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """``grader generate``'s exit code for the same run."""
        return 0 if self.stopped == "done" else 4


def generate(
    output: Optional[str] = None,
    *,
    size: int,
    min: float,
    max: Optional[float] = None,
    count: int = 1,
    seed: Optional[int] = None,
    format: str = "ndjson",
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    client: Any = None,
    attempts_per_task: int = DEFAULT_ATTEMPTS_PER_TASK,
    max_tries: int = 10_000,
    timeout: Optional[float] = None,
    quiet: bool = False,
    **ask: Any,
) -> GenerateReport:
    """Makes ``count`` puzzles rated in [``min``, ``max``] on a Dask cluster and
    writes them to ``output`` (``None`` or ``"-"``: standard output) as ``grader
    generate --format FORMAT`` with the same seed and options writes them.

    The other options (``ops``, ``strict``, ``cage_sizes``, ``max_givens``,
    ``max_mean_cage``, ``kendoku``, ``hide_ops``, ``require``, ``forbid``,
    ``max_depth``, ``steps``) are :func:`kenken.generate`'s: each task gets them
    all, so with ``hide_ops=True`` the puzzles are those ``grader generate
    --hide-ops`` makes.
    """
    _whole("attempts_per_task", attempts_per_task, 1)
    _cluster(workers)
    ask = dict(ask, size=size, min=min, max=max)
    # Every generation option checked as `grader generate` checks it.
    _kenken._check_generation(
        format, count=count, seed=seed, max_tries=max_tries, timeout=timeout, **ask
    )
    if seed is None:
        seed = time.time_ns() % (1 << 64)
    ask["format"] = format
    report = GenerateReport(seed=seed)
    started = time.monotonic()
    deadline = None if timeout is None else time.time() + timeout
    progress = _Progress("attempts", quiet)
    with _open_output(output) as out, connect(scheduler, workers, client) as c:
        window = IN_FLIGHT_PER_THREAD * _threads(c) + 1
        pending = _InFlight()
        seen: set[str] = set()
        next_attempt = 0
        done = False
        while not done:
            if deadline is not None and time.time() >= deadline:
                report.stopped = "timeout"
                break
            while len(pending) < window and next_attempt < max_tries:
                end = next_attempt + attempts_per_task
                if end > max_tries:
                    end = max_tries
                pending.add(_attempts_submitter(c, next_attempt, end, seed, deadline, ask))
                next_attempt = end
            if not pending:
                report.stopped = "tries"
                break
            for outcome in pending.next_result():
                if outcome[0] == "interrupted":
                    report.stopped = "timeout"
                    done = True
                    break
                report.tried += 1
                if outcome[0] == "missed":
                    report.missed[outcome[1]] = report.missed.get(outcome[1], 0) + 1
                    continue
                _, row, line, key = outcome
                if key in seen:
                    report.repeats += 1
                    continue
                seen.add(key)
                report.found += 1
                if format == "ndjson":
                    line = _kenken._generated_line(row, report.found)
                out.write((line + "\n").encode())
                out.flush()
                if report.found == count:
                    done = True
                    break
            progress.update(report.tried, f"  found {report.found}/{count}")
        pending.cancel()
    progress.clear()
    report.seconds = time.monotonic() - started
    return report


def band(lo: float, hi: Optional[float]) -> str:
    """The band as ``grader generate`` writes it: ``4.4``, ``3-3.9``, ``4.4+``."""
    return _kenken._band_text(size=4, min=lo, max=hi)


def attempts_text(report: "GenerateReport") -> str:
    """The run's attempts as ``grader generate`` writes them: ``120 attempts``, or
    ``120 attempts (3 repeated an earlier puzzle)``."""
    return _kenken._attempts_text(report.tried, report.repeats)


def closest_text(report: "GenerateReport", size: int, lo: float, hi: Optional[float]) -> str:
    """What came closest to the band [lo, hi] among the missed attempts of a run,
    in the words ``grader generate`` ends such a run with."""
    missed = [code for code, n in report.missed.items() for _ in range(n)]
    return _kenken._closest_text(missed, size=size, min=lo, max=hi)


__all__ = ["connect", "grade", "generate", "GradeReport", "GenerateReport", "band", "attempts_text", "closest_text"]
