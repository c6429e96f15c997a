"""Type stubs of the native module (re-exported by ``kenken``)."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, Optional, Union

__version__: str

Mode = Literal["n", "c", "b"]
GradeRow = dict[str, Any]
"""A ``grader batch --format ndjson`` row: ``index``, ``puzzle``, ``hide_ops``
(True, when the puzzle was graded with its operations hidden), ``status``,
``success``; ``max``, ``total``, ``steps`` (modes n, b); ``depth``, ``cc_steps``
(modes c, b); ``ms`` (``times=True``); ``error`` (when there is one)."""

class Cage:
    """One cage of a puzzle; equal to another (and hashed alike) when its op,
    clue and cells are the same; pickled and copied as its four fields."""

    def __init__(
        self, op: Optional[str], clue: int, cells: list[str], positions: list[tuple[int, int]]
    ) -> None: ...
    def __reduce__(
        self,
    ) -> tuple[type[Cage], tuple[Optional[str], int, list[str], list[tuple[int, int]]]]: ...

    op: Optional[str]
    """``+``, ``-``, ``*``, ``/``, or ``!`` for a single given cell; None when the
    operation is hidden (``? 12 A1 A2`` in the text format, or read with
    ``hide_ops``)."""
    clue: int
    cells: list[str]
    """Cell names, row letter and column number (``B3``), in reading order."""
    positions: list[tuple[int, int]]
    """0-based (row, column) pairs, in reading order."""
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Puzzle:
    """A KenKen puzzle; ``Puzzle(text, format=None, hide_ops=False)`` is
    ``read(text, format, hide_ops=hide_ops)``. Puzzles compare and hash by their
    grids, and pickle (every protocol) and copy as their text, format and
    ``hide_ops``."""

    def __init__(self, text: str, format: Optional[str] = None, hide_ops: bool = False) -> None: ...
    def _repr_svg_(self) -> str:
        """The empty grid as SVG (how Jupyter shows a puzzle)."""
    @property
    def size(self) -> int: ...
    @property
    def cages(self) -> list[Cage]: ...
    @property
    def boxes(self) -> Optional[tuple[int, int]]: ...
    @property
    def source(self) -> str:
        """The text the puzzle was read from."""
    @property
    def format(self) -> str:
        """The format it was read as (``tatham``, ``k6c``, ``d6c``, ``text``,
        ``letter-grid``)."""
    @property
    def has_hidden_ops(self) -> bool:
        """Whether any cage's operation is hidden (its ``op`` is None)."""
    def to_tatham(self) -> str: ...
    def to_k6c(self) -> str: ...
    def to_d6c(self) -> str: ...
    def to_text(self) -> str: ...
    def to_sudokuwiki(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Puzzle], Union[tuple[str, str], tuple[str, str, bool]]]: ...

PuzzleLike = Union[str, Puzzle]

class RowStream(Iterator[GradeRow]):
    """The rows of :func:`grade_many`, graded a chunk of the input at a time;
    threads may share it (each row goes to one of them)."""

    def __iter__(self) -> RowStream: ...
    def __next__(self) -> GradeRow: ...

def read(text: str, format: Optional[str] = None, *, hide_ops: bool = False) -> Puzzle:
    """Reads a puzzle string in any supported format (detected unless ``format``
    names one); a ``?`` cage of the text format keeps its operation hidden, and
    ``hide_ops=True`` hides every operation. Raises FormatError (also for a str
    holding a lone surrogate), OptionsError for an unknown ``format``; warns
    KenkenWarning for a lenient reading."""

def grade(
    puzzle: PuzzleLike,
    *,
    mode: Mode = "b",
    timeout: Optional[float] = None,
    disable: Sequence[str] = (),
    enable: Sequence[str] = (),
    max_depth: int = 8,
    max_memory: Union[int, str, None] = None,
    max_work: Optional[int] = None,
    times: bool = False,
    hide_ops: bool = False,
) -> GradeRow:
    """The ``grader batch --format ndjson`` row of one puzzle (``index`` 1)."""

def grade_many(
    puzzles: Iterable[Any],
    *,
    jobs: Optional[int] = None,
    mode: Mode = "b",
    timeout: Optional[float] = None,
    disable: Sequence[str] = (),
    enable: Sequence[str] = (),
    max_depth: int = 8,
    max_memory: Union[int, str, None] = None,
    max_work: Optional[int] = None,
    times: bool = False,
    hide_ops: bool = False,
) -> RowStream:
    """Grades an iterable of puzzles (strs, Puzzles, dicts ``{"puzzle": ...,
    "hide_ops": True}``) in parallel; rows in input order."""

def solve(
    puzzle: PuzzleLike, *, timeout: Optional[float] = None, hide_ops: bool = False
) -> dict[str, Any]:
    """``grader solve --json``: ``puzzle``, ``size``, ``verdict``, ``solution``."""

def steps(
    puzzle: PuzzleLike,
    *,
    mode: str = "n",
    timeout: Optional[float] = None,
    disable: Sequence[str] = (),
    enable: Sequence[str] = (),
    max_depth: int = 8,
    max_memory: Union[int, str, None] = None,
    max_work: Optional[int] = None,
    hide_ops: bool = False,
) -> list[dict[str, Any]]:
    """The step log as ``grader grade --json`` gives it: ``technique``, ``name``,
    ``rating``, ``text``, ``placements``, ``eliminations``, ``combinations``,
    ``proof`` (why each removal holds) and ``explanation`` per step; past a limit
    (``timeout``, ``max_memory``, ``max_work``), the steps found before it."""

def generate(
    size: int,
    min: float,
    max: Optional[float] = None,
    count: int = 1,
    seed: Optional[int] = None,
    *,
    jobs: Optional[int] = None,
    ops: str = "+-*/",
    strict: bool = False,
    cage_sizes: tuple[int, int] = (2, 5),
    max_givens: int = 1,
    max_mean_cage: float = 2.4,
    kendoku: bool = False,
    hide_ops: bool = False,
    require: Sequence[str] = (),
    forbid: Sequence[str] = (),
    max_depth: Optional[int] = None,
    steps: Optional[int] = None,
    max_tries: int = 10_000,
    timeout: Optional[float] = None,
) -> list[dict[str, Any]]:
    """``grader generate`` rows of ``count`` puzzles rated in [min, max]; with
    ``hide_ops=True``, puzzles unique with every operation hidden, their rows
    saying ``hide_ops: True`` and giving them in the text format."""

def render_svg(
    puzzle: PuzzleLike,
    step: Optional[int] = None,
    *,
    solution: bool = False,
    candidates: bool = False,
    caption: bool = True,
    hide_ops: bool = False,
) -> str:
    """The grid as SVG, as ``grader render`` draws it."""

def techniques() -> list[dict[str, Any]]:
    """The ladder: ``id``, ``name``, ``rating``, ``enabled``, ``summary``."""

# Used by kenken.dask.
class _BatchReader:
    def __init__(self, path: str, *, hide_ops: bool = False) -> None: ...
    def take(self, size: int) -> Optional[bytes]: ...
    @property
    def error(self) -> Optional[str]: ...
    @property
    def read(self) -> int: ...

def _check_grade_options(**options: Any) -> None: ...
def _grade_shard(shard: bytes, *, hide_ops_column: bool = False, **options: Any) -> dict[str, Any]: ...
def _tsv_header(mode: str, times: bool = False, hide_ops: bool = False) -> str: ...
def _summary(tallies: list[str], mode: str) -> str: ...
def _check_generation(format: str, size: int, min: float, max: Optional[float] = None, **ask: Any) -> None: ...
def _attempt_range(start: int, end: int, seed: int, **options: Any) -> dict[str, Any]: ...
def _generated_line(row: dict[str, Any], index: int) -> str: ...
def _closest_text(missed: list[Optional[int]], *, size: int, min: float, max: Optional[float] = None) -> str: ...
def _attempts_text(tried: int, repeats: int) -> str: ...
def _band_text(*, size: int, min: float, max: Optional[float] = None) -> str: ...
