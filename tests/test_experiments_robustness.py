"""Robustness experiments for any rule (consensus.experiments), their seeding and schedulers,
the Kemeny warm start they rely on, and ``consensus experiment``."""

from __future__ import annotations

import itertools
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import kendalltau

import consensus as cs
from consensus.errors import InvalidOptionError
from consensus.experiments import manipulation, missing_scores, scaling, task_removal
from consensus.resampling._repetitions import run_repetitions, spawn_seeds
from consensus.results import ExperimentResult

from .cli_runner import run_cli

SYNTH = {"n_systems": 8, "n_tasks": 6, "phi": 0.4}


def test_same_seed_same_table_and_another_seed_another():
    a = task_removal(synthetic=SYNTH, rules=["mean", "copeland"], kept=(2, 4), repetitions=4, seed=3)
    b = task_removal(synthetic=SYNTH, rules=["mean", "copeland"], kept=(2, 4), repetitions=4, seed=3)
    c = task_removal(synthetic=SYNTH, rules=["mean", "copeland"], kept=(2, 4), repetitions=4, seed=4)
    pd.testing.assert_frame_equal(a.table, b.table)
    assert not a.table["tau"].equals(c.table["tau"])
    assert len(a.table) == 4 * 2 * 2  # repetitions x settings x rules
    assert list(a.table.columns[:4]) == ["repetition", "rule", "tasks_kept", "tau"]


def test_repetition_r_uses_the_r_th_child_seed():
    seeds = spawn_seeds(11, 5)
    first = [np.random.default_rng(s).random() for s in seeds]
    assert [np.random.default_rng(s).random() for s in spawn_seeds(11, 5)] == first
    assert len(set(first)) == 5


@pytest.mark.slow  # tests/test_stability.py and tests/test_dask_sums.py start a cluster in every leg
@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_a_two_worker_dask_cluster_gives_the_same_table_value_for_value(dask_cluster):
    distributed = pytest.importorskip("distributed")
    board = cs.datasets.gumbel_leaderboard(9, 6, phi=0.2, seed=2)
    kwargs = {"rules": ["mean", "borda", "minimax", "kemeny"], "kept": (3, 5), "repetitions": 6, "seed": 5}
    local = task_removal(board, **kwargs)
    with distributed.Client(dask_cluster) as client:
        remote = task_removal(board, scheduler=client, **kwargs)
        address = manipulation(synthetic=SYNTH, rules=["copeland", "kemeny"], ts=(1, 3), repetitions=4,
                               scheduler=dask_cluster.scheduler_address)
    pd.testing.assert_frame_equal(local.table, remote.table, check_exact=True)
    here = manipulation(synthetic=SYNTH, rules=["copeland", "kemeny"], ts=(1, 3), repetitions=4)
    pd.testing.assert_frame_equal(here.table, address.table, check_exact=True)


def test_progress_counts_every_repetition():
    seen: list[tuple[int, int]] = []
    scaling(synthetic=SYNTH, rules=["borda"], lambdas=(2.0,), repetitions=3, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert run_repetitions(abs, [-2, 3]) == [2, 3]


def test_rank_based_rules_ignore_scaling_and_the_mean_does_not():
    res = scaling(synthetic={"n_systems": 10, "n_tasks": 5, "phi": 0.3}, rules=["mean", "borda", "copeland", "kemeny"],
                  lambdas=(0.5, 50.0), repetitions=5, seed=1)
    unperturbed = scaling(synthetic={"n_systems": 10, "n_tasks": 5, "phi": 0.3}, rules=["mean", "borda", "copeland",
                          "kemeny"], lambdas=(1.0,), repetitions=5, seed=1).table
    for rule in ("borda", "copeland", "kemeny"):  # reference = truth: the same tau as without scaling
        for lam in (0.5, 50.0):
            rows = res.table[(res.table["rule"] == rule) & (res.table["lambda"] == lam)]["tau"].to_numpy()
            base = unperturbed[unperturbed["rule"] == rule]["tau"].to_numpy()
            np.testing.assert_allclose(rows, base)
    mean50 = res.table[(res.table["rule"] == "mean") & (res.table["lambda"] == 50.0)]["tau"].to_numpy()
    assert not np.allclose(mean50, unperturbed[unperturbed["rule"] == "mean"]["tau"].to_numpy())


def test_on_a_real_board_scaling_keeps_rank_rules_at_tau_one():
    res = scaling(cs.datasets.gumbel_leaderboard(7, 5, phi=0.2, seed=0), ["borda", "copeland", "minimax", "kemeny"],
                  lambdas=(3.0, 100.0), repetitions=3)
    assert (res.table["tau"] == 1.0).all()
    assert set(res.table["reference"]) == {"unperturbed"}


def test_reversing_every_task_reverses_each_symmetric_rule():
    res = manipulation(synthetic={"n_systems": 7, "n_tasks": 5, "phi": 0.5}, rules=["mean", "borda", "copeland",
                       "kemeny"], ts=(0, 5), repetitions=4, seed=2)
    t = res.table
    for rule in ("mean", "borda", "copeland", "kemeny"):
        zero = t[(t["rule"] == rule) & (t["t"] == 0)]["tau"].to_numpy()
        every = t[(t["rule"] == rule) & (t["t"] == 5)]["tau"].to_numpy()
        np.testing.assert_allclose(every, -zero, atol=1e-12)
    np.testing.assert_allclose(t["error"], (1 - t["tau"]) / 2)


def _tau(a: dict[str, int], b: dict[str, int], systems) -> float:
    return round(float(kendalltau([a[s] for s in systems], [b[s] for s in systems]).statistic), 12)


def test_task_removal_taus_are_those_of_some_subset_computed_independently():
    board = cs.datasets.gumbel_leaderboard(6, 4, phi=0.3, seed=7)
    res = task_removal(board, ["borda", "minimax"], kept=(3,), repetitions=6, seed=0)
    for rule in ("borda", "minimax"):
        full = cs.rank(board, rule)
        full_pos = {s: full.position(s) for s in board.systems}
        possible = set()
        for subset in itertools.combinations(board.tasks, 3):
            sub = cs.rank(board.select(tasks=list(subset)), rule)
            possible.add(_tau({s: sub.position(s) for s in board.systems}, full_pos, board.systems))
        got = set(res.table[res.table["rule"] == rule]["tau"].round(12))
        assert got <= {round(p, 12) for p in possible}
    every = task_removal(board, ["borda", "kemeny"], kept=(4,), repetitions=2)
    assert (every.table["tau"] == 1.0).all()


@given(st.lists(st.integers(1, 4), min_size=2, max_size=9), st.integers(0, 1000))
def test_the_vectorized_tau_b_is_scipys(xs, seed):
    from consensus.experiments.perturbations import _tau

    x = np.array(xs, dtype=float)
    y = np.random.default_rng(seed).integers(1, 4, size=len(x)).astype(float)
    mine, theirs = _tau(x, y), float(kendalltau(x, y).statistic)
    if np.isnan(theirs):  # a constant side: 1 when both are constant (the same weak order), else undefined
        both = len(set(x.tolist())) == 1 and len(set(y.tolist())) == 1
        assert mine == 1.0 if both else np.isnan(mine)
    else:
        assert mine == pytest.approx(theirs, abs=1e-11)
    y[0] = np.nan  # a system one side does not rank is left out
    assert _tau(x, y) == _tau(x[1:], y[1:]) or (np.isnan(_tau(x, y)) and np.isnan(_tau(x[1:], y[1:])))


def test_missing_scores_for_any_rule():
    res = missing_scores(cs.datasets.gumbel_leaderboard(8, 6, phi=0.3, seed=1), ["mean", "borda", "copeland", "kemeny"],
                         etas=(0.0, 0.3), repetitions=3, seed=0)
    t = res.table
    assert (t[t["eta"] == 0.0]["tau"] == 1.0).all()
    assert t[t["eta"] == 0.3]["tau"].between(-1, 1).all()
    assert (t["systems_ranked"] == 8).all()  # remove_scores never empties a system
    assert set(t[t["rule"] == "kemeny"]["kemeny_status"]) == {"optimal"}


def test_summary_and_repr_and_csv():
    res = scaling(synthetic=SYNTH, rules=["mean", "borda"], lambdas=(2.0, 4.0), repetitions=3)
    summary = res.summary()
    assert list(summary.index.names) == ["lambda", "rule"]
    part = res.table[(res.table["rule"] == "mean") & (res.table["lambda"] == 2.0)]["tau"]
    assert summary.loc[(2.0, "mean"), "mean"] == pytest.approx(part.mean())
    assert summary.loc[(2.0, "mean"), "std"] == pytest.approx(part.std(ddof=0))
    assert "ExperimentResult scaling" in repr(res)
    csv = cs.render(res, format="csv")
    assert len(csv.strip().splitlines()) == 1 + len(res.table)
    assert res.to_dict()["rows"][0]["rule"] == "mean"


def test_a_kemeny_solve_stopped_by_its_time_limit_is_reported():
    res = task_removal(cs.datasets.gumbel_leaderboard(40, 20, phi=0.0, seed=0), ["kemeny"], kept=(19,), repetitions=1,
                       time_limit=1e-4)
    assert res.time_limited == 1
    assert res.table["kemeny_status"].tolist() == ["time_limit"]
    assert "time limit" in repr(res)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: scaling(synthetic=SYNTH, rules=["nope"]), "unknown rule"),
        (lambda: scaling(cs.datasets.gumbel_leaderboard(4, 3), synthetic=SYNTH), "not both"),
        (lambda: scaling(), "neither"),
        (lambda: scaling(synthetic=SYNTH, lambdas=(0.0,)), "lambda"),
        (lambda: manipulation(synthetic=SYNTH, ts=(7,)), "at most 6"),
        (lambda: task_removal(synthetic=SYNTH, kept=(0,)), "kept"),
        (lambda: missing_scores(synthetic=SYNTH, etas=(1.0,)), "eta"),
        (lambda: scaling(synthetic={"n_systems": 3, "typo": 1}), "typo"),
        (lambda: task_removal(synthetic={"n_tasks": None}), "n_tasks"),
        (lambda: scaling(synthetic=SYNTH, repetitions=0), "repetitions"),
        (lambda: scaling(synthetic=SYNTH, scheduler="threads"), "scheduler"),
        (lambda: scaling(synthetic=SYNTH, n_jobs=2), "n_jobs"),
        (lambda: scaling(synthetic=SYNTH, seed=-1), "seed"),
        (lambda: scaling(synthetic=SYNTH, time_limit=0), "time_limit"),
    ],
)
def test_bad_options_are_named(call, words):
    with pytest.raises(InvalidOptionError, match=words):
        call()


def test_experiment_result_checks_its_table():
    with pytest.raises(InvalidOptionError, match="'tau'"):
        ExperimentResult("x", pd.DataFrame({"repetition": [0], "rule": ["mean"], "t": [1]}), "t", "tau", {})


# ------------------------------------------------------------------ the Kemeny warm start
@given(st.integers(4, 7), st.integers(0, 10_000))
def test_a_warm_start_never_changes_the_optimum(n, seed):
    rng = np.random.default_rng(seed)
    upper = np.triu(rng.integers(0, 8, size=(n, n)), 1).astype(float)  # 7 tasks: P[i, j] + P[j, i] = 7
    prefs = upper + np.tril(7.0 - upper.T, -1)
    board = cs.PairwiseMatrix.from_array(prefs, systems=[f"m{i}" for i in range(n)])
    start = list(board.systems)
    rng.shuffle(start)
    cold = cs.kemeny(board, method="ilp")
    warm = cs.kemeny(board, method="ilp", initial=start, threads=1)
    brute = cs.kemeny(board, method="brute_force")
    assert warm.objective == pytest.approx(brute.objective) == pytest.approx(cold.objective)
    assert warm.status.value == "optimal"


def test_warm_start_and_threads_are_checked():
    toy = cs.load_example("votenrank-toy")
    with pytest.raises(InvalidOptionError, match="leaves out 'D'"):
        cs.kemeny(toy, initial=["A", "B", "C"])
    with pytest.raises(InvalidOptionError, match="'typo'"):
        cs.kemeny(toy, initial=[*toy.systems, "typo"])
    with pytest.raises(InvalidOptionError, match="more than once"):
        cs.kemeny(toy, initial=["A", "A", "B", "C", "D"])
    with pytest.raises(InvalidOptionError, match="threads"):
        cs.kemeny(toy, threads=0)
    # a system the policy leaves out may be named: it is skipped
    holes = cs.Leaderboard.from_frame(pd.DataFrame({"t1": [1.0, 2.0, 3.0], "t2": [2.0, np.nan, 1.0]}, index=list("abc")))
    res = cs.kemeny(holes, missing="drop_systems", initial=["b", "a", "c"])
    assert set(res.order) == {"a", "c"}


# ------------------------------------------------------------------ the CLI
def _cli(*argv: str) -> subprocess.CompletedProcess:
    return run_cli(*argv)


def test_cli_experiment_runs_and_writes_every_row(tmp_path):
    out = _cli("experiment", "scaling", "--synthetic", "8,5,0.3", "--repetitions", "3", "--rules", "mean,borda",
               "--settings", "2,10", "--format", "csv", "-q")
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(pd.io.common.StringIO(out.stdout))
    assert len(frame) == 3 * 2 * 2 and set(frame["lambda"]) == {2.0, 10.0}
    scores = tmp_path / "scores.csv"
    cs.datasets.gumbel_leaderboard(6, 5, seed=0).scores.to_csv(scores)
    shown = _cli("experiment", "task-removal", str(scores), "--repetitions", "2", "--rules", "copeland",
                 "--plot", str(tmp_path / "fig.png"))
    assert shown.returncode == 0, shown.stderr
    assert "Experiment: task_removal" in shown.stdout and (tmp_path / "fig.png").stat().st_size > 0
    assert "rep" in shown.stderr  # the progress bar


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("experiment", "scaling", "--synthetic", "8,5"), "N,T,PHI"),
        (("experiment", "scaling"), "give FILE, --example NAME or --synthetic"),
        (("experiment", "scaling", "--example", "votenrank-toy", "--synthetic", "4,3,0.1"), "one of them"),
        (("stability",), "give FILE, --example NAME"),
        (("experiment", "scaling", "--synthetic", "8,5,0.1", "--settings", "a"), "float"),
        (("experiment", "scaling", "--synthetic", "8,5,0.1", "--rules", "nope", "-q"), "unknown rule"),
    ],
)
def test_cli_experiment_errors_are_one_line(argv, words):
    out = _cli(*argv)
    assert out.returncode != 0
    assert words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_cli_iia_on_a_published_leaderboard():
    out = _cli("experiment", "iia", "--example", "votenrank-superglue", "--repetitions", "3", "--rules",
               "mean,copeland", "--format", "csv", "-q")
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(pd.io.common.StringIO(out.stdout))
    assert len(frame) == 6 and (frame[frame["rule"] == "mean"]["changes"] == 0).all()
    assert set(frame["leaderboard"]) == {"votenrank-superglue"}


def test_cli_stability_report_csv_and_figure(tmp_path):
    scores = tmp_path / "scores.csv"
    cs.datasets.gumbel_leaderboard(8, 6, phi=0.3, seed=0).scores.to_csv(scores)
    out = _cli("stability", str(scores), "--resamples", "30", "--rules", "borda,kemeny", "--top", "3",
               "--plot", str(tmp_path / "s.png"))
    assert out.returncode == 0, out.stderr
    assert "Rank stability" in out.stdout and "kemeny: top set" in out.stdout and "... and 5 more systems" in out.stdout
    assert (tmp_path / "s.png").stat().st_size > 0
    csv = _cli("stability", str(scores), "--resamples", "30", "--rules", "borda", "--format", "csv", "-q")
    frame = pd.read_csv(pd.io.common.StringIO(csv.stdout))
    direct = cs.rank_stability(cs.read_leaderboard(scores), ["borda"], resamples=30).to_frame()
    np.testing.assert_allclose(frame["p_first"], direct["p_first"], rtol=1e-12)
    assert frame["kept_with_next"].notna().sum() == 7  # every adjacent pair of 8 systems
    bad = _cli("stability", str(scores), "--resampling", "instances", "-q")
    assert bad.returncode == 2 and "instances" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_several_kemeny_optima_are_counted_not_hidden():
    cycle = cs.Leaderboard.from_frame(pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [1.0, 3.0, 2.0],
                                                    "t3": [2.0, 1.0, 3.0]}, index=list("abc")))
    assert cs.kemeny(cycle).unique is False
    stab = cs.rank_stability(cycle, ["borda", "kemeny"], resamples=12, seed=0)
    assert stab.parameters["kemeny_full_unique"] is False
    # the symmetric board (every weight 1) and any resample keeping all three tasks has three optima
    kept_all = [k for k in range(12) if stab.kemeny_unique[k] is False]
    assert stab.kemeny_not_unique == len(kept_all) > 0
    assert "several optimal rankings" in repr(stab) and "several optimal rankings" in cs.render(stab)
    exp = task_removal(cycle, ["kemeny", "borda"], kept=(3,), repetitions=2)
    assert exp.kemeny_not_unique == 2 and exp.parameters["kemeny_reference_unique"] is False
    assert "several optima" in repr(exp) and "several optimal rankings" in cs.render(exp)
    assert exp.table.loc[exp.table["rule"] == "borda", "kemeny_not_unique"].eq(0).all()


def test_cli_stability_warns_when_the_top_set_rests_on_a_sparse_system(tmp_path):
    from .messy_exports import sparse_board

    path = tmp_path / "sparse.csv"
    sparse_board().to_csv(path, index=False)
    out = _cli("stability", str(path), "--index-col", "system", "--resamples", "20", "--rules", "copeland", "-q")
    assert out.returncode == 0, out.stderr
    first = out.stderr.splitlines()[0]  # warnings go to stderr, even with -q
    assert first.startswith("consensus: warning: rests on a low-coverage system")
    assert "not separable from the top under copeland" in first and "warning" not in out.stdout
