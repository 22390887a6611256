"""Figures: the majority graph, rank changes across rules, the pairwise confidence heatmap.

matplotlib is an optional dependency (the ``plot`` extra) imported inside each function.
Every function returns a :class:`matplotlib.figure.Figure` built without pyplot (no global
state, nothing shown): save it with ``fig.savefig("out.png")``. Pass ``ax=`` to draw into
an existing axes instead (the figure of that axes is returned).

The drawn artists carry ids (``Artist.get_gid()``) so that tests and users can check a
figure against its data: ``"edge:A->B"`` for a majority edge, ``"tie:A=B"`` for a
majority tie, ``"nodes"`` for the node collection (facecolors in ``fig.consensus_nodes``
order), ``"system:NAME"`` for a line of the rank-change chart, ``"confidence"`` for the
heatmap image.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InvalidOptionError
from .inputs import as_pairwise
from .majority import condorcet_winner, majority_graph

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .results import Analysis, PairwiseConfidence, RuleComparison

__all__ = [
    "plot_majority_graph",
    "plot_rank_changes",
    "plot_confidence",
    "plot_scores",
    "plot_bars",
    "plot_analysis",
    "WINNER_COLOR",
    "NODE_COLOR",
]

#: Fill colour of the Condorcet winner (or highlighted systems) in the majority graph.
WINNER_COLOR = "#f2b134"
#: Fill colour of every other system.
#: More bars than this are drawn horizontally (one row per label), so 100+ names stay readable.
BARS_UPRIGHT_MAX = 25
NODE_COLOR = "#9ecae1"


def _matplotlib() -> Any:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - exercised only without matplotlib
        raise ImportError(
            "plotting needs matplotlib: pip install 'leaderboard-consensus[plot]'"
        ) from exc
    return matplotlib, Figure


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    _, Figure = _matplotlib()
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _circle(order: Sequence[str]) -> dict[str, np.ndarray]:
    """Nodes on a circle, the first at the top, clockwise."""
    n = len(order)
    angles = np.pi / 2 - 2 * np.pi * np.arange(n) / max(n, 1)
    return {s: np.array([np.cos(a), np.sin(a)]) for s, a in zip(order, angles)}


def plot_majority_graph(
    data: Any,
    *,
    ranking: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    layout: str = "circle",
    ax: Axes | None = None,
) -> Figure:
    """Draw the weighted majority graph: an arrow ``i -> j`` when ``i`` beats ``j``.

    Edge width grows with the margin; majority ties are dashed lines without arrows. The
    Condorcet winner (or the systems in `highlight`) is filled with :data:`WINNER_COLOR`.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        Anything :func:`consensus.majority_graph` accepts.
    ranking : sequence of str, optional
        Place the systems around the circle in this order (e.g. the Kemeny ranking),
        clockwise from the top; default: leaderboard order.
    highlight : sequence of str, optional
        Systems to fill (default: the Condorcet winner, if any).
    layout : {"circle", "spring"}, default="circle"
        ``"spring"`` uses networkx's spring layout (seeded, so reproducible).
    ax : matplotlib Axes, optional
        Draw into this axes.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.consensus_nodes`` lists the systems in the order of the node colours.

    Raises
    ------
    InvalidOptionError
        If `data` is not a supported input, `ranking` does not list every system exactly
        once, `layout` is unknown, or `highlight` names a system that is not in `data`.
    ImportError
        If matplotlib is not installed (``pip install 'leaderboard-consensus[plot]'``).

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_majority_graph(cs.load_example("votenrank-toy"))
    >>> sorted(a.get_gid() for a in fig.axes[0].patches)[:2]
    ['edge:B->A', 'edge:B->C']
    """
    import networkx as nx


    pairs = as_pairwise(data)
    graph = majority_graph(pairs)
    systems = list(pairs.systems)
    order = list(ranking) if ranking is not None else systems
    if sorted(order) != sorted(systems):
        raise InvalidOptionError("ranking must list every system of the leaderboard exactly once")
    if layout == "circle":
        pos = _circle(order)
    elif layout == "spring":
        pos = nx.spring_layout(graph, seed=0)
    else:
        raise InvalidOptionError(f"unknown layout {layout!r}; use 'circle' or 'spring'")
    winner = condorcet_winner(pairs)
    marked = set(highlight) if highlight is not None else ({winner} if winner else set())
    unknown = marked - set(systems)
    if unknown:
        raise InvalidOptionError(f"cannot highlight unknown system(s) {sorted(unknown)}")

    fig, ax = _axes(ax, (6.0, 6.0))
    colors = [WINNER_COLOR if s in marked else NODE_COLOR for s in order]
    nodes = nx.draw_networkx_nodes(graph, pos, nodelist=order, node_color=colors, node_size=900, ax=ax,
                                   edgecolors="#333333")
    nodes.set_gid("nodes")
    nx.draw_networkx_labels(graph, pos, labels={s: s for s in order}, font_size=9, ax=ax)
    edges = list(graph.edges(data=True))
    if edges:
        biggest = max(d["margin"] for _, _, d in edges) or 1.0
        widths = [1.0 + 3.0 * d["margin"] / biggest for _, _, d in edges]
        patches = nx.draw_networkx_edges(
            graph, pos, edgelist=[(u, v) for u, v, _ in edges], width=widths, arrows=True, arrowstyle="-|>",
            arrowsize=16, node_size=900, edge_color="#444444", ax=ax,
        )
        for patch, (u, v, _) in zip(patches, edges):
            patch.set_gid(f"edge:{u}->{v}")
    for a, b in graph.graph["ties"]:
        (line,) = ax.plot([pos[a][0], pos[b][0]], [pos[a][1], pos[b][1]], linestyle="--", color="#999999",
                          linewidth=1.0, zorder=0)
        line.set_gid(f"tie:{a}={b}")
    title = f"Majority graph: Condorcet winner {winner}" if winner else "Majority graph: no Condorcet winner"
    ax.set_title(title)
    ax.set_axis_off()
    ax.margins(0.15)
    fig.consensus_nodes = tuple(order)
    return fig


def plot_rank_changes(
    comparison: RuleComparison, *, rules: Sequence[str] | None = None, ax: Axes | None = None
) -> Figure:
    """Each system's position under the baseline (mean), every rule, and the exact Kemeny ranking.

    One line per system (gid ``"system:NAME"``), x = rules from the baseline to ``kemeny``,
    y = competition position (1 at the top). Steep lines are the rank changes of
    Vote'n'Rank Table 3.

    Parameters
    ----------
    comparison : RuleComparison
        From :func:`consensus.compare_rules`.
    rules : sequence of str, optional
        Columns to draw, in order (default: the baseline if it ran, the other rules that
        ran, Kemeny).
    ax : matplotlib Axes, optional
        Draw into this axes.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`.

    Raises
    ------
    InvalidOptionError
        If `rules` names a rule without a ranking in `comparison` (unknown, or it failed).
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import consensus as cs
    >>> comp = cs.compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "plurality"])
    >>> fig = plot_rank_changes(comp)
    >>> [line.get_ydata().tolist() for line in fig.axes[0].lines if line.get_gid() == "system:A"]
    [[4, 1, 4]]
    """
    positions = comparison.positions()
    if rules is None:
        ran = [r for r in comparison.rules if r in comparison.rankings]
        first = [comparison.baseline] if comparison.baseline in ran else []
        rules = first + [r for r in ran if r not in first and r != "kemeny"] + ["kemeny"]
    missing = [r for r in rules if r not in positions.columns]
    if missing:
        raise InvalidOptionError(f"no ranking for rule(s) {', '.join(map(repr, missing))}")
    fig, ax = _axes(ax, (max(6.0, 1.2 + 1.1 * len(rules)), max(3.5, 1.0 + 0.35 * len(positions))))
    x = np.arange(len(rules))
    palette = "tab10" if len(positions) <= 10 else "tab20"
    cmap = _matplotlib()[0].colormaps[palette]
    for k, system in enumerate(positions.index):
        y = positions.loc[system, list(rules)].to_numpy()
        (line,) = ax.plot(x, y, marker="o", color=cmap(k % cmap.N), linewidth=1.5)
        line.set_gid(f"system:{system}")
        ax.annotate(system, (x[0], y[0]), xytext=(-6, 0), textcoords="offset points", ha="right", va="center",
                    fontsize=8)
        ax.annotate(system, (x[-1], y[-1]), xytext=(6, 0), textcoords="offset points", ha="left", va="center",
                    fontsize=8)
    ax.set_xticks(x, list(rules), rotation=30, ha="right")
    ax.set_yticks(range(1, len(positions) + 1))
    ax.set_ylim(len(positions) + 0.5, 0.5)
    ax.set_xlim(-0.8, len(rules) - 0.2)
    ax.set_ylabel("position")
    ax.set_title("Rank changes across rules")
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_confidence(confidence: PairwiseConfidence, *, ax: Axes | None = None) -> Figure:
    """The pairwise confidence heatmap of Himmi et al. 2023, Figure 6.

    Rows and columns follow the final ranking (``confidence.order``, best first). Cell
    ``(i, j)`` is ``confidence.distance[i, j]``: how far the Hoeffding interval of
    ``P(i beats j)`` lies above 1/2 when ``i`` beats ``j`` with confidence ``1 - delta``,
    and 0 otherwise; the greener the surer. Cells above 0 are annotated with their value
    when there are at most 15 systems.

    Parameters
    ----------
    confidence : PairwiseConfidence
        From :func:`consensus.pairwise_confidence`.
    ax : matplotlib Axes, optional
        Draw into this axes.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`; the image has gid ``"confidence"`` and a
        colour bar on the fixed scale 0 to 1/2.

    Raises
    ------
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import consensus as cs
    >>> conf = cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=0.5)
    >>> fig = plot_confidence(conf)
    >>> fig.axes[0].images[0].get_array().shape
    (4, 4)
    """
    n = len(confidence.order)
    fig, ax = _axes(ax, (max(5.0, 2.5 + 0.45 * n), max(4.5, 2.0 + 0.45 * n)))
    values = np.asarray(confidence.distance, dtype=float)
    # lower bound - 1/2 lies in [0, 1/2]: a fixed scale makes figures comparable
    image = ax.imshow(values, cmap="Greens", vmin=0.0, vmax=0.5, interpolation="nearest")
    image.set_gid("confidence")
    if n <= 15:
        for i, j in zip(*np.nonzero(values > 0)):
            ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=7,
                    color="white" if values[i, j] > 0.3 else "black")
    labels = list(confidence.order)
    ax.set_xticks(range(n), labels, rotation=90)
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("final ranking, best to worst")
    ax.set_title(f"Confident wins (row beats column), delta = {confidence.delta:g}", fontsize=10)
    fig.colorbar(image, ax=ax, label="lower bound - 1/2", shrink=0.8)
    return fig


def plot_bars(values: Any, *, title: str = "", ax: Axes | None = None) -> Figure:
    """A bar chart of a labelled series (e.g. task weights, margins), in the series' order.

    Up to :data:`BARS_UPRIGHT_MAX` bars stand upright; more are drawn horizontally, first
    item on top, one row per label (the figure grows with the number of bars), so a
    leaderboard of 100+ systems stays readable.

    Parameters
    ----------
    values : pandas.Series, mapping or array_like
        Anything ``pandas.Series`` accepts; the index labels the bars (gid ``"bar:LABEL"``)
        and the values must convert to float.
    title : str, default=""
        Axes title.
    ax : matplotlib Axes, optional
        Draw into this axes.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`.

    Raises
    ------
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import pandas as pd
    >>> fig = plot_bars(pd.Series({"qa": 0.7, "nli": 0.3}), title="weights")
    >>> [float(p.get_height()) for p in fig.axes[0].patches]
    [0.7, 0.3]
    """
    import pandas as pd

    series = pd.Series(values)
    labels = [str(k) for k in series.index]
    heights = series.to_numpy(dtype=float)
    if len(series) > BARS_UPRIGHT_MAX:  # many bars: horizontal, one readable row per label, in order
        fig, ax = _axes(ax, (7.0, 1.0 + 0.22 * len(series)))
        bars = ax.barh(labels, heights, color=NODE_COLOR, edgecolor="#333333")
        ax.invert_yaxis()  # the first item on top
        ax.tick_params(axis="y", labelsize=7)
        ax.margins(y=0.005)
        ax.axvline(0.0, color="#333333", linewidth=0.8)
    else:
        fig, ax = _axes(ax, (1.5 + 0.5 * len(series), 3.5))
        bars = ax.bar(labels, heights, color=NODE_COLOR, edgecolor="#333333")
        ax.tick_params(axis="x", rotation=45)
        ax.axhline(0.0, color="#333333", linewidth=0.8)
    for bar, key in zip(bars, series.index):
        bar.set_gid(f"bar:{key}")
    ax.set_title(title)
    return fig


def plot_scores(result: Any, *, ax: Axes | None = None) -> Figure:
    """A rule's scores as bars, best first (``result`` from :func:`consensus.rank`).

    Parameters
    ----------
    result : RuleResult
        Needs ``ranking`` (tie groups, best first), ``scores`` and ``rule`` (the title is
        ``"RULE scores"``).
    ax : matplotlib Axes, optional
        Draw into this axes.

    Returns
    -------
    matplotlib.figure.Figure
        The bar chart of :func:`plot_bars`, systems in ranking order.

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    """
    order = [s for group in result.ranking for s in group]
    return plot_bars(result.scores.reindex(order), title=f"{result.rule} scores", ax=ax)


def plot_analysis(analysis: Analysis) -> Figure:
    """The ``consensus analyze --plot`` figure: majority graph and rank changes side by side.

    The majority graph (left) places the systems in the order of the Kemeny ranking; the
    rank-change chart (right) shows the default rules of :func:`plot_rank_changes`.

    Parameters
    ----------
    analysis : Analysis
        From :func:`consensus.analyze`; nothing is recomputed except the majority graph of
        its leaderboard.

    Returns
    -------
    matplotlib.figure.Figure
        A new figure with two axes.

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    """
    _, Figure = _matplotlib()
    n = len(analysis.comparison.systems)
    fig = Figure(figsize=(13.0, max(5.5, 1.0 + 0.35 * n)), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.3])
    plot_majority_graph(analysis.leaderboard, ranking=analysis.kemeny.ranking, ax=left)
    plot_rank_changes(analysis.comparison, ax=right)
    return fig
