"""Condorcet methods on path strengths and locked pairs: Schulze and Tideman's ranked pairs.

Both read the weighted pairwise matrix (tasks are the voters, task weights their numbers):
``wins[i, j]`` is the weight of the tasks where ``i`` beats ``j``; a tied task supports
neither side; with missing scores a pair is compared on the tasks both are scored on
(Vote'n'Rank eq. 1), as for the other majority rules. A *link* ``i -> j`` exists when ``i``
beats ``j`` by weighted majority (the exact sign, :attr:`~consensus.PairwiseMatrix.majority`);
its strength is, by ``variant``,

- ``"winning_votes"``: ``wins[i, j]``, the weight of the tasks on the winning side;
- ``"margins"``: ``wins[i, j] - wins[j, i]``, compared exactly
  (:attr:`~consensus.PairwiseMatrix.exact_margins`).

Strengths are only ever compared, never added, so each is replaced by its rank among the
distinct strengths before anything else: margins exactly, winning votes as floats with two
values within ``2**-44`` (relative) of each other counting as equal (float rounding of sums of
weights, as for majority ties in :mod:`consensus.pairwise`).

Both rules yield a strict partial order that need not rank every pair (Schulze's relation
with equal path strengths, ranked pairs with majority ties or contested batches). The
ranking puts each system one tier below the lowest system above it (its tier is 1 + the
longest chain of systems above it), so every system above another in the relation is ranked
above it, the first tier is exactly the unbeaten systems (the rule's winners), and a
relation that is a strict weak order comes out as its own tie classes. Two systems the
relation leaves unordered can still land in different tiers when one has a longer chain
above it (``details`` keeps the relation itself). ``scores`` is the number of systems in
lower tiers. Ranked pairs with a contested batch is the exception: its first tier is the
systems that win under some order of the equal pairs (searched), and the tiers of the tie
blocks follow one tier down without them, so a winner can be ranked above a system the
tie-block relation puts above it (see :func:`ranked_pairs`).

References
----------
.. [1] M. Schulze, "A new monotonic, clone-independent, reversal symmetric, and
   Condorcet-consistent single-winner election method", Social Choice and Welfare 36
   (2011) 267-303.
.. [2] T. N. Tideman, "Independence of clones as a criterion for voting rules", Social
   Choice and Welfare 4 (1987) 185-206.
.. [3] M. Brill and F. Fischer, "The price of neutrality for the ranked pairs method",
   AAAI 2012 (ties between equal pairs; deciding the winners of every tie order is NP-hard).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from solvers.ordering_costs import PAIR_RTOL

from ..board._leaderboard import Leaderboard
from ..majority._pairwise import PairwiseMatrix
from ..results import RuleResult
from ._tie_orders import tie_order_winners
from .declaration import rule
from .engine import run_rule
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_choice,
    check_number,
    pairwise_of,
)

__all__ = ["schulze", "ranked_pairs"]

StrengthVariant = Literal["winning_votes", "margins"]
_VARIANTS = ("winning_votes", "margins")


# ---------------------------------------------------------------------- shared pieces
def _link_levels(p: PairwiseMatrix, variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Link strengths as ranks (0: no link; 1, 2, ...: weakest first) and each rank's value."""
    link = p.majority > 0
    if variant == "margins":
        exact = p.exact_margins
        distinct = sorted(set(exact[link].tolist()))
        rank_of = {v: k + 1 for k, v in enumerate(distinct)}
        levels = np.zeros(link.shape, dtype=np.int64)
        rows, cols = np.nonzero(link)
        levels[rows, cols] = [rank_of[v] for v in exact[rows, cols].tolist()]
        return levels, np.array([0.0] + [float(v) for v in distinct])
    values = np.sort(np.unique(p.wins[link]))
    groups = np.zeros(len(values), dtype=np.int64)  # float sums of weights: equal within rounding
    for k in range(1, len(values)):
        close = values[k] - values[k - 1] <= PAIR_RTOL * (values[k] + values[k - 1])
        groups[k] = groups[k - 1] + (0 if close else 1)
    levels = np.zeros(link.shape, dtype=np.int64)
    levels[link] = groups[np.searchsorted(values, p.wins[link])] + 1
    shown = [0.0] + [float(values[groups == g][0]) for g in range(int(groups[-1]) + 1 if len(values) else 0)]
    return levels, np.array(shown)


def _tiers_of(above: np.ndarray) -> np.ndarray:
    """Tier (0 = top) of each system under a transitive, acyclic relation ``above[i, j]``.

    A system's tier is 1 + the longest chain of systems above it; a system above another
    has strictly fewer systems above it, so counting them orders the computation.
    """
    n = above.shape[0]
    tier = np.zeros(n, dtype=np.int64)
    for j in np.argsort(above.sum(axis=0), kind="stable").tolist():
        parents = np.nonzero(above[:, j])[0]
        if len(parents):
            tier[j] = int(tier[parents].max()) + 1
    return tier


def _output(systems: tuple[str, ...], tier: np.ndarray, details: dict[str, Any]) -> CoreOutput:
    """Scores (systems in lower tiers) and the ranking (tiers, each in system order)."""
    depth = sorted(set(tier.tolist()))
    ranking = tuple(tuple(s for s, t in zip(systems, tier.tolist()) if t == d) for d in depth)
    below = np.array([float((tier > t).sum()) for t in tier.tolist()])
    return CoreOutput(below, details, ranking=ranking, winners=ranking[0])


def _frame(values: np.ndarray, systems: tuple[str, ...]) -> pd.DataFrame:
    idx = pd.Index(systems, dtype=object)
    return pd.DataFrame(values + 0.0, index=idx, columns=idx)


# ---------------------------------------------------------------------- Schulze
def _schulze_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    levels, shown = _link_levels(p, opts["variant"])
    paths = levels.copy()
    for k in range(p.n_systems):  # Floyd-Warshall for widest paths (Schulze 2011, sec. 2.3)
        paths = np.maximum(paths, np.minimum(paths[:, k, None], paths[None, k, :]))
    np.fill_diagonal(paths, 0)
    above = paths > paths.T  # Schulze's relation: transitive (sec. 4.1), not always complete
    apart = ~above & ~above.T  # neither above the other
    np.fill_diagonal(apart, False)
    chained = (apart.astype(np.int64) @ apart.astype(np.int64)) > 0  # a ~ b ~ c
    np.fill_diagonal(chained, False)
    weak = not bool((chained & ~apart).any())  # a strict weak order: "apart" is transitive
    details = {
        "strongest_paths": _frame(shown[paths], p.systems),
        "relation": pd.DataFrame(above, index=pd.Index(p.systems, dtype=object), columns=pd.Index(p.systems, dtype=object)),
        "beats": pd.Series(above.sum(axis=1).astype(np.float64), index=pd.Index(p.systems, dtype=object)),
        "weak_order": weak,
    }
    return _output(p.systems, _tiers_of(above), details)


# ---------------------------------------------------------------------- ranked pairs
def _ranked_pairs_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    levels, shown = _link_levels(p, opts["variant"])
    n, names = p.n_systems, p.systems
    above = np.zeros((n, n), dtype=bool)  # transitive closure of the locked pairs
    block = np.arange(n)  # systems tied by a contested batch share a block
    locked: list[tuple[str, str, float]] = []
    skipped: list[tuple[str, str, float]] = []
    contested: list[dict[str, Any]] = []
    for level in range(int(levels.max(initial=0)), 0, -1):  # strongest batch first
        rows, cols = np.nonzero(levels == level)
        strength = float(shown[level])
        batch = []
        for i, j in zip(rows.tolist(), cols.tolist()):
            if above[j, i] or block[i] == block[j]:  # a cycle with stronger locks, or already tied
                skipped.append((names[i], names[j], strength))
            else:
                batch.append((i, j))
        fresh = [(i, j) for i, j in batch if not above[i, j]]
        same = block[:, None] == block[None, :]
        if len(fresh) >= 2:  # a cycle needs two new pairs: then the order of the batch matters
            graph = above | same
            for i, j in fresh:
                graph[i, j] = True
            _, comp = connected_components(csr_matrix(graph), directed=True, connection="strong")
            merged = [c for c in np.unique(comp) if len(np.unique(block[comp == c])) > 1]
            if merged:
                for c in merged:
                    members = np.nonzero(comp == c)[0]
                    pairs = tuple((names[i], names[j]) for i, j in batch if comp[i] == c and comp[j] == c)
                    contested.append({"strength": strength, "pairs": pairs, "tied": tuple(names[m] for m in members)})
                for i, j in batch:
                    if comp[i] != comp[j] or comp[i] not in merged:
                        locked.append((names[i], names[j], strength))
                above, block = _condensed(graph, comp), comp
                continue
        for i, j in batch:
            locked.append((names[i], names[j], strength))
            up = above[:, i] | same[:, i]
            down = above[j, :] | same[j, :]
            above |= np.outer(up, down)
    tier = _tiers_of(above)
    details: dict[str, Any] = {"status": "optimal", "undecided": (), "tie_break_orders": {}}
    if contested:  # the winners over every order of the equal links, searched (module notes)
        search = tie_order_winners(levels, opts["time_limit"])
        first = [*search.winners, *search.undecided]
        tier = np.where(np.isin(np.arange(n), first), 0, tier + 1)
        details.update(
            status=search.status,
            undecided=tuple(names[i] for i in search.undecided),
            tie_break_orders={names[s]: tuple((names[i], names[j]) for i, j in links) for s, links in search.witnesses.items()},
        )
    out = _output(names, tier, details)
    out.details.update(locked=tuple(locked), skipped=tuple(skipped), contested=tuple(contested), order_dependent=bool(contested))
    return out


def _condensed(graph: np.ndarray, comp: np.ndarray) -> np.ndarray:
    """``above`` after a contested batch: the transitive closure between the components of `graph`."""
    c = int(comp.max()) + 1
    reach = np.zeros((c, c), dtype=bool)
    rows, cols = np.nonzero(graph)
    reach[comp[rows], comp[cols]] = True
    np.fill_diagonal(reach, False)
    for k in range(c):
        reach |= np.outer(reach[:, k], reach[k, :])
    return reach[comp[:, None], comp[None, :]]


_SPECS: dict[str, RuleSpec] = {
    "schulze": RuleSpec("schulze", "majority", _schulze_core, True, True, True),
    "ranked_pairs": RuleSpec("ranked_pairs", "majority", _ranked_pairs_core, True, True, True),
}


@rule(
    _SPECS["schulze"],
    linear='it orders by strongest majority paths, which are not linear in the weights; use condorcet_weights',
)
def schulze(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: StrengthVariant = "winning_votes",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Schulze (beatpath) method: rank by the strongest paths of the weighted majority graph.

    The strength of a path is that of its weakest link; ``P[i, j]`` is the strength of the
    strongest path from ``i`` to ``j`` (widest paths, Floyd-Warshall). ``i`` is above ``j``
    when ``P[i, j] > P[j, i]``: a transitive relation (Schulze 2011, sec. 4.1) whose unbeaten
    systems are the Schulze winners. With equal path strengths it can leave pairs unranked
    and even fail to be a strict weak order (``details["weak_order"]`` says which); the
    ranking then places each system one tier below the lowest system above it (see the
    module notes), so the first tier is always the winner set and every pair the relation
    orders is ranked that way.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
    variant : {"winning_votes", "margins"}, default="winning_votes"
        Link strength: the weight of the winning side (Schulze's own choice, sec. 2.1) or
        the margin ``wins[i, j] - wins[j, i]``.
    tie_tol : float, default=0.0
        {tie_tol}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the number of systems ranked in lower tiers; ``winners``: the Schulze
        winners. ``details``: ``strongest_paths`` (``P`` in the units of `variant`, a
        DataFrame), ``relation`` (``P[i, j] > P[j, i]``, a boolean DataFrame), ``beats``
        (how many systems each is above in the relation) and
        ``weak_order`` (whether the relation is a strict weak order; then ``beats`` orders
        the systems exactly as the ranking does).

    Raises
    ------
    {majority_raises}

    See Also
    --------
    ranked_pairs : the other Condorcet method that locks the strongest majorities first.
    consensus.smith_set : the Schulze winners always lie in it.

    References
    ----------
    .. [1] M. Schulze, "A new monotonic, clone-independent, reversal symmetric, and
       Condorcet-consistent single-winner election method", Social Choice and Welfare 36
       (2011) 267-303, sec. 2 (definition) and 4.1 (transitivity).

    Examples
    --------
    Tasks are voters: 4 rank a > b > c, 3 rank b > c > a, 2 rank c > a > b (task weights).
    The majority cycle a > b > c > a (6:3, 7:2, 5:4) is broken at its weakest link:

    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame.astype(float), weights={"t1": 4, "t2": 3, "t3": 2})
    >>> res = schulze(lb)
    >>> res.ranking, res.scores.tolist()
    ((('a',), ('b',), ('c',)), [2.0, 1.0, 0.0])
    >>> res.details["strongest_paths"].astype(int)
       a  b  c
    a  0  6  6
    b  5  0  7
    c  5  5  0
    """
    variant = check_choice("variant", variant, _VARIANTS, "schulze")
    return run_rule(_SPECS["schulze"], data, {"variant": variant, "tie_tol": check_number(tie_tol, "tie_tol", non_negative=True)}, options)


@rule(
    _SPECS["ranked_pairs"],
    linear='it locks majorities in order of strength, which is not linear in the weights; use condorcet_weights',
)
def ranked_pairs(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: StrengthVariant = "margins",
    tie_tol: float = 0.0,
    time_limit: float = 10.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Ranked pairs (Tideman): lock majorities from the strongest down, skipping any that closes a cycle.

    Every majority pair ``i -> j`` is taken in decreasing order of strength and *locked*
    unless the pairs already locked rank ``j`` above ``i`` (it would close a cycle); the
    locked pairs' transitive closure is the ranking. Majority ties are never locked.

    **Equal strengths.** Pairs of equal strength form a batch. When the batch's lockable
    pairs close no cycle together, every order of the batch locks them all, and the result
    is Tideman's. When they do close one, the result of the classic procedure depends on
    the order in which the equal pairs are taken (the known tie problem of ranked pairs;
    Tideman fixes it with a tie-breaking ranking of the candidates, which is not neutral).
    This function never picks an order. Its **winners are the systems that win under some
    order** of the equal pairs (Tideman's "parallel universes"), found by a search over the
    procedure's states rather than the orders (:mod:`consensus.rules._tie_orders`: forced
    pairs locked at once, memoized states, pruning by the systems still to find); deciding
    them is NP-complete (Brill and Fischer 2012), so the search has a `time_limit` and
    ``details["status"]`` says ``"optimal"`` (the winners are exact) or ``"time_limit"``
    (the first tier then holds the winners found plus ``details["undecided"]``, the systems
    neither found nor proven never to win: no possible winner is left out). Each winner's
    ``details["tie_break_orders"]`` is the pairs locked, in order, by an order that elects
    it, replayed by the classic procedure before it is returned.

    Below the winners, the systems on such a cycle are **tied** (merged into one tie block,
    which stronger locks already placed as a whole), the batch's other pairs are locked, and
    the weaker batches go on between the blocks; the ranking is these tiers, one tier down,
    without the winners. ``details["order_dependent"]`` is True and ``details["contested"]``
    lists each such batch (``strength``, the ``pairs`` on the cycle, and the systems
    ``tied``). The rule is therefore neutral (relabelling systems relabels the result) and
    Condorcet consistent (a Condorcet winner is never on a cycle, and wins under every
    order).

    Earlier versions ranked the tie blocks alone, whose first tier could miss a winner: on
    the board ``[[0, 2, 1], [2, 1, 0], [2, 2, 0], [1, 0, 2]]`` (systems ``c0..c3`` in rows,
    three tasks) the blocks put ``c2`` first alone, while the order that locks ``c0``'s pair
    first elects ``c0``; the winners are now ``("c0", "c2")``.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
    variant : {"margins", "winning_votes"}, default="margins"
        Pair strength: the margin ``wins[i, j] - wins[j, i]`` (Tideman 1987, compared
        exactly) or the weight of the winning side.
    tie_tol : float, default=0.0
        {tie_tol}
    time_limit : float, default=10.0
        Seconds for the search of the winners over the orders of equal pairs (only run when
        an order matters), per call (``two_step`` and resampling call the rule several
        times). A search that stops there depends on the machine's speed: its status says
        so, and its first tier still holds every possible winner.
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the number of systems ranked in lower tiers; ``winners``: the systems
        that win under some order of the equal pairs (above). ``details``: ``locked`` and
        ``skipped`` (``(winner, loser, strength)`` in processing order; a pair is skipped
        when stronger locks rank it the other way or a contested batch tied it),
        ``contested`` and ``order_dependent``, ``status``, ``undecided`` and
        ``tie_break_orders`` (empty when nothing is contested), all above.

    Raises
    ------
    {majority_raises}

    See Also
    --------
    schulze : the beatpath method; both elect the Condorcet winner when there is one.

    Notes
    -----
    Why a tie: when the batch's lockable pairs close a cycle, take a cycle with the fewest
    of them, ``s_1, ..., s_k`` (k >= 2). Taking ``s_1 ... s_(k-1)`` first locks them all and
    then skips ``s_k``; taking ``s_k`` first locks it. The two orders rank the ends of
    ``s_k`` oppositely, so no single order speaks for the rule. That is why, below the winners (searched), the cycle is tied.

    References
    ----------
    .. [1] T. N. Tideman, "Independence of clones as a criterion for voting rules", Social
       Choice and Welfare 4 (1987) 185-206.
    .. [2] T. M. Zavist and T. N. Tideman, "Complete independence of clones in the ranked
       pairs rule", Social Choice and Welfare 6 (1989) 167-173.
    .. [3] M. Brill and F. Fischer, "The price of neutrality for the ranked pairs method",
       AAAI 2012.

    Examples
    --------
    The cycle of :func:`schulze` (margins: b over c 5, a over b 3, c over a 1): c over a is
    skipped, it would close a cycle with the two stronger locks.

    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame.astype(float), weights={"t1": 4, "t2": 3, "t3": 2})
    >>> res = ranked_pairs(lb)
    >>> res.ranking, res.details["skipped"]
    ((('a',), ('b',), ('c',)), (('c', 'a', 1.0),))

    A cycle of equal margins has no order-free answer: the three systems tie.

    >>> cycle = pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"])
    >>> res = ranked_pairs(cs.Leaderboard.from_frame(cycle.astype(float)))
    >>> res.ranking, res.details["order_dependent"], res.details["contested"][0]["tied"]
    ((('a', 'b', 'c'),), True, ('a', 'b', 'c'))
    """
    variant = check_choice("variant", variant, _VARIANTS, "ranked_pairs")
    limit = check_number(time_limit, "time_limit", "ranked_pairs", non_negative=True)
    return run_rule(_SPECS["ranked_pairs"], data, {"variant": variant, "tie_tol": check_number(tie_tol, "tie_tol", non_negative=True),
                                                   "time_limit": limit}, options)
