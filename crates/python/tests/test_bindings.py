"""The bindings against the `grader` command line: the same rows, verdicts,
puzzles and pictures."""

from __future__ import annotations

import json
import pickle
import threading
import time
import warnings

import pytest

import kenken
from conftest import run_grader

FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1"
SIX = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2"


def test_read_gives_the_grid_and_writes_every_format():
    p = kenken.read(FOUR)
    assert p.size == 4 and p.format == "tatham" and p.source == FOUR and str(p) == FOUR
    assert p.boxes is None
    first = p.cages[0]
    assert (first.op, first.clue, first.cells, first.positions) == ("/", 2, ["A1", "B1"], [(0, 0), (1, 0)])
    assert [c.op for c in p.cages] == ["/", "*", "+", "*", "-", "/", "-"]
    assert p.to_tatham() == FOUR
    assert p.to_text().splitlines()[:2] == ["# 4", "/ 2 A1 B1"]
    assert kenken.read(p.to_text()) == p
    six = kenken.read(SIX)
    assert kenken.read(six.to_k6c()) == six
    assert six.to_sudokuwiki().startswith("https://") or "bd=" in six.to_sudokuwiki()
    with pytest.raises(kenken.FormatError):
        p.to_k6c()


def test_puzzles_compare_hash_and_pickle():
    p = kenken.read(FOUR)
    q = kenken.Puzzle(p.to_text())
    assert p == q and hash(p) == hash(q) and p != kenken.read(SIX) and p != FOUR
    assert pickle.loads(pickle.dumps(p)) == p
    assert repr(p) == f"kenken.read({FOUR!r})"


def test_puzzles_pickle_with_every_protocol(repo):
    import copy

    sample = json.loads((repo / "puzzles" / "sample.json").read_text())
    six = kenken.read(SIX)
    texts = sample + [kenken.read(FOUR).to_text(), six.to_k6c(), six.to_sudokuwiki(), "3\nAAB\nCDB\nCD1\n\nA 3+\nB 2/\nC 3x\nD 5+\n"]
    for text in texts:
        p = kenken.read(text)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            q = pickle.loads(pickle.dumps(p, protocol=protocol))
            assert type(q) is kenken.Puzzle and q == p and hash(q) == hash(p)
            assert (q.source, q.format, q.cages) == (p.source, p.format, p.cages)
        assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert {kenken.read(t).format for t in texts} >= {"tatham", "text", "k6c", "sudokuwiki", "letter-grid"}


def test_cages_compare_and_hash():
    p, q = kenken.read(FOUR), kenken.read(kenken.read(FOUR).to_text())
    assert p.cages == p.cages == q.cages
    assert [hash(c) for c in p.cages] == [hash(c) for c in q.cages]
    assert len(set(p.cages)) == len(p.cages) and set(p.cages) == set(q.cages)
    assert p.cages[0] != p.cages[1] and p.cages[0] != ("/", 2, ["A1", "B1"])
    assert kenken.read(SIX).cages != p.cages


def test_cages_pickle_with_every_protocol_and_copy():
    import copy

    for p in [kenken.read(FOUR), kenken.read(SIX), kenken.read(FOUR, hide_ops=True)]:
        for cage in p.cages:
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                back = pickle.loads(pickle.dumps(cage, protocol=protocol))
                assert type(back) is kenken.Cage and back == cage and hash(back) == hash(cage)
                assert repr(back) == repr(cage) and back.positions == cage.positions
            assert copy.copy(cage) == cage and copy.deepcopy(cage) == cage
    # The constructor the pickles use, checked.
    assert kenken.Cage("/", 2, ["A1", "B1"], [(0, 0), (1, 0)]) == kenken.read(FOUR).cages[0]
    with pytest.raises(kenken.OptionsError, match="op must be one of"):
        kenken.Cage("%", 2, ["A1"], [(0, 0)])
    with pytest.raises(kenken.OptionsError, match="as many cells"):
        kenken.Cage("+", 2, ["A1"], [])


def test_a_lenient_reading_warns():
    with pytest.warns(kenken.KenkenWarning, match="read it leniently"):
        kenken.read("4:_a_5a_bac_a__,d2s1a5m8s2d2s1")


@pytest.mark.parametrize("mode", ["n", "c", "b"])
def test_rows_are_grader_batch_rows(grader, repo, mode):
    sample = repo / "puzzles" / "sample.json"
    out = run_grader(grader, "batch", str(sample), "--format", "ndjson", "--mode", mode)
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    puzzles = json.loads(sample.read_text())
    assert [dict(r) for r in kenken.grade_many(puzzles, mode=mode)] == expected
    for puzzle, row in zip(puzzles, expected):
        assert kenken.grade(puzzle, mode=mode) == dict(row, index=1)


@pytest.mark.filterwarnings("ignore::kenken.KenkenWarning")
def test_rows_with_options_and_invalid_entries(grader, tmp_path, corpus):
    from conftest import JUNK

    lines = [json.dumps(p) for p in corpus[:300:7]] + [j for j in JUNK if j]
    path = tmp_path / "mixed.ndjson"
    path.write_text("\n".join(lines) + "\n")
    options = ["--mode", "b", "--disable", "fish,hidden-subset", "--max-depth", "3", "--max-work", "200000"]
    out = run_grader(grader, "batch", str(path), "--format", "ndjson", *options)
    assert out.returncode == 2
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    # The same entries as Python objects: what the reader makes of each line.
    items = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        try:
            value.encode()  # a lone surrogate is not text to Rust either
        except (AttributeError, UnicodeEncodeError):
            value = None
        items.append(value)
    rows = list(
        kenken.grade_many(
            items, mode="b", disable=["fish", "hidden-subset"], max_depth=3, max_work=200000, jobs=2
        )
    )
    for item, row, want in zip(items, rows, expected):
        if item is None:  # not a string: the messages differ (Python's reading)
            assert row["status"] == want["status"] == "invalid"
        else:
            assert row == want


def test_grade_many_streams_in_chunks_and_in_order(corpus):
    taken = 0

    def puzzles():
        nonlocal taken
        for p in corpus[:5000]:
            taken += 1
            yield p

    rows = kenken.grade_many(puzzles(), jobs=1, mode="n")
    first = next(rows)
    assert first["index"] == 1 and taken == 2048
    indexes = [first["index"]] + [r["index"] for r in rows]
    assert indexes == list(range(1, 5001)) and taken == 5000
    one = [r["max"] for r in kenken.grade_many(corpus[:3000], jobs=1)]
    two = [r["max"] for r in kenken.grade_many(corpus[:3000], jobs=2)]
    assert one == two


def test_grade_many_keeps_the_rows_before_an_input_error(corpus):
    def puzzles():
        yield from corpus[:10]
        raise RuntimeError("the input broke")

    rows = kenken.grade_many(puzzles(), jobs=1)
    assert [next(rows)["index"] for _ in range(10)] == list(range(1, 11))
    with pytest.raises(RuntimeError, match="the input broke"):
        next(rows)
    odd = list(kenken.grade_many(["\ud800", None], jobs=1))
    assert [r["error"] for r in odd] == [
        "item 1 is not valid Unicode text (it holds a lone surrogate)",
        'item 2 is a NoneType, not a puzzle string, a dict with a "puzzle" string or a kenken.Puzzle',
    ]


def test_grade_many_serves_each_row_once_to_several_threads(corpus):
    """One iterator shared by threads: every row goes to one of them, each
    thread's rows in input order (where a borrowed iterator once raised
    RuntimeError: Already mutably borrowed)."""
    rows = kenken.grade_many(corpus[:5000], jobs=1, mode="n")
    taken: list[list[int]] = [[] for _ in range(4)]
    failures: list[BaseException] = []

    def take(mine: list[int]) -> None:
        try:
            for row in rows:
                mine.append(row["index"])
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=take, args=(mine,)) for mine in taken]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert sorted(i for mine in taken for i in mine) == list(range(1, 5001))
    assert all(mine == sorted(mine) for mine in taken)


def test_grade_many_asked_from_inside_its_own_input_raises():
    rows = None

    def puzzles():
        yield FOUR
        next(rows)

    rows = kenken.grade_many(puzzles(), jobs=1)
    assert next(rows)["status"] == "solved"
    with pytest.raises(RuntimeError, match="grade_many's rows were asked for from inside its own input"):
        next(rows)


def test_grade_many_takes_batch_entries(grader, tmp_path):
    """Dicts as `grader batch` reads its objects: `puzzle`, `hide_ops`, other keys
    ignored, and the same refusals."""
    import re

    entries = [
        FOUR,
        {"puzzle": FOUR, "hide_ops": True},
        {"puzzle": FOUR, "hide_ops": False, "id": 7},
        {"puzzle": FOUR},
        {"puzzle": FOUR, "hide_ops": "yes"},
        {"puzzle": FOUR, "hide_ops": None},
        {"id": 3},
        {"puzzle": 5},
    ]
    path = tmp_path / "entries.json"
    path.write_text(json.dumps(entries))
    out = run_grader(grader, "batch", str(path), "--format", "ndjson", "--mode", "n")
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    for row in expected:
        if "error" in row:
            row["error"] = re.sub(r"^array element (\d+) \(line \d+, column \d+\)", r"item \1", row["error"])
    got = list(kenken.grade_many(entries, mode="n"))
    assert got == expected
    assert got[1]["hide_ops"] is True and "hide_ops" not in got[0]
    assert got[4]["error"] == 'item 5 has a "hide_ops" that is not true or false'
    # A Puzzle in a dict brings its own hide_ops along.
    hidden = kenken.read(FOUR, hide_ops=True)
    assert list(kenken.grade_many([{"puzzle": hidden}], mode="n")) == [dict(expected[1], index=1)]


def test_grade_many_releases_the_gil(corpus):
    nines = [p for p in corpus if p.startswith("9:")][:600] * 4
    gaps: list[float] = []
    done = threading.Event()

    def work():
        for _ in kenken.grade_many(nines, jobs=1, mode="b"):
            pass
        done.set()

    t = threading.Thread(target=work)
    started = time.monotonic()
    t.start()
    last = time.monotonic()
    while not done.is_set():
        time.sleep(0.001)
        now = time.monotonic()
        gaps.append(now - last)
        last = now
    t.join()
    took = time.monotonic() - started
    # The chunk's grading takes most of `took`; a thread holding the GIL
    # throughout would stall this loop for all of it.
    assert took > 0.3, took
    assert max(gaps) < took / 3, (max(gaps), took)


def test_solve_is_grader_solve_json(grader):
    for puzzle in [FOUR, SIX, "# 3\n+ 6 A1 A2 A3\n+ 6 B1 B2 B3\n+ 6 C1 C2 C3"]:
        want = json.loads(run_grader(grader, "solve", puzzle, "--json").stdout)
        assert kenken.solve(puzzle) == want
    assert kenken.solve(kenken.read(FOUR))["solution"][0] == [4, 3, 1, 2]


def test_generate_is_grader_generate(grader):
    args = ["--size", "6", "--min", "4.4", "--max", "4.4", "--count", "2", "--seed", "1"]
    out = run_grader(grader, "generate", *args)
    want = [json.loads(line) for line in out.stdout.decode().splitlines()]
    got = kenken.generate(size=6, min=4.4, max=4.4, count=2, seed=1)
    assert got == want
    assert kenken.generate(size=6, min=4.4, max=4.4, count=2, seed=1, jobs=1) == want
    assert kenken.read(got[0]["puzzle"]).size == 6


def test_render_is_grader_render(grader):
    for extra, kwargs in [([], {}), (["--step", "7"], {"step": 7}), (["--solution"], {"solution": True})]:
        want = run_grader(grader, "render", SIX, *extra).stdout.decode()
        assert kenken.render_svg(SIX, **kwargs) == want


def test_techniques_are_the_ladder(grader):
    # The table: from the header to the first blank line (the scale follows it).
    table = run_grader(grader, "techniques").stdout.decode().split("\n\n")[0]
    ids = [line.split()[0] for line in table.splitlines()[1:] if not line.startswith(" ")]
    assert [t["id"] for t in kenken.techniques()] == ids


def test_a_puzzle_shows_as_its_grid_in_jupyter():
    p = kenken.read("4:_a_5a_bac_a__,d2m12a5m8s2d2s1")
    assert p._repr_svg_() == kenken.render_svg(p)


def test_rows_go_into_a_dataframe():
    pandas = pytest.importorskip("pandas")
    rows = list(kenken.grade_many(["3:_a_aa_aa,s1m3a6m6", "garbage"], mode="n"))
    df = kenken.dataframe(rows)
    assert isinstance(df, pandas.DataFrame)
    assert list(df["status"]) == ["solved", "invalid"]
    assert df["max"][0] == 1.0 and pandas.isna(df["max"][1])
    assert set(df.columns) == set(rows[0]) | set(rows[1])


NINE = (
    "9:a__bb__a_b__a_b__a4_4a_a_6a_11a_4a_6a_6a3_aba_3a_3a_a_3aba_baa_aa_a4,m18s2d2a16d2a8s1s3"
    "m216s3s2a13s4m24s4d2m8a11s4m126m6m18d3a9d4a9d2a15a7m64a12s2d2s4m108a8m8"
)


def test_steps_are_grade_json_steps_with_their_proofs(grader):
    steps = kenken.steps(NINE)
    doc = json.loads(run_grader(grader, "grade", NINE, "--json").stdout)
    assert steps == doc["steps"]
    step = steps[5]
    assert step["technique"] == "cage-combination"
    assert len(step["proof"]) == len(step["combinations"][0]["removed"]) == 5
    assert step["proof"][0]["text"].startswith("If A5, A6, A7 were 1, 9, 6, cage A1 (18×)")
    with pytest.raises(kenken.OptionsError):
        kenken.steps(NINE, max_depth=9)
    with pytest.raises(TypeError):
        kenken.steps(NINE, nope=1)


def test_steps_past_their_limits_are_those_found_before(grader):
    """Past `timeout` (or the memory or work limit) `steps` gives the steps found
    before it, as `grade` gives the ratings reached and `grader grade --json`
    lists them: one behaviour, never an error."""
    assert kenken.grade(NINE, timeout=1e-9)["status"] == "timeout"
    assert kenken.steps(NINE, timeout=1e-9) == []
    doc = json.loads(run_grader(grader, "grade", NINE, "--json", "--max-work", "1").stdout)
    assert doc["status"] == "limit"
    assert kenken.steps(NINE, max_work=1) == doc["steps"]
    assert kenken.grade(NINE, max_work=1)["status"] == "limit"
    # Cut in the middle of the ladder (the 9×9 with its operations hidden takes
    # far longer than this to grade): the steps found so far.
    assert kenken.grade(NINE, hide_ops=True, timeout=0.3)["status"] == "timeout"
    cut = kenken.steps(NINE, hide_ops=True, timeout=0.3)
    assert all(step["technique"] for step in cut)
