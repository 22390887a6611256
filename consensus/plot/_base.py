"""Shared pieces of the figures: the lazy matplotlib import, colours, sizes that grow with the data.

Sizes are in inches; every figure uses matplotlib's constrained layout, so tick labels are
never clipped at the figure edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .._docstrings import fill_doc
from ..hints import visible

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Fill colour of the Condorcet winner (or highlighted systems) in the majority graph.
WINNER_COLOR = "#f2b134"
#: Fill colour of every other system.
NODE_COLOR = "#9ecae1"
#: Colour of a loss (a negative margin or advantage).
LOSS_COLOR = "#d6604d"
#: More bars than this are drawn horizontally (one row per label), so 100+ names stay readable.
BARS_UPRIGHT_MAX = 25
#: Up to this many systems the majority relation is drawn as a graph; above it, as a margin heatmap.
GRAPH_MAX_SYSTEMS = 15
#: Default number of systems of the rank-change chart (plus the systems entering a rule's top).
TOP_K = 10
#: Systems of the labelled margin heatmap in the analysis figure; a board with more adds an overview of all.
HEATMAP_TOP = 30
#: Smallest font size (points) of any label.
MIN_FONT = 6.0
#: Labels longer than this are shortened with an ellipsis (gids keep the full name).
LABEL_CHARS = 40

#: Docstring entries the figures share (:func:`consensus._docstrings.fill_doc`): the `ax`
#: parameter, the Raises entry of a missing matplotlib, and the `data` and `ranking` of the
#: majority-margin figures.
PLOT_DOCS: dict[str, str] = {
    "ax": "ax : matplotlib Axes, optional\n    Draw into this axes.",
    "no_matplotlib": "ImportError\n    If matplotlib is not installed.",
    "majority_data": "data : Leaderboard or PairwiseMatrix\n    Anything :func:`consensus.majority_graph` accepts.",
    "margin_ranking": "ranking : sequence of str, optional\n    Row and column order, best first (default: leaderboard order).",
}


@fill_doc(PLOT_DOCS)
def matplotlib_modules() -> tuple[Any, Any]:
    """Import matplotlib lazily (the ``plot`` extra).

    Returns
    -------
    tuple
        The ``matplotlib`` module and the ``matplotlib.figure.Figure`` class.

    Raises
    ------
    {no_matplotlib}
    """
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - exercised only without matplotlib
        raise ImportError("plotting needs matplotlib: pip install 'leaderboard-consensus[plot]'") from exc
    return matplotlib, Figure


def new_axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """The figure and axes to draw into: `ax` and its figure, or a new constrained-layout figure.

    Parameters
    ----------
    ax : matplotlib Axes or None
        An existing axes.
    size : (float, float)
        Width and height in inches of a new figure.

    Returns
    -------
    tuple
        ``(figure, axes)``.
    """
    _, figure_class = matplotlib_modules()
    if ax is not None:
        # typed Figure | SubFigure: a SubFigure's axes give the SubFigure, drawn into and tagged alike
        return cast("Figure", ax.figure), ax
    fig = figure_class(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def short(label: object, limit: int = LABEL_CHARS) -> str:
    """A label cut to `limit` characters with an ellipsis, drawn as written.

    Control and bidirectional characters are shown as escapes (``visible``) and ``$`` is
    escaped, so matplotlib never reads a name as math text (``$\\foo$`` would end a
    drawing with an error, ``cost $5 and $10`` would be drawn as math).

    Parameters
    ----------
    label : object
        Converted with ``str``.
    limit : int, default=LABEL_CHARS
        Longest label kept as it is.

    Returns
    -------
    str

    Examples
    --------
    >>> short("a-very-long-system-name", 10)
    'a-very-lo…'
    """
    text = visible(str(label))
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return text.replace("$", r"\$")  # drawn as written: a name is never matplotlib math text


def longest(labels: Sequence[object]) -> int:
    """Length of the longest shortened label (0 for none).

    Parameters
    ----------
    labels : sequence
        The labels.

    Returns
    -------
    int

    Examples
    --------
    >>> longest(["a", "abc"])
    3
    """
    return max((len(short(s)) for s in labels), default=0)


def label_font(n: int, *, roomy: float = 9.0) -> float:
    """Font size for `n` labels side by side: `roomy` up to 20 labels, down to :data:`MIN_FONT`.

    Parameters
    ----------
    n : int
        Number of labels along one axis.
    roomy : float, default=9.0
        The size for few labels.

    Returns
    -------
    float

    Examples
    --------
    >>> label_font(5), label_font(200)
    (9.0, 6.0)
    """
    if n <= 20:
        return roomy
    return max(MIN_FONT, roomy - (n - 20) / 20)


def cell_inches(n: int) -> float:
    """Height (or width) in inches of one row of a heatmap or a horizontal bar chart of `n` rows.

    Enough for a :func:`label_font` label per row.

    Parameters
    ----------
    n : int
        Number of rows.

    Returns
    -------
    float

    Examples
    --------
    >>> cell_inches(10), cell_inches(200)
    (0.3, 0.12)
    """
    return max(0.12, min(0.3, 0.3 - (n - 10) * 0.003))


def text_inches(chars: int, font: float) -> float:
    """Approximate width in inches of `chars` characters at `font` points.

    Parameters
    ----------
    chars : int
        Number of characters.
    font : float
        Font size in points.

    Returns
    -------
    float

    Examples
    --------
    >>> round(text_inches(20, 9.0), 2)
    1.5
    """
    return chars * font * 0.6 / 72.0
