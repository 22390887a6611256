"""Exact Kemeny consensus: the ranking that disagrees least with the tasks, with proof.

The Kemeny consensus of the task rankings minimizes the total (weighted) Kendall
distance to them (Colombo et al. 2022, sec. 3.1). On a pairwise matrix this is the
sum, over pairs of systems, of the task weight preferring the lower-ranked system
(:func:`kemeny_objective`); a task where both tie counts half for each side, and a
task missing either system counts for neither. The problem is NP-hard; it is solved
exactly by the integer program of :mod:`solvers.linear_ordering` (lazy 3-cycle cuts,
majority-graph decomposition, HiGHS by default) or, for at most 8 systems, by
enumerating all rankings (:mod:`solvers.brute_force`).
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..arguments import check_count, check_seconds, check_seed, name_list
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, SolveFailedError, UnknownSystemError
from ..hints import hinted, option
from ..majority._inputs import as_pairwise
from ..majority._pairwise import PairwiseMatrix
from ..missing._impute import impute_pairwise
from ..missing._preparation import Prepared, check_missing, prepared_for
from ..noise._seen import resolve, significance_pairwise
from ..results import KemenyDetermination, KemenyResult, Preparation
from ._solver_choice import check_solver, solver_not_available

if TYPE_CHECKING:  # pragma: no cover
    from solvers.linear_ordering import SolveProgress

__all__ = ["kemeny", "kemeny_objective", "weak_objective"]

#: Most systems ``method="brute_force"`` accepts (8! = 40320 rankings).
MAX_BRUTE_FORCE_SYSTEMS = 8
#: Seconds the solver gets when preparing the input used up `time_limit`: enough for
#: its heuristic order (returned with status "time_limit" and a trivial bound).
_MIN_SOLVE_SECONDS = 1e-3


def _ranking_indices(p: PairwiseMatrix, ranking: Sequence[str]) -> list[int]:
    """Row indices of a full ranking; errors name unknown, repeated or missing systems."""
    if isinstance(ranking, str):
        raise InvalidOptionError(f"a ranking must be a sequence of systems, got the string {ranking!r}")
    if not isinstance(ranking, Iterable):
        raise InvalidOptionError(f"a ranking must be a sequence of systems, got {type(ranking).__name__} {ranking!r}")
    labels = list(ranking)
    known = set(p.systems)  # O(1) lookups: a ranking of 2,000 systems is checked in milliseconds
    try:
        unknown = [s for s in labels if s not in known]
    except TypeError:  # an unhashable entry is no system
        unknown = [s for s in labels if s not in p.systems]
    if unknown:
        raise UnknownSystemError(unknown[0], p.systems, "the ranking")
    repeated = sorted(s for s, c in Counter(labels).items() if c > 1)
    if repeated:
        raise InvalidOptionError(f"system(s) {', '.join(map(repr, repeated))} appear more than once in the ranking")
    given = set(labels)
    missing = [s for s in p.systems if s not in given]
    if missing:
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        raise InvalidOptionError(
            f"the ranking leaves out {len(missing)} system(s): {shown}; a Kemeny objective needs every system"
        )
    return [p.index(s) for s in labels]


def kemeny_objective(data: Leaderboard | PairwiseMatrix | Any, ranking: Sequence[str]) -> float:
    """Total weighted Kendall disagreement between a full ranking and the tasks.

    For every pair of systems, the task weight preferring the lower-ranked one is paid
    (``preferences[lower, upper]`` = wins + ties / 2, so a tied task costs half and a
    task scoring only one of the two costs nothing). The Kemeny consensus minimizes it.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, or an object with ``to_pairwise()``
        The scores (or their pairwise matrix).
    ranking : sequence of str
        Every system exactly once, best first.

    Returns
    -------
    float
        The weight of the task preferences that `ranking` contradicts (0.0, never -0.0,
        when it contradicts none).

    Raises
    ------
    UnknownSystemError
        A label is not a system of `data`.
    InvalidOptionError
        A system is repeated or left out, `ranking` is a string, or `data` has an
        unsupported type.

    References
    ----------
    .. [1] Colombo et al., "What are the best systems? New perspectives on NLP
       benchmarking", NeurIPS 2022, sec. 3.1 (Kemeny consensus) and 3.4 (Kendall distance).

    Examples
    --------
    >>> import consensus as cs
    >>> table = cs.load_example("colombo-table1")
    >>> kemeny_objective(table, ["C", "B", "A"]), kemeny_objective(table, ["A", "B", "C"])
    (7.0, 11.0)
    """
    p = as_pairwise(data)
    rows = _ranking_indices(p, ranking)
    ordered = p.preferences[np.ix_(rows, rows)]
    value = float(np.tril(ordered, -1).sum())  # [lower, upper] entries: weight preferring the lower one
    return 0.0 if value == 0 else value


@dataclasses.dataclass(frozen=True)
class _Options:
    """The options of :func:`kemeny`, checked (:func:`_kemeny_options`)."""

    method: str
    time_limit: float | None
    enumerate_optima: int
    threads: int | None
    seed: int


def _kemeny_options(
    n: int, *, method: object, time_limit: object, enumerate_optima: object, progress: object, threads: object,
    weak_order: object, determine: object, solver: str, seed: object,
) -> _Options:
    """Every option of :func:`kemeny` but the shared ones (checked by the preparation stage), checked
    in one place before any solve, with the package's shared checkers."""
    seed = check_seed(seed, "seed", allow_none=False)
    if method not in ("auto", "ilp", "brute_force"):
        raise InvalidOptionError(f"unknown method {method!r}; use 'auto', 'ilp' or 'brute_force'")
    if method == "brute_force" and n > MAX_BRUTE_FORCE_SYSTEMS:
        raise InvalidOptionError(
            f"method='brute_force' handles at most {MAX_BRUTE_FORCE_SYSTEMS} systems, got {n}; use 'auto' or 'ilp'"
        )
    time_limit = check_seconds(time_limit, "time_limit")
    if isinstance(enumerate_optima, bool) or not isinstance(enumerate_optima, (int, np.integer)) or enumerate_optima < 0:
        raise InvalidOptionError(f"enumerate_optima must be an integer >= 0 (a cap), got {enumerate_optima!r}")
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress must be a callable, got {type(progress).__name__}")
    if threads is not None:
        threads = check_count(threads, "threads", 1)
    if not isinstance(weak_order, (bool, np.bool_)):
        raise InvalidOptionError(f"weak_order must be True or False, got {weak_order!r}")
    if weak_order and enumerate_optima:
        raise InvalidOptionError("enumerate_optima lists strict rankings: it cannot be combined with weak_order=True")
    if determine is not None and not isinstance(determine, (bool, np.bool_)):
        raise InvalidOptionError(f"determine must be True, False or None, got {determine!r}")
    if method != "brute_force":
        check_solver(solver)
    return _Options(str(method), time_limit, int(enumerate_optima), threads, int(seed))


def _treated(
    data: Any, missing: object, min_coverage: float | None, significance: object = None
) -> tuple[Any, Preparation, tuple[str, ...]]:
    """`data` after the preparation stage (a Leaderboard or Prepared data; the imputed matrix under
    ``missing="impute"``; the relation's matrix under `significance`), its record, and every
    system the data named before it."""
    noisy = significance is not None and significance is not False
    if isinstance(data, (Leaderboard, Prepared)):
        ready = prepared_for(data, "kemeny", missing=missing, min_coverage=min_coverage,
                             impute_treatment="imputed pairwise matrix (impute_pairwise)")
        prep = ready.preparation
        known = ready.leaderboard.systems + prep.set_aside + prep.dropped_systems
        if noisy:
            if prep.missing in ("median", "impute"):
                raise InvalidOptionError(hinted("kemeny: significance cannot be combined with {}: a filled cell has no "
                                                "noise to test; use missing=None or a drop policy",
                                                option("missing", prep.missing)))
            covered = data if isinstance(data, Prepared) else prepared_for(data, "kemeny", min_coverage=min_coverage)
            result = resolve(significance, covered.leaderboard, "kemeny")  # as rank(..., "kemeny") resolves it
            assert result is not None
            note = ("significance: a task counts for a pair only where the pair differs significantly ("
                    + result.describe() + ")")
            prep = dataclasses.replace(prep, notes=prep.notes + (note,))
            return significance_pairwise(ready.leaderboard, result), prep, known
        return (impute_pairwise(ready.leaderboard).matrix if ready.impute else ready.leaderboard), prep, known
    if noisy:
        raise InvalidOptionError(f"kemeny: significance needs a Leaderboard (scores and standard errors), got "
                                 f"{type(data).__name__}")
    policy = check_missing(missing, "kemeny")
    if policy is not None or min_coverage is not None:
        raise InvalidOptionError(hinted("kemeny: {} / {} need a Leaderboard, got {}", option("missing", missing),
                                        option("min_coverage", min_coverage), type(data).__name__))
    return data, Preparation(None, "pairwise matrix given: its counts are used as they are"), ()


def _warm_start(systems: tuple[str, ...], initial: Sequence[str] | None, known: Sequence[str]) -> list[int] | None:
    """The indices of the warm-start ranking `initial` (every system of `systems` once; `known`: the
    systems of the data before a missing-score policy left some out, which may be named too)."""
    if initial is None:
        return None
    names = name_list(initial, "initial", kind="system names")
    if len(set(names)) != len(names):
        raise InvalidOptionError("initial lists a system more than once")
    stranger = next((s for s in names if s not in set(known) and s not in set(systems)), None)
    if stranger is not None:
        raise InvalidOptionError(f"initial names {stranger!r}, which is not a system of the data")
    where = {s: i for i, s in enumerate(systems)}
    order = [where[s] for s in names if s in where]  # systems a missing-score policy left out are skipped
    if len(order) != len(systems):
        absent = next(s for s in systems if s not in set(names))
        raise InvalidOptionError(f"initial must rank every system; it leaves out {absent!r}")
    return order


def kemeny(
    data: Leaderboard | Prepared | PairwiseMatrix | Any,
    *,
    method: Literal["auto", "ilp", "brute_force"] = "auto",
    time_limit: float | None = None,
    solver: str = "highs",
    unique: bool = True,
    enumerate_optima: int = 0,
    decompose: bool = True,
    progress: Callable[[SolveProgress], None] | None = None,
    verbose: bool = False,
    seed: int = 0,
    missing: str | None = None,
    min_coverage: float | None = None,
    initial: Sequence[str] | None = None,
    threads: int | None = None,
    determine: bool | None = None,
    weak_order: bool = False,
    significance: Any = None,
) -> KemenyResult:
    """The exact Kemeny consensus ranking, certified optimal.

    Minimizes :func:`kemeny_objective`, the total task weight that disagrees with the
    ranking, over all rankings of the systems.

    Parameters
    ----------
    data : Leaderboard, Prepared, PairwiseMatrix, or an object with ``to_pairwise()``
        The scores or their weighted pairwise matrix (task weights count; a tied task
        counts half for each side; pairs not both scored on a task ignore that task).
        Imputed or instance-level data work through their ``to_pairwise()``; scores
        prepared once by :func:`consensus.prepare` come without `missing` / `min_coverage`.
    method : {"auto", "ilp", "brute_force"}, default="auto"
        ``"auto"``: split along the majority graph, enumerate components of at most 8
        systems and solve larger ones by integer programming. ``"ilp"``: integer
        programming for every component. ``"brute_force"``: all rankings of the whole
        matrix (at most 8 systems), the reference.
    time_limit : float, optional
        Seconds for the whole call: building the pairwise matrix, the decomposition, the
        heuristic, every LP and MIP solve and the uniqueness / enumeration checks share
        it (the call may overrun it by the few steps that cannot stop early: the pairwise
        matrix and a first heuristic ranking). When the limit stops the proof, the best
        ranking found comes back with status ``"time_limit"``, a proven `lower_bound` and
        its `gap`; it is never called optimal (nor `unique`). Without a limit the result
        is optimal or an error is raised.
    solver : str, default="highs"
        ``"highs"``, ``"cbc"`` or any pulp solver name.
    unique : bool, default=True
        Check whether the optimal ranking is the only one (``result.unique``).
    enumerate_optima : int, default=0
        List up to this many optimal rankings in ``result.optima`` (0: none); when all
        of them fit, ``result.order`` is the first in system order.
    decompose : bool, default=True
        Solve the strongly connected components of the majority graph separately.
    progress : callable, optional
        Called after each solve round with a :class:`solvers.linear_ordering.SolveProgress`
        (stage, component, round, cuts, incumbent, bound, elapsed).
    verbose : bool, default=False
        Show the solver's log.
    seed : int, default=0
        Seed of the local search that warm-starts the solver (results are deterministic).
    missing : {None, "pairwise", "drop_tasks", "drop_systems", "impute", "median"}, optional
        Missing-score policy for a Leaderboard (the preparation stage,
        :func:`consensus.prepare`), as in :func:`consensus.rank`: None (or
        ``"pairwise"``) compares each pair on the tasks both are scored on; ``"drop_tasks"``
        / ``"drop_systems"`` drop the tasks / systems with a missing score (the ranking then
        leaves those systems out); ``"impute"`` ranks the imputed pairwise matrix
        (:func:`consensus.impute_pairwise`); ``"median"`` fills each hole with the task's
        median score. ``result.preparation`` records what was done.
    min_coverage : float, optional
        Set aside the systems whose coverage is below this share
        (:func:`consensus.board._coverage.set_aside`; the ranking lists only the others); None:
        the default rule (half, relaxed on boards of partial ballots); 0: every system.
    initial : sequence of str, optional
        A warm start: every system once, best first (e.g. the full-data ranking when ranking
        resamples of the same leaderboard; systems that `missing` / `min_coverage` leave
        out are skipped). It only gives the search a good first ranking;
        the result is certified the same way (and is the same optimum when that is unique).
    threads : int, optional
        Threads of the solver (default: the solver's own choice). Resampling loops pass 1.
    determine : bool, optional
        Whether to compute ``result.determined``: which positions and pairs are the same in
        every optimal ranking. None (default): only when it is free (the optimum is unique,
        or every optimum was enumerated). True: always, for an optimal result; a non-unique
        optimum then costs up to one extra integer solve per cut between positions of each
        majority block with several optima (cheap on structured leaderboards, about one
        more proof each on pure noise), within `time_limit` (None if it runs out).
        False: never.
    weak_order : bool, default=False
        The generalized Kemeny consensus with ties: the *weak order* (systems may tie)
        closest to the tasks in the Kemeny-Snell distance, halved so that a full
        disagreement costs 1 as in the strict objective: per pair, ordering it pays the task
        weight preferring the other way plus half the weight tying it; tying it pays half
        the weight that orders it. The strict optimum is solved first and warm-starts the
        weak one (:func:`solvers.weak_ordering.solve_weak_ordering`, one ILP with lazy
        transitivity rows, no decomposition: meant for up to about 100 systems).
        ``result.weak_order`` holds the groups, ``ranking`` lists them in turn (a group's
        systems in input order), ``objective`` is the weak order's cost, recomputed here.
        Ties in the answer only pay when tasks tie (with no tied task the optimum is a
        linear order of the same cost). When several weak orders are optimal, which one
        comes back is not specified and ``unique`` is None; `determine`, `enumerate_optima`
        and ``method="brute_force"`` (over all weak orders, at most 8 systems) apply to the
        strict consensus only, except that brute force is the reference here too.
    significance : bool, float or SignificanceResult, optional
        Differences within noise count as ties: a task counts for a pair only where the pair
        differs significantly on it (:func:`consensus.significance`; True: its defaults on the
        leaderboard's standard errors; a float: the level). The relation need not be
        transitive; the solver handles ties on any pair. Recorded in ``preparation.notes``.
        Not with ``missing="median"`` or ``"impute"`` (a filled cell has no noise to test).

    Returns
    -------
    KemenyResult
        The ranking, its objective (recomputed by :func:`kemeny_objective`), the proven
        lower bound, the status, uniqueness, optima (if asked for), the components and
        the solve statistics.

    Raises
    ------
    InvalidOptionError
        An unknown method or solver name, a bad time limit, cap, `progress` or `seed`
        (not an integer), brute force on more than 8 systems, `data` of an unsupported type, an unknown `missing`
        policy, `missing` or `min_coverage` given with data that is not a Leaderboard, or
        a policy / threshold leaving fewer than 2 systems.
    SolverNotAvailableError
        The solver named by `solver` is unknown or not installed here (not checked with
        ``method="brute_force"``); the message lists the solvers available here.
    SolveFailedError
        The solver failed or, without a time limit, stopped before proving optimality,
        or its objective does not match the recomputed one.

    Notes
    -----
    Why the decomposition is exact. Let the strongly connected components of the strict
    majority relation be listed in a topological order, so that no system of a later
    component beats (by weighted majority) a system of an earlier one. In any ranking
    where a system ``y`` of a later component sits directly above a system ``x`` of an
    earlier one, swapping them changes the objective by ``-(margin of x over y) <= 0``.
    Bubbling every such pair yields a ranking that lists the components in order and
    costs no more, so the optimum is the sum of the components' optima plus the fixed
    cost of the pairs between components. For an *optimal* ranking every swap on the
    way costs exactly 0, i.e. swaps a majority-*tied* pair. Hence every optimal ranking
    is reached from a component-respecting optimal one by swapping adjacent tied
    systems, and conversely each such swap keeps the objective. So the optimum is
    unique iff every component has a unique optimum and no two adjacent systems of the
    returned ranking are majority-tied; and all optima are the closure of the products
    of the components' optima under adjacent tied swaps (which is how they are
    enumerated, across component boundaries). When no pair is tied, components are the
    weak components too and every optimal ranking respects them (the extended
    Condorcet criterion). The tests check all of this against brute force.

    Exactness. Orders are compared on :attr:`PairwiseMatrix.exact_margins` (margins summed
    in integers, tied tasks cancelling), so the decomposition, the majority ties and the
    enumeration of components of at most 8 systems are exact whatever the range of the
    weights (1e-12 next to 1e12). Larger components are solved by a float MIP on the
    positive margins scaled to about 1; it proves exact optimality when the margins' common
    step is at least 1e-6 of the largest margin, and otherwise the ranking is optimal to
    within about 1e-9 of the objective and ``notes`` says so. The reported `objective` is
    recomputed in floats from the preferences.

    References
    ----------
    .. [1] Colombo et al., "What are the best systems? New perspectives on NLP
       benchmarking", NeurIPS 2022, sec. 3.1 (Kemeny consensus; NP-hard, usually
       approximated by Borda's count).
    .. [2] Conitzer, Davenport, Kalagnanam, "Improved bounds for computing Kemeny
       rankings", AAAI 2006 (the integer program and the decomposition).

    Examples
    --------
    >>> import consensus as cs
    >>> res = kemeny(cs.load_example("colombo-table1"))
    >>> res.order, res.objective, res.status.value, res.unique
    (('C', 'B', 'A'), 7.0, 'optimal', True)

    A majority cycle a > b > c > a, each pair 2 tasks to 1: three rankings tie.

    >>> cycle = cs.PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
    >>> res = kemeny(cycle, enumerate_optima=10)
    >>> res.objective, res.unique, res.optima
    (4.0, False, (('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')))
    """
    start = time.perf_counter()
    treated, record, known = _treated(data, missing, min_coverage, significance)  # the shared options
    p = as_pairwise(treated)
    n = p.n_systems
    checked = _kemeny_options(n, method=method, time_limit=time_limit, enumerate_optima=enumerate_optima,
                              progress=progress, threads=threads, weak_order=weak_order, determine=determine,
                              solver=solver, seed=seed)
    time_limit, cap, threads, seed = checked.time_limit, checked.enumerate_optima, checked.threads, checked.seed
    warm = _warm_start(p.systems, initial, known)
    from solvers.linear_ordering import solve_linear_ordering
    from solvers.status import SolverError, SolverUnavailableError

    # the limit covers the whole call: the solver gets what the input checks and the
    # pairwise matrix left (at least a token amount, enough for its heuristic order)
    budget = None if time_limit is None else max(time_limit - (time.perf_counter() - start), _MIN_SOLVE_SECONDS)
    try:
        outcome = solve_linear_ordering(
            p.preferences,
            backend=solver,
            method=method,
            time_limit=budget,
            decompose=bool(decompose),
            unique=bool(unique) and not weak_order,
            enumerate_optima=cap,
            progress=progress,
            verbose=bool(verbose),
            margins=p._exact_ints(),  # exact (int64 over one denominator): ties cancel, no tolerance
            seed=int(seed),
            initial=warm,
            threads=threads,
            determine=False if weak_order else determine,
        )
    except SolverUnavailableError as exc:  # not a failed solve: say which solvers can run
        raise solver_not_available(exc, solver) from exc
    except SolverError as exc:
        elapsed = time.perf_counter() - start
        limit = "" if time_limit is None else f" (time_limit {time_limit:g} s)"
        hint = "raise time_limit" if time_limit is not None else "set a time_limit to get the best ranking found"
        if n <= MAX_BRUTE_FORCE_SYSTEMS:
            hint += f" or pass method='brute_force' (n <= {MAX_BRUTE_FORCE_SYSTEMS})"
        raise SolveFailedError(
            f"Kemeny consensus of {n} systems: {solver} stopped with status {exc.status.value!r} "
            f"after {elapsed:.3g} s{limit} ({exc}); {hint}"
        ) from exc
    labels = p.systems
    if weak_order:
        return _with_ties(p, outcome, start, time_limit, method, solver, bool(verbose), record)
    ranking = tuple(labels[i] for i in outcome.order)
    objective = kemeny_objective(p, ranking)  # the certificate, recomputed from the labelled matrix
    if abs(objective - outcome.objective) > 1e-7 * max(1.0, abs(objective)):
        raise SolveFailedError(
            f"Kemeny consensus of {n} systems: the solver's objective {outcome.objective!r} does not match "
            f"the recomputed {objective!r}"
        )
    lower_bound = objective if outcome.optimal else min(objective, float(outcome.lower_bound))
    block_of = {i: b for b, members in enumerate(outcome.components) for i in members}
    grouped: list[list[str]] = [[] for _ in outcome.components]
    for i in outcome.order:  # one pass: each block's systems in ranking order
        grouped[block_of[i]].append(labels[i])
    blocks = tuple(tuple(members) for members in grouped)
    return KemenyResult(
        order=ranking,
        objective=objective,
        lower_bound=0.0 if lower_bound == 0 else lower_bound,
        status=outcome.status,
        method=outcome.method,
        unique=outcome.unique,
        optima=tuple(tuple(labels[i] for i in order) for order in outcome.optima),
        optima_truncated=outcome.optima_truncated,
        components=tuple(len(b) for b in blocks),
        blocks=blocks,
        constraints_added=outcome.constraints_added,
        iterations=outcome.iterations,
        seconds=time.perf_counter() - start,
        time_limit=time_limit,
        preparation=record,
        determined=_labelled(outcome.determined, labels),
        notes=outcome.notes + (
            (f"task weights divided by {1 / p.weight_scale:g} to stay within float64; objective and bound in those units",)
            if p.weight_scale != 1.0 else ()
        ),
    )


def _labelled(determined: Any, labels: Sequence[str]) -> KemenyDetermination | None:
    """The solver's :class:`solvers.ordering_determined.Determination` with system names."""
    if determined is None:
        return None
    return KemenyDetermination(
        groups=tuple(tuple(labels[i] for i in g) for g in determined.groups),
        flipped=tuple((labels[i], labels[j]) for i, j in determined.flipped),
        fixed=tuple(labels[i] for i in determined.fixed),
        solves=determined.solves,
    )


def weak_objective(data: Leaderboard | PairwiseMatrix | Any, groups: Sequence[Sequence[str]]) -> float:
    """The Kemeny-Snell cost of a weak order (groups of tied systems, best first).

    Per pair: ordering it pays the task weight preferring the other way plus half the
    weight tying it; tying it pays half the weight that orders it (a strict ranking's cost
    is :func:`kemeny_objective`).

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, or an object with ``to_pairwise()``
        The scores or their weighted pairwise matrix.
    groups : sequence of sequence of str
        Every system once, in groups of tied systems, best group first.

    Returns
    -------
    float

    Raises
    ------
    InvalidOptionError
        A system listed twice or left out, or `groups` not a sequence of groups of names.
    UnknownSystemError
        A name that is not a system.

    Examples
    --------
    >>> import consensus as cs
    >>> p = cs.PairwiseMatrix.from_array([[0, 1], [1, 0]], systems=["a", "b"])
    >>> weak_objective(p, [["a", "b"]]), weak_objective(p, [["a"], ["b"]])
    (1.0, 1.0)
    """
    p = as_pairwise(data)
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Iterable):
        raise InvalidOptionError(f"weak order must be a sequence of groups of system names, got {groups!r}")
    groups = list(groups)
    for group in groups:
        if isinstance(group, (str, bytes)) or not isinstance(group, Iterable):
            raise InvalidOptionError(f"weak order: each group must be a sequence of system names, got {group!r}")
    groups = [list(g) for g in groups]
    sizes = [len(g) for g in groups]
    rows = _ranking_indices(p, [s for g in groups for s in g])  # every system once, all known
    level = np.empty(p.n_systems, dtype=np.int64)
    level[rows] = np.repeat(np.arange(len(groups)), sizes)
    above = level[:, None] < level[None, :]
    tied = level[:, None] == level[None, :]
    np.fill_diagonal(tied, False)
    w, t = np.asarray(p.wins, dtype=np.float64), np.asarray(p.ties, dtype=np.float64)
    ordered = float((w.T[above]).sum() + t[above].sum() / 2)  # i above j pays wins[j, i] + ties / 2
    return ordered + float(w[tied].sum() / 2)  # each tied pair twice: (wins[i, j] + wins[j, i]) / 2


def _with_ties(p: PairwiseMatrix, strict: Any, start: float, time_limit: float | None, method: str,
               solver: str, verbose: bool, record: Preparation) -> KemenyResult:
    """The Kemeny consensus with ties, warm-started from the strict optimum `strict`."""
    from solvers.brute_force import brute_force_weak_ordering
    from solvers.status import SolverError
    from solvers.weak_ordering import solve_weak_ordering

    labels, n = p.systems, p.n_systems
    budget = None if time_limit is None else max(time_limit - (time.perf_counter() - start), _MIN_SOLVE_SECONDS)
    try:
        if method == "brute_force":
            bf = brute_force_weak_ordering(p.wins, p.ties)
            groups_idx, bound, status_value, unique = bf.groups, None, "optimal", bf.unique
        else:
            out = solve_weak_ordering(p.wins, p.ties, backend=solver, time_limit=budget, initial=strict.order,
                                      verbose=verbose)
            groups_idx, bound, status_value, unique = out.groups, out.lower_bound, out.status.value, None
    except SolverError as exc:
        raise SolveFailedError(f"Kemeny consensus with ties of {n} systems: {solver} stopped with status "
                               f"{exc.status.value!r} ({exc}); set a time_limit to get the best weak order found") from exc
    groups = tuple(tuple(labels[i] for i in sorted(g)) for g in groups_idx)
    objective = weak_objective(p, groups)  # the certificate, recomputed from the labelled matrix
    optimal = status_value == "optimal"
    if optimal:
        lower_bound = objective
    else:
        assert bound is not None  # only brute force leaves no bound, and it is always optimal
        lower_bound = min(objective, float(bound))
    from solvers.status import SolveStatus

    return KemenyResult(
        order=tuple(s for g in groups for s in g),
        objective=objective,
        lower_bound=0.0 if lower_bound == 0 else lower_bound,
        status=SolveStatus(status_value),
        method="brute_force" if method == "brute_force" else f"ilp:{solver}",
        unique=unique,
        optima=(),
        optima_truncated=False,
        components=(n,),
        blocks=(tuple(s for g in groups for s in g),),
        constraints_added=0 if method == "brute_force" else out.constraints_added,
        iterations=0 if method == "brute_force" else out.iterations,
        seconds=time.perf_counter() - start,
        time_limit=time_limit,
        preparation=record,
        notes=(f"consensus with ties (Kemeny-Snell distance); the strict optimum costs {strict.objective:g}",),
        weak_order=groups,
    )
