"""Finding and parsing the JSON files evaluation tools write, with errors naming file and line.

JSON is parsed by Python's :mod:`json` (numbers exactly as written, ``NaN`` accepted as the
tools write it), decoded as UTF-8 (a byte-order mark dropped), ``.gz`` decompressed, as in
:mod:`consensus.io._file_tables`.
"""

from __future__ import annotations

import glob as globmod
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidOptionError, LeaderboardError
from ..io import _json_input as json_input
from ..io._file_tables import decode_error, open_binary, open_text
from ..io._opening import bounded_lines
from .errors import FormatError

__all__ = ["find_files", "load_json", "json_lines", "PathSpec"]

#: What the importers accept as ``path``: a directory, a file, a glob pattern, or a list of files.
PathSpec = str | Path | Sequence[str | Path]


def find_files(path: PathSpec, pattern: str, *, what: str) -> list[Path]:
    """The files named by `path`, sorted: a list, a glob, a file, or those matching `pattern` below a directory.

    Parameters
    ----------
    path : str, Path or list of them
        A directory (searched recursively for `pattern`), a glob pattern, a file, or a list
        of files.
    pattern : str
        File-name pattern searched for below a directory (``"results_*.json"``).
    what : str
        What the files are, for the message when none is found.

    Returns
    -------
    list of Path
        Sorted (the order systems and tasks first appear in).

    Raises
    ------
    LeaderboardError
        Nothing matches, or a listed file does not exist.
    InvalidOptionError
        `path` is not a path or a list of paths.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> os.makedirs(os.path.join(folder, "m"))
    >>> _ = open(os.path.join(folder, "m", "results_1.json"), "w").write("{}")
    >>> [p.name for p in find_files(folder, "results_*.json", what="results files")]
    ['results_1.json']
    """
    if isinstance(path, (list, tuple)):
        bad = [p for p in path if not isinstance(p, (str, Path))]
        if bad or not path:
            raise InvalidOptionError(f"path must be a directory, a file or a non-empty list of files, got {path!r}")
        files = [Path(p) for p in path]
        for f in files:
            if not f.is_file():
                raise LeaderboardError(f"file not found: {str(f)!r}")
        return files
    if not isinstance(path, (str, Path)):
        raise InvalidOptionError(f"path must be a directory, a file or a list of files, got {type(path).__name__}")
    root = Path(path)
    if root.is_dir():
        files = sorted(p for p in root.rglob(pattern) if p.is_file())
        if not files:
            raise LeaderboardError(f"no {what} ({pattern}) below {str(root)!r}")
        return files
    if root.is_file():
        return [root]
    files = sorted(Path(p) for p in globmod.glob(str(path)) if Path(p).is_file())
    if not files:
        raise LeaderboardError(f"no file or directory {str(path)!r}")
    return files


def load_json(path: str | Path) -> Any:
    """One JSON document.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    object
        As :func:`json.load` parses it.

    Raises
    ------
    FormatError
        Not valid JSON (naming the line and column), or not UTF-8.
    LeaderboardError
        The file cannot be opened.
    """
    path = Path(path)
    try:
        with open_text(path) as fh:
            return json_input.load(fh)
    except (json_input.RepeatedKeyError, json_input.JsonDepthError) as exc:
        raise FormatError(path, str(exc), field=getattr(exc, "key", None)) from None
    except json.JSONDecodeError as exc:
        raise FormatError(path, f"not valid JSON (column {exc.colno}): {exc.msg}", line=exc.lineno) from None
    except UnicodeDecodeError as exc:
        raise decode_error(path, 1, exc) from None


def json_lines(path: str | Path) -> Iterator[tuple[int, Any]]:
    """The JSON values of a JSON-lines file, with their 1-based line numbers; blank lines skipped.

    Parameters
    ----------
    path : str or Path

    Yields
    ------
    (int, object)
        Line number and parsed value.

    Raises
    ------
    FormatError
        A line is not valid JSON (naming the line), or the file is not UTF-8.
    InputTooLargeError
        A line is longer than the reading bound (:func:`~consensus.io._opening.bounded_lines`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "s.jsonl")
    >>> _ = open(path, "w").write('{"doc_id": 0}\\n\\n{"doc_id": 1}\\n')
    >>> list(json_lines(path))
    [(1, {'doc_id': 0}), (3, {'doc_id': 1})]
    """
    path = Path(path)
    with open_binary(path) as fh:
        for number, raw in enumerate(bounded_lines(fh, path), start=1):  # a line is refused before it is held whole
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise decode_error(path, number, exc) from None
            if not text.strip():
                continue
            try:
                yield number, json_input.loads(text)
            except (json_input.RepeatedKeyError, json_input.JsonDepthError) as exc:
                raise FormatError(path, str(exc), field=getattr(exc, "key", None), line=number) from None
            except json.JSONDecodeError as exc:
                raise FormatError(path, f"not valid JSON (column {exc.colno}): {exc.msg}", line=number) from None
