"""Weight sensitivity: how the official task weights must move to change the winner."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import fill_doc
from ._base import (
    LOSS_COLOR,
    NODE_COLOR,
    PLOT_DOCS,
    cell_inches,
    label_font,
    longest,
    matplotlib_modules,
    short,
    text_inches,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["plot_weight_sensitivity", "SHOWN_TASKS"]

#: At most this many tasks are drawn (those with the largest changes); the title says how many more moved.
SHOWN_TASKS = 40


@fill_doc(PLOT_DOCS)
def plot_weight_sensitivity(result: Any) -> Figure:
    """The change of each task's weight that changes the target, in L1 and L-infinity.

    One row per task whose weight moves in either nearest weighting (largest L1 change on
    top; at most :data:`SHOWN_TASKS`), two horizontal bars per row: the change of the
    nearest L1 weighting (gid ``"l1:TASK"``) and of the nearest L-infinity weighting (gid
    ``"linf:TASK"``), red where weight is taken away. Tasks of the fewest-removals answer
    are marked "removed" next to their name. The title states the radii and who catches whom.

    Parameters
    ----------
    result : SensitivityResult
        From :func:`consensus.weight_sensitivity`.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_weight_sensitivity(cs.weight_sensitivity(cs.load_example("votenrank-toy"), rule="mean"))
    >>> sorted(p.get_gid() for p in fig.axes[0].patches if p.get_gid().startswith("l1:"))
    ['l1:t2', 'l1:t3', 'l1:t4', 'l1:t5']
    """
    _, Figure = matplotlib_modules()
    moved = result.changed_tasks()
    hidden = max(0, len(moved) - SHOWN_TASKS)
    moved = moved.iloc[:SHOWN_TASKS]
    n = max(len(moved), 1)
    labels = [short(t) + ("  (removed)" if r else "") for t, r in zip(moved.index, moved["removed"])]
    font = label_font(n, roomy=8.0)
    room = text_inches(longest(labels) if labels else 4, font)
    fig = Figure(figsize=(6.0 + room, 1.8 + n * max(cell_inches(n), 0.3)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(moved))
    for offset, norm, hatch in ((-0.2, "l1", None), (0.2, "linf", "//")):
        change = np.nan_to_num(moved[f"change_{norm}"].to_numpy(dtype=float))
        colors = [LOSS_COLOR if c < 0 else NODE_COLOR for c in change]
        bars = ax.barh(y + offset, change, height=0.38, color=colors, edgecolor="#333333", linewidth=0.5,
                       hatch=hatch)
        for bar, task in zip(bars, moved.index):
            bar.set_gid(f"{norm}:{task}")
    ax.set_yticks(y, labels, fontsize=font)
    ax.invert_yaxis()
    ax.axvline(0.0, color="#333333", linewidth=0.8)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("change of the task's weight (weights sum to 1)", fontsize=9)
    if len(moved):  # the legend tells the norms apart by hatching; colour is the sign of the change
        from matplotlib.patches import Patch

        handles = [Patch(facecolor="white", edgecolor="#333333", label="L1 nearest"),
                   Patch(facecolor="white", edgecolor="#333333", hatch="//", label="L-infinity nearest"),
                   Patch(facecolor=NODE_COLOR, edgecolor="#333333", label="weight added"),
                   Patch(facecolor=LOSS_COLOR, edgecolor="#333333", label="weight taken away")]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8)
    bound = ">= " if result.kind == "lower_bound" else ""

    def radius(ans: Any) -> str:
        return "none" if math.isinf(ans.distance) else f"{bound}{ans.distance:.3g}"

    who = f"\n{short(result.l1.challenger, 30)} catches {short(result.l1.leader, 30)}" if result.l1.leader else ""
    title = (f"{result.rule}, {result.target}: L1 radius {radius(result.l1)}, "
             f"L-infinity radius {radius(result.linf)}{who}")
    if result.removal.n_removed:
        title += f"\nor remove {result.removal.n_removed} task(s)"
    if hidden:
        title += f"\n({hidden} more tasks move a little; see to_frame())"
    ax.set_title(title, fontsize=10)
    return fig
