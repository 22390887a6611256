"""Pairwise matrices and the majority relation: known answers and properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus import Leaderboard, PairwiseMatrix
from tests.strategies import score_frames, score_tables


# ---------------------------------------------------------------- known answers
def test_votenrank_toy_majority_edges_as_in_figure_3(votenrank_toy):
    # Rofin et al. 2023, appendix A.1: B beats everyone, C beats A and D, D beats A; each 3 tasks to 2.
    graph = cs.majority_graph(votenrank_toy)
    assert sorted(graph.edges()) == [("B", "A"), ("B", "C"), ("B", "D"), ("C", "A"), ("C", "D"), ("D", "A")]
    for _, _, data in graph.edges(data=True):
        assert (data["wins"], data["losses"], data["ties"], data["margin"], data["compared"]) == (3, 2, 0, 1, 5)
    assert graph.graph["ties"] == []
    assert cs.condorcet_winner(votenrank_toy) == "B"
    assert cs.majority.is_condorcet_winner(votenrank_toy, "B") and not cs.majority.is_condorcet_winner(votenrank_toy, "C")
    assert cs.majority.condorcet_loser(votenrank_toy) == "A"
    assert cs.majority.weak_condorcet_winners(votenrank_toy) == ("B",)
    assert cs.smith_set(votenrank_toy) == ("B",)
    assert cs.majority.condorcet_cycle(votenrank_toy) is None


def test_colombo_table1_pairwise_paradox(colombo_table1):
    # Colombo et al. 2022, Table 1: B > A, C > B (4 tasks to 2) and A = C (3 to 3).
    p = cs.pairwise(colombo_table1)
    frame = p.to_frame("wins")
    assert (frame.loc["B", "A"], frame.loc["A", "B"]) == (4, 2)
    assert (frame.loc["C", "B"], frame.loc["B", "C"]) == (4, 2)
    assert (frame.loc["A", "C"], frame.loc["C", "A"]) == (3, 3)
    assert cs.majority.majority_ties(colombo_table1) == [("A", "C")]
    assert cs.condorcet_winner(colombo_table1) is None
    assert cs.majority.weak_condorcet_winners(colombo_table1) == ("C",)  # ties A, beats B
    # A ties C, C beats B, B beats A: all three form the top cycle of "beats or ties"
    assert cs.smith_set(colombo_table1) == ("A", "B", "C")
    assert cs.majority.condorcet_cycle(colombo_table1) is None  # no strict 3-cycle: A-C is a tie


def test_cycle3_has_no_winner_and_reports_the_cycle(cycle3):
    assert cs.condorcet_winner(cycle3) is None
    assert cs.majority.condorcet_loser(cycle3) is None
    assert cs.smith_set(cycle3) == ("sys-a", "sys-b", "sys-c")
    cycle = cs.majority.condorcet_cycle(cycle3)
    assert cycle is not None and set(cycle) == {"sys-a", "sys-b", "sys-c"}
    beat = cs.majority.beats(cycle3)
    idx = {s: i for i, s in enumerate(cycle3.systems)}
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        assert beat[idx[a], idx[b]]


def test_weights_change_the_majority(cycle3):
    heavy = cycle3.with_weights({"qa": 5})
    # qa: a > c > b decides every pair
    assert cs.condorcet_winner(heavy) == "sys-a"
    assert cs.majority.condorcet_loser(heavy) == "sys-b"


def test_missing_scores_count_for_neither_side():
    data = pd.DataFrame({"x": [1.0, 2.0, np.nan], "y": [2.0, 1.0, 3.0], "z": [np.nan, 1.0, 0.0]}, index=list("abc"))
    p = cs.pairwise(Leaderboard.from_frame(data))
    a, b, c = 0, 1, 2
    assert p.counts[a, b] == 2 and p.counts[a, c] == 1 and p.counts[b, c] == 2
    assert p.wins[b, a] == 1 and p.wins[a, b] == 1
    assert p.wins[c, a] == 1 and p.wins[a, c] == 0
    assert cs.majority.majority_ties(p) == [("a", "b"), ("b", "c")]


def test_tie_tolerance():
    data = pd.DataFrame({"x": [0.700, 0.701, 0.5]}, index=list("abc"))
    lb = Leaderboard.from_frame(data)
    assert cs.pairwise(lb).wins[1, 0] == 1
    loose = cs.pairwise(lb, tie_tol=0.005)
    assert loose.wins[1, 0] == 0 and loose.ties[0, 1] == 1 and loose.tie_tol == 0.005
    with pytest.raises(cs.InvalidOptionError, match="tie_tol"):
        cs.pairwise(lb, tie_tol=-1)


def test_pareto_dominated_ignores_weights_and_respects_direction():
    data = pd.DataFrame({"acc": [0.9, 0.8, 0.95], "lat": [10.0, 12.0, 30.0]}, index=["a", "b", "c"])
    lb = Leaderboard.from_frame(data, lower_is_better=["lat"], weights={"lat": 0})
    assert cs.majority.pareto_dominated(lb) == {"b": ("a",)}


def test_pairwise_matrix_from_array_validation():
    with pytest.raises(cs.LeaderboardError, match="square"):
        PairwiseMatrix.from_array([[0, 1, 2]])
    with pytest.raises(cs.LeaderboardError, match="zero diagonal"):
        PairwiseMatrix.from_array([[1, 0], [0, 0]])
    with pytest.raises(cs.LeaderboardError, match="non-negative"):
        PairwiseMatrix.from_array([[0, -1], [0, 0]])
    p = PairwiseMatrix.from_array([[0, 0.6], [0.4, 0]], systems=["x", "y"])
    assert cs.condorcet_winner(p) == "x"
    with pytest.raises(cs.UnknownSystemError, match=r"unknown system 'z'"):
        p.index("z")


def test_pairwise_matrix_is_frozen(votenrank_toy):
    p = cs.pairwise(votenrank_toy)
    with pytest.raises(ValueError):
        p.wins[0, 1] = 10
    with pytest.raises(AttributeError):
        p.systems = ("x",)  # type: ignore[misc]


# ---------------------------------------------------------------- properties
@pytest.mark.slow
@given(score_tables(weighted=True, missing=True), st.data())
def test_wins_ties_and_losses_add_up_to_the_weight_compared(table, data):
    p = cs.pairwise(table)
    values, w = table.values, table.weights.to_numpy()
    ok = ~np.isnan(values)
    both = (ok[:, None, :] & ok[None, :, :]).astype(float) @ w
    np.fill_diagonal(both, 0)
    assert np.allclose(p.wins + p.wins.T + p.ties, both)
    assert np.allclose(p.ties, p.ties.T)
    assert np.all(np.diag(p.wins) == 0)


@pytest.mark.slow
@given(score_frames(missing=True), st.data())
def test_relabeling_systems_and_permuting_tasks_permutes_the_matrix_only(frame, data):
    import warnings

    perm_rows = data.draw(st.permutations(range(frame.shape[0])))
    perm_cols = data.draw(st.permutations(range(frame.shape[1])))
    new_names = [f"x{k}" for k in perm_rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        # keep_columns=True: a column reading 1, 1, 1, 2, 3 down the rows looks like a rank
        # column and would be set aside in one order and not in the other
        base = cs.pairwise(Leaderboard.from_frame(frame, keep_columns=True))
        moved = frame.iloc[list(perm_rows), list(perm_cols)].copy()
        moved.index = new_names
        other = cs.pairwise(Leaderboard.from_frame(moved, keep_columns=True))
    idx = list(perm_rows)
    for name in ("wins", "ties", "counts"):
        assert np.array_equal(getattr(other, name), getattr(base, name)[np.ix_(idx, idx)])
    assert other.systems == tuple(new_names)


@pytest.mark.slow
@given(score_tables(weighted=True, missing=True))
def test_majority_summaries_are_consistent(table):
    p = cs.pairwise(table)
    graph = cs.majority_graph(p)
    winner = cs.condorcet_winner(p)
    if winner is not None:
        assert graph.out_degree(winner) == p.n_systems - 1
        assert cs.smith_set(p) == (winner,)
        assert cs.majority.weak_condorcet_winners(p) == (winner,)
    # every pair is an edge one way or a listed tie
    n_pairs = p.n_systems * (p.n_systems - 1) // 2
    assert graph.number_of_edges() + len(graph.graph["ties"]) == n_pairs
    # Smith set members beat every outsider
    smith = set(cs.smith_set(p))
    for s in smith:
        for t in set(p.systems) - smith:
            assert graph.has_edge(s, t)
    loser = cs.majority.condorcet_loser(p)
    if loser is not None:
        assert graph.in_degree(loser) == p.n_systems - 1
