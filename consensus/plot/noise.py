"""The leaderboard's rows in groups within noise, from :func:`consensus.significance`."""

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

    from ..results import SignificanceResult

__all__ = ["plot_significance"]

#: The shade of every other group.
BAND_COLOR = "#e8e8f0"


@fill_doc(PLOT_DOCS)
def plot_significance(result: SignificanceResult, *, ax: Axes | None = None) -> Figure:
    """Each system's weighted mean, down the figure in the order of the row groups, with a
    bracket per group (systems whose means do not differ beyond noise from the group's leaders).

    Groups are shaded in turn and labelled on the right (``g1``, ``g2``, ...; the first in the
    winner's colour). Rows shrink with the number of systems and stay readable at 100.

    Parameters
    ----------
    result : SignificanceResult
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The band of group k carries the id ``"group:k"``.

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.88, 0.5], "qa_stderr": [0.01] * 3}, index=["a", "b", "c"])
    >>> fig = plot_significance(cs.significance(cs.Leaderboard.from_frame(frame)))
    >>> sorted(p.get_gid() for p in fig.axes[0].patches)
    ['group:1', 'group:2']
    """
    groups = result.row_groups
    order = [s for g in groups for s in g]
    n = len(order)
    where = {s: i for i, s in enumerate(result.systems)}
    font = label_font(n)
    labels = [short(s) for s in order]
    fig, ax = new_axes(ax, (5.5 + text_inches(longest(labels), font), 1.2 + n * cell_inches(n)))
    means = np.array([result.means[where[s]] for s in order])
    row = 0
    for k, group in enumerate(groups, start=1):
        top, bottom = row - 0.5, row + len(group) - 0.5
        ax.axhspan(top, bottom, color=BAND_COLOR if k % 2 else "white", zorder=0, gid=f"group:{k}")
        ax.text(1.01, (top + bottom) / 2, f"g{k}", transform=ax.get_yaxis_transform(), va="center",
                fontsize=font, color=WINNER_COLOR if k == 1 else "black")
        row += len(group)
    ax.plot(means, np.arange(n), "o", color="#4c72b0", ms=4, zorder=2)
    ax.set_yticks(np.arange(n))
    ax.set_yticklabels(labels, fontsize=font)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel("weighted mean of the oriented scores")
    ax.set_title(f"{len(groups)} group(s) within noise ({result.setting})", fontsize=9)
    return fig
