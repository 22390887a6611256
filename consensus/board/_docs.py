"""The docstring entries the score tables share, written once (:func:`consensus._docstrings.fill_doc`).

A line ``{name}`` in a docstring of :class:`Leaderboard`, :class:`InstanceScores` or their
helpers (and of :meth:`consensus.PairwiseMatrix.index`, which takes a system label too) becomes
the entry below.
"""

from __future__ import annotations

__all__ = ["SECTIONS"]

SECTIONS: dict[str, str] = {
    "system": "system : str\n    A system label.",
    "task": "task : str\n    A task label.",
    "unknown_task": "UnknownTaskError\n    If `task` is not a task of the table; the message lists close names.",
    "lower_is_better": "lower_is_better : frozenset of str\n    Tasks where a lower score is better.",
    "lower_is_better_option": "lower_is_better : list of str, optional\n    Tasks where a lower score is better.",
    "weights_option": "weights : dict, optional\n    Task -> weight (finite, >= 0, not all zero); unlisted tasks weigh 1.",
    "label_raises": ("EmptyLabelError, DuplicateLabelError\n"
                     "    If a system or task label is blank, not a string, or repeated.\n"
                     "NoTaskError\n"
                     "    If there is no task.\n"
                     "TooFewSystemsError\n"
                     "    If there are fewer than 2 systems."),
    "empty_system": "EmptySystemError\n    If a system has no score at all.",
    "degenerate_task": "DegenerateTaskWarning\n    For each task on which every scored system ties.",
    "label_kind": "kind : str\n    ``\"system\"`` or ``\"task\"``, for the error message.",
    # with_weights of Leaderboard and InstanceScores
    "new_weights_note": ("The new weights replace the old ones entirely: a task not in `weights` weighs 1, "
                         "whatever it weighed before."),
    "new_weights": "weights : dict\n    Task -> weight (finite, >= 0, not all zero).",
    "new_weights_raises": ("UnknownTaskError\n"
                           "    If `weights` names a task that is not in the table.\n"
                           "InvalidWeightError\n"
                           "    If a weight is not a number, not finite or negative, or all weights are zero."),
}
