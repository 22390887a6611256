"""Scoring (positional) and iterative rules: points by position on each task, Threshold, Baldwin.

References
----------
.. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.1-2.2.2 and appendix A.
.. [2] Pinter, "Apres toi: scoring systems based on dataset votes", section 2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Unpack

import numpy as np

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..hints import hinted, option
from ..results import RuleResult
from .declaration import rule
from .engine import run_rule
from .imputed import expected_points
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_choice,
    complete_values,
    pairwise_of,
)

__all__ = ["scoring_vector", "plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision"]

Ties = Literal["average", "min", "max"]

_TIES = ("average", "min", "max")
_EUROVISION = (12.0, 10.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)


# ====================================================================== positional machinery
def scoring_vector(rule: str, n_systems: int, vector: Sequence[float] | None = None) -> np.ndarray:
    """Return the points for positions 1..n of the named scoring rule.

    Parameters
    ----------
    rule : str
        A positional rule name; ``"scoring"`` uses `vector` (padded with zeros).
    n_systems : int
        Number of positions.
    vector : sequence of float, optional
        For ``"scoring"`` only: finite, non-increasing, at most `n_systems` points.

    Returns
    -------
    numpy.ndarray
        `n_systems` points, position 1 first.

    Raises
    ------
    InvalidOptionError
        `rule` has no scoring vector, `n_systems` is not an integer >= 1, or
        (``"scoring"``) a bad or missing `vector`.

    Examples
    --------
    >>> scoring_vector("borda", 4).tolist()
    [3.0, 2.0, 1.0, 0.0]
    >>> scoring_vector("eurovision", 12).tolist()
    [12.0, 10.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0]
    >>> scoring_vector("top_ten", 3).tolist()
    [10.0, 9.0, 8.0]
    """
    if isinstance(n_systems, bool) or not isinstance(n_systems, (int, np.integer)) or n_systems < 1:
        raise InvalidOptionError(f"n_systems must be an integer >= 1, got {n_systems!r}")
    n = int(n_systems)
    p = np.arange(n, dtype=np.float64)  # 0-based position
    if rule == "plurality":
        return (p == 0).astype(np.float64)
    if rule == "borda":
        return n - 1 - p
    if rule == "dowdall":
        return 1.0 / (p + 1.0)
    if rule == "rank_complement":
        return n - p
    if rule == "top_ten":
        return np.maximum(10.0 - p, 0.0)
    if rule == "eurovision":
        c = np.zeros(n)
        k = min(n, len(_EUROVISION))
        c[:k] = _EUROVISION[:k]
        return c
    if rule == "scoring":
        return _user_vector(vector, n)
    raise InvalidOptionError(f"no scoring vector for rule {rule!r}")


def _user_vector(vector: Sequence[float] | None, n: int) -> np.ndarray:
    if vector is None:
        raise InvalidOptionError("rule 'scoring' needs vector=(c1, c2, ...): points for positions 1, 2, ...")
    try:
        c = np.asarray(vector, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"rule 'scoring': vector must hold numbers, got {vector!r}") from None
    if c.ndim != 1 or len(c) == 0:
        raise InvalidOptionError(f"rule 'scoring': vector must be a non-empty sequence of numbers, got {vector!r}")
    if not np.all(np.isfinite(c)):
        raise InvalidOptionError(f"rule 'scoring': vector must be finite, got {vector!r}")
    if len(c) > n:
        raise InvalidOptionError(
            f"rule 'scoring': vector has {len(c)} entries but there are only {n} systems (positions)"
        )
    padded = np.concatenate([c, np.zeros(n - len(c))])  # the positions not listed earn 0
    if np.any(np.diff(padded) > 0):
        k = int(np.nonzero(np.diff(padded) > 0)[0][0])
        padding = " (the positions past the vector earn 0)" if k + 1 >= len(c) else ""
        raise InvalidOptionError(
            f"rule 'scoring': vector must be non-increasing (a better position never earns fewer points), "
            f"but position {k + 2} gets {float(padded[k + 1])!r} > {float(padded[k])!r}{padding}"
        )
    return padded


def tie_ranges(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per task, the best and worst 1-based positions each system's tie group occupies.

    Parameters
    ----------
    values : numpy.ndarray
        Complete oriented scores (higher is better), systems x tasks.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        First and last positions, int64, same shape as `values`; equal for untied systems.

    Examples
    --------
    >>> import numpy as np
    >>> first, last = tie_ranges(np.array([[3.0], [1.0], [3.0]]))
    >>> first.ravel().tolist(), last.ravel().tolist()
    ([1, 3, 1], [2, 3, 2])
    """
    neg = -np.asarray(values, dtype=np.float64)
    ordered = np.sort(neg, axis=0)
    first = np.empty(neg.shape, dtype=np.int64)
    last = np.empty(neg.shape, dtype=np.int64)
    for j in range(neg.shape[1]):  # per task: how many systems score strictly better / at least as well
        first[:, j] = np.searchsorted(ordered[:, j], neg[:, j], side="left") + 1
        last[:, j] = np.searchsorted(ordered[:, j], neg[:, j], side="right")
    return first, last


def position_points(c: np.ndarray, values: np.ndarray, ties: str) -> np.ndarray:
    """Points (systems x tasks) of scoring vector `c` for complete oriented scores `values`.

    Parameters
    ----------
    c : numpy.ndarray
        Points for positions 1..n (see :func:`scoring_vector`).
    values : numpy.ndarray
        Complete oriented scores (higher is better), systems x tasks.
    ties : {"average", "min", "max"}
        Points of tied systems: the mean of the points of the positions they occupy, the
        points of the best of them, or of the worst.

    Returns
    -------
    numpy.ndarray
        Float points, same shape as `values`.

    Examples
    --------
    >>> import numpy as np
    >>> position_points(np.array([2.0, 1.0, 0.0]), np.array([[3.0], [1.0], [3.0]]), "average").ravel().tolist()
    [1.5, 0.0, 1.5]
    """
    first, last = tie_ranges(values)
    if ties == "min":
        return c[first - 1]
    if ties == "max":
        return c[last - 1]
    cum = np.concatenate([[0.0], np.cumsum(c)])
    shared = (cum[last] - cum[first - 1]) / (last - first + 1)
    return np.where(first == last, c[first - 1], shared)  # untied positions: exact points


def positional_core(rule: str) -> Callable[[Any, Mapping[str, Any], bool], CoreOutput]:
    """Build the core of positional rule `rule`, for its :class:`RuleSpec`.

    Parameters
    ----------
    rule : str
        A positional rule name (see :func:`scoring_vector`).

    Returns
    -------
    callable
        ``core(lb, opts, impute) -> CoreOutput``: the weighted sum of the points of
        ``opts["ties"]`` (and ``opts["vector"]`` for ``"scoring"``) over the tasks; with
        `impute` the expected points over the complete rankings compatible with each task
        (:func:`consensus.rules.imputed.expected_points`; Borda with ``ties="average"``: the
        row sums of the imputed pairwise matrix, the same numbers). The core raises
        InvalidOptionError for a bad vector, or `impute` on a pairwise matrix (instance-level
        scores) with ties other than ``"average"``.

    Examples
    --------
    >>> import consensus as cs
    >>> out = positional_core("borda")(cs.load_example("votenrank-toy"), {"ties": "average"}, False)
    >>> out.scores.tolist(), out.details
    ([6.0, 9.0, 8.0, 7.0], {'vector': (3.0, 2.0, 1.0, 0.0)})
    """
    def core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
        ties = opts["ties"]
        if impute and (not isinstance(lb, Leaderboard) or (rule == "borda" and ties == "average")):
            # Borda: sigma_l of Himmi et al., the row sums of the imputed pairwise matrix (equal
            # to the expected Borda points; a matrix is all InstanceScores give)
            if ties != "average":
                raise InvalidOptionError(hinted(
                    "rule {!r}: {} on instance-level scores needs ties='average': the imputed pairwise matrix "
                    "already splits every tied or unscored pair half and half", rule, option("missing", "impute"),
                ))
            p = pairwise_of(lb, True)
            return CoreOutput((p.wins + p.ties / 2.0).sum(axis=1), {"vector": "sum of the imputed pairwise matrix"})
        c = scoring_vector(rule, lb.n_systems, opts.get("vector"))
        details: dict[str, Any] = {"vector": tuple(float(x) for x in c)}
        if impute:  # expected points over the compatible complete rankings of each task
            points = expected_points(lb, c, ties)
            details["imputation"] = "expected points over the compatible complete rankings of each task"
        else:
            points = position_points(c, complete_values(lb), ties)
        with np.errstate(over="ignore"):  # points near 1e308: inf, refused by run_rule (ScoreOverflowError)
            return CoreOutput(points @ lb.weight_array, details)

    return core


def check_ties(ties: Any, rule: str) -> str:
    """Check the `ties` option of a positional rule.

    Parameters
    ----------
    ties : object
        The option as given.
    rule : str
        Rule name, for the message.

    Returns
    -------
    str
        `ties`: ``"average"``, ``"min"`` or ``"max"``.

    Raises
    ------
    InvalidOptionError
        If `ties` is not one of those.

    Examples
    --------
    >>> check_ties("min", "borda")
    'min'
    """
    return str(check_choice("ties", ties, _TIES, rule))


_SPECS: dict[str, RuleSpec] = {
    name: RuleSpec(name, "positional", positional_core(name), impute=True)
    for name in ("plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision")
}


def _positional(rule: str, data: Any, ties: Any, options: Mapping[str, Any], **extra: Any) -> RuleResult:
    return run_rule(_SPECS[rule], data, {"ties": check_ties(ties, rule), **extra}, options)


# ====================================================================== public rules
@rule(_SPECS["plurality"], linear=True)
def plurality(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Plurality: one point for first place on each task, c = (1, 0, ..., 0).

    Score: the (weighted) number of tasks a system wins; systems tied for first place share
    the point (``ties="average"``), each get it (``"min"``) or none get it (``"max"``).

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the (weighted) first places; ``details["vector"]``: the points by position.

    Raises
    ------
    {positional_raises}

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.1.

    Examples
    --------
    >>> import consensus as cs
    >>> plurality(cs.load_example("votenrank-toy")).scores.tolist()
    [2.0, 1.0, 1.0, 1.0]
    """
    return _positional("plurality", data, ties, options)


@rule(_SPECS["borda"], linear=True)
def borda(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Borda: c = (|M|-1, |M|-2, ..., 1, 0) points by position on each task.

    With ``ties="average"`` a system's Borda score equals the weight of the (system, task,
    rival) triples it beats plus half the ties, so ``missing="impute"`` scores
    ``sum_j wins[i, j] + ties[i, j] / 2`` of the imputed pairwise matrix (sigma_l of
    Himmi et al.), which is the same number when no score is missing.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        InstanceScores only with ``missing="impute"``.
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the (weighted) Borda points; ``details["vector"]``: the points by
        position (with ``missing="impute"``: ``"sum of the imputed pairwise matrix"``).

    Raises
    ------
    InvalidOptionError
        A bad `ties` (with ``missing="impute"`` on InstanceScores: not ``"average"``) or
        shared option, or
        `data` neither a Leaderboard nor (with ``missing="impute"``) InstanceScores.
    MissingScoreError
        Missing scores with ``missing=None``.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.1 and appendix A.1.
    .. [2] Himmi et al. 2023, sec. 2.2 (Borda on the pairwise matrix).

    Examples
    --------
    >>> import consensus as cs
    >>> res = borda(cs.load_example("votenrank-toy"))
    >>> res.scores.to_dict(), res.winners
    ({'A': 6.0, 'B': 9.0, 'C': 8.0, 'D': 7.0}, ('B',))
    """
    return _positional("borda", data, ties, options)


@rule(_SPECS["dowdall"], linear=True)
def dowdall(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Dowdall: c = (1, 1/2, ..., 1/|M|).

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        {points}

    Raises
    ------
    {positional_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> res = dowdall(cs.load_example("votenrank-toy"))
    >>> [round(x, 4) for x in res.scores], res.winners
    ([2.75, 2.75, 2.5, 2.4167], ('A', 'B'))
    """
    return _positional("dowdall", data, ties, options)


@rule(_SPECS["scoring"], linear=True)
def scoring(
    data: Leaderboard, *, vector: Sequence[float] | None = None, ties: Ties = "average", **options: Unpack[SharedOptions]
) -> RuleResult:
    """A scoring rule with any non-increasing vector of points for positions 1, 2, ...

    A vector shorter than the number of systems is padded with zeros (``(1, 1, 1)`` is
    "approve the top three").

    Parameters
    ----------
    data : Leaderboard
    vector : sequence of float
        Points for positions 1, 2, ...: finite, non-increasing, at most one per system;
        required.
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the (weighted) points; ``details["vector"]``: `vector` padded with zeros.

    Raises
    ------
    InvalidOptionError
        No `vector`, or one that is not numeric, finite, non-increasing or short enough;
        a bad `ties` or shared option; or `data` not a Leaderboard.
    MissingScoreError
        Missing scores with ``missing=None``.

    Examples
    --------
    >>> import consensus as cs
    >>> scoring(cs.load_example("votenrank-toy"), vector=(1, 1)).scores.tolist()
    [2.0, 4.0, 2.0, 2.0]
    """
    if vector is not None and isinstance(vector, (Sequence, np.ndarray)) and not isinstance(vector, str):
        vector = tuple(vector)  # recorded in result.options; checked against the number of systems later
    return _positional("scoring", data, ties, options, vector=vector)


@rule(_SPECS["rank_complement"], linear=True)
def rank_complement(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Rank complement (Pinter, "Apres toi"): |M| + 1 - rank points, c = (|M|, ..., 1).

    Borda plus one point per (weighted) task, so it ranks exactly as Borda.

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        {points}

    Raises
    ------
    {positional_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> rank_complement(cs.load_example("votenrank-toy")).scores.tolist()
    [11.0, 14.0, 13.0, 12.0]
    """
    return _positional("rank_complement", data, ties, options)


@rule(_SPECS["top_ten"], linear=True)
def top_ten(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Top ten (Pinter, "Apres toi"): 11 - rank points for the top ten, 0 below.

    c = (10, 9, ..., 1, 0, ...); with fewer than ten systems the vector is cut, not rescaled.

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        {points}

    Raises
    ------
    {positional_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> top_ten(cs.load_example("votenrank-toy")).scores.tolist()
    [41.0, 44.0, 43.0, 42.0]
    """
    return _positional("top_ten", data, ties, options)


@rule(_SPECS["eurovision"], linear=True)
def eurovision(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Eurovision (Pinter, "Apres toi"): c = (12, 10, 8, 7, 6, 5, 4, 3, 2, 1, 0, ...).

    With fewer than ten systems the vector is cut, not rescaled.

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        {points}

    Raises
    ------
    {positional_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> eurovision(cs.load_example("votenrank-toy")).scores.tolist()
    [45.0, 49.0, 46.0, 45.0]
    """
    return _positional("eurovision", data, ties, options)
