"""The docstring entries the missing-score questions share, written once (:func:`consensus._docstrings.fill_doc`).

A line ``{name}`` in a docstring of this stage's modules becomes the entry below: the searches
over completions (Borda in :mod:`._possible_borda`, Copeland and Minimax in
:mod:`._possible_majority`), the questions of :mod:`._possible`, the imputations of
:mod:`._impute` and :mod:`._imputation_sums`, and the sums over an :class:`InstanceSource`.
"""

from __future__ import annotations

__all__ = ["SECTIONS"]

SECTIONS: dict[str, str] = {
    # the searches over completions (_possible_borda, _possible_majority)
    "values": "values : numpy.ndarray\n    Oriented scores (systems x tasks, higher is better), NaN where missing.",
    "weights": "weights : numpy.ndarray\n    One weight per task.",
    "upper": "upper : numpy.ndarray\n    :func:`pair_bounds` of `values`.",
    "target": "target : int\n    The system asked about.",
    "time_limit": ("time_limit : float or None\n    Seconds for the system's integer programs together "
                   "(:func:`~consensus.missing._possible_borda.shared`)."),
    "board": "board : MajorityBoard\n    The board, its rule and bounds.",
    "defer": ("defer : bool, default=False\n"
              "    Stop before the integer programs and return them as ``resume`` of an undecided answer\n"
              "    (``decided_by=\"deferred\"``), so that a caller under a total budget runs every system's\n"
              "    cheaper steps first."),
    "search_answer": ("SearchAnswer\n"
                      "    Possible and possible strictly (None when undecided), the witness completion\n"
                      "    (oriented), the rivals in the way, and what decided it."),
    # possible_winners, rank_ranges
    "bounds_unknown_task": "UnknownTaskError\n    `bounds` names a task that is not on the leaderboard.",
    # the imputations
    "not_scores": "InvalidOptionError\n    If `data` is neither a Leaderboard nor InstanceScores.",
    "scheduler": "scheduler : optional\n    See :func:`impute_pairwise`.",
    # the sums over an InstanceSource (on Dask, or streamed in bounded memory)
    "per_task": "per_task : bool\n    Also sum the per-task row sums and per-task comparison counts (``sigma_2l``).",
    "source_unknown_task": "UnknownTaskError\n    `lower_is_better` or `weights` name a task that is not in the data.",
    "no_dask": "ImportError\n    Dask is not installed.",
}
