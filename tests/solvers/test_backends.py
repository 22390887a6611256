"""Backend selection and status mapping of the solver layer."""

from __future__ import annotations

import pulp
import pytest

from solvers import SolveStatus, SolverUnavailableError, available_backends, make_solver
from solvers.status import clean, status_from_pulp


def test_highs_is_available_and_first():
    assert available_backends()[0] == "highs"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(SolverUnavailableError, match=r"unknown solver 'nosuch'"):
        make_solver("nosuch")


@pytest.fixture(params=available_backends())
def backend(request):
    return request.param


def _knapsack(n: int = 3) -> pulp.LpProblem:
    prob = pulp.LpProblem("tiny", pulp.LpMaximize)
    x = prob.add_variable_dict("x", range(n), cat=pulp.LpBinary)
    prob += pulp.lpSum((i + 1) * x[i] for i in range(n))
    prob += pulp.lpSum((i + 2) * x[i] for i in range(n)) <= n + 1  # capacity
    return prob


def test_optimal_status(backend):
    prob = _knapsack()
    prob.solve(make_solver(backend))
    assert status_from_pulp(prob).status is SolveStatus.OPTIMAL
    assert pulp.value(prob.objective) == pytest.approx(3.0)  # item 2 alone fills the capacity


def test_infeasible_status(backend):
    prob = pulp.LpProblem("infeasible", pulp.LpMinimize)
    x = prob.add_variable("x", lowBound=0, upBound=1)
    prob += x
    prob += x >= 2  # impossible
    prob.solve(make_solver(backend))
    assert status_from_pulp(prob).status is SolveStatus.INFEASIBLE


def test_clean_removes_negative_zero_and_rounds_binaries():
    assert str(clean(-0.0)) == "0.0"
    assert clean(0.9999999, integral=True) == 1.0
    assert clean(0.5, integral=True) == 0.5
