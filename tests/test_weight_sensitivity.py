"""weight_sensitivity: the L1 / L-infinity stability radii and the fewest removals, checked
against independent brute forces.

- L1 (unconstrained): an exact closed form in Fractions (move mass greedily from the tasks
  with the largest advantage to the single task with the smallest one).
- L-infinity and constrained radii: scipy.optimize.linprog, one LP per pair, over *all*
  ordered pairs for the ranking (so the library's adjacent-pairs shortcut is checked too).
- A grid of the 3-task simplex (step 1/60) in exact integer arithmetic: both directions.
- Removals: every subset of tasks.
- Points of the linear rules are recomputed here from the scores (Fractions), and checked
  against ``linear_points``.
"""

from __future__ import annotations

import itertools
import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import linprog

import consensus as cs
from consensus.errors import InvalidOptionError
from consensus.rules.linear import linear_points

pytestmark = pytest.mark.filterwarnings("ignore::consensus.DegenerateTaskWarning")

INF = math.inf
RULES = ("mean", "borda", "dowdall", "plurality")


# ---------------------------------------------------------------------------- boards
def make_lb(values, weights=None) -> cs.Leaderboard:
    """A leaderboard of systems s0.. and tasks t0.. (higher is better); `weights` a list."""
    values = np.asarray(values, dtype=float)
    n, T = values.shape
    frame = pd.DataFrame(values, index=[f"s{i}" for i in range(n)], columns=[f"t{k}" for k in range(T)])
    w = None if weights is None else {f"t{k}": float(x) for k, x in enumerate(weights)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, weights=w, keep_columns=True)


def random_board(rng: np.random.Generator, n_range=(3, 6), t_range=(2, 5), max_score=5, zeros=True):
    n = int(rng.integers(n_range[0], n_range[1] + 1))
    T = int(rng.integers(t_range[0], t_range[1] + 1))
    values = rng.integers(0, max_score + 1, size=(n, T)).astype(int)
    low = 0 if zeros and rng.random() < 0.4 else 1
    weights = rng.integers(low, 5, size=T).astype(int)
    if weights.sum() == 0:
        weights[0] = 1
    return values, weights


def ref_weights(weights) -> list[Fraction]:
    total = sum(int(x) for x in weights)
    return [Fraction(int(x), total) for x in weights]


# ---------------------------------------------------------------------------- exact points
def scoring_vec(rule: str, n: int) -> list[Fraction]:
    if rule == "borda":
        return [Fraction(n - 1 - p) for p in range(n)]
    if rule == "dowdall":
        return [Fraction(1, p + 1) for p in range(n)]
    if rule == "plurality":
        return [Fraction(1)] + [Fraction(0)] * (n - 1)
    raise AssertionError(rule)


def exact_points(values, rule: str) -> list[list[Fraction]]:
    """Per-task points, ties averaged over the positions the tie group occupies."""
    V = [[Fraction(int(x)) for x in row] for row in values]
    if rule == "mean":
        return V
    n, T = len(V), len(V[0])
    c = scoring_vec(rule, n)
    P = [[Fraction(0)] * T for _ in range(n)]
    for k in range(T):
        col = [V[m][k] for m in range(n)]
        for m in range(n):
            above = sum(1 for x in col if x > col[m])
            tied = sum(1 for x in col if x == col[m])
            P[m][k] = sum(c[above:above + tied], Fraction(0)) / tied
    return P


def signs(values) -> list[list[list[int]]]:
    """S[a][b][k] = sign(v[a,k] - v[b,k])."""
    n, T = len(values), len(values[0])
    return [[[int(np.sign(int(values[a][k]) - int(values[b][k]))) for k in range(T)] for b in range(n)] for a in range(n)]


def dot(d, w) -> Fraction:
    return sum((Fraction(x) * y for x, y in zip(d, w)), Fraction(0))


def diff(P, a, b) -> list[Fraction]:
    return [x - y for x, y in zip(P[a], P[b])]


# ---------------------------------------------------------------------------- targets
def critical_pairs(S, kind: str, k=None, all_pairs=True):
    """(tied?, pairs (a, b): a above b that the target rests on) from exact scores S."""
    n = len(S)
    if kind == "winner":
        top = max(S)
        winners = [m for m in range(n) if S[m] == top]
        if len(winners) > 1:
            return True, []
        W = winners[0]
        return False, [(W, j) for j in range(n) if j != W]
    if kind == "top":
        s = sorted(S, reverse=True)
        if s[k - 1] == s[k]:
            return True, []
        top = [m for m in range(n) if S[m] >= s[k - 1]]
        rest = [m for m in range(n) if S[m] < s[k - 1]]
        return False, [(a, b) for a in top for b in rest]
    assert kind == "ranking"
    if len(set(S)) < n:
        return True, []
    if all_pairs:
        return False, [(a, b) for a in range(n) for b in range(n) if S[a] > S[b]]
    order = sorted(range(n), key=lambda m: -S[m])
    return False, [(order[p], order[p + 1]) for p in range(n - 1)]


def parse(target):
    if target == "winner":
        return "winner", None
    if target == "ranking":
        return "ranking", None
    if isinstance(target, tuple):
        return "top", target[1]
    return "top", int(target[3:])


def is_tied(current, kind: str, k=None) -> bool:
    """Is the target `current` (the result's tie groups) already undecided?"""
    if kind == "winner":
        return len(current[0]) > 1
    if kind == "ranking":
        return any(len(g) > 1 for g in current)
    return sum(len(g) for g in current) != k


def target_changed(tiers, current, kind: str, k=None) -> bool:
    """Did the rule's ranking `tiers` change the target `current` (a tie counts)?"""
    if kind == "winner":
        return tuple(tiers[0]) != tuple(current[0])
    if kind == "ranking":
        return tuple(map(tuple, tiers)) != tuple(map(tuple, current))
    chosen, count = set(), 0
    for g in tiers:
        if count >= k:
            break
        chosen |= set(g)
        count += len(g)
    if count != k:  # a tie group straddles position k
        return True
    return chosen != {s for g in current for s in g}


# ---------------------------------------------------------------------------- brute forces
def l1_pair(d, r) -> Fraction | float:
    """Closed form: min ||w - r||_1 over the simplex with d @ w <= 0 (d @ r > 0)."""
    g = dot(d, r)
    assert g > 0
    dmin = min(d)
    if dmin > 0:
        return INF
    need, moved = g, Fraction(0)
    for i in sorted(range(len(d)), key=lambda i: -d[i]):
        rate = d[i] - dmin
        if rate <= 0:
            break
        take = min(r[i], need / rate)
        moved += take
        need -= take * rate
        if need == 0:
            return 2 * moved
    raise AssertionError("dmin <= 0 always closes the gap")


def lp_pair(d, r, norm: str, cap=None) -> float:
    """min ||w - r|| (l1 or linf) s.t. w >= 0, w <= cap, sum w = 1, d @ w <= 0: scipy's HiGHS."""
    T = len(d)
    d = np.array([float(x) for x in d])
    r = np.array([float(x) for x in r])
    eye = np.eye(T)
    if norm == "l1":  # variables w, u
        c = np.r_[np.zeros(T), np.ones(T)]
        A_ub = np.block([[eye, -eye], [-eye, -eye], [d[None, :], np.zeros((1, T))]])
        A_eq = np.r_[np.ones(T), np.zeros(T)][None, :]
        bounds = [(0, cap)] * T + [(0, None)] * T
    else:  # variables w, t
        c = np.r_[np.zeros(T), 1.0]
        ones = np.ones((T, 1))
        A_ub = np.block([[eye, -ones], [-eye, -ones], [d[None, :], np.zeros((1, 1))]])
        A_eq = np.r_[np.ones(T), 0.0][None, :]
        bounds = [(0, cap)] * T + [(0, None)]
    b_ub = np.r_[r, -r, 0.0]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status == 2:
        return INF
    assert res.status == 0, res.message
    return float(res.fun)


def removal_brute(P, r, pairs) -> int | None:
    """Fewest tasks removed (a positive-weight task kept) so that some pair ties or swaps."""
    T = len(r)
    for m in range(T):
        for removed in itertools.combinations(range(T), m):
            kept = [k for k in range(T) if k not in removed]
            if not any(r[k] > 0 for k in kept):
                continue
            rr = [r[k] if k in kept else Fraction(0) for k in range(T)]
            if any(dot(diff(P, a, b), rr) <= 0 for a, b in pairs):
                return m
    return None


def close(x, y, tol) -> bool:
    if math.isinf(float(x)) or math.isinf(float(y)):
        return float(x) == float(y)
    return abs(float(x) - float(y)) <= tol


def boards_for(seed: int, count: int, **kwargs):
    rng = np.random.default_rng(seed)
    return [random_board(rng, **kwargs) for _ in range(count)]


# ============================================================================ sanity of the helpers
@pytest.mark.parametrize("rule", RULES)
def test_exact_points_match_linear_points(rule):
    for values, weights in boards_for(1, 15):
        lb = make_lb(values, weights)
        opts = {"normalize": None} if rule == "mean" else {"ties": "average"}
        lib = linear_points(lb, rule, opts, False).points
        mine = np.array([[float(x) for x in row] for row in exact_points(values, rule)])
        np.testing.assert_allclose(lib, mine, rtol=0, atol=1e-12)


def test_closed_form_matches_lp_on_a_known_pair():
    # RadiusLP's own docstring case: ahead by 1 at (1/2, 1/2); ties at (1/4, 3/4)
    assert l1_pair([3, -1], [Fraction(1, 2), Fraction(1, 2)]) == Fraction(1, 2)
    assert l1_pair([1, 2], [Fraction(1, 2), Fraction(1, 2)]) == INF
    assert lp_pair([3, -1], [0.5, 0.5], "l1") == pytest.approx(0.5)
    assert lp_pair([1, 2], [0.5, 0.5], "linf") == INF


# ============================================================================ 1 and 2: exact radii
TARGETS = ("winner", ("top", 2), "top1", "ranking")


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", TARGETS, ids=str)
def test_radii_match_brute_force(rule, target):
    kind, k = parse(target)
    checked_positive = 0
    for i, (values, weights) in enumerate(boards_for(100 + RULES.index(rule), 14)):
        lb = make_lb(values, weights)
        if kind == "top" and k >= lb.n_systems:
            continue
        P = exact_points(values, rule)
        r = ref_weights(weights)
        S = [dot(row, r) for row in P]
        tied, pairs = critical_pairs(S, kind, k)
        res = cs.weight_sensitivity(lb, rule=rule, target=target)
        ctx = f"board {i}: {values.tolist()} weights {weights.tolist()}"
        if tied:
            exp_l1 = exp_linf = 0
        else:
            exp_l1 = min(l1_pair(diff(P, a, b), r) for a, b in pairs)
            exp_linf = min(lp_pair(diff(P, a, b), r, "linf") for a, b in pairs)
            # the adjacent-pairs shortcut for the ranking gives the same minimum
            if kind == "ranking":
                _, adj = critical_pairs(S, kind, k, all_pairs=False)
                assert min(l1_pair(diff(P, a, b), r) for a, b in adj) == exp_l1
            checked_positive += exp_l1 > 0
        assert close(res.l1.distance, exp_l1, 1e-9), (ctx, res.l1.distance, exp_l1)
        assert close(res.linf.distance, exp_linf, 1e-7), (ctx, res.linf.distance, exp_linf)
        assert res.kind == "exact"
        assert res.reference_values == pytest.approx({f"t{j}": float(x) for j, x in enumerate(r)})
    assert checked_positive >= 3  # the boards are not all tied


def test_dominated_winner_has_infinite_radius_and_no_removal():
    # s0 is best on every task: no weighting and no removal dethrones it
    lb = make_lb([[5, 5, 5], [1, 4, 2], [3, 0, 4]], [1, 2, 1])
    res = cs.weight_sensitivity(lb, rule="mean")
    assert res.current == (("s0",),)
    assert res.l1.distance == INF and res.linf.distance == INF
    assert res.l1.weights is None
    assert res.removal.n_removed is None
    assert "no removal" in res.explanation
    d = res.to_dict()
    assert d["l1"]["distance"] is None and d["linf"]["distance"] is None
    assert res.to_frame()["weight_l1"].isna().all()


def test_zero_weight_task_gives_the_only_way_out():
    # s0 leads on the weighted tasks; s1 wins only t2, which has official weight 0
    lb = make_lb([[3, 3, 0], [1, 1, 5]], [1, 1, 0])
    res = cs.weight_sensitivity(lb, rule="mean")
    # d = (2, 2, -5), r = (1/2, 1/2, 0): move 2/7 into t2
    assert res.l1.distance == pytest.approx(float(l1_pair([2, 2, -5], ref_weights([1, 1, 0]))))
    assert res.l1.distance == pytest.approx(4 / 7)
    # removing t0 and t1 would leave no positive weight: impossible
    assert res.removal.n_removed is None


def test_mean_with_minmax_normalization_matches_closed_form():
    for i, (values, weights) in enumerate(boards_for(404, 15)):
        lb = make_lb(values, weights)
        V = [[Fraction(int(x)) for x in row] for row in values]
        n, T = len(V), len(V[0])
        P = [[Fraction(0)] * T for _ in range(n)]
        for k in range(T):
            col = [V[m][k] for m in range(n)]
            lo, hi = min(col), max(col)
            for m in range(n):
                P[m][k] = (col[m] - lo) / (hi - lo) if hi > lo else Fraction(0)
        r = ref_weights(weights)
        S = [dot(row, r) for row in P]
        tied, pairs = critical_pairs(S, "winner")
        res = cs.weight_sensitivity(lb, rule="mean", normalize="minmax")
        exp = 0 if tied else min(l1_pair(diff(P, a, b), r) for a, b in pairs)
        assert close(res.l1.distance, exp, 1e-9), (i, values.tolist(), weights.tolist(), res.l1.distance, exp)
        assert res.removal.n_removed == (0 if tied else removal_brute(P, r, pairs))


# ============================================================================ constrained radii
@pytest.mark.parametrize("rule", ("mean", "borda"))
def test_max_weight_radius_matches_lp_and_is_not_smaller(rule):
    for i, (values, weights) in enumerate(boards_for(300 + len(rule), 14, zeros=False)):
        lb = make_lb(values, weights)
        P = exact_points(values, rule)
        r = ref_weights(weights)
        S = [dot(row, r) for row in P]
        tied, pairs = critical_pairs(S, "winner")
        cap = float(max(r)) * 1.2 if i % 2 else 0.6
        free = cs.weight_sensitivity(lb, rule=rule)
        capped = cs.weight_sensitivity(lb, rule=rule, constraints=cs.Constraints(max_weight=cap))
        ctx = f"board {i}: {values.tolist()} weights {weights.tolist()} cap {cap}"
        for norm in ("l1", "linf"):
            a, b = getattr(free, norm).distance, getattr(capped, norm).distance
            assert b >= a - 1e-9, (ctx, norm, a, b)
            if not tied:
                exp = min(lp_pair(diff(P, x, y), r, norm, cap=cap) for x, y in pairs)
                assert close(b, exp, 1e-7), (ctx, norm, b, exp)
                w = getattr(capped, norm).weights
                if w is not None:
                    assert (w <= cap + 1e-9).all() and (w >= -1e-12).all()
        # the removal ignores the constraints
        assert capped.removal.n_removed == free.removal.n_removed


# ============================================================================ 3: the simplex grid
GRID = 60


def _grid():
    pts = [(i, j, GRID - i - j) for i in range(GRID + 1) for j in range(GRID + 1 - i)]
    return np.array(pts, dtype=np.int64)


@pytest.mark.parametrize("rule", ("mean", "borda"))
def test_grid_of_the_simplex_brackets_the_radius(rule):
    G = _grid()
    n_boards = 0
    for i, (values, weights) in enumerate(boards_for(500 + len(rule), 12, t_range=(3, 3), max_score=6)):
        lb = make_lb(values, weights)
        P = exact_points(values, rule)
        P2 = np.array([[int(2 * x) for x in row] for row in P], dtype=np.int64)  # Borda: halves
        r = ref_weights(weights)
        S = [dot(row, r) for row in P]
        top = max(S)
        W = next(m for m in range(len(S)) if S[m] == top)
        rivals = [j for j in range(len(S)) if j != W]
        D = P2[W][None, :] - P2[rivals]
        changed = (D @ G.T <= 0).any(axis=0)  # exact integers: ties count
        res = cs.weight_sensitivity(lb, rule=rule)
        ctx = f"board {i}: {values.tolist()} weights {weights.tolist()}"
        rf = np.array([float(x) for x in r])
        if not changed.any():
            assert res.l1.distance == INF and res.linf.distance == INF, ctx
            continue
        diffs = np.abs(G[changed] / GRID - rf)
        g1, ginf = diffs.sum(axis=1).min(), diffs.max(axis=1).min()
        for rad, g, step in ((res.l1.distance, g1, 2 / GRID), (res.linf.distance, ginf, 1 / GRID)):
            assert g >= rad - 1e-9, (ctx, rad, g)
            assert g <= rad + step + 1e-12, (ctx, rad, g)
        n_boards += 1
    assert n_boards >= 6


# ============================================================================ 4: removals
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("target", ("winner", "top2", "ranking"))
def test_removal_matches_exhaustive_search(rule, target):
    kind, k = parse(target)
    found = 0
    for i, (values, weights) in enumerate(boards_for(700 + RULES.index(rule), 12, t_range=(2, 6))):
        lb = make_lb(values, weights)
        if kind == "top" and k >= lb.n_systems:
            continue
        P = exact_points(values, rule)
        r = ref_weights(weights)
        S = [dot(row, r) for row in P]
        tied, pairs = critical_pairs(S, kind, k)
        expected = 0 if tied else removal_brute(P, r, pairs)
        res = cs.weight_sensitivity(lb, rule=rule, target=target)
        rem = res.removal
        ctx = f"board {i}: {values.tolist()} weights {weights.tolist()}"
        assert rem.n_removed == expected, (ctx, rem, expected)
        if not expected:
            assert rem.tasks == ()
            continue
        found += 1
        assert len(rem.tasks) == expected and len(set(rem.tasks)) == expected
        kept = [t for t in lb.tasks if t not in rem.tasks]
        idx = {t: j for j, t in enumerate(lb.tasks)}
        rr = [r[j] if lb.tasks[j] in kept else Fraction(0) for j in range(len(r))]
        assert any(rr[idx[t]] > 0 for t in kept)
        assert any(dot(diff(P, a, b), rr) <= 0 for a, b in pairs)  # really changes the target
        # the rule itself, run on the kept tasks, shows the pair tied or swapped
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ranking = cs.rank(lb.select(tasks=kept), rule).ranking
        pos = {s: p for p, g in enumerate(ranking) for s in g}
        assert pos[rem.leader] >= pos[rem.challenger], (ctx, rem, ranking)
        assert target_changed(ranking, res.current, kind, k), (ctx, ranking, res.current)
        assert tuple(rem.outcome[0]) == tuple(ranking[0])
    assert found >= 2


def test_fewest_removals_can_need_several_tasks():
    # s0 beats s1 by 1 on each of 4 tasks, loses t4 by 1 (weight 1 each): removing 3 of the
    # winning tasks leaves +1 - 1 = 0, a tie; removing 2 is not enough
    lb = make_lb([[2, 2, 2, 2, 0], [1, 1, 1, 1, 1]])
    res = cs.weight_sensitivity(lb, rule="mean")
    assert res.removal.n_removed == 3
    assert set(res.removal.tasks) <= {"t0", "t1", "t2", "t3"}
    assert res.removal.leader == "s0" and res.removal.challenger == "s1"
    frame = res.to_frame()
    assert frame["removed"].sum() == 3
    assert list(frame.index[frame["removed"]]) == sorted(res.removal.tasks)


# ============================================================================ 5: properties
@st.composite
def boards(draw, min_systems=3, max_systems=6, min_tasks=2, max_tasks=5):
    n = draw(st.integers(min_systems, max_systems))
    T = draw(st.integers(min_tasks, max_tasks))
    values = np.array(draw(st.lists(st.lists(st.integers(0, 5), min_size=T, max_size=T), min_size=n, max_size=n)))
    weights = draw(st.lists(st.integers(0, 4), min_size=T, max_size=T))
    if not any(weights):
        weights[0] = 1
    return values, np.array(weights)


@given(board=boards(), rule=st.sampled_from(("mean", "borda", "dowdall")),
       target=st.sampled_from(("winner", "top2", "ranking")))
def test_witness_weights_change_the_target(board, rule, target):
    values, weights = board
    kind, k = parse(target)
    assume(not (kind == "top" and k >= len(values)))
    lb = make_lb(values, weights)
    res = cs.weight_sensitivity(lb, rule=rule, target=target)
    for ans in (res.l1, res.linf):
        if ans.distance == INF:
            assert ans.weights is None
            continue
        if ans.distance == 0:  # already tied: the witness is the official weighting
            assert is_tied(res.current, kind, k), res.current
            assert ans.weights.to_dict() == pytest.approx(dict(res.reference_values))
            continue
        assert not is_tied(res.current, kind, k)
        assert abs(ans.witness_distance - ans.distance) <= 1e-6
        w = ans.weights
        assert (w >= 0).all() and w.sum() == pytest.approx(1.0)
        rf = np.array(list(res.reference_values.values()))
        wf = w.reindex(list(res.reference_values)).to_numpy()
        dist = np.abs(wf - rf).sum() if ans.norm == "l1" else np.abs(wf - rf).max()
        assert dist == pytest.approx(ans.witness_distance, abs=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ranking = cs.rank(lb.with_weights(w.to_dict()), rule).ranking
        assert target_changed(ranking, res.current, kind, k), (ans.norm, ranking, res.current)
        assert tuple(ans.outcome[0]) == tuple(ranking[0])
    # norm inequalities (w and r both sum to 1)
    assert res.linf.distance <= res.l1.distance / 2 + 1e-9
    if res.linf.distance < INF:
        assert res.l1.distance <= lb.n_tasks * res.linf.distance + 1e-9
        assert res.l1.distance <= 2 + 1e-9 and res.linf.distance <= 1 + 1e-9


@given(board=boards(), rule=st.sampled_from(("mean", "borda", "plurality")))
def test_radius_is_zero_exactly_when_tied(board, rule):
    values, weights = board
    r = ref_weights(weights)
    # the board as drawn: zero iff the exact scores tie at the top
    S = [dot(row, r) for row in exact_points(values, rule)]
    tied = sum(1 for x in S if x == max(S)) > 1
    res = cs.weight_sensitivity(make_lb(values, weights), rule=rule)
    assert (res.l1.distance == 0) == tied
    assert (res.linf.distance == 0) == tied
    assert (res.removal.n_removed == 0) == tied
    if not tied:
        assert res.current == ((f"s{S.index(max(S))}",),)
    # duplicate the best row: tied at the top under the mean; under positional rules the
    # copy shifts the points, so check "zero iff tied" on the exact scores again
    best = int(np.argmax([float(x) for x in S]))
    dup = np.vstack([values, values[best]])
    S2 = [dot(row, r) for row in exact_points(dup, rule)]
    tied2 = sum(1 for x in S2 if x == max(S2)) > 1
    assert tied2 or rule != "mean"
    res2 = cs.weight_sensitivity(make_lb(dup, weights), rule=rule)
    assert (res2.l1.distance == 0) == tied2 and (res2.linf.distance == 0) == tied2
    assert (res2.removal.n_removed == 0) == tied2
    # two copies of a row best on every task: tied at the top under every rule
    champ = values.max(axis=0) + 1
    res3 = cs.weight_sensitivity(make_lb(np.vstack([values, champ, champ]), weights), rule=rule)
    n = len(values)
    assert res3.current == ((f"s{n}", f"s{n + 1}"),)
    assert res3.l1.distance == 0 and res3.linf.distance == 0
    assert res3.removal.n_removed == 0 and res3.removal.tasks == ()
    assert {res3.l1.leader, res3.l1.challenger} == {f"s{n}", f"s{n + 1}"}
    assert "already tied" in res3.explanation


@given(board=boards(), cap=st.sampled_from((0.3, 0.45, 0.7)), lo=st.sampled_from((None, 0.05)))
def test_constraints_never_shrink_the_radius(board, cap, lo):
    values, weights = board
    lb = make_lb(values, weights)
    free = cs.weight_sensitivity(lb, rule="borda")
    con = cs.weight_sensitivity(lb, rule="borda", constraints=cs.Constraints(max_weight=cap, min_weight=lo))
    for norm in ("l1", "linf"):
        f, c = getattr(free, norm), getattr(con, norm)
        assert c.distance >= f.distance - 1e-9
        if c.weights is not None and c.distance > 0:
            assert (c.weights <= cap + 1e-9).all()
            if lo is not None:
                assert (c.weights >= lo - 1e-9).all()
    assert con.linf.distance <= con.l1.distance / 2 + 1e-9


# ============================================================================ 6: Condorcet and Kemeny
def majority(values, r):
    sg = signs(values)
    n = len(values)
    return [[(0 if a == b else int(np.sign(dot(sg[a][b], r)))) for b in range(n)] for a in range(n)]


def condorcet_boards(seed, count, **kw):
    out = []
    rng = np.random.default_rng(seed)
    while len(out) < count:
        values, weights = random_board(rng, **kw)
        M = majority(values, ref_weights(weights))
        n = len(values)
        strict = [a for a in range(n) if all(M[a][b] == 1 for b in range(n) if b != a)]
        if strict:
            out.append((values, weights, strict[0], M))
    return out


def test_condorcet_radius_and_removal_match_brute_force():
    for i, (values, weights, W, _M) in enumerate(condorcet_boards(900, 25, t_range=(2, 6))):
        lb = make_lb(values, weights)
        r = ref_weights(weights)
        sg = signs(values)
        n = len(values)
        rows = [sg[W][j] for j in range(n) if j != W]
        exp_l1 = min(l1_pair(d, r) for d in rows)
        exp_linf = min(lp_pair(d, r, "linf") for d in rows)
        res = cs.weight_sensitivity(lb, rule="condorcet")
        ctx = f"board {i}: {values.tolist()} weights {weights.tolist()}"
        assert res.kind == "exact"
        assert res.current == ((f"s{W}",),), ctx
        assert close(res.l1.distance, exp_l1, 1e-9), (ctx, res.l1.distance, exp_l1)
        assert close(res.linf.distance, exp_linf, 1e-7), (ctx, res.linf.distance, exp_linf)
        # removal: exhaustive on the majority
        P_sign = {(W, j): sg[W][j] for j in range(n) if j != W}
        expected = None
        for m in range(len(r)):
            for removed in itertools.combinations(range(len(r)), m):
                rr = [Fraction(0) if k in removed else r[k] for k in range(len(r))]
                if sum(rr) > 0 and any(dot(d, rr) <= 0 for d in P_sign.values()):
                    expected = m
                    break
            if expected is not None:
                break
        assert res.removal.n_removed == expected, (ctx, res.removal, expected)
        if expected:
            kept = [t for t in lb.tasks if t not in res.removal.tasks]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                M = cs.pairwise(lb.select(tasks=kept)).majority
            a, b = lb.systems.index(res.removal.leader), lb.systems.index(res.removal.challenger)
            assert a == W and M[a, b] <= 0
        # the witness: W is no longer the strict Condorcet winner
        if res.l1.weights is not None:
            M = cs.pairwise(lb.with_weights(res.l1.weights.to_dict())).majority
            assert any(M[W, j] <= 0 for j in range(n) if j != W)
        # Kemeny's winner: the same numbers, labelled a lower bound
        kem = cs.weight_sensitivity(lb, rule="kemeny")
        assert kem.kind == "lower_bound"
        assert kem.l1.distance == pytest.approx(res.l1.distance, abs=1e-12)
        assert kem.linf.distance == pytest.approx(res.linf.distance, abs=1e-12)
        assert kem.removal.n_removed == res.removal.n_removed
        assert "at least" in kem.explanation or kem.l1.distance in (0, INF)


def test_kemeny_ranking_radius_on_a_linear_majority():
    checked = 0
    rng = np.random.default_rng(77)
    while checked < 8:
        values, weights = random_board(rng, n_range=(3, 5), t_range=(3, 5))
        r = ref_weights(weights)
        M = majority(values, r)
        n = len(values)
        wins = [sum(1 for b in range(n) if M[a][b] == 1) for a in range(n)]
        if sorted(wins) != list(range(n)):
            continue  # not a strict linear order
        sg = signs(values)
        rows = [sg[a][b] for a in range(n) for b in range(n) if M[a][b] == 1]
        res = cs.weight_sensitivity(make_lb(values, weights), rule="kemeny", target="ranking")
        assert res.kind == "lower_bound"
        assert res.current == tuple((f"s{a}",) for a in sorted(range(n), key=lambda a: -wins[a]))
        assert close(res.l1.distance, min(l1_pair(d, r) for d in rows), 1e-9)
        assert close(res.linf.distance, min(lp_pair(d, r, "linf") for d in rows), 1e-7)
        checked += 1


def test_kemeny_winner_is_stable_inside_the_lower_bound():
    # the lower bound is sound: strictly inside the L1 ball, every Kemeny ranking still puts
    # the Condorcet winner first
    rng = np.random.default_rng(4242)
    checked = 0
    for values, weights, W, _M in condorcet_boards(4243, 6, n_range=(3, 5), t_range=(3, 5), zeros=False):
        lb = make_lb(values, weights)
        res = cs.weight_sensitivity(lb, rule="kemeny")
        rad = res.l1.distance
        if not 0 < rad < INF:
            continue
        r = np.array(list(res.reference_values.values()))
        for _ in range(6):
            v = rng.normal(size=len(r))
            v -= v.mean()
            w = r + 0.98 * rad * v / np.abs(v).sum()
            if (w < 0).any():
                continue
            ranking = cs.rank(lb.with_weights(dict(zip(lb.tasks, w.tolist()))), "kemeny").ranking
            assert ranking[0] == (f"s{W}",), (values.tolist(), weights.tolist(), w, ranking)
            checked += 1
    assert checked >= 5


def test_majority_cycle_certifies_no_positive_radius(cycle3):
    for target in ("winner", "ranking"):
        res = cs.weight_sensitivity(cycle3, rule="kemeny", target=target)
        assert res.kind == "lower_bound"
        assert res.l1.distance == 0 and res.linf.distance == 0
        assert res.removal.n_removed == 0
        assert "no positive radius" in res.explanation
    assert "certified" in cs.weight_sensitivity(cycle3, rule="kemeny", target="ranking").explanation
    cond = cs.weight_sensitivity(cycle3, rule="condorcet")
    assert cond.kind == "exact" and cond.l1.distance == 0
    assert "cycle" in cond.explanation


def test_weak_condorcet_winner_is_already_tied():
    # s0 and s2 split t0 / t1 (a majority tie); both beat s1: no strict Condorcet winner
    lb = make_lb([[3, 1], [1, 0], [2, 2]])
    for rule in ("condorcet", "kemeny"):
        res = cs.weight_sensitivity(lb, rule=rule)
        assert res.current == (("s0", "s2"),)
        assert res.l1.distance == 0 and res.linf.distance == 0 and res.removal.n_removed == 0
        assert {res.l1.leader, res.l1.challenger} == {"s0", "s2"}
        assert "no strict Condorcet winner" in res.explanation


# ============================================================================ 7: errors
@pytest.mark.parametrize("kwargs", [
    {"target": "top0"},
    {"target": ("top", 4)},  # n_systems of the toy
    {"target": ("top", 0)},
    {"target": "best"},
    {"target": ("top", True)},
    {"rule": "copeland"},
    {"rule": "no-such-rule"},
    {"rule": "condorcet", "target": "ranking"},
    {"rule": "condorcet", "target": "top2"},
    {"rule": "kemeny", "target": ("top", 2)},
    {"rule": "kemeny", "ties": "min"},
    {"rule": "mean", "ties": "min"},
])
def test_invalid_options(votenrank_toy, kwargs):
    with pytest.raises(InvalidOptionError):
        cs.weight_sensitivity(votenrank_toy, **kwargs)


def test_not_a_leaderboard(votenrank_toy):
    with pytest.raises(InvalidOptionError):
        cs.weight_sensitivity(votenrank_toy.scores, rule="mean")
    with pytest.raises(InvalidOptionError):
        cs.weight_sensitivity(votenrank_toy, rule="condorcet", vector=[1.0, 0.5])


def test_top_k_target_spellings_agree(votenrank_toy):
    a = cs.weight_sensitivity(votenrank_toy, rule="borda", target="top3")
    b = cs.weight_sensitivity(votenrank_toy, rule="borda", target=("top", np.int64(3)))
    assert a.target == b.target == "top3"
    assert a.l1.distance == b.l1.distance and a.current == b.current == (("B",), ("C",), ("D",))


# ============================================================================ 8: the Vote'n'Rank toy
def test_votenrank_toy_mean_docstring(votenrank_toy):
    res = cs.weight_sensitivity(votenrank_toy, rule="mean")
    assert res.current == (("B",),)
    assert res.l1.distance == pytest.approx(0.1, abs=1e-12)
    assert (res.l1.leader, res.l1.challenger) == ("B", "C")
    assert res.l1.weights.to_dict() == pytest.approx({"t1": 0.2, "t2": 0.25, "t3": 0.15, "t4": 0.2, "t5": 0.2}, abs=1e-9)
    # B - C = (1, -2, 2, -1, 1): L-infinity needs 6t >= 1/5
    assert res.linf.distance == pytest.approx(1 / 30, abs=1e-9)
    assert (res.removal.n_removed, res.removal.tasks, res.removal.outcome[0]) == (1, ("t3",), ("C",))
    assert res.reference_values == pytest.approx({f"t{k}": 0.2 for k in range(1, 6)})
    frame = res.to_frame()
    assert list(frame.columns) == ["reference", "weight_l1", "change_l1", "weight_linf", "change_linf", "removed"]
    assert frame.loc["t3", "change_l1"] == pytest.approx(-0.05) and frame.loc["t2", "change_l1"] == pytest.approx(0.05)
    assert frame.loc["t1", "change_l1"] == 0.0
    assert frame["removed"].tolist() == [False, False, True, False, False]
    assert set(res.changed_tasks().index) >= {"t2", "t3"}
    d = res.to_dict()
    assert d["target"] == "winner" and d["l1"]["leader"] == "B" and d["removal"]["tasks"] == ["t3"]
    json.dumps(d)
    text = repr(res)
    assert "SensitivityResult(mean, winner)" in text and "L1 radius" in text and "C catches B" in text
    assert "0.1" in repr(res.l1) and "t3" in repr(res.removal)
    # three pairs (B against each rival), each solved or pruned once per norm
    assert res.options["n_pairs"] == 3
    assert res.options["n_lps"] + res.options["n_pruned"] == 6


def test_votenrank_toy_borda_by_hand(votenrank_toy):
    # Borda points: A (3,3,0,0,0)=6, B (2,0,3,2,2)=9, C (1,2,1,3,1)=8, D (0,1,2,1,3)=7.
    # B - C = (1,-2,2,-1,1), gap 1/5: move 1/20 from t3 (2) to t2 (-2) -> L1 radius 1/10;
    # L-infinity: t on t3, t1 down and t4, t2 up gives 6t >= 1/5 -> 1/30.
    res = cs.weight_sensitivity(votenrank_toy, rule="borda")
    assert res.l1.distance == pytest.approx(0.1, abs=1e-9)
    assert res.linf.distance == pytest.approx(1 / 30, abs=1e-9)
    assert (res.l1.leader, res.l1.challenger) == ("B", "C")
    # removing t3: A 6, B 6, C 7, D 5
    assert (res.removal.n_removed, res.removal.tasks, res.removal.outcome[0]) == (1, ("t3",), ("C",))
    # the ranking B > C > D > A: D - A = (-3,-2,2,1,3), gap 1/5: 1/30 from t5 to t1 -> 1/15;
    # L-infinity 10t >= 1/5 -> 1/50
    rk = cs.weight_sensitivity(votenrank_toy, rule="borda", target="ranking")
    assert rk.current == (("B",), ("C",), ("D",), ("A",))
    assert rk.l1.distance == pytest.approx(1 / 15, abs=1e-9)
    assert (rk.l1.leader, rk.l1.challenger) == ("D", "A")
    assert rk.linf.distance == pytest.approx(1 / 50, abs=1e-9)
    assert rk.removal.n_removed == 1


def test_votenrank_toy_condorcet_by_hand(votenrank_toy):
    # B's majority rows: vs A (-,-,+,+,+), vs C (+,-,+,-,+), vs D (+,-,+,+,-): each 3-2,
    # gap 1/5, moving 1/10 from a + task to a - task ties -> L1 radius 1/5; L-infinity:
    # 4t >= 1/5 -> 1/20; removing any task B wins on (all but t2) ties some pair.
    res = cs.weight_sensitivity(votenrank_toy, rule="condorcet")
    assert res.current == (("B",),) and res.kind == "exact"
    assert res.l1.distance == pytest.approx(0.2, abs=1e-9)
    assert res.linf.distance == pytest.approx(0.05, abs=1e-9)
    assert res.removal.n_removed == 1
    assert res.removal.tasks[0] in {"t1", "t3", "t4", "t5"}
    assert res.removal.leader == "B"
    kem = cs.weight_sensitivity(votenrank_toy, rule="kemeny")
    assert kem.kind == "lower_bound"
    assert kem.l1.distance == pytest.approx(0.2, abs=1e-9) and kem.linf.distance == pytest.approx(0.05, abs=1e-9)
    assert "at least 0.2" in kem.explanation


# ============================================================================ regressions
def _holey_board() -> cs.Leaderboard:
    # s1 is scored on t1 only; s0 beats s1 there, so s0 is the strict Condorcet winner
    frame = pd.DataFrame({"t0": [3.0, float("nan")], "t1": [1.0, 0.0]}, index=["s0", "s1"])
    return cs.Leaderboard.from_frame(frame)


@pytest.mark.parametrize("rule", ("condorcet", "kemeny"))
def test_majority_removal_with_missing_scores(rule):
    # the removal used to be verified on work.select(tasks=kept): EmptySystemError for s1
    lb = _holey_board()
    assert cs.rank(lb, "condorcet").ranking[0] == ("s0",)
    res = cs.weight_sensitivity(lb, rule=rule)
    # d = sign(s0 - s1) = (0, +1), r = (1/2, 1/2): all of t1's weight must go -> L1 radius 1;
    # removing t1 leaves the two with no common task: a majority tie
    assert res.l1.distance == pytest.approx(1.0)
    assert res.removal.n_removed == 1 and res.removal.tasks == ("t1",)
