"""The two kernels of the imputed pairwise sums agree exactly, and with brute force over compatible rankings."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.missing._imputation_sums import (
    MAX_LEVELS,
    PartialSums,
    Units,
    accumulate,
)

FIELDS = ("imputed", "direct", "both", "both_sq", "counts", "task_scores", "task_counts")


def units(values: np.ndarray, items_per_task: list[int], weights: list[float]) -> Units:
    offsets = np.concatenate([[0], np.cumsum(items_per_task)])
    n_sys = values.shape[0]
    return Units(
        tuple(f"s{i}" for i in range(n_sys)), tuple(f"t{t}" for t in range(len(items_per_task))),
        values, offsets, np.asarray(weights, dtype=float), all(k == 1 for k in items_per_task),
    )


@st.composite
def random_units(draw, max_systems: int = 7, max_levels: int = 6) -> Units:
    n_sys = draw(st.integers(2, max_systems))
    n_tasks = draw(st.integers(1, 3))
    items = [draw(st.integers(1, 6)) for _ in range(n_tasks)]
    levels = draw(st.integers(1, max_levels))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, size=(n_sys, sum(items))).astype(float)
    if draw(st.booleans()):
        values += rng.normal(scale=0.1, size=values.shape).round(1) * draw(st.sampled_from([0.0, 1.0]))
    values[rng.random(values.shape) < draw(st.sampled_from([0.0, 0.2, 0.5]))] = np.nan
    values[0, :] = np.where(np.isnan(values).all(axis=0), 1.0, values[0, :])  # every column scored somewhere
    weights = draw(st.sampled_from([[1.0] * n_tasks, [0.5 + t for t in range(n_tasks)], [1 / 3] * n_tasks]))
    return units(values, items, weights)


def _equal(a, b, exact: bool) -> None:
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if x is None:
            assert y is None, f
        elif exact:
            assert np.array_equal(x, y), (f, np.abs(x - y).max())
        else:
            np.testing.assert_allclose(x, y, rtol=1e-13, atol=1e-12, err_msg=f)


@given(u=random_units(), per_task=st.booleans())
def test_levels_kernel_equals_the_pairwise_comparison_kernel(u, per_task):
    reference = accumulate(u, per_task=per_task, kernel="compare")
    uniform_inside = u.one_per_task is False or np.all(u.task_weights == u.task_weights[0])
    _equal(accumulate(u, per_task=per_task, kernel="levels"), reference, exact=uniform_inside)
    _equal(accumulate(u, per_task=per_task), reference, exact=uniform_inside)


def test_many_levels_fall_back_to_comparisons_and_still_agree():
    rng = np.random.default_rng(3)
    values = rng.normal(size=(9, 3 * (MAX_LEVELS + 5)))  # continuous: more values than MAX_LEVELS
    values[rng.random(values.shape) < 0.3] = np.nan
    u = units(values, [MAX_LEVELS + 5] * 3, [1.0, 2.0, 0.5])
    _equal(accumulate(u, per_task=True), accumulate(u, per_task=True, kernel="compare"), exact=True)
    _equal(accumulate(u, per_task=True, kernel="levels"), accumulate(u, per_task=True, kernel="compare"), exact=True)


def _brute_matrix(column: list[float | None]) -> list[list[Fraction]]:
    """sum over the full rankings compatible with one partial ranking of [i above j], / their number."""
    n = len(column)
    scored = [i for i, v in enumerate(column) if v is not None]
    out = [[Fraction(0)] * n for _ in range(n)]
    total = 0
    for perm in itertools.permutations(range(n)):
        pos = {s: p for p, s in enumerate(perm)}
        # compatible: scored systems in score order (ties: both orders, each counted)
        if any(column[a] > column[b] and pos[a] > pos[b] for a in scored for b in scored):
            continue
        total += 1
        for i in range(n):
            for j in range(n):
                if i != j and pos[i] < pos[j]:
                    out[i][j] += 1
    return [[x / total for x in row] for row in out]


@given(u=random_units(max_systems=5, max_levels=3))
def test_both_kernels_equal_brute_force_over_compatible_rankings(u):
    n_sys, n_cols = u.values.shape
    col_w = np.repeat(u.task_weights, np.diff(u.offsets))
    expected = np.zeros((n_sys, n_sys))
    for k in range(n_cols):
        column = [None if np.isnan(v) else float(v) for v in u.values[:, k]]
        m = _brute_matrix(column)
        expected += float(col_w[k]) * np.array([[float(x) for x in row] for row in m])
    for kernel in ("levels", "compare"):
        np.testing.assert_allclose(accumulate(u, per_task=False, kernel=kernel).imputed, expected, atol=1e-9)


def test_partial_sums_add_up_over_split_columns():
    rng = np.random.default_rng(5)
    values = rng.integers(0, 2, size=(12, 40)).astype(float)
    values[rng.random(values.shape) < 0.2] = np.nan
    u = units(values, [25, 15], [1.0, 3.0])
    whole = accumulate(u, per_task=True)
    parts = []
    for lo, hi, task in ((0, 10, 0), (10, 25, 0), (25, 40, 1)):
        part = PartialSums(12, 2, per_task=True, split_tasks=True, task_split_across_parts=True)
        part.add_segment(values[:, lo:hi], np.full(hi - lo, u.task_weights[task]), task)
        parts.append(part)
    total = parts[0]
    total += parts[2]
    total += parts[1]  # any order
    _equal(total.finish(), whole, exact=False)


def test_unknown_kernel_is_refused():
    from consensus.errors import InvalidOptionError

    u = units(np.array([[1.0], [0.0]]), [1], [1.0])
    with pytest.raises(InvalidOptionError, match="kernel"):
        accumulate(u, per_task=False, kernel="fast")


def test_a_boards_pairwise_matrix_is_computed_once_and_never_pickled_with_it():
    import copy
    import pickle

    lb = cs.datasets.gumbel_leaderboard(12, 5, seed=1)
    first = cs.pairwise(lb)
    assert cs.pairwise(lb) is first  # Copeland and Minimax of one board share it
    assert cs.pairwise(lb, tie_tol=0.5) is not first  # one per tie tolerance
    with pytest.raises(ValueError):
        first.wins[0, 1] = 5.0  # read-only: a shared matrix cannot be changed behind a caller's back
    restored = pickle.loads(pickle.dumps(lb))
    assert restored == lb and not hasattr(restored, "_memo")
    assert b"_memo" not in pickle.dumps(lb) and "_memo" not in lb.__getstate__()  # the data only
    assert cs.pairwise(restored).wins.tolist() == first.wins.tolist()
    assert copy.copy(lb) == lb and cs.rank(copy.deepcopy(lb), "copeland").ranking == cs.rank(lb, "copeland").ranking
    grouped = cs.Leaderboard(lb.scores, groups={"g": list(lb.tasks[:2])})
    assert pickle.loads(pickle.dumps(grouped)).groups == grouped.groups  # a read-only mapping, pickled


def test_a_board_as_read_pickles_with_its_reading(tmp_path):
    import pickle

    from tests.real_shapes import oll_v2_like, write_csv

    lb = cs.read_leaderboard(write_csv(oll_v2_like(n=30), tmp_path / "oll.csv"))
    restored = pickle.loads(pickle.dumps(lb))
    assert restored == lb and restored.reading.to_dict() == lb.reading.to_dict()


def test_float32_products_keep_the_counts_bit_exact_on_the_blas_path():
    # 0/1 scores, uniform weights, 80 systems (past the einsum cut-off): the level and co-scored
    # counts come from float32 matrix products; whole numbers below 2**24 are exact there
    rng = np.random.default_rng(5)
    values = (rng.random((80, 900)) < 0.6).astype(float)
    values[rng.random(values.shape) < 0.15] = np.nan
    u = units(values, [300, 300, 300], [1.0, 1.0, 1.0])
    fast, reference = accumulate(u, per_task=True, kernel="levels"), accumulate(u, per_task=True, kernel="compare")
    for field in ("counts", "both", "both_sq", "task_counts"):
        assert np.array_equal(getattr(fast, field), getattr(reference, field)), field
    assert np.array_equal(fast.direct, reference.direct)  # the wins: whole counts times the uniform weight
    _equal(fast, reference, exact=False)
