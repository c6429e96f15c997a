"""The exceptions and warnings of the ``kenken`` package.

Every error the package raises on purpose is a :class:`KenkenError`; those about
bad values are also :class:`ValueError`, so ``except ValueError`` keeps working.
Messages are those of the ``grader`` command line.
"""

from __future__ import annotations

from typing import Any


class KenkenError(Exception):
    """Base class of the package's errors."""


class FormatError(KenkenError, ValueError):
    """A puzzle string that cannot be read, or a puzzle a format cannot hold."""


class OptionsError(KenkenError, ValueError):
    """An option out of range: an unknown mode or technique, a bad timeout, ..."""


class GenerateError(KenkenError, ValueError):
    """A generation request the generator refuses (checked before any search)."""


class RenderError(KenkenError, ValueError):
    """A picture that cannot be drawn (a step past the end of the log, ...)."""


class BatchInputError(KenkenError, OSError):
    """A batch input that cannot be used: missing, a directory, not text, ..."""


class OutputError(KenkenError, OSError):
    """An output file that cannot be written: its folder is missing, it is a
    directory, it cannot be created there. Raised before any work starts."""


class IncompleteError(KenkenError):
    """A generation run stopped (``max_tries``, ``timeout``) before ``count``
    puzzles were found. ``puzzles`` holds the rows found, ``tried`` the attempts
    made."""

    def __init__(self, message: str, puzzles: list[dict[str, Any]], tried: int) -> None:
        super().__init__(message)
        self.puzzles = puzzles
        self.tried = tried

    def __reduce__(self) -> Any:
        return (type(self), (str(self), self.puzzles, self.tried))


class KenkenWarning(UserWarning):
    """A puzzle read leniently (a game ID that breaks one of Tatham's rules)."""


__all__ = [
    "KenkenError",
    "FormatError",
    "OptionsError",
    "GenerateError",
    "RenderError",
    "BatchInputError",
    "OutputError",
    "IncompleteError",
    "KenkenWarning",
]
