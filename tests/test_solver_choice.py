"""A solver named by ``solver=`` that cannot run here is a clear error before any work, API and CLI."""

from __future__ import annotations

import pytest

import consensus as cs
import solvers.backends
from solvers import available_backends

from .cli_runner import run_cli


@pytest.fixture
def no_cbc(monkeypatch):
    """As on PuLP 4 without a cbc on the PATH: only HiGHS can run."""
    monkeypatch.setattr(solvers.backends, "_available", lambda: frozenset({"HiGHS"}))


def test_kemeny_names_the_missing_solver_and_how_to_get_it(no_cbc):
    lb = cs.datasets.gumbel_leaderboard(12, 5, phi=0.0, seed=1)
    with pytest.raises(cs.SolverNotAvailableError, match=r"solver 'cbc' is not available here \(.*pulp<4"):
        cs.kemeny(lb, solver="cbc")


def test_condorcet_weights_and_prospective_too(no_cbc, votenrank_toy):
    with pytest.raises(cs.SolverNotAvailableError, match=r"solver 'cbc'"):
        cs.condorcet_weights(votenrank_toy, "A", solver="cbc")
    with pytest.raises(cs.SolverNotAvailableError, match=r"solver 'cbc'"):
        cs.prospective(votenrank_toy, solver="cbc")
    assert isinstance(cs.SolverNotAvailableError("x"), cs.ConsensusError)


def test_highs_is_always_there():
    assert "highs" in available_backends()
    assert cs.kemeny(cs.load_example("votenrank-toy"), solver="highs").optimal


@pytest.mark.slow
def test_cli_one_line_and_exit_2_for_an_unavailable_solver(tmp_path):
    if "glpk" in available_backends():
        pytest.skip("GLPK is installed here")
    path = tmp_path / "toy.csv"
    cs.load_example("votenrank-toy").scores.to_csv(path)
    out = run_cli("kemeny", str(path), "--solver", "glpk")
    assert out.returncode == 2
    [line] = out.stderr.strip().splitlines()
    assert line.startswith(
        "consensus: error: solver 'glpk' is not available here (install GLPK (e.g. apt-get install glpk-utils)); "
        "solvers available here: 'highs'"
    )
