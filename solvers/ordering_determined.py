"""Which parts of a Kemeny-optimal order hold in *every* optimal order.

Two readings of one leaderboard can give two different Kemeny rankings with the same
objective: both are optimal. What every optimal order agrees on is computed here, exactly,
for an order already proven optimal:

- **groups**: the order cut into consecutive runs of positions such that each run holds the
  same *set* of items in every optimal order. A run of one is a position held by the same
  item in every optimum; a longer run is interchangeable at the optimum (its items take its
  positions in different orders in different optima).
- **flipped pairs**: pairs ``(i, j)`` (``i`` above ``j`` in the order) that some other optimal
  order reverses. Every other pair is the same in every optimum. Pairs in different groups
  are never flipped; inside a group of two the pair always is.
- **fixed items**: items whose position is the same in every optimum.

How (and what it costs). Optimal orders never reverse a pair of items from different majority
components unless the two are majority-tied (bubbling argument of
:mod:`solvers.linear_ordering`), so consecutive components joined by a tied pair are merged
into *unions*, and every optimal order lists the unions in the same order: each union is
settled on its own. Inside a union, the *witnesses* come first: other optimal orders already
known (adjacent tied swaps, single-item moves of cost 0, the enumerated optima, and every
optimum found below, each expanded the same way); a pair one of them reverses is flipped.
The pairs no witness reverses are settled in rounds of **one integer solve** each
(:meth:`_Union.flip_pairs`): the union's order with the objective ``cost / unit * (P + 1) -
(number of those P pairs reversed)``. Costs lie on the lattice ``optimum + k * unit``, so an
order one unit worse scores at least ``P + 1`` more, which no reversals make up: the solve
returns an optimal order reversing as many of them as possible. If it reverses none, none can
be reversed; else they are recorded and the round repeats. A cut between positions is fixed
iff no flipped pair crosses it; an item whose pairs are all determined keeps its position,
and each other item of a group of three or more takes two solves (fewer items above it, then
more). Without a lattice (irrational weights) it falls back to one solve per cut ("some item
below the cut is placed above some item above it") and one per pair inside a group. A unique
optimum costs nothing; measured, a structured 150-item board with 13 interchangeable groups
took 6 solves. Every solve shares the time limit of the whole call; if it runs out, the
result is incomplete and not returned.

References
----------
.. [1] Conitzer, Davenport, Kalagnanam, "Improved bounds for computing Kemeny rankings",
   AAAI 2006 (the ILP and the majority-graph decomposition this builds on).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .ordering_costs import ordering_cost
from .ordering_heuristics import _insertion_deltas, _moved
from .ordering_model import _OrderingModel
from .ordering_search import _Component, _Context, _lp_phase, _mip_search, _model_of
from .status import SolverError, SolveStatus

__all__ = ["Determination", "determination", "determine", "from_optima"]

#: Witness orders generated from adjacent tied swaps, per union.
_TIE_WITNESSES = 200


@dataclass(frozen=True, slots=True)
class Determination:
    """What every optimal order agrees on (item indices; see the module docstring).

    Attributes
    ----------
    groups : tuple of tuple of int
        The optimal order cut into consecutive groups, each holding the same set of items in
        every optimal order (items in the order's order).
    flipped : tuple of tuple of int
        Pairs ``(i, j)``, ``i`` above ``j`` in the order, that some optimal order reverses.
    fixed : tuple of int
        Items whose position is the same in every optimal order, in the order's order.
    solves : int
        Extra integer solves it took.

    Examples
    --------
    >>> d = Determination(groups=((2,), (0, 1)), flipped=((0, 1),), fixed=(2,), solves=0)
    >>> d.determined(2, 0), d.determined(0, 1)
    (True, False)
    """

    groups: tuple[tuple[int, ...], ...]
    flipped: tuple[tuple[int, int], ...]
    fixed: tuple[int, ...]
    solves: int

    def determined(self, i: int, j: int) -> bool:
        """Whether items `i` and `j` are in the same relative order in every optimal order.

        Parameters
        ----------
        i, j : int
            Two items.

        Returns
        -------
        bool
        """
        return (i, j) not in self.flipped and (j, i) not in self.flipped


def _unions(components: Sequence[Sequence[int]], tied: NDArray[np.bool_]) -> list[list[int]]:
    """Consecutive components merged wherever a majority-tied pair joins two of them (indices of components)."""
    where = np.empty(tied.shape[0], dtype=np.int64)
    for g, members in enumerate(components):
        where[list(members)] = g
    reach = list(range(len(components)))  # the last component each one must merge with
    i, j = np.nonzero(np.triu(tied, 1))
    for a, b in zip(where[i].tolist(), where[j].tolist()):
        low, high = min(a, b), max(a, b)
        reach[low] = max(reach[low], high)
    out: list[list[int]] = []
    g = 0
    while g < len(components):
        end = reach[g]
        k = g
        while k <= end:
            end = max(end, reach[k])
            k += 1
        out.append(list(range(g, end + 1)))
        g = end + 1
    return out


class _Union:
    """One union's optimal order (the identity: items are renumbered by position), what the
    optimal orders found so far (*witnesses*) show, and the constrained solves on its model."""

    def __init__(self, costs: NDArray[np.float64], ctx: _Context, tied: NDArray[np.bool_]) -> None:
        self.costs, self.ctx, self.tied = costs, ctx, tied
        self.s = s = costs.shape[0]
        self.order = tuple(range(s))
        self.value = ordering_cost(costs, self.order)
        self.seen: set[tuple[int, ...]] = {self.order}
        # what some witness shows: cut k (between positions k - 1 and k) moved, pair (a, b)
        # (a < b) reversed, item moved
        self.cut_moved = np.zeros(s + 1, dtype=bool)
        self.flips = np.zeros((s, s), dtype=bool)
        self.item_moved = np.zeros(s, dtype=bool)
        self.model: _OrderingModel | None = None
        self.solves = 0
        self.complete = False  # the witnesses are all the other optima
        self.pairs_settled = False  # `flips` is exact for every pair
        self.quiet = replace(ctx, report=lambda *a: None)  # no progress reports from these solves

    def add_witness(self, order: Sequence[int]) -> None:
        """Record an optimal order (and what it shows)."""
        order = tuple(int(i) for i in order)
        if order in self.seen:
            return
        self.seen.add(order)
        w = np.asarray(order)
        position = np.empty(self.s, dtype=np.int64)
        position[w] = np.arange(self.s)
        self.cut_moved[1 : self.s] |= np.maximum.accumulate(w)[:-1] != np.arange(self.s - 1)
        self.flips |= np.triu(position[None, :] < position[:, None], 1)
        self.item_moved |= position != np.arange(self.s)

    def expand(self, order: Sequence[int]) -> None:
        """Record `order` and the optima next to it: adjacent tied swaps (breadth first,
        capped) and single-item moves of cost 0 from each."""
        first = tuple(int(i) for i in order)
        queue, expanded = deque([first]), {first}
        margins = self.costs - self.costs.T
        while queue and len(expanded) <= _TIE_WITNESSES:
            current = queue.popleft()
            self.add_witness(current)
            neighbours = [current[:k] + (current[k + 1], current[k]) + current[k + 2 :]
                          for k in range(self.s - 1) if self.tied[current[k], current[k + 1]]]
            deltas, sources, targets = _insertion_deltas(margins, np.asarray(current))
            neighbours += [_moved(current, int(sources[k]), int(targets[k])) for k in np.nonzero(deltas <= self.ctx.tol)[0]]
            for other in neighbours:
                if other not in expanded:
                    expanded.add(other)
                    queue.append(other)

    def _model(self) -> _OrderingModel:
        """The union's model with the 3-cycle rows of its LP relaxation (one LP phase, reused by every solve)."""
        if self.model is None:
            comp = _Component(list(range(self.s)), self.costs, self.order, self.value, -math.inf, SolveStatus.TIME_LIMIT, "ilp")
            _lp_phase(comp, 0, self.quiet)
            self.model = _model_of(comp, 0, self.quiet)
        return self.model

    def optimum_with(self, terms: list[tuple[int, int]], rhs: float, accept: Callable[[tuple[int, ...]], bool]) -> bool | None:
        """Whether some optimal order satisfies ``sum of x[a, b] over terms <= rhs``, which the
        order itself violates (True: one was found, kept as a witness; False: proven none;
        None: out of time). `accept` tells whether an order satisfies the row."""
        if self.complete:
            return False  # every optimum is a witness already
        if self.ctx.out_of_time():
            return None
        model = self._model()
        if self.ctx.out_of_time():
            return None
        row = model.add_row(terms, rhs)
        self.solves += 1
        try:
            order, value, bound, status = _mip_search(
                model, None, math.inf, -math.inf, 0, self.quiet, stage="determine", stop_at=self.value, accept=accept
            )
        finally:
            model.drop_row(row)
        if order is not None and value <= self.value + self.ctx.tol:
            self.expand(order)
            return True
        if status is SolveStatus.OPTIMAL and bound > self.value + self.ctx.tol:
            return False  # the row's optimum is proven worse (on the lattice: by at least a unit)
        return None

    # ---- the three questions
    def lattice(self) -> float | None:
        """The objective's lattice step when the costs are multiples of it, else None."""
        unit = self.ctx.unit
        if unit is None or np.abs(self.costs / unit - np.round(self.costs / unit)).max() > 1e-6:
            return None
        return unit

    def cut_moves(self, k: int) -> bool | None:
        """Whether some optimal order holds another set in the first `k` positions."""
        if self.cut_moved[k] or self.flips[:k, k:].any():
            return True
        if self.pairs_settled:
            return False
        pairs = [(a, b) for a in range(k) for b in range(k, self.s)]
        return self.optimum_with(pairs, float(len(pairs) - 1), lambda o: max(o[:k]) != k - 1)

    def flip_pairs(self, pairs: list[tuple[int, int]]) -> bool:
        """Settle which of `pairs` (``a < b``, in one group) some optimal order reverses.

        With the objective on a lattice of step ``unit``, one solve of ``cost / unit * (P + 1)
        - (number of those pairs reversed)`` (``P = len(pairs)``) finds an optimal order that
        reverses as many of the still unreversed pairs as possible: any order costing a unit
        more scores at least ``P + 1`` more, which no reversals make up. If it reverses none,
        none can be; else repeat. Without a lattice, one solve per pair. Returns False when
        out of time.
        """
        if self.pairs_settled:
            return True
        unit = self.lattice()
        while True:
            left = [(a, b) for a, b in pairs if not self.flips[a, b]]
            if not left:
                self.pairs_settled = self.pairs_settled or len(pairs) == self.s * (self.s - 1) // 2
                return True
            if self.complete:
                return True
            if self.ctx.out_of_time():
                return False
            if unit is None:
                a, b = left[0]
                if self.optimum_with([(a, b)], 0.0, lambda o: o.index(b) < o.index(a)) is None:
                    return False
                if not self.flips[a, b]:
                    pairs = [p for p in pairs if p != (a, b)]  # proven never reversed
                continue
            weight = len(left) + 1
            costs = np.round(self.costs / unit) * weight
            rows, cols = np.array(left).T
            costs[rows, cols] -= 1.0  # paid when b is placed above a: one point less
            ctx = replace(self.quiet, unit=1.0)
            comp = _Component(list(range(self.s)), costs, self.order, ordering_cost(costs, self.order), -math.inf,
                              SolveStatus.TIME_LIMIT, "ilp")
            self.solves += 1
            _lp_phase(comp, 0, ctx)
            if comp.status is not SolveStatus.OPTIMAL:
                found = _mip_search(_model_of(comp, 0, ctx), comp.order, comp.value, comp.bound, 0, ctx, stage="determine")
                order, comp.value, comp.bound, comp.status = found
                assert order is not None  # started from comp.order: an order always comes back
                comp.order = order
            if comp.status is not SolveStatus.OPTIMAL:
                return False
            if ordering_cost(self.costs, comp.order) > self.value + self.ctx.tol:
                raise SolverError("a determination solve returned a non-optimal order", SolveStatus.NOT_SOLVED)
            before = int(self.flips.sum())
            self.expand(comp.order)
            if int(self.flips.sum()) == before or all(not self.flips[a, b] for a, b in left):
                # the best order reverses none of them: none can be reversed
                self.pairs_settled = self.pairs_settled or len(pairs) == self.s * (self.s - 1) // 2
                return True

    def item_moves(self, x: int) -> bool | None:
        """Whether some optimal order puts `x` at another position."""
        if self.item_moved[x]:
            return True
        others = [y for y in range(self.s) if y != x]
        if x > 0:  # fewer items above x: sum of x[y, x] <= x - 1
            found = self.optimum_with([(y, x) for y in others], float(x - 1), lambda o: o.index(x) < x)
            if found is not False:
                return found
        if x < self.s - 1:  # more items above x: sum of x[x, y] <= s - 2 - x
            return self.optimum_with([(x, y) for y in others], float(self.s - 2 - x), lambda o: o.index(x) > x)
        return False


def determine(
    matrix: NDArray[np.float64],
    tied: NDArray[np.bool_],
    components: Sequence[Sequence[int]],
    order: Sequence[int],
    ctx: _Context,
    known: Sequence[Sequence[int]] = (),
    complete: bool = False,
) -> Determination | None:
    """What every optimal order agrees on, given the optimal `order` (None: out of time).

    Parameters
    ----------
    matrix : ndarray (n, n)
        The costs (``matrix[i, j]`` is paid when ``j`` is placed above ``i``).
    tied : ndarray of bool (n, n)
        Exact majority ties (zero margins) off the diagonal.
    components : sequence of sequence of int
        The majority components in their topological order.
    order : sequence of int
        An optimal order of all items.
    ctx : _Context
        The solve's settings and clock.
    known : sequence of sequence of int
        Other optimal orders already known (e.g. enumerated).
    complete : bool, default=False
        `known` (with `order`) is every optimal order: no solve is needed.

    Returns
    -------
    Determination or None
    """
    order = tuple(int(i) for i in order)
    groups: list[tuple[int, ...]] = []
    flipped: list[tuple[int, int]] = []
    fixed: list[int] = []
    solves = 0
    start = 0
    for union in _unions(components, tied):
        size = sum(len(components[g]) for g in union)
        members = list(order[start : start + size])
        start += size
        local = {item: k for k, item in enumerate(members)}
        sub = _Union(matrix[np.ix_(members, members)], ctx, tied[np.ix_(members, members)])
        if {i for g in union for i in components[g]} != set(members):
            raise SolverError("the optimal order does not list the majority components' unions in turn", SolveStatus.NOT_SOLVED)
        sub.complete = complete
        for other in known:
            part = tuple(local[i] for i in other if i in local)
            if len(part) == size:
                sub.add_witness(part)
        sub.expand(sub.order)
        if sub.lattice() is not None:
            # every pair at once (few rounds); the cuts follow: a cut moves iff a pair across it flips
            if not sub.flip_pairs([(a, b) for a in range(size) for b in range(a + 1, size)]):
                return None
        cuts = [0]
        for k in range(1, size):
            moves = sub.cut_moves(k)
            if moves is None:
                return None
            if not moves:
                cuts.append(k)
        cuts.append(size)
        inside = [(a, b) for lo, hi in zip(cuts[:-1], cuts[1:]) if hi - lo > 2
                  for a in range(lo, hi) for b in range(a + 1, hi)]
        if inside and not sub.flip_pairs(inside):
            return None
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            block = tuple(range(lo, hi))
            groups.append(tuple(members[i] for i in block))
            if len(block) == 1:
                fixed.append(members[block[0]])
                continue
            if len(block) == 2:
                flipped.append((members[block[0]], members[block[1]]))
                continue
            flipped.extend((members[a], members[b]) for a in block for b in block if a < b and sub.flips[a, b])
            for x in block:
                if not (sub.flips[x, :].any() or sub.flips[:, x].any()):
                    fixed.append(members[x])  # every pair with x is determined: so is its position
                    continue
                moves = sub.item_moves(x)
                if moves is None:
                    return None
                if not moves:
                    fixed.append(members[x])
        solves += sub.solves
    return Determination(tuple(groups), tuple(flipped), tuple(fixed), solves)


def determination(
    matrix: NDArray[np.float64],
    margins: NDArray[Any],
    components: Sequence[_Component],
    order: Sequence[int],
    ctx: _Context,
    unique: bool | None,
    optima: Sequence[Sequence[int]],
    truncated: bool,
) -> Determination | None:
    """:func:`determine` for a finished solve: free when the optimum is unique or every optimum was enumerated.

    Parameters
    ----------
    matrix : ndarray (n, n)
        The (scaled reduced) costs the components were solved on.
    margins : ndarray (n, n)
        The exact margins; their zeros are the majority ties.
    components : sequence of _Component
        The solved majority components, in ranking order.
    order : sequence of int
        The optimal order.
    ctx : _Context
        The solve's settings and clock.
    unique : bool or None
        Whether the optimum is known to be unique.
    optima : sequence of sequence of int
        Enumerated optima (may be empty).
    truncated : bool
        Whether more optima exist than `optima` lists.

    Returns
    -------
    Determination or None
        None when the time limit stopped it.
    """
    order = tuple(int(i) for i in order)
    if unique:
        return Determination(tuple((i,) for i in order), (), order, 0)
    tied = np.asarray(margins == 0, dtype=bool)
    np.fill_diagonal(tied, False)
    members = [c.members for c in components]
    return determine(matrix, tied, members, order, ctx, known=optima, complete=bool(optima) and not truncated)


def from_optima(order: Sequence[int], optima: Sequence[Sequence[int]]) -> Determination:
    """What every order of a *complete* list of optima shares (no solve).

    Parameters
    ----------
    order : sequence of int
        One of the optimal orders: the groups follow it.
    optima : sequence of sequence of int
        Every optimal order.

    Returns
    -------
    Determination

    Examples
    --------
    >>> from_optima((0, 1, 2), [(0, 1, 2), (1, 0, 2)]).groups
    ((0, 1), (2,))
    """
    order = tuple(int(i) for i in order)
    n = len(order)
    at = np.array([np.argsort(np.asarray(o)) for o in optima]).reshape(-1, n)  # position of each item, per optimum
    rank = at[:, list(order)]  # columns in the order's order
    cuts = [k for k in range(1, n) if np.all(np.sort(rank[:, :k], axis=1) == np.arange(k))]
    bounds = [0, *cuts, n]
    groups = tuple(order[a:b] for a, b in zip(bounds[:-1], bounds[1:]))
    flipped = tuple((order[a], order[b]) for a in range(n) for b in range(a + 1, n) if np.any(rank[:, b] < rank[:, a]))
    fixed = tuple(order[k] for k in range(n) if np.all(rank[:, k] == k))
    return Determination(groups, flipped, fixed, 0)
