"""Typed errors, with the messages of the command line."""

from __future__ import annotations

import json

import pytest

import kenken
import kenken.dask
from conftest import run_grader

FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1"


@pytest.mark.parametrize(
    "text",
    ["17:_a,a1", "garbage", "", "4:_a_5a_bac_a__", "# 3\n+ 6 A1 A2 A3", "x" * 2000],
)
def test_format_errors_carry_the_batch_rows_message(grader, text):
    out = run_grader(grader, "batch", "-", "--format", "ndjson", input=(json.dumps(text) + "\n").encode())
    rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
    with pytest.raises(kenken.FormatError) as e:
        kenken.read(text)
    assert isinstance(e.value, ValueError) and isinstance(e.value, kenken.KenkenError)
    if rows:
        assert str(e.value) == rows[0]["error"]
    with pytest.raises(kenken.FormatError):
        kenken.grade(text)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "x"}, 'mode must be one of "n", "c", "b", not \'x\''),
        ({"disable": ["nope"]}, 'disable takes technique ids (one of: '),
        # An empty id is refused like any unknown one (not taken for none).
        ({"disable": ""}, 'not ""'),
        ({"disable": ["fish", ""]}, 'not ""'),
        ({"enable": "fish,"}, 'not ""'),
        ({"timeout": -1.0}, "timeout must be a positive number of seconds, at most 1e9, not -1"),
        ({"max_depth": 9}, "max_depth must be 2 to 8, not 9"),
        ({"max_memory": "12"}, "max_memory must be at least 1M, not 12 bytes"),
        ({"max_memory": "lots"}, 'max_memory must be a size such as 512M or 2G, not "lots"'),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(kenken.OptionsError) as e:
        kenken.grade(FOUR, **kwargs)
    assert message in str(e.value) and isinstance(e.value, ValueError)


def test_not_a_puzzle_is_a_type_error():
    with pytest.raises(TypeError, match="a puzzle is a str or a kenken.Puzzle, not int"):
        kenken.grade(5)


def test_generation_errors(grader):
    out = run_grader(grader, "generate", "--size", "20", "--min", "1")
    message = out.stderr.decode().strip().removeprefix("grader generate: error: ")
    with pytest.raises(kenken.GenerateError) as e:
        kenken.generate(size=20, min=1)
    assert str(e.value) == message
    with pytest.raises(kenken.IncompleteError) as e:
        kenken.generate(size=4, min=6, seed=1, max_tries=20)
    assert e.value.puzzles == [] and e.value.tried == 20
    assert "stopped by max_tries=20" in str(e.value)
    with pytest.raises(kenken.OptionsError):
        kenken.generate(size=4, min=-1)
    # As `grader generate --count 0`: refused, not an empty list.
    out = run_grader(grader, "generate", "--size", "4", "--min", "1", "--count", "0")
    assert out.returncode == 2
    message = out.stderr.decode().strip().removeprefix("grader generate: error: --")
    with pytest.raises(kenken.OptionsError) as e:
        kenken.generate(size=4, min=1, count=0)
    assert str(e.value) == message == "count must be at least 1, not 0"


@pytest.mark.parametrize("step", [True, False])
def test_a_bool_is_no_step(step):
    """As a str or a float is not: a TypeError, not step 1 (or 0)."""
    with pytest.raises(TypeError, match="step must be a whole number"):
        kenken.render_svg(FOUR, step=step)


def test_render_errors():
    with pytest.raises(kenken.RenderError, match="there is no step 500: the log ends before it"):
        kenken.render_svg(FOUR, step=500)
    with pytest.raises(kenken.RenderError, match="does not have exactly one solution"):
        kenken.render_svg("# 3\n+ 6 A1 A2 A3\n+ 6 B1 B2 B3\n+ 6 C1 C2 C3", solution=True)


def test_batch_input_errors(tmp_path, grader):
    missing = tmp_path / "missing.ndjson"
    out = run_grader(grader, "batch", str(missing))
    with pytest.raises(kenken.BatchInputError) as e:
        kenken.dask.grade(str(missing), str(tmp_path / "out"))
    assert isinstance(e.value, OSError)
    assert f"grader batch: error: {e.value}" == out.stderr.decode().strip()
    with pytest.raises(kenken.BatchInputError, match="it is a directory"):
        kenken.dask.grade(str(tmp_path), str(tmp_path / "out"))


def test_a_lone_surrogate_is_a_format_error():
    """A str UTF-8 cannot hold is no puzzle (not a TypeError: it is a str)."""
    for call in (kenken.read, kenken.grade, kenken.solve, kenken.render_svg, kenken.Puzzle):
        with pytest.raises(kenken.FormatError, match="lone surrogate"):
            call("4:_a_5a_bac\ud800_a__,d2m12a5m8s2d2s1")
    with pytest.raises(kenken.OptionsError, match="unknown format"):
        kenken.read(FOUR, format="tat\udcffham")
    with pytest.raises(TypeError, match="text must be a str, not bytes"):
        kenken.read(FOUR.encode())


@pytest.mark.parametrize("step", [-1, -(10**30), 1 << 64, 10**30])
def test_a_step_out_of_range_is_a_render_error(step):
    with pytest.raises(kenken.RenderError, match="numbered from 1" if step < 0 else f"there is no step {step}"):
        kenken.render_svg(FOUR, step=step)
