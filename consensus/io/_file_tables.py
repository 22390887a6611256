"""Files to raw tables, losslessly: every header, field and number exactly as the file says it.

The leaderboard readers (:func:`consensus.io._readers.read_table`) build their raw frames here,
so that nothing is renamed, shifted or rounded on the way in:

- **CSV/TSV** (:func:`read_delimited`): read with Python's :mod:`csv` module, every cell as
  text. A repeated header is an error naming both column positions (pandas would rename the
  second ``qa.1``); a blank header is an error naming its position, except the first column
  (where ``DataFrame.to_csv`` writes the index) and a column with neither header nor values
  (a trailing delimiter, ignored with a note). A row with more or fewer fields than the
  header is an error naming its 1-based file line (pandas would shift the row, or pad it
  with missing scores). Lines starting with ``#`` above the header, with a different number
  of fields than the header, are comments: skipped with a note. ``.gz`` files are
  decompressed; a gzip file under another name and text that is not UTF-8 are errors.
- **JSON** (:func:`read_json_table`): parsed by Python's :mod:`json`, so numbers are
  read exactly as Python reads them (``0.30``, ``3e-1`` and ``30e-2`` are the same float)
  and keys stay strings (``"007"``, ``"7.0"`` and ``"1e3"`` are names, not numbers). The
  layouts ``DataFrame.to_json`` writes are recognized and the one found is stated in a
  note when it is a guess.

Both return a :class:`RawTable`: the frame, the file line of each row (CSV), and notes.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import InputTooLargeError, InvalidOptionError, LeaderboardError
from ..hints import call, hinted, option
from . import _json_input as json_input
from ._limits import max_table_cells
from ._opening import bounded_lines, compression_suffix, open_binary, open_text

__all__ = [
    "RawTable",
    "read_delimited",
    "read_json_table",
    "JSON_ORIENTS",
    "open_text",
    "open_binary",
    "check_header",
    "decode_error",
    "file_format",
    "existing_file",
    "header_fields",
    "csv_error",
]

#: The ``orient=`` values accepted for a JSON object of objects (as in ``DataFrame.to_json``).
JSON_ORIENTS = ("columns", "index")



@dataclass(frozen=True)
class RawTable:
    """A table exactly as read from a file.

    Attributes
    ----------
    frame : pandas.DataFrame
        The cells (text for CSV/TSV; JSON values as parsed, or a float column when every
        value of a column is a JSON number or null).
    lines : tuple of int or None
        The 1-based file line where each row starts (CSV/TSV), else None.
    notes : tuple of str
        What the reader decided that the file did not say explicitly (a comment line
        skipped, the orientation of a JSON object).
    """

    frame: pd.DataFrame
    lines: tuple[int, ...] | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


def decode_error(path: Path, line: int, exc: UnicodeDecodeError) -> LeaderboardError:
    """The error for text that is not UTF-8, naming the first line that is not.

    Parameters
    ----------
    path : Path
    line : int
        Where the failing block of text began (text is decoded in blocks): used when the
        file cannot be scanned again.
    exc : UnicodeDecodeError

    Returns
    -------
    LeaderboardError
    """
    byte = exc.object[exc.start:exc.start + 1]
    try:
        with open_binary(path) as fh:
            for number, raw in enumerate(fh, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as first:
                    line, byte = number, raw[first.start:first.start + 1]
                    break
    except (OSError, LeaderboardError):
        pass
    return LeaderboardError(
        f"{str(path)!r} is not UTF-8 text (line {line}: byte {byte!r}); "
        "re-save it as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
    )


def csv_error(path: str | Path, line: int, exc: csv.Error) -> LeaderboardError:
    """The error for what the :mod:`csv` module could not parse near `line`, saying what to do.

    Parameters
    ----------
    path : str or Path
    line : int
        Where the record starts.
    exc : csv.Error

    Returns
    -------
    LeaderboardError

    Examples
    --------
    >>> str(csv_error("lb.csv", 7, csv.Error("field larger than field limit (131072)")))
    "cannot parse 'lb.csv' near line 7: a field longer than 131,072 characters (the csv module's limit; no score or name is that long): close a quote left open there, or drop that column before reading (pandas, then Leaderboard.from_frame)"
    """
    if str(exc).startswith("field larger than field limit"):
        return LeaderboardError(
            f"cannot parse {str(path)!r} near line {line}: a field longer than {csv.field_size_limit():,} characters "
            "(the csv module's limit; no score or name is that long): close a quote left open there, or drop that "
            "column before reading (pandas, then Leaderboard.from_frame)")
    return LeaderboardError(f"cannot parse {str(path)!r} near line {line}: {exc}")


def _rows(path: Path, delimiter: str) -> list[tuple[int, list[str]]]:
    """``(first line, fields)`` of every non-blank record."""
    out: list[tuple[int, list[str]]] = []
    line = 1
    cap, cells = max_table_cells(), 0  # a parsed cell costs about 100 bytes: bound them, not the file's bytes
    with open_text(path) as fh:
        reader = csv.reader(bounded_lines(fh, path), delimiter=delimiter, skipinitialspace=True, strict=True)
        try:
            for fields in reader:
                start, line = line, reader.line_num + 1
                if fields and not (len(fields) == 1 and fields[0] == ""):
                    out.append((start, fields))
                cells += max(len(fields), 1)  # a blank line counts as a cell: a billion of them take minutes
                if cells > cap:
                    raise InputTooLargeError(
                        f"{str(path)!r} holds more than {cap:,} cells (a blank line counts as one) by line {start}: "
                        "too large a table to read whole (instance-level scores: --instances reads them in chunks); "
                        "raise the limit with --max-input-size")
        except UnicodeDecodeError as exc:
            raise decode_error(path, line, exc) from None
        except csv.Error as exc:
            raise csv_error(path, line, exc) from None
        except OSError as exc:  # a truncated .gz
            raise LeaderboardError(f"cannot read {str(path)!r}: {exc}") from None
    return out


def _comment_lines(rows: list[tuple[int, list[str]]]) -> int:
    """How many leading records are comments: start with ``#`` and differ in width from the
    first record after them (a header ``#,model,qa`` has the width of its data rows)."""
    k = 0
    while k < len(rows) and rows[k][1][0].lstrip().startswith("#"):
        k += 1
    if k == 0 or k == len(rows):
        return 0
    width = len(rows[k][1])
    return k if all(len(rows[i][1]) != width for i in range(k)) else 0


def check_header(header: list[str], rows: list[tuple[int, list[str]]], path: Path, line: int) -> list[int]:
    """Check a header: no name twice, no blank name except the first column or a column
    with neither header nor values.

    Parameters
    ----------
    header : list of str
    rows : list of (int, list of str)
        The data records (line, fields), to tell an empty unnamed column.
    path : Path
        For the message.
    line : int
        The header's line.

    Returns
    -------
    list of int
        Column positions (0-based) to drop: no header and no values.

    Raises
    ------
    LeaderboardError
        A repeated name (both positions) or a blank name over values (its position).
    """
    seen: dict[str, int] = {}
    repeated = []
    for j, name in enumerate(header):
        if name in seen and name.strip():
            repeated.append(f"{name!r} at columns {seen[name] + 1} and {j + 1}")
        seen.setdefault(name, j)
    if repeated:
        raise LeaderboardError(
            f"{str(path)!r}: the header (line {line}) repeats column name(s): {'; '.join(repeated[:5])}; "
            "rename them so that every task has its own name"
        )
    drop, blank = [], []
    for j, name in enumerate(header):
        if name.strip() or j == 0:
            continue
        if all(j >= len(f) or not f[j].strip() for _, f in rows):
            drop.append(j)
        else:
            blank.append(j + 1)
    if blank:
        raise LeaderboardError(
            f"{str(path)!r}: column(s) {', '.join(map(str, blank))} of the header (line {line}) have no name "
            "but hold values; name them in the header"
        )
    return drop


def read_delimited(path: str | Path, delimiter: str) -> RawTable:
    """A CSV/TSV file as a frame of text cells, checked field by field (see the module docs).

    Parameters
    ----------
    path : str or Path
        The file (``.gz`` is decompressed).
    delimiter : str
        The field delimiter.

    Returns
    -------
    RawTable
        Every cell as text (an empty field is ``""``), a plain row-number index, the file
        line of each row, and a note per skipped comment or ignored empty column.

    Raises
    ------
    LeaderboardError
        Empty file, no data rows, a repeated or blank header, a row with more or fewer
        fields than the header (naming its line), text that is not UTF-8, a gzip file not
        named ``.gz``, or a malformed quote.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.csv")
    >>> _ = open(path, "w").write("model,qa,qa\\na,1,2\\n")
    >>> read_delimited(path, ",")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    consensus.errors.LeaderboardError: '...lb.csv': the header (line 1) repeats column name(s): 'qa' at columns 2 and 3; rename them so that every task has its own name
    """
    path = Path(path)
    shown = str(path)
    rows = _rows(path, delimiter)
    if not rows:
        raise LeaderboardError(f"file {shown!r} is empty")
    notes = []
    skip = _comment_lines(rows)
    if skip:
        lines = ", ".join(str(rows[i][0]) for i in range(skip))
        notes.append(
            f"skipped {skip} comment line(s) above the header of {shown!r} (line(s) {lines}, starting with '#')"
        )
        rows = rows[skip:]
    (header_line, header), data = rows[0], rows[1:]
    width = len(header)
    bad = [(line, len(f)) for line, f in data if len(f) != width]
    if bad:
        shown_bad = "; ".join(f"line {line} has {n}" for line, n in bad[:5])
        more = f" (and {len(bad) - 5} more rows)" if len(bad) > 5 else ""
        raise LeaderboardError(
            f"{shown!r}: the header (line {header_line}) has {width} fields but {shown_bad}{more}; "
            "quote fields that contain the delimiter, or fix the row"
        )
    drop = check_header(header, data, Path(shown), header_line)
    if drop:
        notes.append(
            f"ignored column(s) {', '.join(str(j + 1) for j in drop)} of {shown!r}: no header and no values "
            "(a trailing delimiter)"
        )
    keep = [j for j in range(width) if j not in set(drop)]
    columns = [header[j] for j in keep]
    frame = pd.DataFrame([[f[j] for j in keep] for _, f in data], columns=pd.Index(columns, dtype=object), dtype=object)
    if frame.shape[0] == 0:
        frame = pd.DataFrame({c: pd.Series([], dtype=object) for c in columns})
    return RawTable(frame, tuple(line for line, _ in data), tuple(notes))


_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet", ".json": "json"}


def file_format(path: Path, format: str | None) -> str:
    """``"csv"``, ``"tsv"``, ``"parquet"`` or ``"json"``: `format`, or what the extension says
    (``.csv``, ``.txt``, ``.tsv``, ``.parquet``, ``.pq``, ``.json``; ``.csv.gz``, ``.csv.bz2``,
    ``.csv.xz``, ``.csv.zst``, ``.csv.zip`` and the like for the text formats).

    Parameters
    ----------
    path : Path
    format : str, optional

    Returns
    -------
    str

    Raises
    ------
    LeaderboardError
        An unknown `format` or extension.

    Examples
    --------
    >>> file_format(Path("lb.csv.gz"), None), file_format(Path("x.dat"), "tsv")
    ('csv', 'tsv')
    """
    if format is not None:
        if not isinstance(format, str) or format not in {"csv", "tsv", "parquet", "json"}:
            raise LeaderboardError(f"unknown file format {format!r}; use csv, tsv, parquet or json")
        return format
    packed = compression_suffix(path.name)
    suffix = Path(path.name[: len(path.name) - len(packed)]).suffix.lower()
    fmt = _FORMATS.get(suffix)
    if fmt == "parquet" and packed:  # Parquet compresses inside the file
        fmt = None
    if fmt is None:
        raise LeaderboardError(
            f"cannot tell the format of {str(path)!r} from its extension; pass "
            + call("format='csv'|'tsv'|'parquet'|'json'", "--input-format csv|tsv|parquet|json")
        )
    return fmt


def existing_file(path: str | Path, sep: object = None) -> Path:
    """`path` as a Path, checked to be an existing file.

    Parameters
    ----------
    path : str or os.PathLike
    sep : str, optional
        A delimiter to check too: one character.

    Returns
    -------
    Path

    Raises
    ------
    InvalidOptionError
        `path` is not a path, or `sep` not one character.
    LeaderboardError
        The file does not exist, is a directory, or is not a regular file (a FIFO, a
        device such as ``/dev/zero`` or ``/dev/stdin``, a socket).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidOptionError(f"path must be a file path (str or pathlib.Path), got {type(path).__name__}")
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1):
        raise InvalidOptionError(f"sep must be one character such as ',' or '\\t', got {sep!r}")
    path = Path(path)
    if not path.exists():
        raise LeaderboardError(f"file not found: {str(path)!r}")
    if path.is_dir():  # another tool's output folder: its importer named
        from ._tool_output import tool_hint

        hint = tool_hint(path) or "; another tool's output folder is read with " + call(
            "cs.read_format(FOLDER, KIND)", "--from TOOL")
        raise LeaderboardError(f"{str(path)!r} is a directory, not a file" + hint)
    if not path.is_file():  # a FIFO, a device (/dev/zero, /dev/stdin), a socket: no size, maybe no end
        import stat

        mode = path.stat().st_mode
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a character device" if stat.S_ISCHR(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise LeaderboardError(f"{str(path)!r} is {kind}, not a regular file: save the scores to a file and pass "
                               "its path")
    return path


# ---------------------------------------------------------------------------------- JSON


def _column(values: Sequence[Any]) -> pd.Series:
    """Values of one column: float64 when all are JSON numbers or null, else objects as parsed."""
    if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values):
        return pd.Series([math.nan if v is None else float(v) for v in values], dtype="float64")
    return pd.Series(list(values), dtype=object)


def _frame(columns: Sequence[str], cells: dict[str, list[Any]], index: Sequence[str] | None) -> pd.DataFrame:
    data = {c: _column(cells[c]) for c in columns}
    frame = pd.DataFrame(data, columns=pd.Index(list(columns), dtype=object))
    if index is not None:
        frame.index = pd.Index([str(s) for s in index], dtype=object)
    return frame


def _records(items: list[Any], path: str) -> pd.DataFrame:
    columns: dict[str, None] = {}
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise LeaderboardError(
                f"{path!r}: item {k + 1} of the JSON list is {type(item).__name__}, not an object; a list must "
                "hold one object per system (DataFrame.to_json(orient='records'))"
            )
        columns.update(dict.fromkeys(item))
    cells = {c: [item.get(c) for item in items] for c in columns}
    return _frame(list(columns), cells, None)


def _nested(data: dict[str, Any], orient: str | None, path: str) -> tuple[pd.DataFrame, str | None]:
    """An object of objects: outer keys are tasks (``columns``, pandas' default) or systems."""
    outer = list(data)
    inner: dict[str, None] = {}
    for value in data.values():
        inner.update(dict.fromkeys(value))
    note = None
    if orient is None:
        orient = "columns"
        note = (
            f"read {path!r} as {{task: {{system: score}}}} ({len(outer)} tasks, {len(inner)} systems; the layout "
            "DataFrame.to_json() writes)"
        )
        if len(outer) > len(inner):
            note += hinted("; it has more outer keys than inner keys: if its outer keys are systems, pass {}",
                           option("orient", "index"))
        else:
            note += hinted("; pass {} if its outer keys are systems", option("orient", "index"))
    if orient == "columns":
        cells = {t: [data[t].get(s) for s in inner] for t in outer}
        return _frame(outer, cells, list(inner)), note
    cells = {t: [data[s].get(t) for s in outer] for t in inner}
    return _frame(list(inner), cells, outer), note


def read_json_table(path: str | Path, orient: str | None = None) -> RawTable:
    """A JSON leaderboard as a frame, numbers and names exactly as written.

    Recognized layouts (those of ``DataFrame.to_json``):

    - ``[{"model": "a", "qa": 0.7}, ...]`` (``orient="records"``): one object per system;
    - ``{"qa": {"a": 0.7, ...}, ...}`` (the default ``orient="columns"``): outer keys are
      tasks, inner keys systems. ``orient="index"`` reads the outer keys as systems. When
      `orient` is not given the default is taken and a note states it (an object of objects
      does not say which way round it is);
    - ``{"columns": [...], "index": [...], "data": [[...]]}`` (``orient="split"``);
    - ``{"schema": ..., "data": [...]}`` (``orient="table"``): records, with the schema's
      primary key as the system names;
    - ``{"model": ["a", "b"], "qa": [0.7, 0.6]}``: one list per column.

    Parameters
    ----------
    path : str or Path
    orient : {"columns", "index"}, optional
        Which way round an object of objects is; ignored for the other layouts.

    Returns
    -------
    RawTable
        A column whose values are all JSON numbers or null is float64 (null is NaN); any
        other column keeps the parsed values (strings, booleans, numbers) for the
        leaderboard's checks. Names (keys) are strings as written.

    Raises
    ------
    LeaderboardError
        Not valid JSON (naming line and column), not UTF-8, or not one of the layouts.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.json")
    >>> _ = open(path, "w").write('{"qa": {"007": 0.30, "1e3": 3e-1}}')
    >>> table = read_json_table(path)
    >>> table.frame.to_dict()
    {'qa': {'007': 0.3, '1e3': 0.3}}
    """
    path = Path(path)
    shown = str(path)
    if orient is not None and orient not in JSON_ORIENTS:
        raise LeaderboardError(f"orient must be one of {', '.join(map(repr, JSON_ORIENTS))}, got {orient!r}")
    try:
        with open_text(path) as fh:
            data = json_input.load(fh, repr(shown))
    except UnicodeDecodeError as exc:
        raise decode_error(path, 1, exc) from None
    except json.JSONDecodeError as exc:
        raise LeaderboardError(f"cannot read {shown!r} as json: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    from ._tool_output import tool_hint

    hint = tool_hint(path, data)
    if hint:  # another tool's file (a HELM group table, lm-evaluation-harness results): its importer reads it
        raise LeaderboardError(f"{shown!r} is not a score table" + hint)
    if isinstance(data, list):
        if not data:
            raise LeaderboardError(f"{shown!r} holds an empty JSON list")
        if all(isinstance(item, list) for item in data):
            raise LeaderboardError(
                f"{shown!r} is a JSON list of lists (DataFrame.to_json(orient='values')): it has no task or system "
                "names; write it with orient='records' or the default orient"
            )
        return RawTable(_records(data, shown))
    if not isinstance(data, dict) or not data:
        raise LeaderboardError(
            f"{shown!r} holds a JSON {type(data).__name__ if data else 'empty object'}; expected a leaderboard "
            "as DataFrame.to_json() writes it"
        )
    if set(data) == {"columns", "index", "data"} and isinstance(data["data"], list):
        columns = [str(c) for c in data["columns"]]
        rows = data["data"]
        if any(not isinstance(r, list) or len(r) != len(columns) for r in rows) or len(rows) != len(data["index"]):
            raise LeaderboardError(f"{shown!r}: a 'split' JSON table whose data rows do not match its columns and index")
        cells = {c: [r[j] for r in rows] for j, c in enumerate(columns)}
        return RawTable(_frame(columns, cells, data["index"]))
    if set(data) == {"schema", "data"} and isinstance(data["data"], list):
        frame = _records(data["data"], shown)
        key = data["schema"].get("primaryKey") if isinstance(data["schema"], dict) else None
        if isinstance(key, list) and len(key) == 1 and key[0] in frame.columns:
            frame = frame.set_index(key[0])
            frame.index = pd.Index([str(s) for s in frame.index], dtype=object)
            frame.index.name = None
        return RawTable(frame)
    values = list(data.values())
    if all(isinstance(v, dict) for v in values):
        frame, note = _nested(data, orient, shown)
        return RawTable(frame, None, (note,) if note else ())
    if all(isinstance(v, list) for v in values):
        lengths = {len(v) for v in values}
        if len(lengths) != 1:
            raise LeaderboardError(f"{shown!r}: a JSON object of lists whose lists differ in length ({sorted(lengths)})")
        return RawTable(_frame(list(data), {k: list(v) for k, v in data.items()}, None))
    raise LeaderboardError(
        f"{shown!r}: a JSON object must map every key to an object (task -> {{system: score}}) or to a list; "
        f"key {next(k for k, v in data.items() if not isinstance(v, (dict, list)))!r} maps to a single value"
    )


def header_fields(path: str | Path, delimiter: str) -> tuple[list[str], int]:
    """The header of a delimited file (its first non-blank record) and its line.

    Parameters
    ----------
    path : str or Path
    delimiter : str

    Returns
    -------
    (list of str, int)

    Raises
    ------
    LeaderboardError
        Empty file, not UTF-8, a repeated or blank column name (naming the positions).
    """
    path = Path(path)
    with open_text(path) as fh:
        reader = csv.reader(bounded_lines(fh, path), delimiter=delimiter, strict=True)
        try:
            for fields in reader:
                if fields and fields != [""]:
                    check_header(fields, [], path, reader.line_num)
                    return fields, reader.line_num
        except UnicodeDecodeError as exc:
            raise decode_error(path, reader.line_num + 1, exc) from None
        except csv.Error as exc:
            raise csv_error(path, reader.line_num, exc) from None
    raise LeaderboardError(f"file {str(path)!r} is empty")
