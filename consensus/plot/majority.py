"""The majority relation: a graph drawing for a few systems, a margin heatmap for many."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._docstrings import fill_doc
from ..errors import InvalidOptionError
from ..majority._inputs import as_pairwise
from ..majority._relation import condorcet_winner, majority_graph
from ._base import (
    GRAPH_MAX_SYSTEMS,
    NODE_COLOR,
    PLOT_DOCS,
    WINNER_COLOR,
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

__all__ = [
    "heatmap_axes", "heatmap_geometry", "margin_heatmap_size", "plot_majority_graph", "plot_margin_heatmap",
    "plot_margin_overview",
]


def _circle(order: Sequence[str]) -> dict[str, np.ndarray]:
    """Nodes on a circle, the first at the top, clockwise."""
    n = len(order)
    angles = np.pi / 2 - 2 * np.pi * np.arange(n) / max(n, 1)
    return {s: np.array([np.cos(a), np.sin(a)]) for s, a in zip(order, angles)}


def _order_and_marks(pairs: Any, ranking: Sequence[str] | None, highlight: Sequence[str] | None) -> tuple[list[str], set[str], str | None]:
    systems = list(pairs.systems)
    order = list(ranking) if ranking is not None else systems
    if sorted(order) != sorted(systems):
        raise InvalidOptionError("ranking must list every system of the leaderboard exactly once")
    winner = condorcet_winner(pairs)
    marked = set(highlight) if highlight is not None else ({winner} if winner else set())
    unknown = marked - set(systems)
    if unknown:
        raise InvalidOptionError(f"cannot highlight unknown system(s) {sorted(unknown)}")
    return order, marked, winner


def _ordered_margins(pairs: Any, order: Sequence[str]) -> tuple[np.ndarray, float]:
    """The margins with rows and columns in `order`, and the symmetric colour scale of every
    system's margins (a heatmap of the top and the overview of all share one scale)."""
    margins = np.asarray(pairs.margins, dtype=float)
    row = {s: i for i, s in enumerate(pairs.systems)}
    index = [row[s] for s in order]
    scale = float(np.nanmax(np.abs(margins))) if len(pairs.systems) > 1 else 0.0
    return margins[np.ix_(index, index)], scale if scale > 0 else 1.0


def _title(winner: str | None) -> str:
    return f"Majority graph: Condorcet winner {short(winner)}" if winner else "Majority graph: no Condorcet winner"


@fill_doc(PLOT_DOCS)
def plot_majority_graph(
    data: Any,
    *,
    ranking: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    layout: str = "circle",
    kind: str = "auto",
    ax: Axes | None = None,
) -> Figure:
    """Draw the weighted majority relation: a graph for a few systems, a margin heatmap for many.

    With ``kind="graph"``: an arrow ``i -> j`` when ``i`` beats ``j``; edge width grows with
    the margin; majority ties are dashed lines without arrows; the Condorcet winner (or the
    systems in `highlight`) is filled with :data:`WINNER_COLOR`. With ``kind="heatmap"``:
    :func:`plot_margin_heatmap`. ``kind="auto"`` draws the graph up to
    :data:`GRAPH_MAX_SYSTEMS` (15) systems and the heatmap above (a graph of 20+ systems is
    a black disc of arrows, and slow to draw).

    Parameters
    ----------
    {majority_data}
    ranking : sequence of str, optional
        Place the systems in this order (e.g. the Kemeny ranking): clockwise from the top
        around the circle, or rows and columns of the heatmap; default: leaderboard order.
    highlight : sequence of str, optional
        Systems to mark (default: the Condorcet winner, if any).
    layout : {"circle", "spring"}, default="circle"
        Graph only: ``"spring"`` uses networkx's spring layout (seeded, so reproducible).
    kind : {"auto", "graph", "heatmap"}, default="auto"
        What to draw (see above).
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.consensus_nodes`` lists the systems in drawing order (graph: the order of the
        node colours; heatmap: the rows); ``fig.consensus_kind`` is ``"graph"`` or
        ``"heatmap"``.

    Raises
    ------
    InvalidOptionError
        If `data` is not a supported input, `ranking` does not list every system exactly
        once, `layout` or `kind` is unknown, or `highlight` names a system that is not in
        `data`.
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_majority_graph(cs.load_example("votenrank-toy"))
    >>> sorted(a.get_gid() for a in fig.axes[0].patches)[:2]
    ['edge:B->A', 'edge:B->C']
    """
    if kind not in ("auto", "graph", "heatmap"):
        raise InvalidOptionError(f"unknown kind {kind!r}; use 'auto', 'graph' or 'heatmap'")
    if layout not in ("circle", "spring"):
        raise InvalidOptionError(f"unknown layout {layout!r}; use 'circle' or 'spring'")
    pairs = as_pairwise(data)
    if kind == "heatmap" or (kind == "auto" and len(pairs.systems) > GRAPH_MAX_SYSTEMS):
        return plot_margin_heatmap(pairs, ranking=ranking, highlight=highlight, ax=ax)
    import networkx as nx

    order, marked, winner = _order_and_marks(pairs, ranking, highlight)
    graph = majority_graph(pairs)
    pos = _circle(order) if layout == "circle" else nx.spring_layout(graph, seed=0)
    n = len(order)
    side = max(6.0, 3.0 + 0.35 * n)
    fig, ax = new_axes(ax, (side, side))
    node_size = 900 if n <= 8 else 600
    font = 9.0 if n <= 8 else 7.5
    colors = [WINNER_COLOR if s in marked else NODE_COLOR for s in order]
    nodes = nx.draw_networkx_nodes(graph, pos, nodelist=order, node_color=colors, node_size=node_size, ax=ax,
                                   edgecolors="#333333")
    nodes.set_gid("nodes")
    for s in order:  # names outside the circle, away from the arrows
        px, py = pos[s]
        norm = float(np.hypot(px, py)) or 1.0
        ax.annotate(short(s, 24), (px, py), xytext=(19 * px / norm, 19 * py / norm), textcoords="offset points",
                    ha="center" if abs(px) < 0.3 else ("left" if px > 0 else "right"),
                    va="center" if abs(py) < 0.3 else ("bottom" if py > 0 else "top"), fontsize=font, gid=f"label:{s}")
    edges = list(graph.edges(data=True))
    if edges:
        biggest = max(d["margin"] for _, _, d in edges) or 1.0
        base, span = (1.0, 3.0) if n <= 8 else (0.5, 1.5)  # thinner when the edges crowd
        widths = [base + span * d["margin"] / biggest for _, _, d in edges]
        patches = nx.draw_networkx_edges(
            graph, pos, edgelist=[(u, v) for u, v, _ in edges], width=widths, arrows=True, arrowstyle="-|>",
            arrowsize=16 if n <= 8 else 12, node_size=node_size, edge_color="#444444", ax=ax,
        )
        for patch, (u, v, _) in zip(patches, edges):
            patch.set_gid(f"edge:{u}->{v}")
    for a, b in graph.graph["ties"]:
        (line,) = ax.plot([pos[a][0], pos[b][0]], [pos[a][1], pos[b][1]], linestyle="--", color="#999999",
                          linewidth=1.0, zorder=0)
        line.set_gid(f"tie:{a}={b}")
    ax.set_title(_title(winner))
    ax.set_axis_off()
    ax.margins(0.15)
    fig.consensus_nodes = tuple(order)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    fig.consensus_kind = "graph"  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    return fig


def _label_cells(ax: Any, order: Sequence[str], marked: set[str], font: float) -> None:
    """Row and column labels as plain texts (gid ``"label:NAME"``), not ticks: 400 ticks are slow."""
    from matplotlib.transforms import ScaledTranslation, blended_transform_factory

    fig = ax.figure
    ax.set_xticks([])
    ax.set_yticks([])
    rows = blended_transform_factory(ax.transAxes, ax.transData) + ScaledTranslation(-3 / 72, 0, fig.dpi_scale_trans)
    cols = blended_transform_factory(ax.transData, ax.transAxes) + ScaledTranslation(0, -3 / 72, fig.dpi_scale_trans)
    for k, system in enumerate(order):
        bold = {"fontweight": "bold", "backgroundcolor": WINNER_COLOR} if system in marked else {}
        label = short(system)
        ax.text(0.0, k, label, transform=rows, ha="right", va="center", fontsize=font, gid=f"label:{system}",
                **bold)
        ax.text(k, 0.0, label, transform=cols, ha="center", va="top", rotation=90, fontsize=font,
                gid=f"label:{system}", **bold)


def heatmap_geometry(labels: Sequence[str]) -> dict[str, float]:
    """Inches of a heatmap of these systems: label room, grid side, colour-bar room, title room.

    Parameters
    ----------
    labels : sequence of str
        The systems (their count sets the row height, their names' lengths the label room).

    Returns
    -------
    dict
        ``room`` (left and bottom label room), ``grid`` (side of the square of cells),
        ``bar`` (right room for the colour bar), ``title``, ``width`` and ``height`` of a
        figure holding just the heatmap.

    Examples
    --------
    >>> g = heatmap_geometry([f"s{i}" for i in range(100)])
    >>> g["grid"], g["width"] > g["height"]
    (12.0, True)
    """
    n = len(labels)
    grid = n * cell_inches(n)
    room = text_inches(longest(labels), label_font(n)) + 0.25
    bar, title = 1.3, 0.55
    return {"room": room, "grid": grid, "bar": bar, "title": title,
            "width": max(4.0, room + grid + bar + 0.1), "height": max(3.5, room + 0.35 + grid + title)}


def margin_heatmap_size(labels: Sequence[str]) -> tuple[float, float]:
    """Width and height (inches) of a margin heatmap of these systems: a readable row per system.

    Parameters
    ----------
    labels : sequence of str
        The systems (their names' lengths set the room left for labels).

    Returns
    -------
    (float, float)

    Examples
    --------
    >>> w, h = margin_heatmap_size([f"s{i}" for i in range(100)])
    >>> 12 < h < 25 and w > h
    True
    """
    g = heatmap_geometry(labels)
    return g["width"], g["height"]


def heatmap_axes(fig: Any, labels: Sequence[str], *, x0: float = 0.0) -> tuple[Any, Any]:
    """Place a heatmap's axes and colour-bar axes in `fig` at computed margins (no layout engine).

    Computing the margins from the labels instead of measuring them with the constrained
    layout keeps a 200-system heatmap fast to save.

    Parameters
    ----------
    fig : matplotlib Figure
        A figure without layout engine, at least :func:`heatmap_geometry` in size.
    labels : sequence of str
        The systems.
    x0 : float, default=0.0
        Left edge of the heatmap's block, in inches.

    Returns
    -------
    tuple
        ``(axes, colour-bar axes)``.
    """
    g = heatmap_geometry(labels)
    width, height = fig.get_size_inches()
    top = height - g["title"]
    bottom = top - g["grid"]

    def rect(left: float, low: float, w: float, h: float) -> list[float]:
        return [left / width, low / height, w / width, h / height]

    ax = fig.add_axes(rect(x0 + g["room"], bottom, g["grid"], g["grid"]))
    bar_h = min(g["grid"], 4.0)
    cax = fig.add_axes(rect(x0 + g["room"] + g["grid"] + 0.15, top - bar_h, 0.18, bar_h))
    return ax, cax


@fill_doc(PLOT_DOCS)
def plot_margin_heatmap(
    data: Any,
    *,
    ranking: Sequence[str] | None = None,
    highlight: Sequence[str] | None = None,
    ax: Axes | None = None,
    cax: Axes | None = None,
    top: int | None = None,
) -> Figure:
    """The majority margins as a heatmap: cell ``(i, j)`` is how much row ``i`` beats column ``j``.

    Rows and columns follow `ranking` (pass the Kemeny ranking: a consistent relation is
    then blue above the diagonal, and every red cell above it is a pair the ranking
    overrules). The colormap diverges at 0 (a majority tie is white) on a symmetric scale;
    cells are annotated with their margin up to 15 systems; the Condorcet winner (or the
    systems in `highlight`) has a bold label on a :data:`WINNER_COLOR` background. Label
    sizes and the figure size follow the number of systems (readable up to 200 systems).

    Parameters
    ----------
    {majority_data}
    {margin_ranking}
    highlight : sequence of str, optional
        Systems whose labels to mark (default: the Condorcet winner, if any).
    {ax}
    cax : matplotlib Axes, optional
        Draw the colour bar into this axes (default: next to `ax`).
    top : int, optional
        Draw only the first `top` systems of `ranking` (the title says so; the Condorcet
        winner and the colour scale are still those of every system). :func:`plot_margin_overview` draws them all
        without names.

    Returns
    -------
    matplotlib.figure.Figure
        The image has gid ``"margins"``, the row and column labels ``"label:NAME"`` (in
        row order, each row label before its column label); ``fig.consensus_nodes`` lists the rows;
        ``fig.consensus_kind`` is ``"heatmap"``.

    Raises
    ------
    InvalidOptionError
        If `data` is not a supported input, `ranking` does not list every system exactly
        once, or `highlight` names a system that is not in `data`.
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_margin_heatmap(cs.load_example("votenrank-toy"), ranking=["B", "C", "D", "A"])
    >>> fig.axes[0].images[0].get_array().shape, fig.consensus_nodes[0]
    ((4, 4), 'B')
    """
    pairs = as_pairwise(data)
    order, marked, winner = _order_and_marks(pairs, ranking, highlight)
    n_all = len(order)
    if top is not None:
        if top < 1:
            raise InvalidOptionError(f"top must be a positive number of systems, got {top}")
        order = order[:top]
    margins, scale = _ordered_margins(pairs, order)
    n = len(order)
    if ax is None:
        fig = matplotlib_modules()[1](figsize=margin_heatmap_size(order))
        ax, cax = heatmap_axes(fig, order)
    fig = cast("Figure", ax.figure)  # or the SubFigure of `ax`, drawn into and tagged alike
    image = ax.imshow(margins, cmap="RdBu", vmin=-scale, vmax=scale, interpolation="nearest", aspect="equal")
    image.set_gid("margins")
    if n <= 15:
        for i in range(n):
            for j in range(n):
                if i != j:
                    ax.text(j, i, f"{margins[i, j]:.2g}", ha="center", va="center", fontsize=7,
                            color="white" if abs(margins[i, j]) > 0.6 * scale else "black")
    _label_cells(ax, order, marked, label_font(n))
    title = f"Majority margins, row over column: Condorcet winner {short(winner)}" if winner else (
        "Majority margins, row over column: no Condorcet winner")
    if n < n_all:
        title = f"{title}\n(the first {n} of {n_all} systems)"
    ax.set_title(title, fontsize=10, loc="left")
    if cax is not None:
        bar = fig.colorbar(image, cax=cax)
    else:
        bar = fig.colorbar(image, ax=ax, shrink=0.8 if n <= 30 else 0.4, pad=0.01)
    bar.set_label("margin (task weight)\nblue: row beats column", fontsize=8)
    bar.ax.tick_params(labelsize=7)
    fig.consensus_nodes = tuple(order)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    fig.consensus_kind = "heatmap"  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    return fig


@fill_doc(PLOT_DOCS)
def plot_margin_overview(data: Any, *, ranking: Sequence[str] | None = None, outline: int = 0,
                         ax: Axes | None = None) -> Figure:
    """The majority margins of every system, without names: the shape of a large board.

    Rows and columns follow `ranking` (the Kemeny ranking: red above the diagonal marks a
    pair the ranking overrules); the axes count positions (1 at the top left), ticked at
    round steps, so 350 systems draw as fast as 30. The first `outline` systems, drawn with
    names by :func:`plot_margin_heatmap` (``top=``), are outlined.

    Parameters
    ----------
    {majority_data}
    {margin_ranking}
    outline : int, default=0
        Outline the first `outline` rows and columns (0: none).
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        The image has gid ``"overview"``; ``fig.consensus_nodes`` lists the rows.

    Raises
    ------
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_margin_overview(cs.datasets.gumbel_leaderboard(40, 5, seed=0), outline=10)
    >>> fig.axes[0].images[0].get_array().shape
    (40, 40)
    """
    pairs = as_pairwise(data)
    order, _, _ = _order_and_marks(pairs, ranking, None)
    margins, scale = _ordered_margins(pairs, order)
    n = len(order)
    fig, ax = new_axes(ax, (6.0, 6.0))
    image = ax.imshow(margins, cmap="RdBu", vmin=-scale, vmax=scale, interpolation="nearest", aspect="equal")
    image.set_gid("overview")
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if n / s <= 8)
    ticks = [0] + [k - 1 for k in range(step, n + 1, step) if k > 1]
    ax.set_xticks(ticks, [str(k + 1) for k in ticks], fontsize=7)
    ax.set_yticks(ticks, [str(k + 1) for k in ticks], fontsize=7)
    ax.tick_params(length=2, pad=1)
    if 0 < outline < n:
        from matplotlib.patches import Rectangle

        box = Rectangle((-0.5, -0.5), outline, outline, fill=False, edgecolor="#333333", linewidth=1.2)
        box.set_gid("outline")
        ax.add_patch(box)
    ax.set_xlabel("position in the ranking (columns)", fontsize=8)
    ax.set_ylabel("position (rows)", fontsize=8)
    what = f", the first {outline} outlined" if 0 < outline < n else ""
    ax.set_title(f"All {n} systems in ranking order{what}", fontsize=9, loc="left")
    fig.consensus_nodes = tuple(order)  # type: ignore[attr-defined]  # consensus_* metadata set on the Figure
    return fig
