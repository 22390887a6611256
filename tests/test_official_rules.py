"""Leaderboard aggregates and further Condorcet methods: mean_win_rate (HELM), normalized_mean
(Open LLM Leaderboard v2), bradley_terry, schulze and ranked_pairs.

Every expected number is worked by hand in the comments, from the definitions; the
properties (anonymity, neutrality, Condorcet consistency, the Smith set, the likelihood
equations) run on random small boards with hypothesis.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import consensus as cs
from consensus import Leaderboard, PairwiseMatrix, rules
from consensus.errors import (
    InvalidOptionError,
    MissingScoreError,
    ScoreOverflowError,
    UnknownTaskError,
)
from consensus.rules import auto_missing
from tests.strategies import score_frames, score_tables

NEW_RULES = ("mean_win_rate", "normalized_mean", "bradley_terry", "schulze", "ranked_pairs")
OPTIONS = {"bradley_terry": {"prior": 0.5}, "normalized_mean": {"maximum": 10.0}}


def _board(frame: pd.DataFrame, **kwargs) -> Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return Leaderboard.from_frame(frame.astype(float), keep_columns=True, **kwargs)


def from_rankings(profile: list[tuple[str, int]]) -> Leaderboard:
    """Voters as tasks: each ranking (best first) is a task whose weight is its number of voters."""
    systems = sorted({c for ranking, _ in profile for c in ranking})
    cols = {f"v{k}": [float(len(r) - r.index(c)) for c in systems] for k, (r, _) in enumerate(profile)}
    weights = {f"v{k}": float(count) for k, (_, count) in enumerate(profile)}
    return _board(pd.DataFrame(cols, index=systems), weights=weights)


# Wikipedia, "Schulze method", example: 45 voters, 5 candidates.
SCHULZE_WIKI = [("ACBED", 5), ("ADECB", 5), ("BEDAC", 8), ("CABED", 3), ("CAEBD", 7), ("CBADE", 2),
                ("DCEBA", 7), ("EBADC", 8)]
# Wikipedia, "Ranked pairs" / "Condorcet method": the Tennessee capital (percent of voters).
TENNESSEE = [("MNCK", 42), ("NCKM", 26), ("CKNM", 15), ("KCNM", 17)]


# ====================================================================== mean_win_rate
@pytest.fixture
def helm_board() -> Leaderboard:
    frame = pd.DataFrame(
        {
            "qa": [0.8, 0.6, 0.6, 0.2],  # a > b = c > d: 3 rivals each
            "nli": [np.nan, 0.7, 0.9, 0.7],  # a not scored: c > b = d, 2 rivals each
            "lat": [10.0, 30.0, np.nan, 20.0],  # lower is better, c not scored: a > d > b
        },
        index=["a", "b", "c", "d"],
    )
    return _board(frame, lower_is_better=["lat"], weights={"lat": 2.0})


def test_mean_win_rate_by_hand_with_ties_and_missing_cells(helm_board):
    # ties="half": qa a 1, b 1.5/3, c 1.5/3, d 0; nli c 1, b 0.5/2, d 0.5/2; lat a 1, d 1/2, b 0
    # a: (1 + 2*1) / 3 = 1; b: (0.5 + 0.25 + 2*0) / 4 = 0.1875
    # c: (0.5 + 1) / 2 = 0.75 (c skips lat: weight 1 + 1); d: (0 + 0.25 + 2*0.5) / 4 = 0.3125
    res = rules.mean_win_rate(helm_board)
    assert res.scores.to_dict() == pytest.approx({"a": 1.0, "b": 0.1875, "c": 0.75, "d": 0.3125})
    assert res.ranking == (("a",), ("c",), ("d",), ("b",)) and res.ties == "half"
    assert res.preparation.missing is None and res.preparation.n_missing_cells == 2
    assert res.details["rivals"].to_dict() == {"qa": 3.0, "nli": 2.0, "lat": 2.0}
    assert np.isnan(res.details["win_rates"].loc["a", "nli"])
    assert res.details["coverage"].to_dict() == pytest.approx({"a": 0.75, "b": 1.0, "c": 0.5, "d": 1.0})
    # ties="loss": qa b 1/3, c 1/3; nli b 0, d 0
    # a 1; b (1/3 + 0 + 0) / 4 = 1/12; c (1/3 + 1) / 2 = 2/3; d (0 + 0 + 2 * 0.5) / 4 = 1/4
    loss = rules.mean_win_rate(helm_board, ties="loss")
    assert loss.scores.to_dict() == pytest.approx({"a": 1.0, "b": 1 / 12, "c": 2 / 3, "d": 0.25})
    assert loss.ties == "loss"


def test_mean_win_rate_ties_can_change_the_order():
    # t1: a = b > c; t2: c > a > b. half: a (0.75 + 0.5) / 2, b (0.75 + 0) / 2, c (0 + 1) / 2
    # loss: a (0.5 + 0.5) / 2 = 0.5, b 0.25, c 0.5: a and c tie
    frame = pd.DataFrame({"t1": [2, 2, 1], "t2": [2, 1, 3]}, index=["a", "b", "c"])
    lb = _board(frame)
    assert rules.mean_win_rate(lb).ranking == (("a",), ("c",), ("b",))
    assert rules.mean_win_rate(lb, ties="loss").ranking == (("a", "c"), ("b",))


def _helm(frame: pd.DataFrame) -> list[float | None]:
    """HELM's compute_aggregate_row_win_rates (after pull request #3001), transcribed: per column,
    a value's wins = number of smaller values + (count of equal values - 1) / 2, over (count - 1)."""
    rates: list[list[float]] = [[] for _ in frame.index]
    for column in frame.columns:
        present = [v for v in frame[column].tolist() if not math.isnan(v)]
        if len(present) < 2:
            continue
        for r, v in enumerate(frame[column].tolist()):
            if not math.isnan(v):
                wins = sum(u < v for u in present) + (sum(u == v for u in present) - 1) / 2
                rates[r].append(wins / (len(present) - 1))
    return [sum(x) / len(x) if x else None for x in rates]


@given(score_frames(max_systems=6, max_tasks=5, missing=True))
def test_mean_win_rate_matches_helm_code(frame):
    expected = _helm(frame)
    assume(all(e is not None for e in expected))
    res = rules.mean_win_rate(_board(frame))
    assert res.scores.tolist() == pytest.approx(expected)


@given(score_tables(max_systems=5, max_tasks=4))
def test_mean_win_rate_on_complete_scores_is_scaled_borda(lb):
    # unit weights, no missing: r_t = (beaten + tied / 2) / (n - 1), Borda "average" = beaten + tied / 2
    borda = rules.borda(lb).scores
    mwr = rules.mean_win_rate(lb).scores
    assert (mwr * (lb.n_systems - 1) * lb.n_tasks).tolist() == pytest.approx(borda.tolist())


def test_mean_win_rate_missing_policies_and_errors(helm_board):
    assert auto_missing("mean_win_rate") is None
    with pytest.raises(InvalidOptionError, match="cannot use missing='impute'"):
        rules.mean_win_rate(helm_board, missing="impute")
    filled = rules.mean_win_rate(helm_board, missing="median")
    assert filled.preparation.n_missing_cells == 2
    with pytest.raises(InvalidOptionError, match="ties='draw' is not one of"):
        rules.mean_win_rate(helm_board, ties="draw")
    # x is scored only where nobody else is: no rival anywhere, no win rate
    frame = pd.DataFrame({"t1": [1.0, 2.0, np.nan], "t2": [np.nan, np.nan, 5.0]}, index=["a", "b", "x"])
    with pytest.raises(InvalidOptionError, match=r"system\(s\) 'x' share no task of positive weight"):
        rules.mean_win_rate(_board(frame))
    assert rules.mean_win_rate(_board(frame), missing="median").systems == ("a", "b", "x")


def test_mean_win_rate_two_step_averages_group_win_rates(helm_board):
    grouped = helm_board.with_groups({"g1": ["qa", "nli"], "g2": ["lat"]})
    res = rules.mean_win_rate(grouped, two_step=True, group_weights={"g1": 3.0})
    # g1 (qa, nli): a 1, b (0.5 + 0.25) / 2, c (0.5 + 1) / 2, d (0 + 0.25) / 2
    # g2 (lat; c not scored): a 1, b 0, d 0.5. Second step: the weighted mean over the groups
    # each system is scored on (c: g1 alone).
    g1 = {"a": 1.0, "b": 0.375, "c": 0.75, "d": 0.125}
    g2 = {"a": 1.0, "b": 0.0, "d": 0.5}
    assert res.details["group_scores"]["g1"].to_dict() == pytest.approx(g1)
    assert res.details["group_scores"]["g2"].dropna().to_dict() == pytest.approx(g2)
    expected = {s: (3 * g1[s] + g2[s]) / 4 if s in g2 else g1[s] for s in g1}
    assert res.scores.to_dict() == pytest.approx(expected)


# ====================================================================== normalized_mean
@pytest.fixture
def oll_board() -> Leaderboard:
    frame = pd.DataFrame({"bbh": [0.625, 0.1], "math": [0.2, 0.5], "ifeval": [80.0, 40.0]}, index=["a", "b"])
    return _board(frame)


def test_normalized_mean_by_hand(oll_board):
    # bbh: (0.625 - 0.25) / 0.75 * 100 = 50, (0.1 - 0.25) / 0.75 * 100 = -20 -> 0 (clipped)
    # math: 20, 50; ifeval (percent, maximum 100): 80, 40
    res = rules.normalized_mean(oll_board, baseline={"bbh": 0.25}, maximum={"ifeval": 100.0})
    assert res.details["normalized"].columns.tolist() == ["bbh", "math", "ifeval"]
    assert res.details["normalized"].to_numpy().tolist() == [pytest.approx([50.0, 20.0, 80.0]), pytest.approx([0.0, 50.0, 40.0])]
    assert res.scores.to_dict() == pytest.approx({"a": 50.0, "b": 30.0})
    assert res.details["baseline"].to_dict() == {"bbh": 0.25, "math": 0.0, "ifeval": 0.0}
    assert res.details["maximum"].to_dict() == {"bbh": 1.0, "math": 1.0, "ifeval": 100.0}
    raw = rules.normalized_mean(oll_board, baseline={"bbh": 0.25}, maximum={"ifeval": 100.0}, clip=False)
    assert raw.scores["b"] == pytest.approx((-20.0 + 50.0 + 40.0) / 3)
    # weights: bbh counts twice -> a (100 + 20 + 80) / 4 = 50, b (0 + 50 + 40) / 4 = 22.5
    weighted = rules.normalized_mean(
        oll_board.with_weights({"bbh": 2.0}), baseline={"bbh": 0.25}, maximum={"ifeval": 100.0}
    )
    assert weighted.scores.to_dict() == pytest.approx({"a": 50.0, "b": 22.5})
    # one number for every task
    assert rules.normalized_mean(oll_board, maximum=100.0).scores["a"] == pytest.approx((0.625 + 0.2 + 80) / 3)


def test_normalized_mean_lower_is_better_needs_explicit_bounds():
    frame = pd.DataFrame({"err": [0.1, 0.6], "acc": [0.5, 0.5]}, index=["a", "b"])
    lb = _board(frame, lower_is_better=["err"])
    with pytest.raises(InvalidOptionError, match=r"task 'err' is lower-is-better but its maximum 1.0 is above"):
        rules.normalized_mean(lb)
    # best 0 errors, chance 0.5: a (0.1 - 0.5) / (0 - 0.5) * 100 = 80; b -20 -> 0
    res = rules.normalized_mean(lb, baseline={"err": 0.5}, maximum={"err": 0.0})
    assert res.details["normalized"]["err"].tolist() == pytest.approx([80.0, 0.0])
    assert res.scores.to_dict() == pytest.approx({"a": 65.0, "b": 25.0})


def test_normalized_mean_errors(oll_board):
    with pytest.raises(UnknownTaskError, match="unknown task 'bbhh' in baseline; did you mean 'bbh'"):
        rules.normalized_mean(oll_board, baseline={"bbhh": 0.25})
    with pytest.raises(UnknownTaskError, match="in maximum"):
        rules.normalized_mean(oll_board, maximum={"zz": 1.0})
    with pytest.raises(InvalidOptionError, match=r"task 'math' has maximum == baseline == 1.0"):
        rules.normalized_mean(oll_board, baseline={"math": 1.0})
    with pytest.raises(InvalidOptionError, match=r"task 'bbh' has maximum 0.1 below its baseline 0.25"):
        rules.normalized_mean(oll_board, baseline={"bbh": 0.25}, maximum={"bbh": 0.1})
    with pytest.raises(InvalidOptionError, match="baseline of task 'bbh' must be finite"):
        rules.normalized_mean(oll_board, baseline={"bbh": float("nan")})
    with pytest.raises(InvalidOptionError, match="clip must be True or False"):
        rules.normalized_mean(oll_board, clip="yes")
    holes = _board(pd.DataFrame({"t1": [0.5, np.nan, 0.2], "t2": [0.1, 0.2, 0.3]}, index=["a", "b", "c"]))
    with pytest.raises(MissingScoreError, match="rule 'normalized_mean' needs complete scores"):
        rules.normalized_mean(holes)
    assert auto_missing("normalized_mean") == "median"
    assert rules.normalized_mean(holes, missing="median").scores["b"] == pytest.approx((35.0 + 20.0) / 2)
    huge = _board(pd.DataFrame({"t1": [1.7e308, -1.7e308], "t2": [1.0, 2.0]}, index=["a", "b"]))
    with pytest.raises(ScoreOverflowError, match="task 't1'"):
        rules.normalized_mean(huge)


# ====================================================================== bradley_terry
def _stationarity(res: cs.results.RuleResult, counts: np.ndarray) -> np.ndarray:
    """sum_j n_ij p_i / (p_i + p_j) - sum_j A_ij for every i (0 at the maximum-likelihood strengths)."""
    p = np.exp(res.scores.to_numpy())
    n = counts + counts.T
    share = p[:, None] / (p[:, None] + p[None, :])
    np.fill_diagonal(share, 0.0)
    return (n * share).sum(axis=1) - counts.sum(axis=1)


def test_bradley_terry_closed_forms():
    # two systems, a ahead on 3 of 4 tasks: p_a / (p_a + p_b) = 3/4
    two = _board(pd.DataFrame({"t": [2, 1], "u": [2, 1], "v": [2, 1], "w": [1, 2]}, index=["a", "b"]))
    res = rules.bradley_terry(two)
    assert res.scores["a"] - res.scores["b"] == pytest.approx(math.log(3), abs=1e-9)
    assert res.scores.sum() == pytest.approx(0.0, abs=1e-12) and res.ties == "half"
    # three systems: a beats b 2:1, a beats c 2:1, c beats b 3:0. p_a = p_c = 5 p_b solves
    # a: 3 (5/6) + 3 (1/2) = 4 wins; c: 3 (1/2) + 3 (5/6) = 4; b: 3 (1/6) + 3 (1/6) = 1
    frame = pd.DataFrame({"t1": [3, 1, 2], "t2": [3, 1, 2], "t3": [1, 2, 3]}, index=["a", "b", "c"])
    res = rules.bradley_terry(_board(frame))
    assert res.scores["a"] - res.scores["b"] == pytest.approx(math.log(5), abs=1e-9)
    assert res.ranking == (("a", "c"), ("b",))
    assert res.details["strengths"].tolist() == pytest.approx([5 / 11, 1 / 11, 5 / 11])
    # a symmetric cycle: every strength equal
    cycle = pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"])
    assert rules.bradley_terry(_board(cycle)).ranking == (("a", "b", "c"),)


def test_bradley_terry_ties_count_half_or_not_at_all():
    # a-b tie on t1; a beats b on t2, b beats a on t3, a beats b on t4
    frame = pd.DataFrame({"t1": [1, 1], "t2": [2, 1], "t3": [1, 2], "t4": [2, 1]}, index=["a", "b"])
    half = rules.bradley_terry(_board(frame))  # a: 2.5 of 4 -> log(2.5 / 1.5)
    assert half.scores["a"] - half.scores["b"] == pytest.approx(math.log(2.5 / 1.5), abs=1e-9)
    ignore = rules.bradley_terry(_board(frame), ties="ignore")  # a: 2 of 3 -> log 2
    assert ignore.scores["a"] - ignore.scores["b"] == pytest.approx(math.log(2), abs=1e-9)
    assert ignore.ties == "ignore"
    only_ties = _board(pd.DataFrame({"t1": [1, 1], "t2": [2, 1], "t3": [1, 2]}, index=["a", "b"]))
    assert rules.bradley_terry(only_ties).ranking == (("a", "b"),)


def test_bradley_terry_non_existence_is_detected_and_named():
    dominant = _board(pd.DataFrame({"t1": [3, 2, 1], "t2": [3, 1, 2]}, index=["a", "b", "c"]))
    with pytest.raises(InvalidOptionError, match=r"do not exist: system\(s\) 'a' never lose to \(nor tie with\) any of the other 2"):
        rules.bradley_terry(dominant)
    # two groups never compared: {a, b} and {c, d}
    wins = np.array([[0, 2, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 3, 0]])
    split = PairwiseMatrix.from_array(wins, systems=["a", "b", "c", "d"])
    with pytest.raises(InvalidOptionError, match=r"2 groups never compared with each other \({'a', 'b'}; {'c', 'd'}\)"):
        rules.bradley_terry(split)
    # a prior always gives finite strengths: with prior 0.5, a beats b 2.5 : 0.5 (t1, t2 + prior)
    res = rules.bradley_terry(dominant, prior=0.5)
    assert res.winners == ("a",) and res.details["prior"] == 0.5
    assert np.abs(_stationarity(res, cs.pairwise(dominant).preferences + 0.5 * (1 - np.eye(3)))).max() < 1e-9
    for bad in (-1, float("inf"), "x", True):
        with pytest.raises(InvalidOptionError, match="prior must be"):
            rules.bradley_terry(dominant, prior=bad)


def _strongly_connected(counts: np.ndarray) -> bool:
    """By brute force: no proper non-empty subset that no outsider beats at least partly."""
    n = len(counts)
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            inside = list(subset)
            outside = [j for j in range(n) if j not in subset]
            if not (counts[np.ix_(outside, inside)] > 0).any():
                return False
    return True


@given(score_tables(weighted=True, max_systems=5, max_tasks=4, missing=True), st.sampled_from([0.0, 0.5]))
def test_bradley_terry_solves_the_likelihood_equations(lb, prior):
    counts = cs.pairwise(lb).preferences + prior * (1 - np.eye(lb.n_systems))
    if not _strongly_connected(counts):
        with pytest.raises(InvalidOptionError, match="maximum-likelihood strengths do not exist"):
            rules.bradley_terry(lb, prior=prior)
        return
    res = rules.bradley_terry(lb, prior=prior)
    assert np.abs(_stationarity(res, counts)).max() < 1e-6 * max(1.0, counts.sum())
    # the same from the pairwise matrix
    assert rules.bradley_terry(cs.pairwise(lb), prior=prior).scores.tolist() == pytest.approx(res.scores.tolist())


# ====================================================================== schulze and ranked pairs
def test_schulze_wikipedia_example():
    lb = from_rankings([(list(r), c) for r, c in SCHULZE_WIKI])
    res = rules.schulze(lb)
    assert res.ranking == (("E",), ("A",), ("C",), ("B",), ("D",)) and res.winners == ("E",)
    # the strongest paths Wikipedia prints (winning votes)
    assert res.details["strongest_paths"].astype(int).values.tolist() == [
        [0, 28, 28, 30, 24],
        [25, 0, 28, 33, 24],
        [25, 29, 0, 29, 24],
        [25, 28, 28, 0, 24],
        [25, 28, 28, 31, 0],
    ]
    assert res.details["weak_order"] is True
    assert rules.schulze(lb, variant="margins").ranking == res.ranking


def test_ranked_pairs_on_the_schulze_example():
    # margins: B>D 21, E>D 17, A>D 15, C>B 13, D>C 11, E>B 9, A>C 7, B>A 5, C>E 3, E>A 1.
    # lock B>D, E>D, A>D, C>B; skip D>C (C>B>D); lock E>B, A>C; skip B>A (A>C>B); lock C>E
    # (E does not reach C); skip E>A (A>C>E). Result A > C > E > B > D.
    res = rules.ranked_pairs(from_rankings([(list(r), c) for r, c in SCHULZE_WIKI]))
    assert res.ranking == (("A",), ("C",), ("E",), ("B",), ("D",))
    assert [(a, b) for a, b, _ in res.details["skipped"]] == [("D", "C"), ("B", "A"), ("E", "A")]
    assert [s for _, _, s in res.details["locked"]] == [21.0, 17.0, 15.0, 13.0, 9.0, 7.0, 3.0]
    assert res.details["order_dependent"] is False and res.winners == ("A",) and res.details["tie_break_orders"] == {}


def test_tennessee_capital():
    lb = from_rankings([(list(r), c) for r, c in TENNESSEE])
    # Nashville is the Condorcet winner (68% over each); C beats K 83:17, K beats M 58:42
    assert cs.condorcet_winner(lb) == "N"
    for rule in (rules.schulze, rules.ranked_pairs):
        assert rule(lb).ranking == (("N",), ("C",), ("K",), ("M",))
    locked = rules.ranked_pairs(lb).details["locked"]
    assert locked[0] == ("C", "K", 66.0) and locked[1][2] == 36.0  # C>K 83-17, then N>C and N>K 68-32
    assert rules.ranked_pairs(lb, variant="winning_votes").ranking == (("N",), ("C",), ("K",), ("M",))


def test_ranked_pairs_never_breaks_an_equal_margin_cycle_silently():
    cycle = _board(pd.DataFrame({"t1": [3, 2, 1], "t2": [1, 3, 2], "t3": [2, 1, 3]}, index=["a", "b", "c"]))
    res = rules.ranked_pairs(cycle)
    assert res.ranking == (("a", "b", "c"),) and res.details["order_dependent"] is True
    assert res.details["contested"] == ({"strength": 1.0, "pairs": (("a", "b"), ("b", "c"), ("c", "a")), "tied": ("a", "b", "c")},)
    assert res.winners == ("a", "b", "c") and res.details["status"] == "optimal"  # each order elects another
    assert set(res.details["tie_break_orders"]) == {"a", "b", "c"}
    assert rules.schulze(cycle).ranking == (("a", "b", "c"),)
    json.dumps(res.to_dict())


def test_ranked_pairs_keeps_stronger_locks_around_a_contested_batch():
    # d beats everyone by 3 (locked first); then a>b, b>c, c>a all by 1: tied below d
    profile = [("dabc", 1), ("dbca", 1), ("dcab", 1)]
    res = rules.ranked_pairs(from_rankings([(list(r), c) for r, c in profile]))
    assert res.ranking == (("d",), ("a", "b", "c")) and res.winners == ("d",)
    assert res.details["status"] == "optimal" and set(res.details["tie_break_orders"]) == {"d"}


def test_schulze_relation_that_is_not_a_weak_order():
    # winning votes: c>a 4:0, c>d 2:0, d>a 2:0; b ties everyone 2:2. c above a and d, d above a,
    # b unordered with all: the winners are b and c; d is one tier down, a two.
    wins = np.array([[0, 2, 0, 0], [2, 0, 2, 2], [4, 2, 0, 2], [2, 2, 0, 0]])
    res = rules.schulze(PairwiseMatrix.from_array(wins, systems=["a", "b", "c", "d"]))
    assert res.details["weak_order"] is False
    assert res.ranking == (("b", "c"), ("d",), ("a",)) and res.winners == ("b", "c")
    assert res.details["beats"].to_dict() == {"a": 0.0, "b": 0.0, "c": 2.0, "d": 1.0}
    assert res.details["relation"].loc["c"].tolist() == [True, False, False, True]


def _classic_ranked_pairs(p: PairwiseMatrix) -> set[bytes]:
    """Every locked relation of Tideman's procedure over all orders of the equal-margin pairs."""
    margins, n = p.exact_margins, p.n_systems
    pairs = [(i, j) for i in range(n) for j in range(n) if p.majority[i, j] > 0]
    batches = [[q for q in pairs if margins[q] == m] for m in sorted({margins[q] for q in pairs}, reverse=True)]
    outcomes = set()
    for orders in itertools.product(*(itertools.permutations(b) for b in batches)):
        above = np.zeros((n, n), dtype=bool)
        for i, j in (q for order in orders for q in order):
            if not above[j, i]:
                above |= np.outer(above[:, i] | (np.arange(n) == i), above[j, :] | (np.arange(n) == j))
        outcomes.add(above.tobytes())
    return outcomes


@st.composite
def _ranking_profiles(draw):
    n = draw(st.integers(3, 4))
    voters = draw(st.lists(st.permutations(list(range(n))), min_size=2, max_size=5))
    frame = pd.DataFrame({f"v{k}": [float(v.index(i)) for i in range(n)] for k, v in enumerate(voters)},
                         index=[f"s{i}" for i in range(n)])
    return _board(frame)


@given(_ranking_profiles())
def test_ranked_pairs_flags_exactly_the_order_dependent_profiles(lb):
    p = cs.pairwise(lb)
    outcomes = _classic_ranked_pairs(p)
    res = rules.ranked_pairs(lb)
    assert res.details["order_dependent"] == (len(outcomes) > 1)
    n = lb.n_systems
    winners = {lb.systems[i] for o in outcomes for i in np.nonzero(~np.frombuffer(o, bool).reshape(n, n).any(axis=0))[0]}
    assert set(res.winners) == winners and res.details["status"] == "optimal"
    tier = {s: k for k, g in enumerate(res.ranking) for s in g}
    if len(outcomes) == 1:  # the classic result, whatever the order
        above = np.frombuffer(outcomes.pop(), bool).reshape(n, n)
        for i, j in zip(*np.nonzero(above)):
            assert tier[lb.systems[i]] < tier[lb.systems[j]]


def _winners_over_orders(margins: np.ndarray) -> set[int]:
    """Brute force: the unbeaten systems of every order of the equal-margin links, walking each
    order one link at a time (memoized on the links left and the locked closure only)."""
    n = len(margins)
    values = sorted({int(m) for m in margins[margins > 0].tolist()}, reverse=True)
    batches = [frozenset(zip(*(x.tolist() for x in np.nonzero(margins == m)))) for m in values]
    found: set[int] = set()

    @functools.lru_cache(maxsize=None)
    def walk(b: int, left: frozenset, state: bytes) -> None:
        above = np.frombuffer(state, bool).reshape(n, n)
        if not left:
            if b + 1 >= len(batches):
                found.update(np.nonzero(~above.any(axis=0))[0].tolist())
            else:
                walk(b + 1, batches[b + 1], state)
            return
        for i, j in left:
            after = above
            if not above[j, i]:
                after = above | np.outer(above[:, i] | (np.arange(n) == i), above[j, :] | (np.arange(n) == j))
            walk(b, left - {(i, j)}, after.tobytes())

    if not batches:
        return set(range(n))
    walk(0, batches[0], np.zeros((n, n), bool).tobytes())
    return found


def _replayed_winner(margins: np.ndarray, first: list[tuple[int, int]]) -> set[int]:
    """The classic procedure when each margin class takes the links of `first` first."""
    n = len(margins)
    above = np.zeros((n, n), bool)
    for m in sorted({int(v) for v in margins[margins > 0].tolist()}, reverse=True):
        links = [q for q in first if margins[q] == m]
        links += [q for q in zip(*(x.tolist() for x in np.nonzero(margins == m))) if q not in links]
        for i, j in links:
            if not above[j, i]:
                above |= np.outer(above[:, i] | (np.arange(n) == i), above[j, :] | (np.arange(n) == j))
    return set(np.nonzero(~above.any(axis=0))[0].tolist())


@st.composite
def _boards_with_equal_margins(draw):
    n = draw(st.integers(3, 6))
    tasks = draw(st.integers(2, 5))
    cells = draw(st.lists(st.integers(0, 2), min_size=n * tasks, max_size=n * tasks))
    frame = pd.DataFrame(np.array(cells, float).reshape(n, tasks), index=[f"c{i}" for i in range(n)],
                         columns=[f"t{k}" for k in range(tasks)])
    return _board(frame)


@given(_boards_with_equal_margins())
def test_ranked_pairs_winners_are_those_of_some_tie_break_order(lb):
    # winners: exactly the unbeaten systems over every order (brute force over the orders, up
    # to 6 systems with small integer scores: majority ties and equal margins everywhere)
    p = cs.pairwise(lb)
    margins = np.where(p.majority > 0, p.exact_margins, 0).astype(np.int64)
    res = rules.ranked_pairs(lb)
    assert res.details["status"] == "optimal"
    assert {lb.systems.index(s) for s in res.winners} == _winners_over_orders(margins)
    index = {s: k for k, s in enumerate(lb.systems)}
    for winner, links in res.details["tie_break_orders"].items():  # each witness, replayed here
        assert index[winner] in _replayed_winner(margins, [(index[a], index[b]) for a, b in links])
    later = {s: float(sum(len(g) for g in res.ranking[k + 1:])) for k, tier in enumerate(res.ranking) for s in tier}
    assert res.scores.to_dict() == later  # scores: the systems in lower tiers


def test_ranked_pairs_first_tier_holds_every_winner_of_some_order():
    # the issue's board: the tie blocks put c2 first alone; the order taking c0's pair first elects c0
    frame = pd.DataFrame([[0, 2, 1], [2, 1, 0], [2, 2, 0], [1, 0, 2]], index=["c0", "c1", "c2", "c3"],
                         columns=["t1", "t2", "t3"]).astype(float)
    res = rules.ranked_pairs(_board(frame))
    assert res.winners == ("c0", "c2") and res.details["status"] == "optimal"
    assert res.details["order_dependent"] is True and res.details["undecided"] == ()
    assert set(res.details["tie_break_orders"]) == {"c0", "c2"}


def test_ranked_pairs_search_stops_at_its_time_limit_with_an_honest_first_tier():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 3, size=(30, 4)).astype(float), index=[f"s{i}" for i in range(30)],
                         columns=[f"t{k}" for k in range(4)])
    lb = _board(frame)
    full = rules.ranked_pairs(lb)
    cut = rules.ranked_pairs(lb, time_limit=0.0)
    assert full.details["order_dependent"] and full.details["status"] == "optimal"
    assert cut.details["status"] == "time_limit" and cut.details["undecided"]
    # nothing that can win is left out of the first tier: found plus undecided
    assert set(full.winners) <= set(cut.winners) == set(cut.details["undecided"]) | set(cut.details["tie_break_orders"])
    with pytest.raises(InvalidOptionError, match="time_limit"):
        rules.ranked_pairs(lb, time_limit=-1)


def _schulze_naive(p: PairwiseMatrix) -> np.ndarray:
    """Schulze 2011, sec. 2.3, with loops: winning-votes links, widest paths, P[i, j] > P[j, i]."""
    n, d = p.n_systems, p.wins
    strength = [[d[i][j] if d[i][j] > d[j][i] else 0.0 for j in range(n)] for i in range(n)]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if len({i, j, k}) == 3:
                    strength[i][j] = max(strength[i][j], min(strength[i][k], strength[k][j]))
    return np.array([[strength[i][j] > strength[j][i] for j in range(n)] for i in range(n)])


@given(score_tables(weighted=True, max_systems=6, max_tasks=5, missing=True))
def test_schulze_matches_the_naive_definition_and_lies_in_the_smith_set(lb):
    res = rules.schulze(lb)
    relation = _schulze_naive(cs.pairwise(lb))
    assert (res.details["relation"].to_numpy() == relation).all()
    unbeaten = tuple(s for s, col in zip(lb.systems, relation.T) if not col.any())
    assert res.winners == unbeaten
    assert set(res.winners) <= set(cs.smith_set(lb))


@given(score_tables(weighted=True, max_systems=6, max_tasks=5, missing=True))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_condorcet_consistency(lb):
    winner = cs.condorcet_winner(lb)
    assume(winner is not None)
    for variant in ("winning_votes", "margins"):
        assert rules.schulze(lb, variant=variant).winners == (winner,)
        assert rules.ranked_pairs(lb, variant=variant).winners == (winner,)


# ====================================================================== all five: registry, properties
def _run(lb: Leaderboard, rule: str) -> cs.results.RuleResult:
    return cs.rank(lb, rule, min_coverage=0, **OPTIONS.get(rule, {}))  # every system of the drawn board


def _tiers(res: cs.results.RuleResult) -> list[frozenset[str]]:
    return [frozenset(g) for g in res.ranking]


def _usable(rule: str, frame: pd.DataFrame) -> bool:
    return rule != "normalized_mean" or not frame.isna().any().any()


@given(score_frames(max_systems=5, max_tasks=4, missing=True), st.data())
def test_anonymity_and_neutrality(frame, data):
    cols = data.draw(st.permutations(list(frame.columns)))
    rows = data.draw(st.permutations(list(frame.index)))
    rename = {s: f"x{k}" for k, s in enumerate(reversed(frame.index))}
    weights = {frame.columns[0]: 2.0}
    lb = _board(frame, weights=weights)
    shuffled = _board(frame[cols], weights=weights)
    relabeled = _board(frame.loc[rows].rename(index=rename), weights=weights)
    for rule in NEW_RULES:
        if not _usable(rule, frame):
            continue
        try:
            a = _run(lb, rule)
        except InvalidOptionError as err:  # mean_win_rate: a system with no rival anywhere
            assert rule == "mean_win_rate" and "no task of positive weight" in str(err)
            continue
        b, c = _run(shuffled, rule), _run(relabeled, rule)
        assert b.scores.tolist() == pytest.approx(a.scores.tolist(), abs=1e-9), rule
        assert _tiers(a) == _tiers(b), rule
        assert c.scores[[rename[s] for s in lb.systems]].tolist() == pytest.approx(a.scores.tolist(), abs=1e-9), rule
        assert _tiers(c) == [frozenset(rename[s] for s in g) for g in _tiers(a)], rule


def test_registry_cli_options_and_shared_options(votenrank_toy, tmp_path):
    from consensus.cli import main

    assert set(NEW_RULES) <= set(rules.RULE_NAMES)
    assert {r: auto_missing(r) for r in NEW_RULES} == {
        "mean_win_rate": None, "normalized_mean": "median", "bradley_terry": None, "schulze": None, "ranked_pairs": None,
    }
    with pytest.raises(InvalidOptionError, match=r"rule 'schulze' takes no option\(s\) prior"):
        cs.rank(votenrank_toy, "schulze", prior=1.0)
    grouped = votenrank_toy.with_groups({"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]})
    for rule in NEW_RULES:
        res = _run(votenrank_toy, rule)
        assert res.winners == ("B",), rule  # B is the toy's Condorcet winner and best on average
        json.dumps(cs.rank(grouped, rule, two_step=True, **OPTIONS.get(rule, {})).to_dict())
        json.dumps(cs.rank(grouped, rule, tie_break="lexicographic", **OPTIONS.get(rule, {})).to_dict())
    assert rules.schulze(cs.pairwise(votenrank_toy)).ranking == rules.schulze(votenrank_toy).ranking
    path = tmp_path / "toy.csv"
    votenrank_toy.scores.to_csv(path)
    out = tmp_path / "out.json"
    code = main(["rank", str(path), "--rule", "normalized_mean", "--option", 'baseline={"t1": 1}',
                 "--option", "maximum=4", "--option", "clip=false", "--format", "json", "--output", str(out), "--quiet"])
    assert code == 0
    options = json.loads(out.read_text())["result"]["options"]
    assert options["baseline"] == {"t1": 1.0} and options["maximum"] == 4.0 and options["clip"] is False
