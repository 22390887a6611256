"""The validated data: leaderboards, instance-level scores, coverage.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

======================  ======================================================================
module                  what it holds
======================  ======================================================================
:mod:`._leaderboard`    The validated leaderboard: systems x tasks scores, directions,
                        weights, groups
:mod:`._instances`      Instance-level scores: one score per system, task and test instance
:mod:`._task_scores`    TaskScores: what task-level and instance-level score tables share
                        (weights, directions, lookups)
:mod:`._validation`     Checks shared by every score table: labels, task names, weights,
                        groups
:mod:`._coverage`       Coverage: how much of a leaderboard each system was evaluated on, and
                        which claims rest on little
======================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "Leaderboard": "_leaderboard",
    "MISSING_MARKERS": "_leaderboard",
    "InstanceScores": "_instances",
    "TaskScores": "_task_scores",
    "finite_number": "_validation",
    "check_scores": "_validation",
    "label_text": "_validation",
    "check_labels": "_validation",
    "check_task_names": "_validation",
    "weight_value": "_validation",
    "check_weights": "_validation",
    "check_groups": "_validation",
    "LOW_COVERAGE": "_coverage",
    "comparability": "_coverage",
    "set_aside": "_coverage",
    "with_min_coverage": "_coverage",
    "claims_of": "_coverage",
    "coverage_flags": "_coverage",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._coverage import (
        LOW_COVERAGE,
        claims_of,
        comparability,
        coverage_flags,
        set_aside,
        with_min_coverage,
    )
    from ._instances import InstanceScores
    from ._leaderboard import MISSING_MARKERS, Leaderboard
    from ._task_scores import TaskScores
    from ._validation import (
        check_groups,
        check_labels,
        check_scores,
        check_task_names,
        check_weights,
        finite_number,
        label_text,
        weight_value,
    )
