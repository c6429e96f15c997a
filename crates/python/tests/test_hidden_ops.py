"""Hidden operations: puzzles whose cages show only their numbers, read from the
text format's `?` cages or hidden with `hide_ops=True`, against `grader
--hide-ops`."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import kenken
from conftest import run_grader

FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1"
SIX = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2"
#: FOUR in the text format, every operation hidden.
FOUR_HIDDEN = "# 4\n? 2 A1 B1\n? 12 A2 A3 B3\n? 5 A4 B4\n? 8 B2 C2 D2\n? 2 C1 D1\n? 2 C3 C4\n? 1 D3 D4"
#: Some cages with their operations, some without.
MIXED = "# 4\n/ 2 A1 B1\n? 12 A2 A3 B3\n+ 5 A4 B4\n? 8 B2 C2 D2\n- 2 C1 D1\n? 2 C3 C4\n- 1 D3 D4"


def small_sample(repo) -> list[str]:
    """The bundled sample's puzzles up to 6×6 (larger ones take long to grade
    with their operations hidden)."""
    sample = json.loads((repo / "puzzles" / "sample.json").read_text())
    return [p for p in sample if int(p.split(":")[0]) <= 6]


def test_read_keeps_the_hidden_operations_of_the_text_format():
    p = kenken.read(FOUR_HIDDEN)
    assert p.format == "text" and p.has_hidden_ops and p.source == FOUR_HIDDEN
    assert [c.op for c in p.cages] == [None] * 7
    assert [c.clue for c in p.cages] == [2, 12, 5, 8, 2, 2, 1]
    assert repr(p.cages[0]) == "Cage(op=None, clue=2, cells=['A1', 'B1'])"
    assert p.to_text().strip() == FOUR_HIDDEN
    assert kenken.read(p.to_text()) == p and hash(kenken.read(p.to_text())) == hash(p)
    assert p != kenken.read(FOUR)
    mixed = kenken.read(MIXED)
    assert [c.op for c in mixed.cages] == ["/", None, "+", None, "-", None, "-"]
    assert mixed.has_hidden_ops and not kenken.read(FOUR).has_hidden_ops
    assert mixed.to_text().strip() == MIXED


def test_a_puzzle_with_hidden_operations_pickles_and_shows(grader):
    p = kenken.read(FOUR_HIDDEN)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        q = pickle.loads(pickle.dumps(p, protocol=protocol))
        assert q == p and q.cages == p.cages and (q.source, q.format) == (p.source, p.format)
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert repr(p) == f"kenken.read({FOUR_HIDDEN!r})"
    assert eval(repr(p), {"kenken": kenken}) == p
    svg = p._repr_svg_()
    assert svg == kenken.render_svg(p) == run_grader(grader, "render", FOUR_HIDDEN).stdout.decode()
    assert svg != kenken.render_svg(FOUR)
    with pytest.raises(kenken.FormatError, match="cannot show a cage whose operation is hidden"):
        p.to_tatham()


def test_read_with_hide_ops_hides_every_operation():
    p = kenken.read(FOUR, hide_ops=True)
    assert [c.op for c in p.cages] == [None] * 7 and p.has_hidden_ops
    assert (p.source, p.format, str(p)) == (FOUR, "tatham", FOUR)
    assert p == kenken.read(FOUR_HIDDEN) and hash(p) == hash(kenken.read(FOUR_HIDDEN))
    assert p != kenken.read(FOUR) and p.to_text().strip() == FOUR_HIDDEN
    assert kenken.Puzzle(FOUR, hide_ops=True) == kenken.Puzzle(FOUR, None, True) == p
    assert kenken.read(FOUR, hide_ops=False) == kenken.read(FOUR, hide_ops=None) == kenken.read(FOUR)
    assert repr(p) == f"kenken.read({FOUR!r}, hide_ops=True)"
    assert eval(repr(p), {"kenken": kenken}) == p
    # Hiding a hidden operation again changes nothing.
    assert kenken.read(FOUR_HIDDEN, hide_ops=True) == p


def test_a_puzzle_read_with_hide_ops_pickles_with_them_hidden():
    p = kenken.read(FOUR, hide_ops=True)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        q = pickle.loads(pickle.dumps(p, protocol=protocol))
        assert type(q) is kenken.Puzzle and q == p and q.cages == p.cages
        assert (q.source, q.format, repr(q)) == (FOUR, "tatham", repr(p))
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert p.__reduce__() == (kenken.Puzzle, (FOUR, "tatham", True))
    assert kenken.read(FOUR).__reduce__() == (kenken.Puzzle, (FOUR, "tatham"))


@pytest.mark.parametrize("mode", ["n", "b"])
def test_grade_and_grade_many_are_grader_batch_hide_ops(grader, repo, tmp_path, mode):
    puzzles = small_sample(repo)
    path = tmp_path / "small.json"
    path.write_text(json.dumps(puzzles))
    out = run_grader(grader, "batch", str(path), "--format", "ndjson", "--mode", mode, "--hide-ops")
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(expected) == len(puzzles)
    shown = list(kenken.grade_many(puzzles, mode=mode))
    assert shown != expected, "hiding the operations changes some rows"
    assert list(kenken.grade_many(puzzles, mode=mode, hide_ops=True, jobs=2)) == expected
    hidden = [kenken.read(p, hide_ops=True) for p in puzzles]
    assert list(kenken.grade_many(hidden, mode=mode)) == expected
    for puzzle, item, row in zip(puzzles, hidden, expected):
        assert kenken.grade(puzzle, mode=mode, hide_ops=True) == dict(row, index=1)
        assert kenken.grade(item, mode=mode) == dict(row, index=1)


def test_grade_many_hides_the_puzzles_read_with_hide_ops_alone(grader, tmp_path):
    """As a batch entry {"puzzle": …, "hide_ops": true} asks for it alone."""
    entries = [FOUR, {"puzzle": FOUR, "hide_ops": True}, SIX, {"puzzle": SIX, "hide_ops": True}, FOUR_HIDDEN]
    path = tmp_path / "entries.json"
    path.write_text(json.dumps(entries))
    out = run_grader(grader, "batch", str(path), "--format", "ndjson", "--mode", "b")
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    items = [kenken.read(e["puzzle"], hide_ops=True) if isinstance(e, dict) else e for e in entries]
    assert list(kenken.grade_many(items, mode="b")) == expected
    assert expected[0] != dict(expected[1], index=1)


def test_solve_steps_and_render_are_grader_hide_ops(grader, repo):
    for puzzle in small_sample(repo)[:8] + [SIX]:
        want = json.loads(run_grader(grader, "solve", puzzle, "--json", "--hide-ops").stdout)
        assert kenken.solve(puzzle, hide_ops=True) == want
        assert kenken.solve(kenken.read(puzzle, hide_ops=True)) == want
        doc = json.loads(run_grader(grader, "grade", puzzle, "--json", "--hide-ops").stdout)
        assert kenken.steps(puzzle, hide_ops=True) == doc["steps"]
        for extra, kwargs in [([], {}), (["--step", "1"], {"step": 1}), (["--candidates"], {"candidates": True})]:
            want_svg = run_grader(grader, "render", puzzle, "--hide-ops", *extra).stdout.decode()
            assert kenken.render_svg(puzzle, hide_ops=True, **kwargs) == want_svg
    # FOUR has more than one solution once its operations are hidden.
    assert kenken.solve(FOUR)["verdict"] == "unique"
    assert kenken.solve(FOUR, hide_ops=True)["verdict"] == "ambiguous"
    with pytest.raises(kenken.RenderError, match="does not have exactly one solution"):
        kenken.render_svg(FOUR, solution=True, hide_ops=True)


def test_generate_hide_ops_is_grader_generate_hide_ops(grader):
    flags = ["--size", "4", "--min", "2", "--count", "2", "--seed", "1"]
    out = run_grader(grader, "generate", "--hide-ops", *flags)
    want = [json.loads(line) for line in out.stdout.decode().splitlines()]
    rows = kenken.generate(size=4, min=2, count=2, seed=1, hide_ops=True)
    assert rows == want and len(rows) == 2
    assert kenken.generate(size=4, min=2, count=2, seed=1, hide_ops=True, jobs=1) == want
    for row in rows:
        assert row["hide_ops"] is True and row["puzzle"].startswith("# 4\n")
        p = kenken.read(row["puzzle"])
        assert p.has_hidden_ops and all(c.op in (None, "!") for c in p.cages)
        # Unique, and rated as made, with the operations hidden.
        graded = kenken.grade(p, mode="n")
        assert graded["status"] == "solved" and graded["max"] == row["max"]
    plain = kenken.generate(size=4, min=2, count=2, seed=1)
    assert all("hide_ops" not in row for row in plain)


@pytest.mark.parametrize(
    "value, message",
    [
        ("yes", "hide_ops must be True or False, not 'yes'"),
        (1, "hide_ops must be True or False, not 1"),
        (b"x", "hide_ops must be True or False, not b'x'"),
        (float("nan"), "hide_ops must be True or False, not nan"),
        ("\ud800", "hide_ops must be True or False, not '\\ud800'"),
    ],
)
def test_a_hide_ops_that_is_not_a_bool_is_an_options_error(value, message):
    calls = [
        lambda: kenken.read(FOUR, hide_ops=value),
        lambda: kenken.Puzzle(FOUR, hide_ops=value),
        lambda: kenken.grade(FOUR, hide_ops=value),
        lambda: kenken.grade_many([FOUR], hide_ops=value),
        lambda: kenken.solve(FOUR, hide_ops=value),
        lambda: kenken.steps(FOUR, hide_ops=value),
        lambda: kenken.render_svg(FOUR, hide_ops=value),
        lambda: kenken.generate(size=4, min=2, seed=1, hide_ops=value),
    ]
    for call in calls:
        with pytest.raises(kenken.OptionsError) as e:
            call()
        assert str(e.value) == message


@pytest.mark.parametrize("function", ["read", "grade", "grade_many", "solve", "steps", "render_svg"])
def test_an_unknown_keyword_beside_hide_ops_is_a_type_error(function):
    argument = [FOUR] if function == "grade_many" else FOUR
    with pytest.raises(TypeError, match=f"^{function}\\(\\) got an unexpected keyword argument 'hide_op'$"):
        getattr(kenken, function)(argument, hide_ops=True, hide_op=True)


def test_hide_ops_none_takes_the_default():
    assert kenken.grade(FOUR, hide_ops=None) == kenken.grade(FOUR)
    assert kenken.solve(FOUR, hide_ops=None) == kenken.solve(FOUR)
    assert kenken.render_svg(FOUR, hide_ops=None) == kenken.render_svg(FOUR)
