"""The task-weight LPs of solvers.weights_lp: numpy R matrices in, checked results out."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from solvers import SolverError, SolveStatus, available_backends
from solvers.weights_lp import (
    HighsWeightsLP,
    WeightConstraints,
    certificate_bound,
    certificate_from_duals,
    constraints_farkas_lp,
    dual_certificate_lp,
    max_margin_lp,
    max_margin_shortcut,
    nearest_weights_lp,
    optimize_weights_lp,
    relation_matrix,
)


@pytest.fixture(params=available_backends())
def backend(request):
    return request.param


def grid(n_tasks: int, steps: int) -> np.ndarray:
    pts = []
    for cut in itertools.combinations(range(steps + n_tasks - 1), n_tasks - 1):
        bars = (-1, *cut, steps + n_tasks - 1)
        pts.append([bars[k + 1] - bars[k] - 1 for k in range(n_tasks)])
    return np.array(pts, dtype=float) / steps


STEPS = {1: 1, 2: 12, 3: 10, 4: 8, 5: 6}

r_matrices = st.integers(1, 7).flatmap(
    lambda n: st.integers(1, 5).flatmap(
        lambda k: hnp.arrays(np.float64, (n, k), elements=st.sampled_from([-1.0, 0.0, 1.0]))
    )
)


# ---------------------------------------------------------------------- R operator
def test_relation_matrix_signs_ties_and_missing():
    values = np.array([[1.0, 2.0, np.nan, 4.0], [0.0, 2.0, 1.0, 5.0], [2.0, np.nan, 3.0, 3.0]])
    assert relation_matrix(values, 0).tolist() == [[1.0, 0.0, 0.0, -1.0], [-1.0, 0.0, 0.0, 1.0]]
    assert relation_matrix(values, 2).tolist() == [[1.0, 0.0, 0.0, -1.0], [1.0, 0.0, 1.0, -1.0]]
    with pytest.raises(ValueError, match="out of range"):
        relation_matrix(values, 3)


# ---------------------------------------------------------------------- certificates
def test_certificate_bound_is_exact_and_normalizes():
    R = np.array([[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0]])
    cert = certificate_bound(R, [3.0, 3.0])  # normalized to 1/2, 1/2
    assert cert.rivals.tolist() == [0.5, 0.5] and cert.bound_exact == 0 and cert.advantage.tolist() == [0, 0, 0]
    thirds = certificate_bound(R, [1 / 3, 2 / 3])
    assert thirds.bound_exact == max(Fraction(1 / 3) - Fraction(2 / 3), Fraction(2 / 3) - Fraction(1 / 3), 0) / (
        Fraction(1 / 3) + Fraction(2 / 3)
    )


def test_certificate_bound_rejects_bad_multipliers():
    R = np.array([[1.0, -1.0]])
    cons = WeightConstraints.from_rows(2, [({0: 1.0}, 0.1, math.inf)])
    with pytest.raises(ValueError, match="rivals must be finite and >= 0"):
        certificate_bound(R, [-1.0])
    with pytest.raises(ValueError, match="open"):
        certificate_bound(R, [1.0], constraints=cons, upper_multipliers=[1.0], lower_multipliers=[0.0])
    ok = certificate_bound(R, [1.0], constraints=cons, upper_multipliers=[0.0], lower_multipliers=[2.0])
    # advantage (1, -1); d = (-2, 0); offset = max(3, -1) = 3; bound = 3 - 2 * 0.1
    assert ok.bound == pytest.approx(2.8) and ok.offset == 3.0


def test_certificate_from_duals_rejects_garbage():
    R = np.array([[1.0, -1.0]])
    cons = WeightConstraints.none(2)
    assert certificate_from_duals(R, np.array([0.0]), np.zeros(0), cons) is None
    assert certificate_from_duals(R, np.array([np.nan]), np.zeros(0), cons) is None
    flipped = certificate_from_duals(R, np.array([-1.0]), np.zeros(0), cons)  # HiGHS's sign for max
    assert flipped.rivals.tolist() == [1.0] and flipped.bound == 1.0


# ---------------------------------------------------------------------- max-margin LP
def test_matching_pennies_value_zero(backend):
    R = np.array([[1.0, -1.0], [-1.0, 1.0]])
    res = max_margin_lp(R, backend=backend)
    assert res.status is SolveStatus.OPTIMAL and res.method == f"lp:{backend}"
    assert res.objective == pytest.approx(0.0, abs=1e-12)
    assert res.weights.tolist() == pytest.approx([0.5, 0.5])
    assert res.certificate.rivals.tolist() == pytest.approx([0.5, 0.5])
    assert res.certificate.bound_exact <= Fraction(1, 10**12)


def test_shortcuts():
    assert max_margin_shortcut(np.array([[1.0, 0.0], [0.0, 1.0]])) is None
    won = max_margin_shortcut(np.array([[0.0, 1.0], [-1.0, 1.0]]))
    assert won.objective == 1.0 and won.weights.tolist() == [0.0, 1.0] and won.n_solves == 0
    lost = max_margin_shortcut(np.array([[1.0, 1.0], [-1.0, -1.0]]))
    assert lost.objective == -1.0 and lost.certificate.bound == -1.0 and lost.margin == -1.0


@given(r_matrices)
def test_max_margin_is_squeezed_between_weights_and_certificate(R):
    """The weights' margin (lower bound) meets the exact certificate bound (upper bound)."""
    res = max_margin_lp(R, shortcut=False)
    assert res.margin == pytest.approx(res.objective, abs=1e-9)
    assert float(res.certificate.bound_exact) - res.margin <= 1e-9
    assert res.weights.min() >= 0 and res.weights.sum() == pytest.approx(1.0, abs=1e-12)
    best_grid = (grid(R.shape[1], STEPS[R.shape[1]]) @ R.T).min(axis=1).max()
    assert res.margin >= best_grid - 1e-9
    explicit = dual_certificate_lp(R)
    assert float(explicit.bound_exact) == pytest.approx(res.objective, abs=1e-9)
    quick = max_margin_shortcut(R)
    if quick is not None:
        assert quick.objective == pytest.approx(res.objective, abs=1e-12)
        assert float(quick.certificate.bound_exact) == pytest.approx(res.objective, abs=1e-12)


@given(r_matrices)
def test_highspy_fast_path_matches_pulp(R):
    lp = HighsWeightsLP(R.shape[1], initial_rows=1)  # force constraint generation rounds
    fast = lp.max_margin(R, shortcut=False)
    slow = max_margin_lp(R, shortcut=False)
    assert fast.method == "highspy"
    assert fast.objective == pytest.approx(slow.objective, abs=1e-9)
    assert float(fast.certificate.bound_exact) - fast.margin <= 1e-9
    ref = np.full(R.shape[1], 1.0 / R.shape[1])
    threshold = min(0.0, fast.objective)
    near_fast = lp.nearest(R, ref, threshold=threshold)
    near_slow = nearest_weights_lp(R, ref, threshold=threshold)
    assert near_fast.objective == pytest.approx(near_slow.objective, abs=1e-8)
    assert near_fast.margin >= threshold - 1e-9
    coefs = np.zeros(R.shape[1])
    coefs[0] = 1.0
    for maximize in (False, True):
        opt_fast = lp.optimize(R, coefs, maximize=maximize, threshold=threshold)
        opt_slow = optimize_weights_lp(R, coefs, maximize=maximize, threshold=threshold)
        assert opt_fast.objective == pytest.approx(opt_slow.objective, abs=1e-8)
    assert lp.n_lps == 4 and lp.n_solves >= 4


def test_constraint_generation_with_many_rivals():
    rng = np.random.default_rng(7)
    R = rng.choice([-1.0, 0.0, 1.0], size=(400, 12), p=[0.45, 0.1, 0.45])
    lp = HighsWeightsLP(12)
    fast = lp.max_margin(R, shortcut=False)
    slow = max_margin_lp(R, shortcut=False)
    assert fast.objective == pytest.approx(slow.objective, abs=1e-9)
    assert fast.n_rows < 400  # lazily added rows only
    assert float(fast.certificate.bound_exact) - fast.margin <= 1e-9


# ---------------------------------------------------------------------- constraints
def test_constraints_cap_the_margin(backend):
    R = np.array([[1.0, -1.0, -1.0], [1.0, 1.0, -1.0]])
    cons = WeightConstraints.from_rows(3, [({0: 1.0}, -math.inf, 0.4)])  # w0 <= 0.4
    res = max_margin_lp(R, constraints=cons, backend=backend)
    # rival 0 only loses on task 0: margin = w0 - w1 - w2 = 2 w0 - 1 <= -0.2
    assert res.objective == pytest.approx(-0.2)
    assert res.weights[0] == pytest.approx(0.4)
    cert = res.certificate
    assert cert.upper_multipliers[0] > 0 and float(cert.bound_exact) == pytest.approx(-0.2)
    assert cons.violation(res.weights) <= 1e-12


def test_contradictory_constraints_return_a_farkas_certificate(backend):
    cons = WeightConstraints.from_rows(3, [({0: 1.0, 1: 1.0}, 0.8, math.inf), ({1: 1.0, 2: 1.0}, 0.5, math.inf), ({1: 1.0}, -math.inf, 0.1)])
    R = np.array([[1.0, 0.0, -1.0]])
    res = max_margin_lp(R, constraints=cons, backend=backend)
    assert res.status is SolveStatus.INFEASIBLE and res.weights is None
    cert = res.certificate
    assert cert.constraints_only and cert.bound_exact < 0
    again = certificate_bound(
        np.zeros((1, 3)), [0.0], constraints=cons,
        upper_multipliers=cert.upper_multipliers, lower_multipliers=cert.lower_multipliers,
    )
    assert again.bound_exact == cert.bound_exact
    assert constraints_farkas_lp(WeightConstraints.from_rows(3, [({0: 1.0}, 0.2, 0.5)])) is None


@given(
    r_matrices,
    st.lists(st.tuples(st.integers(0, 4), st.sampled_from([0.0, 0.125, 0.25, 0.5]), st.booleans()), max_size=3),
)
def test_constrained_lp_against_grid_and_fast_path(R, bounds):
    n = R.shape[1]
    rows = [({k % n: 1.0}, v, math.inf) if low else ({k % n: 1.0}, -math.inf, v) for k, v, low in bounds]
    cons = WeightConstraints.from_rows(n, rows)
    pts = grid(n, 8 if n <= 4 else 6)
    ok = np.array([cons.violation(p) <= 1e-12 for p in pts])
    res = max_margin_lp(R, constraints=cons)
    if res.status is SolveStatus.INFEASIBLE:
        assert not ok.any()
        assert res.certificate.bound_exact < 0
        return
    assert cons.violation(res.weights) <= 1e-9
    if ok.any():
        assert res.margin >= (pts[ok] @ R.T).min(axis=1).max() - 1e-9
    assert float(res.certificate.bound_exact) - res.margin <= 1e-9
    fast = HighsWeightsLP(n, cons, initial_rows=1).max_margin(R)
    assert fast.objective == pytest.approx(res.objective, abs=1e-9)
    assert float(fast.certificate.bound_exact) - fast.margin <= 1e-9


def test_threshold_lps_report_infeasible_thresholds():
    R = np.array([[1.0, -1.0]])
    res = nearest_weights_lp(R, [0.5, 0.5], threshold=1.5)
    assert res.status is SolveStatus.INFEASIBLE and res.weights is None
    assert HighsWeightsLP(2).nearest(R, [0.5, 0.5], threshold=1.5).status is SolveStatus.INFEASIBLE


def test_fast_path_refuses_contradictory_batch_constraints():
    cons = WeightConstraints.from_rows(2, [({0: 1.0}, 0.7, math.inf), ({1: 1.0}, 0.7, math.inf)])
    with pytest.raises(SolverError, match="contradictory"):
        HighsWeightsLP(2, cons).max_margin(np.array([[1.0, -1.0]]))


def test_input_validation():
    with pytest.raises(ValueError, match="non-empty 2-d"):
        max_margin_lp(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="finite"):
        max_margin_lp(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="constraints are over 3 tasks"):
        max_margin_lp(np.ones((1, 2)), constraints=WeightConstraints.none(3))
    with pytest.raises(ValueError, match="NaN"):
        WeightConstraints(np.ones((1, 2)), [np.nan], [1.0])
    with pytest.raises(ValueError, match="reference must hold 2"):
        nearest_weights_lp(np.ones((1, 2)), [1.0], threshold=0.0)
