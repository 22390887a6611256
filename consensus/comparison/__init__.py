"""How far the rules land from the exact answers; the whole analysis.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

=========================  ======================================================================
module                     what it holds
=========================  ======================================================================
:mod:`._compare`           How far each shortcut lands from the exact answers: every rule against
                           the exact Kemeny ranking
:mod:`._analysis`          The analysis behind ``consensus analyze``: every answer about one
                           leaderboard, computed once
:mod:`._distances`         Distances between rankings: Kendall distance and tau with ties, top-k
                           agreement, task dispersion
:mod:`._task_distances`    Rankings against the tasks: each task's ranking, the Kemeny objective
                           of any ranking, task distances
=========================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "DEFAULT_RULES": "_compare",
    "COMPARE_POLICIES": "_compare",
    "auto_policy": "_compare",
    "compare_rules": "_compare",
    "compare": "_compare",
    "analyze": "_analysis",
    "example_checks": "_analysis",
    "published_values": "_analysis",
    "as_tiers": "_distances",
    "ranking_positions": "_distances",
    "kendall_tau_distance": "_distances",
    "kendall_tau": "_distances",
    "top_k_agreement": "_distances",
    "rank_changes": "_distances",
    "task_rankings": "_task_distances",
    "rank_vector": "_task_distances",
    "ranking_objective": "_task_distances",
    "task_distance": "_task_distances",
    "task_distances": "_task_distances",
    "task_dispersion": "_task_distances",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._analysis import analyze, example_checks, published_values
    from ._compare import (
        COMPARE_POLICIES,
        DEFAULT_RULES,
        auto_policy,
        compare,
        compare_rules,
    )
    from ._distances import (
        as_tiers,
        kendall_tau,
        kendall_tau_distance,
        rank_changes,
        ranking_positions,
        top_k_agreement,
    )
    from ._task_distances import (
        rank_vector,
        ranking_objective,
        task_dispersion,
        task_distance,
        task_distances,
        task_rankings,
    )
