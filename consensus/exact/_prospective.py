"""Which systems can be the Condorcet winner under some task weights? :func:`prospective` asks for each.

Rofin et al. 2023 (Vote'n'Rank, sec. 3.2) call such a system *prospective*. This runs the
machinery of :func:`consensus.condorcet_weights` for every system of a leaderboard, sharing
one HiGHS model across systems on the fast path, and returns a
:class:`~consensus.results.ProspectiveResult`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from solvers.weights_lp import WeightConstraints, constraints_farkas_lp

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, SolveFailedError
from ..results import (
    CondorcetCertificate,
    CondorcetWeightsResult,
    ProspectiveResult,
    WeightConstraint,
    jsonable,
)
from ._certificates import CONSTRAINT_TOL, Labels, certificate_holds
from ._condorcet import Engine, solve_system
from ._evidence import make_certificate
from ._solver_choice import solver_errors
from ._weight_options import (
    Constraints,
    Reference,
    objective_tasks,
    prepared_weights,
    reference_weights,
    solver_constraints,
    unscored_constraints,
    weight_options,
)
from ._winning import linear_setup, rescaled

__all__ = ["prospective"]


def prospective(
    data: Leaderboard,
    *,
    rule: str = "condorcet",
    ties: Literal["average", "min", "max"] | None = None,
    vector: Sequence[float] | None = None,
    normalize: Literal["minmax", "zscore"] | None = None,
    strict: bool = True,
    nearest_to: Reference = "leaderboard",
    objective: tuple[Literal["min", "max"], str | Sequence[str]] | None = None,
    constraints: Constraints | Mapping[str, Any] | None = None,
    min_margin: float = 1e-6,
    solver: str = "highs",
    interface: Literal["auto", "highspy", "pulp"] = "auto",
    tol: float = 1e-9,
    scored_tasks_only: bool = True,
    missing: str | None = None,
    min_coverage: float | None = None,
) -> ProspectiveResult:
    """Which systems can be the Condorcet winner under some weighting? One answer per system.

    Runs :func:`condorcet_weights` for every system (same options) and tabulates the
    answers. Both feasibility columns are backed by evidence: a verified weighting or a
    verified certificate.

    Parameters
    ----------
    data : Leaderboard
    rule : str, default="condorcet"
        ``"condorcet"``: can the system be the Condorcet winner. A linear rule (``"mean"``,
        ``"borda"``, ``"dowdall"``, ``"plurality"``, ``"scoring"``, ``"rank_complement"``,
        ``"top_ten"``, ``"eurovision"``): can it score highest under that rule
        (:func:`winning_weights` for every system; margins in the rule's units, and every
        returned weighting re-checked by running the rule).
    ties, vector, normalize : optional
        The linear rule's own options, as in :func:`winning_weights`.
    strict : bool, default=True
        Which notion `distance`, `weights` and `certificate` refer to (``feasible`` and
        ``strict_feasible`` are always both reported).
    nearest_to : default='leaderboard'
        As in :func:`condorcet_weights`; None skips the distances (example weights are then
        the max-margin weights).
    interface : 'auto', 'highspy' or 'pulp', default='auto'
        'highspy': the fast path (:class:`solvers.weights_lp.HighsWeightsLP`: one reused
        HiGHS model, rival rows added lazily); 'pulp': a fresh model per LP with every rival
        row, solved by `solver` (HiGHS directly, or the named pulp solver; the name is kept
        from when every model went through pulp). 'auto' picks 'highspy' when
        ``solver == 'highs'``.
    objective, constraints, min_margin, solver, tol
        As in :func:`condorcet_weights`.
    scored_tasks_only : bool, default=True
        Each system's weights are 0 on the tasks it is not scored on (see
        :func:`condorcet_weights`); False gives the older treatment, where such a task is a
        tie with every rival and may carry weight.
    missing : {None, "drop_tasks", "drop_systems", "median", "impute"}, optional
        As in :func:`condorcet_weights` (``"impute"``: positional rules only, as in
        :func:`winning_weights`).
    min_coverage : float, optional
        Drop the systems scored on less than this share of the task weight first.

    Returns
    -------
    ProspectiveResult
        One :class:`CondorcetWeightsResult` per system plus both feasibility notions;
        ``to_frame()`` tabulates them: columns ``system``; ``feasible`` (weak: beats or ties everyone for some weighting,
        the paper's "prospective"); ``strict_feasible``; ``margin`` (the best smallest margin
        ``eps*``); ``distance`` (L1 from the reference to the nearest winning weighting, NaN
        when it cannot win or without `nearest_to`); ``weights`` (the example weighting as
        text ``"t1=0.5, t3=0.5"``, non-zero weights only: the nearest weighting, the
        `objective`'s optimum, or with neither the max-margin weights); ``certificate`` (for systems that
        cannot win: the rival mix, e.g. ``"C"`` or ``"0.5 C + 0.5 D"``); ``method``.
        ``frame.attrs`` records the options (``scored_tasks_only``, ``missing``: the policy
        record, ``notes``: what min_coverage and the policy did), the number of LPs and
        solver runs and the time spent; everything in the frame and its attrs is JSON-able.
        With `missing` or `min_coverage` the result is about the treated leaderboard.

    Raises
    ------
    InvalidOptionError, UnknownTaskError, InvalidWeightError
        An option of the wrong type or value (as in :func:`condorcet_weights`).
    SolverNotAvailableError
        `solver` is unknown or not installed here; the message lists the solvers available.
    SolveFailedError
        A solver failed, or its answer did not verify.

    Notes
    -----
    LPs are skipped when the answer is plain from the comparison matrix: a rival that beats
    the system on every task fixes ``eps* = -1`` (that rival is the certificate); a task the
    system wins against everyone gives ``eps* = 1``; a reference weighting that already
    makes the system win is its nearest weighting. Every weighting is still verified from
    the scores (:func:`weighted_margins`) and every certificate in exact arithmetic.

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
       EACL 2023, sec. 3.2 ("prospective" systems).

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7, 0.85], "nli": [0.5, 0.6, 0.4, 0.45],
    ...                       "summ": [0.3, 0.2, 0.35, 0.25]}, index=["a", "b", "c", "d"])
    >>> res = cs.prospective(cs.Leaderboard.from_frame(frame))
    >>> res.prospective_systems
    ('a', 'b', 'c')
    >>> print(res.to_frame().drop(columns="method").to_string())  # doctest: +NORMALIZE_WHITESPACE
      system  feasible  strict_feasible  margin  distance                             weights certificate
    0      a      True             True     1.0  0.000000  qa=0.3333, nli=0.3333, summ=0.3333
    1      b      True             True     1.0  0.333334     qa=0.3333, nli=0.5, summ=0.1667
    2      c      True             True     1.0  0.333334     qa=0.3333, nli=0.1667, summ=0.5
    3      d     False            False    -1.0       NaN                                               a
    """
    start = time.perf_counter()
    checked = weight_options("prospective", data, rule=rule, ties=ties, vector=vector, normalize=normalize,
                             constraints=constraints, solver=solver, margins=(tol, min_margin),
                             nearest_to=nearest_to, objective=objective)  # before the constraints' own LP
    tol, min_margin, nearest_to = checked.tol, checked.min_margin, checked.nearest_to
    if interface not in ("auto", "highspy", "pulp"):
        raise InvalidOptionError(f"interface must be 'auto', 'highspy' or 'pulp', got {interface!r}")
    if interface == "auto":
        interface = "highspy" if solver == "highs" else "pulp"
    setup = None
    if rule == "condorcet":
        ready = prepared_weights(data, missing, min_coverage, "prospective")
        data, holes, record = ready.leaderboard, ready.scored, ready.preparation
    else:
        setup = linear_setup(data, rule, checked.rule_options, missing, min_coverage, "prospective")
        data, holes, record = setup.lp.lb, setup.holes, setup.record
    cons = checked.constraints.rows(data)
    reference = reference_weights(data, nearest_to)
    obj = objective_tasks(data, objective)
    solver_cons = solver_constraints(data, cons)
    counters: dict[str, float] = {"lps": 0, "solves": 0, "solver_seconds": 0.0}
    contradiction = _contradiction(data, cons, solver_cons, solver, counters)
    results: dict[str, CondorcetWeightsResult] = {}
    feasible: list[bool] = []
    strict_feasible: list[bool] = []
    if contradiction is None:
        engines: dict[tuple[str, ...], tuple[tuple[WeightConstraint, ...], Engine]] = {}
        labels = Labels(data)
        for s in labels.systems:
            extra = unscored_constraints(holes, s) if scored_tasks_only else ()
            key = tuple(c.label for c in extra)
            if key not in engines:
                engines[key] = _engine(data, cons, extra, solver_cons, solver, interface, counters, setup is None)
            cons_s, engine = engines[key]
            res, other = solve_system(
                data, s, strict=bool(strict), reference=reference, objective=obj, cons=cons_s, engine=engine,
                tol=tol, min_margin=min_margin, verify_with="rows", counters=counters, labels=labels,
                linear=setup,
            )
            if setup is not None:
                res = rescaled(res, setup, rule)
            results[s] = res
            assert other is not None  # verify_with="rows": solve_system decides the other notion too
            strict_feasible.append(res.feasible if strict else other)
            feasible.append(other if strict else res.feasible)
    else:
        feasible = strict_feasible = [False] * data.n_systems
    options = {
        "rule": rule,
        "rule_options": setup.options() if setup is not None else {},
        "strict": bool(strict),
        "reference": dict(zip(data.tasks, reference.tolist())) if reference is not None else None,
        "objective": [obj[0], list(obj[1])] if obj else None,
        "constraints": [c.label for c in cons],
        "scored_tasks_only": bool(scored_tasks_only),
        "tol": tol,
        "min_margin": min_margin,
        "method": interface if contradiction is None else "farkas",
        "solver": solver,
        "n_lps": int(counters["lps"]),
        "n_solves": int(counters["solves"]),
        "solver_seconds": float(counters["solver_seconds"]),
        "seconds": time.perf_counter() - start,
    }
    return ProspectiveResult(
        systems=data.systems,
        feasible=tuple(feasible),
        strict_feasible=tuple(strict_feasible),
        strict=bool(strict),
        results=results,
        contradiction=contradiction,
        options=jsonable(options),
        preparation=record,
    )


def _engine(
    lb: Leaderboard,
    cons: tuple[WeightConstraint, ...],
    extra: tuple[WeightConstraint, ...],
    solver_cons: WeightConstraints | None,
    solver: str,
    method: str,
    counters: dict[str, float],
    shortcut: bool = True,
) -> tuple[tuple[WeightConstraint, ...], Engine]:
    """The constraints and LP engine of the systems with the unscored-task rows `extra`.

    The batch engine refuses contradictory constraints; the user's constraints alone are
    consistent (checked before), but with `extra` they may not be: then the per-LP engine,
    whose max-margin LP answers INFEASIBLE with a Farkas certificate.
    """
    if not extra:
        return cons, Engine(lb, solver_cons, solver, method, shortcut)
    both = cons + extra
    rows = solver_constraints(lb, both)
    if cons and method == "highspy":
        with solver_errors("prospective: checking the weight constraints", solver):
            farkas = constraints_farkas_lp(rows, backend=solver, slack=CONSTRAINT_TOL)  # type: ignore[arg-type]
        counters["lps"] += 1
        counters["solves"] += 1
        if farkas is not None:
            return both, Engine(lb, rows, solver, "pulp", shortcut)
    return both, Engine(lb, rows, solver, method, shortcut)


def _contradiction(
    lb: Leaderboard,
    cons: Sequence[WeightConstraint],
    solver_cons: WeightConstraints | None,
    solver: str,
    counters: dict[str, float],
) -> CondorcetCertificate | None:
    """A verified Farkas certificate that the weight constraints alone cannot hold, or None."""
    if solver_cons is None:
        return None
    with solver_errors("prospective: checking the weight constraints", solver):
        farkas = constraints_farkas_lp(solver_cons, backend=solver, slack=CONSTRAINT_TOL)
    counters["lps"] += 1
    counters["solves"] += 1
    if farkas is None:
        return None
    contradiction = make_certificate(lb, lb.systems[0], lb.systems[1:], farkas, "constraints", -CONSTRAINT_TOL, cons)
    if not certificate_holds(lb, contradiction, cons):
        raise SolveFailedError("prospective: the Farkas certificate of the constraints does not verify")
    return contradiction
