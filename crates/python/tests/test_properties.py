"""Property tests: values of every type (odd Unicode and lone surrogates, bytes,
None, ints of any size, floats from -0.0 to nan, lists, dicts, Puzzles) into
every function of the package and each of its options. A call returns, or
raises one of the documented errors: a `kenken.KenkenError` (FormatError,
OptionsError, GenerateError, RenderError, BatchInputError, IncompleteError), or
a TypeError for a value of the wrong Python type. Never a PanicException, and
never a crash of the interpreter: the calls run in a child process (with a 4 GiB
address-space cap) whose death is a failure.

Examples are drawn the same way on every run (`derandomize`); set
KENKEN_PROPERTY_EXAMPLES to draw that many per test at random instead.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import select
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

pytest.importorskip("hypothesis")

from hypothesis import Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import kenken  # noqa: E402

REPO = Path(__file__).resolve().parents[3]

# Hypothesis shows the huge strings it draws in full.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")

#: Examples per test: fixed unless asked for.
EXPLORE = os.environ.get("KENKEN_PROPERTY_EXAMPLES")
EXAMPLES = int(EXPLORE) if EXPLORE else 100


def _settings(examples: int, shrink: bool = True) -> settings:
    phases = (Phase.explicit, Phase.reuse, Phase.generate) + ((Phase.shrink,) if shrink else ())
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=not EXPLORE,
        phases=phases,
        print_blob=False,
    )


# --- The child process the calls run in -------------------------------------

CHILD = r"""
import pickle, resource, struct, sys, warnings
cap = 4 << 30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
warnings.simplefilter("ignore")
import kenken
requests, replies = sys.stdin.buffer, sys.stdout.buffer
sys.stdout = sys.stderr
while True:
    head = requests.read(4)
    if len(head) < 4:
        break
    name, args, kwargs = pickle.loads(requests.read(struct.unpack("<I", head)[0]))
    try:
        result = getattr(kenken, name)(*args, **kwargs)
        if name == "grade_many":
            result = list(result)
        reply = ("returned", [type(result).__name__], "")
    except BaseException as e:
        try:
            message = str(e)[:400]
        except BaseException:
            message = "?"
        reply = ("raised", [c.__module__ + "." + c.__qualname__ for c in type(e).__mro__], message)
    data = pickle.dumps(reply)
    replies.write(struct.pack("<I", len(data)) + data)
    replies.flush()
"""


#: The longest a call may take before it counts as hung.
CALL_SECONDS = 60


@dataclass
class Outcome:
    #: returned, raised, died (the child crashed) or hung.
    kind: str
    #: The result's type, or the exception's classes (its MRO).
    classes: list[str] = field(default_factory=list)
    message: str = ""


class Sandbox:
    """A child process that makes calls into `kenken` and says how each ended;
    started again when a call kills it."""

    def __init__(self) -> None:
        self.proc: Optional[subprocess.Popen] = None
        self.stderr = tempfile.TemporaryFile()

    def start(self) -> None:
        self.stop()
        self.stderr.seek(0)
        self.stderr.truncate()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc = None

    def call(self, name: str, args: tuple = (), kwargs: Optional[dict] = None, *, fresh: bool = False) -> Outcome:
        """`kenken.NAME(*args, **kwargs)` in the child (a new one if `fresh`)."""
        if fresh or self.proc is None or self.proc.poll() is not None:
            self.start()
        proc = self.proc
        data = pickle.dumps((name, args, kwargs or {}))
        try:
            proc.stdin.write(struct.pack("<I", len(data)) + data)
            proc.stdin.flush()
        except BrokenPipeError:
            return self._died()
        try:
            ready, _, _ = select.select([proc.stdout], [], [], CALL_SECONDS)
            if not ready:
                self.stop()
                return Outcome("hung", message=f"no answer in {CALL_SECONDS} s")
            head = proc.stdout.read(4)
            if len(head) < 4:
                return self._died()
            kind, classes, message = pickle.loads(proc.stdout.read(struct.unpack("<I", head)[0]))
        except BaseException:
            # A reply left unread would answer the next call.
            self.stop()
            raise
        return Outcome(kind, classes, message)

    def _died(self) -> Outcome:
        code = self.proc.wait()
        self.stderr.seek(0)
        tail = self.stderr.read()[-1500:].decode(errors="replace")
        self.stop()
        return Outcome("died", message=f"exit status {code}; stderr: {tail}")


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox()
    yield box
    box.stop()


# --- Values -----------------------------------------------------------------

SAMPLE = json.loads((REPO / "puzzles" / "sample.json").read_text())
SIX = next(p for p in SAMPLE if p.startswith("6:"))
#: Valid puzzle strings in every format the reader knows.
VALID = SAMPLE[:8] + [
    kenken.read(SAMPLE[1]).to_text(),
    kenken.read(SIX).to_k6c(),
    kenken.read(SIX).to_sudokuwiki(),
    "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/keen.html#" + SAMPLE[1],
]
PUZZLES = [kenken.read(p) for p in SAMPLE[:6]]
TECHNIQUES = [t["id"] for t in kenken.techniques()]
WORDS = ["n", "c", "b", "tatham", "k6c", "d6c", "text", "letter-grid", "sudokuwiki", "512M", "1G", "+-*/", "x"]

CHARS = st.one_of(
    st.characters(),
    st.characters(categories=["Cs"]),  # lone surrogates
    st.sampled_from(list("0123456789:_abcdefghijklmnopqrstuvwxyz,+-*/x!#. \n\t")),
)


def _mutated(text: str, edits: list[tuple[int, str]]) -> str:
    for at, s in edits:
        at %= len(text) + 1
        text = text[:at] + s + text[at + 1 :] if s != "!del" else text[:at] + text[at + 1 :]
    return text


TEXTS = st.one_of(
    st.text(CHARS, max_size=40),
    st.builds(
        _mutated,
        st.sampled_from(VALID),
        st.lists(st.tuples(st.integers(0, 400), st.one_of(CHARS, st.just("!del"))), min_size=1, max_size=4),
    ),
    st.sampled_from(VALID + WORDS + TECHNIQUES),
    st.sampled_from(
        [
            "9" * 100_000,
            "4:" + "_" * 50_000 + ",a1",
            "16:" + "a" * 1000 + "," + "a1" * 1000,
            "# 16\n" + "+ 1 A1\n" * 5000,
            "#" * 200_000,
            "\U0010ffff" * 10_000,
            "\ud800" * 1000,
            "4:_a_5a_bac_a__,d2m12a5m8s2d2s1\x00",
            "1" * 25 + ":" + "_",
        ]
    ),
)
EDGE_INTS = [0, 1, -1, 2, 3, 4, 8, 9, 16, 17, 255, 256, 1 << 31, 1 << 32, (1 << 63) - 1, 1 << 63, 10**400,
             (1 << 64) - 1, 1 << 64, -(1 << 63), 10**100, -(10**100)]
INTS = st.one_of(st.integers(), st.integers(-(1 << 130), 1 << 130), st.sampled_from(EDGE_INTS))
EDGE_FLOATS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1e300, -1e300, 5e-324, 1e-300, 1e19, 1e10,
               0.5, 1.0, 2.4, 4.4, 1000.0, 1000.1, -0.1]
FLOATS = st.one_of(st.floats(), st.sampled_from(EDGE_FLOATS))
SCALARS = st.one_of(
    st.none(), st.booleans(), INTS, FLOATS, TEXTS, st.binary(max_size=40), st.sampled_from(PUZZLES)
)
ANYTHING = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
    ),
    max_leaves=6,
)

# The kinds of options: values of the right Python type (drawn often), the edge
# values every run tries, and whether a value is of that type (a wrong type may
# raise TypeError).


@dataclass
class Kind:
    values: Any
    edges: list[Any]
    right: Callable[[Any], bool]


def _is_int(v: Any) -> bool:
    # A bool is an int to Python, but no whole-number option takes one.
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float))


def _is_str_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v)


ODD_TEXTS = ["", " ", "\ud800", "\udfff\ud800", "\x00", "\U0010ffff", "x" * 100_000, "é", "N", " n "]
#: Tried on every option: None, empty containers, bytes, a Puzzle, nan.
COMMON = [None, "", b"", b"\xff", [], (), {}, {"a": 1}, [None], math.nan, PUZZLES[0], 1.5, -1]

INT = Kind(INTS, EDGE_INTS + [True, False], _is_int)
NUMBER = Kind(st.one_of(FLOATS, INTS), EDGE_FLOATS + EDGE_INTS, _is_number)
TEXT = Kind(TEXTS, ODD_TEXTS + WORDS, lambda v: isinstance(v, str))
BOOL = Kind(st.booleans(), [True, False, 0, 1, "true"], lambda v: isinstance(v, bool))
PUZZLE = Kind(
    st.one_of(TEXTS, st.sampled_from(PUZZLES)),
    ODD_TEXTS + VALID + PUZZLES,
    lambda v: isinstance(v, (str, kenken.Puzzle)),
)
IDS = Kind(
    st.lists(st.one_of(st.sampled_from(TECHNIQUES), TEXTS), max_size=3),
    [[], [""], ["\ud800"], ["nope"], [",,"], TECHNIQUES, TECHNIQUES[:1] * 1000, "region-sum", [None], [b"x"]],
    _is_str_list,
)
MEMORY = Kind(
    st.one_of(INTS, TEXTS),
    EDGE_INTS + ODD_TEXTS + ["0", "1M", "512M", "1023K", "99999999999999999999G", "-1M", "1.5G"],
    lambda v: isinstance(v, (int, str)),
)
PAIR = Kind(
    st.tuples(INTS, INTS),
    [(2, 5), (0, 0), (-1, 2), (2, 10**30), (5, 2), (1 << 64, 2), (2, 1 << 64), [2, 3], (2,), (2, 3, 4), ("2", "3")],
    lambda v: isinstance(v, (tuple, list)) and len(v) == 2 and all(map(_is_int, v)),
)
ITEMS = Kind(
    st.lists(st.one_of(PUZZLE.values, ANYTHING), max_size=5),
    [[], ["\ud800"], [None, 5, b"x"], PUZZLES, ODD_TEXTS, "4:_a_5a_bac_a__,d2m12a5m8s2d2s1", range(3)],
    lambda v: isinstance(v, (list, tuple, range, str)),
)


def values(kind: Kind) -> Any:
    return st.one_of(kind.values, ANYTHING)


# --- The calls --------------------------------------------------------------

FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1"
GRADE_OPTIONS = {
    "mode": TEXT, "timeout": NUMBER, "disable": IDS, "enable": IDS, "max_depth": INT,
    "max_memory": MEMORY, "max_work": INT, "times": BOOL, "hide_ops": BOOL,
}
#: A generation that ends in moments whatever one option says: a 4×4 band that
#: anything is in, two short attempts, two seconds.
GENERATE_BASE = dict(size=4, min=0, count=1, seed=1, max_tries=2, timeout=2.0, steps=20, jobs=1)
GENERATE_OPTIONS = {
    "size": INT, "min": NUMBER, "max": NUMBER, "count": INT, "seed": INT, "jobs": INT, "ops": TEXT,
    "strict": BOOL, "cage_sizes": PAIR, "max_givens": INT, "max_mean_cage": NUMBER, "kendoku": BOOL,
    "hide_ops": BOOL, "require": IDS, "forbid": IDS, "max_depth": INT, "steps": INT, "max_tries": INT, "timeout": NUMBER,
}


@dataclass
class Case:
    function: str
    option: str
    kind: Kind
    base: dict[str, Any]
    #: The option is the first positional argument.
    positional: bool = False
    #: Each call in a new child (an option that starts threads kept for the life
    #: of a process).
    fresh: bool = False

    @property
    def id(self) -> str:
        return f"{self.function}-{self.option}"

    def call(self, sandbox: Sandbox, value: Any) -> tuple[str, Outcome]:
        kwargs = dict(self.base)
        args: tuple = ()
        if self.positional:
            args = (value,)
        else:
            if self.function in ("grade", "solve", "render_svg"):
                args = (FOUR,)
            elif self.function == "grade_many":
                args = ([FOUR, SIX, "garbage"],)
            elif self.function == "read":
                args = (FOUR,)
            kwargs[self.option] = value
        shown = f"kenken.{self.function}({', '.join([*map(_short, args), *(f'{k}={_short(v)}' for k, v in kwargs.items())])})"
        return shown, sandbox.call(self.function, args, kwargs, fresh=self.fresh)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) < 200 else text[:200] + f"... ({len(text)} characters)"


def _cases() -> list[Case]:
    cases = [
        Case("read", "text", TEXT, {}, positional=True),
        Case("read", "format", TEXT, {}),
        Case("read", "hide_ops", BOOL, {}),
        Case("grade", "puzzle", PUZZLE, {}, positional=True),
        Case("grade_many", "puzzles", ITEMS, {}, positional=True),
        Case("grade_many", "jobs", INT, {}, fresh=True),
        Case("solve", "puzzle", PUZZLE, {}, positional=True),
        Case("solve", "timeout", NUMBER, {}),
        Case("solve", "hide_ops", BOOL, {}),
        Case("render_svg", "puzzle", PUZZLE, {}, positional=True),
        Case("render_svg", "step", INT, {}),
        Case("render_svg", "solution", BOOL, {}),
        Case("render_svg", "candidates", BOOL, {}),
        Case("render_svg", "caption", BOOL, {"step": 1}),
        Case("render_svg", "hide_ops", BOOL, {"step": 1}),
    ]
    for option, kind in GRADE_OPTIONS.items():
        cases.append(Case("grade", option, kind, {}))
        cases.append(Case("grade_many", option, kind, {"jobs": 1}))
    for option, kind in GENERATE_OPTIONS.items():
        cases.append(Case("generate", option, kind, dict(GENERATE_BASE), fresh=option == "jobs"))
    return cases


CASES = [pytest.param(c, id=c.id) for c in _cases()]


def check(shown: str, outcome: Outcome, right_type: bool) -> None:
    """A call returned, or raised a documented error."""
    if outcome.kind == "returned":
        return
    assert outcome.kind == "raised", f"{shown}: the child process {outcome.kind}: {outcome.message}"
    classes = outcome.classes
    name = classes[0]
    assert "PanicException" not in name, f"{shown} panicked: {outcome.message}"
    if "kenken.errors.KenkenError" in classes:
        return
    assert not right_type and "builtins.TypeError" in classes, (
        f"{shown} raised {name}: {outcome.message}"
        + ("" if right_type else " (a wrong type may raise TypeError, or a KenkenError)")
    )


@pytest.mark.parametrize("case", CASES)
@given(data=st.data())
@_settings(EXAMPLES)
def test_any_value_of_an_option(sandbox, case, data):
    value = data.draw(values(case.kind), label=case.option)
    shown, outcome = case.call(sandbox, value)
    check(shown, outcome, case.kind.right(value))


def _every_edge(sandbox: Sandbox, case: Case) -> None:
    failures = []
    for value in case.kind.edges + COMMON:
        shown, outcome = case.call(sandbox, value)
        try:
            check(shown, outcome, case.kind.right(value))
        except AssertionError as e:
            failures.append(str(e).splitlines()[0][:600])
    assert not failures, f"{len(failures)} of {len(case.kind.edges + COMMON)} values:\n" + "\n".join(failures)


@pytest.mark.parametrize("case", CASES)
def test_every_edge_value_of_an_option(sandbox, case):
    _every_edge(sandbox, case)


@pytest.mark.parametrize("function", ["grade", "grade_many", "render_svg"])
@given(data=st.data())
@_settings(EXAMPLES)
def test_any_puzzle_with_valid_options(sandbox, function, data):
    """Random puzzle strings and Puzzles with random valid options."""
    puzzle = data.draw(PUZZLE.values, label="puzzle")
    if function == "render_svg":
        kwargs = data.draw(
            st.one_of(
                st.fixed_dictionaries(
                    {"step": st.integers(1, 40), "caption": st.booleans()}, optional={"hide_ops": st.booleans()}
                ),
                st.fixed_dictionaries({"solution": st.just(True)}),
                st.fixed_dictionaries({"candidates": st.just(True)}),
                st.just({}),
            ),
            label="options",
        )
    else:
        kwargs = data.draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "mode": st.sampled_from("ncb"),
                    "timeout": st.floats(1e-6, 5),
                    "disable": st.lists(st.sampled_from(TECHNIQUES), max_size=3),
                    "max_depth": st.integers(2, 8),
                    "max_memory": st.sampled_from([1 << 20, "64M", "1G"]),
                    "max_work": st.integers(0, 10**7),
                    "times": st.booleans(),
                    "hide_ops": st.booleans(),
                },
            ),
            label="options",
        )
    args = ([puzzle, puzzle],) if function == "grade_many" else (puzzle,)
    if function == "grade_many":
        kwargs["jobs"] = 1
    outcome = sandbox.call(function, args, kwargs)
    check(f"kenken.{function}({_short(puzzle)}, **{kwargs})", outcome, True)


# --- Pickling, and the faults found so far, one call each ----------------------


@given(text=TEXTS)
@_settings(EXAMPLES * 3)
def test_any_puzzle_read_pickles_back(text):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            p = kenken.read(text)
        except kenken.FormatError:
            return
        for protocol in (0, 1, pickle.HIGHEST_PROTOCOL):
            q = pickle.loads(pickle.dumps(p, protocol=protocol))
            assert q == p and q.cages == p.cages and q.source == p.source


@given(text=TEXTS)
@_settings(EXAMPLES * 3)
def test_any_puzzle_read_with_hidden_operations_round_trips(text):
    """Every operation but a given's hidden; the text format writes the puzzle
    (`?` cages) and reads it back; pickles keep it hidden."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            p = kenken.read(text, hide_ops=True)
        except kenken.FormatError:
            return
        assert all(c.op in (None, "!") for c in p.cages)
        assert kenken.read(p.to_text()) == p
        assert p == kenken.read(text) or p.has_hidden_ops
        for protocol in (0, 1, pickle.HIGHEST_PROTOCOL):
            q = pickle.loads(pickle.dumps(p, protocol=protocol))
            assert q == p and q.cages == p.cages and repr(q) == repr(p)


def test_a_huge_generation_timeout_is_not_a_panic(sandbox):
    outcome = sandbox.call("generate", kwargs=dict(size=4, min=9, timeout=1e300, max_tries=3))
    check("kenken.generate(size=4, min=9, timeout=1e300, max_tries=3)", outcome, True)


@pytest.mark.parametrize("timeout", [0, -1, math.nan, math.inf])
def test_generate_refuses_a_timeout_that_grade_refuses(timeout):
    with pytest.raises(kenken.OptionsError):
        kenken.grade(FOUR, timeout=timeout)
    with pytest.raises(kenken.OptionsError):
        kenken.generate(size=4, min=0, max_tries=2, timeout=timeout)


@pytest.mark.parametrize("mean", [0, -1, math.nan])
def test_generate_refuses_a_max_mean_cage_that_is_not_positive(mean):
    with pytest.raises(kenken.OptionsError):
        kenken.generate(size=4, min=0, max_tries=2, max_mean_cage=mean)


def test_many_threads_under_an_address_space_cap_are_no_abort(sandbox):
    outcome = sandbox.call("grade_many", ([FOUR] * 4,), dict(jobs=100), fresh=True)
    check("kenken.grade_many([...], jobs=100)", outcome, True)
