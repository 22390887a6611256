"""winning_weights / prospective(rule=<linear rule>) against exact brute force and independent checks.

The reference answers here do not use the library's LP code: the max-min margin
``eps* = max_{w in simplex} min_j (points[i] - points[j]) @ w`` is found by vertex
enumeration in exact rational arithmetic, on per-task points recomputed from the scores
with :class:`fractions.Fraction` (positions, tie averages, scoring vectors, expected points
over the compatible rankings by enumerating permutations).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus import DegenerateTaskWarning
from consensus.errors import InvalidOptionError
from consensus.rules.linear import linear_points, normalized_leaderboard, rule_scores
from solvers.ordering_exact import as_rational
from tests.strategies import score_frames

# ---------------------------------------------------------------------- rule configurations
#: (rule, options passed to winning_weights). Every linear rule, plus a few tie / normalize options.
CONFIGS: list[tuple[str, dict]] = [
    ("mean", {}),
    ("mean", {"normalize": "minmax"}),
    ("borda", {}),
    ("borda", {"ties": "min"}),
    ("borda", {"ties": "max"}),
    ("dowdall", {}),
    ("plurality", {}),
    ("scoring", {"vector": (5.0, 2.0, 1.0)}),
    ("rank_complement", {}),
    ("top_ten", {}),
    ("eurovision", {}),
]
CONFIG_IDS = [r + "".join(f"-{k}={v}" for k, v in o.items()) for r, o in CONFIGS]
EUROVISION = (12, 10, 8, 7, 6, 5, 4, 3, 2, 1)

TOL = 1e-9  # the default tol of winning_weights, relative to rule_options["scale"]

# the rule re-runs inside the library select weight-0 tasks away and warn about tied tasks
pytestmark = pytest.mark.filterwarnings("ignore::consensus.errors.DegenerateTaskWarning")


# ---------------------------------------------------------------------- helpers: boards
def make_board(values, lower=(), systems=None, tasks=None) -> cs.Leaderboard:
    values = np.asarray(values, dtype=float)
    n, m = values.shape
    systems = list(systems) if systems is not None else [f"s{i}" for i in range(n)]
    tasks = list(tasks) if tasks is not None else [f"t{k}" for k in range(m)]
    frame = pd.DataFrame(values, index=systems, columns=tasks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, lower_is_better=list(lower), keep_columns=True)


def frac(x) -> Fraction:
    return Fraction(float(x))


# ---------------------------------------------------------------------- helpers: exact points
def exact_vector(rule: str, n: int, vector=None) -> list[Fraction]:
    """Points for positions 1..n, exactly (independent of consensus.rules.positional)."""
    if rule == "borda":
        return [Fraction(n - 1 - p) for p in range(n)]
    if rule == "dowdall":
        return [Fraction(1, p + 1) for p in range(n)]
    if rule == "plurality":
        return [Fraction(int(p == 0)) for p in range(n)]
    if rule == "rank_complement":
        return [Fraction(n - p) for p in range(n)]
    if rule == "top_ten":
        return [Fraction(max(10 - p, 0)) for p in range(n)]
    if rule == "eurovision":
        return [Fraction(EUROVISION[p]) if p < len(EUROVISION) else Fraction(0) for p in range(n)]
    if rule == "scoring":
        c = [frac(x) for x in vector]
        return c + [Fraction(0)] * (n - len(c))
    raise AssertionError(rule)


def oriented(lb: cs.Leaderboard) -> list[list[Fraction]]:
    """The scores as Fractions, negated on lower-is-better tasks (from lb.scores, not lb.values)."""
    raw = lb.scores.to_numpy(dtype=float)
    lower = set(lb.lower_is_better)
    out = []
    for i in range(raw.shape[0]):
        out.append([(-frac(raw[i, k]) if t in lower else frac(raw[i, k])) for k, t in enumerate(lb.tasks)])
    return out


def exact_points(lb: cs.Leaderboard, rule: str, opts: dict) -> list[list[Fraction]]:
    """Systems x tasks points of a linear rule on a complete leaderboard, in exact arithmetic."""
    v = oriented(lb)
    n, m = len(v), len(v[0])
    if rule == "mean":
        how = opts.get("normalize")
        if how is None:
            return v
        assert how == "minmax"
        out = [[Fraction(0)] * m for _ in range(n)]
        for k in range(m):
            col = [v[i][k] for i in range(n)]
            lo, hi = min(col), max(col)
            for i in range(n):
                out[i][k] = (col[i] - lo) / (hi - lo) if hi > lo else Fraction(0)
        return out
    c = exact_vector(rule, n, opts.get("vector"))
    ties = opts.get("ties", "average")
    out = [[Fraction(0)] * m for _ in range(n)]
    for k in range(m):
        for i in range(n):
            better = sum(1 for j in range(n) if v[j][k] > v[i][k])
            same = sum(1 for j in range(n) if v[j][k] == v[i][k])
            first, last = better + 1, better + same
            if ties == "min":
                out[i][k] = c[first - 1]
            elif ties == "max":
                out[i][k] = c[last - 1]
            else:
                out[i][k] = sum(c[first - 1 : last], Fraction(0)) / same
    return out


def differences(P, i: int, keep=None) -> list[list[Fraction]]:
    """Rows points[i] - points[j] (j != i), restricted to the task columns `keep`."""
    m = len(P[0])
    cols = list(range(m)) if keep is None else list(keep)
    return [[P[i][k] - P[j][k] for k in cols] for j in range(len(P)) if j != i]


# ---------------------------------------------------------------------- helpers: exact LP by vertices
def solve_exact(A, b):
    """Solve the square system A x = b over the rationals (Gauss-Jordan); None if singular."""
    n = len(A)
    M = [list(row) + [rhs] for row, rhs in zip(A, b)]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            return None
        M[col], M[piv] = M[piv], M[col]
        rowp = M[col]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col] / rowp[col]
                row = M[r]
                for c in range(col, n + 1):
                    if rowp[c]:
                        row[c] -= f * rowp[c]
    return [M[r][n] / M[r][r] for r in range(n)]


@functools.cache
def _max_min_margin(D: tuple, cap: Fraction | None) -> Fraction:
    T, nr = len(D[0]), len(D)
    levels = [Fraction(0)] if cap is None else [Fraction(0), cap]
    best = None
    # A vertex of {(w, eps): sum w = 1, 0 <= w <= cap, D w >= eps} has T+1 tight, independent
    # constraints: sum w = 1, r >= 1 margin rows (otherwise eps is free) and T - r bounds. The
    # bounded w_k are fixed at 0 / cap and substituted, leaving an (r+1) x (r+1) square system.
    for r in range(1, min(nr, T) + 1):
        for free in itertools.combinations(range(T), r):
            at_bound = [k for k in range(T) if k not in free]
            for vals in itertools.product(levels, repeat=len(at_bound)):
                rest = 1 - sum(vals, Fraction(0))
                if rest < 0:
                    continue
                for rows in itertools.combinations(range(nr), r):
                    A = [[Fraction(1)] * r + [Fraction(0)]]
                    b = [rest]
                    for j in rows:
                        A.append([D[j][k] for k in free] + [Fraction(-1)])
                        b.append(-sum((D[j][k] * x for k, x in zip(at_bound, vals)), Fraction(0)))
                    x = solve_exact(A, b)
                    if x is None:
                        continue
                    w = [Fraction(0)] * T
                    for k, val in zip(at_bound, vals):
                        w[k] = val
                    for k, val in zip(free, x):
                        w[k] = val
                    if any(val < 0 for val in w) or (cap is not None and any(val > cap for val in w)):
                        continue
                    eps = x[-1]
                    if all(sum(d * val for d, val in zip(row, w)) >= eps for row in D):
                        best = eps if best is None else max(best, eps)
    assert best is not None, "bounded feasible LP without a vertex"
    return best


def max_min_margin(D, cap=None) -> Fraction:
    """eps* = max over {w >= 0, sum w = 1, w <= cap} of min_j D_j @ w, exactly."""
    key = tuple(tuple(row) for row in D)
    return _max_min_margin(key, None if cap is None else Fraction(cap))


def exact_eps(lb, rule, opts, system, cap=None) -> Fraction:
    P = exact_points(lb, rule, opts)
    return max_min_margin(differences(P, lb.systems.index(system)), cap)


# ---------------------------------------------------------------------- helpers: independent checks
def independent_certificate_bound(P, lb, res) -> tuple[Fraction, list[Fraction]]:
    """max_k (sum_j y_j (P[i,k] - P[j,k]) - d_k) + sum mu * rhs, from the certificate, exactly."""
    cert = res.certificate
    systems, tasks = list(lb.systems), list(lb.tasks)
    i = systems.index(res.system)
    ys = {s: frac(y) for s, y in cert.rival_mix.items()}
    assert all(y >= 0 for y in ys.values())
    total = sum(ys.values(), Fraction(0))
    assert total > 0
    adv = [
        sum((y * (P[i][k] - P[systems.index(s)][k]) for s, y in ys.items()), Fraction(0)) / total
        for k in range(len(tasks))
    ]
    d = [Fraction(0)] * len(tasks)
    const = Fraction(0)
    by_label = {c.label: c for c in res.constraints}
    for key, mu in cert.multipliers.items():
        label, side = key.rsplit(":", 1)
        mu = frac(mu)
        assert mu >= 0
        if mu == 0:
            continue
        con = by_label[label]
        sign = 1 if side == "upper" else -1
        rhs = con.upper if side == "upper" else con.lower
        assert math.isfinite(rhs)
        for t, a in con.coefficients.items():
            d[tasks.index(t)] += sign * mu * frac(a)
        const += sign * mu * frac(rhs)
    return max(a - dk for a, dk in zip(adv, d)) + const, adv


def check_certificate(P, lb, res) -> None:
    cert = res.certificate
    assert cert is not None and cert.system == res.system
    bound, adv = independent_certificate_bound(P, lb, res)
    scale = res.rule_options["scale"]
    if not any(float(mu) != 0 for mu in cert.multipliers.values()):
        assert max(adv) == bound
    if cert.kind == "strict":
        assert res.strict and bound <= frac(cert.threshold)
        assert cert.threshold == pytest.approx(res.tol * scale)
    else:
        assert cert.kind == "weak" and not res.strict and bound < frac(cert.threshold)
        assert cert.threshold == pytest.approx(-res.tol * scale)
    assert float(bound) == pytest.approx(cert.bound, abs=1e-9 * scale)
    # the reported per-task advantage is the blend's
    for t, a in zip(lb.tasks, adv):
        assert cert.task_advantage[t] == pytest.approx(float(a), abs=1e-9 * scale)


def rank_options(rule: str, opts: dict) -> dict:
    return {k: v for k, v in opts.items() if k in ("ties", "vector")}


def rerun_rule(lb, rule, opts, weights: dict):
    """Run the rule itself on the leaderboard reweighted by `weights` (cs.rank)."""
    base = normalized_leaderboard(lb, opts["normalize"]) if opts.get("normalize") else lb
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        reweighted = base.with_weights(weights)
    return cs.rank(reweighted, rule, **rank_options(rule, opts))


def check_winning_weights(lb, rule, opts, res) -> None:
    """Feasible weights: sum 1, >= 0, and the rule itself makes the system (the only) winner."""
    scale = res.rule_options["scale"]
    w = res.weights
    assert list(w.index) == list(lb.tasks)
    assert abs(float(w.sum()) - 1.0) <= 1e-9
    assert (w >= -1e-12).all()
    rr = rerun_rule(lb, rule, opts, {t: max(float(x), 0.0) for t, x in w.items()})
    assert res.system in rr.winners
    diff = {s: float(rr.scores[res.system] - rr.scores[s]) for s in lb.systems if s != res.system}
    for s, m in res.margins.items():
        assert diff[s] == pytest.approx(float(m), abs=1e-8 * scale)
    assert min(diff.values()) == pytest.approx(res.weights_margin, abs=1e-8 * scale)
    if res.strict:
        assert min(diff.values()) > 0
        if res.weights_margin > 1e-6 * scale:
            assert rr.winners == (res.system,)
    else:
        assert min(diff.values()) >= -1e-9 * scale


def check_scale(lb, rule, opts, res) -> None:
    P = exact_points(lb, rule, opts)
    spread = max(max(P[i][k] for i in range(len(P))) - min(P[i][k] for i in range(len(P))) for k in range(len(P[0])))
    scale = res.rule_options["scale"]
    assert math.log2(scale) == int(math.log2(scale))
    if spread == 0:
        assert scale == 1.0
    else:
        assert spread <= frac(scale) < 2 * spread


# ---------------------------------------------------------------------- 1. brute force, exact
def seeded_boards(seed: int = 20240611, count: int = 6) -> list[cs.Leaderboard]:
    rng = random.Random(seed)
    boards = []
    for b in range(count):
        n, m = rng.randint(3, 5), rng.randint(2, 4)
        vals = [[rng.randint(0, 3) for _ in range(m)] for _ in range(n)]
        if b % 3 == 0:
            vals[1] = list(vals[0])  # a duplicate row: its margin over the twin is always 0
        if b % 4 == 1:
            vals[2] = [x + 1 for x in vals[0]]  # row 2 dominates row 0
        lower = [f"t{k}" for k in range(m) if rng.random() < 0.25]
        boards.append(make_board(vals, lower))
    # hand-made: s0 and s1 identical and each best on one task: eps* = 0 exactly for both
    boards.append(make_board([[3, 0], [3, 0], [0, 3], [1, 1]]))
    return boards


BOARDS = seeded_boards()


def test_brute_force_itself_on_the_documented_toy_answer():
    # docstring of winning_weights: A wins Borda on the toy with margin 5/3 (weights 2/3, 1/3)
    toy = cs.load_example("votenrank-toy")
    assert exact_eps(toy, "borda", {}, "A") == Fraction(5, 3)
    assert exact_eps(toy, "borda", {}, "A", cap=Fraction(1, 5)) == Fraction(-3, 5)


@pytest.mark.parametrize(("rule", "opts"), CONFIGS, ids=CONFIG_IDS)
def test_margin_and_feasibility_match_exact_vertex_enumeration(rule, opts):
    signs = set()
    for lb in BOARDS:
        P = exact_points(lb, rule, opts)
        lp = linear_points(lb, rule, {"ties": "average", **opts} if rule != "mean" else {"normalize": None, **opts}, False)
        np.testing.assert_allclose(lp.points, [[float(x) for x in row] for row in P], rtol=0, atol=1e-12)
        for i, s in enumerate(lb.systems):
            eps = max_min_margin(differences(P, i))
            signs.add((eps > 0) - (eps < 0))
            res = cs.winning_weights(lb, s, rule=rule, **opts)
            scale = res.rule_options["scale"]
            assert res.rule == rule
            assert abs(res.margin - float(eps)) <= TOL * scale, (lb.scores, s, res.margin, eps)
            assert res.bound >= res.margin - TOL * scale
            assert abs(res.bound - float(eps)) <= TOL * scale
            assert res.feasible == (eps > 0), (lb.scores, s, eps)
            assert res.verify(lb)
            weak = cs.winning_weights(lb, s, rule=rule, strict=False, **opts)
            assert abs(weak.margin - float(eps)) <= TOL * scale
            assert weak.feasible == (eps >= 0), (lb.scores, s, eps)
            assert weak.verify(lb)
            if res.feasible:
                check_winning_weights(lb, rule, opts, res)
            else:
                check_certificate(P, lb, res)
            if weak.feasible:
                check_winning_weights(lb, rule, opts, weak)
            else:
                check_certificate(P, lb, weak)
        check_scale(lb, rule, opts, res)
    # the boards exercise winning, the exact-tie boundary and losing
    assert signs == {-1, 0, 1}


# ---------------------------------------------------------------------- 2. properties (hypothesis)
boards = score_frames(min_systems=3, max_systems=5, min_tasks=2, max_tasks=4, max_score=3).map(make_board)
configs = st.sampled_from(CONFIGS)


@st.composite
def constraint_options(draw, n_tasks: int):
    kind = draw(st.sampled_from(["none", "max_weight", "fixed", "min_weight", "nearest"]))
    if kind == "max_weight":
        return {"max_weight": draw(st.sampled_from([0.5, 0.6, 0.75]))}  # cap * n_tasks >= 1
    if kind == "fixed":
        return {"fixed": {"t0": draw(st.sampled_from([0.0, 0.25, 0.5]))}}
    if kind == "min_weight":
        return {"min_weight": draw(st.sampled_from([0.1, 0.2]))}  # min * n_tasks <= 0.8
    if kind == "nearest":
        return {"nearest_to": "uniform"}
    return {}


@given(data=st.data())
def test_weights_win_when_the_rule_is_run_and_certificates_hold_exactly(data):
    lb = data.draw(boards)
    rule, opts = data.draw(configs)
    system = data.draw(st.sampled_from(lb.systems))
    strict = data.draw(st.booleans())
    extra = data.draw(constraint_options(lb.n_tasks))
    bounds = {k: v for k, v in extra.items() if k != "nearest_to"}
    nearest = {"nearest_to": extra.get("nearest_to")}  # None: the max-margin vertex, whose margin the weights reach
    res = cs.winning_weights(lb, system, rule=rule, strict=strict, **opts, **nearest, constraints=bounds)
    scale = res.rule_options["scale"]
    P = exact_points(lb, rule, opts)
    assert res.verify(lb)
    assert res.feasible == (res.weights is not None)
    if "max_weight" in extra:  # the caps are part of the exact brute force too
        # the cap is read as the rational it stands for, as the package reads every weight (0.6 is
        # 3/5, not the binary double just below it: the thorough profile found a weak winner at
        # exactly 3/5 that the double's value would miss by 2**-54)
        eps = exact_eps(lb, rule, opts, system, cap=as_rational(extra["max_weight"]))
        assert abs(res.margin - float(eps)) <= TOL * scale
        assert res.feasible == (eps > 0 if strict else eps >= 0)
    if not extra:
        eps = exact_eps(lb, rule, opts, system)
        assert abs(res.margin - float(eps)) <= TOL * scale
    if res.feasible:
        check_winning_weights(lb, rule, opts, res)
        w = res.weights
        if "max_weight" in extra:
            assert (w <= extra["max_weight"] + 1e-9).all()
        if "min_weight" in extra:
            assert (w >= extra["min_weight"] - 1e-9).all()
        if "fixed" in extra:
            assert abs(float(w["t0"]) - extra["fixed"]["t0"]) <= 1e-9
        if "nearest_to" in extra:
            assert res.distance == pytest.approx(float(np.abs(w.to_numpy() - 1 / lb.n_tasks).sum()), abs=1e-9)
            threshold = min(res.min_margin * scale, res.margin) if strict else min(0.0, res.margin)
            if res.distance > 0:  # the uniform reference itself is returned when it already wins
                assert res.weights_margin >= threshold - TOL * scale
        else:
            assert res.weights_margin == pytest.approx(res.margin, abs=TOL * scale)
    else:
        assert res.certificate is not None
        if res.certificate.kind != "constraints":
            check_certificate(P, lb, res)


# ---------------------------------------------------------------------- 3. anonymity / neutrality
@given(data=st.data())
def test_permuting_systems_or_tasks_changes_nothing(data):
    lb = data.draw(boards)
    rule, opts = data.draw(configs)
    systems = data.draw(st.permutations(list(lb.systems)))
    tasks = data.draw(st.permutations(list(lb.tasks)))
    lower = list(lb.lower_is_better)
    permuted = make_board(lb.scores.loc[systems, tasks].to_numpy(), lower, systems, tasks)
    strict = data.draw(st.booleans())
    for s in lb.systems:
        a = cs.winning_weights(lb, s, rule=rule, strict=strict, **opts)
        b = cs.winning_weights(permuted, s, rule=rule, strict=strict, **opts)
        assert a.feasible == b.feasible
        assert a.rule_options["scale"] == b.rule_options["scale"]
        assert abs(a.margin - b.margin) <= TOL * a.rule_options["scale"]
        assert b.verify(permuted)


# ---------------------------------------------------------------------- 4. prospective agrees
@given(lb=boards, config=configs)
def test_prospective_agrees_with_winning_weights(lb, config):
    rule, opts = config
    pro = cs.prospective(lb, rule=rule, **opts)
    pro_weak = cs.prospective(lb, rule=rule, strict=False, nearest_to=None, **opts)
    assert pro.systems == lb.systems
    for k, s in enumerate(lb.systems):
        strict = cs.winning_weights(lb, s, rule=rule, **opts)
        weak = cs.winning_weights(lb, s, rule=rule, strict=False, **opts)
        scale = strict.rule_options["scale"]
        assert pro.strict_feasible[k] == strict.feasible == pro_weak.strict_feasible[k]
        assert pro.feasible[k] == weak.feasible == pro_weak.feasible[k]
        assert pro.results[s].feasible == strict.feasible
        assert pro_weak.results[s].feasible == weak.feasible
        assert pro.results[s].rule == rule
        assert abs(pro.results[s].margin - strict.margin) <= TOL * scale
        assert abs(pro_weak.results[s].margin - weak.margin) <= TOL * scale
        assert pro.results[s].rule_options == strict.rule_options
        assert pro.results[s].verify(lb) and pro_weak.results[s].verify(lb)
    assert pro.prospective_systems == tuple(s for k, s in enumerate(lb.systems) if pro.feasible[k])
    assert pro.strict_winners == tuple(s for k, s in enumerate(lb.systems) if pro.strict_feasible[k])
    frame = pro.to_frame()
    assert frame["feasible"].tolist() == list(pro.feasible)
    assert frame["strict_feasible"].tolist() == list(pro.strict_feasible)


# ---------------------------------------------------------------------- 5. the Vote'n'Rank toy
TOY_CONFIGS = [
    ("mean", {}),
    ("mean", {"normalize": "minmax"}),
    ("borda", {}),
    ("dowdall", {}),
    ("plurality", {}),
    ("scoring", {"vector": (5.0, 3.0, 1.0, 0.0)}),
    ("rank_complement", {}),
    ("top_ten", {}),
    ("eurovision", {}),
]
TOY_IDS = [r + "".join(f"-{k}={v}" for k, v in o.items()) for r, o in TOY_CONFIGS]
#: Uniform-weight winners on the toy, by hand from appendix A.1 (positions A: 1,1,4,4,4;
#: B: 2,4,1,2,2; C: 3,2,3,1,3; D: 4,3,2,3,1). Dowdall: A and B tie at 2.75.
TOY_UNIFORM_WINNERS = {
    "mean": ("B",), "borda": ("B",), "dowdall": ("A", "B"), "plurality": ("A",), "scoring": ("B",),
    "rank_complement": ("B",), "top_ten": ("B",), "eurovision": ("B",),
}


@pytest.fixture(scope="module")
def toy() -> cs.Leaderboard:
    return cs.load_example("votenrank-toy")


@pytest.mark.parametrize(("rule", "opts"), TOY_CONFIGS, ids=TOY_IDS)
def test_toy_every_system_can_win_without_constraints(toy, rule, opts):
    P = exact_points(toy, rule, opts)
    for i, s in enumerate(toy.systems):
        res = cs.winning_weights(toy, s, rule=rule, **opts)
        eps = max_min_margin(differences(P, i))
        assert eps > 0
        assert res.feasible and res.verify(toy)
        assert abs(res.margin - float(eps)) <= TOL * res.rule_options["scale"]
        check_winning_weights(toy, rule, opts, res)
    assert cs.prospective(toy, rule=rule, **opts).strict_winners == ("A", "B", "C", "D")


@pytest.mark.parametrize(("rule", "opts"), TOY_CONFIGS, ids=TOY_IDS)
def test_toy_uniform_weights_forced(toy, rule, opts):
    winners = TOY_UNIFORM_WINNERS[rule]
    assert rerun_rule(toy, rule, opts, dict.fromkeys(toy.tasks, 1.0)).winners == winners
    P = exact_points(toy, rule, opts)
    for i, s in enumerate(toy.systems):
        # with w = 1/5 everywhere the margin is the uniform score difference, exactly
        eps = min(sum(P[i][k] - P[j][k] for k in range(5)) / 5 for j in range(4) if j != i)
        for strict in (True, False):
            res = cs.winning_weights(toy, s, rule=rule, strict=strict, constraints=cs.Constraints(max_weight=0.2), **opts)
            scale = res.rule_options["scale"]
            assert abs(res.margin - float(eps)) <= TOL * scale
            assert res.verify(toy)
            if strict:
                expected = winners == (s,)
            else:
                expected = s in winners
            assert res.feasible == expected, (s, strict)
            if res.feasible:
                np.testing.assert_allclose(res.weights.to_numpy(), 0.2, atol=1e-9)
                check_winning_weights(toy, rule, opts, res)
            else:
                check_certificate(P, toy, res)


#: max_weight=0.25 on the toy (5 tasks): eps* per system by exact vertex enumeration, e.g.
#: Borda: A -1/12, B 3/4, C 1/4, D exactly 0 (D ties at best); plurality: A 1/3, B, C, D 0.
#: max_weight=0.3 still lets everyone win under every rule here (Borda: A takes t1 = t2 = 0.3
#: for 1.8 points, t3 = 0.3 and t4 = 0.1 hold B to 1.7).
TOY_CAP_WINNERS = {  # (strict winners, weak winners) under max_weight=0.25
    "borda": (("B", "C"), ("B", "C", "D")),
    "plurality": (("A",), ("A", "B", "C", "D")),
    "dowdall": (("A", "B", "C"), ("A", "B", "C")),
    "eurovision": (("A", "B", "C"), ("A", "B", "C")),
}


@pytest.mark.parametrize("cap", [0.25, 0.3])
@pytest.mark.parametrize(("rule", "opts"), TOY_CONFIGS, ids=TOY_IDS)
def test_toy_intermediate_cap_matches_exact_vertex_enumeration(toy, rule, opts, cap):
    P = exact_points(toy, rule, opts)
    strict_winners, weak_winners = [], []
    for i, s in enumerate(toy.systems):
        eps = max_min_margin(differences(P, i), cap=as_rational(cap))
        for strict in (True, False):
            res = cs.winning_weights(toy, s, rule=rule, strict=strict, constraints=cs.Constraints(max_weight=cap), **opts)
            scale = res.rule_options["scale"]
            assert abs(res.margin - float(eps)) <= TOL * scale, (s, res.margin, eps)
            assert res.feasible == (eps > 0 if strict else eps >= 0)
            assert res.verify(toy)
            if res.feasible:
                assert (res.weights <= cap + 1e-9).all()
                check_winning_weights(toy, rule, opts, res)
                (strict_winners if strict else weak_winners).append(s)
            else:
                check_certificate(P, toy, res)
    if cap == 0.3:
        assert strict_winners == weak_winners == ["A", "B", "C", "D"]
    else:
        if rule in TOY_CAP_WINNERS:
            assert (tuple(strict_winners), tuple(weak_winners)) == TOY_CAP_WINNERS[rule]
        # nontrivial: the answer differs from both "everyone" (no cap) and the uniform winners (cap 0.2)
        uniform = TOY_UNIFORM_WINNERS[rule]
        assert tuple(strict_winners) != ("A", "B", "C", "D")
        assert (tuple(strict_winners), tuple(weak_winners)) != (uniform if len(uniform) == 1 else (), uniform)
    pro = cs.prospective(toy, rule=rule, constraints=cs.Constraints(max_weight=cap), **opts)
    assert pro.strict_winners == tuple(strict_winners)
    assert pro.prospective_systems == tuple(weak_winners)


# ---------------------------------------------------------------------- 6. errors
@pytest.mark.parametrize("rule", ["copeland", "kemeny", "threshold"])
def test_rules_that_are_not_linear_are_refused(toy, rule):
    with pytest.raises(InvalidOptionError, match="not linear"):
        cs.winning_weights(toy, "A", rule=rule)
    with pytest.raises(InvalidOptionError, match="not linear"):
        cs.prospective(toy, rule=rule)


def test_option_the_rule_does_not_take(toy):
    with pytest.raises(InvalidOptionError, match="normalize"):
        cs.winning_weights(toy, "A", rule="borda", normalize="minmax")
    with pytest.raises(InvalidOptionError):
        cs.winning_weights(toy, "A", rule="mean", ties="min")


def test_missing_scores_need_a_policy(toy):
    frame = toy.scores.copy()
    frame.loc["C", "t4"] = np.nan
    lb = cs.Leaderboard.from_frame(frame)
    with pytest.raises(InvalidOptionError, match=r"'C' has none on 't4'"):
        cs.winning_weights(lb, "A", rule="borda")
    res = cs.winning_weights(lb, "A", rule="borda", missing="impute")
    assert res.rule_options["missing"] == "impute"
    assert res.verify(lb)
    res_c = cs.winning_weights(lb, "C", rule="borda", missing="impute")
    assert res_c.verify(lb)
    if res_c.feasible:  # scored_tasks_only: no weight on the task C has no score on
        assert res_c.weights["t4"] <= 1e-12
    with pytest.raises(InvalidOptionError, match="impute"):
        cs.winning_weights(lb, "A", rule="mean", missing="impute")


# ---------------------------------------------------------------------- 7. missing="impute"
def expected_borda_by_enumeration(lb: cs.Leaderboard) -> list[list[Fraction]]:
    """E[Borda points] per cell over all complete rankings compatible with each task (uniform)."""
    raw = lb.scores.to_numpy(dtype=float)
    lower = set(lb.lower_is_better)
    n, m = raw.shape
    out = [[Fraction(0)] * m for _ in range(n)]
    for k, t in enumerate(lb.tasks):
        sign = -1 if t in lower else 1
        scored = [i for i in range(n) if not np.isnan(raw[i, k])]
        compatible = []
        for perm in itertools.permutations(range(n)):  # perm[p] = system at position p + 1
            pos = {s: p for p, s in enumerate(perm)}
            if all(
                (sign * raw[a, k] > sign * raw[b, k]) == (pos[a] < pos[b]) for a in scored for b in scored if a != b
            ):
                compatible.append(pos)
        for i in range(n):
            out[i][k] = Fraction(sum(n - 1 - pos[i] for pos in compatible), len(compatible))
    return out


@st.composite
def boards_with_holes(draw):
    """3-5 systems, 2-3 tasks; on each task 1..n systems scored with distinct scores."""
    n = draw(st.integers(3, 5))
    m = draw(st.integers(2, 3))
    values = np.full((n, m), np.nan)
    for k in range(m):
        scored = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
        scores = draw(st.permutations(list(range(len(scored)))))
        for i, x in zip(scored, scores):
            values[i, k] = float(x)
    for i in range(n):  # every system scored somewhere
        if np.isnan(values[i]).all():
            k = draw(st.integers(0, m - 1))
            values[i, k] = float(np.nanmax(values[:, k]) + 1)
    lower = ["t0"] if draw(st.booleans()) else []
    return make_board(values, lower)


@given(lb=boards_with_holes(), strict=st.booleans())
def test_impute_borda_expected_points_margins_and_verification(lb, strict):
    E = expected_borda_by_enumeration(lb)
    lp = linear_points(lb, "borda", {"ties": "average"}, True)
    np.testing.assert_allclose(lp.points, [[float(x) for x in row] for row in E], rtol=0, atol=1e-12)
    # Borda with ties="average" under impute = row sums of the imputed pairwise matrix
    imp = cs.impute_pairwise(lb)
    unit = lb.weights.to_numpy(dtype=float)
    np.testing.assert_allclose(imp.scores.reindex(list(lb.systems)).to_numpy(), lp.points @ unit, atol=1e-9)
    raw = lb.scores.to_numpy(dtype=float)
    for i, s in enumerate(lb.systems):
        res = cs.winning_weights(lb, s, rule="borda", missing="impute", strict=strict)
        scale = res.rule_options["scale"]
        # the record names the policy applied: none on a board that the draw left complete
        assert res.rule_options["missing"] == ("impute" if lb.has_missing else None)
        assert res.verify(lb)
        scored_tasks = [k for k in range(lb.n_tasks) if not np.isnan(raw[i, k])]  # scored_tasks_only
        eps = max_min_margin(differences(E, i, keep=scored_tasks))
        assert abs(res.margin - float(eps)) <= TOL * scale, (lb.scores, s, res.margin, eps)
        assert res.feasible == (eps > 0 if strict else eps >= 0)
        if res.feasible:
            w = res.weights.to_numpy()
            for k in range(lb.n_tasks):
                if k not in scored_tasks:
                    assert w[k] <= 1e-12
            by_rule = rule_scores(lp, w)
            np.testing.assert_allclose(by_rule, lp.points @ w, atol=1e-9 * scale)
            margins = by_rule[i] - np.delete(by_rule, i)
            assert margins.min() == pytest.approx(res.weights_margin, abs=1e-8 * scale)
            # every system ranked, as in the program (the winning weights can leave a system's coverage low)
            rr = cs.rank(lb.with_weights(dict(zip(lb.tasks, np.maximum(w, 0.0).tolist()))), "borda", missing="impute",
                         min_coverage=0)
            assert s in rr.winners
            if strict and res.margin > 1e-6 * scale:
                assert rr.winners == (s,)
        else:
            check_certificate(E, lb, res)


def test_impute_answers_when_rivals_are_scored_only_on_weight_zero_tasks():
    # regression: the rule used to be re-run on the tasks of positive weight only, and b, c have
    # no score there (EmptySystemError)
    # t1 is scored by a only, so on t1 every system gets the same expected Borda points (1);
    # a is last on t0. eps*(a) = 0 (all weight on t1): no strict win, a weak win with {t1: 1}.
    frame = pd.DataFrame({"t0": [0.0, 1.0, 2.0], "t1": [1.0, np.nan, np.nan]}, index=["a", "b", "c"])
    lb = cs.Leaderboard.from_frame(frame)
    E = expected_borda_by_enumeration(lb)
    assert max_min_margin(differences(E, 0)) == 0
    # the same weighting works when the rule is run directly on the reweighted leaderboard
    assert cs.rank(lb.with_weights({"t0": 0.0, "t1": 1.0}), "borda", missing="impute").winners == ("a", "b", "c")
    weak = cs.winning_weights(lb, "a", rule="borda", missing="impute", strict=False)
    assert weak.feasible and weak.margin == 0.0 and weak.verify(lb)
    strict = cs.winning_weights(lb, "a", rule="borda", missing="impute")
    assert not strict.feasible and strict.verify(lb)


def test_impute_verify_when_rivals_are_scored_only_on_weight_zero_tasks():
    frame = pd.DataFrame({"t0": [0.0, 1.0, 2.0], "t1": [1.0, np.nan, np.nan]}, index=["a", "b", "c"])
    lb = cs.Leaderboard.from_frame(frame)
    pro = cs.prospective(lb, rule="borda", missing="impute", strict=False, nearest_to=None)
    res = pro.results["a"]
    assert res.feasible and res.margin == 0.0 and res.weights["t1"] == 1.0  # prospective itself answers
    assert res.verify(lb)


def test_impute_rounding_does_not_break_the_weak_certificate():
    # regression: a rival 'strictly better on every task' by 1e-16 (float rounding of the expected
    # points) was taken as the whole proof and failed the exact check
    frame = pd.DataFrame(
        {"t0": [4.0, 3.0, 2.0, 1.0, 0.0], "t1": [0.0, np.nan, np.nan, np.nan, np.nan]}, index=list("abcde")
    )
    lb = cs.Leaderboard.from_frame(frame)
    E = expected_borda_by_enumeration(lb)
    assert [row[1] for row in E] == [2, 2, 2, 2, 2]  # exactly: t1 cannot separate anyone
    # b is not scored on t1 (weight 0 there) and a beats it on t0 by 1 Borda point: eps* = -1
    assert max_min_margin(differences(E, 1, keep=[0])) == -1
    strict = cs.winning_weights(lb, "b", rule="borda", missing="impute")  # fine
    assert not strict.feasible and strict.margin == pytest.approx(-1.0) and strict.verify(lb)
    weak = cs.winning_weights(lb, "b", rule="borda", missing="impute", strict=False)
    assert not weak.feasible and weak.margin == pytest.approx(-1.0) and weak.verify(lb)
    check_certificate(E, lb, weak)


def test_a_cap_is_read_as_the_rational_it_stands_for():
    """s0 ties the top under rank_complement exactly when task t2 weighs 3/5: max_weight=0.6 allows
    it (weakly, margin 0), not strictly, and 0.59 does not (found by the thorough profile, where
    the exact reference had read 0.6 as the binary double below 3/5)."""
    frame = pd.DataFrame({"t0": [0.0, 0.0, 1.0], "t1": [0.0, 0.0, 1.0], "t2": [2.0, 0.0, 1.0]}, index=["s0", "s1", "s2"])
    lb = cs.Leaderboard.from_frame(frame)
    P = exact_points(lb, "rank_complement", {})
    for cap, strict, feasible in ((0.6, False, True), (0.6, True, False), (0.59, False, False)):
        res = cs.winning_weights(lb, "s0", rule="rank_complement", strict=strict, constraints=cs.Constraints(max_weight=cap))
        eps = max_min_margin(differences(P, 0), cap=as_rational(cap))
        assert res.feasible is feasible and (eps >= 0 if not strict else eps > 0) is feasible
        assert abs(res.margin - float(eps)) <= TOL * res.rule_options["scale"]
