"""Built-in examples and the Gumbel generator."""

from __future__ import annotations

import numpy as np
import pytest

import consensus as cs


def test_list_examples_names():
    assert [e.name for e in cs.list_examples()] == ["votenrank-toy", "colombo-table1", "gumbel"]


def test_gumbel_is_seeded_and_shaped():
    a = cs.gumbel_leaderboard(6, 4, phi=0.3, seed=7)
    b = cs.load_example("gumbel", n_systems=6, n_tasks=4, phi=0.3, seed=7)
    assert a == b
    assert a.systems == tuple(f"s{i}" for i in range(1, 7)) and a.n_tasks == 4
    assert a != cs.gumbel_leaderboard(6, 4, phi=0.3, seed=8)


def test_gumbel_location_grows_with_system_index():
    lb = cs.gumbel_leaderboard(5, 4000, phi=1.0, seed=0)
    means = lb.values.mean(axis=1)
    # Gumbel(loc, 1) has mean loc + Euler-Mascheroni constant
    assert np.allclose(means, np.arange(1, 6) + np.euler_gamma, atol=0.1)
    assert cs.condorcet_winner(lb) == "s5"


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"n_systems": 1}, "n_systems"),
        ({"n_tasks": 0}, "n_tasks"),
        ({"phi": -1.0}, "phi"),
    ],
)
def test_gumbel_bad_parameters(kwargs, pattern):
    with pytest.raises(cs.InvalidOptionError, match=pattern):
        cs.gumbel_leaderboard(**kwargs)


def test_unknown_example_and_parameter():
    with pytest.raises(cs.InvalidOptionError, match=r"unknown example 'toy'; choose one of"):
        cs.load_example("toy")
    with pytest.raises(cs.InvalidOptionError, match=r"takes no parameter"):
        cs.load_example("votenrank-toy", seed=1)
