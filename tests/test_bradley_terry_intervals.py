"""Bradley-Terry uncertainty and Davidson's ties (issue 35): ``interval_level=`` and ``tie_model=``.

- the standard errors are those of the observed information: equal to the inverse of a
  finite-difference Hessian of the log-likelihood (written out below, independently of the
  rule) on the sum-to-zero subspace, to 1e-6, for the plain model and Davidson's; two systems
  have a closed form;
- the 95% intervals of the strength *differences* cover the true difference in 0.95 +- 0.05 of
  200 boards of simulated Bernoulli comparisons (3 systems, 1,000 comparisons per pair), and of
  multinomial win / tie / loss comparisons under Davidson's model;
- Davidson's strengths and nu are those of a direct ``scipy.optimize.minimize`` of its
  negative log-likelihood (written out below) on random boards with ties, to 1e-6; without
  ties nu = 0 and the strengths are the plain model's, and nu -> 0 as the ties vanish;
- without the new options nothing changes (the details keys), and the options are checked.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit

import consensus as cs
from consensus import PairwiseMatrix, rules
from solvers import paired_comparison

Z95 = 1.959963984540054


def _board(frame: pd.DataFrame, weights: dict[str, float] | None = None) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, weights=weights, infer=False)


def _tied_board(n: int, tasks: int, seed: int, *, levels: int = 3, weighted: bool = False) -> cs.Leaderboard:
    """Integer scores in ``range(levels)``: many tied tasks."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, size=(n, tasks)).astype(float) + 0.5 * rng.normal(size=n)[:, None].round()
    frame = pd.DataFrame(scores, index=[f"s{i}" for i in range(n)], columns=[f"t{j}" for j in range(tasks)])
    weights = dict(zip(frame.columns, rng.uniform(0.2, 3.0, size=tasks).tolist())) if weighted else None
    return _board(frame, weights)


# ---------------------------------------------------------------- the likelihoods, written out
def _bt_nll(theta: np.ndarray, counts: np.ndarray) -> float:
    """- sum_(i != j) A[i, j] log(p_i / (p_i + p_j)), p = exp(theta)."""
    total = 0.0
    for i, j in itertools.permutations(range(len(theta)), 2):
        total -= counts[i, j] * np.log(np.exp(theta[i]) / (np.exp(theta[i]) + np.exp(theta[j])))
    return float(total)


def _davidson_nll(theta: np.ndarray, nu: float, wins: np.ndarray, ties: np.ndarray) -> float:
    """Davidson (1970): - sum w_ij log(p_i / D_ij) - sum_(i<j) t_ij log(nu sqrt(p_i p_j) / D_ij)."""
    p = np.exp(theta)
    total = 0.0
    for i, j in itertools.combinations(range(len(theta)), 2):
        d = p[i] + p[j] + nu * np.sqrt(p[i] * p[j])
        total -= wins[i, j] * np.log(p[i] / d) + wins[j, i] * np.log(p[j] / d)
        if ties[i, j]:
            total -= ties[i, j] * np.log(nu * np.sqrt(p[i] * p[j]) / d)
    return float(total)


def _davidson_nll_gradient(x: np.ndarray, wins: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """Gradient of :func:`_davidson_nll` in ``(theta, log nu)``, pair by pair."""
    n = len(x) - 1
    p, nu = np.exp(x[:n]), np.exp(x[n])
    grad = np.zeros(n + 1)
    for i, j in itertools.combinations(range(n), 2):
        tie = nu * np.sqrt(p[i] * p[j])
        d = p[i] + p[j] + tie
        pairs = wins[i, j] + wins[j, i] + ties[i, j]
        grad[i] += pairs * (p[i] + tie / 2) / d - wins[i, j] - ties[i, j] / 2
        grad[j] += pairs * (p[j] + tie / 2) / d - wins[j, i] - ties[i, j] / 2
        grad[n] += pairs * tie / d - ties[i, j]
    return grad


def _sum_zero_basis(n: int) -> np.ndarray:
    """An orthonormal basis (n x (n - 1)) of the vectors summing to 0."""
    q, _ = np.linalg.qr(np.eye(n)[:, :-1] - 1.0 / n)
    return q


def _fd_hessian(f, dim: int, h: float = 1e-2) -> np.ndarray:
    """Hessian of `f` at 0 by central second differences, Richardson-extrapolated (error O(h^4))."""

    def at(step: float) -> np.ndarray:
        hess = np.empty((dim, dim))
        for k, m in itertools.product(range(dim), repeat=2):
            ek, em = np.eye(dim)[k] * step, np.eye(dim)[m] * step
            hess[k, m] = (f(ek + em) - f(ek - em) - f(em - ek) + f(-ek - em)) / (4 * step * step)
        return hess

    return (4 * at(h / 2) - at(h)) / 3


def _random_matrix(n: int, seed: int, *, tie_share: float = 0.0, scale: int = 8) -> PairwiseMatrix:
    rng = np.random.default_rng(seed)
    wins = rng.integers(1, scale, size=(n, n)).astype(float)
    np.fill_diagonal(wins, 0.0)
    ties = np.triu(rng.integers(0, scale, size=(n, n)) * (rng.random((n, n)) < tie_share), 1).astype(float)
    return PairwiseMatrix.from_array(wins, systems=[f"m{i}" for i in range(n)], ties=ties + ties.T)


# ---------------------------------------------------------------- standard errors
def test_two_systems_have_the_closed_form():
    # N comparisons, a share q won by a: var(theta_a - theta_b) = 1 / (N q (1 - q)); each centered
    # log-strength is half the difference
    for won, lost in ((3, 1), (30, 10), (7, 2)):
        res = rules.bradley_terry(PairwiseMatrix.from_array([[0, won], [lost, 0]]), interval_level=0.9)
        n, q = won + lost, won / (won + lost)
        se = 0.5 / np.sqrt(n * q * (1 - q))
        assert res.details["stderr"].to_numpy() == pytest.approx([se, se], abs=1e-12)
        low, high = res.details["intervals"]["s0"]
        z = 1.6448536269514722  # the 0.95 normal quantile: a 90% interval
        assert (low, high) == pytest.approx((res.scores["s0"] - z * se, res.scores["s0"] + z * se), abs=1e-12)
        cov = res.details["covariance"].to_numpy()
        assert cov[0, 0] + cov[1, 1] - 2 * cov[0, 1] == pytest.approx(1 / (n * q * (1 - q)), rel=1e-12)


@pytest.mark.parametrize(("n", "seed", "ties", "prior"), [(3, 0, 0.0, 0.0), (5, 1, 0.5, 0.0), (6, 2, 0.3, 0.5)])
def test_the_standard_errors_are_the_inverse_finite_difference_hessian(n, seed, ties, prior):
    matrix = _random_matrix(n, seed, tie_share=ties)
    res = rules.bradley_terry(matrix, interval_level=0.95, prior=prior)
    counts = np.array(matrix.preferences, dtype=np.float64) + prior * (1.0 - np.eye(n))
    theta, basis = res.scores.to_numpy(), _sum_zero_basis(n)
    hess = _fd_hessian(lambda u: _bt_nll(theta + basis @ u, counts), n - 1)
    covariance = basis @ np.linalg.inv(hess) @ basis.T  # the inverse on the sum-to-zero subspace
    assert np.abs(res.details["stderr"].to_numpy() - np.sqrt(np.diag(covariance))).max() <= 1e-6
    assert np.abs(res.details["covariance"].to_numpy() - covariance).max() <= 1e-6
    # the pseudo-inverse of the information (the weighted Laplacian), by numpy
    sig = expit(theta[:, None] - theta[None, :])
    weights = (counts + counts.T) * sig * sig.T
    laplacian = np.diag(weights.sum(axis=1) - np.diag(weights)) - weights + np.diag(np.diag(weights))
    assert np.abs(res.details["covariance"].to_numpy() - np.linalg.pinv(laplacian)).max() <= 1e-10


@pytest.mark.parametrize(("n", "seed", "prior"), [(3, 3, 0.0), (5, 4, 0.0), (6, 5, 0.5)])
def test_davidson_standard_errors_are_the_inverse_finite_difference_hessian(n, seed, prior):
    matrix = _random_matrix(n, seed, tie_share=0.6)
    res = rules.bradley_terry(matrix, interval_level=0.95, prior=prior, tie_model="davidson")
    wins = np.array(matrix.wins, dtype=np.float64) + prior * (1.0 - np.eye(n))
    ties = np.array(matrix.ties, dtype=np.float64)
    theta, lam, basis = res.scores.to_numpy(), np.log(res.details["davidson_nu"]), _sum_zero_basis(n)
    hess = _fd_hessian(lambda x: _davidson_nll(theta + basis @ x[:-1], np.exp(lam + x[-1]), wins, ties), n)
    covariance = (basis @ np.linalg.inv(hess)[:-1, :-1] @ basis.T)  # strengths and log nu jointly
    assert np.abs(res.details["stderr"].to_numpy() - np.sqrt(np.diag(covariance))).max() <= 1e-6
    assert np.abs(res.details["covariance"].to_numpy() - covariance).max() <= 1e-6


def test_the_intervals_are_in_units_of_task_weight():
    # weights multiplied by 4: four times the information, half the standard errors, same strengths
    lb = _tied_board(5, 8, 0)
    double = _board(lb.scores, weights={t: 4.0 for t in lb.tasks})
    for model in (None, "davidson"):
        one = rules.bradley_terry(lb, interval_level=0.95, tie_model=model)
        four = rules.bradley_terry(double, interval_level=0.95, tie_model=model)
        assert np.abs(one.scores.to_numpy() - four.scores.to_numpy()).max() <= 1e-10
        assert np.abs(one.details["stderr"].to_numpy() - 2 * four.details["stderr"].to_numpy()).max() <= 1e-10


# ---------------------------------------------------------------- coverage
THETA = np.array([0.6, 0.0, -0.6])


def _simulated_boards(seed: int, boards: int, comparisons: int, nu: float | None):
    """`boards` pairwise matrices of `comparisons` Bernoulli (or Davidson win / tie / loss)
    comparisons of each pair of three systems with log-strengths THETA."""
    rng = np.random.default_rng(seed)
    for _ in range(boards):
        wins, ties = np.zeros((3, 3)), np.zeros((3, 3))
        for i, j in itertools.combinations(range(3), 2):
            if nu is None:
                k = rng.binomial(comparisons, expit(THETA[i] - THETA[j]))
                wins[i, j], wins[j, i] = k, comparisons - k
            else:
                pi, pj = np.exp(THETA[i]), np.exp(THETA[j])
                tie = nu * np.sqrt(pi * pj)
                wins[i, j], wins[j, i], ties[i, j] = rng.multinomial(comparisons, np.array([pi, pj, tie]) / (pi + pj + tie))
                ties[j, i] = ties[i, j]
        yield PairwiseMatrix.from_array(wins, systems=["a", "b", "c"], ties=ties)


@pytest.mark.parametrize("nu", [None, 0.8])
def test_the_intervals_of_the_differences_cover_at_their_level(nu):
    covered, centered, boards = np.zeros(3), np.zeros(3), 200
    for matrix in _simulated_boards(0, boards, 1000, nu):
        res = rules.bradley_terry(matrix, interval_level=0.95, tie_model=None if nu is None else "davidson")
        est, cov = res.scores.to_numpy(), res.details["covariance"].to_numpy()
        for k, (i, j) in enumerate(itertools.combinations(range(3), 2)):
            se = np.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
            covered[k] += abs(est[i] - est[j] - (THETA[i] - THETA[j])) <= Z95 * se
        for k, system in enumerate("abc"):  # THETA sums to 0: the centered log-strengths
            low, high = res.details["intervals"][system]
            centered[k] += low <= THETA[k] <= high
    # coverage of the differences a-b, a-c, b-c: [0.94, 0.925, 0.945] plain, [0.92, 0.945, 0.955]
    # Davidson (and 0.947-0.954 over 4,000 boards); one binomial sd over 200 boards is 0.015
    assert np.abs(covered / boards - 0.95).max() <= 0.05, covered / boards
    assert np.abs(centered / boards - 0.95).max() <= 0.05, centered / boards


# ---------------------------------------------------------------- Davidson's model
def _davidson_direct(wins: np.ndarray, ties: np.ndarray) -> tuple[np.ndarray, float]:
    """Centered log-strengths and nu by scipy.optimize.minimize (BFGS) on the written-out
    likelihood, normalized to total weight 1."""
    total = wins.sum() + ties.sum() / 2
    w, t = wins / total, ties / total
    n = len(w)
    res = minimize(lambda x: _davidson_nll(x[:n], float(np.exp(x[n])), w, t), np.zeros(n + 1),
                   jac=lambda x: _davidson_nll_gradient(x, w, t), method="BFGS", options={"gtol": 1e-12, "maxiter": 10_000})
    assert np.abs(_davidson_nll_gradient(res.x, w, t)).max() <= 1e-7  # BFGS stops near 1e-9 (precision loss)
    theta = res.x[:n]
    return theta - theta.mean(), float(np.exp(res.x[n]))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("n", "tasks", "weighted", "prior"), [(4, 10, False, 0.0), (6, 12, True, 0.0), (5, 6, True, 0.5)])
def test_davidson_is_the_direct_maximum_likelihood(n, tasks, weighted, prior, seed):
    lb = _tied_board(n, tasks, seed, weighted=weighted)
    pw = cs.pairwise(lb)
    wins = np.array(pw.wins, dtype=np.float64) + prior * (1.0 - np.eye(n))
    ties = np.array(pw.ties, dtype=np.float64)
    try:
        res = rules.bradley_terry(lb, tie_model="davidson", prior=prior)
    except cs.InvalidOptionError:  # no maximum (a system never losing): nothing to compare
        assert prior == 0.0
        return
    assert ties.any() and res.details["method"] == "newton" and res.details["gradient_norm"] <= 1e-10
    theta, nu = _davidson_direct(wins, ties)
    assert np.abs(res.scores.to_numpy() - theta).max() <= 1e-6
    assert res.details["davidson_nu"] == pytest.approx(nu, rel=1e-6)
    shares = np.exp(theta) / np.exp(theta).sum()
    assert np.abs(res.details["strengths"].to_numpy() - shares).max() <= 1e-6
    assert res.ranking == rules.bradley_terry(pw, tie_model="davidson", prior=prior).ranking


def test_davidson_on_a_given_matrix_with_many_ties():
    matrix = _random_matrix(8, 11, tie_share=0.9, scale=20)
    res = rules.bradley_terry(matrix, tie_model="davidson")
    theta, nu = _davidson_direct(np.array(matrix.wins, dtype=np.float64), np.array(matrix.ties, dtype=np.float64))
    assert np.abs(res.scores.to_numpy() - theta).max() <= 1e-6 and res.details["davidson_nu"] == pytest.approx(nu, rel=1e-6)
    assert res.details["davidson_nu"] > 0.5  # about one tie for two wins in each pair


def test_without_ties_nu_is_zero_and_the_strengths_are_the_plain_models():
    for seed in range(5):
        matrix = _random_matrix(6, seed)  # no ties
        plain = rules.bradley_terry(matrix, interval_level=0.95)
        davidson = rules.bradley_terry(matrix, tie_model="davidson", interval_level=0.95)
        assert davidson.details["davidson_nu"] == 0.0
        assert np.abs(davidson.scores.to_numpy() - plain.scores.to_numpy()).max() <= 1e-6
        assert np.abs(davidson.details["stderr"].to_numpy() - plain.details["stderr"].to_numpy()).max() <= 1e-6
    frame = pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [1.0, 3.0, 2.0], "t3": [3.0, 1.0, 2.0]}, index=["a", "b", "c"])
    lb = _board(frame)
    assert rules.bradley_terry(lb, tie_model="davidson").scores.tolist() == rules.bradley_terry(lb).scores.tolist()


def test_nu_tends_to_zero_as_the_ties_vanish():
    matrix = _random_matrix(5, 7)
    plain = rules.bradley_terry(matrix).scores.to_numpy()
    wins = np.array(matrix.wins, dtype=np.float64)
    nus = []
    for eps in (1e-2, 1e-4, 1e-6, 1e-8):
        ties = eps * (1.0 - np.eye(5))
        res = rules.bradley_terry(PairwiseMatrix.from_array(wins, ties=ties), tie_model="davidson")
        nus.append(res.details["davidson_nu"])
        if eps <= 1e-6:
            assert nus[-1] <= 1e-6 and np.abs(res.scores.to_numpy() - plain).max() <= 1e-6
    assert nus == sorted(nus, reverse=True) and nus[-1] > 0


def test_davidson_ties_equal_totals_exactly_on_a_balanced_board():
    # complete scores: every pair compared on every task; a and c have equal half-score totals
    frame = pd.DataFrame({"t1": [3, 1, 2, 1], "t2": [3, 1, 2, 2], "t3": [1, 2, 3, 1], "t4": [2, 2, 2, 3]},
                         index=["a", "b", "c", "d"], dtype=float)
    lb = _board(frame)
    totals = np.array(cs.pairwise(lb).preferences).sum(axis=1)
    assert totals[0] == totals[2]
    res = rules.bradley_terry(lb, tie_model="davidson")
    assert res.scores["a"] == res.scores["c"] and res.details["davidson_nu"] > 0


def test_the_davidson_fallback_agrees(monkeypatch):
    lb = _tied_board(6, 10, 3)
    newton = rules.bradley_terry(lb, tie_model="davidson", prior=0.5)
    monkeypatch.setattr(paired_comparison, "davidson_newton", lambda w, t, x: None)
    fallback = rules.bradley_terry(lb, tie_model="davidson", prior=0.5)
    assert (newton.details["method"], fallback.details["method"]) == ("newton", "trust-exact")
    assert np.abs(newton.scores.to_numpy() - fallback.scores.to_numpy()).max() <= 1e-9
    assert newton.details["davidson_nu"] == pytest.approx(fallback.details["davidson_nu"], rel=1e-9)


def test_only_ties_is_an_error_unless_a_prior():
    frame = pd.DataFrame({"t1": [1.0, 1.0], "t2": [2.0, 2.0]}, index=["a", "b"])
    with pytest.raises(cs.InvalidOptionError, match="every comparison is a tie"):
        rules.bradley_terry(_board(frame), tie_model="davidson")
    res = rules.bradley_terry(_board(frame), tie_model="davidson", prior=0.5)
    assert res.ranking == (("a", "b"),) and res.details["davidson_nu"] == pytest.approx(4.0)  # 2 ties, 1/2 win each way


# ---------------------------------------------------------------- options and defaults
def test_without_the_new_options_the_details_are_unchanged():
    res = rules.bradley_terry(cs.load_example("votenrank-toy"))
    assert set(res.details) == {"strengths", "prior", "iterations", "gradient_norm", "method"}
    assert res.options["interval_level"] is None and res.options["tie_model"] is None
    assert set(rules.bradley_terry(cs.load_example("votenrank-toy"), tie_model="davidson").details) == {
        "strengths", "prior", "iterations", "gradient_norm", "method", "davidson_nu"}


def test_the_new_options_through_rank_and_json():
    toy = cs.load_example("votenrank-toy")
    res = cs.rank(toy, "bradley_terry", interval_level=0.9, tie_model="davidson", prior=0.5)
    out = res.to_dict()["details"]
    assert set(out["intervals"]) == set(toy.systems) and len(out["intervals"]["A"]) == 2
    assert set(out["stderr"]) == set(toy.systems) and out["davidson_nu"] >= 0


@pytest.mark.parametrize(("options", "message"), [
    (dict(interval_level=1.0), r"interval_level must be in \(0, 1\)"),
    (dict(interval_level=0), r"interval_level must be in \(0, 1\)"),
    (dict(interval_level=-0.5), r"interval_level must be in \(0, 1\)"),
    (dict(interval_level=float("nan")), "interval_level"),
    (dict(interval_level="0.95x"), "interval_level"),
    (dict(interval_level=True), "interval_level"),
    (dict(tie_model="rao_kupper"), "tie_model='rao_kupper' is not one of None, 'davidson'"),
    (dict(tie_model="davidson", ties="ignore"), "give one or the other"),
])
def test_bad_new_options_are_refused(options, message):
    with pytest.raises(cs.InvalidOptionError, match=message):
        rules.bradley_terry(cs.load_example("votenrank-toy"), **options)


def test_wrong_types_of_the_new_options_stay_in_the_family():
    from tests.test_api_errors import WRONG_VALUES

    toy = cs.load_example("votenrank-toy")
    for key in ("interval_level", "tie_model"):
        for wrong in WRONG_VALUES:
            try:
                cs.rank(toy, "bradley_terry", prior=0.5, **{key: wrong})
            except cs.ConsensusError:
                pass
