"""Probe: exact Kemeny by the package (HiGHS) against a SCIP branch and cut, on pure-noise boards.

The groundwork of the branch-and-cut issue: before an engine is built into ``solvers/``, measure
what SCIP (through PySCIPOpt, ``pip install pyscipopt``; not a dependency of the package) does on
the instances where the HiGHS path stalls. The SCIP model here is the textbook one: a binary
``x[i, j]`` (``i`` above ``j``) per pair ``i < j``, the objective the Kemeny disagreement, and
the 3-cycle inequalities ``x[a, b] + x[b, c] + x[c, a] <= 2`` left out of the model and added by
a constraint handler wherever the LP point (at every node) or a candidate solution violates
them (up to ``25 N`` most violated per round). It starts from the net-margin order (each system
by its summed majority margin). No decomposition, no stronger cut families yet.

Boards: ``cs.datasets.gumbel_leaderboard(N, T, phi=0, seed)`` (pure noise), the seeds of the
issue (``--seeds 100-104``), one solve at a time, each engine under ``--limit`` seconds. Printed
per board and engine: status, objective, proven bound, gap, seconds; every objective is
recomputed from the pairwise matrix (``cs.kemeny_objective``) and both engines' certified optima
must agree.

``--root``: instead, how far stronger cuts lift the bound at the root: the LP with every
violated 3-cycle inequality added (up to 20 N most violated a round, HiGHS) until none is left,
then SCIP given exactly those rows as a MIP stopped at its root node (``limits/nodes = 1``),
its {0, 1/2}-Chvatal-Gomory separator allowed 100 rounds and 10,000 cuts a round, every
separator's rounds unlimited. Both bounds are printed beside the package's best ranking.

Usage::

    python benchmarks/kemeny_engines.py --n 100 --seeds 100-104 --limit 120
    python benchmarks/kemeny_engines.py --seeds 104 --root --limit 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def scip_kemeny(pref: np.ndarray, limit: float) -> tuple[str, list[int], float, float, float, int]:
    """SCIP with a 3-cycle constraint handler: status, order, objective, bound, seconds, cuts added."""
    from pyscipopt import SCIP_RESULT, Conshdlr, Model

    n = pref.shape[0]

    class Transitivity(Conshdlr):  # type: ignore[misc]
        def __init__(self, x: dict[tuple[int, int], object]) -> None:
            self.x = x
            self.added = 0

        def _above(self, sol: object = None) -> np.ndarray:
            v = np.zeros((n, n))
            for (i, j), var in self.x.items():
                val = self.model.getSolVal(sol, var)
                v[i, j], v[j, i] = val, 1.0 - val
            return v

        def _violated(self, v: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            excess = v[:, :, None] + v[None, :, :] + v.T[:, None, :] - 2.0  # a above b above c above a
            a, b, c = np.nonzero(excess > tol)
            keep = (a < b) & (a < c)  # each cycle once
            a, b, c = a[keep], b[keep], c[keep]
            top = np.argsort(-excess[a, b, c])[: 25 * n]
            return a[top], b[top], c[top]

        def _cut(self, cycles: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
            for i, j, k in zip(*(c.tolist() for c in cycles)):
                terms = [(self.x[p, q], 1.0, 0.0) if p < q else (self.x[q, p], -1.0, 1.0) for p, q in ((i, j), (j, k), (k, i))]
                row = self.model.createEmptyRowUnspec("cycle", lhs=None, rhs=2.0 - sum(t[2] for t in terms),
                                                      local=False, removable=True)
                self.model.cacheRowExtensions(row)
                for var, coef, _ in terms:
                    self.model.addVarToRow(row, var, coef)
                self.model.flushRowExtensions(row)
                self.model.addCut(row, forcecut=True)
                self.model.releaseRow(row)
            self.added += len(cycles[0])

        def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason, completely, **kw):  # noqa: ANN001
            bad = len(self._violated(self._above(solution), 0.5)[0])
            return {"result": SCIP_RESULT.INFEASIBLE if bad else SCIP_RESULT.FEASIBLE}

        def consenfolp(self, constraints, nusefulconss, solinfeasible):  # noqa: ANN001
            cycles = self._violated(self._above(), 1e-6)
            if not len(cycles[0]):
                return {"result": SCIP_RESULT.FEASIBLE}
            self._cut(cycles)
            return {"result": SCIP_RESULT.SEPARATED}

        def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):  # noqa: ANN001
            bad = len(self._violated(self._above(), 0.5)[0])
            return {"result": SCIP_RESULT.INFEASIBLE if bad else SCIP_RESULT.FEASIBLE}

        def conssepalp(self, constraints, nusefulconss):  # noqa: ANN001
            cycles = self._violated(self._above(), 1e-6)
            if not len(cycles[0]):
                return {"result": SCIP_RESULT.DIDNOTFIND}
            self._cut(cycles)
            return {"result": SCIP_RESULT.SEPARATED}

        def conslock(self, constraint, locktype, nlockspos, nlocksneg):  # noqa: ANN001
            for var in self.x.values():
                self.model.addVarLocks(var, nlockspos + nlocksneg, nlockspos + nlocksneg)

    model = Model()
    model.hideOutput()
    x = {(i, j): model.addVar(vtype="B", obj=float(pref[j, i] - pref[i, j])) for i in range(n) for j in range(i + 1, n)}
    model.addObjoffset(float(np.triu(pref, 1).sum()))  # x = 0 everywhere: every pair i < j reversed
    handler = Transitivity(x)
    model.includeConshdlr(handler, "transitivity", "3-cycle inequalities, separated at every node",
                          sepapriority=1_000_000, enfopriority=-1, chckpriority=-1, sepafreq=1, needscons=False)
    model.setParam("limits/time", limit)
    start_order = np.argsort(-(pref - pref.T).sum(axis=1), kind="stable")
    rank = np.empty(n, dtype=int)
    rank[start_order] = np.arange(n)
    sol = model.createSol()
    for (i, j), var in x.items():
        model.setSolVal(sol, var, 1.0 if rank[i] < rank[j] else 0.0)
    model.addSol(sol)
    begin = time.perf_counter()
    model.optimize()
    seconds = time.perf_counter() - begin
    best = model.getBestSol()
    above = np.zeros((n, n))
    for (i, j), var in x.items():
        val = model.getSolVal(best, var)
        above[i, j], above[j, i] = val, 1.0 - val
    order = list(np.argsort(-above.sum(axis=1), kind="stable"))
    return str(model.getStatus()), order, float(model.getObjVal()), float(model.getDualbound()), seconds, handler.added


def root_bounds(pref: np.ndarray, limit: float) -> tuple[float, int, float, float, float]:
    """The 3-cycle closure LP bound (HiGHS), its rows, its seconds; SCIP's root bound with them, its seconds."""
    import highspy
    from pyscipopt import Model, quicksum

    n = pref.shape[0]
    first, second = np.triu_indices(n, 1)
    column = np.full((n, n), -1)
    column[first, second] = np.arange(first.size)  # y = 1: first above second
    offset = float(pref[first, second].sum())  # every y = 0: each pair i < j reversed
    cost = pref[second, first] - pref[first, second]
    lp = highspy.Highs()
    lp.setOptionValue("output_flag", False)
    lp.addVars(first.size, np.zeros(first.size), np.ones(first.size))
    lp.changeColsCost(first.size, np.arange(first.size, dtype=np.int32), cost)
    rows: list[tuple[list[int], list[float], float]] = []
    begin = time.perf_counter()
    while True:
        lp.run()
        y = np.asarray(lp.getSolution().col_value)
        above = np.zeros((n, n))
        above[first, second], above[second, first] = y, 1.0 - y
        excess = above[:, :, None] + above[None, :, :] + above.T[:, None, :] - 2.0  # a > b > c > a
        a, b, c = np.nonzero(excess > 1e-6)
        keep = (a < b) & (a < c)
        a, b, c = a[keep], b[keep], c[keep]
        if not a.size:
            break
        for i, j, k in zip(*(v[np.argsort(-excess[a, b, c])[: 20 * n]].tolist() for v in (a, b, c))):
            terms = [(column[p, q], 1.0, 0.0) if p < q else (column[q, p], -1.0, 1.0) for p, q in ((i, j), (j, k), (k, i))]
            cols, coefs = [int(t[0]) for t in terms], [t[1] for t in terms]
            rhs = 2.0 - sum(t[2] for t in terms)
            lp.addRow(-highspy.kHighsInf, rhs, 3, np.array(cols, dtype=np.int32), np.array(coefs))
            rows.append((cols, coefs, rhs))
    closure, closure_seconds = lp.getInfo().objective_function_value + offset, time.perf_counter() - begin
    model = Model()
    model.hideOutput()
    y_vars = [model.addVar(vtype="B", obj=float(v)) for v in cost]
    for cols, coefs, rhs in rows:
        model.addCons(quicksum(cf * y_vars[cl] for cl, cf in zip(cols, coefs)) <= rhs)
    model.setParam("limits/nodes", 1)
    model.setParam("limits/time", limit)
    model.setParam("separating/zerohalf/maxroundsroot", 100)
    model.setParam("separating/zerohalf/maxsepacutsroot", 10000)
    model.setParam("separating/maxroundsroot", -1)
    begin = time.perf_counter()
    model.optimize()
    return closure, len(rows), closure_seconds, float(model.getDualbound()) + offset, time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--seeds", default="100-104", help="a range A-B or a list A,B,...")
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--root", action="store_true", help="the root bounds with stronger cuts instead (module notes)")
    args = parser.parse_args()
    import consensus as cs

    if "-" in args.seeds:
        lo, hi = (int(x) for x in args.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(x) for x in args.seeds.split(",")]
    print(f"pure noise, N = {args.n}, T = {args.tasks}, seeds {seeds}, {args.limit:g} s per solve")
    if args.root:
        for seed in seeds:
            lb = cs.datasets.gumbel_leaderboard(args.n, args.tasks, phi=0.0, seed=seed)
            p = cs.pairwise(lb)
            closure, n_rows, closure_seconds, scip_root, scip_seconds = root_bounds(p.preferences, args.limit)
            best = cs.kemeny(lb, unique=False, time_limit=20).objective
            print(f"seed {seed}: 3-cycle closure LP {closure:.1f} ({n_rows} rows, {closure_seconds:.1f} s); SCIP root "
                  f"with those rows and its cuts {scip_root:.1f} ({scip_seconds:.1f} s); best ranking (20 s) {best:g}: "
                  f"{scip_root - closure:.1f} of {best - closure:.1f} closed", flush=True)
        return
    print(f"{'seed':>5} {'engine':<8} {'status':<11} {'objective':>11} {'bound':>11} {'gap':>7} {'seconds':>8}")
    for seed in seeds:
        lb = cs.datasets.gumbel_leaderboard(args.n, args.tasks, phi=0.0, seed=seed)
        p = cs.pairwise(lb)
        begin = time.perf_counter()
        ours = cs.kemeny(lb, unique=False, time_limit=args.limit)
        spent = time.perf_counter() - begin
        assert abs(cs.kemeny_objective(p, ours.order) - ours.objective) <= 1e-7 * max(1.0, ours.objective)
        print(f"{seed:>5} {'highs':<8} {ours.status.value:<11} {ours.objective:>11.1f} {ours.lower_bound:>11.1f} "
              f"{ours.objective - ours.lower_bound:>7.1f} {spent:>8.1f}", flush=True)
        try:
            status, order, objective, bound, seconds, cuts = scip_kemeny(p.preferences, args.limit)
        except ImportError:
            print(f"{seed:>5} {'scip':<8} (pyscipopt is not installed)")
            continue
        recomputed = cs.kemeny_objective(p, [lb.systems[i] for i in order])
        assert abs(recomputed - objective) <= 1e-6 * max(1.0, objective), (recomputed, objective)
        if status == "optimal" and ours.optimal:
            assert abs(objective - ours.objective) <= 1e-6 * max(1.0, objective)
        print(f"{seed:>5} {'scip':<8} {status:<11} {objective:>11.1f} {bound:>11.1f} {objective - bound:>7.1f} "
              f"{seconds:>8.1f}  ({cuts} cycle cuts)", flush=True)


if __name__ == "__main__":
    main()
