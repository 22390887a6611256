"""Is the Kemeny-optimal order unique, and which orders tie with it?

Every optimal order is a component-respecting optimal order with adjacent majority-tied
items swapped (see :mod:`solvers.linear_ordering`), so the optima of the whole problem are
the tie closure of the products of the components' optima. Within a component the optima
are found by MIP with no-goods that exclude the orders already known
(:func:`solvers.ordering_search._mip_search`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from .ordering_costs import ordering_cost
from .ordering_heuristics import _insertion_deltas, _moved
from .ordering_search import _Component, _Context, _mip_search, _model_of
from .status import SolveStatus


def _tied(margins: NDArray[np.float64], a: int, b: int, tol: float) -> bool:
    return abs(float(margins[a, b])) <= tol


def _tie_closure(
    seeds: Iterable[tuple[int, ...]],
    margins: NDArray[np.float64],
    tol: float,
    cap: int,
    deadline: float | None = None,
) -> tuple[list[tuple[int, ...]], bool]:
    """All orders reachable by swapping adjacent majority-tied items (each swap costs 0).

    Returns at most `cap` orders and whether the closure is complete (not complete
    either when `deadline`, a ``time.perf_counter()`` value, passes first).
    """
    seen: dict[tuple[int, ...], None] = {}
    queue: deque[tuple[int, ...]] = deque()
    for seed in seeds:
        if seed in seen:
            continue
        if len(seen) >= cap:
            return list(seen), False
        seen[seed] = None
        queue.append(seed)
        while queue:
            if deadline is not None and time.perf_counter() > deadline:
                return list(seen), False
            current = queue.popleft()
            for k in range(len(current) - 1):
                if _tied(margins, current[k], current[k + 1], tol):
                    swapped = current[:k] + (current[k + 1], current[k]) + current[k + 2 :]
                    if swapped not in seen:
                        if len(seen) >= cap:
                            return list(seen), False
                        seen[swapped] = None
                        queue.append(swapped)
    return list(seen), True


def _best_other(costs: NDArray[np.float64], known: Iterable[tuple[int, ...]], exclude: set[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The cheapest single-item move away from a known optimum that is not excluded."""
    margins = costs - costs.T
    best: tuple[float, tuple[int, ...]] | None = None
    for order in list(known)[-5:]:
        deltas, sources, targets = _insertion_deltas(margins, np.asarray(order))
        for k in np.lexsort((targets, sources, deltas)):  # by (delta, source, target)
            candidate = _moved(order, int(sources[k]), int(targets[k]))
            if candidate not in exclude:
                if best is None or deltas[k] < best[0]:
                    best = (float(deltas[k]), candidate)
                break
    return None if best is None else best[1]


def _component_unique(comp: _Component, index: int, ctx: _Context) -> bool | None:
    """Whether the component's optimum is its only optimal order (None: out of time)."""
    n = len(comp.order)
    if n == 1:
        return True
    if comp.brute_optima is not None:
        return len(comp.brute_optima) == 1
    margins = comp.costs - comp.costs.T
    if any(_tied(margins, comp.order[k], comp.order[k + 1], ctx.tol) for k in range(n - 1)):
        return False
    if ctx.out_of_time():
        return None  # no time for the O(n^2) move check nor the MIP
    if bool(np.any(_insertion_deltas(margins, np.asarray(comp.order))[0] <= ctx.tol)):
        return False  # a zero-cost move: another optimal order
    if ctx.out_of_time():
        return None
    model = _model_of(comp, index, ctx)
    model.add_nogood(comp.order)
    start = _best_other(comp.costs, [comp.order], {comp.order})
    value = ordering_cost(comp.costs, start) if start is not None else math.inf
    order, value, bound, status = _mip_search(
        model, start, value, -math.inf, index, ctx, stage="unique", stop_at=comp.value
    )
    if order is not None and value <= comp.value + ctx.tol:
        return False
    if status is SolveStatus.OPTIMAL and bound > comp.value + ctx.tol:
        return True
    return None


def _component_optima(comp: _Component, index: int, ctx: _Context, cap: int) -> tuple[list[tuple[int, ...]], bool]:
    """Up to `cap` optimal orders of a component and whether that is all of them."""
    if comp.brute_optima is not None:
        return list(comp.brute_optima[:cap]), len(comp.brute_optima) <= cap
    if len(comp.order) == 1:
        return [comp.order], True
    margins = comp.costs - comp.costs.T
    found, complete = _tie_closure([comp.order], margins, ctx.tol, cap + 1, ctx.deadline)
    if not complete or ctx.out_of_time():
        return found[:cap], False  # truncated by the cap, or out of time
    model = _model_of(comp, index, ctx)
    order: tuple[int, ...] | None  # _mip_search below may find none
    for order in found:
        model.add_nogood(order)
    while complete and len(found) <= cap:
        if ctx.out_of_time():
            return found[:cap], False
        known = set(found)
        start = _best_other(comp.costs, found, known)
        value = ordering_cost(comp.costs, start) if start is not None else math.inf
        order, value, bound, status = _mip_search(
            model, start, value, -math.inf, index, ctx, stage="enumerate", stop_at=comp.value
        )
        if order is not None and value <= comp.value + ctx.tol:
            more, complete = _tie_closure([order], margins, ctx.tol, cap + 1 - len(found), ctx.deadline)
            for extra in more:
                if extra not in known:
                    found.append(extra)
                    known.add(extra)
                    model.add_nogood(extra)
            continue
        if status is SolveStatus.OPTIMAL and bound > comp.value + ctx.tol:
            return found[:cap], len(found) <= cap
        return found[:cap], False  # out of time
    return found[:cap], False


def _enumerate_optima(
    matrix: NDArray[np.float64], components: Sequence[_Component], ctx: _Context, cap: int
) -> tuple[tuple[tuple[int, ...], ...], bool, bool | None, tuple[int, ...] | None]:
    """Up to `cap` optimal orders of the whole problem (lexicographic).

    Returns the optima, whether more may exist (truncated), whether the optimum is unique
    (None when that is not settled), and the canonical optimal order (the
    lexicographically first) when the list is complete, else None.
    """
    margins = matrix - matrix.T
    per_component: list[list[tuple[int, ...]]] = []
    complete = True
    for g, comp in enumerate(components):
        local, done = _component_optima(comp, g, ctx, cap)
        per_component.append([tuple(comp.members[i] for i in o) for o in local])
        complete = complete and done
    seeds = (tuple(itertools.chain.from_iterable(parts)) for parts in itertools.product(*per_component))
    everything, closed = _tie_closure(seeds, margins, ctx.tol, cap + 1, ctx.deadline)
    complete = complete and closed and len(everything) <= cap
    everything = sorted(everything)
    optima = tuple(everything[:cap])
    if complete:
        return optima, False, len(everything) == 1, everything[0]
    return optima, True, (False if len(everything) > 1 else None), None


def _order_is_unique(
    matrix: NDArray[np.float64], components: Sequence[_Component], order: Sequence[int], ctx: _Context
) -> bool | None:
    """Whether the optimal `order` is the only optimal order (None: out of time)."""
    margins = matrix - matrix.T
    if any(_tied(margins, order[k], order[k + 1], ctx.tol) for k in range(len(order) - 1)):
        return False
    verdicts = [_component_unique(comp, g, ctx) for g, comp in enumerate(components)]
    if any(v is False for v in verdicts):
        return False
    if all(v is True for v in verdicts):
        return True
    return None
