"""rank(): dispatch, shared options (missing, groups, two-step, tie-breaks), RuleResult, properties."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import consensus as cs
from consensus import Leaderboard, rules
from consensus.errors import InvalidOptionError, MissingScoreError
from consensus.results import RuleResult
from tests.strategies import score_frames, score_tables

ALL_RULES = [r for r in rules.RULE_NAMES if r != "kemeny"]
RULE_OPTIONS = {"scoring": {"vector": (3, 1)}, "bradley_terry": {"prior": 0.5}}  # prior: finite strengths
MAJORITY = ["condorcet", "copeland", "minimax"]


def _run(lb, rule, **options):
    return cs.rank(lb, rule, **{"min_coverage": 0, **RULE_OPTIONS.get(rule, {}), **options})  # the board as drawn


def _board(frame: pd.DataFrame, **kwargs) -> Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return Leaderboard.from_frame(frame, infer=False, **kwargs)  # generated scores, not an export


def _tiers(res: RuleResult) -> list[frozenset[str]]:
    return [frozenset(g) for g in res.ranking]


# ====================================================================== dispatch
def test_rank_routes_every_name_to_its_function(votenrank_toy):
    for rule in ALL_RULES:
        via_rank = _run(votenrank_toy, rule)
        direct = getattr(rules, rule)(votenrank_toy, **RULE_OPTIONS.get(rule, {}))
        assert via_rank.rule == direct.rule == rule
        assert via_rank.scores.equals(direct.scores)
        assert via_rank.ranking == direct.ranking


def test_rank_unknown_rule_suggests_close_names(votenrank_toy):
    with pytest.raises(InvalidOptionError, match=r"unknown rule 'bords'; did you mean 'borda'"):
        cs.rank(votenrank_toy, "bords")


def test_rank_unknown_option_lists_the_rules_options(votenrank_toy):
    with pytest.raises(InvalidOptionError, match=r"rule 'borda' takes no option\(s\) variant; it takes .*ties"):
        cs.rank(votenrank_toy, "borda", variant="margins")
    with pytest.raises(InvalidOptionError, match="missing='drop' is not one of"):
        cs.rank(votenrank_toy, "borda", missing="drop")
    with pytest.raises(InvalidOptionError, match="two_step must be True or False"):
        cs.rank(votenrank_toy, "borda", two_step="yes")


def test_positional_rule_needs_a_leaderboard(votenrank_toy):
    with pytest.raises(InvalidOptionError, match=r"rule 'mean' needs a Leaderboard, got DataFrame"):
        cs.rank(votenrank_toy.scores, "mean")


# ====================================================================== RuleResult
def test_rule_result_is_frozen_and_read_only(votenrank_toy):
    res = cs.rank(votenrank_toy, "baldwin")
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.rule = "borda"  # type: ignore[misc]
    with pytest.raises(TypeError):
        res.options["ties"] = "min"  # type: ignore[index]
    with pytest.raises(TypeError):
        res.details["rounds"] = ()  # type: ignore[index]
    assert res.options["ties"] == "average" and res.options["missing"] is None


def test_rule_result_views(votenrank_toy):
    res = cs.rank(votenrank_toy, "minimax")
    assert res.ranking == (("B",), ("A", "C", "D"))
    assert res.order == ("B", "A", "C", "D")
    assert res.position("C") == 2
    frame = res.to_frame()
    assert frame.index.tolist() == ["B", "A", "C", "D"]
    assert frame["position"].tolist() == [1, 2, 2, 2] and frame["tier"].tolist() == [1, 2, 2, 2]
    with pytest.raises(cs.UnknownSystemError, match="'E'"):
        res.position("E")


@pytest.mark.parametrize("rule", ALL_RULES)
def test_to_dict_is_json(rule, votenrank_toy):
    grouped = votenrank_toy.with_groups({"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]})
    for res in (_run(votenrank_toy, rule, tie_break="lexicographic"), _run(grouped, rule, two_step=True)):
        data = json.loads(json.dumps(res.to_dict()))
        assert data["rule"] == rule
        assert [s for g in data["ranking"] for s in g] == list(res.order)


def test_scores_have_no_negative_zero(votenrank_toy):
    res = cs.rank(votenrank_toy, "minimax")
    assert str(res.scores["B"]) == "0.0"


# ====================================================================== missing scores
@pytest.fixture
def holes() -> Leaderboard:
    frame = pd.DataFrame(
        {"t1": [4.0, 3.0, 2.0, 1.0], "t2": [1.0, np.nan, 3.0, 2.0], "t3": [1.0, 2.0, 3.0, 4.0]},
        index=["a", "b", "c", "d"],
    )
    return Leaderboard.from_frame(frame)


def test_missing_default_refuses_positional_rules(holes):
    with pytest.raises(MissingScoreError, match=r"rule 'borda' needs complete scores but 1 cell\(s\) are missing: \('b', 't2'\)"):
        cs.rank(holes, "borda")


def test_missing_drop_tasks_reports_what_was_dropped(holes):
    res = cs.rank(holes, "borda", missing="drop_tasks")
    assert res.preparation.dropped_tasks == ("t2",) and res.preparation.dropped_systems == ()
    assert res.preparation.n_missing_cells == 1 and res.preparation.missing == "drop_tasks"
    assert res.scores.tolist() == [3.0, 3.0, 3.0, 3.0]  # t1 and t3 are reversed


def test_missing_drop_systems_reports_what_was_dropped(holes):
    res = cs.rank(holes, "borda", missing="drop_systems")
    assert res.preparation.dropped_systems == ("b",)
    assert res.systems == ("a", "c", "d")
    assert res.scores.to_dict() == {"a": 2.0, "c": 4.0, "d": 3.0}


def test_missing_drop_errors_when_nothing_is_left():
    frame = pd.DataFrame({"t1": [1.0, np.nan], "t2": [np.nan, 1.0]}, index=["a", "b"])
    lb = Leaderboard.from_frame(frame)
    with pytest.raises(InvalidOptionError, match=r"would drop every task \(2\)"):
        cs.rank(lb, "borda", missing="drop_tasks")
    with pytest.raises(InvalidOptionError, match="would leave 0 system"):
        cs.rank(lb, "mean", missing="drop_systems")


@pytest.mark.parametrize("rule", ["mean", "geometric_mean", "optimality_gap"])
def test_missing_impute_is_refused_where_meaningless(rule, holes):
    with pytest.raises(InvalidOptionError, match=rf"rule '{rule}' cannot use missing='impute'.*pass missing='median'"):
        _run(holes, rule, missing="impute")


@pytest.mark.parametrize("rule", ["plurality", "dowdall", "threshold", "baldwin"])
def test_missing_impute_is_accepted_by_positional_and_iterative_rules(rule, holes):
    res = _run(holes, rule, missing="impute")
    assert res.preparation.missing == "impute" and sorted(res.order) == sorted(holes.systems)


def test_majority_rules_record_the_pairwise_treatment(holes):
    res = cs.rank(holes, "copeland")
    assert res.preparation.missing is None
    assert res.preparation.treatment.startswith("pairwise")
    assert res.ties == "neither"


def _impute_available() -> bool:
    try:
        from consensus.missing._impute import impute_pairwise  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _impute_available(), reason="consensus.missing._impute (issue 6) cannot be imported yet")
def test_missing_impute_borda_is_the_row_sum_of_the_imputed_matrix(holes):
    from consensus.missing._impute import impute_pairwise

    matrix = impute_pairwise(holes).matrix
    res = cs.rank(holes, "borda", missing="impute")
    assert res.scores.tolist() == pytest.approx(matrix.wins.sum(axis=1).tolist())
    assert res.preparation.missing == "impute"
    cope = cs.rank(holes, "copeland", missing="impute")
    assert cope.scores.tolist() == pytest.approx(rules.copeland(matrix).scores.tolist())
    # ties="min": the expected points of the best position of each tie group, no longer refused
    low = rules.borda(holes, missing="impute", ties="min")
    assert low.preparation.missing == "impute" and "imputation" in low.details


@pytest.mark.skipif(not _impute_available(), reason="consensus.missing._impute (issue 6) cannot be imported yet")
def test_missing_impute_on_complete_scores_is_plain_borda(votenrank_toy):
    res = cs.rank(votenrank_toy, "borda", missing="impute")
    assert res.scores.tolist() == [6.0, 9.0, 8.0, 7.0]


# ====================================================================== group weighting
@pytest.fixture
def grouped(votenrank_toy) -> Leaderboard:
    return votenrank_toy.with_groups({"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]})


def test_group_weighting_gives_each_group_the_same_total_weight(grouped):
    res = cs.rank(grouped, "borda", weighting="groups")
    manual = cs.rank(grouped.with_weights({"t1": 1 / 2, "t2": 1 / 2, "t3": 1 / 3, "t4": 1 / 3, "t5": 1 / 3}), "borda")
    assert res.scores.tolist() == pytest.approx(manual.scores.tolist())
    # A wins both g1 tasks: (3 + 3) / 2 = 3 from g1, 0 from g2
    assert res.scores["A"] == pytest.approx(3.0)
    assert res.options["weighting"] == "groups"


def test_group_weighting_keeps_relative_task_weights_and_group_weights(grouped):
    lb = grouped.with_weights({"t1": 3.0})
    res = cs.rank(lb, "mean", weighting="groups", group_weights={"g1": 2.0})
    w = {"t1": 2 * 3 / 4, "t2": 2 * 1 / 4, "t3": 1 / 3, "t4": 1 / 3, "t5": 1 / 3}
    assert res.scores.tolist() == pytest.approx(cs.rank(lb.with_weights(w), "mean").scores.tolist())


def test_group_options_errors(votenrank_toy, grouped):
    with pytest.raises(InvalidOptionError, match="weighting='groups' needs task groups"):
        cs.rank(votenrank_toy, "borda", weighting="groups")
    partial = votenrank_toy.with_groups({"g1": ["t1", "t2"]})
    with pytest.raises(InvalidOptionError, match=r"task\(s\) 't3', 't4', 't5' are in none"):
        cs.rank(partial, "borda", two_step=True)
    with pytest.raises(InvalidOptionError, match="group_weights needs weighting='groups' or two_step=True"):
        cs.rank(grouped, "borda", group_weights={"g1": 2})
    with pytest.raises(InvalidOptionError, match="unknown group 'g3'"):
        cs.rank(grouped, "borda", weighting="groups", group_weights={"g3": 2})
    with pytest.raises(InvalidOptionError, match="two_step=True already gives each task group one vote"):
        cs.rank(grouped, "borda", weighting="groups", two_step=True)


# ====================================================================== two-step aggregation
def test_two_step_borda_by_hand(grouped):
    # g1 (t1, t2): Borda A 6, B 2, C 3, D 1 -> A > C > B > D -> below counts 3, 1, 2, 0
    # g2 (t3, t4, t5): A 0, B 7, C 5, D 6 -> B > D > C > A -> below 0, 3, 1, 2
    # Borda over the two group rankings: A 3, B 4, C 3, D 2
    res = cs.rank(grouped, "borda", two_step=True)
    assert res.details["group_results"]["g1"].scores.tolist() == [6.0, 2.0, 3.0, 1.0]
    assert res.details["group_scores"]["g2"].tolist() == [0.0, 3.0, 1.0, 2.0]
    assert res.scores.tolist() == [3.0, 4.0, 3.0, 2.0]
    assert res.ranking == (("B",), ("A", "C"), ("D",))


def test_two_step_equals_the_rule_over_group_results(grouped):
    for rule in ("copeland", "minimax", "baldwin", "threshold", "dowdall"):
        res = cs.rank(grouped, rule, two_step=True)
        meta = _board(res.details["group_scores"].astype(float))
        assert res.scores.tolist() == pytest.approx(cs.rank(meta, rule).scores.tolist()), rule


def test_two_step_score_baselines_average_group_results(grouped):
    res = cs.rank(grouped, "mean", two_step=True, group_weights={"g1": 3.0})
    g1 = grouped.scores[["t1", "t2"]].mean(axis=1)
    g2 = grouped.scores[["t3", "t4", "t5"]].mean(axis=1)
    assert res.scores.tolist() == pytest.approx(((3 * g1 + g2) / 4).tolist())
    gap = cs.rank(grouped, "optimality_gap", gamma=3.0, two_step=True)
    gaps = [cs.rank(grouped.select(tasks=ts), "optimality_gap", gamma=3.0).scores for ts in (["t1", "t2"], ["t3", "t4", "t5"])]
    assert gap.scores.tolist() == pytest.approx(((gaps[0] + gaps[1]) / 2).tolist())
    assert gap.details["second_step_rule"] == "mean"


def test_two_step_majority_rule_with_a_system_unscored_in_a_group():
    frame = pd.DataFrame(
        {"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0], "t3": [1.0, 2.0, np.nan], "t4": [1.0, 2.0, np.nan]},
        index=["a", "b", "c"],
    )
    lb = Leaderboard.from_frame(frame, groups={"x": ["t1", "t2"], "y": ["t3", "t4"]})
    res = cs.rank(lb, "copeland", two_step=True)
    assert np.isnan(res.details["group_scores"].loc["c", "y"])
    # x: a beats b and c, b-c tie; y: b beats a. Over groups: a-b tie, a beats c (1:0), b-c tie (x tie, y missing)
    assert res.scores.to_dict() == {"a": 1.0, "b": 0.0, "c": -1.0}
    with pytest.raises(MissingScoreError):
        cs.rank(lb, "borda", two_step=True)
    assert cs.rank(lb, "borda", two_step=True, missing="drop_systems").systems == ("a", "b")


# ====================================================================== tie-breaks
def test_tie_break_none_keeps_ties(votenrank_toy):
    res = cs.rank(votenrank_toy, "dowdall")
    assert res.tie_break is None and res.ranking[0] == ("A", "B")


def test_tie_break_mean_and_lexicographic(votenrank_toy):
    by_mean = cs.rank(votenrank_toy, "dowdall", tie_break="mean")  # mean A 2.2 < B 2.8
    assert by_mean.ranking == (("B",), ("A",), ("C",), ("D",))
    assert by_mean.winners == ("B",) and by_mean.tie_break == "mean"
    assert by_mean.details["tie_break"]["split_groups"] == (("A", "B"),)
    assert by_mean.scores["A"] == by_mean.scores["B"]  # the rule's scores are unchanged
    by_label = cs.rank(votenrank_toy, "minimax", tie_break="lexicographic")
    assert by_label.ranking == (("B",), ("A",), ("C",), ("D",))


def test_tie_break_sequence_applies_in_order():
    frame = pd.DataFrame({"t1": [2.0, 1.0, 1.0], "t2": [1.0, 2.0, 2.0]}, index=["z", "y", "x"])
    lb = Leaderboard.from_frame(frame)
    res = cs.rank(lb, "copeland", tie_break=["mean", "lexicographic"])
    # all tie under Copeland; means 1.5 each -> label order
    assert res.ranking == (("x",), ("y",), ("z",))
    assert res.tie_break == ("mean", "lexicographic")


def test_tie_break_keeps_condorcet_without_winner(cycle3):
    res = cs.rank(cycle3, "condorcet", tie_break="lexicographic")
    assert res.winners == () and len(res.ranking) == 3


def test_tie_break_errors(votenrank_toy):
    with pytest.raises(InvalidOptionError, match="tie_break='random' is not one of"):
        cs.rank(votenrank_toy, "borda", tie_break="random")
    with pytest.raises(InvalidOptionError, match="tie_break='mean' needs scores"):
        cs.rank(cs.pairwise(votenrank_toy), "copeland", tie_break="mean")


# ====================================================================== kemeny route
def test_rank_kemeny_wraps_the_kemeny_result(votenrank_toy):
    from consensus.exact._kemeny import kemeny

    res = cs.rank(votenrank_toy, "kemeny")
    direct = kemeny(votenrank_toy)
    assert res.order == tuple(direct.order)
    assert all(len(g) == 1 for g in res.ranking)
    assert res.details["kemeny"].objective == direct.objective
    assert sorted(res.scores.tolist()) == [0.0, 1.0, 2.0, 3.0]
    assert res.scores[res.order[0]] == 3.0
    assert res.winners == ("B",)  # the Condorcet winner heads a Kemeny ranking
    json.dumps(res.to_dict())


# ====================================================================== properties
@st.composite
def _permuted(draw, **kwargs):
    frame = draw(score_frames(**kwargs)) + 1.0  # positive, for the geometric mean
    cols = draw(st.permutations(list(frame.columns)))
    rows = draw(st.permutations(list(frame.index)))
    return frame, cols, rows


def _comparable(rule: str, frame: pd.DataFrame) -> bool:
    return rule in MAJORITY or not frame.isna().any().any()


@pytest.mark.slow
@given(_permuted(max_systems=5, max_tasks=4, missing=True), st.integers(0, 3))
def test_anonymity_permuting_tasks_changes_nothing(data, weight):
    frame, cols, _ = data
    weights = {frame.columns[0]: float(weight + 1)}
    lb = _board(frame, weights=weights)
    shuffled = _board(frame[cols], weights=weights)
    for rule in ALL_RULES:
        if not _comparable(rule, frame):
            continue
        a, b = _run(lb, rule), _run(shuffled, rule)
        assert b.scores.tolist() == pytest.approx(a.scores.tolist()), rule
        assert _tiers(a) == _tiers(b), rule


@pytest.mark.slow
@given(_permuted(max_systems=5, max_tasks=4, missing=True))
def test_neutrality_relabeling_systems_permutes_the_result(data):
    frame, _, rows = data
    rename = {s: f"x{k}" for k, s in enumerate(reversed(frame.index))}
    lb = _board(frame)
    other = _board(frame.loc[rows].rename(index=rename))
    for rule in ALL_RULES:
        if not _comparable(rule, frame):
            continue
        a, b = _run(lb, rule), _run(other, rule)
        assert b.scores[[rename[s] for s in lb.systems]].tolist() == pytest.approx(a.scores.tolist()), rule
        assert _tiers(b) == [frozenset(rename[s] for s in g) for g in _tiers(a)], rule


@pytest.mark.slow
@given(score_tables(weighted=True, max_systems=6, max_tasks=5, missing=True))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_condorcet_consistency(lb):  # boards with a Condorcet winner: many draws have none (filtered)
    winner = cs.condorcet_winner(lb)
    assume(winner is not None)
    assert rules.condorcet(lb).winners == (winner,)
    for variant in ("wins_minus_losses", "wins_plus_half_ties"):
        assert rules.copeland(lb, variant=variant).winners == (winner,)
    for variant in ("winning_votes", "margins"):
        assert rules.minimax(lb, variant=variant).winners == (winner,)
    if not lb.has_missing:
        assert rules.baldwin(lb).winners == (winner,)


STRICT_PARETO = {
    "borda", "dowdall", "rank_complement", "top_ten", "eurovision", "threshold", "baldwin",
    "copeland", "mean", "geometric_mean", "optimality_gap",
}


@pytest.mark.slow
@given(score_frames(max_systems=6, max_tasks=4))
def test_pareto_a_system_better_on_every_task_is_ranked_above(frame):
    lb = _board(frame + 1.0)  # positive scores for the geometric mean
    values = lb.values
    pairs = [
        (i, j) for i in range(lb.n_systems) for j in range(lb.n_systems) if i != j and np.all(values[i] > values[j])
    ]
    assume(pairs)
    for rule in ALL_RULES:
        res = _run(lb, rule)
        for i, j in pairs:
            pi, pj = res.position(lb.systems[i]), res.position(lb.systems[j])
            if rule in STRICT_PARETO:
                assert pi < pj, (rule, lb.systems[i], lb.systems[j])
            else:  # plurality, scoring (3, 1), condorcet, minimax may tie them (Vote'n'Rank Table 8)
                assert pi <= pj, (rule, lb.systems[i], lb.systems[j])


@pytest.mark.slow
@given(score_frames(max_systems=5, max_tasks=4, missing=True), st.integers(0, 3))
def test_weight_two_equals_the_task_listed_twice(frame, k):
    frame = frame + 1.0
    task = frame.columns[k % frame.shape[1]]
    doubled = _board(frame, weights={task: 2.0})
    twice = _board(pd.concat([frame, frame[[task]].rename(columns={task: f"{task}-copy"})], axis=1))
    for rule in ALL_RULES:
        if not _comparable(rule, frame):
            continue
        a, b = _run(doubled, rule), _run(twice, rule)
        assert a.scores.tolist() == pytest.approx(b.scores.tolist()), rule
        assert a.ranking == b.ranking, rule


@given(score_tables(max_systems=5, max_tasks=4))
def test_every_rule_gives_a_total_preorder_of_all_systems(lb):
    for rule in ALL_RULES:
        try:
            res = _run(lb, rule)
        except cs.errors.NonPositiveScoreError:
            continue
        assert sorted(res.order) == sorted(lb.systems)
        assert len(res.order) == len(set(res.order))
        if rule != "condorcet":
            assert res.winners == res.ranking[0]


def test_rank_kemeny_route_with_a_stand_in_module(votenrank_toy, monkeypatch):
    """The wrapping logic, checked against a brute-force stand-in for consensus.kemeny."""
    import itertools

    @dataclasses.dataclass(frozen=True)
    class FakeKemenyResult:
        order: tuple[str, ...]
        objective: float

        @property
        def ranking(self):
            return tuple((s,) for s in self.order)

    calls: list[dict] = []

    def fake_kemeny(data, **options):
        calls.append(options)
        p = cs.pairwise(data) if isinstance(data, Leaderboard) else data
        idx = {s: i for i, s in enumerate(p.systems)}
        pref = p.preferences

        def cost(order):  # placing j above i disagrees with pref[i, j]
            return sum(pref[idx[b], idx[a]] for k, a in enumerate(order) for b in order[k + 1 :])

        best = min(itertools.permutations(p.systems), key=cost)
        return FakeKemenyResult(tuple(best), float(cost(best)))

    monkeypatch.setattr("consensus.rules.kemeny_rule._kemeny", fake_kemeny)
    res = cs.rank(votenrank_toy, "kemeny", method="brute_force", tie_break="lexicographic")
    assert calls == [{"method": "brute_force"}]  # shared options stay in rank()
    assert res.order == ("B", "C", "D", "A") and res.details["kemeny"].objective == 12.0
    assert res.scores.to_dict() == {"A": 0.0, "B": 3.0, "C": 2.0, "D": 1.0}
    assert res.ranking == (("B",), ("C",), ("D",), ("A",)) and res.winners == ("B",)
    assert res.ties == "neither" and res.options["method"] == "brute_force"
    assert json.loads(json.dumps(res.to_dict()))["details"]["kemeny"]["objective"] == 12.0
    grouped = votenrank_toy.with_groups({"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]})
    two = cs.rank(grouped, "kemeny", two_step=True)
    assert set(two.details["group_results"]) == {"g1", "g2"}
    assert sorted(two.scores.tolist()) == [0.0, 1.0, 2.0, 3.0]
    p = cs.pairwise(votenrank_toy)
    assert cs.rank(p, "kemeny").order == res.order


def test_instance_level_scores_rank_by_borda_on_the_imputed_matrix():
    from consensus.experiments import gumbel_instances

    data = gumbel_instances(5, 3, 20, phi=0.5, seed=1)
    result = cs.rank(data, "borda", missing="impute")
    expected = cs.sigma_l(data)
    assert result.ranking == expected.ranking
    assert np.allclose(result.scores.to_numpy(), expected.scores.to_numpy())
    assert result.preparation.missing == "impute"
    with pytest.raises(cs.InvalidOptionError, match=r"instance-level scores need missing='impute'"):
        cs.rank(data, "borda")
