"""Rank ranges under missing scores, from :func:`consensus.missing.rank_ranges`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._docstrings import fill_doc
from ._base import (
    PLOT_DOCS,
    WINNER_COLOR,
    cell_inches,
    label_font,
    longest,
    new_axes,
    short,
    text_inches,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..results import RankRanges

__all__ = ["plot_rank_ranges"]

#: Colour of a range that is not proven (an integer program stopped at its time limit).
OPEN_COLOR = "#c44e52"


@fill_doc(PLOT_DOCS)
def plot_rank_ranges(result: RankRanges, *, ax: Axes | None = None) -> Figure:
    """Each system's range of positions over every completion, with its position under the median fill.

    Systems run down the figure in the order of their median-fill position (the current
    order); a bar spans the best to the worst position, a dot marks the median fill, and a
    range that is not proven (Borda past its time limit) is drawn in red out to its proven
    bounds, dashed. Positions run left (first) to right. Rows shrink with the number of
    systems and stay readable at 100.

    Parameters
    ----------
    result : RankRanges
    {ax}

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.6, None, 0.5]}, index=["a", "b", "c"])
    >>> fig = plot_rank_ranges(cs.missing.rank_ranges(cs.Leaderboard.from_frame(frame), bounds={"nli": (0, 1)}))
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['a', 'b', 'c']
    """
    n = len(result.systems)
    order = sorted(range(n), key=lambda i: (result.median_position[i], result.best[i], i))
    font = label_font(n)
    labels = [short(result.systems[i]) for i in order]
    width = 6.0 + text_inches(longest(labels), font)
    fig, ax = new_axes(ax, (width, 1.2 + n * cell_inches(n)))
    y = np.arange(n)
    for row, i in enumerate(order):
        color = WINNER_COLOR if result.best[i] == 1 else "#4c72b0"
        if not result.exact[i]:
            ax.plot([result.best_bound[i], result.worst_bound[i]], [row, row], color=OPEN_COLOR, lw=1, ls="--")
        ax.plot([result.best[i], result.worst[i]], [row, row], color=color, lw=3, solid_capstyle="butt")
        ax.plot([result.median_position[i]], [row], "o", color="black", ms=3)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=font)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0.5, n + 0.5)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("position (1 = first)")
    exact = sum(result.exact)
    ax.set_title(f"Rank ranges under the missing scores ({result.rule})\nbar best to worst, dot median fill"  # two lines:
                 + ("" if exact == n else f"; {n - exact} not proven (dashed: proven bounds)"), fontsize=9)  # fits 6 in
    ax.grid(axis="x", alpha=0.3)
    return fig
