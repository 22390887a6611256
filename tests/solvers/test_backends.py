"""Backend selection, the model layer (HiGHS and pulp), status mapping and the HiGHS thread policy."""

from __future__ import annotations

import numpy as np
import pytest

from solvers import (
    LinearModel,
    SolverError,
    SolverUnavailableError,
    SolveStatus,
    available_backends,
    make_solver,
)
from solvers.model import THREADS, dense_rows, pulp_status
from solvers.status import clean

from ..threads import bare_highs_run, on_fresh_thread


def test_highs_is_available_and_first():
    assert available_backends()[0] == "highs"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(SolverUnavailableError, match=r"unknown solver 'nosuch'"):
        make_solver("nosuch")
    with pytest.raises(SolverUnavailableError, match=r"unknown solver 'nosuch'"):
        LinearModel(backend="nosuch")


@pytest.fixture(params=available_backends())
def backend(request):
    return request.param


def _knapsack(backend: str, n: int = 3) -> LinearModel:
    model = LinearModel(backend=backend, sense="max")
    model.add_columns(np.zeros(n), np.ones(n), np.arange(1.0, n + 1))
    model.set_integer(True)
    # capacity: sum (i + 2) x_i <= n + 1
    model.add_rows([-np.inf], [n + 1.0], *dense_rows([np.arange(2.0, n + 2)]))
    return model


def test_optimal_status(backend):
    sol = _knapsack(backend).solve()
    assert sol.status is SolveStatus.OPTIMAL
    assert sol.objective == pytest.approx(3.0)  # item 2 alone fills the capacity
    assert sol.x.round().tolist() == [0.0, 0.0, 1.0]


def test_infeasible_status(backend):
    model = LinearModel(backend=backend)
    model.add_columns([0.0], [1.0], [1.0])
    model.add_rows([2.0], [np.inf], *dense_rows([[1.0]]))  # x >= 2: impossible
    assert model.solve().status is SolveStatus.INFEASIBLE


def test_lp_duals_ranged_rows_and_row_deletion(backend):
    # min x + y s.t. x + y >= 1 (ranged up to 3), x - y == 0: x = y = 1/2, dual of row 0 is 1
    model = LinearModel(backend=backend)
    model.add_columns(np.zeros(2), np.full(2, np.inf), np.ones(2))
    model.add_rows([1.0, 0.0], [3.0, 0.0], *dense_rows([[1.0, 1.0], [1.0, -1.0]]))
    sol = model.solve()
    assert sol.status is SolveStatus.OPTIMAL and sol.x.tolist() == pytest.approx([0.5, 0.5])
    if backend == "scip":  # PuLP's SCIP_PY reads no duals: None, and the callers use the LP value instead
        assert sol.row_duals is None
    else:
        assert abs(sol.row_duals[0]) == pytest.approx(1.0)
    model.delete_rows([1])  # x - y == 0 gone: still objective 1
    assert model.n_rows == 1 and model.solve().objective == pytest.approx(1.0)


def test_a_column_in_no_row_and_no_cost_still_gets_a_value(backend):
    model = LinearModel(backend=backend)
    model.add_columns([0.0, 2.0], [1.0, 5.0], [0.0, 0.0])
    sol = model.solve()
    assert sol.status is SolveStatus.OPTIMAL and sol.x.tolist() == [0.0, 2.0]


def test_mip_start_and_time_limit_status():
    model = _knapsack("highs", n=3)
    sol = model.solve(mip_start=[0.0, 0.0, 1.0], time_limit=10.0)
    assert sol.status is SolveStatus.OPTIMAL and sol.dual_bound == pytest.approx(3.0)
    assert model.solve(time_limit=0.0).status is SolveStatus.NOT_SOLVED  # no time: not solved, no error


class _Stats:
    """A stand-in for PuLP 4's LpSolveStats."""

    def __init__(self, name: str, has_solution: bool) -> None:
        self.status = type("S", (), {"name": name})()
        self.has_solution = has_solution


@pytest.mark.parametrize(
    ("name", "has", "expected"),
    [
        ("Optimal", True, SolveStatus.OPTIMAL),
        ("GapLimit", True, SolveStatus.OPTIMAL),
        ("TimeLimit", True, SolveStatus.TIME_LIMIT),
        ("TimeLimit", False, SolveStatus.NOT_SOLVED),
        ("Infeasible", False, SolveStatus.INFEASIBLE),
        ("NumericalError", False, SolveStatus.NOT_SOLVED),
    ],
)
def test_pulp4_status_mapping(name, has, expected):
    assert pulp_status(None, _Stats(name, has))[0] is expected


def test_pulp3_status_mapping_time_limit_is_not_optimal():
    pulp = pytest.importorskip("pulp")
    if not hasattr(pulp, "LpSolutionIntegerFeasible"):
        pytest.skip("PuLP 4 reports solves through LpSolveStats (tested above)")

    prob = type("P", (), {"status": pulp.LpStatusOptimal, "sol_status": pulp.LpSolutionIntegerFeasible})()
    assert pulp_status(prob, 1)[0] is SolveStatus.TIME_LIMIT
    prob.sol_status = pulp.LpSolutionOptimal
    assert pulp_status(prob, 1)[0] is SolveStatus.OPTIMAL


def test_clean_removes_negative_zero_and_rounds_binaries():
    assert str(clean(-0.0)) == "0.0"
    assert clean(0.9999999, integral=True) == 1.0
    assert clean(0.5, integral=True) == 0.5


# ---------------------------------------------------------------- the HiGHS thread policy
def test_package_models_leave_threads_at_the_default():
    assert THREADS == 0


@pytest.mark.parametrize("first", [1, 2, 3])
def test_package_solves_after_user_code_set_another_thread_count(first):
    def scenario():
        assert bare_highs_run(first)  # user code sets up this thread's scheduler with `first` threads
        sol = _knapsack("highs").solve()  # the package's model runs on it regardless
        assert sol.status is SolveStatus.OPTIMAL
        lp = LinearModel()
        lp.add_columns([0.0], [1.0], [1.0])
        return lp.solve().status

    assert on_fresh_thread(scenario) is SolveStatus.OPTIMAL


def test_an_explicit_thread_count_is_honoured_without_breaking_later_solves():
    import highspy

    if not hasattr(highspy.Highs, "resetThreadScheduler"):  # highspy < 1.16: refused with HiGHS's reason
        def refused():
            assert bare_highs_run(1)
            model = _knapsack("highs")
            model.threads = 2
            return model.solve()

        with pytest.raises(SolverError, match=r"scheduler.*leave threads unset"):
            on_fresh_thread(refused)
        assert on_fresh_thread(lambda: _knapsack("highs").solve().status) is SolveStatus.OPTIMAL
        return

    def scenario():
        assert bare_highs_run(1)
        model = _knapsack("highs")
        model.threads = 2  # asks for another count than this thread's scheduler has
        first = model.solve().status
        again = _knapsack("highs").solve().status  # default threads: fine after the restart
        return first, again

    assert on_fresh_thread(scenario) == (SolveStatus.OPTIMAL, SolveStatus.OPTIMAL)


def test_a_highs_error_carries_highs_reason(monkeypatch):
    import solvers.model_highs

    monkeypatch.setattr(solvers.model_highs, "_reset_thread_scheduler", lambda hs: False)  # as on an old highspy

    def scenario():
        assert bare_highs_run(1)
        model = _knapsack("highs")
        model.threads = 2
        return model.solve()

    with pytest.raises(SolverError, match=r"HiGHS failed: .*threads.*scheduler.*leave threads unset"):
        on_fresh_thread(scenario)
