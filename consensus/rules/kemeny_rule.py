"""The exact Kemeny consensus (:func:`consensus.kemeny`) as a rule: a RuleResult like every other rule."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..exact._kemeny import kemeny as _kemeny
from ..majority._pairwise import PairwiseMatrix
from ..results import RuleResult
from .declaration import keyword_options, rule
from .engine import run_rule
from .spec import SHARED_OPTION_NAMES, CoreOutput, RuleSpec, pairwise_of

__all__ = ["kemeny"]


def _kemeny_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    target = pairwise_of(data, True) if impute else data
    if isinstance(target, Leaderboard) and target.has_missing:  # the engine applied min_coverage: rank what it hands over
        opts = {**opts, "min_coverage": 0}
    res = _kemeny(target, **opts)
    systems = data.systems if isinstance(data, (Leaderboard, PairwiseMatrix)) else res.order
    below: dict[str, float] = {}
    remaining = len(res.order)
    for group in res.ranking:  # the score: systems strictly below (a weak order's tied systems share it)
        remaining -= len(group)
        below.update((s, float(remaining)) for s in group)
    scores = np.array([below[s] for s in systems])
    return CoreOutput(scores, {"kemeny": res}, ranking=res.ranking)


_SPEC = RuleSpec("kemeny", "exact", _kemeny_core, True, True, True)


@rule(
    _SPEC,
    linear="use condorcet_weights / weight_sensitivity(rule='kemeny') on the majority margins", options=keyword_options(_kemeny), any_option=True,
)
def kemeny(data: Leaderboard | PairwiseMatrix, **kemeny_options: Any) -> RuleResult:
    """The exact Kemeny consensus (:func:`consensus.exact._kemeny.kemeny`) as a RuleResult.

    Options of :func:`rank` (``missing``, ``weighting``, ``group_weights``, ``two_step``,
    ``tie_break``) are handled here; every other option goes to
    :func:`consensus.exact._kemeny.kemeny`. The ranking is one system per group (the consensus
    order), ``scores`` the number of systems ranked below each system, and
    ``details["kemeny"]`` the KemenyResult (objective, bound, status).

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        Scores, systems x tasks, or their weighted pairwise matrix (used as it is). With
        ``missing=None`` missing scores are allowed: each pair is compared on the tasks
        both are scored on.
    **kemeny_options
        {shared_options}
        The other options are the keyword options of :func:`consensus.exact._kemeny.kemeny` (``method``,
        ``time_limit``, ``solver``, ...), recorded in ``result.options``. Any other name
        raises :class:`InvalidOptionError` listing the options.

    Returns
    -------
    RuleResult
        ``ranking``: one system per tie group, the consensus order; ``scores``: the
        number of systems ranked below each system; ``details["kemeny"]``: the
        KemenyResult.

    Raises
    ------
    InvalidOptionError
        A shared option is invalid or cannot apply to `data` (a pairwise matrix takes
        only ``tie_break="lexicographic"``), `data` has an unsupported type, or an
        option of :func:`consensus.exact._kemeny.kemeny` is invalid (method, solver name, time
        limit, cap, brute force on more than 8 systems).
    SolverNotAvailableError
        The solver named by ``solver`` is not installed here.
    SolveFailedError
        The solver failed or, without a time limit, stopped before proving optimality.

    Examples
    --------
    >>> import consensus as cs
    >>> res = kemeny(cs.load_example("votenrank-toy"))
    >>> res.ranking, res.scores.tolist()
    ((('B',), ('C',), ('D',), ('A',)), [0.0, 3.0, 2.0, 1.0])
    >>> res.details["kemeny"].objective
    12.0
    """
    shared = {k: kemeny_options.pop(k) for k in list(kemeny_options) if k in SHARED_OPTION_NAMES}
    params = inspect.signature(_kemeny).parameters.values()
    own = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    unknown = [] if any(p.kind is p.VAR_KEYWORD for p in params) else sorted(set(kemeny_options) - set(own))
    if unknown:
        takes = ", ".join(sorted({*own, *SHARED_OPTION_NAMES}))
        raise InvalidOptionError(f"kemeny takes no option(s) {', '.join(unknown)}; it takes {takes}")
    return run_rule(_SPEC, data, kemeny_options, shared)

