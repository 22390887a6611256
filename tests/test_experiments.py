"""Tests for consensus.experiments: Gumbel instances, score removal, robustness (Himmi et al. sec. 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.errors import InvalidOptionError
from consensus.experiments import gumbel_instances, remove_scores, robustness_experiment


def test_gumbel_instances_model():
    a = gumbel_instances(5, 3, 400, phi=1.0, seed=7)
    b = gumbel_instances(5, 3, 400, phi=1.0, seed=7)
    assert a == b and a.n_instances == {"t1": 400, "t2": 400, "t3": 400}
    means = a.values.mean(axis=1)
    # Gumbel(loc, 1) has mean loc + Euler's gamma
    np.testing.assert_allclose(means, np.arange(1, 6) + np.euler_gamma, atol=0.15)
    assert cs.sigma_l(a).order == ("s5", "s4", "s3", "s2", "s1")


@pytest.mark.parametrize("bad", [{"n_systems": 1}, {"n_instances": 0}, {"phi": -1.0}, {"n_tasks": 2.5}])
def test_gumbel_instances_validation(bad):
    args = {"n_systems": 3, "n_tasks": 2, "n_instances": 2, "phi": 0.1} | bad
    with pytest.raises(InvalidOptionError):
        gumbel_instances(args["n_systems"], args["n_tasks"], args["n_instances"], phi=args["phi"])


def test_remove_cells_from_a_leaderboard():
    lb = cs.datasets.gumbel_leaderboard(6, 8, phi=0.5, seed=1)
    thinned = remove_scores(lb, eta=0.5, seed=3)
    assert len(thinned.missing_cells()) == 24
    assert (~thinned.missing).any(axis=1).all() and (~thinned.missing).any(axis=0).all()
    kept = ~thinned.missing.to_numpy()
    np.testing.assert_array_equal(thinned.scores.to_numpy()[kept], lb.scores.to_numpy()[kept])
    assert remove_scores(lb, eta=0.5, seed=3) == thinned
    assert remove_scores(lb, eta=0.0, seed=3) == lb


def test_removal_never_empties_a_system_or_task():
    lb = cs.datasets.gumbel_leaderboard(3, 3, phi=0.5, seed=1)
    thinned = remove_scores(lb, eta=0.95, seed=0)
    assert len(thinned.missing_cells()) == 6  # 3 of 9 cells must stay
    assert (~thinned.missing).sum().min() == 1


def test_remove_task_blocks_and_instances():
    data = gumbel_instances(5, 4, 6, phi=0.5, seed=2)
    blocks = remove_scores(data, eta=0.25, seed=1)
    assert blocks.missing_share == pytest.approx(5 / 20)
    for t in blocks.tasks:  # a (system, task) block is all or nothing
        present = ~np.isnan(blocks.task_values(t))
        assert np.all(present.all(axis=1) | ~present.any(axis=1))
    single = remove_scores(data, eta=0.3, seed=1, unit="instance")
    assert 0.15 < single.missing_share < 0.45
    assert (~np.isnan(single.values)).any(axis=0).all()


def test_remove_scores_validation():
    lb = cs.load_example("votenrank-toy")
    for eta in (1.0, -0.1, float("nan"), "0.2"):
        with pytest.raises(InvalidOptionError, match=r"eta must be a number in \[0, 1\)"):
            remove_scores(lb, eta=eta)
    with pytest.raises(InvalidOptionError, match="unit must be 'cell'"):
        remove_scores(lb, eta=0.1, unit="instance")
    with pytest.raises(InvalidOptionError, match="unit="):
        remove_scores(gumbel_instances(3, 2, 2), eta=0.1, unit="cell")
    with pytest.raises(InvalidOptionError, match="Leaderboard or InstanceScores"):
        remove_scores(pd.DataFrame(), eta=0.1)


def test_nothing_removed_keeps_every_ranking():
    res = robustness_experiment(etas=(0.0,), n_seeds=2, n_systems=6, n_tasks=5, n_instances=4)
    assert res.methods == ("sigma_l", "sigma_2l", "mean")
    np.testing.assert_allclose(res.taus, 1.0)


def test_sigma_l_more_robust_than_mean_under_scaling():
    # Himmi et al. sec. 3 (Figure 3): 20 systems x 20 tasks, one task rescaled by lambda = 10.
    # Mean tau over 20 seeds with this seed: sigma_l 0.912 / 0.885 vs mean 0.771 / 0.744.
    res = robustness_experiment(etas=(0.2, 0.3), n_seeds=20, phi=0.2, scale=10.0, seed=2023)
    sigma, mean = res.mean_tau("sigma_l"), res.mean_tau("mean")
    assert np.all(sigma > mean + 0.1)
    assert (res.taus[:, :, 0] > res.taus[:, :, 1]).mean() > 0.8  # and seed by seed, mostly
    np.testing.assert_allclose(res.removed, [[0.2] * 20, [0.3] * 20])


def test_instance_level_robustness_under_scaling():
    res = robustness_experiment(
        etas=(0.2,), n_seeds=10, n_systems=12, n_tasks=10, n_instances=10, phi=0.2, scale=10.0, seed=2023
    )
    summary = res.summary()
    assert summary.loc[0.2, "sigma_l"] > summary.loc[0.2, "mean"] + 0.1
    assert summary.loc[0.2, "sigma_2l"] > summary.loc[0.2, "mean"] + 0.1


def test_without_corruption_the_mean_is_as_stable():
    # The honest other side (documented in docs/missing.md): on the plain Gumbel model every task
    # is an i.i.d. draw, the mean of the available scores is unbiased, and sigma_l, which puts an
    # unscored system in the middle of each task, is not more stable than the mean.
    res = robustness_experiment(etas=(0.2, 0.3), n_seeds=20, phi=0.2, scale=1.0, seed=2023)
    assert np.all(res.mean_tau("mean") >= res.mean_tau("sigma_l"))


def test_result_tables():
    res = robustness_experiment(etas=(0.1, 0.2), n_seeds=3, n_systems=5, n_tasks=6, seed=1)
    frame = res.to_frame()
    assert len(frame) == 2 * 3 * 2 and set(frame["method"]) == {"sigma_l", "mean"}
    assert res.summary().index.tolist() == [0.1, 0.2]
    assert res.to_dict()["parameters"]["unit"] == "cell"
    with pytest.raises(InvalidOptionError, match="unknown method"):
        res.mean_tau("sigma_2l")
    with pytest.raises(InvalidOptionError):
        robustness_experiment(etas=(), n_seeds=2)
    with pytest.raises(InvalidOptionError, match="scale"):
        robustness_experiment(etas=(0.1,), scale=0.0)
