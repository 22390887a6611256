"""Several Kemeny optima: what every optimum shares (``determined``), and the consensus with ties.

References are brute force over all rankings (strict) and over all weak orders (ties), for
small leaderboards with tied tasks, where several optima are common.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.cli import main
from consensus.errors import InvalidOptionError
from solvers.brute_force import brute_force_linear_ordering, brute_force_weak_ordering
from tests.strategies import score_tables


def _truth(result: cs.results.KemenyResult, lb) -> tuple:
    """Groups, flipped pairs and fixed systems of `result.order`, from every optimum (brute force)."""
    p = cs.pairwise(lb)
    optima = [tuple(p.systems[i] for i in o) for o in brute_force_linear_ordering(p.preferences).optima]
    r = result.order
    n = len(r)
    assert r in optima
    cuts = [k for k in range(1, n) if all(set(o[:k]) == set(r[:k]) for o in optima)]
    bounds = [0, *cuts, n]
    groups = tuple(tuple(r[a:b]) for a, b in zip(bounds[:-1], bounds[1:]))
    flipped = {(r[a], r[b]) for a in range(n) for b in range(a + 1, n)
               if any(o.index(r[b]) < o.index(r[a]) for o in optima)}
    fixed = {s for s in r if all(o.index(s) == r.index(s) for o in optima)}
    return groups, flipped, fixed, len(optima)


@given(score_tables(min_systems=2, max_systems=7, min_tasks=2, max_tasks=6, max_score=2), st.sampled_from(["auto", "ilp"]))
def test_determined_matches_brute_force(lb, method):
    res = cs.kemeny(lb, determine=True, method=method)
    d = res.determined
    groups, flipped, fixed, count = _truth(res, lb)
    assert d.groups == groups
    assert set(d.flipped) == flipped
    assert set(d.fixed) == fixed
    assert (count == 1) == res.unique
    if count == 1:
        assert d.solves == 0 and d.flipped == ()


@given(score_tables(min_systems=2, max_systems=6, min_tasks=2, max_tasks=6, max_score=2))
def test_enumerated_optima_determine_for_free(lb):
    """With every optimum listed, the same answer comes from the list, with no solve."""
    full = cs.kemeny(lb, enumerate_optima=1000)
    assert not full.optima_truncated
    d = full.determined
    assert d is not None and d.solves == 0
    groups, flipped, fixed, count = _truth(full, lb)
    assert (d.groups, set(d.flipped), set(d.fixed)) == (groups, flipped, fixed)
    assert count == len(full.optima)


@given(score_tables(min_systems=3, max_systems=7, min_tasks=2, max_tasks=6, max_score=2), st.randoms(use_true_random=False))
def test_two_readings_share_what_is_determined(lb, rnd):
    """Reading the systems in another order may return another optimal ranking (same objective),
    but what every optimum shares cannot change: the same groups as sets, the same fixed systems."""
    order = list(lb.systems)
    rnd.shuffle(order)
    other = cs.Leaderboard.from_frame(lb.to_frame().loc[order], keep_columns=True)
    a, b = cs.kemeny(lb, determine=True), cs.kemeny(other, determine=True)
    assert a.objective == b.objective
    pos_a = {s: k for k, s in enumerate(a.order)}
    pos_b = {s: k for k, s in enumerate(b.order)}
    spans_a = sorted((min(pos_a[s] for s in g), frozenset(g)) for g in a.determined.groups)
    spans_b = sorted((min(pos_b[s] for s in g), frozenset(g)) for g in b.determined.groups)
    assert spans_a == spans_b
    assert set(a.determined.fixed) == set(b.determined.fixed)
    assert {frozenset(p) for p in a.determined.flipped} == {frozenset(p) for p in b.determined.flipped}


def test_majority_cycle_is_one_interchangeable_group():
    cycle = cs.PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
    d = cs.kemeny(cycle, determine=True).determined
    assert d.groups == (("a", "b", "c"),)
    assert d.interchangeable() == [(1, 3, ("a", "b", "c"))]
    assert d.fixed == () and not d.determined("a", "b")


def test_unique_optimum_is_determined_for_free_by_default():
    res = cs.kemeny(cs.load_example("votenrank-toy"))
    assert res.unique and res.determined.fixed == res.order and res.determined.solves == 0
    assert cs.kemeny(cs.load_example("votenrank-toy"), determine=False).determined is None


def test_structured_leaderboard_determination_is_cheap_and_consistent():
    """phi = 0.05, N = 60 with 20 tasks (even: majority ties): groups from the proof agree with
    the optima enumerated around them, and the proof takes few solves."""
    lb = cs.datasets.gumbel_leaderboard(60, 20, phi=0.05, seed=3)
    res = cs.kemeny(lb, determine=True)
    d = res.determined
    assert not res.unique and d.solves <= 20
    listed = cs.kemeny(lb, enumerate_optima=200)
    for order in listed.optima:  # every optimum keeps each group's set in its positions
        start = 0
        for group in d.groups:
            assert set(order[start:start + len(group)]) == set(group)
            start += len(group)
    flips = {frozenset(p) for p in d.flipped}
    for a, b in itertools.combinations(res.order, 2):
        orders = {o.index(a) < o.index(b) for o in listed.optima}
        if len(orders) == 2:
            assert frozenset((a, b)) in flips  # reversed in some listed optimum: must be flipped


def test_determine_option_is_checked():
    with pytest.raises(InvalidOptionError, match="determine"):
        cs.kemeny(cs.load_example("votenrank-toy"), determine="yes")
    with pytest.raises(InvalidOptionError, match="weak_order"):
        cs.kemeny(cs.load_example("votenrank-toy"), weak_order=1)
    with pytest.raises(InvalidOptionError, match="enumerate_optima"):
        cs.kemeny(cs.load_example("votenrank-toy"), weak_order=True, enumerate_optima=3)


# ------------------------------------------------------------------ consensus with ties
def test_ties_worked_example():
    """A and B tie on three of four tasks, A wins the fourth; both beat C on three of four.

    Tying A and B costs (1 + 0) / 2 = 0.5; A above B costs 0 + 3 / 2 = 1.5. Each of A, B
    above C costs 1. So {A, B} > C costs 2.5 and the best strict ranking A > B > C 3.5.
    """
    frame = pd.DataFrame({"t1": [1, 1, 0], "t2": [1, 1, 2], "t3": [2, 1, 0], "t4": [1, 1, 0]}, index=["A", "B", "C"])
    lb = cs.Leaderboard.from_frame(frame)
    res = cs.kemeny(lb, weak_order=True)
    assert res.weak_order == (("A", "B"), ("C",))
    assert res.objective == 2.5 and res.optimal and res.lower_bound == 2.5
    assert cs.kemeny(lb).objective == 3.5
    assert cs.exact.weak_objective(lb, [["A"], ["B"], ["C"]]) == 3.5


@given(score_tables(min_systems=2, max_systems=6, min_tasks=1, max_tasks=6, max_score=2, weighted=True))
def test_ties_match_brute_force_over_weak_orders(lb):
    p = cs.pairwise(lb)
    bf = brute_force_weak_ordering(p.wins, p.ties)
    res = cs.kemeny(lb, weak_order=True)
    assert res.optimal
    assert res.objective == pytest.approx(bf.objective, abs=1e-9)
    assert res.objective == pytest.approx(cs.exact.weak_objective(lb, res.weak_order), abs=1e-12)
    optima = {tuple(frozenset(p.systems[i] for i in g) for g in o) for o in bf.optima}
    assert tuple(frozenset(g) for g in res.weak_order) in optima
    # the strict optimum never beats the weak one, and equals it when no task ties
    strict = cs.kemeny(lb, unique=False)
    assert res.objective <= strict.objective + 1e-9
    if not np.any(np.asarray(p.ties)[~np.eye(p.n_systems, dtype=bool)] > 0):
        assert res.objective == pytest.approx(strict.objective)


def test_ties_brute_force_method_agrees():
    lb = cs.load_example("votenrank-toy")
    a, b = cs.kemeny(lb, weak_order=True), cs.kemeny(lb, weak_order=True, method="brute_force")
    assert a.objective == b.objective and b.method == "brute_force"


# ------------------------------------------------------------------ CLI and report
@pytest.fixture()
def tied_file(tmp_path):
    lb = cs.datasets.gumbel_leaderboard(30, 20, phi=0.05, seed=0)
    path = tmp_path / "g30.csv"
    lb.to_frame().round(1).to_csv(path)
    return path


def test_cli_determined_says_which_positions_are_interchangeable(tied_file, capsys):
    assert main(["kemeny", str(tied_file), "--determined", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "unique optimum: no" in out
    assert "positions 2-4 are interchangeable at the optimum" in out
    assert "of 30 positions hold the same system in every optimal ranking" in out


def test_cli_enumerate_optima_lists_them(tied_file, capsys):
    assert main(["kemeny", str(tied_file), "--enumerate-optima", "3", "--quiet", "--format", "json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)["result"]
    assert len(data["optima"]) == 3 and data["optima_truncated"] is True
    objective = data["objective"]
    lb = cs.read_leaderboard(tied_file)
    for order in data["optima"]:
        assert cs.kemeny_objective(lb, order) == objective


def test_cli_ties_prints_the_weak_order(tmp_path, capsys):
    frame = pd.DataFrame({"t1": [1, 1, 0], "t2": [1, 1, 2], "t3": [2, 1, 0], "t4": [1, 1, 0]}, index=["A", "B", "C"])
    path = tmp_path / "tied.csv"
    frame.to_csv(path)
    assert main(["kemeny", str(path), "--weak-order", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ranking: A = B > C" in out and "objective: 2.5" in out


@pytest.mark.slow
@pytest.mark.xdist_group(name="serial")  # a wall-time assertion: see tests/conftest.py
def test_time_limit_stops_a_long_mip():
    """HiGHS checks its own limit only between nodes; the package interrupts the MIP at the deadline."""
    lb = cs.datasets.gumbel_leaderboard(100, 20, phi=0.0, seed=104)  # pure noise: no proof in 120 s
    res = cs.kemeny(lb, time_limit=12)
    assert res.status.value == "time_limit" and res.lower_bound <= res.objective
    assert res.seconds < 12 + 8  # HiGHS alone overran a 25 s limit by 22 s here; root cut rounds take a few s


@given(score_tables(min_systems=2, max_systems=6, min_tasks=2, max_tasks=6, max_score=2))
def test_brute_force_method_determines_from_every_optimum(lb):
    exact = cs.kemeny(lb, method="brute_force", determine=True)
    groups, flipped, fixed, _ = _truth(exact, lb)
    d = exact.determined
    assert (d.groups, set(d.flipped), set(d.fixed), d.solves) == (groups, flipped, fixed, 0)


def test_tied_systems_share_a_position_in_frame_table_and_csv(tmp_path, capsys):
    frame = pd.DataFrame({"t1": [1, 1, 0], "t2": [1, 1, 2], "t3": [2, 1, 0], "t4": [1, 1, 0]}, index=["A", "B", "C"])
    res = cs.kemeny(cs.Leaderboard.from_frame(frame), weak_order=True)
    assert res.to_frame()["position"].to_dict() == {"A": 1, "B": 1, "C": 3}
    path = tmp_path / "tied.csv"
    frame.to_csv(path)
    assert main(["kemeny", str(path), "--weak-order", "--quiet", "--format", "csv"]) == 0
    assert capsys.readouterr().out.split() == ["position,system", "1,A", "1,B", "3,C"]


def test_the_hint_to_find_the_shared_positions_speaks_the_callers_language(tmp_path, capsys):
    """Several optima: the API names cs.kemeny(..., determine=True), the command line consensus kemeny --determined."""
    from consensus.report.sections import optima_lines

    path = tmp_path / "cycle.csv"
    path.write_text("model,t1,t2,t3\na,3,1,2\nb,2,3,1\nc,1,2,3\n", encoding="utf-8")
    lb = cs.read_leaderboard(path)
    assert "; cs.kemeny(..., determine=True) shows which positions every optimum shares" in optima_lines(cs.kemeny(lb))[0]
    assert main(["analyze", str(path), "--quiet", "--no-prospective"]) == 0
    out = capsys.readouterr().out
    assert "consensus kemeny --determined shows which positions" in out and "consensus kemeny --determined says which" in out
    assert "determine=True" not in out
