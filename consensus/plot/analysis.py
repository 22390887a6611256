"""The ``consensus analyze --plot`` figure and the pairwise confidence heatmap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import fill_doc
from ._base import (
    GRAPH_MAX_SYSTEMS,
    HEATMAP_TOP,
    PLOT_DOCS,
    TOP_K,
    label_font,
    matplotlib_modules,
    new_axes,
    short,
)
from .majority import (
    heatmap_axes,
    heatmap_geometry,
    margin_heatmap_size,
    plot_majority_graph,
    plot_margin_heatmap,
    plot_margin_overview,
)
from .rankings import plot_rank_changes, rank_change_geometry, rank_change_systems

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..results import Analysis, PairwiseConfidence

__all__ = ["plot_analysis", "plot_confidence"]


@fill_doc(PLOT_DOCS)
def plot_confidence(confidence: PairwiseConfidence, *, ax: Axes | None = None) -> Figure:
    """The pairwise confidence heatmap of Himmi et al. 2023, Figure 6.

    Rows and columns follow the final ranking (``confidence.order``, best first). Cell
    ``(i, j)`` is ``confidence.distance[i, j]``: how far the Hoeffding interval of
    ``P(i beats j)`` lies above 1/2 when ``i`` beats ``j`` with confidence ``1 - delta``,
    and 0 otherwise; the greener the surer. Cells above 0 are annotated with their value
    when there are at most 15 systems. The figure and its labels are sized for the number
    of systems (readable up to 200).

    Parameters
    ----------
    confidence : PairwiseConfidence
        From :func:`consensus.pairwise_confidence`.
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of `ax`; the image has gid ``"confidence"`` and a
        colour bar on the fixed scale 0 to 1/2.

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> conf = cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=0.5)
    >>> fig = plot_confidence(conf)
    >>> fig.axes[0].images[0].get_array().shape
    (4, 4)
    """
    labels = list(confidence.order)
    n = len(labels)
    fig, ax = new_axes(ax, margin_heatmap_size(labels))
    values = np.asarray(confidence.distance, dtype=float)
    # lower bound - 1/2 lies in [0, 1/2]: a fixed scale makes figures comparable
    image = ax.imshow(values, cmap="Greens", vmin=0.0, vmax=0.5, interpolation="nearest")
    image.set_gid("confidence")
    if n <= 15:
        for i, j in zip(*np.nonzero(values > 0)):
            ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=7,
                    color="white" if values[i, j] > 0.3 else "black")
    font = label_font(n)
    ax.set_xticks(range(n), [short(s) for s in labels], rotation=90, fontsize=font)
    ax.set_yticks(range(n), [short(s) for s in labels], fontsize=font)
    ax.tick_params(length=2, pad=1)
    ax.set_xlabel("final ranking, best to worst", fontsize=9)
    ax.set_title(f"Confident wins (row beats column), delta = {confidence.delta:g}", fontsize=10)
    fig.colorbar(image, ax=ax, label="lower bound - 1/2", shrink=0.8 if n <= 30 else 0.4, pad=0.01)
    return fig


@fill_doc(PLOT_DOCS)
def plot_analysis(analysis: Analysis, *, top: int | None = TOP_K) -> Figure:
    """The ``consensus analyze --plot`` figure: the majority relation and the rank changes side by side.

    Left: the majority relation in the order of the Kemeny ranking, as a graph up to
    :data:`GRAPH_MAX_SYSTEMS` (15) systems and as a margin heatmap above
    (:func:`plot_majority_graph`); over :data:`HEATMAP_TOP` (30) systems the heatmap names
    the Kemeny top 30 and an overview of every system without names follows below it
    (:func:`plot_margin_overview`), so 350 systems stay readable and fast to draw. Right: the rank-change chart of the Kemeny top `top`
    and the systems entering a rule's top `top` (:func:`plot_rank_changes`). The figure
    grows with the number of systems; a 100-system board draws in well under a second.

    Parameters
    ----------
    analysis : Analysis
        From :func:`consensus.analyze`; nothing is recomputed except the majority relation
        of its leaderboard.
    top : int or None, default=TOP_K (10)
        Systems of the rank-change chart (None: all).

    Returns
    -------
    matplotlib.figure.Figure
        A new figure: the majority axes first, the rank changes last (the heatmap's colour
        bar, and the overview over 30 systems, between them); ``fig.consensus_nodes`` is the Kemeny order, ``fig.consensus_kind``
        ``"graph"`` or ``"heatmap"``.

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_analysis(cs.analyze(cs.load_example("votenrank-toy"), prospective=False))
    >>> fig.consensus_kind, fig.consensus_nodes
    ('graph', ('B', 'C', 'D', 'A'))
    """
    _, Figure = matplotlib_modules()
    comparison = analysis.comparison
    ranking = analysis.kemeny.order
    n = len(ranking)
    shown = rank_change_systems(comparison, top=top)
    rules = [r for r in comparison.rankings]
    g = rank_change_geometry(shown, n_rules=len(rules), rows=min(n, (top or n) + 1) if top and top < n else n)
    majority: Any = analysis.leaderboard  # the relation the analysis read: under significance, its own
    if analysis.significance is not None:
        from ..noise._seen import significance_pairwise

        majority = significance_pairwise(analysis.leaderboard, analysis.significance)
    if n <= GRAPH_MAX_SYSTEMS:
        side = max(6.0, 3.0 + 0.35 * n)
        fig = Figure(figsize=(side + g["width"], max(side, g["height"])), layout="constrained")
        left, right = fig.subplots(1, 2, width_ratios=[side, g["width"]])
        plot_majority_graph(majority, ranking=ranking, ax=left)
    else:  # margins computed, not measured: constrained layout on 2 x 200 labels is slow
        named = ranking[:HEATMAP_TOP]
        heat = heatmap_geometry(named)
        overview = 0.0 if n <= HEATMAP_TOP else min(6.0, max(4.0, heat["grid"]))
        left_w = max(heat["width"], overview + 1.2)
        left_h = heat["height"] + (overview + 1.4 if overview else 0.0)
        width, height = left_w + g["width"], max(left_h, g["height"])
        fig = Figure(figsize=(width, height))
        left, cax = heatmap_axes(fig, named)
        below = fig.add_axes([0.8 / width, 0.7 / height, overview / width, overview / height]) if overview else None
        x0 = left_w + g["room"]
        y0 = height - g["top"] - g["axes_height"]
        right = fig.add_axes([x0 / width, y0 / height, g["axes_width"] / width, g["axes_height"] / height])
        plot_margin_heatmap(majority, ranking=ranking, ax=left, cax=cax, top=HEATMAP_TOP)
        if below is not None:
            plot_margin_overview(majority, ranking=ranking, outline=HEATMAP_TOP, ax=below)
    plot_rank_changes(comparison, top=top, ax=right)
    fig.consensus_nodes = tuple(ranking)
    fig.consensus_kind = "graph" if n <= GRAPH_MAX_SYSTEMS else "heatmap"
    return fig
