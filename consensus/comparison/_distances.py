"""Distances between rankings: Kendall distance and tau with ties, top-k agreement, task dispersion.

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
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import COMMON, fill_doc
from ..arguments import check_share
from ..errors import InvalidOptionError, UnknownSystemError
from ..results.base import Tiers, tier_positions, walk_tiers

__all__ = [
    "as_tiers",
    "ranking_positions",
    "kendall_tau_distance",
    "kendall_tau",
    "top_k_agreement",
    "rank_changes",
]


# ---------------------------------------------------------------------- rankings
def as_tiers(ranking: Any) -> Tiers:
    """Normalize a ranking to tie groups, best first.

    Parameters
    ----------
    ranking : sequence or result object
        Labels best first (a strict order), tie groups best first (tuples, lists, sets
        or frozensets; a set is listed in sorted order), a mix of both, or an object
        with a ``ranking`` attribute (rule and Kemeny results).

    Returns
    -------
    tuple of tuple of str
        Tie groups, best first; every label converted with ``str``. A strict ranking gives
        one-system groups.

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
    if not isinstance(ranking, Iterable):
        raise InvalidOptionError(f"a ranking must be a sequence of systems, got {type(ranking).__name__} {ranking!r}")
    tiers: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for item in ranking:
        if isinstance(item, str):
            group: tuple[str, ...] = (item,)
        elif isinstance(item, (set, frozenset)):
            group = tuple(sorted(str(s) for s in item))
        elif isinstance(item, Iterable):
            group = tuple(str(s) for s in item)
        else:
            raise InvalidOptionError(f"a ranking holds systems (str) or tie groups of systems, got {item!r}")
        if not group:
            raise InvalidOptionError("a ranking has an empty tie group")
        for s in group:
            if s in seen:
                raise InvalidOptionError(f"system {s!r} appears twice in a ranking")
            seen.add(s)
        tiers.append(group)
    return tuple(tiers)


@fill_doc(COMMON)
def tier_systems(tiers: Tiers) -> tuple[str, ...]:
    """Flatten tie groups into the systems, best first.

    Parameters
    ----------
    {tiers}

    Returns
    -------
    tuple of str
        Every system, in ranking order (a tie group keeps its own order).

    Examples
    --------
    >>> tier_systems((("b",), ("a", "c")))
    ('b', 'a', 'c')
    """
    return tuple(s for group in tiers for s in group)


def ranking_positions(ranking: Any) -> dict[str, int]:
    """Competition position of each system: 1 + the number of systems ranked strictly above.

    Tied systems share a position, and the next tie group skips the places they fill.

    Parameters
    ----------
    ranking : ranking
        See :func:`as_tiers`.

    Returns
    -------
    dict of str to int
        System -> position (1 = best), in ranking order.

    Raises
    ------
    InvalidOptionError
        If `ranking` is malformed (see :func:`as_tiers`).

    Examples
    --------
    >>> ranking_positions([("a", "b"), "c"])
    {'a': 1, 'b': 1, 'c': 3}
    """
    return tier_positions(as_tiers(ranking))


@fill_doc(COMMON)
def tier_index(tiers: Tiers) -> dict[str, int]:
    """Index of each system's tie group (0 = best group).

    Parameters
    ----------
    {tiers}

    Returns
    -------
    dict of str to int
        System -> 0-based index of its tie group; tied systems share an index.

    Examples
    --------
    >>> tier_index((("b",), ("a", "c")))
    {'b': 0, 'a': 1, 'c': 1}
    """
    return {s: k for k, group in enumerate(tiers) for s in group}


def same_systems(a: Tiers, b: Tiers) -> tuple[str, ...]:
    """Check that two rankings rank the same systems, and return them.

    Parameters
    ----------
    a, b : tuple of tuple of str
        Tie groups, best first (see :func:`as_tiers`).

    Returns
    -------
    tuple of str
        The systems in the order of `a` (see :func:`tier_systems`).

    Raises
    ------
    UnknownSystemError
        If a system is ranked in one ranking but not in the other (names the first one).

    Examples
    --------
    >>> same_systems((("b",), ("a", "c")), (("a",), ("b", "c")))
    ('b', 'a', 'c')
    """
    sa, sb = tier_systems(a), tier_systems(b)
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
    systems = same_systems(a, b)
    n = len(systems)
    ia, ib = tier_index(a), tier_index(b)
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


def check_penalty(tie_penalty: float) -> float:
    """Validate the penalty of a pair tied in one ranking only and return it as a float.

    Parameters
    ----------
    tie_penalty : float
        The penalty ``p`` of Fagin et al. (2006), between 0 and 1 inclusive.

    Returns
    -------
    float
        `tie_penalty` as a float.

    Raises
    ------
    InvalidOptionError
        If `tie_penalty` is not a finite number in [0, 1].

    Examples
    --------
    >>> check_penalty(0.5)
    0.5
    >>> check_penalty(2)
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: tie_penalty must be a number in [0, 1], got 2
    """
    return check_share(tie_penalty, "tie_penalty", closed=True)


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

    Returns
    -------
    float
        The distance (0.0 for fewer than two systems, also when normalized).

    Raises
    ------
    UnknownSystemError
        If a system is ranked by one ranking only.
    InvalidOptionError
        If `tie_penalty` is not in [0, 1], or a ranking is malformed (see :func:`as_tiers`).

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
    p = check_penalty(tie_penalty)
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

    Parameters
    ----------
    a, b : ranking
        See :func:`as_tiers`. Both must rank the same systems.

    Returns
    -------
    float
        Tau-b in [-1, 1], or NaN when undefined.

    Raises
    ------
    UnknownSystemError
        If a system is ranked by one ranking only.
    InvalidOptionError
        If a ranking is malformed (see :func:`as_tiers`).

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
    sizes = [len(group) for group in tiers]
    return {s: min(max(k - (pos - 1), 0), sizes[t - 1]) / sizes[t - 1] for s, pos, t in walk_tiers(tiers)}


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

    Returns
    -------
    float
        Agreement in [0, 1].

    Raises
    ------
    InvalidOptionError
        If `k` is not an integer between 1 and the number of systems, or a ranking is
        malformed (see :func:`as_tiers`).
    UnknownSystemError
        If a system is ranked by one ranking only.

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
    systems = same_systems(ta, tb)
    whole = not isinstance(k, bool) and isinstance(k, numbers.Real) and float(k).is_integer()
    if not whole or not 1 <= k <= len(systems):
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
        Systems (in baseline order) x ranking names, integers; the `baseline` column is 0.

    Raises
    ------
    InvalidOptionError
        If `baseline` is not a key of `rankings`, or a ranking is malformed.
    UnknownSystemError
        If a ranking does not rank the same systems as the baseline.

    Examples
    --------
    >>> rank_changes({"mean": ["a", "b", "c"], "borda": ["b", "c", "a"]})
       mean  borda
    a     0     -2
    b     0      1
    c     0      1
    """
    if not isinstance(rankings, Mapping):
        raise InvalidOptionError(f"rankings must be a mapping name -> ranking, got {type(rankings).__name__}")
    if not isinstance(baseline, Hashable) or baseline not in rankings:
        raise InvalidOptionError(f"baseline {baseline!r} is not among the rankings {list(rankings)!r}")
    base_tiers = as_tiers(rankings[baseline])
    base = ranking_positions(base_tiers)
    systems = tier_systems(base_tiers)
    columns = {}
    for name, ranking in rankings.items():
        tiers = as_tiers(ranking)
        same_systems(base_tiers, tiers)
        pos = ranking_positions(tiers)
        columns[name] = [base[s] - pos[s] for s in systems]
    return pd.DataFrame(columns, index=pd.Index(systems, dtype=object), dtype=np.int64)
