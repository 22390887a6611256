"""The weighted majority relation: graph, Condorcet winner and loser, Smith set, Pareto.

System ``i`` beats ``j`` by weighted majority when ``wins[i, j] > wins[j, i]``
(Rofin et al. 2023, sec. 2.2.3, with task weights; tasks where either is missing or
both tie count for neither). The comparison is exact (:attr:`PairwiseMatrix.majority`, the
signs of the exact margins): a pair with margin exactly 0 is a majority tie, with no edge
either way, listed in ``graph.graph["ties"]``; a huge tied task never hides a small margin.
"""

from __future__ import annotations

from typing import cast

import networkx as nx
import numpy as np

from .._docstrings import fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..results.majority import MajoritySummary
from ._inputs import as_pairwise
from ._pairwise import PairwiseMatrix, pairwise

__all__ = [
    "majority_graph",
    "majority_ties",
    "beats",
    "condorcet_winner",
    "is_condorcet_winner",
    "weak_condorcet_winners",
    "condorcet_loser",
    "smith_set",
    "condorcet_cycle",
    "pareto_dominated",
    "majority_summary",
]

#: The docstring entries the functions of the majority relation share (:func:`consensus._docstrings.fill_doc`).
_SECTIONS: dict[str, str] = {
    "data": ("data : Leaderboard or PairwiseMatrix\n"
             "    Scores (compared with :func:`pairwise`) or a pairwise matrix; anything\n"
             "    :func:`consensus.majority._inputs.as_pairwise` accepts (e.g. InstanceScores) works too."),
    "not_pairwise": ("InvalidOptionError\n"
                     "    If `data` is not an input :func:`consensus.majority._inputs.as_pairwise` accepts."),
}


@fill_doc(_SECTIONS)
def beats(data: Leaderboard | PairwiseMatrix) -> np.ndarray:
    """Boolean matrix: ``beats[i, j]`` when ``i`` beats ``j`` by weighted majority.

    Parameters
    ----------
    {data}

    Returns
    -------
    numpy.ndarray of bool (n, n)
        True where the exact margin ``wins[i, j] - wins[j, i]`` is positive
        (:attr:`PairwiseMatrix.majority`); rows and columns in system order.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> beats(cs.load_example("votenrank-toy"))[1].tolist()
    [True, False, True, True]
    """
    p = as_pairwise(data)
    return p.majority > 0


@fill_doc(_SECTIONS)
def majority_graph(data: Leaderboard | PairwiseMatrix) -> nx.DiGraph:
    """The majority graph: an edge ``i -> j`` when ``i`` beats ``j`` by weighted majority.

    Edge attributes: ``wins`` (weight where i beats j), ``losses`` (where j beats i),
    ``ties`` (both scored, tied), ``margin`` (wins - losses) and ``compared`` (number of
    tasks both are scored on). Majority-tied pairs have no edge and are listed, as
    ``(i, j)`` with ``i`` before ``j`` in system order, in ``graph.graph["ties"]``.

    Parameters
    ----------
    {data}

    Returns
    -------
    networkx.DiGraph
        One node per system (attribute ``index``: its row), one edge per majority win.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> g = majority_graph(cs.datasets.load_example("votenrank-toy"))
    >>> sorted(g.edges())
    [('B', 'A'), ('B', 'C'), ('B', 'D'), ('C', 'A'), ('C', 'D'), ('D', 'A')]
    >>> g.edges["B", "C"]["margin"]
    1.0
    """
    p = as_pairwise(data)
    win = p.majority > 0
    graph = nx.DiGraph()
    for i, s in enumerate(p.systems):
        graph.add_node(s, index=i)
    rows, cols = np.nonzero(win)
    for i, j in zip(rows.tolist(), cols.tolist()):
        graph.add_edge(
            p.systems[i],
            p.systems[j],
            wins=float(p.wins[i, j]),
            losses=float(p.wins[j, i]),
            ties=float(p.ties[i, j]),
            margin=float(p.wins[i, j] - p.wins[j, i]),
            compared=int(p.counts[i, j]),
        )
    graph.graph["ties"] = majority_ties(p)
    return graph


@fill_doc(_SECTIONS)
def majority_ties(data: Leaderboard | PairwiseMatrix) -> list[tuple[str, str]]:
    """Pairs where neither system beats the other by weighted majority.

    Parameters
    ----------
    {data}

    Returns
    -------
    list of (str, str)
        Pairs whose exact margin is 0 (:attr:`PairwiseMatrix.majority`), each once with the
        earlier system (in system order) first; empty when there is none.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> majority_ties(cs.PairwiseMatrix.from_array([[0, 1], [1, 0]], systems=["a", "b"]))
    [('a', 'b')]
    """
    p = as_pairwise(data)
    tied = p.majority == 0
    rows, cols = np.nonzero(np.triu(tied, k=1))
    return [(p.systems[i], p.systems[j]) for i, j in zip(rows.tolist(), cols.tolist())]


@fill_doc(_SECTIONS)
def condorcet_winner(data: Leaderboard | PairwiseMatrix) -> str | None:
    """The system that beats every other by weighted majority, or None.

    Parameters
    ----------
    {data}

    Returns
    -------
    str or None
        The Condorcet winner's label; None when no system beats all others (a majority
        cycle, or a majority tie at the top).

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> condorcet_winner(cs.datasets.load_example("votenrank-toy"))
    'B'
    """
    p = as_pairwise(data)
    win = p.majority > 0
    hits = np.nonzero(win.sum(axis=1) == p.n_systems - 1)[0]
    return p.systems[int(hits[0])] if len(hits) else None


@fill_doc(_SECTIONS)
def is_condorcet_winner(data: Leaderboard | PairwiseMatrix, system: str) -> bool:
    """Whether `system` beats every other system by weighted majority.

    Parameters
    ----------
    {data}
    system : str
        The system to test.

    Returns
    -------
    bool
        True when `system` is the Condorcet winner.

    Raises
    ------
    UnknownSystemError
        If `system` is not a system of `data`.
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> is_condorcet_winner(cs.load_example("votenrank-toy"), "B")
    True
    """
    p = as_pairwise(data)
    i = p.index(system)
    return bool((np.delete(p.majority[i], i) > 0).all())


@fill_doc(_SECTIONS)
def weak_condorcet_winners(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...]:
    """Systems that no other system beats by weighted majority (they beat or tie everyone).

    Parameters
    ----------
    {data}

    Returns
    -------
    tuple of str
        The weak Condorcet winners in system order; empty when every system loses to some
        other (e.g. a majority cycle).

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> weak_condorcet_winners(cs.load_example("votenrank-toy"))
    ('B',)
    """
    p = as_pairwise(data)
    lost = cast(np.ndarray, (p.majority < 0).any(axis=1))  # axis given: an array, not a scalar
    return tuple(s for s, bad in zip(p.systems, lost) if not bad)


@fill_doc(_SECTIONS)
def condorcet_loser(data: Leaderboard | PairwiseMatrix) -> str | None:
    """The system that every other system beats by weighted majority, or None.

    Parameters
    ----------
    {data}

    Returns
    -------
    str or None
        The Condorcet loser's label; None when there is none.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> condorcet_loser(cs.load_example("votenrank-toy"))
    'A'
    """
    p = as_pairwise(data)
    lose = p.majority < 0
    hits = np.nonzero(lose.sum(axis=1) == p.n_systems - 1)[0]
    return p.systems[int(hits[0])] if len(hits) else None


def _weak_components(p: PairwiseMatrix) -> list[list[int]]:
    """Strongly connected components of "beats or ties", best first (a total preorder)."""
    weak = p.majority >= 0
    np.fill_diagonal(weak, False)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(p.n_systems))
    rows, cols = np.nonzero(weak)
    graph.add_edges_from(zip(rows.tolist(), cols.tolist()))
    cond = nx.condensation(graph)
    order = list(nx.topological_sort(cond))
    return [sorted(cond.nodes[c]["members"]) for c in order]


@fill_doc(_SECTIONS)
def smith_set(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...]:
    """The Smith set: the smallest non-empty set of systems that each beat every outsider.

    Computed as the top strongly connected component of the weak majority relation
    ("beats or ties"): with majority ties this is the standard definition (a tie with an
    outsider keeps the outsider in). Systems in input order.

    Parameters
    ----------
    {data}

    Returns
    -------
    tuple of str
        The Smith set, in system order; a single system when there is a Condorcet winner.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> smith_set(cs.datasets.load_example("votenrank-toy"))
    ('B',)
    """
    p = as_pairwise(data)
    top = _weak_components(p)[0]
    return tuple(p.systems[i] for i in top)


@fill_doc(_SECTIONS)
def condorcet_cycle(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...] | None:
    """A majority cycle inside the Smith set (why there is no Condorcet winner), or None.

    Returns the systems of a directed cycle ``a -> b -> ... -> a`` of strict majority wins,
    starting from the first Smith-set system in input order; None when the Smith set has no
    strict cycle (a single winner, or winners separated only by majority ties).

    Parameters
    ----------
    {data}

    Returns
    -------
    tuple of str or None
        The systems of the cycle in cycle order (the last beats the first); None when the
        Smith set has fewer than 3 systems or no strict cycle.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> cycle = cs.PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
    >>> condorcet_cycle(cycle)
    ('a', 'b', 'c')
    """
    p = as_pairwise(data)
    members = smith_set(p)
    if len(members) < 3:
        return None
    graph = majority_graph(p.select(members))
    try:
        cycle = nx.find_cycle(graph, source=members[0])
    except nx.NetworkXNoCycle:
        return None
    return tuple(edge[0] for edge in cycle)


def pareto_dominated(data: Leaderboard) -> dict[str, tuple[str, ...]]:
    """Systems Pareto-dominated by another: ``{dominated: (dominators, ...)}``.

    ``j`` dominates ``i`` when ``j`` is scored on every task ``i`` is scored on, and on
    those tasks is at least as good everywhere and strictly better somewhere. Scores are
    oriented, so lower-is-better tasks count the right way. Task weights play no role, and
    scores are compared exactly (no tie tolerance).

    With missing scores, dominance needs the dominator's evidence to cover the dominated
    system's: a system scored on 6 of 11 tasks does not dominate a system scored on all 11,
    however well it does on its 6 (nothing is known of the other 5), while a complete row
    can dominate a sparse one. A task neither is scored on plays no role.

    Parameters
    ----------
    data : Leaderboard
        The scores (a PairwiseMatrix does not hold enough to decide dominance).

    Returns
    -------
    dict
        Dominated system -> the systems dominating it, both in system order; only
        dominated systems are keys (empty when none is dominated).

    Examples
    --------
    >>> import consensus as cs
    >>> pareto_dominated(cs.datasets.load_example("votenrank-toy"))
    {}
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.6, 0.6, 0.7]}, index=["a", "b", "c"])
    >>> pareto_dominated(cs.Leaderboard.from_frame(frame))
    {'b': ('a',)}
    >>> sparse = pd.DataFrame({"qa": [0.9, 0.8], "nli": [None, 0.7]}, index=["a", "b"])
    >>> pareto_dominated(cs.Leaderboard.from_frame(sparse))   # 'a' says nothing on nli
    {}
    """
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"pareto_dominated needs a Leaderboard (scores), got {type(data).__name__}")
    p = pairwise(data.with_weights({t: 1.0 for t in data.tasks}))  # Pareto ignores weights
    scored = (~np.isnan(data.values)).sum(axis=1)
    covers = p.counts == scored[:, None]  # covers[i, j]: j is scored on every task i is scored on
    dom = covers & (p.counts > 0) & (p.wins.T > 0) & (p.wins == 0)  # dom[i, j]: j beats i somewhere, i never beats j
    np.fill_diagonal(dom, False)
    result: dict[str, tuple[str, ...]] = {}
    for i, s in enumerate(p.systems):
        who = np.nonzero(dom[i])[0]
        if len(who):
            result[s] = tuple(p.systems[j] for j in who)
    return result


@fill_doc(_SECTIONS)
def majority_summary(data: Leaderboard | PairwiseMatrix) -> MajoritySummary:
    """What the weighted majority relation says, in one object.

    Condorcet winner and loser, weak Condorcet winners, the Smith set, a majority cycle
    when there is no Condorcet winner, majority ties, Pareto-dominated systems (for a
    Leaderboard), and every majority edge with its wins, losses, ties and margin.

    Parameters
    ----------
    {data}

    Returns
    -------
    MajoritySummary
        Edges sorted by decreasing margin, then by system order; ``cycle`` is None when
        there is a Condorcet winner; ``pareto_dominated`` is empty unless `data` is a
        Leaderboard.

    Raises
    ------
    {not_pairwise}

    Examples
    --------
    >>> import consensus as cs
    >>> s = majority_summary(cs.load_example("votenrank-toy"))
    >>> s.condorcet_winner, s.condorcet_loser, s.smith_set, s.cycle
    ('B', 'A', ('B',), None)
    >>> s.edges[0]
    ('B', 'A', 3.0, 2.0, 0.0, 1.0)
    """
    pairs = as_pairwise(data)
    graph = majority_graph(pairs)
    position = {s: i for i, s in enumerate(pairs.systems)}
    edges = sorted(
        (
            (u, v, d["wins"], d["losses"], d["ties"], d["margin"])
            for u, v, d in graph.edges(data=True)
        ),
        key=lambda e: (-e[5], position[e[0]], position[e[1]]),
    )
    winner = condorcet_winner(pairs)
    return MajoritySummary(
        systems=pairs.systems,
        edges=tuple(edges),
        ties=tuple(graph.graph["ties"]),
        condorcet_winner=winner,
        weak_condorcet_winners=weak_condorcet_winners(pairs),
        condorcet_loser=condorcet_loser(pairs),
        smith_set=smith_set(pairs),
        cycle=None if winner is not None else condorcet_cycle(pairs),
        pareto_dominated=pareto_dominated(data) if isinstance(data, Leaderboard) else {},
    )
