"""The building blocks of every report: headings, lines and tables, and their three renderings.

A report is a list of blocks (:class:`Heading`, :class:`Lines`, :class:`Table`); this module
turns such a list into aligned plain text or markdown, and formats the numbers in it (CSV
output is in :mod:`consensus.report.csv_output`).
:mod:`consensus.report.sections` decides which blocks each result shows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..hints import cli_of
from ..results.base import one_line

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
    "fit_table",
    "MAX_WIDTH",
    "MAX_CELL",
    "one_line",
    "md_escape",
    "DEFAULT_TOP",
    "capped",
    "clip",
    "more_line",
    "name_list",
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

#: Rows of each table in a report by default (``top=``, ``--top``); 0 or None shows every row.
DEFAULT_TOP = 10

#: The longest line of a text or markdown report: longer text wraps onto indented lines, wider
#: tables are split into several (the first column repeated). JSON and CSV keep everything whole.
MAX_WIDTH = 200

#: The widest table cell of a text or markdown report; a longer name is shortened with an ellipsis.
MAX_CELL = 40


def fit_table(table: Table, width: int = MAX_WIDTH, cell_width: int = MAX_CELL) -> list[Table]:
    """`table` as tables at most `width` characters wide (as :func:`render_text` lays them out).

    Cells longer than `cell_width` are shortened with an ellipsis (``…``); when the columns do
    not fit, they are split into consecutive groups, each with the first column repeated.

    Parameters
    ----------
    table : Table
    width : int, default :data:`MAX_WIDTH`
    cell_width : int, default :data:`MAX_CELL`

    Returns
    -------
    list of Table
        `table` itself (in a list) when it already fits.

    Examples
    --------
    >>> wide = Table(("system",) + tuple(f"task{k:02d}" for k in range(30)), (("a",) + ("0.5",) * 30,))
    >>> [len(t.headers) for t in fit_table(wide, 100)]
    [12, 12, 9]
    """
    def short(text: str) -> str:
        text = one_line(text)
        return text if len(text) <= cell_width else text[: cell_width - 1] + "…"

    headers = tuple(short(h) for h in table.headers)
    rows = tuple(tuple(short(c) for c in row) for row in table.rows)
    widths = [len(h) for h in headers]
    for row in rows:
        for j, text in enumerate(row):
            widths[j] = max(widths[j], len(text))
    if sum(widths) + 2 * (len(widths) - 1) <= width:
        return [Table(headers, rows, table.align)]
    align = table.align or ("l" + "r" * (len(headers) - 1))
    groups: list[list[int]] = []
    used = widths[0]
    for j in range(1, len(headers)):
        if not groups or used + 2 + widths[j] > width:
            groups.append([])
            used = widths[0]
        groups[-1].append(j)
        used += 2 + widths[j]
    return [
        Table(tuple(headers[j] for j in [0, *g]), tuple(tuple(r[j] for j in [0, *g]) for r in rows),
              "".join(align[j] for j in [0, *g]))
        for g in groups
    ]


def _wrapped(line: str, width: int) -> list[str]:
    """One report line, wrapped at `width` with continuation lines indented by two spaces."""
    import textwrap

    text = one_line(line)
    if len(text) <= width:
        return [text]
    indent = " " * (len(text) - len(text.lstrip(" ")))
    return textwrap.wrap(text, width, subsequent_indent=indent + "  ", break_long_words=True, break_on_hyphens=False)


def capped(items: Sequence[Any], top: int | None) -> tuple[list[Any], int]:
    """The first `top` items and how many were left out (`top` 0 or None: every item).

    Parameters
    ----------
    items : sequence
        Rows, names, edges, ...
    top : int or None
        How many to keep; 0 or None keeps all.

    Returns
    -------
    (list, int)
        The kept items and the number left out.

    Examples
    --------
    >>> capped(["a", "b", "c"], 2), capped(["a", "b", "c"], 0)
    ((['a', 'b'], 1), (['a', 'b', 'c'], 0))
    """
    items = list(items)
    if not top or len(items) <= top:
        return items, 0
    return items[:top], len(items) - top


def more_line(n_more: int, what: str = "") -> list[Block]:
    """The line under a capped table: ``[Lines(("... and 90 more",))]``, ``[]`` when nothing was cut.

    Parameters
    ----------
    n_more : int
        Rows left out.
    what : str, default=""
        What the rows are (``"systems"``), appended after ``more``.

    Returns
    -------
    list of Lines
        Add it to a list of blocks (``blocks += more_line(...)``).

    Examples
    --------
    >>> more_line(90, "systems"), more_line(0)
    ([Lines(lines=('... and 90 more systems',))], [])
    """
    if n_more <= 0:
        return []
    return [Lines((f"... and {n_more} more" + (f" {what}" if what else ""),))]


def name_list(names: Sequence[str], top: int | None, sep: str = ", ") -> str:
    """Names joined by `sep`, at most `top` of them, then ``... and N more``.

    Parameters
    ----------
    names : sequence of str
        The names.
    top : int or None
        How many to show; 0 or None shows all.
    sep : str, default=", "
        The separator.

    Returns
    -------
    str

    Examples
    --------
    >>> name_list(["a", "b", "c", "d"], 2)
    'a, b ... and 2 more'
    """
    kept, more = capped(names, top)
    return sep.join(kept) + (f" ... and {more} more" if more else "")


def clip(text: str, width: int = 60) -> str:
    """`text` cut to `width` characters, ending with ``...`` when cut.

    Parameters
    ----------
    text : str
        A long cell (task weights, a rival mix).
    width : int, default=60
        The longest result.

    Returns
    -------
    str

    Examples
    --------
    >>> clip("t1=0.5, t2=0.25, t3=0.25", 12)
    't1=0.5, t...'
    """
    return text if len(text) <= width else text[: width - 3] + "..."


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


def cli_blocks(blocks: Sequence[Block]) -> list[Block]:
    """`blocks` in the command line's wording: each line and cell that names an option as its flag.

    Parameters
    ----------
    blocks : sequence of Block

    Returns
    -------
    list of Block
        Lines and table cells made with :mod:`consensus.hints` (``min_coverage=0``) in their
        command-line wording (``--min-coverage 0``); other text as it is.

    Examples
    --------
    >>> from consensus.hints import hinted, option
    >>> cli_blocks([lines(hinted("{} ranks them", option("min_coverage", 0)))])
    [Lines(lines=('--min-coverage 0 ranks them',))]
    """
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Lines):
            out.append(Lines(tuple(cli_of(line) for line in block.lines)))
        elif isinstance(block, Table):
            rows = tuple(tuple(cli_of(c) for c in row) for row in block.rows)
            out.append(Table(block.headers, rows, block.align))
        else:
            out.append(block)
    return out


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


def format_ranking(tiers: Sequence[Sequence[str]], top: int | None = None) -> str:
    """Tie groups as text: ``"B > A = C"``, the first `top` systems only when `top` is given.

    Parameters
    ----------
    tiers : sequence of sequence of str
        Tie groups, best first.
    top : int, optional
        Show at most this many systems, then ``... (N more)``; None or 0 shows all.

    Returns
    -------
    str
        Groups joined by ``" > "``, systems inside a group by ``" = "``.

    Examples
    --------
    >>> format_ranking([("B",), ("A", "C")])
    'B > A = C'
    >>> format_ranking([("B",), ("A", "C"), ("D",)], top=2)
    'B > A = ... (2 more)'
    """
    total = sum(len(group) for group in tiers)
    if not top or total <= top:
        return " > ".join(" = ".join(group) for group in tiers)
    parts: list[str] = []
    shown = 0
    for group in tiers:
        kept = list(group)[: top - shown]
        shown += len(kept)
        cut = len(kept) < len(group)
        parts.append(" = ".join(kept + (["..."] if cut else [])))
        if shown >= top:
            if not cut:
                parts.append("...")
            break
    return " > ".join(parts) + f" ({total - shown} more)"


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
            text = one_line(block.text)
            out.append(text)
            out.append(("=" if block.level == 1 else "-") * len(text))
        elif isinstance(block, Lines):
            out.extend(part for line in block.lines for part in _wrapped(line, MAX_WIDTH))
        elif isinstance(block, Table):
            for k, part in enumerate(fit_table(block)):
                out.extend(([""] if k else []) + _text_table(part))
    return "\n".join(out) + "\n"


def _text_table(table: Table) -> list[str]:
    cols = len(table.headers)
    align = table.align or ("l" + "r" * (cols - 1))
    headers = [one_line(h) for h in table.headers]
    rows = [[one_line(c) for c in row] for row in table.rows]
    widths = [len(h) for h in headers]
    for row in rows:
        for j, text in enumerate(row):
            widths[j] = max(widths[j], len(text))

    def line(cells: Sequence[str]) -> str:
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)]
        return "  ".join(parts).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


#: What markdown would read as formatting inside a line or a table cell.
_MD_SPECIALS = re.compile(r"([\\`*_\[\]<|])")


def md_escape(text: str) -> str:
    """`text` for markdown: on one line (:func:`one_line`), with ``\\ ` * _ [ ] < |`` escaped.

    A leading ``#`` or ``>`` is escaped too (a heading or a quote inside a list item); ``>``
    elsewhere is plain text (``B > A`` stays readable).

    Parameters
    ----------
    text : str
        A heading, a line or a cell.

    Returns
    -------
    str

    Examples
    --------
    >>> print(md_escape("a|b *c* <d>"))
    a\\|b \\*c\\* \\<d>
    """
    text = _MD_SPECIALS.sub(r"\\\1", one_line(text))
    return "\\" + text if text.startswith(("#", ">")) else text


def _md_cell(text: str) -> str:
    return _MD_SPECIALS.sub(r"\\\1", one_line(text)) or " "  # a leading # or > is plain text in a cell


def render_markdown(blocks: Sequence[Block]) -> str:
    """Markdown: ``#`` headings, bullet lists, pipe tables.

    Parameters
    ----------
    blocks : sequence of Heading, Lines and Table
        The report, in order.

    Returns
    -------
    str
        Blocks separated by empty lines; every text on one line, with the characters
        markdown would read as formatting escaped (:func:`md_escape`). Ends with a newline.

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
            out.append("#" * block.level + " " + md_escape(block.text))
            out.append("")
        elif isinstance(block, Lines):
            for line in block.lines:
                if not line:
                    out.append("")
                    continue
                parts = _wrapped(md_escape(line), MAX_WIDTH - 2)
                out.extend([f"- {parts[0]}"] + [f"  {p.lstrip()}" for p in parts[1:]])
            out.append("")
        elif isinstance(block, Table):
            for part in fit_table(block, MAX_WIDTH - 40):  # pipes and escapes take room in markdown
                align = part.align or ("l" + "r" * (len(part.headers) - 1))
                out.append("| " + " | ".join(_md_cell(h) for h in part.headers) + " |")
                out.append("|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|")
                for row in part.rows:
                    out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
                out.append("")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
