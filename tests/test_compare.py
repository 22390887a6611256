"""Kendall distances and tau with ties, agreement, dispersion, and the rule comparison table."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.comparison._compare import compare_rules
from consensus.comparison._distances import (
    as_tiers,
    kendall_tau,
    kendall_tau_distance,
    rank_changes,
    ranking_positions,
    top_k_agreement,
)
from consensus.comparison._task_distances import (
    ranking_objective,
    task_dispersion,
    task_distance,
    task_distances,
    task_rankings,
)
from consensus.errors import InvalidOptionError, UnknownSystemError
from tests.strategies import score_tables


# ---------------------------------------------------------------- helpers (independent references)
@st.composite
def tiered_rankings(draw, systems=("a", "b", "c", "d", "e", "f")):
    """A ranking with ties of a random subset of `systems` (at least 2), as tier lists."""
    n = draw(st.integers(2, len(systems)))
    chosen = list(systems[:n])
    levels = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return _tiers_from_levels(chosen, levels)


def _tiers_from_levels(systems, levels):
    """Lower level = better; equal levels tie."""
    return tuple(tuple(s for s, lv in zip(systems, levels) if lv == v) for v in sorted(set(levels)))


def _levels(tiers):
    return {s: k for k, group in enumerate(tiers) for s in group}


def _naive_distance(a, b, p=0.5):
    la, lb = _levels(a), _levels(b)
    total = 0.0
    for x, y in itertools.combinations(sorted(la), 2):
        sa = np.sign(la[x] - la[y])
        sb = np.sign(lb[x] - lb[y])
        if sa * sb < 0:
            total += 1
        elif (sa == 0) != (sb == 0):
            total += p
    return total


def _kemeny_cost(pairs, order):
    pref = pairs.preferences
    idx = [pairs.index(s) for s in order]
    return sum(pref[idx[j], idx[i]] for i in range(len(idx)) for j in range(i + 1, len(idx)))


def _brute_kemeny(pairs):
    return min((_kemeny_cost(pairs, perm), perm) for perm in itertools.permutations(pairs.systems))


def _linear_extensions(tiers):
    for parts in itertools.product(*(itertools.permutations(g) for g in tiers)):
        yield tuple(s for part in parts for s in part)


# ---------------------------------------------------------------- rankings
def test_as_tiers_accepts_labels_groups_sets_and_results(votenrank_toy):
    assert as_tiers(["b", ("a", "c"), "d"]) == (("b",), ("a", "c"), ("d",))
    assert as_tiers([frozenset({"c", "a"}), "b"]) == (("a", "c"), ("b",))
    assert as_tiers(cs.rank(votenrank_toy, "plurality")) == (("A",), ("B", "C", "D"))


@pytest.mark.parametrize(
    "bad, match",
    [("abc", r"the string 'abc'"), (["a", ("b", "a")], r"system 'a' appears twice"), (["a", ()], "empty tie group")],
)
def test_as_tiers_rejects_malformed_rankings(bad, match):
    with pytest.raises(InvalidOptionError, match=match):
        as_tiers(bad)


def test_positions_are_competition_positions():
    assert ranking_positions(["x", ("a", "b", "c"), "y"]) == {"x": 1, "a": 2, "b": 2, "c": 2, "y": 5}


# ---------------------------------------------------------------- Kendall distance and tau
def test_kendall_distance_counts_inversions_of_strict_rankings():
    assert kendall_tau_distance(list("abcd"), list("abcd")) == 0.0
    assert kendall_tau_distance(list("abcd"), list("dcba")) == 6.0
    assert kendall_tau_distance(list("abcd"), list("bacd")) == 1.0
    assert kendall_tau_distance(list("abcd"), list("dcba"), normalize=True) == 1.0


def test_kendall_distance_tie_penalty():
    # a-b tied in one ranking only: costs p; tied in both: costs 0
    assert kendall_tau_distance([("a", "b"), "c"], ["a", "b", "c"]) == 0.5
    assert kendall_tau_distance([("a", "b"), "c"], ["a", "b", "c"], tie_penalty=1.0) == 1.0
    assert kendall_tau_distance([("a", "b"), "c"], [("b", "a"), "c"]) == 0.0
    with pytest.raises(InvalidOptionError, match=r"tie_penalty must be a number in \[0, 1\]"):
        kendall_tau_distance(["a", "b"], ["a", "b"], tie_penalty=2)


def test_kendall_distance_needs_the_same_systems():
    with pytest.raises(UnknownSystemError, match=r"unknown system 'z'"):
        kendall_tau_distance(["a", "b", "z"], ["a", "b", "c"])


@given(tiered_rankings(), st.data())
def test_kendall_distance_matches_a_pair_loop(a, data):
    systems = [s for g in a for s in g]
    levels = data.draw(st.lists(st.integers(0, 3), min_size=len(systems), max_size=len(systems)))
    b = _tiers_from_levels(systems, levels)
    for p in (0.0, 0.5, 1.0):
        assert kendall_tau_distance(a, b, tie_penalty=p) == pytest.approx(_naive_distance(a, b, p))
    assert kendall_tau_distance(a, b) == kendall_tau_distance(b, a)


@given(tiered_rankings(), st.data())
def test_kendall_distance_with_half_penalty_is_a_metric(a, data):
    systems = [s for g in a for s in g]
    draw_levels = st.lists(st.integers(0, 3), min_size=len(systems), max_size=len(systems))
    b = _tiers_from_levels(systems, data.draw(draw_levels))
    c = _tiers_from_levels(systems, data.draw(draw_levels))
    assert kendall_tau_distance(a, a) == 0.0
    assert kendall_tau_distance(a, c) <= kendall_tau_distance(a, b) + kendall_tau_distance(b, c) + 1e-12


@given(tiered_rankings(), st.data())
def test_kendall_tau_is_scipys_tau_b(a, data):
    systems = [s for g in a for s in g]
    b = _tiers_from_levels(systems, data.draw(st.lists(st.integers(0, 3), min_size=len(systems), max_size=len(systems))))
    la, lb = _levels(a), _levels(b)
    expected = scipy.stats.kendalltau([la[s] for s in systems], [lb[s] for s in systems], variant="b").statistic
    got = kendall_tau(a, b)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected)


def test_kendall_tau_known_values():
    assert kendall_tau(list("abc"), list("abc")) == 1.0
    assert kendall_tau(list("abc"), list("cba")) == -1.0
    assert math.isnan(kendall_tau([("a", "b", "c")], list("abc")))  # all tied: undefined


# ---------------------------------------------------------------- top-k / least-k agreement
def test_top_k_agreement_strict_rankings_is_the_overlap_share():
    a, b = list("abcdef"), list("bacfed")
    assert top_k_agreement(a, b, 1) == 0.0
    assert top_k_agreement(a, b, 2) == 1.0
    assert top_k_agreement(a, b, 3) == 1.0
    assert top_k_agreement(a, b, 1, least=True) == 0.0  # f vs d
    assert top_k_agreement(a, b, 3, least=True) == 1.0
    assert top_k_agreement(a, b, 6) == 1.0


def test_top_k_agreement_splits_a_straddling_tie_group():
    # {a, b} tied for first: each is half in the top 1
    assert top_k_agreement([("a", "b"), "c"], ["a", "b", "c"], 1) == 0.5
    assert top_k_agreement([("a", "b"), "c"], [("b", "a"), "c"], 1) == 1.0  # identical
    with pytest.raises(InvalidOptionError, match=r"k must be an integer between 1 and 3"):
        top_k_agreement(list("abc"), list("abc"), 4)


@given(tiered_rankings(), st.data())
def test_top_k_agreement_properties(a, data):
    systems = [s for g in a for s in g]
    b = _tiers_from_levels(systems, data.draw(st.lists(st.integers(0, 3), min_size=len(systems), max_size=len(systems))))
    k = data.draw(st.integers(1, len(systems)))
    value = top_k_agreement(a, b, k)
    assert 0.0 <= value <= 1.0 + 1e-12
    assert value == pytest.approx(top_k_agreement(b, a, k))
    assert top_k_agreement(a, a, k) == pytest.approx(1.0)
    assert top_k_agreement(a, b, len(systems)) == pytest.approx(1.0)
    assert top_k_agreement(a, b, k, least=True) == pytest.approx(top_k_agreement(a[::-1], b[::-1], k))
    if all(len(g) == 1 for g in a) and all(len(g) == 1 for g in b):
        top_a = {g[0] for g in a[:k]}
        top_b = {g[0] for g in b[:k]}
        assert value == pytest.approx(len(top_a & top_b) / k)


# ---------------------------------------------------------------- rank changes
def test_rank_changes_are_baseline_minus_position():
    changes = rank_changes({"mean": list("abcd"), "rule": ["d", ("a", "b"), "c"]})
    assert changes["rule"].to_dict() == {"a": -1, "b": 0, "c": -1, "d": 3}
    assert (changes["mean"] == 0).all()
    with pytest.raises(InvalidOptionError, match="baseline 'borda'"):
        rank_changes({"mean": list("ab")}, baseline="borda")


# ---------------------------------------------------------------- Kemeny objective of a ranking
def test_ranking_objective_of_the_toy(votenrank_toy):
    assert ranking_objective(votenrank_toy, ["B", "C", "D", "A"]) == 12.0
    # ties: half of the five tasks comparing C and D
    assert ranking_objective(votenrank_toy, ["B", ("C", "D"), "A"]) == 12.5
    with pytest.raises(InvalidOptionError, match=r"leaves out system\(s\) 'D'"):
        ranking_objective(votenrank_toy, ["B", "C", "A"])
    with pytest.raises(UnknownSystemError, match="unknown system 'Z'"):
        ranking_objective(votenrank_toy, ["B", "C", "A", "D", "Z"])


@given(score_tables(weighted=True, missing=True, max_systems=5, max_tasks=4), st.data())
def test_ranking_objective_is_the_mean_over_tie_breaks(table, data):
    pairs = cs.pairwise(table)
    levels = data.draw(st.lists(st.integers(0, 2), min_size=table.n_systems, max_size=table.n_systems))
    tiers = _tiers_from_levels(table.systems, levels)
    costs = [_kemeny_cost(pairs, order) for order in _linear_extensions(tiers)]
    assert ranking_objective(table, tiers) == pytest.approx(sum(costs) / len(costs))
    assert ranking_objective(table, tiers) >= _brute_kemeny(pairs)[0] - 1e-9


# ---------------------------------------------------------------- distance to the task rankings
def test_task_rankings_keep_ties_and_skip_missing():
    frame = pd.DataFrame({"t": [1.0, 3.0, 1.0, np.nan], "u": [2.0, 1.0, 0.0, 5.0]}, index=list("abcd"))
    lb = cs.Leaderboard.from_frame(frame, lower_is_better=["u"])
    rankings = task_rankings(lb)
    assert rankings["t"] == (("b",), ("a", "c"))
    assert rankings["u"] == (("c",), ("b",), ("a",), ("d",))


@given(score_tables(weighted=True, missing=True, max_systems=5, max_tasks=4), st.data())
def test_task_distance_is_the_weighted_sum_of_per_task_distances(table, data):
    levels = data.draw(st.lists(st.integers(0, 3), min_size=table.n_systems, max_size=table.n_systems))
    tiers = _tiers_from_levels(table.systems, levels)
    per_task = task_distances(table, tiers)
    # independent: restrict the ranking to the systems each task scores, loop over pairs
    rankings = task_rankings(table)
    expected = 0.0
    for task, task_tiers in rankings.items():
        scored = {s for g in task_tiers for s in g}
        restricted = tuple(g for g in (tuple(s for s in group if s in scored) for group in tiers) if g)
        d = _naive_distance(restricted, task_tiers) if len(scored) > 1 else 0.0
        assert per_task[task] == pytest.approx(d)
        expected += table.weights[task] * d
    assert task_distance(table, tiers) == pytest.approx(expected)


@given(score_tables(weighted=True, missing=True, max_systems=5, max_tasks=4))
def test_task_distance_of_a_strict_ranking_is_its_kemeny_objective(table):
    pairs = cs.pairwise(table)
    for order in itertools.islice(itertools.permutations(table.systems), 6):
        assert task_distance(table, order) == pytest.approx(_kemeny_cost(pairs, order))
        assert ranking_objective(table, order) == pytest.approx(_kemeny_cost(pairs, order))


def test_task_dispersion_of_the_toy(votenrank_toy):
    # every pair of systems: 3 tasks one way, 2 the other; 2 * 3 * 2 / 5^2 per pair, 6 pairs
    assert task_dispersion(votenrank_toy) == pytest.approx(6 * 12 / 25)


@given(score_tables(weighted=True, missing=True, max_systems=5, max_tasks=4))
def test_task_dispersion_is_the_weighted_mean_distance_between_task_rankings(table):
    rankings = task_rankings(table)
    p = table.normalized_weights
    expected = 0.0
    for t, u in itertools.product(table.tasks, repeat=2):
        common = {s for g in rankings[t] for s in g} & {s for g in rankings[u] for s in g}
        rt = tuple(g for g in (tuple(s for s in grp if s in common) for grp in rankings[t]) if g)
        ru = tuple(g for g in (tuple(s for s in grp if s in common) for grp in rankings[u]) if g)
        expected += p[t] * p[u] * (_naive_distance(rt, ru) if len(common) > 1 else 0.0)
    assert task_dispersion(table) == pytest.approx(expected)


@st.composite
def strict_complete_tables(draw):
    n = draw(st.integers(2, 5))
    m = draw(st.integers(1, 5))
    cols = {f"t{j}": draw(st.permutations(range(n))) for j in range(m)}
    frame = pd.DataFrame(cols, index=[f"s{i}" for i in range(n)]).astype(float)
    return cs.Leaderboard.from_frame(frame)


@given(strict_complete_tables())
def test_kemeny_distance_lies_between_half_and_all_of_the_dispersion(table):
    # Colombo et al. 2022, appendix C, Remark 2 (empirical version, exact by the triangle inequality)
    optimum, order = _brute_kemeny(cs.pairwise(table))
    mean_distance = task_distance(table, order) / float(table.weights.sum())
    dispersion = task_dispersion(table)
    assert 0.5 * dispersion - 1e-9 <= mean_distance <= dispersion + 1e-9


@given(st.lists(st.integers(0, 6), max_size=70))
def test_inversion_count_matches_the_pair_loop(values):
    from consensus.comparison._distances import _strict_inversions

    naive = sum(1 for i, j in itertools.combinations(range(len(values)), 2) if values[i] > values[j])
    assert _strict_inversions(np.array(values, dtype=np.int64)) == naive


def test_kendall_measures_on_a_long_tied_ranking_match_scipy():
    rng = np.random.default_rng(7)
    labels = [f"s{i}" for i in range(400)]
    la, lb = rng.integers(0, 60, 400), rng.integers(0, 60, 400)
    a = _tiers_from_levels(labels, la.tolist())
    b = _tiers_from_levels(labels, lb.tolist())
    assert kendall_tau(a, b) == pytest.approx(scipy.stats.kendalltau(la, lb).statistic)
    assert kendall_tau_distance(a, b) == pytest.approx(_naive_distance(a, b))


# ---------------------------------------------------------------- consistency with consensus.kemeny (issue 4)
@given(score_tables(weighted=True, missing=True, max_systems=6, max_tasks=4), st.data())
def test_ranking_objective_agrees_with_kemeny_objective_and_the_optimum(table, data):
    order = data.draw(st.permutations(table.systems))
    assert ranking_objective(table, order) == pytest.approx(cs.kemeny_objective(table, order))
    result = cs.kemeny(table, min_coverage=0)  # the board as drawn, every system
    assert ranking_objective(table, result.order) == pytest.approx(result.objective)
    assert result.objective == pytest.approx(_brute_kemeny(cs.pairwise(table))[0])
    assert task_distance(table, result.order) == pytest.approx(result.objective)


@pytest.mark.slow
@given(score_tables(max_systems=6, max_tasks=5))
def test_compare_gaps_are_never_negative_and_the_reference_row_is_exact(table):
    comp = compare_rules(table, rules=["mean", "borda", "plurality", "copeland", "minimax"])
    ok = comp.table[comp.table["status"] != "failed"]
    assert (ok["gap"] >= -1e-9).all() and (ok["gap_ratio"] >= 1 - 1e-9).all()
    kem = comp.table.loc["kemeny"]
    assert (kem["kendall_tau"] == 1.0 or table.n_systems < 2, kem["kendall_distance"], kem["gap"]) == (True, 0.0, 0.0)
    for rule, tiers in comp.rankings.items():
        row = comp.table.loc[rule]
        assert row["kendall_distance"] == pytest.approx(kendall_tau_distance(tiers, comp.kemeny.order))
        assert row["objective"] == pytest.approx(ranking_objective(table, tiers))
        assert row["tie_groups"] == len(tiers)


# ---------------------------------------------------------------- missing scores and coverage
@pytest.fixture
def holey():
    frame = pd.DataFrame(
        {"t1": [1.0, 2.0, 3.0, 4.0, 2.5], "t2": [2.0, 1.0, None, 3.0, 4.0], "t3": [3.0, 3.5, 1.0, 2.0, None]},
        index=["a", "b", "c", "d", "e"],
    )
    return cs.Leaderboard.from_frame(frame)


def test_a_drop_systems_rule_option_reports_instead_of_raising(holey):
    table = cs.compare(holey, rules=["mean"], rule_options={"mean": {"missing": "drop_systems"}})
    row = table.loc["mean"]
    assert row["status"] == "ok" and row["winner"] == "d"
    assert row["note"] == "ranks 3 of 5 systems (left out: 'c', 'e'); measured on those"
    kem = cs.kemeny(holey).order
    restricted = tuple(s for s in kem if s in {"a", "b", "d"})
    assert row["kendall_tau"] == pytest.approx(kendall_tau(cs.rank(holey, "mean", missing="drop_systems"), restricted))
    sub = cs.pairwise(holey).select(["a", "b", "d"])
    assert row["objective"] == pytest.approx(ranking_objective(sub, cs.rank(holey, "mean", missing="drop_systems")))
    comp = compare_rules(holey, rules=["mean"], rule_options={"mean": {"missing": "drop_systems"}})
    assert comp.preparations["mean"].missing == "drop_systems"
    assert comp.preparations["mean"].dropped_systems == ("c", "e")
    assert comp.chosen_by["mean"] == "rule_options"
    positions = comp.positions()
    assert positions["mean"].isna().tolist() == [s in ("c", "e") for s in positions.index]
    changes = comp.to_dict()["rank_changes"]
    assert changes["mean"]["c"] is None and changes["kemeny"]["c"] is None
    assert comp.to_dict()["preparations"]["mean"]["dropped_systems"] == ["c", "e"]


def test_compare_runs_every_rule_on_holes_and_records_the_policies(holey):
    comp = compare_rules(holey)
    assert not comp.errors
    assert {r: comp.preparations[r].missing for r in ("mean", "borda", "copeland", "kemeny")} == {
        "mean": "median", "borda": "impute", "copeland": None, "kemeny": None,
    }
    assert all(how == "auto" for how in comp.chosen_by.values())
    strict = compare_rules(holey, missing=None, rules=["mean", "borda", "copeland"])
    assert set(strict.errors) == {"mean", "borda"}
    assert strict.preparations["borda"].treatment == "not run"
    dropped = compare_rules(holey, missing="drop_tasks", rules=["borda", "copeland"])
    assert {r: rec.missing for r, rec in dropped.preparations.items()} == {
        "mean": "drop_tasks", "borda": "drop_tasks", "copeland": "drop_tasks", "kemeny": "drop_tasks",
    }
    assert dropped.kemeny.order == cs.kemeny(holey.select(tasks=["t1"])).order
    imputed = compare_rules(holey, missing="impute", rules=["borda"])
    assert imputed.preparations["mean"].missing == "median"  # the mean cannot impute: its auto policy
    assert imputed.chosen_by["mean"].startswith("auto (the rule cannot use missing='impute')")
    assert imputed.kemeny.order == cs.kemeny(holey, missing="impute").order
    with pytest.raises(InvalidOptionError, match="missing='zeros' is not one of"):
        compare_rules(holey, missing="zeros")


def test_compare_on_complete_scores_passes_no_policy(votenrank_toy):
    comp = compare_rules(votenrank_toy, rules=["plurality"], missing="impute")
    assert not comp.errors and comp.chosen_by["plurality"] == "no missing scores"


def test_compare_min_coverage_drops_with_a_note(holey):
    comp = compare_rules(holey, rules=["borda"], min_coverage=0.9)
    assert comp.systems == ("a", "b", "d")
    assert comp.notes and "'c'" in comp.notes[0] and "'e'" in comp.notes[0]
    assert cs.compare(holey, rules=["borda"], min_coverage=0.9).index.tolist() == ["mean", "borda", "kemeny"]
