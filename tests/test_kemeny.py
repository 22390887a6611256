"""consensus.exact._kemeny: known answers, brute-force cross-checks, properties, honest statuses."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import consensus as cs
import solvers.linear_ordering as lo
from consensus import (
    InvalidOptionError,
    SolveFailedError,
    UnknownSystemError,
    kemeny,
    kemeny_objective,
)
from consensus.majority._inputs import as_pairwise
from consensus.results import KemenyResult
from solvers import SolverError, SolveStatus, available_backends
from solvers.brute_force import brute_force_linear_ordering
from solvers.linear_ordering import majority_components
from tests.strategies import examples, score_tables

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden" / "kemeny_cases.json").read_text())


def _table(case: dict) -> cs.Leaderboard:
    frame = pd.DataFrame(
        {s: [np.nan if v is None else v for v in values] for s, values in case["scores"].items()}, index=case["tasks"]
    ).T.astype(float)
    return cs.Leaderboard.from_frame(frame, lower_is_better=case["lower_is_better"], weights=case.get("weights"))


def _quiet_table(frame: pd.DataFrame, **options) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, **options)


def _brute(data) -> tuple[float, set[tuple[str, ...]]]:
    p = as_pairwise(data)
    ref = brute_force_linear_ordering(p.preferences, tol=p.tol)
    return ref.objective, {tuple(p.systems[i] for i in o) for o in ref.optima}


# ---------------------------------------------------------------- known answers
def test_votenrank_toy(votenrank_toy):
    res = kemeny(votenrank_toy)
    assert (res.order, res.objective, res.status, res.unique) == (("B", "C", "D", "A"), 12.0, SolveStatus.OPTIMAL, True)
    assert res.optimal and res.lower_bound == 12.0 and res.gap == 0.0


def test_colombo_table1(colombo_table1):
    res = kemeny(colombo_table1)
    assert (res.order, res.objective, res.unique, res.optimal) == (("C", "B", "A"), 7.0, True, True)


def test_cycle3_has_three_optimal_rankings(cycle3):
    res = kemeny(cycle3, enumerate_optima=10)
    assert res.objective == 4.0 and res.unique is False and len(res.optima) == 3 and not res.optima_truncated
    assert res.order == res.optima[0]


@pytest.mark.parametrize("case", GOLDEN, ids=[c["id"] for c in GOLDEN])
@pytest.mark.parametrize("method", ["auto", "ilp", "brute_force"])
def test_golden_cases(case, method):
    table = _table(case)
    res = kemeny(table, method=method, enumerate_optima=100)
    expected = case["computed"]
    assert res.objective == expected["kemeny_objective"]
    assert [list(r) for r in res.optima] == expected["kemeny_optima"]
    assert res.unique is expected["unique"]
    if "published" in case:
        assert list(res.order) == case["published"]["kemeny_ranking"]
    for ranking in expected["kemeny_optima"]:
        assert kemeny_objective(table, ranking) == expected["kemeny_objective"]


def test_kemeny_objective_by_hand(votenrank_toy):
    # wins: B beats A, C, D 3-2; C beats A, D 3-2; D beats A 3-2 -> B, C, D, A pays 6 x 2
    assert kemeny_objective(votenrank_toy, ["B", "C", "D", "A"]) == 12.0
    assert kemeny_objective(votenrank_toy, ["A", "D", "C", "B"]) == 18.0
    p = cs.PairwiseMatrix.from_array([[0, 2], [1, 0]], systems=["x", "y"], ties=[[0, 1], [1, 0]])
    assert kemeny_objective(p, ["x", "y"]) == 1.5  # one loss plus half a tie


# ---------------------------------------------------------------- exact against brute force
# The exhaustive brute-force sweep of the Kemeny ILP is the solver layer's
# (tests/solvers/test_linear_ordering.py, every backend). Here a few boards per property check
# what this layer adds: system labels, task weights, missing scores and the options' plumbing.
def _check(table, **options) -> None:
    if isinstance(table, cs.Leaderboard):  # the board as drawn: every system, whatever its coverage
        options = {"min_coverage": 0, **options}
    best, optima = _brute(table)
    cap = 300
    res = kemeny(table, enumerate_optima=cap, **options)
    assert res.status is SolveStatus.OPTIMAL and res.optimal
    assert res.objective == pytest.approx(best, abs=1e-9)
    assert kemeny_objective(table, res.order) == pytest.approx(best, abs=1e-9)
    assert res.optima_truncated == (len(optima) > cap)
    assert set(res.optima) == optima if len(optima) <= cap else len(res.optima) == cap and set(res.optima) < optima
    assert res.unique == (len(optima) == 1)
    plain = kemeny(table, **options)
    assert plain.objective == pytest.approx(best, abs=1e-9) and plain.order in optima
    assert plain.unique == (len(optima) == 1)


@pytest.mark.slow
@given(score_tables(weighted=True, missing=True, max_systems=8))
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_auto_matches_brute_force(table):
    _check(table)


@pytest.mark.slow
@given(score_tables(weighted=True, missing=True, max_systems=8), st.booleans())
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_ilp_matches_brute_force(table, decompose):
    _check(table, method="ilp", decompose=decompose)


def _largest_component(table) -> int:
    p = cs.pairwise(table)
    return max(len(g) for g in majority_components(p.preferences, tol=p.tol))


# more systems, tasks and score levels: majority cycles (components of 3+ systems) are common
cyclic_tables = score_tables(weighted=True, missing=True, min_systems=5, max_systems=8, min_tasks=3, max_tasks=9, max_score=9)


@pytest.mark.slow
@given(cyclic_tables, st.booleans())
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_ilp_matches_brute_force_on_majority_cycles(table, decompose):
    assume(_largest_component(table) >= 3)
    _check(table, method="ilp", decompose=decompose)


@pytest.mark.slow
@given(
    score_tables(min_systems=4, max_systems=8, min_tasks=2, max_tasks=8, max_score=9).filter(lambda t: t.n_tasks % 2 == 0)
)
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_decomposition_keeps_every_optimum_with_majority_ties(table):
    """Even task counts: majority ties join components; optima may cross their boundaries."""
    assume(_largest_component(table) >= 2 or len(cs.majority.majority_ties(table)) > 0)
    _check(table, method="ilp", decompose=True)
    _check(table, method="auto", decompose=True)


@pytest.mark.slow
@pytest.mark.parametrize("solver", [b for b in available_backends() if b != "highs"])
@given(table=score_tables(weighted=True, missing=True, max_systems=7))
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_other_backends_match_brute_force(table, solver):
    _check(table, method="ilp", solver=solver)


@pytest.mark.slow
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.lists(st.integers(0, 5), min_size=n * n, max_size=n * n).map(
            lambda v: np.array(v, dtype=float).reshape(n, n) * (1 - np.eye(n))
        )
    )
)
@examples(0.2)  # a few boards: the solver layer owns the sweep
def test_raw_pairwise_matrices_match_brute_force(wins):
    p = cs.PairwiseMatrix.from_array(wins)
    _check(p, method="ilp")


# ---------------------------------------------------------------- properties
@pytest.mark.slow
@given(score_tables(weighted=True, missing=True, max_systems=8))
def test_condorcet_winner_first_and_loser_last(table):
    winner, loser = cs.condorcet_winner(table), cs.majority.condorcet_loser(table)
    assume(winner is not None or loser is not None)
    res = kemeny(table, min_coverage=0)
    if winner is not None:
        assert res.order[0] == winner
    if loser is not None:
        assert res.order[-1] == loser


def _linear_extension(systems, scores) -> list[str]:
    """Best score first; ties broken by system order (any linear extension has an objective)."""
    return [systems[i] for i in sorted(range(len(systems)), key=lambda i: (-scores[i], i))]


def _rule_rankings(p: cs.PairwiseMatrix) -> dict[str, list[str]]:
    pref, margins = p.preferences, p.margins
    borda = pref.sum(axis=1)  # pairwise Borda: total preference over every rival
    copeland = (margins > p.tol).sum(axis=1) - (margins < -p.tol).sum(axis=1)
    defeats = np.where(margins.T > p.tol, p.wins.T, 0.0)  # defeats[i, j]: j beats i with wins[j, i]
    minimax = -defeats.max(axis=1)  # winning votes: the worst defeat
    return {name: _linear_extension(p.systems, s) for name, s in (("borda", borda), ("copeland", copeland), ("minimax", minimax))}


@pytest.mark.slow
@given(score_tables(weighted=True, missing=True, max_systems=8))
def test_kemeny_beats_borda_copeland_and_minimax(table):
    p = cs.pairwise(table)
    res = kemeny(table)
    for ranking in _rule_rankings(p).values():
        assert res.objective <= kemeny_objective(p, ranking) + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("phi", [0.0, 0.05, 0.2])
def test_kemeny_beats_the_rules_on_gumbel_leaderboards(phi):
    table = cs.datasets.gumbel_leaderboard(30, 12, phi=phi, seed=3)
    p = cs.pairwise(table)
    res = kemeny(table, unique=False)
    assert res.optimal
    for ranking in _rule_rankings(p).values():
        assert res.objective <= kemeny_objective(p, ranking)


@given(score_tables(weighted=True, missing=True, max_systems=7), st.randoms(use_true_random=False))
def test_relabelling_and_reordering_systems_keeps_the_objective(table, rnd):
    systems = list(table.systems)
    rnd.shuffle(systems)
    renamed = {s: f"x{k}" for k, s in enumerate(reversed(table.systems))}
    frame = table.scores.loc[systems].rename(index=renamed)
    other = _quiet_table(frame, weights=dict(table.weights))
    assert kemeny(other).objective == pytest.approx(kemeny(table).objective)


@given(score_tables(weighted=True, missing=True, max_systems=7))
def test_reversing_every_task_keeps_the_objective_and_reverses_an_optimum(table):
    reversed_table = _quiet_table(table.scores, weights=dict(table.weights), lower_is_better=list(table.tasks))
    res, rev = kemeny(table, enumerate_optima=50_000), kemeny(reversed_table, enumerate_optima=50_000)  # brute force
    assert rev.objective == pytest.approx(res.objective)
    assert {r[::-1] for r in res.optima} == set(rev.optima)


# ---------------------------------------------------------------- inputs
def test_pairwise_matrix_and_to_pairwise_objects(votenrank_toy):
    p = cs.pairwise(votenrank_toy)

    class Imputed:
        def to_pairwise(self) -> cs.PairwiseMatrix:
            return p

    assert kemeny(p).order == kemeny(Imputed()).order == ("B", "C", "D", "A")
    assert kemeny_objective(Imputed(), ["B", "C", "D", "A"]) == 12.0


def test_fractional_imputed_matrix():
    wins = np.array([[0, 1.7, 0.4], [1.3, 0, 2.2], [2.6, 0.8, 0]])
    p = cs.PairwiseMatrix.from_array(wins, systems=["a", "b", "c"])
    best, optima = _brute(p)
    res = kemeny(p, method="ilp")
    assert res.objective == pytest.approx(best) and res.order in optima


@pytest.mark.slow
def test_a_realistic_leaderboard_is_solved_and_cross_checked():
    table = cs.datasets.gumbel_leaderboard(60, 12, phi=0.1, seed=4)
    ilp = kemeny(table, unique=False)
    flat = kemeny(table, unique=False, decompose=False)
    assert ilp.optimal and flat.optimal and ilp.objective == flat.objective
    assert sum(ilp.components) == 60 and len(ilp.components) > 1
    assert [s for block in ilp.blocks for s in block] == list(ilp.order)


# ---------------------------------------------------------------- statuses, limits, errors
@pytest.mark.slow
def test_a_tiny_time_limit_returns_an_honest_time_limit_result():
    table = cs.datasets.gumbel_leaderboard(50, 20, phi=0.0, seed=0)
    res = kemeny(table, time_limit=0.05)
    assert res.status is SolveStatus.TIME_LIMIT and not res.optimal and res.time_limit == 0.05
    assert res.lower_bound <= res.objective == kemeny_objective(table, res.order)
    assert res.gap == res.objective - res.lower_bound and 0 <= res.relative_gap < 1
    assert res.unique is None and res.to_dict()["status"] == "time_limit"


def test_solver_failure_becomes_solve_failed_error(votenrank_toy, monkeypatch):
    def fail(*args, **kwargs):
        raise SolverError("HiGHS ran out of patience", SolveStatus.NOT_SOLVED)

    monkeypatch.setattr(lo, "solve_linear_ordering", fail)
    with pytest.raises(SolveFailedError, match=r"Kemeny consensus of 4 systems: highs stopped with status 'not_solved'") as info:
        kemeny(votenrank_toy)
    assert isinstance(info.value.__cause__, SolverError) and "method='brute_force' (n <= 8)" in str(info.value)
    assert isinstance(info.value, RuntimeError)


@pytest.mark.slow
def test_an_unproven_solve_without_time_limit_is_an_error(monkeypatch):
    def give_up(self, time_limit, *, start, gap_abs):
        return lo._MipResult(SolveStatus.NOT_SOLVED, None, None, None)

    monkeypatch.setattr(lo._OrderingModel, "solve_mip", give_up)
    monkeypatch.setattr(lo, "_lp_phase", lambda comp, index, ctx: None)  # no LP proof either
    table = cs.datasets.gumbel_leaderboard(40, 20, phi=0.0, seed=1)
    with pytest.raises(SolveFailedError, match="Kemeny consensus of 40 systems"):
        kemeny(table)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"method": "exact"}, InvalidOptionError, "unknown method 'exact'"),
        ({"solver": "nosuch"}, InvalidOptionError, "unknown solver 'nosuch'"),
        ({"time_limit": -1}, InvalidOptionError, "time_limit must be a positive"),
        ({"time_limit": "60"}, InvalidOptionError, "time_limit must be a number"),
        ({"enumerate_optima": -2}, InvalidOptionError, "enumerate_optima"),
        ({"enumerate_optima": True}, InvalidOptionError, "enumerate_optima"),
        ({"progress": "yes"}, InvalidOptionError, "progress must be a callable"),
    ],
)
def test_bad_options(votenrank_toy, options, error, message):
    with pytest.raises(error, match=message):
        kemeny(votenrank_toy, **options)


def test_brute_force_refuses_more_than_eight_systems():
    table = cs.datasets.gumbel_leaderboard(9, 3, seed=0)
    with pytest.raises(InvalidOptionError, match="at most 8 systems, got 9"):
        kemeny(table, method="brute_force")


def test_everything_after_the_data_is_keyword_only(votenrank_toy):
    with pytest.raises(TypeError):
        kemeny(votenrank_toy, "auto")  # type: ignore[misc]


@pytest.mark.parametrize(
    ("ranking", "error", "message"),
    [
        (["B", "C", "D", "Z"], UnknownSystemError, "unknown system 'Z'"),
        (["B", "C", "D", "D"], InvalidOptionError, "'D' appear more than once"),
        (["B", "C", "D"], InvalidOptionError, "leaves out 1 system"),
        ("BCDA", InvalidOptionError, "not a string|the string"),
    ],
)
def test_kemeny_objective_names_bad_rankings(votenrank_toy, ranking, error, message):
    with pytest.raises(error, match=message):
        kemeny_objective(votenrank_toy, ranking)


# ---------------------------------------------------------------- result object
def test_result_is_frozen_and_serializes(votenrank_toy):
    res = kemeny(votenrank_toy, enumerate_optima=5)
    assert isinstance(res, KemenyResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.objective = 0.0  # type: ignore[misc]
    doc = json.loads(json.dumps(res.to_dict()))
    assert doc["order"] == ["B", "C", "D", "A"] and doc["ranking"] == [["B"], ["C"], ["D"], ["A"]]
    assert doc["status"] == "optimal" and doc["optimal"] is True
    assert doc["optima"] == [["B", "C", "D", "A"]] and doc["components"] == [1, 1, 1, 1]
    assert res.bound == res.lower_bound and res.is_optimal
    frame = res.to_frame()
    assert list(frame.index) == ["B", "C", "D", "A"] and frame["position"].tolist() == [1, 2, 3, 4]


def test_progress_callback_and_silence(capsys):
    table = cs.datasets.gumbel_leaderboard(25, 9, phi=0.0, seed=2)
    seen = []
    res = kemeny(table, progress=seen.append)
    assert seen and seen[-1].bound <= seen[-1].incumbent and res.optimal
    assert {"stage", "component", "n_components", "round", "cuts", "incumbent", "bound", "elapsed"} <= {
        f.name for f in dataclasses.fields(seen[0])
    }
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("solver", available_backends())
def test_each_backend_solves_a_cyclic_leaderboard(solver):
    table = cs.datasets.gumbel_leaderboard(14, 5, phi=0.0, seed=5)
    res = kemeny(table, solver=solver, method="ilp", decompose=False)
    assert res.optimal and res.method == f"ilp:{solver}"
    assert res.objective == kemeny(table).objective
    assert math.isclose(res.seconds, res.seconds) and res.iterations >= 1


def test_the_repr_says_when_the_optimum_is_not_unique(cycle3, votenrank_toy):
    several = cs.kemeny(cycle3)
    assert several.unique is False and "NOT unique" in repr(several) and "enumerate_optima" in repr(several)
    listed = cs.kemeny(cycle3, enumerate_optima=10)
    assert f"({len(listed.optima)} listed in .optima)" in repr(listed) and len(listed.optima) == 3
    only = cs.kemeny(votenrank_toy)
    assert only.unique is True and "the only optimal ranking" in repr(only) and "NOT unique" not in repr(only)


def test_the_perturbation_search_reaches_the_certified_optimum_on_pure_noise():
    """The incumbent's iterated local search (random insertions) from the Borda/Copeland start reaches
    the certified optimum on every one of 8 pure-noise boards of 40 systems (segment reversals, the
    perturbation before, missed one of them; at 100 systems they left seed 101 one step above)."""
    from solvers.ordering_heuristics import _perturbation_search, heuristic_order

    for seed in range(8):
        lb = cs.datasets.gumbel_leaderboard(40, 20, phi=0.0, seed=seed)
        costs = np.asarray(cs.pairwise(lb).preferences, dtype=float)
        exact = cs.kemeny(lb, unique=False, time_limit=60)
        assert exact.optimal
        start, start_value = heuristic_order(costs)
        order, value = _perturbation_search(costs, start, start_value, iterations=40 + 10 * 40, seed=0,
                                            deadline=None, tol=1e-9)
        assert sorted(order) == list(range(40)) and value <= start_value
        assert cs.kemeny_objective(lb, [lb.systems[i] for i in order]) == value == exact.objective, seed
