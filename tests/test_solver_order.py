"""Every HiGHS solve of the package succeeds whatever ran before it in the same process and thread.

HiGHS keeps one task scheduler per calling thread, sized by the first run; since HiGHS 1.16 a
later run asking for another thread count fails ("Not Set"). These tests mix, on one thread,
bare highspy runs with other thread counts (as user code or another library would do), pulp's
own HiGHS, the batch weight LPs of ``prospective``, the one-off LPs of ``condorcet_weights`` and
the Kemeny ILP with its MIP phase, in both orders. Each scenario runs on a fresh thread, so it
starts with no scheduler, like a new process. (Code that asks HiGHS for an explicit thread
count *after* the package has run on the same thread meets HiGHS's own refusal; the package
leaves ``threads`` at HiGHS's default so that it never meets it, see ``solvers.model``.)
"""

from __future__ import annotations

import pytest

import consensus as cs
from solvers import SolveStatus

from .threads import bare_highs_run, on_fresh_thread


def _pulp_highs() -> None:
    """pulp's own HiGHS interface, default options (skipped where pulp cannot reach HiGHS)."""
    import pulp

    if "HiGHS" not in pulp.listSolvers(onlyAvailable=True):
        return
    prob = pulp.LpProblem("user", pulp.LpMinimize)
    make = getattr(prob, "add_variable", None)
    x = make("x", lowBound=0, upBound=1) if make else pulp.LpVariable("x", 0, 1)
    prob += x
    prob += x >= 0.5
    prob.solve(pulp.HiGHS(msg=False))
    assert x.varValue == pytest.approx(0.5)


@pytest.fixture(scope="module")
def board():
    # the LPs are really solved here (not all answered by the max-margin shortcut)
    return cs.datasets.gumbel_leaderboard(100, 14, phi=0.05, seed=0)


def _weights_for_all(lb) -> set[str]:
    methods = set()
    for system in lb.systems:
        res = cs.condorcet_weights(lb, system)
        assert res.verify(lb)
        methods.add(res.method)
    assert "lp:highs" in methods  # the solver ran, not only the shortcut
    return methods


def _prospective(lb) -> None:
    frame = cs.prospective(lb).to_frame()
    assert len(frame) == lb.n_systems
    assert frame.attrs["n_solves"] > 0  # the batch LPs ran


def _kemeny(lb) -> None:
    res = cs.kemeny(lb)
    assert res.status is SolveStatus.OPTIMAL


@pytest.mark.slow
@pytest.mark.parametrize("foreign_threads", [None, 1, 2])
def test_weights_then_prospective_then_kemeny_then_weights(board, foreign_threads):
    def scenario():
        bare_highs_run(foreign_threads)
        _weights_for_all(board)
        _prospective(board)
        _kemeny(board)
        _weights_for_all(board)
        return True

    assert on_fresh_thread(scenario)


@pytest.mark.slow
@pytest.mark.parametrize("foreign_threads", [None, 1, 2])
def test_the_reverse_order(board, foreign_threads):
    def scenario():
        bare_highs_run(foreign_threads)
        _prospective(board)
        _kemeny(board)
        _weights_for_all(board)
        _prospective(board)
        return True

    assert on_fresh_thread(scenario)


@pytest.mark.parametrize("first", ["pulp", "package"])
def test_pulp_highs_and_the_batch_path_in_either_order(board, first):
    def scenario():
        if first == "pulp":
            _pulp_highs()
            _prospective(board)
        else:
            _prospective(board)
            _pulp_highs()
            _prospective(board)
        return True

    assert on_fresh_thread(scenario)


@pytest.mark.slow
def test_kemeny_mip_phase_after_foreign_thread_counts():
    lb = cs.datasets.gumbel_leaderboard(60, 20, phi=0.0, seed=0)  # pure noise: needs the MIP phase

    def scenario():
        bare_highs_run(2)
        stages: set[str] = set()
        res = cs.kemeny(lb, unique=False, progress=lambda p: stages.add(p.stage))
        assert "mip" in stages and res.status is SolveStatus.OPTIMAL and res.gap == 0
        assert cs.kemeny_objective(lb, res.order) == res.objective
        _prospective(cs.datasets.gumbel_leaderboard(100, 14, phi=0.05, seed=0))
        return True

    assert on_fresh_thread(scenario)
