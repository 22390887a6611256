"""Rankings: the rank-change (bump) chart across rules, bar charts of scores and weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import fill_doc
from ..errors import InvalidOptionError
from ._base import (
    BARS_UPRIGHT_MAX,
    LOSS_COLOR,
    NODE_COLOR,
    PLOT_DOCS,
    TOP_K,
    cell_inches,
    label_font,
    longest,
    matplotlib_modules,
    new_axes,
    short,
    text_inches,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..results import RuleComparison

__all__ = ["plot_bars", "plot_rank_changes", "plot_scores", "rank_change_geometry", "rank_change_systems"]


def _default_rules(comparison: RuleComparison) -> list[str]:
    ran = [r for r in comparison.rules if r in comparison.rankings]
    first = [comparison.baseline] if comparison.baseline in ran else []
    return first + [r for r in ran if r not in first and r != "kemeny"] + ["kemeny"]


def rank_change_systems(comparison: RuleComparison, *, rules: Sequence[str] | None = None, top: int | None = TOP_K) -> list[str]:
    """The systems of the rank-change chart: Kemeny's top `top`, then those entering any rule's top `top`.

    A rule's top `top` counts tie groups whole and never holds more than `top` systems: a
    tie group that straddles position `top` (say 300 systems tied at position 9 with a top
    of 10, as plurality gives on a large board) is below the top, not in it. At most `top`
    entrants are drawn, the best placed first (by their best position, then Kemeny order);
    the chart's title counts the others.

    Parameters
    ----------
    comparison : RuleComparison
        From :func:`consensus.compare_rules`.
    rules : sequence of str, optional
        The rules considered (default: those of :func:`plot_rank_changes`).
    top : int or None, default=TOP_K
        Size of the top; None for every system.

    Returns
    -------
    list of str
        Kemeny order (ties as in :meth:`RuleComparison.positions`): every system within the
        top `top` positions of Kemeny or of a rule in `rules`.

    Examples
    --------
    >>> import consensus as cs
    >>> comp = cs.compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "plurality"])
    >>> rank_change_systems(comp, top=1)
    ['B', 'A']
    """
    return _chart_systems(comparison.positions(), comparison, rules, top)[0]


def _within(positions: Any, top: int) -> Any:
    """Per column, the systems whose whole tie group lies within the first `top` positions."""
    out = positions.copy()
    for column in positions.columns:
        col = positions[column]
        last = col + col.map(col.value_counts()) - 1  # competition positions: a group of k at p ends at p + k - 1
        out[column] = last <= top
    return out.astype(bool)


def _chart_systems(positions: Any, comparison: RuleComparison, rules: Sequence[str] | None,
                   top: int | None) -> tuple[list[str], int, set[str]]:
    """The systems drawn (Kemeny order), how many entrants were left out, and Kemeny's top."""
    columns = list(rules) if rules is not None else _default_rules(comparison)
    columns = [c for c in columns if c in positions.columns]
    if top is None:
        return list(positions.index), 0, set()
    if "kemeny" not in columns and "kemeny" in positions.columns:
        columns.append("kemeny")
    inside = _within(positions[columns], top)
    core = {s for s in positions.index if "kemeny" in inside.columns and inside.loc[s, "kemeny"]}
    best = positions[columns].where(inside).min(axis=1)
    rank_of = {s: k for k, s in enumerate(positions.index)}
    entrants = sorted((s for s in positions.index if inside.loc[s].any() and s not in core),
                      key=lambda s: (best[s], rank_of[s]))
    kept = set(entrants[:top]) | core
    return [s for s in positions.index if s in kept], max(0, len(entrants) - top), core


def rank_change_geometry(shown: Sequence[str], *, n_rules: int, rows: int) -> dict[str, float]:
    """Inches of a rank-change chart: label room on each side, axes size, figure size.

    Parameters
    ----------
    shown : sequence of str
        The systems drawn (their names' lengths set the label room).
    n_rules : int
        Number of columns.
    rows : int
        Number of position rows.

    Returns
    -------
    dict
        ``room`` (each side), ``axes_width``, ``axes_height``, ``bottom``, ``top``,
        ``width``, ``height``, ``rows`` and ``font`` (label size, points).

    Examples
    --------
    >>> g = rank_change_geometry(["a", "b"], n_rules=3, rows=2)
    >>> g["width"] >= 6.0, g["rows"]
    (True, 2)
    """
    font = label_font(len(shown), roomy=8.0)
    room = text_inches(longest(shown) + 5, font) + 0.35
    axes_w = max(3.0, 0.75 * n_rules)
    axes_h = max(2.2, 0.3 * max(rows, 0.8 * len(shown)))
    bottom, top = 1.1, 0.5
    return {"room": room, "axes_width": axes_w, "axes_height": axes_h, "bottom": bottom, "top": top,
            "width": max(6.0, 2 * room + axes_w + 0.5), "height": axes_h + bottom + top, "rows": rows, "font": font}


@fill_doc(PLOT_DOCS)
def plot_rank_changes(
    comparison: RuleComparison,
    *,
    rules: Sequence[str] | None = None,
    top: int | None = TOP_K,
    ax: Axes | None = None,
) -> Figure:
    """Bump chart: each top system's position under the baseline (mean), every rule, and Kemeny.

    One line per system (gid ``"system:NAME"``), x = rules from the baseline to ``kemeny``,
    y = competition position (1 at the top). Only the systems of
    :func:`rank_change_systems` are drawn: the Kemeny top `top` plus every system that
    enters the top `top` of some rule, so a 100-system board stays readable. A position
    below the top is drawn on a last row, "below the top" (hollow marker); entrants (in a
    rule's top, not in Kemeny's) are drawn lighter. The names are written at both ends
    with their position (no position axis to collide with them). Steep lines are the rank changes of Vote'n'Rank Table 3.

    Parameters
    ----------
    comparison : RuleComparison
        From :func:`consensus.compare_rules`.
    rules : sequence of str, optional
        Columns to draw, in order (default: the baseline if it ran, the other rules that
        ran, Kemeny).
    top : int or None, default=TOP_K (10)
        Size of the top; None draws every system.
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`; ``fig.consensus_systems`` lists the systems
        drawn.

    Raises
    ------
    InvalidOptionError
        If `rules` names a rule without a ranking in `comparison` (unknown, or it failed),
        or `top` is not positive.
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> comp = cs.compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "plurality"])
    >>> fig = plot_rank_changes(comp)
    >>> [line.get_ydata().tolist() for line in fig.axes[0].lines if line.get_gid() == "system:A"]
    [[4, 1, 4]]
    """
    positions = comparison.positions()
    rules = list(rules) if rules is not None else _default_rules(comparison)
    missing = [r for r in rules if r not in positions.columns]
    if missing:
        raise InvalidOptionError(f"no ranking for rule(s) {', '.join(map(repr, missing))}")
    if top is not None and top < 1:
        raise InvalidOptionError(f"top must be a positive number of systems, got {top}")
    shown, left_out, kemeny_top = _chart_systems(positions, comparison, rules, top)
    n_all = len(positions)
    clipped = top is not None and top < n_all
    g = rank_change_geometry(shown, n_rules=len(rules), rows=top + 1 if clipped and top is not None else n_all)
    rows, font = int(g["rows"]), g["font"]
    fig, ax = new_axes(ax, (g["width"], g["height"]))
    x = np.arange(len(rules))
    cmap = matplotlib_modules()[0].colormaps["tab10" if len(shown) <= 10 else "tab20"]
    for k, system in enumerate(shown):
        true = positions.loc[system, rules].to_numpy()
        y = np.minimum(true, rows) if clipped else true
        color = cmap(k % cmap.N)
        entrant = clipped and system not in kemeny_top  # in a rule's top, not in Kemeny's: drawn lighter
        (line,) = ax.plot(x, y, marker="o", color=color, linewidth=1.0 if entrant else 2.0, markersize=4 if entrant else 5,
                          alpha=0.6 if entrant else 1.0, zorder=2 if entrant else 3)
        line.set_gid(f"system:{system}")
        if clipped and (true > top).any():  # hollow markers on the "below the top" row
            out = true > top
            ax.plot(x[out], y[out], linestyle="none", marker="o", markersize=6, markerfacecolor="white",
                    markeredgecolor=color)
        label = short(system)
        first_in, last_in = not clipped or true[0] <= top, not clipped or true[-1] <= top
        # the position is written in the label: no position ticks to collide with the names
        if first_in:
            ax.annotate(f"{label}  {int(true[0])}", (x[0], y[0]), xytext=(-7, 0), textcoords="offset points",
                        ha="right", va="center", fontsize=font)
        if last_in:
            ax.annotate(f"{int(true[-1])}  {label}", (x[-1], y[-1]), xytext=(7, 0), textcoords="offset points",
                        ha="left", va="center", fontsize=font)
        if not (first_in or last_in):  # an entrant: name it where it enters the top
            k_in = int(np.argmax(true <= top))
            ax.annotate(label, (x[k_in], y[k_in]), xytext=(0, 5), textcoords="offset points", ha="center",
                        va="bottom", fontsize=font - 1, color=color)
    ax.set_xticks(x, list(rules), rotation=30, ha="right")
    ax.set_yticks(list(range(1, rows + 1)), [""] * rows)
    ax.tick_params(axis="y", length=0)
    if clipped:
        from matplotlib.transforms import blended_transform_factory

        ax.text(0.5, rows, f"below the top {top}", transform=blended_transform_factory(ax.transAxes, ax.transData),
                ha="center", va="bottom", fontsize=7, color="#666666")
    ax.set_ylim(rows + (0.6 if clipped else 0.5), 0.5)
    ax.set_xlim(-0.15, len(rules) - 0.85)
    title = "Positions across rules"
    if clipped:
        title += f": Kemeny top {top} and entrants ({len(shown)} of {n_all} systems"
        title += f"; {left_out} more entrants not drawn)" if left_out else ")"
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.consensus_systems = tuple(shown)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    return fig


@fill_doc(PLOT_DOCS)
def plot_bars(values: Any, *, title: str = "", ax: Axes | None = None) -> Figure:
    """A bar chart of a labelled series (e.g. task weights, margins), in the series' order.

    Up to :data:`BARS_UPRIGHT_MAX` bars stand upright; more are drawn horizontally, first
    item on top, one row per label (the figure grows with the number of bars and with the
    longest label), so a leaderboard of 100+ systems stays readable. Negative bars are
    drawn in red.

    Parameters
    ----------
    values : pandas.Series, mapping or array_like
        Anything ``pandas.Series`` accepts; the index labels the bars (gid ``"bar:LABEL"``)
        and the values must convert to float.
    title : str, default=""
        Axes title.
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`.

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import pandas as pd
    >>> fig = plot_bars(pd.Series({"qa": 0.7, "nli": 0.3}), title="weights")
    >>> [float(p.get_height()) for p in fig.axes[0].patches]
    [0.7, 0.3]
    """
    import pandas as pd

    series = pd.Series(values)
    n = len(series)
    labels = [short(k) for k in series.index]
    heights = series.to_numpy(dtype=float)
    colors = [LOSS_COLOR if h < 0 else NODE_COLOR for h in heights]
    room = text_inches(longest(labels), label_font(n, roomy=8.0))
    if n > BARS_UPRIGHT_MAX:  # many bars: horizontal, one readable row per label, in order
        fig, ax = new_axes(ax, (6.0 + room, 1.2 + n * cell_inches(n)))
        bars = ax.barh(range(n), heights, color=colors, edgecolor="#333333", linewidth=0.5)
        ax.set_yticks(range(n), labels, fontsize=label_font(n, roomy=8.0))
        ax.invert_yaxis()  # the first item on top
        ax.margins(y=0.005)
        ax.axvline(0.0, color="#333333", linewidth=0.8)
        ax.grid(axis="x", alpha=0.3)
    else:
        fig, ax = new_axes(ax, (max(4.0, 1.5 + 0.5 * n), 3.0 + 0.7 * room))
        bars = ax.bar(range(n), heights, color=colors, edgecolor="#333333")
        ax.set_xticks(range(n), labels, rotation=45, ha="right", rotation_mode="anchor")
        ax.axhline(0.0, color="#333333", linewidth=0.8)
    for bar, key in zip(bars, series.index):
        bar.set_gid(f"bar:{key}")
    ax.set_title(title, fontsize=10)
    return fig


@fill_doc(PLOT_DOCS)
def plot_scores(result: Any, *, ax: Axes | None = None) -> Figure:
    """A rule's scores as bars, best first (``result`` from :func:`consensus.rank`).

    Parameters
    ----------
    result : RuleResult
        Needs ``ranking`` (tie groups, best first), ``scores`` and ``rule`` (the title is
        ``"RULE scores"``).
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The bar chart of :func:`plot_bars`, systems in ranking order.

    Raises
    ------
    {no_matplotlib}
    """
    order = [s for group in result.ranking for s in group]
    return plot_bars(result.scores.reindex(order), title=f"{result.rule} scores", ax=ax)
