"""The weighted majority relation: graph, Condorcet winner and loser, Smith set, Pareto.

System ``i`` beats ``j`` by weighted majority when ``wins[i, j] > wins[j, i]``
(Rofin et al. 2023, sec. 2.2.3, with task weights; tasks where either is missing or
both tie count for neither). Margins within :attr:`PairwiseMatrix.tol` of zero are
majority ties: no edge either way, listed in ``graph.graph["ties"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from .pairwise import PairwiseMatrix, as_pairwise

if TYPE_CHECKING:  # pragma: no cover
    from .leaderboard import Leaderboard

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
]


def beats(data: Leaderboard | PairwiseMatrix) -> np.ndarray:
    """Boolean matrix: ``beats[i, j]`` when ``i`` beats ``j`` by weighted majority."""
    p = as_pairwise(data)
    return p.margins > p.tol


def majority_graph(data: Leaderboard | PairwiseMatrix) -> nx.DiGraph:
    """The majority graph: an edge ``i -> j`` when ``i`` beats ``j`` by weighted majority.

    Edge attributes: ``wins`` (weight where i beats j), ``losses`` (where j beats i),
    ``ties`` (both scored, tied), ``margin`` (wins - losses) and ``compared`` (number of
    tasks both are scored on). Majority-tied pairs have no edge and are listed, as
    ``(i, j)`` with ``i`` before ``j`` in system order, in ``graph.graph["ties"]``.

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
    win = p.margins > p.tol
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


def majority_ties(data: Leaderboard | PairwiseMatrix) -> list[tuple[str, str]]:
    """Pairs where neither system beats the other by weighted majority."""
    p = as_pairwise(data)
    tied = np.abs(p.margins) <= p.tol
    rows, cols = np.nonzero(np.triu(tied, k=1))
    return [(p.systems[i], p.systems[j]) for i, j in zip(rows.tolist(), cols.tolist())]


def condorcet_winner(data: Leaderboard | PairwiseMatrix) -> str | None:
    """The system that beats every other by weighted majority, or None.

    Examples
    --------
    >>> import consensus as cs
    >>> condorcet_winner(cs.datasets.load_example("votenrank-toy"))
    'B'
    """
    p = as_pairwise(data)
    win = p.margins > p.tol
    hits = np.nonzero(win.sum(axis=1) == p.n_systems - 1)[0]
    return p.systems[int(hits[0])] if len(hits) else None


def is_condorcet_winner(data: Leaderboard | PairwiseMatrix, system: str) -> bool:
    """Whether `system` beats every other system by weighted majority."""
    p = as_pairwise(data)
    i = p.index(system)
    return bool((np.delete(p.margins[i], i) > p.tol).all())


def weak_condorcet_winners(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...]:
    """Systems that no other system beats by weighted majority (they beat or tie everyone)."""
    p = as_pairwise(data)
    lost = (p.margins < -p.tol).any(axis=1)
    return tuple(s for s, bad in zip(p.systems, lost) if not bad)


def condorcet_loser(data: Leaderboard | PairwiseMatrix) -> str | None:
    """The system that every other system beats by weighted majority, or None."""
    p = as_pairwise(data)
    lose = p.margins < -p.tol
    hits = np.nonzero(lose.sum(axis=1) == p.n_systems - 1)[0]
    return p.systems[int(hits[0])] if len(hits) else None


def _weak_components(p: PairwiseMatrix) -> list[list[int]]:
    """Strongly connected components of "beats or ties", best first (a total preorder)."""
    weak = p.margins >= -p.tol
    np.fill_diagonal(weak, False)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(p.n_systems))
    rows, cols = np.nonzero(weak)
    graph.add_edges_from(zip(rows.tolist(), cols.tolist()))
    cond = nx.condensation(graph)
    order = list(nx.topological_sort(cond))
    return [sorted(cond.nodes[c]["members"]) for c in order]


def smith_set(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...]:
    """The Smith set: the smallest non-empty set of systems that each beat every outsider.

    Computed as the top strongly connected component of the weak majority relation
    ("beats or ties"): with majority ties this is the standard definition (a tie with an
    outsider keeps the outsider in). Systems in input order.

    Examples
    --------
    >>> import consensus as cs
    >>> smith_set(cs.datasets.load_example("votenrank-toy"))
    ('B',)
    """
    p = as_pairwise(data)
    top = _weak_components(p)[0]
    return tuple(p.systems[i] for i in top)


def condorcet_cycle(data: Leaderboard | PairwiseMatrix) -> tuple[str, ...] | None:
    """A majority cycle inside the Smith set (why there is no Condorcet winner), or None.

    Returns the systems of a directed cycle ``a -> b -> ... -> a`` of strict majority wins,
    starting from the first Smith-set system in input order; None when the Smith set has no
    strict cycle (a single winner, or winners separated only by majority ties).
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


def pareto_dominated(table: Leaderboard) -> dict[str, tuple[str, ...]]:
    """Systems Pareto-dominated by another: ``{dominated: (dominators, ...)}``.

    ``j`` dominates ``i`` when, on the tasks both are scored on (at least one), ``j`` is
    at least as good everywhere and strictly better somewhere. Scores are oriented, so
    lower-is-better tasks count the right way.

    Examples
    --------
    >>> import consensus as cs
    >>> pareto_dominated(cs.datasets.load_example("votenrank-toy"))
    {}
    """
    p = table.with_weights({t: 1.0 for t in table.tasks}).pairwise()  # Pareto ignores weights
    both = p.counts > 0
    dom = both & (p.wins.T > 0) & (p.wins == 0)  # dom[i, j]: j beats i somewhere, i never beats j
    np.fill_diagonal(dom, False)
    result: dict[str, tuple[str, ...]] = {}
    for i, s in enumerate(p.systems):
        who = np.nonzero(dom[i])[0]
        if len(who):
            result[s] = tuple(p.systems[j] for j in who)
    return result
