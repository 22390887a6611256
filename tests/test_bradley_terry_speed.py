"""Bradley-Terry by Newton's method after MM steps (issue 35): the same strengths as choix and
as the former trust-exact solver, exact ties on balanced boards, and the fallback.

- choix's ``ilsr_pairwise_dense`` (an independent implementation, the reference for speed in
  ``benchmarks/bradley_terry.py``) gives the same centered log-strengths to 1e-8 on random
  dense and sparse boards (skipped without choix, which the test extra installs);
- the former solver (scipy ``minimize(method="trust-exact")`` finished by ``root``, transcribed
  below as :func:`_old_trust_exact`) gives the same log-strengths to 1e-9 on random boards with
  and without missing scores, weights, priors and both tie policies. On an ill-conditioned board
  (a tiny prior where systems almost never lose) the former solver is itself off by more: there
  a 50-digit Newton solution is the reference;
- on a balanced board (every pair compared with the same total weight) the strengths are an
  increasing function of the win totals: equal totals give the very same float;
- when the Newton iteration does not converge the former solver is used, and says so;
- the existence test (a breadth-first search each way) is scipy's strong connectivity.
"""

from __future__ import annotations

import itertools
import warnings
from decimal import Decimal, localcontext

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize, root
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit

import consensus as cs
from consensus import PairwiseMatrix, rules
from consensus.errors import InvalidOptionError
from solvers import paired_comparison
from tests.strategies import score_frames, score_tables, seeds


def _board(frame: pd.DataFrame, weights: dict[str, float] | None = None) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, weights=weights, infer=False)


def _latent_board(n: int, tasks: int, seed: int, *, spread: float = 1.0, missing: float = 0.0,
                  weighted: bool = False) -> cs.Leaderboard:
    """Systems with a latent strength (normal, times `spread`) plus unit normal noise per task;
    a share `missing` of the cells left out (every system keeps a score)."""
    rng = np.random.default_rng(seed)
    scores = spread * rng.normal(size=n)[:, None] + rng.normal(size=(n, tasks))
    if missing:
        scores[rng.random((n, tasks)) < missing] = np.nan
        scores[np.isnan(scores).all(axis=1), 0] = 0.0
    frame = pd.DataFrame(scores, index=[f"s{i}" for i in range(n)], columns=[f"t{j}" for j in range(tasks)])
    weights = dict(zip(frame.columns, rng.uniform(0.2, 3.0, size=tasks).tolist())) if weighted else None
    return _board(frame, weights)


def _counts(data: cs.Leaderboard | PairwiseMatrix, prior: float = 0.0, ties: str = "half") -> np.ndarray:
    """A[i, j] as the rule counts it: preferences (a tie half a win) or wins, plus the prior."""
    pw = data if isinstance(data, PairwiseMatrix) else cs.pairwise(data)
    observed = pw.preferences if ties == "half" else pw.wins
    return np.array(observed, dtype=np.float64) + prior * (1.0 - np.eye(len(pw.systems)))


def _old_trust_exact(counts: np.ndarray) -> np.ndarray:
    """The former solver, transcribed from ``_bradley_terry_core`` before issue 35: centered
    log-strengths of the counts (whose "beats at least partly" graph is strongly connected)."""
    a = counts / counts.sum()
    pairs = a + a.T

    def objective(theta: np.ndarray) -> float:
        diff = theta[:, None] - theta[None, :]
        return float(-(a * log_expit(diff)).sum() + 0.5 * theta.sum() ** 2)

    def gradient(theta: np.ndarray) -> np.ndarray:
        sig = expit(theta[:, None] - theta[None, :])
        return (pairs * sig).sum(axis=1) - a.sum(axis=1) + theta.sum()

    def hessian(theta: np.ndarray) -> np.ndarray:
        sig = expit(theta[:, None] - theta[None, :])
        h = -pairs * sig * sig.T
        np.fill_diagonal(h, 0.0)
        np.fill_diagonal(h, -h.sum(axis=1))
        return h + 1.0

    res = minimize(objective, np.zeros(len(a)), jac=gradient, hess=hessian, method="trust-exact",
                   options={"gtol": 1e-12, "maxiter": 1000})
    theta = res.x
    if float(np.abs(gradient(theta)).max()) > 1e-12:
        theta = root(gradient, theta, jac=hessian, method="hybr", options={"xtol": 1e-15}).x
    assert float(np.abs(gradient(theta)).max()) <= 1e-10
    return theta - theta.mean()


def _decimal_newton(counts: np.ndarray, start: np.ndarray, digits: int = 50) -> np.ndarray:
    """Centered log-strengths of the (float) counts by Newton's method in `digits`-digit decimal
    arithmetic, from `start` (close enough for full steps), to a step below 1e-40."""
    n = len(counts)
    with localcontext() as ctx:
        ctx.prec = digits
        c = [[Decimal(float(x)) for x in row] for row in counts]
        theta = [Decimal(float(x)) for x in start]
        for _ in range(100):
            p = [t.exp() for t in theta]
            total = sum(theta)
            system = [[Decimal(1)] * n + [Decimal(0)] for _ in range(n)]  # [H + 11^T | -gradient]
            for i in range(n):
                g = total - sum(c[i])
                for j in range(n):
                    if j != i:
                        s = p[i] / (p[i] + p[j])
                        pairs = c[i][j] + c[j][i]
                        g += pairs * s
                        system[i][j] -= pairs * s * (1 - s)
                        system[i][i] += pairs * s * (1 - s)
                system[i][n] = -g
            for k in range(n):  # Gaussian elimination, partial pivoting
                pivot = max(range(k, n), key=lambda r: abs(system[r][k]))
                system[k], system[pivot] = system[pivot], system[k]
                for r in range(k + 1, n):
                    f = system[r][k] / system[k][k]
                    for col in range(k, n + 1):
                        system[r][col] -= f * system[k][col]
            step = [Decimal(0)] * n
            for k in reversed(range(n)):
                step[k] = (system[k][n] - sum(system[k][col] * step[col] for col in range(k + 1, n))) / system[k][k]
            theta = [t + d for t, d in zip(theta, step)]
            if max(abs(d) for d in step) < Decimal("1e-40"):
                break
        else:
            raise AssertionError("the decimal Newton iteration did not converge")
        mean = sum(theta) / n
        return np.array([float(t - mean) for t in theta])


def _scores(res: cs.results.RuleResult) -> np.ndarray:
    return res.scores.to_numpy(dtype=np.float64)


# ---------------------------------------------------------------- choix, an independent implementation
@pytest.mark.parametrize("seed", seeds(10))
@pytest.mark.parametrize(("n", "tasks", "missing", "weighted", "prior"), [
    (30, 20, 0.0, False, 0.0),
    (120, 20, 0.0, True, 0.0),
    (40, 12, 0.5, False, 0.0),  # sparse: each pair compared on about a quarter of the tasks
    (40, 8, 0.3, True, 0.5),
])
def test_the_strengths_are_choix_ilsr(n, tasks, missing, weighted, prior, seed):
    choix = pytest.importorskip("choix")
    lb = _latent_board(n, tasks, seed, missing=missing, weighted=weighted)
    counts = _counts(lb, prior)
    try:
        res = rules.bradley_terry(lb, prior=prior, missing=None)
    except InvalidOptionError:  # a sparse draw without a maximum: nothing to compare
        assert prior == 0.0 and missing
        return
    # choix's parameters are centered log-strengths, as the rule's scores; a prior is a
    # pseudo-count in the matrix
    expected = choix.ilsr_pairwise_dense(counts, tol=1e-12, max_iter=10_000)
    assert res.details["method"] == "newton"
    assert np.abs(_scores(res) - (expected - expected.mean())).max() <= 1e-8
    strengths = np.exp(expected) / np.exp(expected).sum()
    assert np.abs(res.details["strengths"].to_numpy() - strengths).max() <= 1e-8


def test_the_strengths_are_choix_opt_pairwise_on_a_given_matrix():
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(3)
    wins = rng.integers(0, 6, size=(15, 15)).astype(float)
    np.fill_diagonal(wins, 0.0)
    matrix = PairwiseMatrix.from_array(wins, systems=[f"m{i}" for i in range(15)])
    res = rules.bradley_terry(matrix)
    comparisons = [(i, j) for i, j in itertools.permutations(range(15), 2) for _ in range(int(wins[i, j]))]
    expected = choix.opt_pairwise(15, comparisons, alpha=0.0, tol=1e-12)
    assert np.abs(_scores(res) - (expected - expected.mean())).max() <= 1e-8


# ---------------------------------------------------------------- the former trust-exact solver
@given(score_tables(weighted=True, max_systems=8, max_tasks=6, missing=True),
       st.sampled_from([0.0, 0.5, 2.0]), st.sampled_from(["half", "ignore"]))
def test_the_strengths_are_the_former_solvers(lb, prior, ties):
    counts = _counts(lb, prior, ties)
    try:
        res = rules.bradley_terry(lb, prior=prior, ties=ties, missing=None)
    except InvalidOptionError:
        return  # no maximum (the existence check is unchanged: tests/test_official_rules.py)
    assert np.abs(_scores(res) - _old_trust_exact(counts)).max() <= 1e-9
    assert res.details["gradient_norm"] <= 1e-10 and res.details["method"] == "newton"


@pytest.mark.parametrize("seed", seeds(10))
@pytest.mark.parametrize(("n", "tasks", "spread", "missing", "weighted", "prior", "ties"), [
    (60, 20, 1.0, 0.0, False, 0.0, "half"),
    (60, 20, 3.0, 0.0, True, 0.5, "half"),
    (50, 10, 1.0, 0.6, False, 0.5, "ignore"),  # sparse
    (50, 10, 2.0, 0.3, True, 0.1, "half"),
])
def test_the_strengths_are_the_former_solvers_on_larger_boards(n, tasks, spread, missing, weighted, prior, ties, seed):
    lb = _latent_board(n, tasks, seed, spread=spread, missing=missing, weighted=weighted)
    res = rules.bradley_terry(lb, prior=prior, ties=ties, missing=None)
    assert np.abs(_scores(res) - _old_trust_exact(_counts(lb, prior, ties))).max() <= 1e-9
    assert res.ranking == rules.bradley_terry(cs.pairwise(lb), prior=prior, ties=ties).ranking


def test_an_ill_conditioned_board_is_solved_to_float_rounding():
    # each system beats the ones below on (nearly) every task: with prior 1e-4 the strengths
    # are about 45 apart and the Hessian's smallest eigenvalue is tiny. The former solver
    # stops 1e-7 from the maximum (its gradient test is absolute); Newton reaches rounding.
    frame = pd.DataFrame({"t1": [0, 3, 4, 8, 8, 11], "t2": [0, 3, 4, 6, 9, 12], "t3": [0, 3, 6, 8, 8, 10]},
                         index=[f"s{i}" for i in range(6)], dtype=float)
    lb = _board(frame)
    counts = _counts(lb, 1e-4)
    res = rules.bradley_terry(lb, prior=1e-4)
    exact = _decimal_newton(counts, _scores(res))
    assert np.abs(_scores(res) - exact).max() <= 1e-10
    assert np.abs(_old_trust_exact(counts) - exact).max() > 1e-8  # why the comparison above is on other boards


# ---------------------------------------------------------------- exact ties
@given(score_tables(weighted=True, max_systems=7, max_tasks=5), st.sampled_from([0.0, 0.5]))
def test_equal_win_totals_on_a_balanced_board_get_exactly_equal_strengths(lb, prior):
    # complete scores, ties half a win: every pair is compared with the total weight (plus
    # twice the prior), so theta_i - theta_k has the sign of wins_i - wins_k, and equal totals
    # give equal strengths: the very same float, and one tier
    counts = _counts(lb, prior)
    try:
        res = rules.bradley_terry(lb, prior=prior)
    except InvalidOptionError:
        assert prior == 0.0
        return
    scores, shares, totals = _scores(res), res.details["strengths"].to_numpy(), counts.sum(axis=1)
    for i, k in itertools.combinations(range(lb.n_systems), 2):
        if totals[i] == totals[k]:
            assert scores[i] == scores[k] and shares[i] == shares[k]
        else:
            assert (scores[i] > scores[k]) == (totals[i] > totals[k])
    by_totals = [{lb.systems[i] for i in np.nonzero(totals == t)[0]} for t in sorted(set(totals), reverse=True)]
    assert [set(tier) for tier in res.ranking] == by_totals


@given(score_frames(max_systems=6, max_tasks=5), st.integers(1, 3))
def test_copies_of_a_system_get_exactly_equal_strengths(frame, copies):
    # a system and its copies tie each other on every task and meet every other system alike
    rows = [frame] + [frame.iloc[[0]].rename(index=lambda s, c=c: f"{s}-copy{c}") for c in range(copies)]
    lb = _board(pd.concat(rows))
    res = rules.bradley_terry(lb, prior=0.5)
    group = [frame.index[0]] + [f"{frame.index[0]}-copy{c}" for c in range(copies)]
    assert res.scores[group].nunique() == 1
    assert any(set(group) <= set(tier) for tier in res.ranking)


@given(score_frames(max_systems=6, max_tasks=5, missing=True), st.integers(1, 2))
def test_copies_of_a_system_are_tied_on_boards_with_missing_scores(frame, copies):
    # not balanced: no exact equalization, but the strengths agree to rounding, one tier
    rows = [frame] + [frame.iloc[[0]].rename(index=lambda s, c=c: f"{s}-copy{c}") for c in range(copies)]
    lb = _board(pd.concat(rows))
    res = rules.bradley_terry(lb, prior=0.5, missing=None)
    group = [frame.index[0]] + [f"{frame.index[0]}-copy{c}" for c in range(copies)]
    assert float(np.ptp(res.scores[group].to_numpy())) <= 1e-12
    assert any(set(group) <= set(tier) for tier in res.ranking)


def test_the_closed_form_ties_are_exact():
    # a beats b 2:1, a beats c 2:1, c beats b 3:0: p_a = p_c = 5 p_b (tests/test_official_rules.py)
    frame = pd.DataFrame({"t1": [3, 1, 2], "t2": [3, 1, 2], "t3": [1, 2, 3]}, index=["a", "b", "c"], dtype=float)
    res = rules.bradley_terry(_board(frame))
    assert res.scores["a"] == res.scores["c"] and res.ranking == (("a", "c"), ("b",))
    cycle = pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"], dtype=float)
    assert rules.bradley_terry(_board(cycle)).scores.tolist() == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------- the fallback and the details
def test_the_former_solver_is_the_fallback(monkeypatch):
    lb = _latent_board(25, 10, 0, missing=0.3)
    newton = rules.bradley_terry(lb, prior=0.5, missing=None)
    monkeypatch.setattr(paired_comparison, "newton", lambda a: None)  # as if it had not converged
    fallback = rules.bradley_terry(lb, prior=0.5, missing=None)
    assert (newton.details["method"], fallback.details["method"]) == ("newton", "trust-exact")
    assert np.abs(_scores(newton) - _scores(fallback)).max() <= 1e-9
    assert fallback.ranking == newton.ranking and fallback.details["gradient_norm"] <= 1e-10


def test_a_prior_float_rounding_cannot_resolve_falls_back():
    # a beats b and c on both tasks; a prior of 1e-12 of the total weight: the likelihood's
    # gradient is at rounding long before the steps shrink, Newton stops, the former solver answers
    dominant = _board(pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0]}, index=["a", "b", "c"]))
    res = rules.bradley_terry(dominant, prior=1e-12)
    assert res.details["method"] == "trust-exact" and res.winners == ("a",)
    assert res.scores["b"] == res.scores["c"]  # balanced, equal totals


def test_newton_converges_in_few_iterations_on_a_dense_board():
    lb = _latent_board(200, 20, 0)
    res = rules.bradley_terry(lb)
    assert res.details["method"] == "newton" and res.details["iterations"] <= 3 + 12
    assert res.details["gradient_norm"] <= 1e-14
    assert res.scores.sum() == pytest.approx(0.0, abs=1e-12)
    assert res.details["strengths"].sum() == pytest.approx(1.0, abs=1e-12)


@given(st.integers(2, 9).flatmap(
    lambda n: st.lists(st.sampled_from([False, False, True]), min_size=n * n, max_size=n * n).map(
        lambda cells: np.array(cells, dtype=bool).reshape(n, n))))
def test_the_existence_test_is_strong_connectivity(support):
    np.fill_diagonal(support, False)
    n_strong, _ = connected_components(csr_matrix(support), directed=True, connection="strong")
    assert paired_comparison.strongly_connected(support) == (n_strong == 1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_fallback_solvers_reach_the_newton_optimum(seed):
    """trust-exact (then root) is the fallback of both models: from the same data it reaches the
    point Newton's method reaches, plain and with Davidson's ties."""
    from solvers import paired_comparison as pc

    rng = np.random.default_rng(seed)
    n = 6
    wins = rng.integers(1, 9, size=(n, n)).astype(float)
    np.fill_diagonal(wins, 0.0)
    a = wins / wins.sum()
    solved = pc.newton(a)
    assert solved is not None
    theta, _, message = pc.trust_exact(a)
    assert np.abs(theta - solved[0]).max() <= 1e-8, message
    ties = rng.integers(0, 4, size=(n, n)).astype(float)
    ties = np.triu(ties, 1) + np.triu(ties, 1).T
    total = wins.sum() + ties.sum() / 2
    w, t = wins / total, ties / total
    start = np.append(np.zeros(n), np.log(float(t.sum()) / float(w.sum())))
    newton_point = pc.davidson_newton(w, t, start)
    assert newton_point is not None
    x, _, _ = pc.davidson_trust_exact(w, t, start)
    assert np.abs(x - newton_point[0]).max() <= 1e-7
    assert np.abs(pc.davidson_derivatives(x, w, t)[0]).max() <= pc.ACCEPT
