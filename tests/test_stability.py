"""rank_stability: resampled rankings, rank intervals, top sets, adjacent pairs, the figure."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.errors import InvalidOptionError
from consensus.experiments.missing import gumbel_instances
from consensus.plot import plot_stability
from consensus.resampling._repetitions import spawn_seeds
from consensus.resampling._rule_runs import DEFAULT_RULES, rule_positions
from consensus.resampling._stability import rank_stability
from consensus.results import StabilityResult

SMALL_RULES = ("mean", "borda", "copeland", "minimax")


@pytest.fixture(scope="module")
def board() -> cs.Leaderboard:
    return cs.datasets.gumbel_leaderboard(6, 8, phi=0.3, seed=3)


def _synthetic(n_systems: int, resamples: int = 40, rules=("mean", "kemeny"), seed: int = 0) -> StabilityResult:
    """A result built directly (no ranking): noisy positions around 1..n."""
    rng = np.random.default_rng(seed)
    base = np.arange(1, n_systems + 1, dtype=float)
    noisy = base + rng.normal(0, 2.0, size=(resamples, len(rules), n_systems))
    positions = np.argsort(np.argsort(noisy, axis=2), axis=2) + 1.0
    return StabilityResult(
        rules=rules, systems=tuple(f"system-{i:03d}" for i in range(n_systems)), resampling="bootstrap",
        positions=positions, full_positions=np.tile(base, (len(rules), 1)), kemeny_status=("optimal",) * resamples,
        kemeny_gaps=np.zeros(resamples), alpha=0.05, level=0.9, top_k=3, parameters={"seed": seed},
    )


# ---------------------------------------------------------------- reproducibility
def test_same_seed_same_positions_and_other_seed_differs(board):
    a = rank_stability(board, SMALL_RULES, resamples=25, seed=7)
    b = rank_stability(board, SMALL_RULES, resamples=25, seed=7)
    c = rank_stability(board, SMALL_RULES, resamples=25, seed=8)
    np.testing.assert_array_equal(a.positions, b.positions)
    assert a.positions.shape == (25, len(SMALL_RULES), board.n_systems)
    assert not np.array_equal(a.positions, c.positions)


@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_the_dask_cluster_gives_the_in_process_positions_value_for_value(dask_cluster):
    distributed = pytest.importorskip("distributed")
    data = cs.datasets.gumbel_leaderboard(8, 6, phi=0.2, seed=1)
    here = rank_stability(data, DEFAULT_RULES, resamples=20, seed=5)
    with distributed.Client(dask_cluster) as client:
        there = rank_stability(data, DEFAULT_RULES, resamples=20, seed=5, scheduler=client)
    np.testing.assert_array_equal(here.positions, there.positions)
    np.testing.assert_array_equal(here.full_positions, there.full_positions)
    assert here.kemeny_status == there.kemeny_status == ("optimal",) * 20
    pd.testing.assert_frame_equal(here.to_frame(), there.to_frame())


def test_progress_is_reported_per_resample(board):
    seen = []
    rank_stability(board, ["mean"], resamples=4, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


# ---------------------------------------------------------------- correctness
def test_a_system_first_on_every_task_is_always_first_under_every_rule():
    rng = np.random.default_rng(0)
    scores = rng.random((5, 7))
    scores[2] = 2.0 + rng.random(7)  # "c" wins every task
    data = cs.Leaderboard.from_frame(pd.DataFrame(scores, index=list("abcde"), columns=[f"t{j}" for j in range(7)]))
    res = rank_stability(data, DEFAULT_RULES, resamples=30, seed=0)
    frame = res.to_frame().set_index(["rule", "system"])
    for rule in DEFAULT_RULES:
        row = frame.loc[(rule, "c")]
        assert (row["p_first"], row["low"], row["high"], row["position"]) == (1.0, 1, 1, 1)
        assert res.top_set(rule) == ("c",)
        assert (frame.loc[rule].drop(index="c")["p_first"] == 0.0).all()


def test_bootstrap_weights_equal_ranking_the_duplicated_tasks(board):
    """Weight x count is the leaderboard with each task repeated count times (each default rule)."""
    seed, n = 11, 3
    res = rank_stability(board, DEFAULT_RULES, resamples=n, seed=seed)
    kemeny_order = rule_positions(board, ["kemeny"])["kemeny"].order
    for r, child in enumerate(spawn_seeds(seed, n)):
        rng = np.random.default_rng(child)
        counts = np.bincount(rng.integers(0, board.n_tasks, size=board.n_tasks), minlength=board.n_tasks)
        columns = {f"{t}#{c}": board.scores[t] for t, count in zip(board.tasks, counts) for c in range(count)}
        duplicated = cs.Leaderboard.from_frame(pd.DataFrame(columns), infer=False)  # repeats are the point
        assert duplicated.n_tasks == board.n_tasks and (counts == 0).any()  # a real resample
        expected = rule_positions(duplicated, DEFAULT_RULES, initial={"kemeny": kemeny_order})
        for k, rule in enumerate(DEFAULT_RULES):
            if rule == "kemeny":  # optima may tie: compare the objective of the two rankings
                pairs = cs.pairwise(duplicated)
                got = tuple(s for s in sorted(board.systems, key=lambda s: res.positions[r, k, board.systems.index(s)]))
                assert cs.kemeny_objective(pairs, got) == pytest.approx(cs.kemeny_objective(pairs, expected[rule].order))
            else:
                np.testing.assert_array_equal(res.positions[r, k], expected[rule].positions, err_msg=rule)


def test_leave_one_out_resamples_are_leave_one_out_rankings(board):
    res = rank_stability(board, SMALL_RULES, resamples=30, resampling="leave_k_out", k=1, seed=2)
    brute = [
        np.stack([rule_positions(board.select(tasks=[t for t in board.tasks if t != out]), SMALL_RULES)[r].positions
                  for r in SMALL_RULES])
        for out in board.tasks
    ]
    for row in res.positions:
        assert any(np.array_equal(row, b) for b in brute)
    assert res.parameters["k"] == 1 and "leave_k_out (k=1)" in repr(res)


def test_leave_k_out_on_a_sparse_board_counts_unranked_resamples():
    frame = pd.DataFrame(
        {"t1": [3.0, 2.0, 1.0, np.nan], "t2": [3.0, 1.0, 2.0, np.nan], "t3": [1.0, 2.0, 3.0, 9.0]},
        index=["a", "b", "c", "d"],
    )
    res = rank_stability(cs.Leaderboard.from_frame(frame), ["mean"], resamples=40, resampling="leave_k_out", k=1, seed=0)
    d = res.positions[:, 0, 3]
    ranked = ~np.isnan(d)
    assert 0 < ranked.sum() < 40  # "d" is scored on t3 only: unranked when t3 is left out
    row = res.to_frame().set_index("system").loc["d"]
    assert row["ranked"] == ranked.sum()
    assert row["p_first"] == pytest.approx(np.mean(d[ranked] == 1))
    assert not np.isnan(res.positions[:, 0, :3]).any()
    assert res.pairs_frame().query("upper == 'd' or lower == 'd'")["n"].max() == ranked.sum()
    assert "not always ranked" in repr(res)


def test_instances_resampling_keeps_a_dominant_system_first():
    data = gumbel_instances(5, 3, 8, phi=0.1, seed=0)
    values = np.array(data.values)
    values[4] += 50.0  # s5 far ahead on every instance
    strong = cs.InstanceScores(values, systems=data.systems, tasks=data.tasks, offsets=data.offsets,
                               instances=[data.instances(t) for t in data.tasks], oriented=True)
    res = rank_stability(strong, SMALL_RULES, resamples=15, resampling="instances", seed=0)
    assert res.positions.shape == (15, len(SMALL_RULES), 5)
    assert res.resampling == "instances" and res.parameters["data"] == "InstanceScores"
    assert (res.positions[:, :, 4] == 1).all()
    assert not np.isnan(res.positions).any()
    # the instance draw moves the task means: the other systems' positions vary
    assert len({tuple(row) for row in res.positions[:, 0, :4]}) > 1


def test_task_methods_on_instance_scores_resample_the_task_means():
    data = gumbel_instances(4, 5, 3, phi=0.5, seed=1)
    a = rank_stability(data, ["borda"], resamples=10, seed=4)
    b = rank_stability(data.to_leaderboard(), ["borda"], resamples=10, seed=4)
    np.testing.assert_array_equal(a.positions, b.positions)


def test_interval_is_the_lower_and_higher_quantile_of_the_positions():
    res = _synthetic(12, resamples=37, seed=5)
    frame = res.to_frame().set_index(["rule", "system"])
    for rule, j in (("mean", 4), ("kemeny", 9)):
        values = np.sort(res.positions[:, res.rules.index(rule), j])
        lo_q, hi_q = (1 - res.level) / 2, (1 + res.level) / 2
        low, high = values[math.floor(lo_q * (len(values) - 1))], values[math.ceil(hi_q * (len(values) - 1))]
        row = frame.loc[(rule, res.systems[j])]
        assert (row["low"], row["high"]) == (int(low), int(high))
        assert np.mean((values >= low) & (values <= high)) >= res.level
        assert row["median"] == np.median(values)
        assert row["p_top_k"] == pytest.approx(np.mean(values <= 3))


def test_adjacent_pairs_kept_share_by_hand(board):
    res = rank_stability(board, ["borda"], resamples=40, seed=1)
    order = res.order("borda")
    pairs = res.pairs_frame()
    assert list(zip(pairs["upper"], pairs["lower"])) == list(zip(order, order[1:]))
    for _, row in pairs.iterrows():
        a = res.positions[:, 0, board.systems.index(row["upper"])]
        b = res.positions[:, 0, board.systems.index(row["lower"])]
        assert row["kept"] == pytest.approx(np.mean(a < b))
        assert row["tied"] == pytest.approx(np.mean(a == b))
        assert row["kept"] + row["tied"] + row["swapped"] == pytest.approx(1.0)


def test_ties_for_first_count_as_first():
    res = StabilityResult(("mean",), ("a", "b", "c"), "bootstrap", [[[1, 1, 3]], [[1, 2, 3]]], [[1, 1, 3]],
                          ("", ""), [np.nan] * 2, 0.5, 0.95, 1, {})
    assert res.to_frame().set_index("system")["p_first"].to_dict() == {"a": 1.0, "b": 0.5, "c": 0.0}
    assert res.top_set("mean") == ("a", "b")


# ---------------------------------------------------------------- the result object
def test_result_is_frozen_readonly_and_json_able():
    res = _synthetic(5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.resampling = "other"  # type: ignore[misc]
    with pytest.raises(ValueError):
        res.positions[0, 0, 0] = 3.0
    out = json.loads(json.dumps(res.to_dict()))
    assert out["positions"][0][0] == res.positions[0, 0].tolist() and len(out["summary"]) == 10
    assert out["summary"][0]["low"] == res.to_frame()["low"].iloc[0]


def test_repr_is_short_and_reports_time_limited_solves():
    res = _synthetic(100, resamples=20)
    text = repr(res)
    assert len(text.splitlines()) < 12 and "mean top set" in text and "time limit" not in text
    limited = dataclasses.replace(res, kemeny_status=("time_limit",) * 3 + ("optimal",) * 17)
    assert limited.time_limited == 3
    assert "Kemeny at its time limit: 3 of 20 resamples" in repr(limited)
    html = res._repr_html_()
    assert "<table>" in html and html.count("<tr>") <= 11


def test_unknown_rule_in_result_accessors_is_named():
    with pytest.raises(InvalidOptionError, match=r"unknown rule 'plurality'"):
        _synthetic(4).top_set("plurality")


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"resampling": "jackknife"}, r"unknown resampling 'jackknife'"),
        ({"resampling": "instances"}, r"resampling='instances'.*Leaderboard"),
        ({"resampling": "leave_k_out", "k": 8}, r"k must be >= 1 and < the number of tasks \(8\)"),
        ({"resampling": "leave_k_out", "k": 0}, r"k must be an integer >= 1"),
        ({"k": 2}, r"k sets the tasks dropped by resampling='leave_k_out'"),
        ({"alpha": 0.0}, r"alpha must be a number strictly between 0 and 1"),
        ({"alpha": 1.5}, r"alpha must be"),
        ({"level": 1.0}, r"level must be a number strictly between 0 and 1"),
        ({"top_k": 0}, r"top_k must be an integer >= 1"),
        ({"resamples": 0}, r"resamples must be an integer >= 1"),
        ({"seed": -1}, r"seed must be an integer >= 0"),
        ({"time_limit": 0}, r"time_limit must be a positive number of seconds"),
        ({"scheduler": "threads"}, r"scheduler must be None"),
        ({"n_jobs": 2}, r"n_jobs sets the worker processes"),
        ({"progress": "yes"}, r"progress must be None or a callable"),
        ({"rules": ["borda", "nope"]}, r"unknown rule\(s\) 'nope'"),
    ],
)
def test_invalid_options_are_refused_by_name(board, options, match):
    rules = options.pop("rules", ["mean"])
    with pytest.raises(InvalidOptionError, match=match):
        rank_stability(board, rules, resamples=options.pop("resamples", 2), **options)


def test_data_must_be_scores():
    with pytest.raises(InvalidOptionError, match=r"data must be a Leaderboard or InstanceScores, got DataFrame"):
        rank_stability(pd.DataFrame({"t": [1.0, 2.0]}), ["mean"])


# ---------------------------------------------------------------- the figure
def test_plot_intervals_match_the_result():
    pytest.importorskip("matplotlib")
    res = _synthetic(5, rules=("mean", "borda", "kemeny"))
    fig = plot_stability(res)
    frame = res.to_frame().set_index(["rule", "system"])
    lines = {line.get_gid(): line for axis in fig.axes for line in axis.lines}
    assert len(lines) == 15 and fig.consensus_systems == res.order("mean")
    for (rule, system), row in frame.iterrows():
        line = lines[f"interval:{rule}:{system}"]
        assert line.get_xdata().tolist() == [row["low"], row["high"]]
        assert line.get_ydata().tolist() == [fig.consensus_systems.index(system)] * 2
        assert (line.get_color() == "#f2b134") == bool(row["top_set"])
    dots = {c.get_gid(): c for axis in fig.axes for c in axis.collections}
    full = dots["position:kemeny"].get_offsets()[:, 0]
    assert full.tolist() == [frame.loc[("kemeny", s), "position"] for s in fig.consensus_systems]


@pytest.mark.parametrize("n", [5, 100])
def test_plot_builds_readably_at_5_and_100_systems(n):
    pytest.importorskip("matplotlib")
    res = _synthetic(n, resamples=10)
    fig = plot_stability(res)
    labels = [t for axis in fig.axes for t in axis.get_yticklabels() + axis.get_xticklabels() if t.get_text()]
    assert labels and min(t.get_fontsize() for t in labels) >= 6
    assert len(fig.axes[0].get_yticklabels()) == n
    height = fig.get_size_inches()[1]
    assert height >= n * 0.1  # grows with the systems


def test_plot_top_and_ax_options():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    res = _synthetic(30)
    fig = plot_stability(res, top=5)
    assert fig.consensus_systems[:5] == res.order("mean")[:5] and len(fig.consensus_systems) >= 5
    ax = Figure().add_subplot()
    assert plot_stability(res, rules=["kemeny"], ax=ax) is ax.figure
    with pytest.raises(InvalidOptionError, match=r"ax= draws one rule"):
        plot_stability(res, ax=ax)
    with pytest.raises(InvalidOptionError, match=r"rule\(s\) 'copeland' not in this result"):
        plot_stability(res, rules=["copeland"])
    with pytest.raises(InvalidOptionError, match=r"top must be an integer >= 1"):
        plot_stability(res, top=0)
