"""Voting rules: the papers' numbers, hand-checked cases, errors, and naive reference implementations."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

import consensus as cs
from consensus import Leaderboard, rules
from consensus.errors import (
    ConsensusError,
    InvalidOptionError,
    MissingScoreError,
    NonPositiveScoreError,
    TooFewSystemsError,
    UnknownTaskError,
)
from tests.strategies import score_tables

GOLDEN = Path(__file__).parent / "data" / "golden"
ALL_RULES = [r for r in rules.RULE_NAMES if r != "kemeny"]
POSITIONAL = ["plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision"]
RULE_OPTIONS = {"scoring": {"vector": (3, 1)}, "bradley_terry": {"prior": 0.5}}  # prior: finite strengths


def _load(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


def _board(case: dict) -> Leaderboard:
    frame = pd.DataFrame(case["scores"], index=case["tasks"]).T.astype(float)
    return Leaderboard.from_frame(frame, lower_is_better=case["lower_is_better"])


def _groups(ranking) -> list[list[str]]:
    return [list(g) for g in ranking]


# ====================================================================== golden: Vote'n'Rank appendix A.1
TOY = _load("votenrank_toy.json")


def test_golden_toy_fixture_matches_packaged_example(votenrank_toy):
    assert _board(TOY) == votenrank_toy


@pytest.mark.parametrize("rule", sorted(TOY["published"]), ids=lambda r: f"{TOY['id']}-{r}")
def test_golden_toy_published_numbers(rule):
    lb = _board(TOY)
    expected = TOY["published"][rule]
    options = {"variant": expected["variant"]} if "variant" in expected else {}
    res = cs.rank(lb, rule, **options)
    if "scores" in expected:
        assert res.scores.to_dict() == pytest.approx(expected["scores"])
    if "winners" in expected:
        assert list(res.winners) == expected["winners"]
    if rule == "threshold":
        frame = res.details["vector_scores"]
        assert frame.columns[0] == "(1, 1, 1, 0)"
        assert frame.iloc[:, 0].to_dict() == pytest.approx(expected["scores"])
    if rule == "baldwin":
        rounds = res.details["rounds"]
        assert len(rounds) == len(expected["rounds"])
        for got, want in zip(rounds, expected["rounds"]):
            assert dict(got["scores"]) == pytest.approx(want["scores"])
            assert list(got["eliminated"]) == want["eliminated"]


def test_golden_toy_dowdall_d_is_one_seventy_five_plus_two_thirds():
    res = rules.dowdall(_board(TOY))
    assert res.scores["D"] == pytest.approx(1.75 + 2 / 3)


@pytest.mark.parametrize("rule", sorted(TOY["computed"]["rankings"]), ids=lambda r: f"{TOY['id']}-ranking-{r}")
def test_golden_toy_computed_rankings(rule):
    assert _groups(cs.rank(_board(TOY), rule).ranking) == TOY["computed"]["rankings"][rule]


def test_golden_toy_computed_scores():
    lb, want = _board(TOY), TOY["computed"]["scores"]
    for rule in ("rank_complement", "top_ten", "eurovision", "mean"):
        assert cs.rank(lb, rule).scores.to_dict() == pytest.approx(want[rule])
    frame = rules.threshold(lb).details["vector_scores"]
    assert frame.loc[["B", "D"], "(1, 1, 0, 0)"].to_dict() == pytest.approx(want["threshold_second_vector"])
    assert rules.copeland(lb, variant="wins_plus_half_ties").scores.to_dict() == pytest.approx(
        want["copeland_wins_plus_half_ties"]
    )
    assert rules.minimax(lb, variant="margins").scores.to_dict() == pytest.approx(want["minimax_margins"])
    assert rules.minimax(lb, variant="pairwise_opposition").scores.to_dict() == pytest.approx(
        want["minimax_pairwise_opposition"]
    )


# ====================================================================== golden: Colombo et al. Table 1
COLOMBO = _load("colombo_table1.json")


def test_golden_colombo_fixture_matches_packaged_example(colombo_table1):
    assert _board(COLOMBO) == colombo_table1


def test_golden_colombo_published_sums_and_rank_sums(colombo_table1):
    sums = colombo_table1.scores.sum(axis=1)
    assert sums.to_dict() == pytest.approx(COLOMBO["published"]["sums"])
    # rank 1 = smallest score on each task (lower is better): Borda = n_tasks * (n - 1) - (rank sum - n_tasks)
    borda = rules.borda(colombo_table1).scores
    rank_sums = {s: 6 * 3 - b for s, b in borda.items()}
    assert rank_sums == pytest.approx(COLOMBO["published"]["rank_sums"])


def test_golden_colombo_mean_ranks_a_b_c(colombo_table1):
    res = rules.mean(colombo_table1)
    assert _groups(res.ranking) == COLOMBO["published"]["mean_ranking"]
    assert res.scores.to_dict() == pytest.approx(COLOMBO["computed"]["mean"])


def test_golden_colombo_borda_ranks_c_b_a(colombo_table1):
    res = rules.borda(colombo_table1)
    assert _groups(res.ranking) == COLOMBO["published"]["borda_ranking"]
    assert res.scores.to_dict() == pytest.approx(COLOMBO["computed"]["borda"])


def test_golden_colombo_pairwise_paradox_and_copeland(colombo_table1):
    p = cs.pairwise(colombo_table1)
    w = p.to_frame("wins")
    got = {f"{a}>{b}": w.loc[a, b] for a, b in [("B", "A"), ("A", "B"), ("C", "B"), ("B", "C"), ("A", "C"), ("C", "A")]}
    assert got == pytest.approx(COLOMBO["computed"]["pairwise_wins"])
    res = rules.copeland(colombo_table1)
    assert res.scores.to_dict() == pytest.approx(COLOMBO["computed"]["copeland"])
    assert _groups(res.ranking) == COLOMBO["computed"]["copeland_ranking"]
    assert rules.condorcet(colombo_table1).winners == ()


def test_colombo_with_higher_is_better_reverses_borda(colombo_table1):
    # The opposite direction contradicts the paper: Borda would then rank A > B > C.
    flipped = Leaderboard.from_frame(colombo_table1.scores)
    assert _groups(rules.borda(flipped).ranking) == [["A"], ["B"], ["C"]]


# ====================================================================== scoring rules
def test_scoring_vectors():
    assert rules.scoring_vector("plurality", 3).tolist() == [1, 0, 0]
    assert rules.scoring_vector("dowdall", 3).tolist() == pytest.approx([1, 1 / 2, 1 / 3])
    assert rules.scoring_vector("rank_complement", 3).tolist() == [3, 2, 1]
    assert rules.scoring_vector("top_ten", 12).tolist() == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]
    assert rules.scoring_vector("eurovision", 4).tolist() == [12, 10, 8, 7]
    assert rules.scoring_vector("scoring", 4, (2, 1)).tolist() == [2, 1, 0, 0]


@pytest.fixture
def tied_board() -> Leaderboard:
    # t1: a > b = c; t2: c > a = b
    frame = pd.DataFrame({"t1": [3.0, 1.0, 1.0], "t2": [1.0, 1.0, 2.0]}, index=["a", "b", "c"])
    return Leaderboard.from_frame(frame)


def test_ties_average_min_max_points(tied_board):
    # Borda c = (2, 1, 0). t1: a 2, b and c share positions 2-3. t2: c 2, a and b share 2-3.
    assert rules.borda(tied_board).scores.to_dict() == {"a": 2.5, "b": 1.0, "c": 2.5}
    assert rules.borda(tied_board, ties="min").scores.to_dict() == {"a": 3.0, "b": 2.0, "c": 3.0}
    assert rules.borda(tied_board, ties="max").scores.to_dict() == {"a": 2.0, "b": 0.0, "c": 2.0}
    # Dowdall averages the points, not the positions: (1/2 + 1/3) / 2.
    assert rules.dowdall(tied_board).scores["b"] == pytest.approx(5 / 6)
    # Plurality: a tie for first place shares the point.
    frame = pd.DataFrame({"t1": [2.0, 2.0, 1.0]}, index=["a", "b", "c"])
    assert rules.plurality(Leaderboard.from_frame(frame)).scores.to_dict() == {"a": 0.5, "b": 0.5, "c": 0.0}
    assert rules.plurality(Leaderboard.from_frame(frame), ties="min").scores.to_dict() == {"a": 1, "b": 1, "c": 0}


def test_weights_multiply_each_tasks_points(votenrank_toy):
    lb = votenrank_toy.with_weights({"t1": 2.0, "t3": 0.0})
    # A: 3*2 + 3 + (0 * 0) + 0 + 0 = 9; B: 2*2 + 0 + 0 + 2 + 2 = 8
    assert rules.borda(lb).scores[["A", "B"]].tolist() == [9.0, 8.0]


def test_lower_is_better_tasks_rank_the_smallest_first():
    frame = pd.DataFrame({"err": [0.1, 0.3, 0.2]}, index=["a", "b", "c"])
    lb = Leaderboard.from_frame(frame, lower_is_better=["err"])
    assert rules.borda(lb).order == ("a", "c", "b")
    assert rules.mean(lb).order == ("a", "c", "b")


def test_scoring_vector_errors(votenrank_toy):
    with pytest.raises(InvalidOptionError, match="needs vector"):
        rules.scoring(votenrank_toy)
    with pytest.raises(InvalidOptionError, match="non-increasing.*position 2"):
        rules.scoring(votenrank_toy, vector=(1, 2))
    with pytest.raises(InvalidOptionError, match="5 entries but there are only 4 systems"):
        rules.scoring(votenrank_toy, vector=(5, 4, 3, 2, 1))
    with pytest.raises(InvalidOptionError, match="finite"):
        rules.scoring(votenrank_toy, vector=(float("nan"),))
    with pytest.raises(InvalidOptionError, match="ties='best'"):
        rules.borda(votenrank_toy, ties="best")


def test_rank_complement_ranks_as_borda(votenrank_toy):
    a, b = rules.rank_complement(votenrank_toy), rules.borda(votenrank_toy)
    assert (a.scores - b.scores).tolist() == [5.0] * 4  # one point per task more
    assert a.ranking == b.ranking


# ====================================================================== threshold and baldwin
def test_threshold_full_ranking_is_lexicographic_over_vectors():
    # n = 3, vectors (1, 1, 0) and (1, 0, 0). a and b are never last (tie), a is first more often.
    frame = pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [3.0, 2.0, 1.0], "t3": [2.0, 3.0, 1.0]}, index=["a", "b", "c"])
    res = rules.threshold(Leaderboard.from_frame(frame))
    assert res.scores.tolist() == [3.0, 3.0, 0.0]
    assert res.ranking == (("a",), ("b",), ("c",))
    assert res.details["vectors_used"] == 2
    assert res.details["vector_scores"]["(1, 0, 0)"].tolist() == [2.0, 1.0, 0.0]


def test_threshold_keeps_ties_no_vector_breaks(tied_board):
    frame = pd.DataFrame({"t1": [2.0, 1.0], "t2": [1.0, 2.0]}, index=["a", "b"])
    res = rules.threshold(Leaderboard.from_frame(frame))
    assert res.ranking == (("a", "b"),)
    assert res.winners == ("a", "b")


def test_baldwin_eliminates_all_tied_lowest_together(dominant_a):
    # Borda: a 4, b 2, c 0... make b and c tie at the bottom.
    res = rules.baldwin(dominant_a)
    assert [r["eliminated"] for r in res.details["rounds"]] == [("b", "c")]
    assert res.ranking == (("a",), ("b", "c"))
    assert res.scores.to_dict() == {"a": 2.0, "b": 1.0, "c": 1.0}


def test_baldwin_stops_when_every_survivor_ties(cycle3):
    res = rules.baldwin(cycle3)
    assert res.winners == ("sys-a", "sys-b", "sys-c")
    assert res.details["rounds"][0]["eliminated"] == ()
    assert res.scores.tolist() == [1.0, 1.0, 1.0]


# ====================================================================== majority rules
def test_majority_rules_use_the_r_operator_with_missing_scores():
    # b is unscored on t3: a vs b is compared on t1, t2 only.
    frame = pd.DataFrame({"t1": [2.0, 1.0, 0.0], "t2": [0.0, 1.0, 2.0], "t3": [1.0, np.nan, 2.0]}, index=["a", "b", "c"])
    lb = Leaderboard.from_frame(frame)
    res = rules.copeland(lb)
    assert res.preparation.missing is None and res.preparation.n_missing_cells == 1
    assert "pairwise" in res.preparation.treatment
    # a-b 1:1 tie, c beats a 2:1, b-c 1:1 tie -> a -1, b 0, c +1
    assert res.scores.to_dict() == {"a": -1.0, "b": 0.0, "c": 1.0}
    assert rules.minimax(lb).scores.to_dict() == {"a": -2.0, "b": 0.0, "c": 0.0}


def test_condorcet_without_winner_declares_none(cycle3):
    res = rules.condorcet(cycle3)
    assert res.winners == ()
    assert res.ranking == (("sys-a", "sys-b", "sys-c"),)
    assert res.details["condorcet_winner"] is None


def test_majority_rules_accept_a_pairwise_matrix(votenrank_toy):
    p = cs.pairwise(votenrank_toy)
    assert rules.copeland(p).scores.tolist() == [-3.0, 3.0, 1.0, -1.0]
    assert cs.rank(p, "minimax").scores.tolist() == [-3.0, 0.0, -3.0, -3.0]
    assert rules.condorcet(p).winners == ("B",)
    with pytest.raises(InvalidOptionError, match="needs a Leaderboard"):
        rules.copeland(p, missing="drop_tasks")
    with pytest.raises(InvalidOptionError, match="needs a Leaderboard"):
        rules.borda(p)


def test_copeland_half_ties_variant(cycle3):
    frame = pd.DataFrame({"t1": [1.0, 0.0, 0.0], "t2": [0.0, 1.0, 0.0]}, index=["a", "b", "c"])
    lb = Leaderboard.from_frame(frame)
    # a-b majority tie; a beats c (1:0, one tie); b beats c.
    assert rules.copeland(lb).scores.to_dict() == {"a": 1.0, "b": 1.0, "c": -2.0}
    assert rules.copeland(lb, variant="wins_plus_half_ties").scores.to_dict() == {"a": 1.5, "b": 1.5, "c": 0.0}


def test_minimax_variants_on_a_hand_example():
    # wins: a>b 3, b>a 2; c>a 1, a>c 4; b>c 3, c>b 2 (5 tasks)
    p = cs.PairwiseMatrix.from_array([[0, 3, 4], [2, 0, 3], [1, 2, 0]], systems=["a", "b", "c"])
    assert rules.minimax(p).scores.to_dict() == {"a": 0.0, "b": -3.0, "c": -4.0}
    assert rules.minimax(p, variant="margins").scores.to_dict() == {"a": 1.0, "b": -1.0, "c": -3.0}
    assert rules.minimax(p, variant="pairwise_opposition").scores.to_dict() == {"a": -2.0, "b": -3.0, "c": -4.0}


def test_tie_tol_counts_close_scores_as_ties():
    frame = pd.DataFrame({"t1": [1.0, 1.001], "t2": [2.0, 1.0]}, index=["a", "b"])
    lb = Leaderboard.from_frame(frame)
    assert rules.copeland(lb).ranking == (("a", "b"),)
    assert rules.copeland(lb, tie_tol=0.01).ranking == (("a",), ("b",))
    assert rules.copeland(lb, tie_tol=0.01).options["tie_tol"] == 0.01
    with pytest.raises(InvalidOptionError, match="tie_tol"):
        rules.copeland(lb, tie_tol=-1)


# ====================================================================== score baselines
def test_geometric_mean_lower_is_better_enters_as_reciprocal():
    frame = pd.DataFrame({"acc": [4.0, 1.0], "lat": [2.0, 1.0]}, index=["a", "b"])
    lb = Leaderboard.from_frame(frame, lower_is_better=["lat"], weights={"acc": 1.0, "lat": 1.0})
    res = rules.geometric_mean(lb)
    assert res.scores.to_dict() == pytest.approx({"a": math.sqrt(4 / 2), "b": 1.0})


def test_geometric_mean_unranks_non_positive(colombo_table1):
    # C scores 0 on Task1: it is unranked (last tie group, score NaN), not the board refused
    res = rules.geometric_mean(colombo_table1)
    assert res.details["unranked"] == ("C",) and res.ranking[-1] == ("C",)
    assert math.isnan(res.scores["C"]) and res.details["unranked"] == ("C",)
    # a zero-weight task does not count
    assert "unranked" not in rules.geometric_mean(colombo_table1.with_weights({"Task1": 0.0})).details
    with pytest.raises(NonPositiveScoreError, match=r"task 'Task1' has 0.0 for system\(s\) 'C'"):
        rules.geometric_mean(colombo_table1.select(systems=["A", "C"]))


def test_optimality_gap_gamma_forms():
    frame = pd.DataFrame({"acc": [0.97, 0.90], "err": [0.02, 0.10]}, index=["a", "b"])
    lb = Leaderboard.from_frame(frame, lower_is_better=["err"])
    # gamma 0.95 on acc; on err (lower is better) the gap is max(s, 0.05) - 0.05
    res = rules.optimality_gap(lb, gamma={"acc": 0.95, "err": 0.05})
    assert res.scores.to_dict() == pytest.approx({"a": 0.0, "b": (-0.05 - 0.05) / 2})
    res = rules.optimality_gap(lb)  # per-task best observed
    assert res.scores.to_dict() == pytest.approx({"a": 0.0, "b": (-0.07 - 0.08) / 2})
    # one gamma for every task: err (0.02, 0.10) never exceeds 0.93, so only acc counts
    assert rules.optimality_gap(lb, gamma=0.93).scores.to_dict() == pytest.approx({"a": 0.0, "b": -0.03 / 2})
    with pytest.raises(InvalidOptionError, match="no value for task"):
        rules.optimality_gap(lb, gamma={"acc": 0.9})
    with pytest.raises(UnknownTaskError, match="'ac'"):
        rules.optimality_gap(lb, gamma={"acc": 0.9, "err": 0.1, "ac": 1})
    with pytest.raises(InvalidOptionError, match="finite"):
        rules.optimality_gap(lb, gamma=float("inf"))


def test_score_baselines_refuse_missing_scores():
    frame = pd.DataFrame({"t1": [1.0, 2.0], "t2": [np.nan, 1.0]}, index=["a", "b"])
    lb = Leaderboard.from_frame(frame)
    for rule in ("mean", "geometric_mean", "optimality_gap", "borda", "threshold", "baldwin"):
        with pytest.raises(MissingScoreError, match=rf"rule '{rule}' needs complete scores .*\('a', 't2'\)"):
            cs.rank(lb, rule)


# ====================================================================== degenerate leaderboards
def test_one_system_cannot_form_a_leaderboard():
    with pytest.raises(TooFewSystemsError, match="at least 2 systems, got 1"):
        Leaderboard.from_frame(pd.DataFrame({"t1": [1.0]}, index=["a"]))


@pytest.mark.parametrize("rule", ALL_RULES)
def test_every_rule_on_all_tied_scores(rule):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        lb = Leaderboard.from_frame(pd.DataFrame({"t1": [1.0] * 3, "t2": [2.0] * 3}, index=["a", "b", "c"]))
    res = cs.rank(lb, rule, **RULE_OPTIONS.get(rule, {}))
    assert res.ranking == (("a", "b", "c"),)
    assert res.winners == (() if rule == "condorcet" else ("a", "b", "c"))
    assert len(set(res.scores.round(9))) == 1


@pytest.mark.parametrize("rule", ALL_RULES)
def test_every_rule_on_a_task_scored_by_one_system(rule):
    frame = pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [5.0, np.nan, np.nan]}, index=["a", "b", "c"])
    lb = Leaderboard.from_frame(frame)
    opts = RULE_OPTIONS.get(rule, {})
    spec_pairwise = cs.rules.RULES[rule].accepts_missing  # majority rules, mean_win_rate, ...
    if spec_pairwise:  # t2 compares nobody: only t1 counts
        assert cs.rank(lb, rule, **opts).order == ("a", "b", "c")
    else:
        with pytest.raises(MissingScoreError):
            cs.rank(lb, rule, **opts)
    # dropping the task always works; dropping systems leaves one system: a clear error
    assert cs.rank(lb, rule, missing="drop_tasks", **opts).winners in {("a",), ()}
    with pytest.raises(InvalidOptionError, match="would leave 1 system"):
        cs.rank(lb, rule, missing="drop_systems", **opts)


# ====================================================================== naive references (from the definitions)
def _naive_positions(column: list[float | None]) -> dict[int, tuple[int, int]]:
    """system -> (first, last) 1-based positions its tie group occupies."""
    present = [(v, i) for i, v in enumerate(column) if v is not None]
    out: dict[int, tuple[int, int]] = {}
    for v, i in present:
        better = sum(1 for u, _ in present if u > v)
        same = sum(1 for u, _ in present if u == v)
        out[i] = (better + 1, better + same)
    return out


def _naive_scoring(values: np.ndarray, weights: np.ndarray, c: list[float]) -> list[float]:
    n, m = values.shape
    scores = [0.0] * n
    for j in range(m):
        for i, (a, b) in _naive_positions(values[:, j].tolist()).items():
            scores[i] += weights[j] * sum(c[a - 1 : b]) / (b - a + 1)
    return scores


def _naive_pairwise(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    n, m = values.shape
    wins = np.zeros((n, n))
    for i in range(n):
        for k in range(n):
            for j in range(m):
                if not (np.isnan(values[i, j]) or np.isnan(values[k, j])) and values[i, j] > values[k, j]:
                    wins[i, k] += weights[j]
    return wins


def _naive_threshold_winners(values: np.ndarray, weights: np.ndarray) -> set[int]:
    """The paper's procedure: vector k applied only to the systems tied at the top so far."""
    n = values.shape[0]
    candidates = list(range(n))
    for k in range(1, n):
        c = [1.0] * (n - k) + [0.0] * k
        s = _naive_scoring(values, weights, c)
        best = max(s[i] for i in candidates)
        candidates = [i for i in candidates if abs(s[i] - best) <= 1e-9]
        if len(candidates) == 1:
            break
    return set(candidates)


def _naive_baldwin(values: np.ndarray, weights: np.ndarray) -> list[set[int]]:
    alive = list(range(values.shape[0]))
    rounds = []
    while len(alive) > 1:
        sub = values[alive]
        k = len(alive)
        s = _naive_scoring(sub, weights, [float(k - 1 - p) for p in range(k)])
        if max(s) - min(s) <= 1e-9:
            break
        out = {alive[i] for i, v in enumerate(s) if v <= min(s) + 1e-9}
        rounds.append(out)
        alive = [i for i in alive if i not in out]
    return rounds


@pytest.mark.slow
@given(score_tables(weighted=True, max_systems=6, max_tasks=5))
def test_scoring_rules_match_naive_per_task_ranking(lb):
    values, w = lb.values, lb.weights.to_numpy()
    n = lb.n_systems
    for rule in ("plurality", "borda", "dowdall", "rank_complement", "top_ten", "eurovision"):
        c = rules.scoring_vector(rule, n).tolist()
        assert cs.rank(lb, rule).scores.tolist() == pytest.approx(_naive_scoring(values, w, c)), rule


@given(score_tables(weighted=True, max_systems=6, max_tasks=5))
def test_threshold_and_baldwin_match_naive_procedures(lb):
    values, w = lb.values, lb.weights.to_numpy()
    names = lb.systems
    res = rules.threshold(lb)
    assert {names.index(s) for s in res.winners} == _naive_threshold_winners(values, w)
    base = _naive_scoring(values, w, [1.0] * (lb.n_systems - 1) + [0.0])
    assert res.scores.tolist() == pytest.approx(base)
    got = [{names.index(s) for s in r["eliminated"]} for r in rules.baldwin(lb).details["rounds"] if r["eliminated"]]
    assert got == _naive_baldwin(values, w)


@pytest.mark.slow
@given(score_tables(weighted=True, missing=True, max_systems=6, max_tasks=5))
def test_majority_rules_match_naive_pairwise_counts(lb):
    wins = _naive_pairwise(lb.values, lb.weights.to_numpy())
    n = lb.n_systems
    beats = wins - wins.T > 1e-9
    copeland = beats.sum(axis=1) - beats.sum(axis=0)
    assert rules.copeland(lb).scores.tolist() == pytest.approx(copeland.tolist())
    minimax = [-max([wins[b, m] for b in range(n) if beats[b, m]], default=0.0) for m in range(n)]
    assert rules.minimax(lb).scores.tolist() == pytest.approx(minimax)
    cw = [i for i in range(n) if beats[i].sum() == n - 1]
    assert rules.condorcet(lb).winners == tuple(lb.systems[i] for i in cw)


@given(score_tables(weighted=True, max_systems=6, max_tasks=5))
def test_borda_equals_pairwise_preference_sums(lb):
    # Borda with averaged ties = sum_j wins[i, j] + ties[i, j] / 2 (complete scores).
    p = cs.pairwise(lb)
    assert rules.borda(lb).scores.tolist() == pytest.approx(p.preferences.sum(axis=1).tolist())
    assert rules.borda(lb, ties="max").scores.tolist() == pytest.approx(p.wins.sum(axis=1).tolist())
    assert rules.borda(lb, ties="min").scores.tolist() == pytest.approx((p.wins + p.ties).sum(axis=1).tolist())


# ====================================================================== errors are package errors
def test_every_rule_error_is_a_consensus_value_error(votenrank_toy):
    with pytest.raises(ConsensusError):
        rules.borda(votenrank_toy, ties="nope")
    with pytest.raises(ValueError):
        rules.minimax(votenrank_toy, variant="wins")
    with pytest.raises(InvalidOptionError, match="variant='wins' is not one of"):
        rules.minimax(votenrank_toy, variant="wins")
