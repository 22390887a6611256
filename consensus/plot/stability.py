"""Rank intervals per system and rule, from :func:`consensus.resampling._stability.rank_stability`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_count, name_list
from ..errors import InvalidOptionError
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

    from ..results import StabilityResult

__all__ = ["plot_stability", "stability_systems"]

#: Colour of the rank interval of a system outside the top set.
INTERVAL_COLOR = "#4c72b0"


def stability_systems(result: StabilityResult, *, rules: Sequence[str], top: int | None = None) -> list[str]:
    """The systems drawn by :func:`plot_stability`, in the full-data order of the first rule.

    Parameters
    ----------
    result : StabilityResult
        From :func:`consensus.resampling._stability.rank_stability`.
    rules : sequence of str
        The rules drawn; the first one orders the systems (systems it did not rank last).
    top : int, optional
        Keep only the systems within the first `top` full-data positions of some rule in
        `rules` (None: every system).

    Returns
    -------
    list of str

    Examples
    --------
    >>> from consensus.results import StabilityResult
    >>> res = StabilityResult(("mean", "borda"), ("a", "b", "c"), "bootstrap", [[[3, 1, 2], [3, 2, 1]]],
    ...                       [[3, 1, 2], [3, 2, 1]], ("",), [float("nan")], 0.05, 0.95, 1, {})
    >>> stability_systems(res, rules=["mean", "borda"], top=1)
    ['b', 'c']
    """
    listed = list(result.order(rules[0]))
    listed += [s for s in result.systems if s not in listed]
    if top is None:
        return listed
    rows = [result.rules.index(r) for r in rules]
    full = result.full_positions[rows]
    inside = {s for j, s in enumerate(result.systems) if np.any(full[:, j] <= top)}
    return [s for s in listed if s in inside]


@fill_doc(PLOT_DOCS)
def plot_stability(
    result: StabilityResult,
    *,
    rules: Sequence[str] | None = None,
    top: int | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Rank intervals: one row per system, one panel per rule, systems in full-data order.

    Each row draws the system's rank interval ``low .. high`` (a line with end ticks, gid
    ``"interval:RULE:SYSTEM"``, x data ``[low, high]``), its full-data position (filled dot)
    and its median position over the resamples (hollow diamond); the dots and diamonds of a
    panel are one collection each (gids ``"position:RULE"`` and ``"median:RULE"``, offsets in
    ``fig.consensus_systems`` order, NaN for a system never ranked). Systems of the rule's top
    set (first in at least `alpha` of the resamples) are drawn in orange. The panels share
    the system axis, ordered by the first rule's full-data ranking (best on top); the figure
    grows with the number of systems so that 100 rows stay readable (labels >= 6 pt).

    Parameters
    ----------
    result : StabilityResult
        From :func:`consensus.resampling._stability.rank_stability`.
    rules : sequence of str, optional
        The rules to draw, one panel each, in this order (default: all of ``result.rules``).
    top : int, optional
        Draw only the systems within the first `top` full-data positions of some drawn rule
        (:func:`stability_systems`); None draws every system.
    ax : matplotlib Axes, optional
        Draw one rule into this axes (pass a single rule in `rules` when the result has more).

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`; ``fig.consensus_systems`` lists the systems
        drawn (top to bottom) and ``fig.consensus_rules`` the rules.

    Raises
    ------
    InvalidOptionError
        If `rules` is empty or names a rule the result does not have, `top` is not an
        integer >= 1, or `ax` is given with more than one rule.
    {no_matplotlib}

    Examples
    --------
    >>> from consensus.results import StabilityResult
    >>> res = StabilityResult(("mean",), ("a", "b"), "bootstrap", [[[1, 2]], [[2, 1]], [[1, 2]]],
    ...                       [[1, 2]], ("",) * 3, [float("nan")] * 3, 0.05, 0.95, 1, {})
    >>> fig = plot_stability(res)
    >>> [(line.get_gid(), line.get_xdata().tolist()) for line in fig.axes[0].lines]
    [('interval:mean:a', [1, 2]), ('interval:mean:b', [1, 2])]
    """
    drawn = list(result.rules) if rules is None else [str(r) for r in name_list(rules, "rules", kind="rule names")]
    if not drawn:
        raise InvalidOptionError("rules must name at least one rule of the result")
    unknown = [r for r in drawn if r not in result.rules]
    if unknown:
        raise InvalidOptionError(
            f"rule(s) {', '.join(map(repr, unknown))} not in this result; it has {', '.join(result.rules)}"
        )
    if top is not None:
        top = check_count(top, "top", 1)
    if ax is not None and len(drawn) != 1:
        raise InvalidOptionError(f"ax= draws one rule; pass rules=[...] with one of {', '.join(drawn)}")
    shown = stability_systems(result, rules=drawn, top=top)
    n = len(shown)
    font = label_font(n, roomy=8.0)
    row = max(cell_inches(n), 1.5 * font / 72.0)
    room = text_inches(longest(shown) + 1, font)
    frame = result.to_frame().set_index(["rule", "system"])
    drawn_rows = frame.loc[[(r, s) for r in drawn for s in shown]]
    span = max(1.0, float(drawn_rows[["position", "high"]].max().max(skipna=True)) if n else 1.0)
    panel = min(4.0, 2.2 + 0.015 * span)
    size = (room + panel * len(drawn) + 0.6, 1.6 + n * row)
    if ax is None:
        fig, first = new_axes(None, size)
        fig.delaxes(first)
        axes = list(fig.subplots(1, len(drawn), sharey=True, squeeze=False)[0])
    else:
        fig, ax = new_axes(ax, size)
        axes = [ax]
    y = np.arange(n)
    for axis, rule in zip(axes, drawn):
        sub = frame.loc[rule].loc[shown]
        right = 1.0
        for i, system in enumerate(shown):
            low, high = sub.at[system, "low"], sub.at[system, "high"]
            if pd.isna(low):  # never ranked
                continue
            color = WINNER_COLOR if sub.at[system, "top_set"] else INTERVAL_COLOR
            (line,) = axis.plot([int(low), int(high)], [i, i], color=color, linewidth=2.0, marker="|",
                                markersize=max(4.0, font), solid_capstyle="butt", zorder=2)
            line.set_gid(f"interval:{rule}:{system}")
            right = max(right, float(high))
        full = sub["position"].to_numpy(dtype=float, na_value=np.nan)
        median = sub["median"].to_numpy(dtype=float)
        big = n <= 40
        diamonds = axis.scatter(median, y, s=30.0 if big else 14.0, marker="D", facecolors="white",
                                edgecolors="#222222", linewidths=0.8, zorder=3)
        diamonds.set_gid(f"median:{rule}")
        dots = axis.scatter(full, y, s=10.0 if big else 5.0, color="#222222", zorder=4)  # inside an equal median
        dots.set_gid(f"position:{rule}")
        right = max(right, float(np.nanmax(full, initial=1.0)))
        axis.set_xlim(0.4, right + 0.6)
        axis.xaxis.get_major_locator().set_params(integer=True)
        axis.tick_params(axis="x", labelsize=7)
        axis.grid(axis="x", alpha=0.3)
        axis.set_title(f"{rule} (top set: {len(result.top_set(rule))})", fontsize=9)
        axis.set_xlabel("position", fontsize=7)
    axes[0].set_yticks(y, [short(s) for s in shown], fontsize=font)
    axes[0].set_ylim(n - 0.5, -0.5)  # best on top
    for axis in axes[1:]:
        axis.tick_params(axis="y", length=0)
    _legend(fig, axes, ax is not None, result, "" if n == len(result.systems) else f" ({n} of {len(result.systems)} systems)")
    fig.consensus_systems = tuple(shown)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    fig.consensus_rules = tuple(drawn)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    return fig


def _legend(fig: Figure, axes: list[Axes], into_axes: bool, result: StabilityResult, clipped: str) -> None:
    """The key: interval, top-set interval, full-data position, median."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color=INTERVAL_COLOR, linewidth=2.0, marker="|", label=f"{result.level:.0%} rank interval"),
        Line2D([], [], color=WINNER_COLOR, linewidth=2.0, marker="|", label=f"top set (P(first) ≥ {result.alpha:g})"),
        Line2D([], [], color="#222222", linestyle="none", marker="o", markersize=4, label="full-data position"),
        Line2D([], [], color="#222222", markerfacecolor="white", linestyle="none", marker="D", markersize=4,
               label="median"),
    ]
    what = f"{result.resamples} {result.resampling} resamples"
    if into_axes:
        axes[0].legend(handles=handles, fontsize=7, loc="lower left", title=what, title_fontsize=7)
        return
    fig.legend(handles=handles, loc="outside lower center", ncols=2 if len(axes) < 3 else 4, fontsize=7,
               frameon=False)
    title = f"Rank intervals over {what}{clipped}"
    if len(axes) < 2 and len(title) > 48:  # one narrow panel: two lines rather than a clipped title
        title = f"Rank intervals over {what}\n{clipped.strip()}"
    fig.suptitle(title, fontsize=9)
