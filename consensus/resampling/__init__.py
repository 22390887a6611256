"""Resampled leaderboards: rank stability and repetitions.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

======================  ======================================================================
module                  what it holds
======================  ======================================================================
:mod:`._stability`      Rank uncertainty for every rule: how sure is this ranking?
:mod:`._repetitions`    Repetitions of a random experiment: one seed each, run here or on a
                        Dask cluster, same table
:mod:`._rule_runs`      Rank one leaderboard with several rules, cheaply and repeatably: the
                        inner loop of resampling
======================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "RESAMPLINGS": "_stability",
    "rank_stability": "_stability",
    "SOLVER_THREADS": "_repetitions",
    "check_progress": "_repetitions",
    "check_scheduler": "_repetitions",
    "run_repetitions": "_repetitions",
    "spawn_seeds": "_repetitions",
    "DEFAULT_RULES": "_rule_runs",
    "RuleRun": "_rule_runs",
    "check_rules": "_rule_runs",
    "loop_options": "_rule_runs",
    "rule_positions": "_rule_runs",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._repetitions import (
        SOLVER_THREADS,
        check_progress,
        check_scheduler,
        run_repetitions,
        spawn_seeds,
    )
    from ._rule_runs import (
        DEFAULT_RULES,
        RuleRun,
        check_rules,
        loop_options,
        rule_positions,
    )
    from ._stability import RESAMPLINGS, rank_stability
