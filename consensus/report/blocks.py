"""The building blocks of every report: headings, lines and tables, and their three renderings.

A report is a list of blocks (:class:`Heading`, :class:`Lines`, :class:`Table`); this module
turns such a list into aligned plain text or markdown, and formats the numbers in it.
:mod:`consensus.report.sections` decides which blocks each result shows.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "Heading",
    "Lines",
    "Table",
    "Block",
    "lines",
    "num",
    "score",
    "cell",
    "format_ranking",
    "render_text",
    "render_markdown",
    "render_csv",
    "frame_csv",
    "csv_value",
]


@dataclass(frozen=True)
class Heading:
    """A section title; level 1 is the report's title.

    Attributes
    ----------
    text : str
        The title.
    level : int, default=2
        1: underlined with ``=`` in text, ``#`` in markdown; otherwise underlined with
        ``-`` in text and ``level`` hashes in markdown.
    """

    text: str
    level: int = 2


@dataclass(frozen=True)
class Lines:
    """Free text, one entry per line (a bullet list in markdown).

    Attributes
    ----------
    lines : tuple of str
        The lines; an empty line stays empty in markdown (no bullet).
    """

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A table of strings; `align` has one ``"l"`` or ``"r"`` per column (default: first left).

    Attributes
    ----------
    headers : tuple of str
        Column headers.
    rows : tuple of tuple of str
        Cells already formatted (see :func:`num`, :func:`cell`), one tuple per row.
    align : str, default=""
        ``"l"`` (left) or ``"r"`` (right) per column; empty means the first column left
        and the others right.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""


Block = Heading | Lines | Table


def lines(*text: str) -> Lines:
    """A :class:`Lines` block from its lines.

    Parameters
    ----------
    *text : str
        The lines, in order.

    Returns
    -------
    Lines

    Examples
    --------
    >>> lines("first", "second")
    Lines(lines=('first', 'second'))
    """
    return Lines(tuple(text))


def num(value: Any, digits: int = 3) -> str:
    """A number for display: ``-`` for missing, integers without decimals, else `digits` decimals.

    Parameters
    ----------
    value : Any
        A number, bool, string, None or ``pd.NA``.
    digits : int, default=3
        Decimals kept (trailing zeros dropped; tiny values keep `digits` significant digits).

    Returns
    -------
    str

    Examples
    --------
    >>> num(2.0), num(0.12345), num(float("nan")), num(True), num(1.2e-5)
    ('2', '0.123', '-', 'yes', '1.2e-05')
    """
    if value is None or value is pd.NA:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, str):
        return value
    v = float(value)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    if text in {"0", "-0"}:
        return f"{v:.{digits}g}"
    return text


def score(value: Any) -> str:
    """An original score: up to 6 significant digits, ``-`` for missing.

    Integral values print without decimals (below 1e15 in magnitude).

    Parameters
    ----------
    value : float, int or None
        A score as read; None or a float NaN is missing.

    Returns
    -------
    str

    Examples
    --------
    >>> score(0.123456789), score(3.0), score(float("nan"))
    ('0.123457', '3', '-')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    v = float(value)
    return str(int(v)) if v == int(v) and abs(v) < 1e15 else f"{v:.6g}"


def cell(value: Any) -> str:
    """A table cell: sequences joined by commas, mappings as ``k=v``, numbers by :func:`num`.

    Parameters
    ----------
    value : Any
        A tuple, list or set (items joined with ``", "`` by ``str``), a mapping (``k=v``
        pairs, values by :func:`num`), or anything :func:`num` formats.

    Returns
    -------
    str

    Examples
    --------
    >>> cell(("a", "b")), cell({"x": 0.5, "y": 2.0}), cell(None)
    ('a, b', 'x=0.5, y=2', '-')
    """
    if isinstance(value, (tuple, list, frozenset, set)):
        return ", ".join(map(str, value))
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={num(v)}" for k, v in value.items())
    return num(value)


def format_ranking(tiers: Sequence[Sequence[str]]) -> str:
    """Tie groups as text: ``"B > A = C"``.

    Parameters
    ----------
    tiers : sequence of sequence of str
        Tie groups, best first.

    Returns
    -------
    str
        Groups joined by ``" > "``, systems inside a group by ``" = "``.

    Examples
    --------
    >>> format_ranking([("B",), ("A", "C")])
    'B > A = C'
    """
    return " > ".join(" = ".join(group) for group in tiers)


def render_text(blocks: Sequence[Block]) -> str:
    """Aligned plain text: underlined headings, lines as they are, space-aligned tables.

    Headings after the first block are preceded by an empty line; a table gets a header
    row, a dashed rule and its rows, columns separated by two spaces.

    Parameters
    ----------
    blocks : sequence of Heading, Lines and Table
        The report, in order.

    Returns
    -------
    str
        Ends with a newline.

    Examples
    --------
    >>> blocks = [Heading("Scores"), lines("two systems"), Table(("system", "score"), (("a", "0.5"), ("bb", "12")))]
    >>> print(render_text(blocks), end="")
    Scores
    ------
    two systems
    system  score
    ------  -----
    a         0.5
    bb         12
    """
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            if out:
                out.append("")
            out.append(block.text)
            out.append(("=" if block.level == 1 else "-") * len(block.text))
        elif isinstance(block, Lines):
            out.extend(block.lines)
        elif isinstance(block, Table):
            out.extend(_text_table(block))
    return "\n".join(out) + "\n"


def _text_table(table: Table) -> list[str]:
    cols = len(table.headers)
    align = table.align or ("l" + "r" * (cols - 1))
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        for j, text in enumerate(row):
            widths[j] = max(widths[j], len(text))

    def line(cells: Sequence[str]) -> str:
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)]
        return "  ".join(parts).rstrip()

    return [line(table.headers), "  ".join("-" * w for w in widths)] + [line(r) for r in table.rows]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def render_markdown(blocks: Sequence[Block]) -> str:
    """Markdown: ``#`` headings, bullet lists, pipe tables.

    Parameters
    ----------
    blocks : sequence of Heading, Lines and Table
        The report, in order.

    Returns
    -------
    str
        Blocks separated by empty lines; ``|`` inside a cell is escaped. Ends with a
        newline.

    Examples
    --------
    >>> blocks = [Heading("Scores"), lines("two systems"), Table(("system", "score"), (("a", "0.5"),))]
    >>> print(render_markdown(blocks), end="")
    ## Scores
    <BLANKLINE>
    - two systems
    <BLANKLINE>
    | system | score |
    |:---|---:|
    | a | 0.5 |
    """
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            if out and out[-1] != "":
                out.append("")
            out.append("#" * block.level + " " + block.text)
            out.append("")
        elif isinstance(block, Lines):
            out.extend(f"- {line}" if line else "" for line in block.lines)
            out.append("")
        elif isinstance(block, Table):
            align = block.align or ("l" + "r" * (len(block.headers) - 1))
            out.append("| " + " | ".join(_md_cell(h) for h in block.headers) + " |")
            out.append("|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|")
            for row in block.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append("")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def render_csv(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text with a header row (None becomes an empty cell).

    Parameters
    ----------
    headers : sequence of str
        The header row.
    rows : iterable of sequence
        One sequence of cells per row, written as :mod:`csv` writes them (quoted when
        needed); format floats first with :func:`csv_value` to make them round-trip.

    Returns
    -------
    str
        The header row, then the rows; each row ends with a newline.

    Examples
    --------
    >>> print(render_csv(("a", "b"), [(1, None), ("x,y", 2.5)]), end="")
    a,b
    1,
    "x,y",2.5
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue()


def frame_csv(frame: pd.DataFrame, index_name: str) -> str:
    """A frame as CSV, its index as the first column named `index_name`.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its cells go through :func:`csv_value` (index labels are written as they
        are).
    index_name : str
        Header of the index column.

    Returns
    -------
    str
        See :func:`render_csv`.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"score": [0.5, float("nan")], "ok": [True, False]}, index=["a", "b"])
    >>> print(frame_csv(frame, "system"), end="")
    system,score,ok
    a,0.5,true
    b,,false
    """
    rows = [[key] + [csv_value(v) for v in row.tolist()] for key, row in frame.iterrows()]
    return render_csv([index_name] + [str(c) for c in frame.columns], rows)


def csv_value(value: Any) -> Any:
    """One CSV cell: floats round-trip (``repr``), missing is empty, booleans ``true``/``false``.

    Parameters
    ----------
    value : Any
        A cell value.

    Returns
    -------
    str or Any
        ``""`` for None, ``pd.NA`` and NaN; ``repr`` of a float (``-0.0`` as ``0.0``);
        ``"true"``/``"false"``; a tuple or list joined by spaces; anything else unchanged.

    Examples
    --------
    >>> csv_value(0.1), csv_value(float("nan")), csv_value(True), csv_value(("a", "b"))
    ('0.1', '', 'true', 'a b')
    """
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return ""
        return repr(v + 0.0)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return " ".join(map(str, value))
    return value
