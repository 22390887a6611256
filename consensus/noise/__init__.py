"""Differences within noise: which systems differ beyond noise on each task (the ``noise`` stage).

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

======================  ===================================================================
module                  what it holds
======================  ===================================================================
:mod:`._significance`   :func:`significance`: the per-task relation (better / tied / worse)
                        from standard errors or instance-level scores
:mod:`._tests`          the paired tests (z, exact sign / McNemar, sign-flip permutation)
                        and the corrections over a task's pairs (Holm, Benjamini-Hochberg)
:mod:`._seen`           a leaderboard seen through a result: the pairwise matrix of its
                        relation (majority rules, Kemeny) and its tie groups (positional
                        rules)
======================  ===================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "significance": "_significance",
    "TESTS": "_significance",
    "CORRECTIONS": "_tests",
    "significance_pairwise": "_seen",
    "tie_group_board": "_seen",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._seen import significance_pairwise, tie_group_board
    from ._significance import TESTS, significance
    from ._tests import CORRECTIONS
