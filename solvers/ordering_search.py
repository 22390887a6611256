"""Exact search on one component of the linear-ordering problem: cutting-plane rounds, then MIP rounds.

- :func:`_lp_phase`: solve the LP relaxation, add the most violated 3-cycle inequalities,
  drop rows with all their slack left once the LP grows, repeat. The LP value is a proven
  lower bound, re-derived from the duals by independent arithmetic (a Lagrangian bound).
  Often the LP optimum is already a linear order, and then it is optimal.
- :func:`_mip_search`: binary variables, the incumbent as MIP start, absolute gap of half
  the objective's lattice step; integer solutions with 3-cycles get those cuts added and
  are re-solved with the *remaining* time, until the bound meets the incumbent.

Both update a :class:`_Component` in place and report through the :class:`_Context` of
the whole solve; :func:`solvers.linear_ordering.solve_linear_ordering` runs them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from .ordering_costs import _round_up, ordering_cost
from .ordering_exact import ExactCosts
from .ordering_heuristics import improve_order
from .ordering_model import _Counters, _order_of, _OrderingModel, _scan_cycles
from .status import SolverError, SolveStatus

Method = Literal["auto", "ilp", "brute_force"]

#: Most violated 3-cycles added per LP round, per item of the component.
_CUTS_PER_ITEM = 25
#: 3-cycle rows with (nearly) all their slack left at the LP optimum are dropped once the LP
#: has more than _PURGE_MIN_ROWS rows per item (they come back if violated again): it keeps
#: the LPs of pure-noise leaderboards 3-5x smaller (N = 150: LP phase 79 s -> 15 s).
_PURGE_SLACK: float | None = 0.999
_PURGE_MIN_ROWS = 10


@dataclass
class _Context:
    """The settings, clock and counters of one solve, shared by every component."""

    backend: str
    method: Method
    deadline: float | None
    verbose: bool
    threads: int | None
    tol: float
    unit: float | None
    seed: int
    counters: _Counters
    report: Callable[[str, int, float, float], None]
    initial: Any = None  # position of every item in a warm-start order (numpy array), or None

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return self.deadline - time.perf_counter()

    def out_of_time(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0.0

    def proves(self, bound: float, value: float) -> bool:
        """Whether a lower `bound` proves that no order beats `value`."""
        if self.unit is not None:
            return bound > value - self.unit * (1.0 - 1e-6)
        return bound >= value - max(self.tol, 1e-9 * max(1.0, abs(value)))

    def gap_abs(self) -> float:
        """Absolute MIP gap: half a lattice step (a bound above ``value - unit`` proves ``value``)."""
        return 0.5 * self.unit if self.unit is not None else max(self.tol, 1e-9)


@dataclass
class _Component:
    """One component's best order so far, its proven bound and status (updated in place by the phases)."""

    members: list[int]
    costs: NDArray[np.float64]
    order: tuple[int, ...]
    value: float
    bound: float
    status: SolveStatus
    kind: str  # "trivial", "brute_force", "ilp"
    model: _OrderingModel | None = None
    brute_optima: tuple[tuple[int, ...], ...] | None = None


def _model_of(comp: _Component, index: int, ctx: _Context) -> _OrderingModel:
    """The component's ILP model, built on first use."""
    if comp.model is None:
        comp.model = _OrderingModel(
            comp.costs,
            backend=ctx.backend,
            verbose=ctx.verbose,
            threads=ctx.threads,
            counters=ctx.counters,
            on_mip_progress=lambda b: ctx.report(
                "mip", index, comp.value, max(comp.bound, _round_up(b, comp.value, ctx.unit))
            ),
        )
    return comp.model


def _lp_phase(comp: _Component, index: int, ctx: _Context) -> None:
    """Cutting planes on the LP relaxation until no 3-cycle is violated."""
    model = _model_of(comp, index, ctx)
    n = model.n
    per_round = max(100, _CUTS_PER_ITEM * n)
    while not ctx.out_of_time():
        # each LP gets exactly the time left in the whole call (HiGHS stops there)
        status, y, lp_bound = model.solve_lp(ctx.remaining())
        if y is None:
            if status is SolveStatus.NOT_SOLVED and (ctx.out_of_time() or model.limit_reached):
                return  # the time limit stopped the LP before it had a point
            raise SolverError(f"the LP relaxation ended with status {status.value!r}", status)
        if lp_bound is not None:
            comp.bound = max(comp.bound, _round_up(lp_bound, comp.value, ctx.unit))
        above = model.above(y)
        order, value = improve_order(comp.costs, _order_of(above), tol=ctx.tol, deadline=ctx.deadline)
        if value < comp.value - ctx.tol:
            comp.order, comp.value = order, value
        ctx.report("lp", index, comp.value, comp.bound)
        if ctx.proves(comp.bound, comp.value):
            comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value
            return
        if status is not SolveStatus.OPTIMAL:
            return  # time limit inside the LP
        cycles, complete = _scan_cycles(above, eps=1e-6, limit=per_round, deadline=ctx.deadline)
        if not complete:
            return  # out of time during the separation: no LP round would follow anyway
        if len(cycles) == 0:
            if np.all(np.abs(y - np.round(y)) <= 1e-6):
                _accept_integral_lp(comp, index, ctx, above)
            return
        if _PURGE_SLACK is not None and len(model.rows) > _PURGE_MIN_ROWS * n:
            model.purge_slack_cycles(y, slack=_PURGE_SLACK)
        model.add_cycles(cycles.tolist())


def _accept_integral_lp(comp: _Component, index: int, ctx: _Context, above: NDArray[np.float64]) -> None:
    """An integral LP optimum without 3-cycles is a linear order: optimal when the verified
    bound agrees (up to the LP's own tolerances)."""
    exact = _order_of(np.round(above))
    exact_value = ordering_cost(comp.costs, exact)
    if exact_value < comp.value - ctx.tol:
        comp.order, comp.value = exact, exact_value
    if comp.bound >= comp.value - 1e-6 * max(1.0, abs(comp.value)):
        comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value
    ctx.report("lp", index, comp.value, comp.bound)


def _root_cannot_finish(model: _OrderingModel, ctx: _Context) -> bool:
    """Whether less time is left than the model's last LP took: the MIP could not even solve
    its root relaxation (with the incumbent as start and HiGHS's heuristics off, it could find
    nothing), while its presolve, which HiGHS does not interrupt, may overrun the limit."""
    left = ctx.remaining()
    seconds = getattr(model, "lp_seconds", None)  # tests may stand in models without it
    return left is not None and seconds is not None and left < seconds


def _mip_search(
    model: _OrderingModel,
    order: tuple[int, ...] | None,
    value: float,
    bound: float,
    index: int,
    ctx: _Context,
    *,
    stage: str,
    stop_at: float | None = None,
    accept: Callable[[tuple[int, ...]], bool] | None = None,
) -> tuple[tuple[int, ...] | None, float, float, SolveStatus]:
    """Minimize over the current model (with its no-goods) by MIP + lazy 3-cycles.

    Returns the best valid order found (None if none), its cost (inf if none), a proven
    lower bound for the current model, and OPTIMAL when that bound meets the order.
    With `stop_at`, returns as soon as a valid order costing at most `stop_at` is found.
    With `accept`, only orders it accepts count as valid (the model has a row that local
    search may not respect).
    """
    costs = model.costs
    while True:
        if order is not None and ctx.proves(bound, value):
            return order, value, value, SolveStatus.OPTIMAL
        if ctx.out_of_time() or _root_cannot_finish(model, ctx):
            return order, value, bound, SolveStatus.TIME_LIMIT
        result = model.solve_mip(ctx.remaining(), start=order, gap_abs=ctx.gap_abs())
        if result.status is SolveStatus.INFEASIBLE:
            # the no-goods exclude every order: nothing better exists
            return order, value, math.inf, SolveStatus.OPTIMAL
        if result.dual_bound is not None:
            bound = max(bound, _round_up(result.dual_bound, value if order else result.dual_bound, ctx.unit))
        if result.status is SolveStatus.OPTIMAL and result.value is not None:
            # optimal for the relaxed model (up to the absolute gap): a valid bound
            base = value if order is not None else result.value
            bound = max(bound, _round_up(result.value - ctx.gap_abs(), base, ctx.unit))
        if result.above is not None:
            # a partial scan (deadline) only adds fewer cuts: the loop ends on the time check
            cycles, _ = _scan_cycles(result.above, eps=0.5, limit=None, deadline=ctx.deadline)
            if len(cycles):
                model.add_cycles(cycles.tolist())
            raw = _order_of(result.above)
            for candidate in (raw, improve_order(costs, raw, tol=ctx.tol, deadline=ctx.deadline)[0]):
                candidate_value = ordering_cost(costs, candidate)
                valid = candidate not in model.excluded and (accept is None or accept(candidate))
                if valid and (order is None or candidate_value < value - ctx.tol):
                    order, value = candidate, candidate_value
            if stop_at is not None and order is not None and value <= stop_at + ctx.tol:
                # as good as the known optimum of the unrestricted problem: optimal here too
                return order, value, value, SolveStatus.OPTIMAL
        ctx.report(stage, index, value if order is not None else math.inf, bound)
        if result.status is SolveStatus.NOT_SOLVED:
            if ctx.out_of_time():
                return order, value, bound, SolveStatus.TIME_LIMIT
            raise SolverError(f"{ctx.backend} stopped without a solution", result.status)
        if result.status is SolveStatus.TIME_LIMIT and ctx.out_of_time():
            return order, value, bound, SolveStatus.TIME_LIMIT
        if result.above is None:
            raise SolverError(f"{ctx.backend} returned no solution (status {result.status.value!r})", result.status)


def _positions(initial: Sequence[int] | None, n: int) -> NDArray[np.int64] | None:
    """The position of every item in the warm-start order `initial` (a permutation of ``range(n)``)."""
    if initial is None:
        return None
    order = [int(i) for i in initial]
    if sorted(order) != list(range(n)):
        raise ValueError(f"initial must be an order of all {n} items (each index 0..{n - 1} once), got {list(initial)!r}")
    where = np.empty(n, dtype=np.int64)
    where[order] = np.arange(n)
    return where


def _method_name(components: Sequence[_Component], backend: str) -> str:
    kinds = {c.kind for c in components}
    if "ilp" in kinds:
        return f"ilp:{backend.lower()}"
    return "brute_force" if "brute_force" in kinds else "decomposition"


# --------------------------------------------------------------------------- entry point


def _in_cost_units(
    progress: Callable[[Any], None] | None, exact: ExactCosts
) -> Callable[[Any], None] | None:
    """`progress`, fed reports in the units of the costs (the solver works on scaled reduced costs)."""
    if progress is None:
        return None

    def report(info: Any) -> None:  # a SolveProgress
        progress(replace(info, incumbent=exact.to_cost(info.incumbent), bound=exact.to_cost(info.bound)))

    return report


def _precision_notes(exact: ExactCosts, components: Sequence[_Component]) -> tuple[str, ...]:
    """A note when an ILP component's optimality holds only up to the float MIP's resolution."""
    sizes = [len(c.members) for c in components if c.kind == "ilp"]
    if exact.resolved or not sizes:
        return ()
    return (exact.precision_note(sizes),)
