"""Kemeny consensus as a linear-ordering integer program, with lazy 3-cycle cuts.

Input is a plain cost matrix: ``costs[i, j]`` is paid when ``j`` is placed above ``i``
(for Kemeny consensus, the task weight preferring ``i`` to ``j``: wins + ties / 2).
Output is a frozen :class:`LinearOrderingOutcome` of item indices; this module knows
no labels and no pandas.

How it is solved (each step is exact; the heuristics only speed up the proof):

1. **Decomposition** (:func:`majority_components`). Strongly connected components of the
   strict majority relation, in a topological order, so that no item of a later component
   beats an item of an earlier one. Moving a later item that sits directly above an
   earlier item one step down changes the cost by ``-margin <= 0``; bubbling all such
   pairs gives an order that respects the components and costs no more, so the optimal
   *value* is the sum of the components' optima plus a constant. From an optimal order
   every such swap costs exactly 0, i.e. exchanges two majority-*tied* items: every
   optimal order is a component-respecting optimal order with adjacent tied items
   swapped. That is how :func:`solve_linear_ordering` checks uniqueness and enumerates
   all optima across components (:mod:`solvers.ordering_optima`).
2. **Incumbent**: the better of the Borda (row sums) and Copeland (majority wins minus
   losses) orders, improved by insertion local search (:mod:`solvers.ordering_heuristics`).
3. **LP phase**: one variable per pair ``i < j`` (``y_ij = 1``: ``i`` above ``j``; the
   reverse order is ``1 - y_ij``, so "exactly one direction per pair" needs no
   constraint); solve the LP relaxation, add the most violated 3-cycle inequalities
   (vectorized search over all triples), drop rows with all their slack left once the LP
   grows, repeat. The LP value is a proven lower bound,
   re-derived from the duals by independent arithmetic (a Lagrangian bound). Often the
   LP optimum is already a linear order, and then it is optimal
   (:mod:`solvers.ordering_model`, :mod:`solvers.ordering_search`).
4. **MIP phase**: binary variables, the incumbent as MIP start (HiGHS), absolute gap of
   half the objective's lattice step; integer solutions with 3-cycles get those cuts
   added and are re-solved with the *remaining* time, until the bound meets the incumbent.

The helpers of those steps are importable from here too: :func:`ordering_cost`,
:func:`objective_unit`, :func:`majority_components` (:mod:`solvers.ordering_costs`),
:func:`heuristic_order`, :func:`improve_order` and :func:`violated_cycles`.

References
----------
.. [1] Colombo et al., "What are the best systems? New perspectives on NLP benchmarking",
   NeurIPS 2022, sec. 3.1 (Kemeny consensus, NP-hard in general).
.. [2] Grotschel, Junger, Reinelt, "A cutting plane algorithm for the linear ordering
   problem", Operations Research 32(6), 1984 (3-dicycle inequalities).
.. [3] Conitzer, Davenport, Kalagnanam, "Improved bounds for computing Kemeny rankings",
   AAAI 2006 (the ILP and the majority-graph decomposition).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .brute_force import MAX_BRUTE_FORCE, brute_force_linear_ordering
from .ordering_costs import (
    _as_costs,
    _round_up,
    _trivial_bound,
    majority_components,
    objective_unit,
    ordering_cost,
)
from .ordering_determined import Determination, determination, from_optima
from .ordering_exact import ExactCosts
from .ordering_heuristics import _perturbation_search, heuristic_order, improve_order
from .ordering_model import _Counters, _MipResult, _OrderingModel, violated_cycles  # noqa: F401 - tests patch and build them as lo.<name>
from .ordering_optima import _enumerate_optima, _order_is_unique
from .ordering_search import (
    Method,
    _Component,
    _Context,
    _in_cost_units,
    _lp_phase,
    _method_name,
    _mip_search,
    _model_of,
    _positions,
    _precision_notes,
)
from .status import SolverError, SolveStatus

__all__ = [
    "LinearOrderingOutcome",
    "SolveProgress",
    "heuristic_order",
    "improve_order",
    "majority_components",
    "objective_unit",
    "ordering_cost",
    "solve_linear_ordering",
    "violated_cycles",
]

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report, passed to the ``progress`` callback after each solve round.

    ``incumbent`` and ``bound`` are for the whole problem (all components), so
    ``incumbent - bound`` is the current proven gap; during the ``"unique"`` and
    ``"enumerate"`` stages they stay at the proven optimum.

    Attributes
    ----------
    stage : str
        ``"heuristic"``, ``"lp"``, ``"mip"``, ``"unique"`` or ``"enumerate"``.
    component : int
        0-based index of the component being solved (in ranking order).
    n_components : int
        Number of components.
    size : int
        Items in this component.
    round : int
        LP and MIP solves so far.
    cuts : int
        3-cycle constraints added so far.
    incumbent : float
        Cost of the best order known.
    bound : float
        Proven lower bound on the optimal cost.
    elapsed : float
        Seconds since the call started.

    Examples
    --------
    >>> seen = []
    >>> res = solve_linear_ordering([[0, 2, 1], [1, 0, 2], [2, 1, 0]], method="ilp", progress=seen.append)
    >>> [(p.stage, p.incumbent, p.bound, p.gap) for p in seen]
    [('heuristic', 4.0, 3.0, 1.0), ('lp', 4.0, 3.0, 1.0), ('lp', 4.0, 4.0, 0.0)]
    """

    stage: str
    component: int
    n_components: int
    size: int
    round: int
    cuts: int
    incumbent: float
    bound: float
    elapsed: float

    @property
    def gap(self) -> float:
        """``incumbent - bound`` (0 once proven optimal)."""
        return max(0.0, self.incumbent - self.bound)


@dataclass(frozen=True, slots=True)
class LinearOrderingOutcome:
    """The best order found, its cost, a proven lower bound, and solve statistics.

    Attributes
    ----------
    order : tuple of int
        Item indices, best first.
    objective : float
        Cost of `order`, recomputed from the matrix with :func:`ordering_cost`.
    lower_bound : float
        Proven lower bound on the optimal cost (equal to `objective` when optimal).
    status : SolveStatus
        ``OPTIMAL`` or ``TIME_LIMIT``.
    method : str
        ``"ilp:<backend>"`` when an integer program was solved, ``"brute_force"`` when
        every component was small enough to enumerate, ``"decomposition"`` when every
        component is a single item (the majority relation is already a ranking).
    unique : bool or None
        Whether `order` is the only optimal order; None when not checked (not asked,
        not optimal, or out of time).
    optima : tuple of tuple of int
        All optimal orders (lexicographic), when enumeration was asked; else ``()``.
    optima_truncated : bool
        More optimal orders exist than the enumeration cap.
    components : tuple of tuple of int
        Members of each decomposition component, in the order they are ranked.
    constraints_added : int
        3-cycle constraints added lazily (over all components and re-solves).
    iterations : int
        LP and MIP solves performed.
    seconds : float
        Wall-clock time.
    unit : float or None
        Exact lattice step of the objective (every order costs ``objective + k * unit``,
        the gcd of the exact margins), or None when every pair ties.
    notes : tuple of str
        Caveats, e.g. that an ILP component's margins span more than a float MIP resolves,
        so its optimality holds only up to a tolerance.
    determined : Determination or None
        What every optimal order agrees on, when asked for (``determine=True``), the order
        is optimal and there was time; else None.

    Examples
    --------
    >>> res = solve_linear_ordering([[0, 3, 3], [0, 0, 2], [0, 1, 0]])   # 0 > 1 > 2, no cycle
    >>> res.order, res.objective, res.optimal, res.gap, res.method, res.components
    ((0, 1, 2), 1.0, True, 0.0, 'decomposition', ((0,), (1,), (2,)))
    """

    order: tuple[int, ...]
    objective: float
    lower_bound: float
    status: SolveStatus
    method: str
    unique: bool | None
    optima: tuple[tuple[int, ...], ...]
    optima_truncated: bool
    components: tuple[tuple[int, ...], ...]
    constraints_added: int
    iterations: int
    seconds: float
    unit: float | None
    notes: tuple[str, ...] = ()
    determined: Determination | None = None

    @property
    def optimal(self) -> bool:
        """Whether `order` is proven optimal."""
        return self.status is SolveStatus.OPTIMAL

    @property
    def gap(self) -> float:
        """``objective - lower_bound``."""
        return max(0.0, self.objective - self.lower_bound)


# --------------------------------------------------------------------------- progress
@dataclass
class _Tracker:
    """Incumbent and bound of every component: what progress reports add up.

    ``cross`` is the constant cost of the pairs split between components (for
    component-respecting orders), so the whole problem's incumbent is ``cross +
    sum(values)`` and its bound ``cross + sum(bounds)``.
    """

    sizes: list[int]
    cross: float
    values: list[float]
    bounds: list[float]
    start_time: float
    progress: Callable[[SolveProgress], None] | None
    counters: _Counters = field(default_factory=_Counters)

    @classmethod
    def start(
        cls,
        matrix: NDArray[np.float64],
        groups: Sequence[Sequence[int]],
        progress: Callable[[SolveProgress], None] | None,
        start_time: float,
    ) -> _Tracker:
        """Each component starts at the cost of its index order and its trivial bound."""
        rank_of = np.empty(matrix.shape[0], dtype=np.int64)
        for g, members in enumerate(groups):
            rank_of[members] = g
        cross = float((matrix.T * (rank_of[:, None] < rank_of[None, :])).sum())
        values = [0.0] * len(groups)
        bounds = [0.0] * len(groups)
        for g, members in enumerate(groups):
            if len(members) > 1:
                sub = matrix[np.ix_(members, members)]
                bounds[g] = _trivial_bound(sub)
                values[g] = ordering_cost(sub, list(range(len(members))))
        return cls([len(m) for m in groups], cross, values, bounds, start_time, progress)

    def report(self, stage: str, g: int, value: float, bound: float) -> None:
        """Record a round of component `g` and pass it on (callback and DEBUG log)."""
        if stage not in ("unique", "enumerate"):
            self.values[g] = min(self.values[g], value)  # every reported value belongs to an order
            self.bounds[g] = max(self.bounds[g], bound)
        if self.progress is None and not logger.isEnabledFor(logging.DEBUG):
            return
        info = SolveProgress(
            stage=stage,
            component=g,
            n_components=len(self.sizes),
            size=self.sizes[g],
            round=self.counters.iterations,
            cuts=self.counters.cuts,
            incumbent=self.cross + sum(self.values),
            bound=self.cross + sum(self.bounds),
            elapsed=time.perf_counter() - self.start_time,
        )
        logger.debug(
            "kemeny %s: component %d/%d (%d items), round %d, %d cuts, incumbent %.6g, bound %.6g, %.2f s",
            stage, info.component + 1, info.n_components, info.size, info.round, info.cuts,
            info.incumbent, info.bound, info.elapsed,
        )
        if self.progress is not None:
            self.progress(info)

    def record(self, g: int, comp: _Component) -> None:
        """Component `g` is done: its final value and bound replace the running ones."""
        self.values[g], self.bounds[g] = comp.value, comp.bound


# --------------------------------------------------------------------------- steps
def _check_linear_ordering(
    costs: ArrayLike, method: str, time_limit: float | None, enumerate_optima: int, tol: float | None
) -> tuple[NDArray[np.float64], int, float | None]:
    """Validate the inputs; returns the cost matrix, the enumeration cap and the tie tolerance given."""
    matrix = _as_costs(costs)
    if method not in ("auto", "ilp", "brute_force"):
        raise ValueError(f"unknown method {method!r}; use 'auto', 'ilp' or 'brute_force'")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if int(enumerate_optima) != enumerate_optima or enumerate_optima < 0:
        raise ValueError(f"enumerate_optima must be an integer >= 0, got {enumerate_optima!r}")
    n = matrix.shape[0]
    if method == "brute_force" and n > MAX_BRUTE_FORCE:
        raise ValueError(f"brute force handles at most {MAX_BRUTE_FORCE} items, got {n}; use method='ilp'")
    return matrix, int(enumerate_optima), tol  # None: exact margins or per-pair rounding ties


def _brute_force_outcome(
    matrix: NDArray[np.float64], *, exact: ExactCosts, unit: float | None, unique: bool, cap: int, start_time: float,
    determine: bool | None,
) -> LinearOrderingOutcome:
    """``method="brute_force"``: all ``n!`` orders of the whole matrix, no decomposition."""
    n = matrix.shape[0]
    bf = brute_force_linear_ordering(matrix, margins=exact.margins)
    complete = bf.unique or (bool(cap) and len(bf.optima) <= cap)  # what determine=None computes
    return LinearOrderingOutcome(
        order=bf.order,
        objective=bf.objective,
        lower_bound=bf.objective,
        status=SolveStatus.OPTIMAL,
        method="brute_force",
        unique=bf.unique if (unique or cap) else None,
        optima=bf.optima[:cap] if cap else (),
        optima_truncated=bool(cap) and len(bf.optima) > cap,
        components=(tuple(range(n)),),
        constraints_added=0,
        iterations=0,
        seconds=time.perf_counter() - start_time,
        unit=unit,
        determined=from_optima(bf.order, bf.optima) if (determine or (determine is None and complete)) else None,
    )


def _solve_component(
    costs: NDArray[np.float64], index: int, ctx: _Context, margins: NDArray[np.int64] | NDArray[np.object_] | None = None,
    warm: tuple[int, ...] | None = None,
) -> _Component:
    """One component: trivial, brute force (exact, on `margins`), or heuristic -> LP phase -> perturbation -> MIP phase."""
    n = costs.shape[0]
    members = list(range(n))
    if n == 1:
        return _Component(members, costs, (0,), 0.0, 0.0, SolveStatus.OPTIMAL, "trivial")
    use_ilp = ctx.method == "ilp" or n > MAX_BRUTE_FORCE
    if not use_ilp and not ctx.out_of_time():  # out of time: the heuristic below, no 8! enumeration
        bf = brute_force_linear_ordering(costs, tol=ctx.tol, margins=margins)
        return _Component(
            members, costs, bf.order, bf.objective, bf.objective, SolveStatus.OPTIMAL, "brute_force", brute_optima=bf.optima
        )
    order, value = heuristic_order(costs, tol=ctx.tol, deadline=ctx.deadline)  # always an order, even out of time
    if warm is not None:  # a warm start (e.g. the full-data ranking of a resample) replaces a worse heuristic order
        warm_value = ordering_cost(costs, warm)
        if warm_value < value - ctx.tol:
            order, value = warm, warm_value
    bound = _round_up(_trivial_bound(costs), value, ctx.unit)
    comp = _Component(members, costs, order, value, bound, SolveStatus.TIME_LIMIT, "ilp" if use_ilp else "brute_force")
    ctx.report("heuristic", index, value, bound)
    if ctx.proves(bound, value):
        comp.status, comp.bound = SolveStatus.OPTIMAL, value
        return comp
    if ctx.out_of_time():
        return comp  # the heuristic order and the trivial bound: no model is built
    model = _model_of(comp, index, ctx)
    _lp_phase(comp, index, ctx)
    if comp.status is not SolveStatus.OPTIMAL and not ctx.out_of_time():
        _perturbation_phase(comp, index, ctx)
    if comp.status is not SolveStatus.OPTIMAL and not ctx.out_of_time():
        best = _mip_search(model, comp.order, comp.value, comp.bound, index, ctx, stage="mip")
        best_order, comp.value, comp.bound, comp.status = best
        assert best_order is not None  # started from comp.order: an order always comes back
        comp.order = best_order
    return comp


def _perturbation_phase(comp: _Component, index: int, ctx: _Context) -> None:
    """Iterated local search on the incumbent: 40 + 10 n perturbations (deterministic), at most a
    fifth of the remaining time."""
    budget = 40 + 10 * len(comp.order)
    left = ctx.remaining()
    search_deadline = None if left is None else time.perf_counter() + 0.2 * left
    order, value = _perturbation_search(
        comp.costs, comp.order, comp.value, iterations=budget, seed=ctx.seed, deadline=search_deadline, tol=ctx.tol
    )
    if value < comp.value - ctx.tol:
        comp.order, comp.value = order, value
        ctx.report("heuristic", index, comp.value, comp.bound)
    if ctx.proves(comp.bound, comp.value):
        comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value


def _solve_components(
    matrix: NDArray[np.float64], groups: Sequence[list[int]], ctx: _Context, tracker: _Tracker,
    exact: ExactCosts | None = None,
) -> list[_Component]:
    """Solve every component, small ones first; returns them in ranking order."""
    solved: list[_Component | None] = [None] * len(groups)
    for g in sorted(range(len(groups)), key=lambda g: (len(groups[g]), g)):  # small components first
        members = groups[g]
        block = None if exact is None else exact.block(members)
        warm = None if ctx.initial is None else tuple(int(k) for k in np.argsort(ctx.initial[members], kind="stable"))
        comp = _solve_component(matrix[np.ix_(members, members)], g, ctx, block, warm)
        comp.members = members
        tracker.record(g, comp)
        solved[g] = comp
        logger.debug(
            "kemeny component %d/%d: %d items, %s, cost %.6g, bound %.6g",
            g + 1, len(groups), len(members), comp.status.value, comp.value, comp.bound,
        )
    return [c for c in solved if c is not None]


def _join(
    matrix: NDArray[np.float64], components: Sequence[_Component], cross: float, unit: float | None
) -> tuple[tuple[int, ...], float, float, SolveStatus]:
    """The components' orders end to end: order, its cost, a proven lower bound, and the status."""
    order = tuple(c.members[i] for c in components for i in c.order)
    objective = ordering_cost(matrix, order)
    if all(c.status is SolveStatus.OPTIMAL for c in components):
        return order, objective, objective, SolveStatus.OPTIMAL
    lower_bound = min(objective, _round_up(cross + sum(c.bound for c in components), objective, unit))
    return order, objective, lower_bound, SolveStatus.TIME_LIMIT


def solve_linear_ordering(
    costs: ArrayLike,
    *,
    backend: str = "highs",
    method: Method = "auto",
    time_limit: float | None = None,
    decompose: bool = True,
    unique: bool = True,
    enumerate_optima: int = 0,
    progress: Callable[[SolveProgress], None] | None = None,
    verbose: bool = False,
    threads: int | None = None,
    tol: float | None = None,
    seed: int = 0,
    margins: ArrayLike | tuple[NDArray[np.integer] | NDArray[np.object_], int] | None = None,
    initial: Sequence[int] | None = None,
    determine: bool | None = False,
) -> LinearOrderingOutcome:
    """Find an order of minimum total cost (Kemeny consensus), with proof of optimality.

    Orders are compared on exact margins (:class:`solvers.ordering_exact.ExactCosts`): the
    decomposition, majority ties, brute force and the objective's lattice step are exact.
    The heuristics and the ILP work on the *reduced* costs (each pair's positive margin, so
    tied weight, however large, adds nothing), scaled so the largest is about 1. The float
    MIP proves exact optimality when the lattice step is at least ``1e-6`` of the largest
    margin; otherwise (weights spanning many orders of magnitude, or arbitrary real
    weights) an ILP component is optimal up to about ``1e-9`` of the objective, and
    ``notes`` says so. Components of at most 8 items are always enumerated exactly.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``. For Kemeny consensus:
        the pairwise preference matrix (task weight preferring ``i`` to ``j``, ties
        counting half for each side).
    backend : str, default="highs"
        Solver name for :func:`solvers.backends.make_solver` (``"highs"``, ``"cbc"``, ...).
    method : {"auto", "ilp", "brute_force"}, default="auto"
        ``"auto"``: components of at most 8 items are enumerated, larger ones solved by
        ILP. ``"ilp"``: every component of 2+ items by ILP. ``"brute_force"``: all ``n!``
        orders of the whole matrix (``n <= 8``), no decomposition.
    time_limit : float, optional
        Seconds for the whole call: every phase (heuristic, LP rounds, each HiGHS run
        getting only the time left, MIP, uniqueness and enumeration) checks the same
        deadline and returns the best it has. When it runs out the best order is returned
        with status ``TIME_LIMIT`` and a proven lower bound (at worst the trivial one).
        Without a limit the outcome is ``OPTIMAL`` or :class:`SolverError` is raised.
    decompose : bool, default=True
        Solve the strongly connected components of the majority relation separately.
    unique : bool, default=True
        Check whether the optimal order is unique (may cost one more solve per component).
    enumerate_optima : int, default=0
        List up to this many optimal orders (0: none).
    progress : callable, optional
        Called with a :class:`SolveProgress` after each solve round.
    verbose : bool, default=False
        Show the solver logs.
    threads : int, optional
        Solver threads.
    tol : float, optional
        Without `margins`: float margins within `tol` of 0 are majority ties. Default: per
        pair, ``2**-44 * (costs[i, j] + costs[j, i])`` (float rounding of that pair's sums,
        never relative to other pairs); other margins are read exactly
        (:func:`solvers.ordering_exact.as_rational`).
    seed : int, default=0
        Seed of the perturbation search (the result is deterministic for a given seed).
    margins : array_like (n, n) or (ndarray, int), optional
        The exact margins ``costs[i, j] - costs[j, i]`` when the float `costs` have lost them
        (a tie of 1e12 next to weights of 1e-12): a matrix of integers or
        :class:`fractions.Fraction` (e.g. :attr:`consensus.PairwiseMatrix.exact_margins`), or,
        fastest, a pair ``(numerators, denominator)`` of an integer matrix (int64, or Python
        ints in an object array) and a positive int, as
        :func:`solvers.ordering_exact.exact_margins` returns; :func:`consensus.kemeny` passes
        that pair. Without it the margins are read from `costs`, vectorized.
    initial : sequence of int, optional
        A warm start: an order of all items (best first), e.g. the ranking of the same items
        on related data. Within each component it replaces the heuristic order when it costs
        less; the proof that follows is unchanged (it only starts from a better incumbent).
    determine : bool or None, default=False
        Compute what every optimal order agrees on (``outcome.determined``, a
        :class:`solvers.ordering_determined.Determination`): free when the optimum is unique
        or all optima are enumerated, else up to one extra solve per cut between positions.
        None: only when it is free.

    Returns
    -------
    LinearOrderingOutcome

    Raises
    ------
    ValueError
        A malformed matrix, option, or brute force on more than 8 items.
    SolverError
        The solver failed, or (without `time_limit`) stopped before proving optimality.

    Examples
    --------
    >>> res = solve_linear_ordering([[0, 2, 1], [1, 0, 2], [2, 1, 0]], enumerate_optima=10)
    >>> res.objective, res.status.value, res.unique, res.optima
    (4.0, 'optimal', False, ((0, 1, 2), (1, 2, 0), (2, 0, 1)))
    """
    start_time = time.perf_counter()
    matrix, cap, tol = _check_linear_ordering(costs, method, time_limit, enumerate_optima, tol)
    exact = ExactCosts.of(matrix, margins=margins, tol=tol)  # exact margins; `reduced` for the ILP
    unit = None if exact.unit is None else float(exact.unit)
    if method == "brute_force":
        return _brute_force_outcome(matrix, exact=exact, unit=unit, unique=unique, cap=cap, start_time=start_time,
                                    determine=determine)

    n = matrix.shape[0]
    reduced, tol = exact.reduced, exact.tol  # scaled reduced costs; a float tolerance in their units
    groups = majority_components(reduced, margins=exact.margins) if decompose else [list(range(n))]
    tracker = _Tracker.start(reduced, groups, _in_cost_units(progress, exact), start_time)
    deadline = None if time_limit is None else start_time + float(time_limit)
    ctx = _Context(
        backend, method, deadline, verbose, threads, tol, exact.mip_unit, seed, tracker.counters, tracker.report,
        _positions(initial, n),
    )
    components = _solve_components(reduced, groups, ctx, tracker, exact)
    order, _, reduced_bound, status = _join(reduced, components, tracker.cross, exact.mip_unit)
    objective = ordering_cost(matrix, order)  # in the units of `costs`
    lower_bound = objective if status is SolveStatus.OPTIMAL else min(objective, exact.to_cost(reduced_bound))
    if time_limit is None and status is not SolveStatus.OPTIMAL:
        raise SolverError(f"{backend} stopped before proving optimality (gap {objective - lower_bound:g})", status)

    is_unique: bool | None = None
    optima: tuple[tuple[int, ...], ...] = ()
    truncated = False
    if status is SolveStatus.OPTIMAL and cap:
        optima, truncated, is_unique, canonical = _enumerate_optima(exact.tie_view, components, ctx, cap)
        if canonical is not None:  # the lexicographically first optimal order
            order = canonical
            objective = lower_bound = ordering_cost(matrix, order)
    elif status is SolveStatus.OPTIMAL and unique:
        is_unique = _order_is_unique(exact.tie_view, components, order, ctx)
    determined = None
    free = bool(is_unique) or (bool(optima) and not truncated)
    if status is SolveStatus.OPTIMAL and (determine or (determine is None and free)):
        determined = determination(reduced, exact.margins, components, order, ctx, is_unique, optima, truncated)
    logger.info(
        "kemeny: %d items in %d component(s), %s, cost %.6g, bound %.6g, %d cuts, %d solves, %.3f s",
        n, len(components), status.value, objective, lower_bound, tracker.counters.cuts,
        tracker.counters.iterations, time.perf_counter() - start_time,
    )
    return LinearOrderingOutcome(
        order=tuple(int(i) for i in order),
        objective=objective,
        lower_bound=lower_bound,
        status=status,
        method=_method_name(components, backend),
        unique=is_unique,
        optima=optima,
        optima_truncated=truncated,
        components=tuple(tuple(c.members) for c in components),
        constraints_added=tracker.counters.cuts,
        iterations=tracker.counters.iterations,
        seconds=time.perf_counter() - start_time,
        unit=unit,
        notes=_precision_notes(exact, components),
        determined=determined,
    )
