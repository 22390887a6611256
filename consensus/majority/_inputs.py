"""Accepted inputs: the one place that turns any supported input into a PairwiseMatrix.

Every pairwise-based function (majority relation, Condorcet rules, Kemeny, comparison)
calls :func:`as_pairwise` on its data argument, so each of them accepts:

- a :class:`~consensus.PairwiseMatrix` (used as is);
- a :class:`~consensus.Leaderboard` (:func:`consensus.pairwise`);
- :class:`~consensus.InstanceScores` (the imputed matrix of
  :func:`consensus.impute_pairwise`, one level);
- any object with a ``to_pairwise()`` method returning a PairwiseMatrix (e.g. an
  :class:`~consensus.results.ImputationResult`).
"""

from __future__ import annotations

from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..missing._impute import impute_pairwise
from ._pairwise import PairwiseMatrix, pairwise

__all__ = ["as_pairwise"]


def as_pairwise(data: object) -> PairwiseMatrix:
    """A PairwiseMatrix from any supported input.

    Parameters
    ----------
    data : PairwiseMatrix, Leaderboard, InstanceScores, or an object with ``to_pairwise()``
        See the module docstring.

    Returns
    -------
    PairwiseMatrix

    Raises
    ------
    InvalidOptionError
        If `data` is none of these, or its ``to_pairwise()`` returns something else.

    Examples
    --------
    >>> import consensus as cs
    >>> as_pairwise(cs.load_example("votenrank-toy")).systems
    ('A', 'B', 'C', 'D')
    """
    if isinstance(data, PairwiseMatrix):
        return data
    if isinstance(data, Leaderboard):
        return pairwise(data)
    if isinstance(data, InstanceScores):
        return impute_pairwise(data).matrix
    if hasattr(data, "to_pairwise"):
        result = data.to_pairwise()
        if not isinstance(result, PairwiseMatrix):
            raise InvalidOptionError(f"{type(data).__name__}.to_pairwise() did not return a PairwiseMatrix")
        return result
    raise InvalidOptionError(
        f"expected a Leaderboard, InstanceScores, PairwiseMatrix or ImputationResult, got {type(data).__name__}"
    )
