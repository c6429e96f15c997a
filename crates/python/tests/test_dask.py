"""`kenken.dask` against `grader`: byte-identical output on a 2-worker
LocalCluster."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("distributed")

import kenken  # noqa: E402
import kenken.dask  # noqa: E402
from conftest import run_grader  # noqa: E402


def test_grade_is_byte_identical_on_10k_puzzles(grader, sample_10k, client, tmp_path):
    want = run_grader(grader, "batch", str(sample_10k), "--format", "ndjson")
    out = tmp_path / "out.ndjson"
    report = kenken.dask.grade(str(sample_10k), str(out), client=client, shard_size=1500)
    assert out.read_bytes() == want.stdout
    assert report.rows == 10_000 == len(want.stdout.splitlines())
    assert report.invalid > 0 and report.exit_code == want.returncode == 2


def test_grade_with_options_tsv_and_summary(grader, sample_10k, client, tmp_path):
    options = ["--mode", "b", "--disable", "region-sum", "--max-depth", "4", "--times"]
    want = run_grader(grader, "batch", str(sample_10k), "--format", "tsv", "--summary", *options[:-1])
    out = tmp_path / "out.tsv"
    report = kenken.dask.grade(
        str(sample_10k),
        str(out),
        client=client,
        shard_size=4096,
        format="tsv",
        summary=True,
        mode="b",
        disable=["region-sum"],
        max_depth=4,
    )
    assert out.read_bytes() == want.stdout
    assert report.summary is not None and report.summary in want.stderr.decode()
    timed = kenken.dask.grade(
        str(sample_10k), str(tmp_path / "timed.tsv"), client=client, format="tsv", times=True
    )
    header = (tmp_path / "timed.tsv").read_text().splitlines()[0]
    assert "\tMs\t" in header and timed.rows == 10_000


def test_a_timeout_and_a_stopped_input(grader, client, tmp_path, corpus):
    nines = [p for p in corpus if p.startswith("9:")][:40]
    path = tmp_path / "nines.txt"
    path.write_text("\n".join(nines) + "\n")
    report = kenken.dask.grade(str(path), str(tmp_path / "o"), client=client, mode="b", timeout=1e-6, shard_size=7)
    assert report.stopped.get("timeout") == 40 and report.exit_code == 0
    # An array that is not well-formed JSON is refused before any row, as by grader.
    bad = tmp_path / "bad.json"
    bad.write_text('["4:_a_5a_bac_a__,d2m12a5m8s2d2s1", oops]')
    with pytest.raises(kenken.BatchInputError) as e:
        kenken.dask.grade(str(bad), str(tmp_path / "o"), client=client)
    assert str(e.value) in run_grader(grader, "batch", str(bad)).stderr.decode()


def test_generate_is_grader_generate(grader, client, tmp_path):
    args = dict(size=5, min=3, max=4.2, count=6, seed=11)
    flags = ["--size", "5", "--min", "3", "--max", "4.2", "--count", "6", "--seed", "11"]
    want = run_grader(grader, "generate", *flags)
    assert want.returncode == 0
    for per_task in (1, 3):
        out = tmp_path / f"gen-{per_task}.ndjson"
        report = kenken.dask.generate(str(out), client=client, attempts_per_task=per_task, **args)
        assert out.read_bytes() == want.stdout
        assert report.found == 6 and report.exit_code == 0
        assert f"in {report.tried} attempts" in want.stderr.decode()
    text = run_grader(grader, "generate", *flags, "--format", "text").stdout
    out = tmp_path / "gen.txt"
    kenken.dask.generate(str(out), client=client, format="text", **args)
    assert out.read_bytes() == text


def test_a_puzzle_found_again_is_left_out_as_by_grader(grader, client, tmp_path):
    """3×3s solved by singles are few: attempts find the same ones again."""
    flags = ["--size", "3", "--min", "0", "--max", "1", "--count", "20", "--seed", "5"]
    want = run_grader(grader, "generate", *flags)
    assert want.returncode == 0
    out = tmp_path / "gen.ndjson"
    report = kenken.dask.generate(str(out), client=client, attempts_per_task=7, size=3, min=0, max=1, count=20, seed=5)
    assert out.read_bytes() == want.stdout
    assert report.repeats > 0
    assert f"in {report.tried} attempts ({report.repeats} repeated an earlier puzzle)" in want.stderr.decode()


def test_generation_that_stops_early(client, tmp_path):
    report = kenken.dask.generate(str(tmp_path / "o"), client=client, size=4, min=6, seed=1, max_tries=20)
    assert report.stopped == "tries" and report.tried == 20 and report.exit_code == 4
    assert kenken.dask.closest_text(report, 4, 6, None) == "the closest max rating reached was 4.2"
    assert kenken.dask.band(6, None) == "6+" and kenken.dask.band(4.4, 4.4) == "4.4"


def test_the_command_line(grader, repo, tmp_path):
    """`python -m kenken.dask grade` starts its own LocalCluster."""
    from conftest import JUNK

    lines = (repo / "puzzles" / "sample.json").read_text()
    path = tmp_path / "in.ndjson"
    import json

    path.write_text("\n".join([json.dumps(p) for p in json.loads(lines)] + JUNK[:4]) + "\n")
    out = tmp_path / "out.ndjson"
    cli = [sys.executable, "-m", "kenken.dask", "grade", str(path), "-o", str(out), "--workers", "2", "--mode", "b"]
    done = subprocess.run(cli, capture_output=True, timeout=300)
    want = run_grader(grader, "batch", str(path), "--format", "ndjson", "--mode", "b")
    assert out.read_bytes() == want.stdout
    assert done.returncode == want.returncode == 2
    assert b"could not be read or are not valid puzzles" in done.stderr
    gen = [sys.executable, "-m", "kenken.dask", "generate", "--size", "4", "--min", "1", "--count", "3", "--seed", "5", "--workers", "1"]
    done = subprocess.run(gen, capture_output=True, timeout=300)
    want = run_grader(grader, "generate", "--size", "4", "--min", "1", "--count", "3", "--seed", "5")
    assert done.stdout == want.stdout and done.returncode == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"shard_size": 0}, "shard_size must be at least 1, not 0"),
        ({"shard_size": 1.5}, "shard_size must be a whole number, not 1.5"),
        ({"workers": 0}, "workers must be 1 to 65535, not 0"),
        ({"timeout": 0}, "timeout must be a positive number of seconds, at most 1e9, not 0"),
        ({"timeout": -1.0}, "timeout must be a positive number of seconds, at most 1e9, not -1"),
        ({"timeout": float("nan")}, "timeout must be a positive number of seconds, at most 1e9, not nan"),
        ({"timeout": float("inf")}, "timeout must be a positive number of seconds, at most 1e9, not inf"),
        ({"max_depth": 300}, "max_depth must be 2 to 8, not 300"),
        ({"max_work": -1}, "max_work must be a whole number from 0 to 18446744073709551615, not -1"),
        ({"max_memory": 1 << 70}, "max_memory must be a number of bytes or a size such as 512M or 2G, not 1180591620717411303424"),
        ({"format": "csv"}, 'format must be "tsv" or "ndjson"'),
    ],
)
def test_bad_grade_options(sample_10k, tmp_path, kwargs, message):
    """Refused before any cluster starts or any file is written."""
    out = tmp_path / "out"
    with pytest.raises(kenken.OptionsError) as e:
        kenken.dask.grade(str(sample_10k), str(out), **kwargs)
    assert message in str(e.value)
    assert not out.exists()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"count": -1}, "count must be at least 1, not -1"),
        ({"count": 0}, "count must be at least 1, not 0"),
        ({"seed": -1}, "seed must be a whole number from 0 to 18446744073709551615, not -1"),
        ({"seed": 1 << 64}, "seed must be a whole number from 0 to 18446744073709551615, not 18446744073709551616"),
        ({"max_tries": -1}, "max_tries must be a whole number from 0 to 18446744073709551615, not -1"),
        ({"attempts_per_task": 0}, "attempts_per_task must be at least 1, not 0"),
        ({"timeout": 0}, "timeout must be a positive number of seconds, at most 1e9, not 0"),
        ({"timeout": float("nan")}, "timeout must be a positive number of seconds, at most 1e9, not nan"),
        ({"max_mean_cage": 0}, "max_mean_cage must be a number from 1 to 256, not 0"),
        ({"max_mean_cage": float("nan")}, "max_mean_cage must be a number from 1 to 256, not nan"),
        ({"cage_sizes": (2,)}, 'cage_sizes must be a pair (lo, hi) or text such as "2-4", not (2,)'),
        ({"cage_sizes": (2, -5)}, "cage_sizes must be sizes from 2 to 16, not -5"),
        ({"max_depth": 1}, "max_depth must be 2 to 8, not 1"),
        ({"steps": -3}, "steps must be 1 to 1099511627776, not -3"),
        ({"min": "4.4"}, "min must be a number, not '4.4'"),
        ({"workers": -2}, "workers must be 1 to 65535, not -2"),
    ],
)
def test_bad_generate_options(tmp_path, kwargs, message):
    out = tmp_path / "out"
    args = dict(size=4, min=1, seed=1)
    args.update(kwargs)
    with pytest.raises(kenken.OptionsError) as e:
        kenken.dask.generate(str(out), **args)
    assert message in str(e.value)
    assert not out.exists()


def test_a_size_the_generator_cannot_make_is_refused_before_a_cluster_starts(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(kenken.GenerateError, match=r"grid size -4 is outside 3\.\.=16"):
        kenken.dask.generate(str(out), size=-4, min=1, seed=1)
    assert not out.exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["grade", "IN", "--timeout", "nan"], "timeout must be a positive number of seconds, at most 1e9, not nan"),
        (["grade", "IN", "--timeout", "0"], "timeout must be a positive number of seconds, at most 1e9, not 0"),
        (["grade", "IN", "--max-depth", "300"], "max_depth must be 2 to 8, not 300"),
        (["grade", "IN", "--max-work", "-1"], "max_work must be a whole number from 0 to 18446744073709551615, not -1"),
        (["generate", "--size", "4", "--min", "1", "--count", "-1"], "count must be at least 1, not -1"),
        (["generate", "--size", "4", "--min", "1", "--count", "0"], "count must be at least 1, not 0"),
        (["generate", "--size", "4", "--min", "1", "--seed", "-1"], "seed must be a whole number from 0 to 18446744073709551615, not -1"),
        (["generate", "--size", "4", "--min", "1", "--timeout", "inf"], "not inf"),
        (["generate", "--size", "4", "--min", "1", "--max-mean-cage", "nan"], "max_mean_cage must be a number from 1 to 256, not nan"),
        (["generate", "--size", "-4", "--min", "1"], "grid size -4 is outside 3..=16"),
        (["generate", "--size", "4", "--min", "nan"], "min must be a rating from 0 to 1000, not nan"),
    ],
)
def test_the_command_line_refuses_bad_values(sample_10k, argv, message):
    """Exit code 2 and one line naming the option, before a cluster starts."""
    argv = [str(sample_10k) if a == "IN" else a for a in argv]
    done = subprocess.run([sys.executable, "-m", "kenken.dask", *argv], capture_output=True, timeout=120)
    assert done.returncode == 2, done.stderr.decode()
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert lines[0].startswith(f"python -m kenken.dask {argv[0]}: error: ")


#: An address nothing listens on: a run that reached for the cluster before
#: checking its output would wait there for Dask's connect timeout.
NO_SCHEDULER = "tcp://127.0.0.1:9"


def test_an_output_that_cannot_be_written_is_refused_before_a_cluster_starts(sample_10k, tmp_path):
    missing = tmp_path / "missing" / "out.ndjson"
    cases = [
        (str(missing), f"cannot write {missing}: there is no folder {missing.parent}"),
        (str(tmp_path), f"cannot write {tmp_path}: it is a directory"),
    ]
    for output, message in cases:
        started = time.monotonic()
        with pytest.raises(kenken.OutputError) as e:
            kenken.dask.grade(str(sample_10k), output, scheduler=NO_SCHEDULER)
        assert str(e.value) == message and isinstance(e.value, OSError)
        with pytest.raises(kenken.OutputError):
            kenken.dask.generate(output, size=4, min=1, seed=1, scheduler=NO_SCHEDULER)
        argv = ["grade", str(sample_10k), "-o", output, "--scheduler", NO_SCHEDULER]
        done = subprocess.run([sys.executable, "-m", "kenken.dask", *argv], capture_output=True, timeout=120)
        lines = done.stderr.decode().strip().splitlines()
        assert done.returncode == 1 and lines == [f"python -m kenken.dask grade: error: {message}"], lines
        assert time.monotonic() - started < 20
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv, words",
    [
        (["grade", "IN", "--shard-size", "1e9"], "argument --shard-size: must be a whole number from 1, not '1e9'"),
        (["grade", "IN", "--shard-size", "0"], "argument --shard-size: must be a whole number from 1, not 0"),
        (["grade", "IN", "--max-depth", "x"], "argument --max-depth: must be a whole number, not 'x'"),
        (["grade", "IN", "--timeout", "soon"], "argument --timeout: must be a number, not 'soon'"),
        (["generate", "--size", "4.5", "--min", "1"], "argument --size: must be a whole number, not '4.5'"),
        (["grade", "IN", "--disable", ""], 'disable takes technique ids (one of: '),
    ],
)
def test_the_command_line_says_what_it_wants(sample_10k, argv, words):
    argv = [str(sample_10k) if a == "IN" else a for a in argv]
    done = subprocess.run([sys.executable, "-m", "kenken.dask", *argv], capture_output=True, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2 and words in err, err
    assert "invalid" not in err and "_positive" not in err and "Traceback" not in err, err


#: Puzzles up to 6×6 (larger ones take long to grade with their operations
#: hidden), as strings and as entries that ask for their operations hidden, with
#: an entry whose `hide_ops` is not a bool.
HIDDEN_OPS_ENTRIES = [
    "3:_a_aa_aa,s1m3a6m6",
    {"puzzle": "4:_a_5a_bac_a__,d2m12a5m8s2d2s1", "hide_ops": True},
    "4:_a_5a_bac_a__,d2m12a5m8s2d2s1",
    {"puzzle": "5:_b_a_7aaca__a__a_a_aa_,s2m60d2a7s1s3s3m10a7m8a9", "hide_ops": False},
    {"puzzle": "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2", "hide_ops": True},
    "# 4\n? 2 A1 B1\n? 12 A2 A3 B3\n? 5 A4 B4\n? 8 B2 C2 D2\n? 2 C1 D1\n? 2 C3 C4\n? 1 D3 D4",
    {"puzzle": "3:_a_aa_aa,s1m3a6m6", "hide_ops": "yes"},
]


@pytest.mark.parametrize("hide_ops", [False, True])
def test_grade_hides_operations_as_grader_batch(grader, client, tmp_path, hide_ops):
    """Entries that ask for it alone, and hide_ops=True for all: the jobs of a
    shard carry it to the workers."""
    path = tmp_path / "hidden.ndjson"
    path.write_text("\n".join(json.dumps(e) for e in HIDDEN_OPS_ENTRIES * 3) + "\n")
    flags = ["--hide-ops"] if hide_ops else []
    want = run_grader(grader, "batch", str(path), "--format", "ndjson", "--mode", "b", *flags)
    out = tmp_path / "out.ndjson"
    report = kenken.dask.grade(str(path), str(out), client=client, shard_size=4, mode="b", hide_ops=hide_ops)
    assert out.read_bytes() == want.stdout
    assert report.rows == 21 and report.invalid == 3 and report.exit_code == want.returncode == 2
    # TSV, with the Hide Ops column of `grader batch --hide-ops`.
    want_tsv = run_grader(grader, "batch", str(path), "--format", "tsv", "--mode", "b", *flags)
    out_tsv = tmp_path / "out.tsv"
    kenken.dask.grade(str(path), str(out_tsv), client=client, shard_size=4, mode="b", format="tsv", hide_ops=hide_ops)
    assert out_tsv.read_bytes() == want_tsv.stdout
    assert want_tsv.stdout.split(b"\n")[0].endswith(b"\tStatus\tHide Ops") == hide_ops
    # The same rows as the one-machine call, for the entries it can take.
    rows = [json.loads(line) for line in want.stdout.decode().splitlines()]
    items = [
        kenken.read(e["puzzle"], hide_ops=e["hide_ops"]) if isinstance(e, dict) else e
        for e in HIDDEN_OPS_ENTRIES[:-1]
    ]
    assert list(kenken.grade_many(items, mode="b", hide_ops=hide_ops)) == rows[: len(items)]


def test_generate_hides_operations_as_grader_generate(grader, client, tmp_path):
    args = dict(size=4, min=2, max=3.5, count=4, seed=3, hide_ops=True)
    flags = ["--size", "4", "--min", "2", "--max", "3.5", "--count", "4", "--seed", "3", "--hide-ops"]
    want = run_grader(grader, "generate", *flags)
    assert want.returncode == 0
    out = tmp_path / "gen.ndjson"
    report = kenken.dask.generate(str(out), client=client, attempts_per_task=1, **args)
    assert out.read_bytes() == want.stdout and report.found == 4
    rows = [json.loads(line) for line in want.stdout.decode().splitlines()]
    assert all(row["hide_ops"] is True for row in rows)
    assert kenken.generate(**args) == rows
    text = run_grader(grader, "generate", *flags, "--format", "text").stdout
    kenken.dask.generate(str(tmp_path / "gen.txt"), client=client, format="text", **args)
    assert (tmp_path / "gen.txt").read_bytes() == text and b"\n? " in text
    with pytest.raises(kenken.GenerateError, match="tatham cannot show a cage whose operation is hidden"):
        kenken.dask.generate(str(tmp_path / "o"), client=client, format="tatham", **args)


def test_the_command_line_hides_operations(grader, tmp_path):
    path = tmp_path / "in.ndjson"
    path.write_text("\n".join(json.dumps(e) for e in HIDDEN_OPS_ENTRIES[:-1]) + "\n")
    out = tmp_path / "out.ndjson"
    cli = [sys.executable, "-m", "kenken.dask", "grade", str(path), "-o", str(out), "--workers", "1", "--hide-ops", "--quiet"]
    done = subprocess.run(cli, capture_output=True, timeout=300)
    want = run_grader(grader, "batch", str(path), "--format", "ndjson", "--hide-ops")
    assert done.returncode == want.returncode == 0 and out.read_bytes() == want.stdout
    flags = ["--size", "4", "--min", "2", "--count", "2", "--seed", "1", "--hide-ops"]
    gen = [sys.executable, "-m", "kenken.dask", "generate", *flags, "--workers", "1"]
    done = subprocess.run(gen, capture_output=True, timeout=300)
    want = run_grader(grader, "generate", *flags)
    assert done.returncode == 0 and done.stdout == want.stdout and b'"hide_ops":true' in done.stdout


@pytest.mark.parametrize("value", ["yes", 1])
def test_a_hide_ops_that_is_not_a_bool_is_refused_before_a_cluster_starts(sample_10k, tmp_path, value):
    out = tmp_path / "out"
    with pytest.raises(kenken.OptionsError, match="hide_ops must be True or False, not "):
        kenken.dask.grade(str(sample_10k), str(out), hide_ops=value)
    with pytest.raises(kenken.OptionsError, match="hide_ops must be True or False, not "):
        kenken.dask.generate(str(out), size=4, min=1, seed=1, hide_ops=value)
    assert not out.exists()
