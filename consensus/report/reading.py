"""How a file is read, on its own: what ``consensus inspect FILE`` prints (text or JSON)."""

from __future__ import annotations

from typing import Any

from ..board._leaderboard import Leaderboard
from ..io._columns import fit_names

__all__ = ["inspect_lines", "inspect_document"]


def inspect_lines(lb: Leaderboard, source: str = "", *, cli: bool = False, top: int | None = 20) -> list[str]:
    """The reading of `lb` as text: size, every column's role, directions, standard errors, notes.

    Parameters
    ----------
    lb : Leaderboard
    source : str, default ""
        The file, for the first line.
    cli : bool, default False
        Name command-line flags instead of API options.
    top : int or None, default 20
        At most this many decisions and names per list (None or 0: all).

    Returns
    -------
    list of str

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"Avg": [2.0, 1.5, 1.0], "qa": [3.0, 2.0, 1.0], "nli": [1.0, 1.0, 1.0]},
    ...                      index=["a", "b", "c"])
    >>> import warnings; warnings.simplefilter("ignore")
    >>> print("\\n".join(inspect_lines(Leaderboard.from_frame(frame), "lb.csv")))
    lb.csv: 3 systems x 2 tasks
    read 3 columns: 2 tasks, 1 excluded
      Avg: excluded, aggregate: named like an aggregate (keep it: keep_columns=['Avg'])
    tasks: qa, nli
    lower is better: none
    missing scores: none
    """
    limit = top or None
    reading = lb.reading
    head = f"{source}: " if source else ""
    out = [f"{head}{lb.n_systems} systems x {lb.n_tasks} tasks"]
    out += reading.lines(cli=cli, limit=limit)
    out.append("tasks: " + _listed(lb.tasks, limit))
    lower = [t for t in lb.tasks if t in lb.lower_is_better]
    out.append("lower is better: " + (_listed(lower, limit) if lower else "none"))
    stderr = lb.stderr
    if stderr is not None:
        where = f" (from {reading.stderr_source})" if reading.stderr_source else " (from their columns)"
        out.append("standard errors for: " + _listed(list(stderr.columns), limit) + where)
    cells = lb.missing_cells()
    out.append(f"missing scores: {len(cells)} of {lb.n_systems * lb.n_tasks} cells" if cells else "missing scores: none")
    notes = [n for n in lb.notes if not n.startswith("excluded column(s), not tasks")]
    if cli:
        from ..hints import cli_of

        notes = [cli_of(n) for n in notes]
    out += ["note: " + n for n in notes]
    return out


def _listed(names: Any, limit: int | None) -> str:
    names = list(names)
    if limit is None:
        return ", ".join(names)
    return fit_names(names[:limit], 170) + (f" (of {len(names)})" if len(names) > limit else "")


def inspect_document(lb: Leaderboard, source: str = "") -> dict[str, Any]:
    """The reading of `lb` as JSON values: ``source``, ``systems``, ``tasks``, ``lower_is_better``,
    ``reading`` (:meth:`~consensus.io._columns.ReadingSummary.to_dict`), ``missing_cells`` and ``notes``.

    Parameters
    ----------
    lb : Leaderboard
    source : str, default ""

    Returns
    -------
    dict
    """
    return {
        "command": "inspect",
        "source": source,
        "systems": list(lb.systems),
        "tasks": list(lb.tasks),
        "lower_is_better": [t for t in lb.tasks if t in lb.lower_is_better],
        "reading": lb.reading.to_dict(),
        "missing_cells": len(lb.missing_cells()),
        "notes": list(lb.notes),
    }
