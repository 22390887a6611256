"""Figures built for leaderboards of 3 to 200 systems.

matplotlib is an optional dependency (the ``plot`` extra), imported only when a figure is
made. Every function returns a :class:`matplotlib.figure.Figure` built without pyplot (no
global state, nothing shown), with a constrained layout and a size that grows with the
number of systems and the length of their names (labels never shrink below 6 pt and are
never clipped): save it with ``fig.savefig("out.png")``. Pass ``ax=`` to draw into an
existing axes instead (the figure of that axes is returned).

- :func:`plot_majority_graph`: the majority graph up to 15 systems, the margin heatmap
  (:func:`plot_margin_heatmap`, Kemeny order) above;
- :func:`plot_margin_overview`: the margins of every system without names (the analysis
  figure of a board over :data:`HEATMAP_TOP` (30) systems: the top 30 named, then this);
- :func:`plot_rank_changes`: the rank-change (bump) chart of the top k systems across rules;
- :func:`plot_condorcet_weights` / :func:`plot_certificate`: the weights that make a
  system win, or the rival blend that proves it never can, task by task;
- :func:`plot_weight_sensitivity`: the weight change per task that changes the winner;
- :func:`plot_experiment`: a robustness experiment's metric per setting and rule;
- :func:`plot_stability`: rank intervals per system and rule over resampled leaderboards
  (:func:`consensus.resampling._stability.rank_stability`), the top set highlighted;
- :func:`plot_rank_ranges`: each system's range of positions over every completion of the
  missing scores (:func:`consensus.missing.rank_ranges`), the median fill marked;
- :func:`plot_significance`: the leaderboard's rows in groups within noise
  (:func:`consensus.significance`), ``"group:k"`` for the band of group k;
- :func:`plot_confidence`, :func:`plot_bars`, :func:`plot_scores`, :func:`plot_analysis`.

The drawn artists carry ids (``Artist.get_gid()``) so that tests and users can check a
figure against its data: ``"edge:A->B"`` for a majority edge, ``"tie:A=B"`` for a
majority tie, ``"nodes"`` for the node collection (facecolors in ``fig.consensus_nodes``
order), ``"margins"`` for the margin heatmap, ``"overview"`` for the overview of every system, ``"system:NAME"`` for a line of the
rank-change chart, ``"confidence"`` for the confidence heatmap, ``"bar:LABEL"`` for a bar,
``"task:NAME"`` for a task of a certificate, ``"l1:TASK"`` / ``"linf:TASK"`` for a task's
weight change in :func:`plot_weight_sensitivity`, ``"interval:RULE:SYSTEM"`` for a rank
interval of :func:`plot_stability`.
"""

from __future__ import annotations

from ._base import (
    BARS_UPRIGHT_MAX,
    GRAPH_MAX_SYSTEMS,
    HEATMAP_TOP,
    NODE_COLOR,
    TOP_K,
    WINNER_COLOR,
)
from .analysis import plot_analysis, plot_confidence
from .certificate import blend_scores, plot_certificate, plot_condorcet_weights
from .experiments import plot_experiment
from .majority import plot_majority_graph, plot_margin_heatmap, plot_margin_overview
from .noise import plot_significance
from .possible import plot_rank_ranges
from .rankings import plot_bars, plot_rank_changes, plot_scores, rank_change_systems
from .sensitivity import plot_weight_sensitivity
from .stability import plot_stability

__all__ = [
    "BARS_UPRIGHT_MAX",
    "GRAPH_MAX_SYSTEMS",
    "HEATMAP_TOP",
    "NODE_COLOR",
    "TOP_K",
    "WINNER_COLOR",
    "blend_scores",
    "plot_analysis",
    "plot_bars",
    "plot_certificate",
    "plot_condorcet_weights",
    "plot_confidence",
    "plot_experiment",
    "plot_majority_graph",
    "plot_margin_heatmap",
    "plot_margin_overview",
    "plot_rank_changes",
    "plot_rank_ranges",
    "plot_scores",
    "rank_change_systems",
    "plot_weight_sensitivity",
    "plot_significance",
    "plot_stability",
]
