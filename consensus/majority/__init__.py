"""Pairwise comparisons and the majority relation.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

===================  ======================================================================
module               what it holds
===================  ======================================================================
:mod:`._pairwise`    Weighted pairwise matrices: how much task weight prefers each system
                     to each other
:mod:`._inputs`      Accepted inputs: the one place that turns any supported input into a
                     PairwiseMatrix
:mod:`._relation`    The weighted majority relation: graph, Condorcet winner and loser,
                     Smith set, Pareto
===================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "PairwiseMatrix": "_pairwise",
    "pairwise": "_pairwise",
    "as_pairwise": "_inputs",
    "majority_graph": "_relation",
    "majority_ties": "_relation",
    "beats": "_relation",
    "condorcet_winner": "_relation",
    "is_condorcet_winner": "_relation",
    "weak_condorcet_winners": "_relation",
    "condorcet_loser": "_relation",
    "smith_set": "_relation",
    "condorcet_cycle": "_relation",
    "pareto_dominated": "_relation",
    "majority_summary": "_relation",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._inputs import as_pairwise
    from ._pairwise import PairwiseMatrix, pairwise
    from ._relation import (
        beats,
        condorcet_cycle,
        condorcet_loser,
        condorcet_winner,
        is_condorcet_winner,
        majority_graph,
        majority_summary,
        majority_ties,
        pareto_dominated,
        smith_set,
        weak_condorcet_winners,
    )
