"""Hypothesis strategies shared by the test modules.

Small integer scores make ties and majority cycles common, which is where rules differ.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from hypothesis import settings
from hypothesis import strategies as st

from consensus import DegenerateTaskWarning, Leaderboard


def examples(multiplier: float, **options) -> settings:
    """Hypothesis settings with the active profile's example count times `multiplier` (at least 1).

    The profiles in ``tests/conftest.py`` own the counts; a property that needs another count says so relative to the profile,
    with the reason in a comment where it is used: ``@examples(2)`` for a layer that owns an
    exhaustive oracle, ``@examples(0.2)`` where another layer owns it. `options` are passed on
    (e.g. ``suppress_health_check``).
    """
    count = max(1, round(settings.default.max_examples * multiplier))
    return settings(max_examples=count, **options)


def seeds(thorough: int, ci: int = 3) -> range:
    """Fixed seeds for a parametrized sweep: `ci` of them (at least 3, the spread of a cell),
    all `thorough` under the ``thorough`` profile (module-level: read when the tests are collected)."""
    return range(thorough if settings.default.max_examples > 100 else min(ci, thorough))


@st.composite
def score_frames(
    draw,
    min_systems: int = 2,
    max_systems: int = 6,
    min_tasks: int = 1,
    max_tasks: int = 5,
    max_score: int = 4,
    missing: bool = False,
) -> pd.DataFrame:
    """A systems x tasks frame of small integer scores (NaN cells if `missing`; no empty row/column)."""
    n = draw(st.integers(min_systems, max_systems))
    m = draw(st.integers(min_tasks, max_tasks))
    cells = st.integers(0, max_score).map(float)
    if missing:
        cells = st.one_of(cells, cells, cells, st.just(float("nan")))
    rows = draw(st.lists(st.lists(cells, min_size=m, max_size=m), min_size=n, max_size=n))
    values = np.array(rows, dtype=float)
    # every system and every task keeps at least one score
    for i in range(n):
        if np.isnan(values[i]).all():
            values[i, draw(st.integers(0, m - 1))] = float(draw(st.integers(0, max_score)))
    for j in range(m):
        if np.isnan(values[:, j]).all():
            values[draw(st.integers(0, n - 1)), j] = float(draw(st.integers(0, max_score)))
    return pd.DataFrame(values, index=[f"s{i}" for i in range(n)], columns=[f"t{j}" for j in range(m)])


@st.composite
def score_tables(draw, weighted: bool = False, **kwargs) -> Leaderboard:
    """A Leaderboard from :func:`score_frames`; with `weighted`, integer task weights 0..3 (not all 0)."""
    frame = draw(score_frames(**kwargs))
    weights = None
    if weighted:
        ws = draw(st.lists(st.integers(0, 3), min_size=frame.shape[1], max_size=frame.shape[1]))
        if not any(ws):
            ws[0] = 1
        weights = dict(zip(frame.columns, map(float, ws)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return Leaderboard.from_frame(frame, weights=weights, infer=False)  # the board as drawn: no reading inference


def tournament_costs(n: int, tasks: int, seed: int) -> np.ndarray:
    """Preferences of `tasks` random complete rankings (pure noise: many majority cycles)."""
    rng = np.random.default_rng(seed)
    costs = np.zeros((n, n))
    for _ in range(tasks):
        position = rng.permutation(n)
        costs += position[:, None] < position[None, :]
    return costs


def raw_cost_matrices(max_n: int) -> st.SearchStrategy[np.ndarray]:
    """Raw cost matrices of 2..`max_n` items: integer or half-integer entries (ties count half),
    arbitrary (as with missing data)."""
    return st.integers(2, max_n).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(0, 6), min_size=n, max_size=n), min_size=n, max_size=n),
            st.sampled_from([1.0, 0.5]),
        )
    ).map(lambda pair: np.array(pair[0], dtype=float) * pair[1] * (1 - np.eye(len(pair[0]))))


def voted_cost_matrices(max_n: int) -> st.SearchStrategy[np.ndarray]:
    """Tournaments from an odd or even number of complete rankings (majority ties when even)."""
    return st.tuples(st.integers(2, max_n), st.integers(1, 6), st.integers(0, 2**16)).map(lambda t: tournament_costs(*t))
