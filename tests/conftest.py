"""Shared fixtures and hypothesis profiles (dev: random; ci: derandomized)."""

from __future__ import annotations

import os

import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

import consensus as cs

settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def votenrank_toy() -> cs.Leaderboard:
    """Rofin et al. 2023, appendix A.1, Table 6: B is the Condorcet winner."""
    return cs.load_example("votenrank-toy")


@pytest.fixture
def colombo_table1() -> cs.Leaderboard:
    """Colombo et al. 2022, Table 1 (lower is better on every task)."""
    return cs.load_example("colombo-table1")


@pytest.fixture
def cycle3() -> cs.Leaderboard:
    """sys-b > sys-a > sys-c > sys-b, each by 2 tasks to 1: no Condorcet winner."""
    frame = pd.DataFrame(
        {"qa": [0.71, 0.68, 0.69], "nli": [0.62, 0.64, 0.60], "summ": [0.40, 0.45, 0.47]},
        index=["sys-a", "sys-b", "sys-c"],
    )
    return cs.Leaderboard.from_frame(frame)


@pytest.fixture
def dominant_a() -> cs.Leaderboard:
    """a is first on both tasks, b and c split them: a Pareto-dominates b and c."""
    frame = pd.DataFrame(
        {"t1": [3.0, 2.0, 1.0], "t2": [3.0, 1.0, 2.0]}, index=["a", "b", "c"]
    )
    return cs.Leaderboard.from_frame(frame)
