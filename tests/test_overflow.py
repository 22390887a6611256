"""Weights and scores near the top of float64 (defect 11): right rankings or a named error.

Weights of 1e308 used to overflow every weighted sum (mean scored every system NaN, Kemeny
reported an infinite objective as optimal), and scores of +-1.7e308 overflowed means to
+-inf, whose ties were then broken by input order. Every rule is scale-free in the task
weights, so they are divided by a power of two first; means are taken on rescaled scores;
a score that truly does not fit raises :class:`consensus.errors.ScoreOverflowError`.

Every expected ranking below is derived by hand from the definitions, with the rules'
score tolerance (``SCORE_TOL``, relative to the larger score) where scores differ by 1
out of 1e308.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.rules import RULES

W = 1e308


def _board(scores: dict[str, list[float]], weights: dict[str, float] | None = None) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(pd.DataFrame(scores, index=["a", "b", "c"]), weights=weights)


def _rank(table: cs.Leaderboard, rule: str) -> cs.results.RuleResult:
    options = {"vector": (2.0, 1.0, 0.0)} if rule == "scoring" else {}
    return cs.rank(table, rule, **options)


# t1, t2 (weight 1e308 each): a > b > c and a > c > b; t3 (weight 1): b > c > a.
# b beats c by exactly 1 (t1 + t3 against t2): only exact majority rules see it.
HUGE_WEIGHTS = _board(
    {"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0], "t3": [1.0, 3.0, 2.0]}, {"t1": W, "t2": W, "t3": 1.0}
)
A_THEN_BC = (("a",), ("b", "c"))
A_B_C = (("a",), ("b",), ("c",))
EXPECTED_HUGE_WEIGHTS = {
    "plurality": A_B_C,  # 2e308, 1, 0: 1 against 0 is not within the tolerance
    "borda": A_THEN_BC,  # 4W, W + 2, W + 1
    "dowdall": A_THEN_BC,
    "scoring": A_THEN_BC,  # (2, 1, 0) is Borda
    "rank_complement": A_THEN_BC,
    "top_ten": A_THEN_BC,
    "eurovision": A_THEN_BC,
    "threshold": A_THEN_BC,  # last places 1, W, W; then first places 1 vs 0 out of 2W + 1
    "baldwin": A_THEN_BC,  # b and c tie on Borda within the tolerance: out together
    "condorcet": A_THEN_BC,  # a beats both 2W to 1
    "copeland": A_B_C,  # b beats c by 1 exactly
    "minimax": A_THEN_BC,  # both are beaten by a with 2W
    "mean": A_THEN_BC,  # about 3, 1.5, 1.5
    "geometric_mean": A_THEN_BC,
    "optimality_gap": A_THEN_BC,
    "mean_win_rate": A_THEN_BC,  # 2W, 0.5W + 1, 0.5W + 0.5 out of 2W + 1
    "normalized_mean": A_THEN_BC,  # as mean, times 100
    "bradley_terry": A_THEN_BC,  # b beats c W + 1 to W: a log-strength gap of about 1/W
    "schulze": A_B_C,  # exact majority b over c: a link c lacks
    "ranked_pairs": A_B_C,  # exact margins 2W - 1, 2W - 1, 1: all locked
    "kemeny": A_B_C,  # exact: b beats c by 1
}

# t1, t2: a = 1.7e308, b = -1.7e308, c = 0; t3: c > b > a. Unit weights.
HUGE_SCORES = _board({"t1": [1.7e308, -1.7e308, 0.0], "t2": [1.7e308, -1.7e308, 0.0], "t3": [1.0, 2.0, 3.0]})
A_C_B = (("a",), ("c",), ("b",))
AC_THEN_B = (("a", "c"), ("b",))
EXPECTED_HUGE_SCORES: dict[str, tuple[tuple[str, ...], ...] | type[Exception]] = {
    "plurality": A_C_B,
    "borda": AC_THEN_B,  # 4, 1, 4
    "dowdall": A_C_B,
    "scoring": AC_THEN_B,
    "rank_complement": AC_THEN_B,
    "top_ten": AC_THEN_B,  # 28, 25, 28
    "eurovision": AC_THEN_B,  # 32, 26, 32
    "threshold": (("c",), ("a",), ("b",)),  # c is never last
    "baldwin": A_C_B,
    "condorcet": (("a",), ("b", "c")),
    "copeland": A_C_B,
    "minimax": A_C_B,
    "mean": A_C_B,  # 1.13e308, -1.13e308, 1
    "geometric_mean": cs.errors.NonPositiveScoreError,  # b and c score <= 0 on t1
    "optimality_gap": cs.errors.ScoreOverflowError,  # b's mean gap is -2.27e308: not a float64
    "mean_win_rate": AC_THEN_B,  # 2/3, 1/6, 2/3
    "normalized_mean": cs.errors.ScoreOverflowError,  # 1.7e308 x 100 on t1
    "bradley_terry": AC_THEN_B,  # p_a = p_c = 5 p_b solves the likelihood equations
    "schulze": A_C_B,  # links a>b 2, a>c 2, c>b 3
    "ranked_pairs": A_C_B,  # margins c>b 3, a>b 1, a>c 1: all locked
    "kemeny": A_C_B,
}


def test_every_registered_rule_is_covered():
    assert set(EXPECTED_HUGE_WEIGHTS) == set(RULES) == set(EXPECTED_HUGE_SCORES)


@pytest.mark.parametrize("rule", sorted(EXPECTED_HUGE_WEIGHTS))
def test_weights_of_1e308(rule):
    res = _rank(HUGE_WEIGHTS, rule)
    assert res.ranking == EXPECTED_HUGE_WEIGHTS[rule]
    assert np.all(np.isfinite(res.scores.to_numpy()))


@pytest.mark.parametrize("rule", sorted(EXPECTED_HUGE_SCORES))
def test_scores_of_plus_minus_1_7e308(rule):
    expected = EXPECTED_HUGE_SCORES[rule]
    if isinstance(expected, type):
        with pytest.raises(expected, match="task 't1'"):
            _rank(HUGE_SCORES, rule)
        return
    res = _rank(HUGE_SCORES, rule)
    assert res.ranking == expected
    assert np.all(np.isfinite(res.scores.to_numpy()))


def test_the_weight_scale_is_recorded_only_when_used():
    assert _rank(HUGE_WEIGHTS, "borda").details["weight_scale"] < 1e-9
    assert "weight_scale" not in _rank(HUGE_SCORES, "borda").details


def test_mean_near_the_float_limit_is_right_and_ties_are_real():
    table = _board({"t1": [-1.7e308, -1.7e308, 1.7e308], "t2": [-1.7e308, -1.6e308, 1.7e308]})
    res = cs.rank(table, "mean")
    assert res.ranking == (("c",), ("b",), ("a",))
    assert res.scores.to_dict() == pytest.approx({"a": -1.7e308, "b": -1.65e308, "c": 1.7e308})
    tied = _board({"t1": [-1.7e308, -1.7e308, 0.0], "t2": [-1.7e308, -1.7e308, 0.0]})
    assert cs.rank(tied, "mean").ranking == (("c",), ("a", "b"))  # a real tie, not input order


def test_the_mean_tie_break_does_not_overflow():
    res = cs.rank(HUGE_SCORES, "borda", tie_break="mean")
    assert res.ranking == A_C_B


def test_kemeny_with_weights_of_1e308_is_finite_and_exact():
    res = cs.kemeny(HUGE_WEIGHTS, enumerate_optima=10)
    assert res.order == ("a", "b", "c") and res.optima == (("a", "b", "c"),)
    assert res.status.value == "optimal" and math.isfinite(res.objective) and res.lower_bound == res.objective
    assert any("divided by" in note for note in res.notes)
    p = cs.pairwise(HUGE_WEIGHTS)
    assert 0 < p.weight_scale < 1 and np.all(np.isfinite(p.wins))
    assert p.majority.tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]
    assert cs.condorcet_winner(HUGE_WEIGHTS) == "a"


def test_a_weight_float64_cannot_hold_next_to_1e308_is_named():
    """A subnormal weight is refused when the board is built (it used to reach the margins,
    where a 2e-323 weight counted as zero and Kemeny listed optima brute force does not)."""
    with pytest.raises(cs.errors.InvalidWeightError, match="task 't3' is subnormal") as info:
        _board({"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0], "t3": [1.0, 3.0, 2.0]}, {"t1": W, "t2": W, "t3": 5e-324})
    assert info.value.task == "t3"
    table = _board({"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0], "t3": [1.0, 3.0, 2.0]}, {"t1": W, "t2": W, "t3": 1e-300})
    with pytest.raises(cs.errors.InvalidWeightError, match="task 't3'") as info:  # normal, but 1e608 below the largest
        cs.rank(table, "borda")
    assert info.value.task == "t3"
    assert cs.kemeny(table).order == ("a", "b", "c")  # exact margins keep the 1e-300 task


def test_an_overflowing_scoring_vector_is_refused_not_ranked():
    table = _board({"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0]})
    with pytest.raises(cs.errors.ScoreOverflowError, match="rule 'scoring'") as info:
        cs.rank(table, "scoring", vector=(1.7e308, 0.0, 0.0))
    assert info.value.systems == ("a",)
