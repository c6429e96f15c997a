"""KenKen (Calcudoku) puzzles from Python: read them in any supported format,
grade them the way a person solves them (the same rows as ``grader batch``),
solve them exhaustively, generate them at a rating, and draw them.

>>> import kenken
>>> p = kenken.read("4:_a_5a_bac_a__,d2m12a5m8s2d2s1")
>>> p.size
4
>>> kenken.grade(p)["max"]
1.0

Batches: :func:`grade_many` grades any iterable in parallel (GIL released,
rows in input order); :func:`dataframe` turns rows into a pandas DataFrame;
:mod:`kenken.dask` runs files of puzzles on a Dask cluster. In Jupyter a
:class:`Puzzle` shows as its grid.
"""

from typing import Any, Iterable

from . import errors
from .errors import (
    BatchInputError,
    FormatError,
    GenerateError,
    IncompleteError,
    KenkenError,
    KenkenWarning,
    OptionsError,
    OutputError,
    RenderError,
)
from ._kenken import (
    Cage,
    Puzzle,
    RowStream,
    __version__,
    generate,
    grade,
    grade_many,
    read,
    render_svg,
    solve,
    steps,
    techniques,
)



def dataframe(rows: Iterable[dict[str, Any]]) -> Any:
    """The rows of :func:`grade_many` (or :func:`grade`, :func:`generate`, …) as a
    pandas DataFrame, one row per puzzle in their order, one column per field; a
    field a row lacks (``max`` of an ``invalid`` row) is missing there. Needs pandas
    (``pip install './crates/python[pandas]'``); an ImportError says so otherwise.
    """
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            "kenken.dataframe needs pandas: pip install pandas (or the package's "
            "[pandas] extra)"
        ) from e
    return pandas.DataFrame.from_records(list(rows))


__all__ = [
    "__version__",
    "dataframe",
    "Puzzle",
    "Cage",
    "RowStream",
    "read",
    "grade",
    "grade_many",
    "solve",
    "steps",
    "generate",
    "render_svg",
    "techniques",
    *errors.__all__,
]
