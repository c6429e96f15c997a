"""`kenken.dask` when a worker dies, and when a run fails: the output is whole
(byte for byte `grader`'s) or absent, never a partial file."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

import kenken  # noqa: E402
import kenken.dask  # noqa: E402
from conftest import run_grader, sample_lines  # noqa: E402

#: Puzzles in the run a worker is killed in: several seconds of grading on two
#: workers, so that the kill lands with most of the rows still to come.
KILLED_RUN = 80_000


def _worker_processes(parent: int) -> list[psutil.Process]:
    """The Dask worker processes a LocalCluster started in process `parent`
    (multiprocessing's spawned children; not its resource tracker)."""
    found = []
    for child in psutil.Process(parent).children(recursive=True):
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def _written(directory: Path, out: Path):
    """The files rows are being written to, with some rows."""
    for p in [out, *directory.glob(f".{out.name}.*.part")]:
        try:
            if p.stat().st_size > 0:
                yield p
        except FileNotFoundError:
            pass


def _leftovers(directory: Path, *keep: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p not in keep)


def test_grade_survives_a_killed_worker(grader, corpus, tmp_path):
    """`python -m kenken.dask grade` on two worker processes, one killed (SIGKILL)
    once the first rows are written: the shards it held are graded again, and
    the output is `grader batch`'s, byte for byte."""
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(sample_lines(corpus, KILLED_RUN)) + "\n")
    want = run_grader(grader, "batch", str(source), "--format", "ndjson")
    out = tmp_path / "out.ndjson"
    cli = [
        sys.executable, "-m", "kenken.dask", "grade", str(source), "-o", str(out),
        "--workers", "2", "--shard-size", "1000", "--quiet",
    ]
    log = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    started = time.monotonic()
    with open(log, "wb") as errors:
        run = subprocess.Popen(cli, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        # Wait for the first rows (in the output's temporary file).
        partial = None
        while time.monotonic() - started < 120 and run.poll() is None and partial is None:
            partial = next(_written(tmp_path, out), None)
            time.sleep(0.02)
        assert partial, f"no rows written: {log.read_text()[-2000:]}"
        workers = _worker_processes(run.pid)
        assert len(workers) == 2, workers
        rows_before = partial.read_bytes().count(b"\n")
        assert run.poll() is None, "the run ended before the kill"
        os.kill(workers[0].pid, signal.SIGKILL)
        killed_at = time.monotonic() - started
        run.wait(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    took = time.monotonic() - started
    stderr = log.read_bytes()
    written = out.read_bytes()
    rows = written.count(b"\n")
    report = (
        f"{KILLED_RUN} puzzles: worker {workers[0].pid} killed at {killed_at:.1f} s "
        f"after {rows_before} rows; {rows} rows written in {took:.1f} s, "
        f"identical to grader's: {written == want.stdout}; exit {run.returncode}"
    )
    print(report)
    assert rows_before < KILLED_RUN
    assert written == want.stdout, report + "\n" + stderr.decode()[-2000:]
    assert run.returncode == want.returncode == 2, stderr.decode()[-2000:]
    # What the killed worker held was lost (Dask says so), and submitted again.
    assert b"lose scattered data" not in stderr or b"submitted again" in stderr
    assert _leftovers(tmp_path, source, out) == []


def test_generate_survives_a_killed_worker(grader, client, tmp_path):
    """Attempts running on a worker that dies are run again on the other."""
    flags = ["--size", "5", "--min", "3", "--max", "4.2", "--count", "40", "--seed", "3"]
    want = run_grader(grader, "generate", *flags)
    assert want.returncode == 0
    victims = list(client.run(os.getpid).values())
    out = tmp_path / "gen.ndjson"
    state = {"killed": False, "done": False}

    import threading

    def kill_when_started() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not state["done"]:
            if next(_written(tmp_path, out), None) is not None:
                os.kill(victims[0], signal.SIGKILL)
                state["killed"] = True
                return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_when_started)
    killer.start()
    try:
        report = kenken.dask.generate(
            str(out), client=client, attempts_per_task=1, size=5, min=3, max=4.2, count=40, seed=3
        )
    finally:
        state["done"] = True
        killer.join()
    assert state["killed"]
    assert out.read_bytes() == want.stdout
    assert report.found == 40 and f"in {report.tried} attempts" in want.stderr.decode()
    client.wait_for_workers(2, timeout=60)


#: Per run of `_failing_on_shard`, the calls of its task so far and the one that
#: raises. Each run counts its own: tasks of an earlier failed run that are still
#: running when the next run starts count towards theirs.
_CALLS: dict[int, dict[str, int]] = {}


def _failing_task(run, shard, options):
    """`kenken.dask._grade_task`, raising on call `_CALLS[run]["failing"]`."""
    calls = _CALLS[run]
    calls["n"] += 1
    if calls["n"] == calls["failing"]:
        raise RuntimeError("a grading task failed")
    return kenken._kenken._grade_shard(shard, **options)


def _failing_on_shard(n: int):
    run = len(_CALLS)
    _CALLS[run] = {"n": 0, "failing": n}
    return functools.partial(_failing_task, run)


@pytest.fixture
def thread_client():
    """A LocalCluster of threads in this process (so that a patched task runs)."""
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def test_a_failed_run_leaves_no_output(sample_10k, thread_client, tmp_path, monkeypatch):
    """A task that raises ends the run after some rows are written: no output
    file, no temporary file; a file that was there is left as it was."""
    monkeypatch.setattr(kenken.dask, "_grade_task", _failing_on_shard(3))
    out = tmp_path / "out.ndjson"
    with pytest.raises(RuntimeError, match="a grading task failed") as failure:
        kenken.dask.grade(str(sample_10k), str(out), client=thread_client, shard_size=1000)
    assert _leftovers(tmp_path) == []
    # No frame of the traceback holds the input's reader, which only its own
    # thread may drop (Dask may let go of the exception on its own thread).
    tb, held = failure.value.__traceback__, []
    while tb is not None:
        held += [v for v in tb.tb_frame.f_locals.values() if isinstance(v, kenken._kenken._BatchReader)]
        tb = tb.tb_next
    assert held == []
    out.write_bytes(b"an earlier run's rows\n")
    monkeypatch.setattr(kenken.dask, "_grade_task", _failing_on_shard(5))
    with pytest.raises(RuntimeError):
        kenken.dask.grade(str(sample_10k), str(out), client=thread_client, shard_size=1000)
    assert out.read_bytes() == b"an earlier run's rows\n"
    assert _leftovers(tmp_path, out) == []


def test_a_failed_generation_leaves_no_output(thread_client, tmp_path, monkeypatch):
    def failing(*args):
        raise RuntimeError("a generation task failed")

    monkeypatch.setattr(kenken.dask, "_attempt_task", failing)
    with pytest.raises(RuntimeError, match="a generation task failed"):
        kenken.dask.generate(str(tmp_path / "gen.ndjson"), client=thread_client, size=4, min=1, seed=1)
    assert _leftovers(tmp_path) == []


def test_the_output_replaces_a_file_and_keeps_its_mode(sample_10k, thread_client, tmp_path, grader):
    out = tmp_path / "out.ndjson"
    out.write_bytes(b"old\n")
    out.chmod(0o640)
    kenken.dask.grade(str(sample_10k), str(out), client=thread_client)
    assert out.read_bytes() == run_grader(grader, "batch", str(sample_10k), "--format", "ndjson").stdout
    assert out.stat().st_mode & 0o777 == 0o640
    assert _leftovers(tmp_path, out) == []
    # Not a regular file: written as it is, not replaced.
    kenken.dask.grade(str(sample_10k), os.devnull, client=thread_client)
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


def test_a_stop_whose_exception_was_ignored_still_ends_the_run(sample_10k, thread_client, tmp_path):
    """A signal's handler runs wherever the main thread is, a finalizer included
    (a Dask future's `__del__`), and Python ignores an exception raised there:
    the stop the handler recorded (as `python -m kenken.dask` records it) still
    ends the run at its next result, and the output is not made."""
    out = tmp_path / "out.ndjson"
    kenken.dask._stop_with(KeyboardInterrupt())
    try:
        with pytest.raises(KeyboardInterrupt):
            kenken.dask.grade(str(sample_10k), str(out), client=thread_client)
    finally:
        kenken.dask._clear_stop()
    assert _leftovers(tmp_path) == []
    # Cleared, the next run is whole.
    kenken.dask.grade(str(sample_10k), str(out), client=thread_client)
    assert out.exists()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
def test_a_stopped_client_leaves_nothing_behind(corpus, tmp_path, how):
    """`python -m kenken.dask grade -o OUT` stopped by SIGTERM (sent to the
    client) or by Ctrl-C (SIGINT to the whole process group, workers included)
    once rows are being written: the output's temporary file is removed, OUT is
    not made, and the run says so in one line, with 128 + the signal's number."""
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join(sample_lines(corpus, 20_000)) + "\n")
    out = tmp_path / "out.ndjson"
    cli = [
        sys.executable, "-m", "kenken.dask", "grade", str(source), "-o", str(out),
        "--workers", "1", "--shard-size", "50", "--quiet",
    ]
    log = tmp_path.parent / f"{tmp_path.name}-stderr.txt"
    started = time.monotonic()
    with open(log, "wb") as errors:
        # A session of its own, so that Ctrl-C can be sent to its group alone.
        run = subprocess.Popen(cli, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True)
    try:
        partial = None
        while time.monotonic() - started < 120 and run.poll() is None and partial is None:
            partial = next(_written(tmp_path, out), None)
            time.sleep(0.02)
        assert partial is not None and partial != out, f"no rows written: {log.read_text()[-2000:]}"
        if how == "SIGTERM":
            os.kill(run.pid, signal.SIGTERM)
        else:
            os.killpg(run.pid, signal.SIGINT)
        run.wait(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    text = log.read_text()
    lines = text.strip().splitlines()
    assert run.returncode == (143 if how == "SIGTERM" else 130), lines
    # One line for the stop (Dask may have warned at start-up, say of its
    # default port taken by another cluster on this machine): no traceback,
    # from the client or from a worker.
    said = f"python -m kenken.dask grade: stopped by {how}"
    assert lines[-1] == said and text.count("stopped by") == 1, lines
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, lines
    assert _leftovers(tmp_path, source) == []
