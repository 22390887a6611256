"""CSV output: the main table of a result as CSV text that round-trips its numbers and that a
spreadsheet opens without running anything (formula injection escaped)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["render_csv", "frame_csv", "csv_value", "spreadsheet_safe"]


def render_csv(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text with a header row (None becomes an empty cell; text that a spreadsheet
    would run as a formula is escaped by :func:`spreadsheet_safe`).

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
    writer.writerow([spreadsheet_safe(h) for h in headers])
    for row in rows:
        writer.writerow(["" if v is None else spreadsheet_safe(v) for v in row])
    return buffer.getvalue()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """`value` made safe to open in a spreadsheet: text starting with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return gets a leading apostrophe, so that a system named
    ``=HYPERLINK(...)`` is shown, not run (formula injection). Numbers, and text that is a
    number (``-0.5``, ``-inf``), are unchanged.

    Parameters
    ----------
    value : Any
        One CSV cell.

    Returns
    -------
    Any
        `value`, or ``"'" + value`` for risky text.

    Examples
    --------
    >>> spreadsheet_safe("=1+2"), spreadsheet_safe("-0.5"), spreadsheet_safe("@user"), spreadsheet_safe(-1.5)
    ("'=1+2", '-0.5', "'@user", -1.5)
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


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
