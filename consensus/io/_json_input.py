"""JSON as the package reads it: one meaning per key, a bounded depth.

Python's :mod:`json` keeps the last value of a key given twice in one object (``{"qa": 1,
"qa": 2}`` is ``{"qa": 2}``): a task, a system or a record field would be dropped without a
word. Every JSON the package reads (score tables, the importers' result files, weights and
groups files, ``--option`` values) goes through :func:`loads` / :func:`load`, which refuse a
repeated key, naming it, and refuse nesting deeper than :data:`MAX_DEPTH` (a file of 100,000
brackets would otherwise exhaust the interpreter's recursion limit). ``NaN``, ``Infinity``
and ``-Infinity`` literals (not JSON, but what pandas and Python write) are read as floats,
as :mod:`json` does; the readers then treat them as missing or non-finite scores.
"""

from __future__ import annotations

import json
from typing import IO, Any

from ..errors import LeaderboardError

__all__ = ["MAX_DEPTH", "RepeatedKeyError", "JsonDepthError", "loads", "load"]

#: The deepest nesting of arrays and objects read; leaderboards and result files need a few levels.
MAX_DEPTH = 200


class RepeatedKeyError(LeaderboardError):
    """A key appears twice in one JSON object.

    Parameters
    ----------
    key : str
        The key (attribute ``key``).
    where : str, default=""
        The file or option, for the message.

    Examples
    --------
    >>> str(RepeatedKeyError("qa", "'scores.json'"))
    "'scores.json': key 'qa' appears twice in one JSON object (its values would overwrite each other); keep one"
    """

    def __init__(self, key: str, where: str = "") -> None:
        self.key = key
        super().__init__(f"{where + ': ' if where else ''}key {key!r} appears twice in one JSON object (its values would "
                         "overwrite each other); keep one")


class JsonDepthError(LeaderboardError):
    """JSON nested deeper than :data:`MAX_DEPTH` levels."""


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a linear scan, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def loads(text: str, where: str = "") -> Any:
    """Parse JSON `text`, refusing repeated keys and deep nesting.

    Parameters
    ----------
    text : str
    where : str, default=""
        The file or option, named in errors.

    Returns
    -------
    object
        As :func:`json.loads` parses it.

    Raises
    ------
    RepeatedKeyError
        A key appears twice in one object.
    JsonDepthError
        The nesting is deeper than :data:`MAX_DEPTH`.
    json.JSONDecodeError
        Not valid JSON (the callers name the file, line and column).

    Examples
    --------
    >>> loads('{"qa": {"a": 1}}')
    {'qa': {'a': 1}}
    >>> loads('{"qa": 1, "qa": 2}', "--option")
    Traceback (most recent call last):
    ...
    consensus.io._json_input.RepeatedKeyError: --option: key 'qa' appears twice in one JSON object (its values would overwrite each other); keep one
    """
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise JsonDepthError(f"{where + ': ' if where else ''}JSON nested more than {MAX_DEPTH} levels deep (a "
                             "leaderboard or result file needs a few): extract the part to read as a flat table "
                             "(e.g. with jq or pandas.json_normalize) and read that")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise RepeatedKeyError(key, where)
            out[key] = value
        return out

    return json.loads(text, object_pairs_hook=unique)


def load(fh: IO[str], where: str = "") -> Any:
    """:func:`loads` of an open text file.

    Parameters
    ----------
    fh : text file
    where : str, default=""

    Returns
    -------
    object
    """
    return loads(fh.read(), where)
