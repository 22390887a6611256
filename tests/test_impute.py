"""Tests for consensus.missing._impute: compatible-ranking matrices, sigma_l / sigma_2l, confidence."""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.errors import EmptyTaskError, InvalidOptionError, InvalidWeightError
from consensus.majority._inputs import as_pairwise
from consensus.missing import _partial_sums as partial_sums
from tests.strategies import score_tables


# ---------------------------------------------------------------------- references
def brute_force_matrix(scores: np.ndarray) -> np.ndarray:
    """Share of compatible rankings with i above j, by enumerating all N! rankings.

    Compatible: every scored system with a strictly higher score is above every scored system
    with a strictly lower one (tied scored systems in either order, unscored anywhere).
    """
    n = len(scores)
    scored = [i for i in range(n) if not math.isnan(scores[i])]
    constraints = [(a, b) for a in scored for b in scored if scores[a] > scores[b]]
    above = np.zeros((n, n))
    total = 0
    for perm in itertools.permutations(range(n)):
        pos = {s: p for p, s in enumerate(perm)}
        if all(pos[a] < pos[b] for a, b in constraints):
            total += 1
            for i in range(n):
                for j in range(n):
                    if i != j and pos[i] < pos[j]:
                        above[i, j] += 1
    return above / total


def reference_matrix(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Straightforward per-column, per-pair loop over the closed form (independent of the kernel)."""
    n, k = values.shape
    total = np.zeros((n, n))
    for col in range(k):
        x = values[:, col]
        scored = ~np.isnan(x)
        n_scored = int(scored.sum())
        mid = np.zeros(n)
        for j in range(n):
            if scored[j]:
                above = np.sum(scored & (x > x[j]))
                tied = np.sum(scored & (x == x[j]))
                mid[j] = above + (tied + 1) / 2
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                if scored[i] and scored[j]:
                    m = 1.0 if x[i] > x[j] else 0.5 if x[i] == x[j] else 0.0
                elif not scored[i] and not scored[j]:
                    m = 0.5
                elif scored[j]:
                    m = mid[j] / (n_scored + 1)
                else:
                    m = 1 - mid[i] / (n_scored + 1)
                total[i, j] += weights[col] * m
    return total


def paper_eq6(n: int, k: int, r: int, *, misprint: bool = False) -> Fraction:
    """Himmi et al. Eq. 6 (r = scored systems above j, from 0), with S and V read as intended."""

    def shuffles(a: int, b: int) -> Fraction:
        if misprint:
            return Fraction(factorial(a + b), factorial(a) + factorial(b))
        return Fraction(comb(a + b, a))

    def variations(a: int, b: int) -> int:
        return factorial(b) // factorial(b - a)

    total = sum(
        variations(i, n - k - 1) * (i + 1) * shuffles(r, i + 1) * factorial(n - k - i - 1) * shuffles(n - k - i - 1, k - r - 1)
        for i in range(n - k)
    )
    return Fraction(total) / (factorial(n - k) * shuffles(k, n - k))


def borda_average_ranks(lb: cs.Leaderboard) -> np.ndarray:
    """Weighted Borda with average ranks: sum_t w_t (N - midrank_t(i)), complete data only."""
    values = lb.values
    n = values.shape[0]
    out = np.zeros(n)
    for t, w in enumerate(lb.weights.to_numpy()):
        col = values[:, t]
        mid = np.array([np.sum(col > col[i]) + (np.sum(col == col[i]) + 1) / 2 for i in range(n)])
        out += w * (n - mid)
    return out


def leaderboard(frame: pd.DataFrame, **options) -> cs.Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, infer=False, **options)  # the board as given (names like 'err')


partial_rankings = st.integers(1, 6).flatmap(
    lambda n: st.lists(
        st.one_of(st.integers(0, 2).map(float), st.just(float("nan"))), min_size=n, max_size=n
    ).filter(lambda xs: not all(math.isnan(x) for x in xs))
)


# ---------------------------------------------------------------------- one partial ranking
def test_paper_example_three_compatible_rankings():
    # Himmi et al. sec. 2.1: a > b scored, c not: c a b, a c b, a b c.
    m = cs.missing.partial_ranking_matrix([2.0, 1.0, float("nan")])
    assert m[0, 1] == 1.0 and m[1, 0] == 0.0
    assert m[2, 0] == pytest.approx(1 / 3) and m[2, 1] == pytest.approx(2 / 3)
    assert m[0, 2] == pytest.approx(2 / 3) and m[1, 2] == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "scores",
    [
        [3.0, 2.0, 1.0, np.nan, np.nan],
        [1.0, 1.0, np.nan, 0.0, np.nan],  # ties among the scored systems
        [2.0, 2.0, 2.0, np.nan],  # everything tied
        [np.nan, 5.0, np.nan, np.nan],  # one scored system
        [1.0, 0.0, 1.0, 0.0, 1.0, np.nan],
        [0.0, 1.0, 2.0, 3.0],  # nothing missing
    ],
)
def test_matrix_matches_brute_force(scores):
    x = np.array(scores)
    np.testing.assert_allclose(cs.missing.partial_ranking_matrix(x), brute_force_matrix(x), atol=1e-12)


@pytest.mark.slow
@given(partial_rankings)
def test_matrix_matches_brute_force_property(scores):
    x = np.array(scores)
    np.testing.assert_allclose(cs.missing.partial_ranking_matrix(x), brute_force_matrix(x), atol=1e-12)


@pytest.mark.parametrize("n", range(2, 9))
def test_paper_eq6_as_intended_equals_closed_form(n):
    for k in range(1, n):
        for r in range(k):
            assert paper_eq6(n, k, r) == Fraction(r + 1, k + 1)


def test_paper_eq6_as_printed_is_a_misprint():
    # S^a_b printed as (a+b)!/(a!+b!): the shares no longer add up.
    assert paper_eq6(4, 2, 0, misprint=True) != Fraction(1, 3)


def test_partial_ranking_matrix_rejects_all_missing():
    with pytest.raises(EmptyTaskError, match="no score for any system"):
        cs.missing.partial_ranking_matrix([float("nan"), float("nan")])


# ---------------------------------------------------------------------- summed matrices
@pytest.mark.slow
@given(score_tables(missing=True, weighted=True, max_systems=6, max_tasks=5))
def test_imputed_matrix_is_weighted_sum_of_brute_force(lb):
    res = cs.impute_pairwise(lb)
    expected = sum(w * brute_force_matrix(lb.values[:, t]) for t, w in enumerate(lb.weights.to_numpy()))
    np.testing.assert_allclose(res.matrix.wins, expected, atol=1e-9)
    np.testing.assert_array_equal(res.matrix.counts, cs.pairwise(lb).counts)
    np.testing.assert_allclose(res.scores.to_numpy(), expected.sum(axis=1), atol=1e-9)
    assert res.matrix.source == "imputed" and not res.matrix.ties.any()


@given(score_tables(missing=True, weighted=True, max_systems=6, max_tasks=6))
def test_every_pair_shares_the_total_weight(lb):
    wins = cs.impute_pairwise(lb).matrix.wins
    off = ~np.eye(lb.n_systems, dtype=bool)
    np.testing.assert_allclose((wins + wins.T)[off], lb.weights.sum(), atol=1e-9)


def test_unscored_system_gets_the_average_row_sum():
    wins = cs.missing.partial_ranking_matrix([3.0, 1.0, np.nan, 2.0, np.nan])
    assert wins[2].sum() == pytest.approx(2.0) and wins[4].sum() == pytest.approx(2.0)


@pytest.mark.slow
@given(score_tables(missing=False, weighted=True, max_systems=7, max_tasks=6))
def test_complete_data_sigma_l_is_borda_with_average_ranks(lb):
    res = cs.sigma_l(lb)
    np.testing.assert_array_equal(res.scores.to_numpy(), borda_average_ranks(lb))
    assert res.ranking == cs.rank(lb, "borda", ties="average").ranking


@given(score_tables(missing=True, weighted=True, max_systems=6, max_tasks=5))
def test_rank_borda_impute_routes_here(lb):
    ours = cs.impute_pairwise(lb)
    theirs = cs.rank(lb, "borda", missing="impute", min_coverage=0)  # the board as drawn
    np.testing.assert_allclose(theirs.scores.to_numpy(), ours.scores.to_numpy(), atol=1e-9)
    assert theirs.ranking == ours.ranking


@pytest.mark.parametrize("n_systems", [5, 70])  # 70 takes the BLAS product path
def test_kernel_matches_reference_across_chunks(monkeypatch, n_systems):
    rng = np.random.default_rng(n_systems)
    values = rng.integers(0, 4, size=(n_systems, 9)).astype(float)
    values[rng.random(values.shape) < 0.3] = np.nan
    values[:, 4] = rng.integers(0, 4, size=n_systems)  # one complete column
    values[0, :] = 1.0  # no empty task
    weights = np.array([1.0, 2.0, 0.5, 0.5, 3.0, 1.0, 0.0, 2.0, 1.0])
    frame = pd.DataFrame(values, index=[f"s{i}" for i in range(n_systems)], columns=[f"t{j}" for j in range(9)])
    lb = leaderboard(frame, weights=dict(zip(frame.columns, weights)))
    expected = reference_matrix(lb.values, weights)
    monkeypatch.setattr(partial_sums, "_CHUNK_CELLS", 2 * n_systems * n_systems)  # two columns per chunk
    monkeypatch.setattr(partial_sums, "_LEVEL_CELLS", 2 * n_systems)  # the same for the levels kernel
    np.testing.assert_allclose(cs.impute_pairwise(lb).matrix.wins, expected, atol=1e-9)


def test_weight_two_equals_task_twice():
    frame = pd.DataFrame({"a": [1.0, 2.0, np.nan, 0.0], "b": [np.nan, 1.0, 3.0, 2.0]}, index=list("wxyz"))
    doubled = frame.assign(a2=frame["a"])
    weighted = cs.impute_pairwise(leaderboard(frame, weights={"a": 2.0}))
    np.testing.assert_allclose(weighted.matrix.wins, cs.impute_pairwise(leaderboard(doubled)).matrix.wins)


def test_lower_is_better_is_oriented():
    frame = pd.DataFrame({"err": [0.1, 0.3, np.nan], "acc": [np.nan, 0.5, 0.4]}, index=["a", "b", "c"])
    res = cs.impute_pairwise(leaderboard(frame, lower_is_better=["err"]))
    np.testing.assert_allclose(res.scores.to_numpy(), [8 / 3, 2.0, 4 / 3])
    flipped = cs.impute_pairwise(leaderboard(frame))
    np.testing.assert_allclose(flipped.scores.to_numpy(), [4 / 3, 10 / 3, 4 / 3])


def test_result_accessors():
    res = cs.impute_pairwise(cs.load_example("votenrank-toy"))
    assert res.method == "sigma_l" and res.levels == 1 and res.n_rankings == 5
    assert res.winners == ("B",) and res.order == ("B", "C", "D", "A")
    assert res.to_frame()["position"].tolist() == [1, 2, 3, 4]
    assert res.to_dict()["ranking"] == [["B"], ["C"], ["D"], ["A"]]
    assert as_pairwise(res) is res.matrix
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.levels = 2  # frozen


def test_ties_are_kept_in_the_ranking():
    frame = pd.DataFrame(
        {"t1": [1.0, 0.0, np.nan], "t2": [0.0, 1.0, np.nan], "t3": [5.0, 5.0, 5.0]}, index=["a", "b", "c"]
    )
    res = cs.sigma_l(leaderboard(frame))  # a: 5/3 + 1/3 + 1, c: 1 + 1 + 1
    np.testing.assert_allclose(res.scores.to_numpy(), [3.0, 3.0, 3.0])
    assert res.ranking == (("a", "b", "c"),)


def test_bad_input():
    with pytest.raises(InvalidOptionError, match="Leaderboard or InstanceScores"):
        cs.impute_pairwise(pd.DataFrame({"t": [1.0, 2.0]}))
    with pytest.raises(InvalidOptionError, match="levels must be 1"):
        cs.impute_pairwise(cs.load_example("votenrank-toy"), levels=3)
    with pytest.raises(InvalidOptionError, match="levels must be 1"):
        cs.impute_pairwise(cs.load_example("votenrank-toy"), levels=True)


# ---------------------------------------------------------------------- instance level
def random_instances(rng: np.random.Generator, n_systems: int, sizes: list[int], missing: float) -> cs.InstanceScores:
    arrays = {}
    for t, k in enumerate(sizes):
        block = rng.integers(0, 3, size=(n_systems, k)).astype(float)
        block[rng.random(block.shape) < missing] = np.nan
        block[t % n_systems, :] = rng.integers(0, 3, size=k)  # every instance keeps a score
        arrays[f"t{t}"] = block
    for s in range(n_systems):
        if all(np.isnan(a[s]).all() for a in arrays.values()):
            arrays["t0"][s, 0] = 1.0
    return cs.InstanceScores.from_arrays(arrays, systems=[f"s{i}" for i in range(n_systems)])


@pytest.mark.parametrize("seed", range(4))
def test_one_level_sums_every_instance(seed):
    rng = np.random.default_rng(seed)
    data = random_instances(rng, 5, [3, 1, 4], 0.3).with_weights({"t1": 2.0})
    weights = np.repeat(data.weights.to_numpy(), [3, 1, 4])
    expected = sum(w * brute_force_matrix(data.values[:, k]) for k, w in enumerate(weights))
    res = cs.impute_pairwise(data)
    np.testing.assert_allclose(res.matrix.wins, expected, atol=1e-9)
    assert res.n_rankings == 8
    np.testing.assert_allclose(as_pairwise(data).wins, res.matrix.wins)


@pytest.mark.parametrize("seed", range(4))
def test_two_levels_against_independent_computation(seed):
    rng = np.random.default_rng(10 + seed)
    data = random_instances(rng, 5, [4, 2, 3], 0.35).with_weights({"t2": 3.0})
    res = cs.sigma_2l(data)
    n = data.n_systems
    points = np.zeros(n)
    for t, task in enumerate(data.tasks):
        block = data.task_values(task)
        task_sum = sum(brute_force_matrix(block[:, k]) for k in range(block.shape[1]))
        s = task_sum.sum(axis=1)
        np.testing.assert_allclose(res.task_scores[task].to_numpy(), s, atol=1e-9)
        mid = np.array([np.sum(s > s[i] + 1e-9) + (np.sum(np.abs(s - s[i]) <= 1e-9) + 1) / 2 for i in range(n)])
        points += data.weights[task] * (n - mid)
    np.testing.assert_allclose(res.scores.to_numpy(), points, atol=1e-9)
    assert res.method == "sigma_2l" and res.n_rankings == 3
    off = ~np.eye(n, dtype=bool)
    np.testing.assert_allclose((res.matrix.wins + res.matrix.wins.T)[off], data.weights.sum())


def test_two_levels_counts_tasks_with_a_direct_comparison():
    arrays = {
        "t1": np.array([[1.0, np.nan], [np.nan, 2.0], [0.0, 1.0]]),  # s0 and s1 never on one instance
        "t2": np.array([[1.0], [2.0], [np.nan]]),
    }
    data = cs.InstanceScores.from_arrays(arrays, systems=["s0", "s1", "s2"])
    counts = cs.impute_pairwise(data, levels=2).matrix.counts
    assert counts.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    assert cs.impute_pairwise(data).matrix.counts.tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


@given(score_tables(missing=True, weighted=True, max_systems=6, max_tasks=5))
def test_levels_two_on_a_leaderboard_property(lb):
    res = cs.sigma_2l(lb)
    n = lb.n_systems
    points = np.zeros(n)
    for t, task in enumerate(lb.tasks):
        s = brute_force_matrix(lb.values[:, t]).sum(axis=1)
        np.testing.assert_allclose(res.task_scores[task].to_numpy(), s, atol=1e-9)
        mid = np.array([np.sum(s > s[i] + 1e-9) + (np.sum(np.abs(s - s[i]) <= 1e-9) + 1) / 2 for i in range(n)])
        points += lb.weights[task] * (n - mid)
    np.testing.assert_allclose(res.scores.to_numpy(), points, atol=1e-9)
    np.testing.assert_array_equal(res.matrix.counts, cs.pairwise(lb).counts)


def test_levels_two_on_a_leaderboard_ranks_each_task():
    frame = pd.DataFrame({"t1": [3.0, 2.0, np.nan], "t2": [1.0, np.nan, 2.0]}, index=["a", "b", "c"])
    res = cs.sigma_2l(leaderboard(frame))
    # t1: a > b scored, c unscored: rows a 1 + 2/3, b 1/3, c 1 -> a, c, b; t2 mirrors it
    assert res.task_scores.round(6).to_dict() == {
        "t1": {"a": round(1 + 2 / 3, 6), "b": round(1 / 3, 6), "c": 1.0},
        "t2": {"a": round(1 / 3, 6), "b": 1.0, "c": round(1 + 2 / 3, 6)},
    }
    assert res.scores.to_dict() == {"a": 2.0, "b": 1.0, "c": 3.0}


def test_instance_level_kemeny_and_majority_accept_instances():
    rng = np.random.default_rng(3)
    data = random_instances(rng, 4, [5, 5], 0.2)
    matrix = as_pairwise(data)
    np.testing.assert_allclose(matrix.wins, cs.impute_pairwise(data).matrix.wins)
    assert matrix.source == "imputed"
    cs.majority_graph(data)  # accepted through to_pairwise()


# ---------------------------------------------------------------------- mean baseline
def test_mean_baseline_ignores_missing_and_uses_weights():
    frame = pd.DataFrame({"a": [1.0, 3.0, np.nan], "b": [3.0, np.nan, 2.0]}, index=["x", "y", "z"])
    res = cs.mean_baseline(leaderboard(frame, weights={"b": 3.0}))
    assert res.scores.to_dict() == {"x": 2.5, "y": 3.0, "z": 2.0}
    assert res.coverage.to_dict() == {"x": 1.0, "y": 0.25, "z": 0.75}
    assert res.order == ("y", "x", "z") and res.to_frame()["tier"].tolist() == [1, 2, 3]


def test_mean_baseline_instance_level_is_two_step_mean():
    arrays = {"t1": np.array([[1.0, 0.0], [1.0, 1.0]]), "t2": np.array([[0.5], [np.nan]])}
    data = cs.InstanceScores.from_arrays(arrays, systems=["a", "b"])
    assert cs.mean_baseline(data).scores.to_dict() == {"a": 0.5, "b": 1.0}


def test_mean_baseline_zero_weight_only():
    frame = pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, 3.0]}, index=["x", "y"])
    with pytest.raises(InvalidWeightError, match="'y'"):
        cs.mean_baseline(leaderboard(frame, weights={"b": 0.0}))


# ---------------------------------------------------------------------- confidence
def test_confidence_half_width_is_hoeffding():
    frame = pd.DataFrame({f"t{k}": [2.0, 1.0, np.nan if k % 2 else 0.0] for k in range(10)}, index=["a", "b", "c"])
    conf = cs.pairwise_confidence(leaderboard(frame), delta=0.1)
    assert conf.order == ("a", "b", "c")
    assert conf.half_width[0, 1] == pytest.approx(math.sqrt(-math.log(0.1) / (2 * 10)))
    assert conf.half_width[0, 2] == pytest.approx(math.sqrt(-math.log(0.1) / (2 * 5)))
    assert conf.counts[0, 2] == 5 and conf.estimate[0, 2] == 1.0 and conf.estimate[2, 0] == 0.0
    assert conf.confident[0, 1] and not conf.confident[1, 0]
    assert conf.lower[0, 1] == pytest.approx(1 - conf.half_width[0, 1])
    assert conf.distance[0, 1] == pytest.approx(0.5 - conf.half_width[0, 1])


def test_confidence_uses_direct_comparisons_only_and_ties_half():
    frame = pd.DataFrame(
        {"t1": [1.0, 1.0, np.nan], "t2": [2.0, 1.0, np.nan], "t3": [np.nan, 1.0, 0.0]}, index=["a", "b", "c"]
    )
    conf = cs.pairwise_confidence(leaderboard(frame))
    est = conf.matrix("estimate")
    assert est.loc["a", "b"] == 0.75 and est.loc["b", "a"] == 0.25
    assert np.isnan(est.loc["a", "c"]) and np.isinf(conf.matrix("half_width").loc["a", "c"])
    assert not conf.matrix("confident").loc["a", "c"] and not conf.matrix("confident").loc["c", "a"]


def test_confidence_weighted_effective_count():
    frame = pd.DataFrame({"t1": [1.0, 0.0], "t2": [1.0, 0.0]}, index=["a", "b"])
    conf = cs.pairwise_confidence(leaderboard(frame, weights={"t1": 3.0}), delta=0.2)
    n_eff = (3 + 1) ** 2 / (9 + 1)
    assert conf.half_width[0, 1] == pytest.approx(math.sqrt(-math.log(0.2) / (2 * n_eff)))


def test_confidence_result_frames():
    conf = cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=0.3)
    table = conf.to_frame()
    assert len(table) == 12 and table.columns.tolist() == [
        "system", "other", "estimate", "half_width", "lower", "upper", "comparisons", "beats"
    ]
    assert conf.matrix("counts").index.tolist() == list(conf.order) == ["B", "C", "D", "A"]
    assert conf.n_confident == int(table["beats"].sum())
    assert conf.to_dict()["order"] == ["B", "C", "D", "A"]
    with pytest.raises(InvalidOptionError, match="unknown matrix"):
        conf.matrix("nope")


@pytest.mark.parametrize("delta", [float("nan"), -0.1, 0.0, 1.0, 1.5, float("inf"), "0.05", True, None])
def test_confidence_rejects_bad_delta(delta):
    with pytest.raises(InvalidOptionError, match="delta must be a number strictly between 0 and 1"):
        cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=delta)


@pytest.mark.slow
def test_one_sided_claims_hold_at_level_delta():
    # Two systems with no real difference (fair coin per task): "a beats b" may be claimed
    # falsely with probability at most delta.
    rng = np.random.default_rng(0)
    delta, trials, false = 0.2, 300, 0
    for _ in range(trials):
        a = rng.integers(0, 2, size=30).astype(float)
        frame = pd.DataFrame([a, 1 - a], index=["a", "b"], columns=[f"t{k}" for k in range(30)])
        conf = cs.pairwise_confidence(leaderboard(frame), delta=delta)
        false += int(conf.matrix("confident").loc["a", "b"])
    assert false / trials <= delta


# ---------------------------------------------------------------------- exact consensus
def test_kemeny_on_the_imputed_matrix():
    frame = pd.DataFrame(
        {"t1": [3.0, 2.0, 1.0, np.nan], "t2": [np.nan, 3.0, 2.0, 1.0], "t3": [1.0, np.nan, 3.0, 2.0]},
        index=["a", "b", "c", "d"],
    )
    lb = leaderboard(frame)
    matrix = cs.impute_pairwise(lb).matrix
    res = cs.kemeny(matrix)
    pref = matrix.preferences

    def cost(order: tuple[int, ...]) -> float:
        return sum(pref[order[j], order[i]] for i in range(len(order)) for j in range(i + 1, len(order)))

    best = min(cost(p) for p in itertools.permutations(range(4)))
    idx = [lb.systems.index(s) for s in res.order] if isinstance(res.order[0], str) else None
    if idx is not None:
        assert cost(tuple(idx)) == pytest.approx(best)
    assert res.objective == pytest.approx(best)
