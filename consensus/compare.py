"""How far each shortcut lands from the exact answers: Kendall distances, agreement, dispersion.

Rankings may have ties. Everywhere in this module a *ranking* is given best first,
either as a tuple of labels (a strict order), as a tuple of tie groups
(``(("B",), ("A", "C"), ("D",))``), or as any result object with a ``ranking``
attribute (:class:`~consensus.results.RuleResult`, ``KemenyResult``).

Conventions (decided here, documented in ``docs/compare.md``):

- **Kendall distance with ties** is the distance with penalty ``p`` of Fagin et al.
  (2006): a pair ordered oppositely costs 1, a pair tied in one ranking and ordered in
  the other costs ``p`` (default 1/2), a pair tied in both costs 0. With ``p = 1/2`` it is
  a metric, and the weighted sum of these distances from a strict ranking to the task
  rankings is exactly the Kemeny objective (a task tie costs half, as in
  :attr:`PairwiseMatrix.preferences`). Pairs are unordered (Colombo et al. sum over
  ordered pairs, which doubles every count).
- **Kendall tau** is tau-b (Kendall 1945), which corrects for ties in either ranking;
  it is NaN when one of the rankings ties every system.
- **Kemeny objective of a ranking with ties** is the expected objective of a uniformly
  random tie-breaking: a tied pair costs half of the task weight that compares the two
  systems. It is never below the Kemeny optimum, so the gap is always >= 0.
- **Top-k agreement with ties**: a tie group straddling the cut-off contributes to the
  top-k set the share of its members that fit, ``slots / size`` each; the agreement is
  ``sum(min(share_a, share_b)) / k`` (the plain ``|top_k(a) & top_k(b)| / k`` of
  Vote'n'Rank and Colombo et al. for strict rankings, 1 for identical rankings).
- **Positions** are competition positions: 1 + the number of systems ranked strictly
  above; a **rank change** versus a baseline is ``baseline position - position``
  (positive: moved up, the arrows of Vote'n'Rank Table 3).

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice
   Theory", EACL 2023, sec. 3.1 (agreement rates, discriminative power, Table 3).
.. [2] Colombo et al., "What are the best systems? New perspectives on NLP
   benchmarking", NeurIPS 2022, sec. 3.4 and appendix C (dispersion).
.. [3] Fagin, Kumar, Mahdian, Sivakumar, Vee, "Comparing partial rankings",
   SIAM J. Discrete Math. 20(3), 2006 (Kendall distance with penalty p).
.. [4] Kendall, "The treatment of ties in ranking problems", Biometrika 33, 1945 (tau-b).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .errors import ConsensusError, InvalidOptionError, UnknownSystemError
from .pairwise import PairwiseMatrix, as_pairwise

if TYPE_CHECKING:  # pragma: no cover
    from .leaderboard import Leaderboard
    from .results import RuleComparison

__all__ = [
    "DEFAULT_RULES",
    "as_tiers",
    "ranking_positions",
    "kendall_tau_distance",
    "kendall_tau",
    "top_k_agreement",
    "rank_changes",
    "task_rankings",
    "ranking_objective",
    "task_distance",
    "task_distances",
    "task_dispersion",
    "compare_rules",
    "compare",
]

#: The rules :func:`compare` runs by default (the exact Kemeny ranking is always added).
DEFAULT_RULES: tuple[str, ...] = (
    "mean",
    "geometric_mean",
    "borda",
    "dowdall",
    "plurality",
    "copeland",
    "minimax",
    "baldwin",
    "threshold",
)

Tiers = tuple[tuple[str, ...], ...]


# ---------------------------------------------------------------------- rankings
def as_tiers(ranking: Any) -> Tiers:
    """Normalize a ranking to tie groups, best first.

    Parameters
    ----------
    ranking : sequence or result object
        Labels best first (a strict order), tie groups best first (tuples, lists, sets
        or frozensets; a set is listed in sorted order), a mix of both, or an object
        with a ``ranking`` attribute (rule and Kemeny results).

    Raises
    ------
    InvalidOptionError
        If a system appears twice, a tie group is empty, or `ranking` is a bare string.

    Examples
    --------
    >>> as_tiers(["b", ("a", "c"), "d"])
    (('b',), ('a', 'c'), ('d',))
    >>> as_tiers(("x", "y"))
    (('x',), ('y',))
    """
    if hasattr(ranking, "ranking") and not isinstance(ranking, (str, Sequence)):
        ranking = ranking.ranking
    if isinstance(ranking, str):
        raise InvalidOptionError(f"a ranking must be a sequence of systems, got the string {ranking!r}")
    tiers: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for item in ranking:
        if isinstance(item, str):
            group: tuple[str, ...] = (item,)
        elif isinstance(item, (set, frozenset)):
            group = tuple(sorted(str(s) for s in item))
        else:
            group = tuple(str(s) for s in item)
        if not group:
            raise InvalidOptionError("a ranking has an empty tie group")
        for s in group:
            if s in seen:
                raise InvalidOptionError(f"system {s!r} appears twice in a ranking")
            seen.add(s)
        tiers.append(group)
    return tuple(tiers)


def _systems(tiers: Tiers) -> tuple[str, ...]:
    return tuple(s for group in tiers for s in group)


def ranking_positions(ranking: Any) -> dict[str, int]:
    """Competition position of each system: 1 + the number of systems ranked strictly above.

    Examples
    --------
    >>> ranking_positions([("a", "b"), "c"])
    {'a': 1, 'b': 1, 'c': 3}
    """
    positions: dict[str, int] = {}
    above = 0
    for group in as_tiers(ranking):
        for s in group:
            positions[s] = above + 1
        above += len(group)
    return positions


def _tier_index(tiers: Tiers) -> dict[str, int]:
    return {s: k for k, group in enumerate(tiers) for s in group}


def _same_systems(a: Tiers, b: Tiers) -> tuple[str, ...]:
    sa, sb = _systems(a), _systems(b)
    if set(sa) != set(sb):
        only_a = [s for s in sa if s not in set(sb)]
        only_b = [s for s in sb if s not in set(sa)]
        missing = only_a or only_b
        raise UnknownSystemError(
            missing[0], sb if only_a else sa, "the other ranking (both rankings must rank the same systems)"
        )
    return sa


def _strict_inversions(values: np.ndarray) -> int:
    """Number of pairs ``i < j`` with ``values[i] > values[j]`` (non-negative integers).

    Bottom-up merge counting, vectorized per level: O(n log^2 n) time, O(n) memory. At each
    level the blocks of the previous one are sorted; the elements of a left block greater
    than a right-block element are counted with one ``searchsorted`` over all blocks at once
    (keys offset by the block-pair index keep the blocks apart).
    """
    n = len(values)
    if n < 2:
        return 0
    v = values.astype(np.int64)
    span = int(v.max()) + 1
    position = np.arange(n, dtype=np.int64)
    total = 0
    width = 1
    while width < n:
        pair = position // (2 * width)
        right = (position // width) % 2 == 1
        key = pair * span + v
        left_keys = key[~right]  # ascending: blocks in order, each sorted
        right_pair = pair[right]
        greater = np.searchsorted(left_keys, (right_pair + 1) * span, side="left") - np.searchsorted(
            left_keys, key[right], side="right"
        )
        total += int(greater.sum())
        v = np.sort(key) - pair * span  # merge: each pair of blocks sorted (pairs stay in place)
        width *= 2
    return total


def _tied_pairs(*levels: np.ndarray) -> int:
    """Pairs of systems equal on every given level vector."""
    _, counts = np.unique(np.stack(levels, axis=1), axis=0, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def _pair_counts(a: Tiers, b: Tiers) -> dict[str, int]:
    """Concordant, discordant and tied pair counts of two rankings of the same systems.

    Exact integers in O(n log^2 n): sorted by ``a`` (ties by ``b``), the discordant pairs
    are the strict inversions of the ``b`` levels; the concordant ones follow from
    ``pairs = concordant + discordant + tied_a + tied_b - tied_both``.
    """
    systems = _same_systems(a, b)
    n = len(systems)
    ia, ib = _tier_index(a), _tier_index(b)
    ra = np.array([ia[s] for s in systems], dtype=np.int64)
    rb = np.array([ib[s] for s in systems], dtype=np.int64)
    pairs = n * (n - 1) // 2
    if n < 2:
        return dict(pairs=0, concordant=0, discordant=0, tied_a=0, tied_b=0, tied_both=0)
    tied_a, tied_b, tied_both = _tied_pairs(ra), _tied_pairs(rb), _tied_pairs(ra, rb)
    order = np.lexsort((rb, ra))
    discordant = _strict_inversions(rb[order])
    concordant = pairs - tied_a - tied_b + tied_both - discordant
    return {
        "pairs": pairs,
        "concordant": concordant,
        "discordant": discordant,
        "tied_a": tied_a,
        "tied_b": tied_b,
        "tied_both": tied_both,
    }


def _check_penalty(tie_penalty: float) -> float:
    p = float(tie_penalty)
    if not math.isfinite(p) or not 0.0 <= p <= 1.0:
        raise InvalidOptionError(f"tie_penalty must be in [0, 1], got {tie_penalty!r}")
    return p


def kendall_tau_distance(a: Any, b: Any, *, tie_penalty: float = 0.5, normalize: bool = False) -> float:
    """Kendall distance between two rankings of the same systems, ties handled explicitly.

    Counts the unordered pairs the two rankings order oppositely, plus `tie_penalty` for
    each pair tied in exactly one of them (the distance with penalty ``p`` of Fagin et
    al. 2006; a pair tied in both costs 0). For strict rankings this is the number of
    inversions (Colombo et al. 2022, sec. 3.4).

    Parameters
    ----------
    a, b : ranking
        See :func:`as_tiers`. Both must rank the same systems.
    tie_penalty : float, default=0.5
        Cost of a pair tied in one ranking only; 1/2 makes the distance a metric and
        matches the Kemeny objective's treatment of task ties.
    normalize : bool, default=False
        Divide by the number of pairs ``n (n - 1) / 2`` (0 = identical, 1 = reversed).

    Raises
    ------
    UnknownSystemError
        If a system is ranked by one ranking only.

    References
    ----------
    .. [1] Colombo et al., NeurIPS 2022, sec. 3.4.
    .. [2] Fagin et al., "Comparing partial rankings", 2006.

    Examples
    --------
    >>> kendall_tau_distance(["a", "b", "c"], ["c", "b", "a"])
    3.0
    >>> kendall_tau_distance([("a", "b"), "c"], ["a", "b", "c"])
    0.5
    """
    p = _check_penalty(tie_penalty)
    c = _pair_counts(as_tiers(a), as_tiers(b))
    distance = c["discordant"] + p * (c["tied_a"] + c["tied_b"] - 2 * c["tied_both"])
    if normalize:
        return float(distance / c["pairs"]) if c["pairs"] else 0.0
    return float(distance)


def kendall_tau(a: Any, b: Any) -> float:
    """Kendall's tau-b between two rankings of the same systems.

    ``(concordant - discordant) / sqrt((P - ties_a) (P - ties_b))`` with ``P`` the number of
    pairs: 1 for identical strict rankings, -1 for reversed ones. NaN when either ranking
    ties every system (or fewer than two systems), where the correlation is undefined.

    References
    ----------
    .. [1] Kendall, "The treatment of ties in ranking problems", Biometrika, 1945.

    Examples
    --------
    >>> kendall_tau(["a", "b", "c"], ["a", "c", "b"])
    0.3333333333333333
    >>> round(kendall_tau([("a", "b"), "c"], ["a", "b", "c"]), 4)
    0.8165
    """
    c = _pair_counts(as_tiers(a), as_tiers(b))
    denom = (c["pairs"] - c["tied_a"]) * (c["pairs"] - c["tied_b"])
    if denom <= 0:
        return float("nan")
    return float((c["concordant"] - c["discordant"]) / math.sqrt(denom))


def _top_shares(tiers: Tiers, k: int) -> dict[str, float]:
    shares: dict[str, float] = {}
    above = 0
    for group in tiers:
        slots = min(max(k - above, 0), len(group))
        for s in group:
            shares[s] = slots / len(group)
        above += len(group)
    return shares


def top_k_agreement(a: Any, b: Any, k: int, *, least: bool = False) -> float:
    """Share of the top-k (or least-k) systems two rankings agree on.

    ``|top_k(a) & top_k(b)| / k`` for strict rankings (the agreement rate of Vote'n'Rank,
    sec. 3.1, and of Colombo et al., sec. 5.2). A tie group straddling the cut-off puts the
    share ``slots / size`` of each member in the top k, and the agreement is
    ``sum(min(share_a, share_b)) / k``: identical rankings always agree fully.

    Parameters
    ----------
    a, b : ranking
        See :func:`as_tiers`; both rank the same systems.
    k : int
        1 <= k <= number of systems.
    least : bool, default=False
        Compare the k worst systems instead.

    Raises
    ------
    InvalidOptionError
        If `k` is not between 1 and the number of systems.

    Examples
    --------
    >>> top_k_agreement(["a", "b", "c", "d"], ["b", "a", "d", "c"], 1)
    0.0
    >>> top_k_agreement(["a", "b", "c", "d"], ["b", "a", "d", "c"], 2)
    1.0
    >>> top_k_agreement(["a", "b", "c", "d"], [("a", "b"), "c", "d"], 1)
    0.5
    """
    ta, tb = as_tiers(a), as_tiers(b)
    systems = _same_systems(ta, tb)
    if isinstance(k, bool) or int(k) != k or not 1 <= k <= len(systems):
        raise InvalidOptionError(f"k must be an integer between 1 and {len(systems)}, got {k!r}")
    if least:
        ta, tb = ta[::-1], tb[::-1]
    sa, sb = _top_shares(ta, int(k)), _top_shares(tb, int(k))
    return float(sum(min(sa[s], sb[s]) for s in systems) / k)


def rank_changes(rankings: Mapping[str, Any], *, baseline: str = "mean") -> pd.DataFrame:
    """Position change of every system under each ranking versus a baseline ranking.

    ``baseline position - position``: positive when the system moves up (the arrows of
    Vote'n'Rank Table 3), with competition positions (1 + systems strictly above).

    Parameters
    ----------
    rankings : mapping
        Name -> ranking, all of the same systems; must contain `baseline`.
    baseline : str, default="mean"
        The ranking the changes are measured against.

    Returns
    -------
    pandas.DataFrame
        Systems (in baseline order) x ranking names, integers.

    Examples
    --------
    >>> rank_changes({"mean": ["a", "b", "c"], "borda": ["b", "c", "a"]})
       mean  borda
    a     0     -2
    b     0      1
    c     0      1
    """
    if baseline not in rankings:
        raise InvalidOptionError(f"baseline {baseline!r} is not among the rankings {list(rankings)!r}")
    base_tiers = as_tiers(rankings[baseline])
    base = ranking_positions(base_tiers)
    systems = _systems(base_tiers)
    columns = {}
    for name, ranking in rankings.items():
        tiers = as_tiers(ranking)
        _same_systems(base_tiers, tiers)
        pos = ranking_positions(tiers)
        columns[name] = [base[s] - pos[s] for s in systems]
    return pd.DataFrame(columns, index=pd.Index(systems, dtype=object), dtype=np.int64)


# ---------------------------------------------------------------------- against the tasks
def task_rankings(table: Leaderboard) -> dict[str, Tiers]:
    """The ranking each task induces on the systems it scores (exact score ties tie).

    Systems without a score on a task are left out of that task's ranking; ties are
    exact, like :func:`consensus.pairwise` (lower-is-better tasks are oriented).

    Examples
    --------
    >>> import consensus as cs
    >>> task_rankings(cs.load_example("votenrank-toy"))["t2"]
    (('A',), ('C',), ('D',), ('B',))
    """
    result: dict[str, Tiers] = {}
    values = table.values
    for j, task in enumerate(table.tasks):
        col = values[:, j]
        scored = [i for i in range(len(col)) if not math.isnan(col[i])]
        scored.sort(key=lambda i: (-col[i], i))
        tiers: list[list[str]] = []
        last = None
        for i in scored:
            if last is not None and col[i] == last:
                tiers[-1].append(table.systems[i])
            else:
                tiers.append([table.systems[i]])
            last = col[i]
        result[task] = tuple(tuple(t) for t in tiers)
    return result


def _rank_vector(pairs: PairwiseMatrix, ranking: Any) -> np.ndarray:
    tiers = as_tiers(ranking)
    index = _tier_index(tiers)
    missing = [s for s in pairs.systems if s not in index]
    extra = [s for s in index if s not in set(pairs.systems)]
    if extra:
        raise UnknownSystemError(extra[0], pairs.systems, "the ranking")
    if missing:
        raise InvalidOptionError(
            f"the ranking leaves out system(s) {', '.join(repr(s) for s in missing[:5])}; rank every system"
        )
    return np.array([index[s] for s in pairs.systems], dtype=np.int64)


def ranking_objective(data: Any, ranking: Any) -> float:
    """The Kemeny objective of a ranking, ties included: task weight it disagrees with.

    Placing ``j`` above ``i`` costs ``preferences[i, j]`` (the weight of the tasks where
    ``i`` beats ``j``, plus half the weight of the tasks where they tie). A pair the
    ranking ties costs half of the weight comparing the two systems: the expected cost of
    a uniformly random tie-breaking. So a ranking with ties is never better than the
    Kemeny optimum, and for a strict ranking this is the usual Kemeny objective.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        Anything :func:`consensus.pairwise.as_pairwise` accepts.
    ranking : ranking
        Must rank every system of `data`.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> ranking_objective(toy, ["B", "C", "D", "A"])
    12.0
    >>> ranking_objective(toy, ["B", ("C", "D"), "A"])  # C-D tied: half of their 5 tasks
    12.5
    """
    p = as_pairwise(data)
    r = _rank_vector(p, ranking)
    pref = p.preferences
    above = r[:, None] < r[None, :]  # above[i, j]: i placed above j
    tied = r[:, None] == r[None, :]
    np.fill_diagonal(tied, False)
    cost = float((pref.T * above).sum()) + 0.5 * float(((pref + pref.T) * np.triu(tied, k=1)).sum())
    return cost + 0.0


def task_distance(data: Any, ranking: Any, *, tie_penalty: float = 0.5) -> float:
    """Weighted sum of Kendall distances from a ranking to the task rankings.

    ``sum_t w_t d(sigma, sigma_t)``, each distance over the systems task ``t`` scores
    (Colombo et al. 2022, appendix C.1, eq. 1, with task weights; unit weights give the
    formula as printed). Computed from the pairwise matrix: an ordered pair costs the
    weight of the tasks that order it the other way plus ``tie_penalty`` times the
    weight of the tasks that tie it; a tied pair costs ``tie_penalty`` times the weight
    of the tasks that separate it. For a strict ranking and ``tie_penalty=1/2`` it equals
    the Kemeny objective.

    Examples
    --------
    >>> import consensus as cs
    >>> task_distance(cs.load_example("votenrank-toy"), ["B", "C", "D", "A"])
    12.0
    """
    pen = _check_penalty(tie_penalty)
    p = as_pairwise(data)
    r = _rank_vector(p, ranking)
    above = r[:, None] < r[None, :]
    tied = np.triu(r[:, None] == r[None, :], k=1)
    ordered = float(((p.wins.T + pen * p.ties) * above).sum())
    tie_cost = float((pen * (p.wins + p.wins.T) * tied).sum())
    return ordered + tie_cost + 0.0


def task_distances(table: Leaderboard, ranking: Any, *, tie_penalty: float = 0.5) -> pd.Series:
    """Kendall distance from a ranking to each task's ranking (unweighted), per task.

    Each distance is over the systems the task scores. ``(series * lb.weights).sum()``
    equals :func:`task_distance`.

    Examples
    --------
    >>> import consensus as cs
    >>> task_distances(cs.load_example("votenrank-toy"), ["B", "C", "D", "A"]).tolist()
    [3.0, 5.0, 1.0, 1.0, 2.0]
    """
    tiers = as_tiers(ranking)
    order = _tier_index(tiers)
    _rank_vector(table.pairwise(), tiers)  # validates the systems
    values = {}
    for task, task_tiers in task_rankings(table).items():
        scored = _systems(task_tiers)
        restricted = _restrict(tiers, set(scored), order)
        values[task] = kendall_tau_distance(restricted, task_tiers, tie_penalty=tie_penalty)
    return pd.Series(values, dtype=np.float64, name="kendall_distance")


def _restrict(tiers: Tiers, keep: set[str], order: dict[str, int]) -> Tiers:
    groups = [tuple(s for s in group if s in keep) for group in tiers]
    return tuple(g for g in groups if g)


def task_dispersion(data: Any, *, tie_penalty: float = 0.5) -> float:
    """Mean Kendall distance between two task rankings: the problem's intrinsic difficulty.

    ``sum_{t, t'} p_t p_t' d(sigma_t, sigma_t')`` over all ordered pairs of tasks (a task
    with itself included), with ``p`` the normalized task weights: Colombo et al. 2022,
    appendix C.2, eq. 3, divided by ``T^2`` (unit weights). Each distance is over the
    systems both tasks score. With this normalization the mean distance of the Kemeny
    ranking to the tasks, ``task_distance / total weight``, lies between 1/2 and 1 times
    the dispersion (their Remark 2) when tasks rank every system strictly.

    Computed from the pairwise matrix in O(n^2): a pair of systems that tasks of weight
    ``W+`` order one way, ``W-`` the other way and ``W0`` tie contributes
    ``2 (W+ W- + p W0 (W+ + W-)) / W^2``.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        For a PairwiseMatrix the total weight ``W`` is the largest weight any pair is
        compared on (the total task weight when no score is missing).

    Examples
    --------
    >>> import consensus as cs
    >>> round(task_dispersion(cs.load_example("votenrank-toy")), 4)
    2.88
    """
    from .leaderboard import Leaderboard

    pen = _check_penalty(tie_penalty)
    p = as_pairwise(data)
    if isinstance(data, Leaderboard):
        total = float(data.weights.sum())
    else:
        total = float(p.compared.max()) if p.n_systems > 1 else 0.0
    if total <= 0:
        return 0.0
    upper = np.triu(np.ones((p.n_systems, p.n_systems), dtype=bool), k=1)
    w, wt, t = p.wins, p.wins.T, p.ties
    per_pair = 2.0 * (w * wt + pen * t * (w + wt))
    return float(per_pair[upper].sum() / total**2) + 0.0


# ---------------------------------------------------------------------- rule comparison
def _format_winners(tiers: Tiers) -> str:
    return " = ".join(tiers[0]) if tiers else ""


def compare_rules(
    table: Leaderboard,
    *,
    rules: Iterable[str] = DEFAULT_RULES,
    kemeny_result: Any = None,
    baseline: str = "mean",
    ks: Sequence[int] = (1, 3, 5),
    time_limit: float | None = None,
    solver: str = "highs",
    progress: Callable[..., Any] | None = None,
    rule_options: Mapping[str, Mapping[str, Any]] | None = None,
    tie_penalty: float = 0.5,
) -> RuleComparison:
    """Run each rule and measure how far its ranking lands from the exact Kemeny ranking.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    rules : iterable of str, default=:data:`DEFAULT_RULES`
        Rule names understood by :func:`consensus.rank`. The exact Kemeny ranking is the
        reference and always gets a row (``"kemeny"``, last unless listed).
    kemeny_result : KemenyResult, optional
        A Kemeny result already computed for `table` (it is not re-solved).
    baseline : str, default="mean"
        The rule rank changes and the second set of agreement columns refer to; it is
        compared too (first) when `rules` does not list it.
    ks : sequence of int, default=(1, 3, 5)
        The k of the top-k and least-k agreement columns (NaN where k > systems).
    time_limit, solver, progress
        Passed to :func:`consensus.kemeny` when `kemeny_result` is not given.
    rule_options : mapping, optional
        Rule name -> keyword options for :func:`consensus.rank` (e.g. a missing-score policy).
    tie_penalty : float, default=0.5
        See :func:`kendall_tau_distance`.

    Returns
    -------
    RuleComparison
        ``table`` (one row per rule, see :func:`compare` for the columns), the rankings,
        the rule results, the errors of rules that could not run, rank changes and the
        dispersion of the task rankings.

    Notes
    -----
    A rule that cannot run on this leaderboard (the geometric mean of non-positive
    scores, a positional rule with missing scores, ...) gets a row with ``status``
    ``"failed"`` and the error message in ``note``; nothing is raised for it.

    Examples
    --------
    >>> import consensus as cs
    >>> comp = compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "borda", "plurality"])
    >>> comp.table[["winner", "kendall_tau", "objective", "gap"]].round(3)  # doctest: +NORMALIZE_WHITESPACE
              winner  kendall_tau  objective  gap
    rule
    mean           B        1.000       12.0  0.0
    borda          B        1.000       12.0  0.0
    plurality      A       -0.707       16.5  4.5
    kemeny         B        1.000       12.0  0.0
    >>> comp.rank_changes()["plurality"].to_dict()
    {'B': -1, 'C': 0, 'D': 1, 'A': 3}
    """
    from .leaderboard import Leaderboard
    from .majority import condorcet_winner
    from .results import RuleComparison

    if not isinstance(table, Leaderboard):
        raise InvalidOptionError(f"compare_rules needs a Leaderboard, got {type(table).__name__}")
    pen = _check_penalty(tie_penalty)
    ks = tuple(int(k) for k in ks)
    for k in ks:
        if k < 1:
            raise InvalidOptionError(f"every k must be >= 1, got {k}")
    names = list(dict.fromkeys(str(r) for r in rules))
    if baseline not in names:
        names.insert(0, str(baseline))
    if "kemeny" not in names:
        names.append("kemeny")
    options = {str(k): dict(v) for k, v in (rule_options or {}).items()}
    unknown_options = [r for r in options if r not in names]
    if unknown_options:
        raise InvalidOptionError(f"rule_options names rule(s) not compared: {', '.join(map(repr, unknown_options))}")

    pairs = table.pairwise()
    if kemeny_result is None:
        from .kemeny import kemeny

        kw: dict[str, Any] = {"time_limit": time_limit, "solver": solver}
        if progress is not None:
            kw["progress"] = progress
        kw.update(options.get("kemeny", {}))
        start = time.perf_counter()
        kemeny_result = kemeny(pairs, **kw)
        kemeny_seconds = time.perf_counter() - start
    else:
        kemeny_seconds = float(getattr(kemeny_result, "seconds", float("nan")))
    kemeny_tiers = as_tiers(kemeny_result.ranking)
    _rank_vector(pairs, kemeny_tiers)  # the result belongs to this leaderboard

    from .rank import rank

    results: dict[str, Any] = {}
    errors: dict[str, str] = {}
    seconds: dict[str, float] = {}
    for name in names:
        if name == "kemeny":
            results[name] = kemeny_result
            seconds[name] = kemeny_seconds
            continue
        start = time.perf_counter()
        try:
            results[name] = rank(table, name, **options.get(name, {}))
        except ConsensusError as exc:
            errors[name] = f"{type(exc).__name__}: {exc}"
        seconds[name] = time.perf_counter() - start

    rankings = {name: as_tiers(res) for name, res in results.items()}
    winner = condorcet_winner(pairs)
    optimum = float(kemeny_result.objective)
    base = rankings.get(baseline)
    n = table.n_systems
    total_weight = float(table.weights.sum())
    rows = []
    for name in names:
        row: dict[str, Any] = {"rule": name}
        if name in errors:
            row.update(status="failed", note=errors[name])
            rows.append(row)
            continue
        tiers = rankings[name]
        objective = optimum if name == "kemeny" else ranking_objective(pairs, tiers)
        gap = objective - optimum
        row.update(
            status="reference" if name == "kemeny" else "ok",
            winner=_format_winners(tiers),
            tie_groups=len(tiers),
            kendall_tau=kendall_tau(tiers, kemeny_tiers),
            kendall_distance=kendall_tau_distance(tiers, kemeny_tiers, tie_penalty=pen),
            objective=objective,
            gap=0.0 if name == "kemeny" else gap + 0.0,
            gap_ratio=1.0 if optimum == objective else (objective / optimum if optimum > 0 else math.inf),
            condorcet_winner=(None if winner is None else tiers[0] == (winner,)),
        )
        for k in ks:
            row[f"top{k}"] = top_k_agreement(tiers, kemeny_tiers, k) if k <= n else math.nan
            row[f"least{k}"] = top_k_agreement(tiers, kemeny_tiers, k, least=True) if k <= n else math.nan
        if base is not None:
            row[f"{baseline}_tau"] = kendall_tau(tiers, base)
            for k in ks:
                row[f"{baseline}_top{k}"] = top_k_agreement(tiers, base, k) if k <= n else math.nan
                row[f"{baseline}_least{k}"] = (
                    top_k_agreement(tiers, base, k, least=True) if k <= n else math.nan
                )
        distance = task_distance(pairs, tiers, tie_penalty=pen)
        row["task_distance"] = distance
        row["mean_task_distance"] = distance / total_weight if total_weight > 0 else math.nan
        row["seconds"] = seconds[name]
        row["note"] = ""
        rows.append(row)

    columns = ["status", "winner", "tie_groups", "kendall_tau", "kendall_distance", "objective", "gap", "gap_ratio",
               "condorcet_winner"]
    columns += [f"{kind}{k}" for kind in ("top", "least") for k in ks]
    columns += [f"{baseline}_tau"] + [f"{baseline}_{kind}{k}" for kind in ("top", "least") for k in ks]
    columns += ["task_distance", "mean_task_distance", "seconds", "note"]
    frame = pd.DataFrame(rows).set_index("rule").reindex(columns=columns)
    frame["tie_groups"] = frame["tie_groups"].astype("Int64")
    frame["condorcet_winner"] = frame["condorcet_winner"].astype("boolean")
    frame["note"] = frame["note"].fillna("")
    frame["winner"] = frame["winner"].fillna("")
    return RuleComparison(
        systems=table.systems,
        rules=tuple(names),
        table=frame,
        rankings=rankings,
        results=results,
        errors=errors,
        kemeny=kemeny_result,
        condorcet_winner=winner,
        baseline=baseline,
        ks=ks,
        tie_penalty=pen,
        dispersion=task_dispersion(table, tie_penalty=pen),
        total_weight=total_weight,
    )


def compare(table: Leaderboard, *, rules: Iterable[str] = DEFAULT_RULES, **options: Any) -> pd.DataFrame:
    """One row per rule: how far its ranking is from the exact Kemeny ranking.

    The table of :func:`compare_rules` (which see for the options). Columns:

    - ``status`` (``ok``, ``failed``, ``reference``) and ``note`` (why a rule failed);
    - ``winner`` (the top tie group, ``" = "``-joined), ``tie_groups`` (number of distinct
      positions: the discriminative power of Vote'n'Rank, which counts the tied
      alternatives ``n - tie_groups``);
    - ``kendall_tau`` (tau-b) and ``kendall_distance`` to the Kemeny ranking;
    - ``objective`` (Kemeny objective of the rule's ranking, ties as a random tie-break),
      ``gap`` (``objective - optimum``) and ``gap_ratio`` (``objective / optimum``);
    - ``condorcet_winner``: whether the rule's winner is the Condorcet winner alone (NA
      when there is none);
    - ``top{k}``, ``least{k}``: agreement with Kemeny; ``mean_tau``, ``mean_top{k}``,
      ``mean_least{k}``: with the mean (NaN where k exceeds the systems);
    - ``task_distance`` (weighted sum of Kendall distances to the task rankings, Colombo
      et al. appendix C.1) and ``mean_task_distance`` (divided by the total task weight,
      comparable with :attr:`RuleComparison.dispersion`); ``seconds``.

    Examples
    --------
    >>> import consensus as cs
    >>> table = compare(cs.load_example("votenrank-toy"), rules=["borda"])
    >>> table[["winner", "objective", "gap"]]  # doctest: +NORMALIZE_WHITESPACE
           winner  objective  gap
    rule
    mean        B       12.0  0.0
    borda       B       12.0  0.0
    kemeny      B       12.0  0.0
    """
    return compare_rules(table, rules=rules, **options).table
