"""Majority ties are exact: no tolerance relative to the largest weight (defect 10).

A task of weight 1e12 on which every system ties used to set the tie tolerance (1e-9 of
the largest weight sum, ~1e3) and so swallowed every other task. Now margins are summed
exactly (tied tasks cancel), Kemeny compares orders in exact arithmetic, and only float
rounding of a pair's *own* sums counts as a tie.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus import PairwiseMatrix
from solvers.brute_force import brute_force_linear_ordering
from solvers.linear_ordering import majority_components, solve_linear_ordering

pytestmark = pytest.mark.filterwarnings("ignore::consensus.DegenerateTaskWarning")


def _board(scores: dict[str, list[float]], systems: list[str], weights: dict[str, float]) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(pd.DataFrame(scores, index=systems), weights=weights)


# ---------------------------------------------------------------- an independent exact reference
def _exact_preferences(table: cs.Leaderboard) -> list[list[Fraction]]:
    """pref[i][j]: exact task weight preferring i to j (a tie counts half), from the scores."""
    values = table.values
    weights = [Fraction(float(w)) for w in table.weights]
    n = len(table.systems)
    pref = [[Fraction(0)] * n for _ in range(n)]
    for i, j in itertools.permutations(range(n), 2):
        for t, w in enumerate(weights):
            if values[i, t] > values[j, t]:
                pref[i][j] += w
            elif values[i, t] == values[j, t]:
                pref[i][j] += w / 2
    return pref


def _exact_objective(pref: list[list[Fraction]], order: list[int]) -> Fraction:
    """Placing order[a] above order[b] pays the weight preferring order[b]."""
    return sum((pref[order[b]][order[a]] for a in range(len(order)) for b in range(a + 1, len(order))), Fraction(0))


def _exact_minimum(pref: list[list[Fraction]]) -> Fraction:
    n = len(pref)
    scale = math.lcm(*(x.denominator for row in pref for x in row))
    ints = [[int(x * scale) for x in row] for row in pref]
    best = min(
        sum(ints[order[b]][order[a]] for a in range(n) for b in range(a + 1, n))
        for order in itertools.permutations(range(n))
    )
    return Fraction(best, scale)


@st.composite
def wide_weight_boards(draw: st.DrawFn, max_systems: int = 7, max_tasks: int = 4) -> cs.Leaderboard:
    """Small integer scores (ties and cycles) and weights m * 2**e, e in -40..40 (1e-12 .. 1e12)."""
    n = draw(st.integers(2, max_systems))
    m = draw(st.integers(1, max_tasks))
    rows = draw(st.lists(st.lists(st.integers(0, 2), min_size=m, max_size=m), min_size=n, max_size=n))
    exponents = draw(st.lists(st.integers(-40, 40), min_size=m, max_size=m))
    mantissas = draw(st.lists(st.integers(1, 3), min_size=m, max_size=m))
    tasks = [f"t{j}" for j in range(m)]
    scores = {t: [float(r[j]) for r in rows] for j, t in enumerate(tasks)}
    weights = {t: mantissas[j] * 2.0 ** exponents[j] for j, t in enumerate(tasks)}
    return _board(scores, [f"s{i}" for i in range(n)], weights)


@given(wide_weight_boards())
def test_kemeny_is_exactly_optimal_with_weights_from_1e_12_to_1e12(table):
    pref = _exact_preferences(table)
    res = cs.kemeny(table)
    order = [table.systems.index(s) for s in res.order]
    assert res.status.value == "optimal" and res.notes == ()
    assert _exact_objective(pref, order) == _exact_minimum(pref)


@given(wide_weight_boards(max_systems=6, max_tasks=3))
def test_the_ilp_is_exact_or_says_it_is_not(table):
    pref = _exact_preferences(table)
    res = cs.kemeny(table, method="ilp")
    order = [table.systems.index(s) for s in res.order]
    assert res.status.value == "optimal"
    exact = _exact_objective(pref, order) == _exact_minimum(pref)
    assert exact or any("not proven exactly optimal" in note for note in res.notes)


@given(wide_weight_boards())
def test_every_majority_function_reads_the_same_exact_signs(table):
    pref = _exact_preferences(table)
    n = len(pref)
    want = np.array([[np.sign(pref[i][j] - pref[j][i]) for j in range(n)] for i in range(n)], dtype=int)
    p = cs.pairwise(table)
    assert (p.majority == want).all()
    assert (cs.majority.beats(table) == (want > 0)).all()
    assert {tuple(sorted(e)) for e in cs.majority.majority_ties(table)} == {
        (table.systems[i], table.systems[j]) for i in range(n) for j in range(i + 1, n) if want[i, j] == 0
    }
    winner = cs.condorcet_winner(table)
    expected = [table.systems[i] for i in range(n) if (np.delete(want[i], i) > 0).all()]
    assert winner == (expected[0] if expected else None)
    assert cs.rank(table, "condorcet").winners == tuple(expected)
    copeland = cs.rank(table, "copeland").scores.to_numpy()
    assert copeland.tolist() == ((want > 0).sum(axis=1) - (want < 0).sum(axis=1)).astype(float).tolist()
    groups = majority_components(p.preferences, margins=p.exact_margins)
    rank_of = {i: g for g, members in enumerate(groups) for i in members}
    assert not any(want[i, j] > 0 and rank_of[i] > rank_of[j] for i in range(n) for j in range(n))


# ---------------------------------------------------------------- the reproduction of defect 10
@pytest.fixture
def huge_tie() -> cs.Leaderboard:
    """a > b > c on three tasks of weight 1; every system ties on a task of weight 1e12.

    Systems are listed worst first, so taking every pair for a tie returns the worst order.
    """
    scores = {"big": [1.0, 1.0, 1.0], "t1": [1.0, 2.0, 3.0], "t2": [1.0, 2.0, 3.0], "t3": [1.0, 2.0, 3.0]}
    return _board(scores, ["c", "b", "a"], {"big": 1e12})


def test_a_huge_tied_task_does_not_hide_a_3_0_condorcet_winner(huge_tie):
    assert cs.condorcet_winner(huge_tie) == "a"
    assert cs.majority.is_condorcet_winner(huge_tie, "a")
    assert cs.majority.majority_ties(huge_tie) == []
    assert sorted(cs.majority_graph(huge_tie).edges()) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert cs.smith_set(huge_tie) == ("a",)
    assert cs.majority.condorcet_loser(huge_tie) == "c"
    assert cs.rank(huge_tie, "condorcet").winners == ("a",)
    assert cs.rank(huge_tie, "copeland").scores.to_dict() == {"c": -2.0, "b": 0.0, "a": 2.0}
    assert cs.rank(huge_tie, "minimax").winners == ("a",)


@pytest.mark.parametrize("method", ["auto", "brute_force", "ilp"])
def test_a_huge_tied_task_does_not_fool_kemeny(huge_tie, method):
    res = cs.kemeny(huge_tie, method=method, enumerate_optima=10)
    assert res.order == ("a", "b", "c") and res.optima == (("a", "b", "c"),) and res.unique
    assert res.status.value == "optimal" and res.lower_bound == res.objective
    pref = _exact_preferences(huge_tie)
    order = [huge_tie.systems.index(s) for s in res.order]
    assert _exact_objective(pref, order) == _exact_minimum(pref) == Fraction(3 * 10**12) / 2


def test_the_worst_order_is_not_optimal_any_more(huge_tie):
    worst = cs.kemeny_objective(huge_tie, ["c", "b", "a"])
    best = cs.kemeny(huge_tie).objective
    assert worst - best == 9.0  # three pairs, three tasks each, exactly


# ---------------------------------------------------------------- tiny margins and float rounding
def test_a_true_tiny_margin_is_not_a_tie():
    scores = {"x": [1.0, 0.0], "y": [0.0, 1.0], "big": [1.0, 1.0]}
    table = _board(scores, ["b", "a"], {"x": 1.0, "y": 1 + 2**-40, "big": 1e12})  # a wins y by 2**-40
    assert cs.pairwise(table).exact_margins[1, 0] == Fraction(1, 2**40)
    assert cs.condorcet_winner(table) == "a" and cs.majority.majority_ties(table) == []
    res = cs.kemeny(table)
    assert res.order == ("a", "b") and res.unique
    assert cs.rank(table, "copeland").scores.to_dict() == {"b": -1.0, "a": 1.0}


def test_a_tiny_margin_in_a_given_matrix_is_not_a_tie():
    p = PairwiseMatrix.from_array([[0, 1 + 2**-40], [1, 0]], systems=["a", "b"])
    assert p.majority.tolist() == [[0, 1], [-1, 0]]
    assert cs.condorcet_winner(p) == "a"
    assert cs.kemeny(p).order == ("a", "b")


@pytest.mark.parametrize(
    "weights",
    [{"x": 0.1, "y": 0.2, "z": 0.3}, {"x": 1 / 6, "y": 2 / 6, "z": 3 / 6}],
    ids=["decimals", "sixths"],
)
def test_rational_weights_that_tie_are_a_tie(weights):
    # a wins x and y, b wins z: as written, 0.1 + 0.2 == 0.3 (and 1/6 + 2/6 == 3/6)
    table = _board({"x": [1.0, 0.0], "y": [1.0, 0.0], "z": [0.0, 1.0]}, ["a", "b"], weights)
    p = cs.pairwise(table)
    assert p.exact_margins[0, 1] == 0 and p.majority[0, 1] == 0
    assert cs.majority.majority_ties(table) == [("a", "b")] and cs.condorcet_winner(table) is None
    assert cs.kemeny(table).unique is False


def test_float_rounding_of_a_given_tie_is_a_tie():
    p = PairwiseMatrix.from_array([[0, 0.1 + 0.2], [0.3, 0]], systems=["a", "b"])
    assert p.majority[0, 1] == 0 and p.exact_margins[0, 1] == 0
    assert cs.majority.majority_ties(p) == [("a", "b")]


def test_tiny_weights_alone_are_not_ties():
    # the old tolerance had a floor of 1e-9: weights of 1e-12 were all ties
    table = _board({"x": [1.0, 0.0], "y": [1.0, 0.0], "z": [0.0, 1.0]}, ["a", "b"], {"x": 1e-12, "y": 1e-12, "z": 1e-12})
    assert cs.condorcet_winner(table) == "a"
    assert cs.kemeny(table).order == ("a", "b")


def test_select_keeps_the_exact_margins(huge_tie):
    p = cs.pairwise(huge_tie).select(["a", "c"])
    assert p.majority.tolist() == [[0, 1], [-1, 0]] and p.exact_margins[0, 1] == 3


# ---------------------------------------------------------------- the solver layer on its own
def test_brute_force_decides_on_exact_margins():
    tiny = Fraction(1, 2**40)
    costs = [[0, 5e11, 5e11], [5e11, 0, 5e11], [5e11, 5e11, 0]]  # the floats: all ties
    margins = [[0, -tiny, -tiny], [tiny, 0, tiny], [tiny, -tiny, 0]]  # exactly: 1 > 2 > 0
    res = brute_force_linear_ordering(costs, margins=margins)
    assert res.optima == ((1, 2, 0),)
    out = solve_linear_ordering(costs, margins=margins, enumerate_optima=10)
    assert out.optima == ((1, 2, 0),) and out.optimal


def test_solver_ties_are_relative_to_the_pair_not_the_largest_entry():
    costs = np.array([[0, 1e12, 1e12, 1e12], [1e12, 0, 3, 3], [1e12, 0, 0, 3], [1e12, 0, 0, 0]])
    res = solve_linear_ordering(costs, enumerate_optima=100)
    assert all(o.index(1) < o.index(2) < o.index(3) for o in res.optima)  # 1 > 2 > 3 is not a tie
    assert len(res.optima) == 4  # 0 ties with everyone: any position


def test_an_ilp_component_beyond_float_resolution_says_so():
    rng = np.random.default_rng(1)
    n = 10
    costs = np.zeros((n, n))
    for weight in (1.0, 1.0, 1.0, 2.0**-40):
        position = rng.permutation(n)
        costs += weight * (position[:, None] < position[None, :])
    groups = majority_components(costs)
    assert max(map(len, groups)) > 8  # precondition: a component the ILP solves
    res = solve_linear_ordering(costs, unique=False)
    assert res.optimal and len(res.notes) == 1 and "not proven exactly optimal" in res.notes[0]
    plain = solve_linear_ordering(np.round(costs), unique=False)  # integer costs: exact, no note
    assert plain.optimal and plain.notes == ()


# ---------------------------------------------------------------- defect 14: from_array validates every argument
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ties": [[0, -3], [-3, 0]]}, r"ties\['a', 'b'\] = -3\.0 \(row 0, column 1\).*non-negative"),
        ({"ties": [[0, 1], [2, 0]]}, r"ties\['a', 'b'\] = 1\.0 .*differs from ties\['b', 'a'\] = 2\.0.*symmetric"),
        ({"ties": [[1, 0], [0, 0]]}, r"ties\['a', 'a'\] = 1\.0 .*diagonal"),
        ({"ties": [[0, np.inf], [np.inf, 0]]}, r"ties\['a', 'b'\] = inf .*finite"),
        ({"ties": np.zeros((3, 3))}, r"ties must be 2 x 2"),
        ({"counts": [[0, -1], [-1, 0]]}, r"counts\['a', 'b'\] = -1\.0 .*non-negative"),
        ({"counts": [[0, np.nan], [1, 0]]}, r"counts\['a', 'b'\] = nan"),
    ],
)
def test_from_array_refuses_bad_ties_and_counts(kwargs, message):
    with pytest.raises(cs.LeaderboardError, match=message):
        PairwiseMatrix.from_array([[0, 1], [2, 0]], systems=["a", "b"], **kwargs)


@pytest.mark.parametrize(
    ("wins", "message"),
    [
        ([[0, -1], [0, 0]], r"wins\['a', 'b'\] = -1\.0 \(row 0, column 1\).*non-negative"),
        ([[0, 1], [np.inf, 0]], r"wins\['b', 'a'\] = inf"),
        ([[0, np.nan], [0, 0]], r"wins\['a', 'b'\] = nan"),
    ],
)
def test_from_array_names_the_bad_wins_cell(wins, message):
    with pytest.raises(cs.LeaderboardError, match=message):
        PairwiseMatrix.from_array(wins, systems=["a", "b"])


def test_negative_ties_no_longer_give_a_negative_objective():
    with pytest.raises(cs.LeaderboardError, match="ties"):
        PairwiseMatrix.from_array([[0, 1], [2, 0]], ties=[[0, -3], [-3, 0]])
    p = PairwiseMatrix.from_array([[0, 1], [2, 0]], ties=[[0, 3], [3, 0]], systems=["a", "b"])
    assert cs.kemeny(p).objective == 2.5


def test_exact_margins_with_wide_denominators_match_fractions():
    """Weights whose common denominator exceeds int64 (2**53 * 10**6) and a weight shared by two
    tasks: the limb sums must not overflow on any numpy (1.x casts np.int64(small) * int32 to int32)."""
    from solvers.ordering_exact import as_rational

    weights = [0.166667, 0.0, 0.08333249999999996, 0.125, 0.33333350000000006, 0.0833335, 0.0833335, 0.125]
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 4, size=(7, 8)).astype(float), index=[f"s{i}" for i in range(7)],
                         columns=[f"t{k}" for k in range(8)])
    lb = cs.Leaderboard(frame, weights=dict(zip(frame.columns, weights)))
    p = cs.pairwise(lb)
    exact = [as_rational(w) for w in lb.weights]
    v = lb.values
    for i in range(7):
        for j in range(7):
            by_hand = sum((w * (int(v[i, t] > v[j, t]) - int(v[i, t] < v[j, t])) for t, w in enumerate(exact)), Fraction(0))
            assert p.exact_margins[i, j] == by_hand
            assert p.majority[i, j] == (by_hand > 0) - (by_hand < 0)
