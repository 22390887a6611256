"""Missing-score policies inside the rules: impute for every positional/iterative rule, median,
unranked systems of the geometric mean, min_coverage, and the "auto" mapping (issue 10)."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus import Leaderboard, rules
from consensus.errors import (
    InvalidOptionError,
    MissingScoreError,
    NonPositiveScoreError,
)
from consensus.missing._impute import (
    impute_pairwise,
    order_statistic_table,
    partial_ranking_matrix,
    position_distribution,
)
from consensus.rules import iterative, positional
from consensus.rules.imputed import expected_points, expected_position_counts
from consensus.rules.registry import RULES, auto_missing
from tests.strategies import score_tables

POSITIONAL = ("plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision")
ITERATIVE = ("threshold", "baldwin")
OPTIONS = {"scoring": {"vector": (3.0, 1.0)}, "kemeny": {"method": "brute_force"}, "bradley_terry": {"prior": 0.5}}


def _board(frame: pd.DataFrame, **kwargs) -> Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return Leaderboard.from_frame(frame, **kwargs)


@pytest.fixture
def holes() -> Leaderboard:
    # t1: a > b, c unscored; t2: c > b > a
    frame = pd.DataFrame({"t1": [3.0, 2.0, np.nan], "t2": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    return _board(frame)


# ====================================================================== the position distribution
def _brute_force(x: list[float], ties: str) -> np.ndarray:
    """Enumerate the complete rankings compatible with the weak order of the scored systems."""
    n = len(x)
    scored = [i for i in range(n) if not math.isnan(x[i])]
    dist = np.zeros((n, n))
    total = 0
    for perm in itertools.permutations(range(n)):  # perm[p] = system at position p + 1
        pos = {s: p for p, s in enumerate(perm)}
        if any(x[i] > x[j] and pos[i] > pos[j] for i in scored for j in scored):
            continue
        total += 1
        for i in range(n):
            if i in scored and ties != "average":
                group = [pos[j] for j in scored if x[j] == x[i]]
                dist[i, min(group) if ties == "min" else max(group)] += 1
            else:
                dist[i, pos[i]] += 1
    return dist / total


@st.composite
def partial_columns(draw):
    n = draw(st.integers(1, 6))
    cells = st.one_of(st.integers(0, 3).map(float), st.just(float("nan")))
    x = draw(st.lists(cells, min_size=n, max_size=n))
    if all(math.isnan(v) for v in x):
        x[draw(st.integers(0, n - 1))] = 1.0
    return x


@given(partial_columns(), st.sampled_from(["average", "min", "max"]))
def test_position_distribution_matches_brute_force_enumeration(x, ties):
    got = position_distribution(x, ties=ties)
    assert got == pytest.approx(_brute_force(x, ties), abs=1e-12)
    assert got.sum(axis=1) == pytest.approx(np.ones(len(x)))


@given(partial_columns())
def test_expected_position_is_one_plus_the_imputed_systems_above(x):
    n = len(x)
    dist = position_distribution(x)
    expected_pos = dist @ np.arange(1, n + 1)
    assert n - expected_pos == pytest.approx(partial_ranking_matrix(x).sum(axis=1), abs=1e-12)


def test_order_statistic_table_closed_form():
    # N = 5, k = 3: P(rank 2 at position p) = C(p-1, 1) C(5-p, 1) / C(5, 3)
    h = order_statistic_table(5, 3)
    assert h[1].tolist() == pytest.approx([0.0, 3 / 10, 4 / 10, 3 / 10, 0.0])
    assert np.array_equal(order_statistic_table(4, 4), np.eye(4))
    with pytest.raises(InvalidOptionError, match="n_scored"):
        order_statistic_table(3, 0)


def test_position_distribution_unscored_is_uniform_and_ties_average():
    # a, b tied above c; d unscored: a and b share ranks 1-2 among 3 scored out of 4
    dist = position_distribution([2.0, 2.0, 1.0, np.nan])
    assert dist[3].tolist() == pytest.approx([0.25] * 4)
    h = order_statistic_table(4, 3)
    assert dist[0].tolist() == pytest.approx(((h[0] + h[1]) / 2).tolist())
    assert dist[2].tolist() == pytest.approx(h[2].tolist())


# ====================================================================== impute: complete data
@given(score_tables(weighted=True), st.sampled_from(["average", "min", "max"]))
def test_imputed_cores_on_complete_data_give_the_ordinary_result(lb, ties):
    for rule in POSITIONAL:
        spec = positional._SPECS[rule]
        opts = {"ties": ties, **OPTIONS.get(rule, {})}
        if rule == "scoring" and lb.n_systems < 2:
            continue
        imputed = spec.core(lb, opts, True).scores
        assert imputed.tolist() == pytest.approx(spec.core(lb, opts, False).scores.tolist(), abs=1e-9)
    thr = iterative._SPECS["threshold"]
    plain, imp = thr.core(lb, {"ties": ties}, False), thr.core(lb, {"ties": ties}, True)
    assert imp.ranking == plain.ranking
    assert imp.scores.tolist() == pytest.approx(plain.scores.tolist(), abs=1e-9)
    bal = iterative._SPECS["baldwin"]
    plain, imp = bal.core(lb, {"ties": "average"}, False), bal.core(lb, {"ties": "average"}, True)
    assert imp.scores.tolist() == plain.scores.tolist()


@given(score_tables(weighted=True, missing=True))
def test_expected_borda_points_are_the_imputed_pairwise_row_sums(lb):
    c = positional.scoring_vector("borda", lb.n_systems)
    points = expected_points(lb, c) @ lb.weights.to_numpy()
    assert points.tolist() == pytest.approx(impute_pairwise(lb).scores.tolist(), abs=1e-9)
    counts = expected_position_counts(lb)
    assert counts.sum(axis=1) == pytest.approx(np.full(lb.n_systems, lb.weights.sum()))
    if lb.has_missing:
        assert cs.rank(lb, "borda", missing="impute", ties="min").preparation.missing == "impute"


@given(score_tables(weighted=True, missing=True), st.sampled_from(["average", "min", "max"]))
def test_expected_points_and_counts_sum_the_position_distributions(lb, ties):
    w = lb.weights.to_numpy()
    dists = [position_distribution(lb.values[:, t], ties=ties) for t in range(lb.n_tasks)]
    counts = sum(wt * d for wt, d in zip(w, dists))
    assert expected_position_counts(lb, ties) == pytest.approx(counts, abs=1e-12)
    c = positional.scoring_vector("dowdall", lb.n_systems)
    points = np.column_stack([d @ c for d in dists])
    assert expected_points(lb, c, ties) == pytest.approx(points, abs=1e-12)


# ====================================================================== impute: hand examples
def test_impute_plurality_and_dowdall_by_hand(holes):
    # t1: compatible rankings of (a > b) among 3 are cab, acb, abc: a is first in 2 of 3,
    # c first in 1 of 3; t2: c first.
    res = cs.rank(holes, "plurality", missing="impute")
    assert res.scores.to_dict() == pytest.approx({"a": 2 / 3, "b": 0.0, "c": 4 / 3})
    assert res.ranking == (("c",), ("a",), ("b",))
    assert res.preparation.missing == "impute" and "compatible" in res.preparation.treatment
    # Dowdall: a on t1 at 1 (2/3) or 2 (1/3): 5/6; b at 2 (1/3) or 3 (2/3): 7/18; c uniform: 11/18
    dow = cs.rank(holes, "dowdall", missing="impute")
    assert dow.scores.to_dict() == pytest.approx({"a": 5 / 6 + 1 / 3, "b": 7 / 18 + 1 / 2, "c": 11 / 18 + 1})


def test_impute_threshold_by_hand(holes):
    # expected position weights (positions 1, 2, 3): a: t1 (2/3, 1/3, 0) + t2 last;
    # b: t1 (0, 1/3, 2/3) + t2 second; c: t1 (1/3, 1/3, 1/3) + t2 first.
    res = cs.rank(holes, "threshold", missing="impute")
    # first vector (1, 1, 0): weight not last: a 1, b 4/3, c 5/3
    assert res.scores.to_dict() == pytest.approx({"a": 1.0, "b": 4 / 3, "c": 5 / 3})
    assert res.ranking == (("c",), ("b",), ("a",))
    assert "imputation" in res.details


def test_impute_baldwin_runs_on_the_imputed_matrix(holes):
    pref = impute_pairwise(holes).matrix.wins  # a: 2/3+... ; row sums are the imputed Borda
    res = cs.rank(holes, "baldwin", missing="impute")
    first = res.details["rounds"][0]["scores"]
    assert [first[s] for s in holes.systems] == pytest.approx(pref.sum(axis=1).tolist())
    # imputed Borda: a = 1 + 2/3 + 0 = 5/3, b = 0 + 1/3 + 1 = 4/3, c = 1/3 + 2/3 + 2 = 3
    assert [first[s] for s in holes.systems] == pytest.approx([5 / 3, 4 / 3, 3.0])
    assert res.details["rounds"][0]["eliminated"] == ("b",)
    # round 2, a vs c: pref[a, c] = 2/3 + 0 (t2: c above a), pref[c, a] = 1/3 + 1
    assert res.winners == ("c",)
    with pytest.raises(InvalidOptionError, match="ties='average'"):
        cs.rank(holes, "baldwin", missing="impute", ties="min")


@pytest.mark.parametrize("rule", POSITIONAL + ITERATIVE)
def test_every_positional_and_iterative_rule_imputes(rule, holes):
    res = cs.rank(holes, rule, missing="impute", **OPTIONS.get(rule, {}))
    assert res.preparation.missing == "impute" and res.preparation.n_missing_cells == 1
    assert set(res.order) == {"a", "b", "c"}
    two = cs.rank(holes.with_groups({"g1": ["t1"], "g2": ["t2"]}), rule, missing="impute", two_step=True,
                  **OPTIONS.get(rule, {}))
    assert set(two.order) == {"a", "b", "c"}


@pytest.mark.parametrize("rule", ["mean", "geometric_mean", "optimality_gap"])
def test_score_baselines_refuse_impute_and_point_to_median(rule, holes):
    with pytest.raises(InvalidOptionError, match=r"cannot use missing='impute'.*pass missing='median'"):
        cs.rank(holes, rule, missing="impute")
    with pytest.raises(MissingScoreError, match=r"pass missing='median', 'drop_tasks' or 'drop_systems'"):
        cs.rank(holes, rule)


# ====================================================================== median
def test_median_fill_by_hand():
    frame = pd.DataFrame(
        {"t1": [0.9, 0.5, 0.7, np.nan], "t2": [0.2, np.nan, 0.4, 0.6]}, index=["a", "b", "c", "d"]
    )
    lb = _board(frame)
    res = cs.rank(lb, "mean", missing="median")
    # t1 median of (0.9, 0.5, 0.7) = 0.7 for d; t2 median of (0.2, 0.4, 0.6) = 0.4 for b
    assert res.scores.to_dict() == pytest.approx({"a": 0.55, "b": 0.45, "c": 0.55, "d": 0.65})
    assert res.preparation.missing == "median" and res.preparation.n_missing_cells == 2
    assert res.preparation.medians == pytest.approx({"t1": 0.7, "t2": 0.4})
    assert "2 missing cell(s)" in res.preparation.treatment
    borda = cs.rank(lb, "borda", missing="median")  # t1: a c=d b, t2: d c=b a
    assert borda.scores.to_dict() == pytest.approx({"a": 3.0, "b": 1.5, "c": 3.0, "d": 4.5})


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_accepts_median(rule, holes):
    res = cs.rank(holes, rule, missing="median", **OPTIONS.get(rule, {}))
    assert res.preparation.missing == "median" and res.preparation.n_missing_cells == 1
    assert set(res.order) == {"a", "b", "c"}


def test_median_on_lower_is_better_tasks():
    frame = pd.DataFrame({"err": [1.0, 3.0, 2.0, np.nan], "acc": [0.1, 0.2, 0.3, 0.4]}, index=list("abcd"))
    lb = _board(frame, lower_is_better=["err"])
    res = cs.rank(lb, "mean", missing="median")
    assert res.preparation.medians == {"err": 2.0}
    assert res.scores["d"] == pytest.approx((-2.0 + 0.4) / 2)


# ====================================================================== geometric mean: unranked
def test_geometric_mean_unranks_systems_with_a_non_positive_score():
    frame = pd.DataFrame({"t1": [4.0, 1.0, 0.0, 2.0], "t2": [1.0, 4.0, 5.0, -1.0]}, index=list("abcd"))
    res = rules.geometric_mean(_board(frame))
    assert res.ranking == (("a", "b"), ("c", "d"))
    assert res.details["unranked"] == ("c", "d")
    assert res.scores[["a", "b"]].tolist() == pytest.approx([2.0, 2.0])
    assert np.isnan(res.scores["c"]) and np.isnan(res.scores["d"])
    assert res.winners == ("a", "b")


def test_geometric_mean_refuses_only_when_fewer_than_two_are_rankable():
    frame = pd.DataFrame({"t1": [4.0, 0.0, 1.0], "t2": [1.0, 4.0, -2.0]}, index=list("abc"))
    with pytest.raises(NonPositiveScoreError, match="task 't1' has 0.0 for system"):
        rules.geometric_mean(_board(frame))
    # a zero on a zero-weight task does not count
    assert rules.geometric_mean(_board(frame, weights={"t1": 1.0, "t2": 0.0})).details.get("unranked") == ("b",)


def test_geometric_mean_after_median_fill():
    frame = pd.DataFrame({"t1": [4.0, 1.0, np.nan], "t2": [1.0, 4.0, 9.0]}, index=list("abc"))
    res = cs.rank(_board(frame), "geometric_mean", missing="median")  # c gets 2.5 on t1
    assert res.scores.to_dict() == pytest.approx({"a": 2.0, "b": 2.0, "c": math.sqrt(2.5 * 9.0)})


# ====================================================================== min_coverage
def test_min_coverage_drops_low_coverage_systems_and_records_them():
    frame = pd.DataFrame(
        {"t1": [0.9, 0.5, 0.7, 0.99], "t2": [0.8, 0.6, 0.5, np.nan], "t3": [0.7, 0.4, 0.6, np.nan]},
        index=["a", "b", "c", "x"],
    )
    lb = _board(frame)
    res = cs.rank(lb, "copeland", min_coverage=0.5)
    assert res.systems == ("a", "b", "c")
    info = res.preparation
    assert info.min_coverage == 0.5 and info.set_aside == ("x",)
    assert info.coverage == pytest.approx({"x": 1 / 3}) and "'x' (1/3 tasks, 33% of the weight, 3/3 rivals)" in info.notes[0]
    assert res.options["min_coverage"] == 0.5
    assert res.preparation.n_missing_cells == 0  # the policy sees the filtered board
    assert cs.rank(lb, "borda", min_coverage=0.5).winners == ("a",)
    assert cs.rank(lb, "copeland", min_coverage=1 / 3).preparation.set_aside == ()
    with pytest.raises(InvalidOptionError, match="would leave 1 system"):
        cs.rank(lb.select(systems=["a", "x"]), "copeland", min_coverage=0.5)
    with pytest.raises(InvalidOptionError, match=r"min_coverage must be in \[0, 1\]"):
        cs.rank(lb, "copeland", min_coverage=1.5)
    with pytest.raises(InvalidOptionError, match="needs a Leaderboard"):
        cs.rank(cs.pairwise(lb), "copeland", min_coverage=0.5)


def test_min_coverage_drops_tasks_only_the_dropped_systems_scored():
    frame = pd.DataFrame({"t1": [0.9, 0.5, np.nan], "t2": [0.8, 0.6, np.nan], "t3": [np.nan, np.nan, 1.0]},
                         index=["a", "b", "x"])
    res = cs.rank(_board(frame), "borda", min_coverage=0.5)
    assert res.preparation.set_aside_tasks == ("t3",)
    assert res.scores.to_dict() == {"a": 2.0, "b": 0.0}


# ====================================================================== auto
def test_auto_missing_policy_per_rule():
    expected = {rule: "impute" for rule in POSITIONAL + ITERATIVE}
    expected.update({r: None for r in ("condorcet", "copeland", "minimax", "kemeny")})
    expected.update({r: None for r in ("mean_win_rate", "bradley_terry", "schulze", "ranked_pairs")})
    expected.update({r: "median" for r in ("mean", "geometric_mean", "optimality_gap", "normalized_mean")})
    assert {r: auto_missing(r) for r in RULES} == expected
    with pytest.raises(InvalidOptionError, match="unknown rule"):
        auto_missing("bordda")
    assert rules.MISSING_POLICIES == (None, "drop_tasks", "drop_systems", "impute", "median")


@pytest.mark.parametrize("rule", list(RULES))
def test_auto_policy_runs_every_rule_on_a_board_with_holes(rule, holes):
    res = cs.rank(holes, rule, missing=auto_missing(rule), **OPTIONS.get(rule, {}))
    assert res.preparation.missing == auto_missing(rule)
    assert res.preparation.n_missing_cells == 1
