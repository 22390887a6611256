"""The reading step on files in the shapes users export: aggregates, duplicates, columns that are not
scores, directions, standard errors, and the systems a ranking covers (set aside when compared with
no rival or barely evaluated). Fixtures: tests/real_shapes.py."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.board._coverage import comparability, set_aside
from consensus.formats.metrics import column_direction
from consensus.io._columns import role_by_name

from . import real_shapes as shapes
from .cli_runner import installed_many, run_cli


def _read(frame: pd.DataFrame, **options) -> cs.Leaderboard:
    column = frame.columns[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame.set_index(column).rename_axis(None), **options)


# ---------------------------------------------------------------- aggregates and duplicates
def test_oll_v2_like_average_and_raw_twin_are_not_tasks_and_change_the_answer():
    frame = shapes.oll_v2_like()
    lb = _read(frame)
    assert lb.tasks == shapes.V2_TASKS
    excluded = lb.reading.excluded
    assert excluded["Open LLM score"].role == "aggregate" and excluded["Open LLM score"].of == shapes.V2_TASKS
    assert excluded["IFEval Raw"].role == "duplicate" and excluded["IFEval Raw"].of == ("IFEval",)
    assert {c for c, r in excluded.items() if r.role == "metadata"} == {
        "Precision", "Type", "#Params (B)", "Hub License", "Hub ❤️"}
    # on the six benchmarks the top two split 3-3: no Condorcet winner; counting the average and the
    # raw twin as tasks crowns top-a, which is what the reading step prevents
    assert cs.condorcet_winner(lb) is None
    assert set(cs.majority.weak_condorcet_winners(lb)) == {"top-a", "top-b"}
    misread = _read(frame, keep_columns=["Open LLM score", "IFEval Raw"])
    assert misread.n_tasks == 8 and cs.condorcet_winner(misread) == "top-a"
    # strict reading: every numeric column a task, text columns an error
    with pytest.raises(cs.LeaderboardError, match="'Precision'"):
        _read(frame, infer=False)


def test_a_raw_twin_clipped_at_the_baseline_is_a_duplicate_on_many_rows():
    rng = np.random.default_rng(5)
    raw = np.round(rng.uniform(0.2, 0.6, 40), 4)
    norm = np.round(np.maximum(0, (raw - 0.25) / 0.75 * 100), 2)  # normalized, 0 below the random baseline
    frame = pd.DataFrame({"model": [f"m{k}" for k in range(40)], "MATH": norm, "GPQA": np.round(rng.uniform(0, 30, 40), 2),
                          "MUSR": np.round(rng.uniform(0, 30, 40), 2), "MATH Raw": raw})
    lb = _read(frame)
    assert lb.tasks == ("MATH", "GPQA", "MUSR")
    assert lb.reading.excluded["MATH Raw"].of == ("MATH",) and "correlation" in lb.reading.excluded["MATH Raw"].reason


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_genuine_task_on_a_wide_small_board_is_never_excluded_as_an_aggregate(seed):
    # 5 systems x 40 tasks: a task fits a non-negative mix of others within rounding in most draws,
    # which is weak evidence: kept, at most mentioned
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(np.round(rng.uniform(20, 90, (5, 40)), 1), columns=[f"subject_{k}" for k in range(40)])
    frame.insert(0, "model", [f"m{k}" for k in range(5)])
    lb = _read(frame)
    assert lb.n_tasks == 40
    assert all(r.role != "aggregate" for r in lb.reading.excluded.values())


def test_aggregates_of_a_subset_with_holes_sum_and_weights():
    rng = np.random.default_rng(7)
    n = 30
    base = np.round(rng.uniform(10, 90, (n, 4)), 1)
    frame = pd.DataFrame(base, columns=["qa", "nli", "mt", "code"])
    frame["total qa+nli"] = np.round(base[:, 0] + base[:, 1], 1)  # a sum of two columns
    frame["weighted"] = np.round(0.7 * base[:, 2] + 0.3 * base[:, 3], 1)  # n >= 3 x 2 columns: clear evidence
    frame.loc[3, "qa"] = np.nan  # a hole: the fit uses the complete rows
    frame.insert(0, "system", [f"s{k}" for k in range(n)])
    lb = _read(frame)
    assert lb.tasks == ("qa", "nli", "mt", "code")
    found = lb.reading.excluded
    assert found["total qa+nli"].of == ("qa", "nli") and "the sum of" in found["total qa+nli"].reason
    assert found["weighted"].of == ("mt", "code") and "weighted sum" in found["weighted"].reason
    kept = _read(frame, keep_columns=["weighted"])
    assert "weighted" in kept.tasks


# ---------------------------------------------------------------- names, types, directions
@pytest.mark.parametrize(("name", "expected"), [
    ("Mean win rate", "aggregate"), ("Average (56 datasets)", "aggregate"), ("Rank (Borda)", "rank"),
    ("#Params (B)", "metadata"), ("Parameters", "metadata"), ("Model Size (Million Parameters)", "metadata"),
    ("Submission date", "metadata"), ("Hub ❤️", "metadata"), ("# eval", "metadata"),
    ("qa_stderr", "stderr"), ("Std. error", "stderr"), ("acc_stderr,none", "stderr"),
    ("win rate", None), ("LC win rate", None), ("date_understanding", None), ("TimeQA", None), ("Precision", None),
])
def test_roles_by_name(name, expected):
    found = role_by_name(name)
    assert (found[0] if found else None) == expected


@pytest.mark.parametrize(("name", "expected"), [
    ("Observed inference time (s)", "lower"), ("Latency (ms)", "lower"), ("ECE (10-bin)", "lower"),
    ("Hallucination error rate", "lower"), ("WER", "lower"), ("Memory (GB)", "lower"), ("Cost ($)", "lower"),
    ("word_perplexity", "lower"), ("Toxicity", "lower"), ("RMSE", "lower"), ("train loss", "lower"),
    ("TimeQA", None), ("BBQ bias accuracy", None), ("Tokens per second", None), ("Std. error", None),
    ("qa_stderr", None), ("accuracy", "higher"), ("Error detection F1", None), ("MMLU", None),
])
def test_directions_by_name(name, expected):
    assert column_direction(name)[0] == expected


def test_helm_like_efficiency_and_calibration_tables_read_lower_is_better():
    eff = _read(shapes.helm_efficiency_like())
    assert "Mean win rate" not in eff.tasks and len(eff.lower_is_better) == len(shapes.HELM_SCENARIOS)
    assert cs.condorcet_winner(eff) == "fast-model" and cs.rank(eff, "borda").ranking[-1] == ("slow-model",)
    cal = _read(shapes.helm_calibration_like())
    assert cs.condorcet_winner(cal) == "calibrated" and cs.rank(cal, "mean").winners == ("calibrated",)
    # the inference is stated and reversible, one column at a time
    first = cal.tasks[0]
    assert cal.reading.columns[2].direction_source == "named like a calibration error: 'ece'"
    reversed_ = _read(shapes.helm_calibration_like(), higher_is_better=[first])
    assert first not in reversed_.lower_is_better and len(reversed_.lower_is_better) == 3
    as_given = _read(shapes.helm_calibration_like(), infer=False)
    assert not as_given.lower_is_better and "Mean win rate" in as_given.tasks
    assert cs.condorcet_winner(as_given) == "overconfident"  # what a misread table crowns


def test_oll_v1_like_parameters_column_is_not_a_task():
    frame = shapes.oll_v1_like()
    lb = _read(frame)
    assert "Parameters" not in lb.tasks and lb.reading.excluded["Parameters"].role == "metadata"
    assert cs.rank(lb, "mean").winners != ("huge-model",)
    assert cs.rank(_read(frame, keep_columns=["Parameters"]), "mean").winners == ("huge-model",)


def test_standard_error_columns_are_kept_beside_the_scores():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "qa": [0.7, 0.5, 0.6], "qa_stderr": [0.01, 0.02, 0.015],
                          "nli": [0.4, 0.6, 0.5], "Std. error": [0.03, 0.01, 0.02]})
    lb = _read(frame)
    assert lb.tasks == ("qa", "nli")
    assert lb.stderr.to_dict("list") == {"qa": [0.01, 0.02, 0.015], "nli": [0.03, 0.01, 0.02]}
    assert lb.select(systems=["b", "a"], tasks=["nli"]).stderr.to_dict("list") == {"nli": [0.01, 0.03]}
    assert lb.to_dict()["reading"]["stderr_of"] == {"qa": "qa_stderr", "nli": "Std. error"}
    # the line names the option that reads a standard error as a task, and it works
    assert "qa_stderr: standard error of qa, kept beside the scores, not a task (read it as a task: " \
           "keep_columns=['qa_stderr'])" in str(lb.reading)
    assert _read(frame, keep_columns=["qa_stderr"]).tasks == ("qa", "qa_stderr", "nli")


# ---------------------------------------------------------------- comparability and set-aside
def _harness_folder(root, models):
    for model, results in models.items():
        (root / model).mkdir(parents=True)
        run = {"results": {t: {"alias": t, "acc,none": v} for t, v in results.items()}, "model_name": model}
        (root / model / "results_2024-05-01T12-00-00.123456.json").write_text(json.dumps(run))
    return root


def test_lm_eval_folder_model_sharing_no_task_is_set_aside(tmp_path):
    rng = np.random.default_rng(3)
    models = {m: {"arc_easy": float(rng.uniform(0.4, 0.8)), "hellaswag": float(rng.uniform(0.4, 0.8))}
              for m in ("org__a", "org__b", "org__c")}
    models["org__lone"] = {f"mmlu_subject_{k:02d}": 0.95 for k in range(57)}
    folder = _harness_folder(tmp_path / "out", models)
    lb = cs.read_format(folder, "harness", metric="acc")
    table = comparability(lb)
    assert table.loc["org__lone", "rivals_compared"] == 0 and table.loc["org__lone", "weight_share"] > 0.9
    result = cs.kemeny(lb)
    assert "org__lone" not in result.order and len(result.order) == 3
    assert any("compared with no rival" in n and "'org__lone'" in n for n in result.preparation.notes)
    pair = lb.select(systems=["org__a", "org__lone"])  # nobody shares a task: nothing to set apart from, said
    assert set_aside(pair).systems == pair.systems and "no system was set aside" in set_aside(pair).notes[-1]
    with pytest.raises(cs.InvalidOptionError, match="min_coverage=0.5 would leave 0 system"):
        set_aside(pair, 0.5)
    assert "org__lone" in cs.kemeny(lb, min_coverage=0).order  # 0: every system, as given
    code = run_cli("kemeny", str(folder), "--from", "harness", "--metric", "acc", "--format", "json")
    assert code.returncode == 0 and len(json.loads(code.stdout)["result"]["ranking"]) == 3
    assert "'org__lone'" in " ".join(json.loads(code.stdout)["result"]["preparation"]["notes"]) and "warning" not in code.stderr


def test_gem_like_sparse_submission_is_not_crowned_by_default():
    lb = _read(shapes.gem_like())
    assert set_aside(lb, 0) is lb
    crowned = cs.kemeny(lb, min_coverage=0).order[0]
    for result in (cs.kemeny(lb), cs.rank(lb, "borda", missing="impute"), cs.prospective(lb)):
        ranked = result.ranking if isinstance(result, cs.results.KemenyResult) else getattr(result, "systems", ())
        assert "sparse-sub" not in ranked
    analysis = cs.analyze(lb)
    assert "sparse-sub" not in analysis.leaderboard.systems and analysis.kemeny.order[0] != "sparse-sub" or crowned != "sparse-sub"
    assert any("'sparse-sub' (4/16 tasks, 25% of the weight" in n and "min_coverage=0" in n for n in analysis.notes)


def test_default_falls_back_when_every_system_is_sparse():
    # partial ballots: every alternative is on 2 of 5 tasks; the default sets nobody aside, and says so
    frame = pd.DataFrame(np.nan, index=list("abcde"), columns=[f"v{k}" for k in range(5)])
    for k, pair in enumerate([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]):
        frame.iloc[pair[0], k], frame.iloc[pair[1], k] = 2.0, 1.0
    lb = cs.Leaderboard.from_frame(frame, infer=False)
    assert set_aside(lb).systems == lb.systems
    assert any(n.startswith("no system was set aside for coverage") for n in set_aside(lb).notes)
    with pytest.raises(cs.InvalidOptionError, match="min_coverage=0.5 would leave"):
        set_aside(lb, 0.5)


# ---------------------------------------------------------------- the CLI: inspect and overrides
FORMATS = Path(__file__).parent / "data" / "formats"
HELM_SUITE = FORMATS / "helm" / "benchmark_output" / "runs" / "v1"
MTEB_LEGACY = FORMATS / "mteb" / "legacy" / "results"


def test_inspect_and_overrides_through_the_installed_cli(tmp_path):
    v2 = shapes.write_csv(shapes.oll_v2_like(), tmp_path / "v2.csv")
    eff = shapes.write_csv(shapes.helm_efficiency_like(), tmp_path / "eff.csv")
    first = shapes.helm_efficiency_like().columns[2]
    runs = installed_many([
        ["inspect", str(v2)],
        ["inspect", str(v2), "--format", "json"],
        ["inspect", str(v2), "--keep-columns", "Open LLM score,IFEval Raw"],
        ["inspect", str(eff), "--higher-is-better", first],
        ["kemeny", str(eff), "--format", "json"],
        ["kemeny", str(HELM_SUITE), "--from", "helm-summary", "--table", "core_scenarios/calibration", "--format", "json"],
        ["inspect", str(MTEB_LEGACY), "--from", "mteb"],
    ])
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert json.loads(runs[5].stdout)["result"]["order"][0] == "GPT-4 (0613)"  # the smallest calibration error
    assert "3 systems x 7 tasks" in runs[6].stdout and "ndcg_at_10 (retrieval) for 'SciFact'" in runs[6].stdout
    text = runs[0].stdout
    assert "Open LLM score: excluded, aggregate: the mean of IFEval, BBH" in text
    assert "IFEval Raw: excluded, duplicate" in text and "--keep-columns 'IFEval Raw'" in text
    assert "keep_columns=" not in text and max(len(line) for line in text.splitlines()) <= 200
    doc = json.loads(runs[1].stdout)
    roles = {c["column"]: c["role"] for c in doc["reading"]["columns"]}
    assert roles["Open LLM score"] == "aggregate" and roles["IFEval"] == "task" and doc["tasks"] == list(shapes.V2_TASKS)
    assert "read 13 columns: 8 tasks" in runs[2].stdout
    assert "lower is better: " in runs[3].stdout and first not in runs[3].stdout.split("lower is better: ")[1]
    assert json.loads(runs[4].stdout)["result"]["order"][0] == "fast-model"


def test_v1_gem_and_calibration_exports_through_the_installed_cli(tmp_path):
    """The OLL-v1-like (Parameters), GEM-like (sparse submission, error rate, length) and HELM-like
    calibration exports through the console script: `inspect` states each decision with its flag,
    and the sparse submission is not ranked (one batch of concurrent processes)."""
    v1 = shapes.write_csv(shapes.oll_v1_like(), tmp_path / "v1.csv")
    gem = shapes.write_csv(shapes.gem_like(), tmp_path / "gem.csv")
    cal = shapes.write_csv(shapes.helm_calibration_like(), tmp_path / "cal.csv")
    runs = installed_many([["inspect", str(v1)], ["inspect", str(gem)], ["inspect", str(cal)],
                           ["kemeny", str(gem), "--format", "json"]])
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    for r in runs[:3]:
        assert "keep_columns=" not in r.stdout and "higher_is_better=" not in r.stdout
        assert max(len(line) for line in r.stdout.splitlines()) <= 200
    v1_out, gem_out, cal_out = (r.stdout for r in runs[:3])
    assert v1_out.startswith(f"{v1}: 40 systems x 6 tasks\nread 8 columns: 6 tasks, 2 excluded\n")
    assert "excluded, not scores: named like model information: Parameters, Architecture (keep one: --keep-columns" in v1_out
    assert "tasks: ARC, HellaSwag, MMLU, TruthfulQA, Winogrande, GSM8K\n" in v1_out
    assert "12 systems x 16 tasks" in gem_out and "lower is better: Hallucination error rate\n" in gem_out
    assert ("Hallucination error rate: lower is better, named like an error: 'error' (reverse: --higher-is-better "
            "'Hallucination error rate')") in gem_out
    assert "Avg length: excluded, not a score: named like model information (keep it: --keep-columns 'Avg length')" in gem_out
    assert "Mean win rate: excluded, aggregate: named like an aggregate (keep it: --keep-columns 'Mean win rate')" in cal_out
    assert "4 tasks lower is better, named like a calibration error: 'ece'" in cal_out
    assert cal_out.count("ECE (10-bin)", cal_out.index("lower is better: ")) == 4 and "Mean win rate" not in cal_out.split("tasks: ")[1]
    result = json.loads(runs[3].stdout)["result"]
    assert "sparse-sub" not in result["order"] and len(result["order"]) == 11
    assert any("'sparse-sub' (4/16 tasks, 25% of the weight" in n for n in result["preparation"]["notes"])


def test_preflib_alternative_ranked_by_one_voter_is_set_aside(tmp_path):
    # 15 voters rank a, b, c, d; one of them also ranks 'rare' first: on its only ballot it beats everyone
    path = tmp_path / "election.toi"
    header = ["# FILE NAME: election.toi", "# DATA TYPE: toi", "# NUMBER ALTERNATIVES: 5", "# NUMBER VOTERS: 15",
              "# NUMBER UNIQUE ORDERS: 4"]
    names = [f"# ALTERNATIVE NAME {k}: {n}" for k, n in enumerate(["a", "b", "c", "d", "rare"], start=1)]
    path.write_text("\n".join(header + names + ["6: 1,2,3,4", "5: 2,1,4,3", "3: 1,3,2,4", "1: 5,4,3,2,1"]) + "\n")
    lb = cs.formats.read_preflib(path)
    assert cs.kemeny(lb, min_coverage=0).order[0] == "rare"  # what ranking it as given would crown
    result = cs.kemeny(lb)
    assert "rare" not in result.order and result.order[0] == "a"
    assert any("'rare'" in n and "set aside" in n for n in result.preparation.notes)


# ---------------------------------------------------------------- outputs at 350 systems
@pytest.mark.slow
def test_outputs_of_a_350_system_board_stay_readable_and_small(tmp_path):
    import argparse

    from consensus.cli.output import MAX_PLOT_PIXELS, save_plot
    from consensus.report.html import render_html

    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(0)
    scores = np.round(50 + 15 * rng.normal(size=(350, 1)) + 3 * rng.normal(size=(350, 8)), 2)
    frame = pd.DataFrame(scores, columns=[f"benchmark-{j} (acc_norm, 5-shot)" for j in range(8)],
                         index=[f"organization-{i % 40}/a-rather-long-model-name-v{i}-instruct-dpo" for i in range(350)])
    analysis = cs.analyze(cs.Leaderboard.from_frame(frame), time_limit=60)
    assert analysis.kemeny.optimal
    for fmt in ("table", "markdown"):
        text = cs.render(analysis, format=fmt, command="analyze")
        assert max(len(line) for line in text.splitlines()) <= 200, fmt
        assert "benchmark-7 (acc" in text  # wide tables are split, not cut
    page = render_html(analysis)
    assert len(page.encode("utf-8")) < 3_000_000
    assert f"show the table ({len(analysis.majority.edges)} rows, unpacked in the browser)" in page
    # --plot: a raster is at most 4,000 px a side whatever the figure's size (the 350-system analysis
    # figure is tens of inches a side; the page above drew it, so a blank one of that size stands in)
    from matplotlib.figure import Figure
    from PIL import Image

    png = tmp_path / "figure.png"
    save_plot(argparse.Namespace(plot=str(png)), lambda: Figure(figsize=(48.0, 36.0)))
    with Image.open(png) as image:
        assert max(image.size) <= MAX_PLOT_PIXELS and max(image.size) >= MAX_PLOT_PIXELS - 1


def test_infinite_scores_are_missing_with_a_note_and_refused_when_read_as_given(tmp_path):
    path = tmp_path / "inf.csv"
    path.write_text("model,t1,t2,t3\na,0.9,inf,0.7\nb,0.1,0.9,0.8\nc,0.5,0.6,-inf\nd,0.4,0.5,0.6\n", encoding="utf-8")
    lb = cs.read_leaderboard(path)
    assert np.isnan(lb.scores.loc["a", "t2"]) and np.isnan(lb.scores.loc["c", "t3"]) and lb.scores.notna().sum().sum() == 10
    assert any("infinite scores as missing" in n and "'t2': 'a'" in n and "'t3': 'c'" in n for n in lb.notes)
    with pytest.raises(cs.errors.LeaderboardErrors, match="infinite score"):
        cs.read_leaderboard(path, infer=False)


def test_identical_problems_are_grouped_in_one_short_line(tmp_path):
    rows = ["model,t1,t2"] + [f"{'' if i % 3 == 0 else f'm{i}'},{i / 40},{1 - i / 40}" for i in range(40)]
    path = tmp_path / "names.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(cs.errors.LeaderboardErrors) as info:
        cs.read_leaderboard(path)
    message = str(info.value)
    assert message.startswith("14 systems have an empty name (lines 2, 5, 8, 11, 14, 17, 20, 23 ... and 6 more)")
    assert "\n" not in message and len(message) < 300 and len(info.value.problems) == 14
    # several kinds: one line each in the API, one line under 300 characters on the command line
    rows[5] = "m4,abc,0.5"
    rows[7] = "m6,0.5,inf"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(cs.errors.LeaderboardErrors) as info:
        cs.read_leaderboard(path, infer=False)
    kinds = str(info.value).splitlines()[1:]
    assert len(kinds) == 3 and kinds[0].startswith("  1. 13 systems have an empty name")
    line = info.value.cli_message()
    assert "\n" not in line and len(line) <= 300 and "more kind(s) of problem" in line


def test_empty_names_suggest_the_column_that_holds_the_names(tmp_path, capsys):
    """A raw export whose first column (a rank) is blank on most rows: the error names the column
    where every row has a name, all different, for --index-col; never a column of links."""
    from consensus.cli import main

    rows = ["Rank,Name,Model,URL,CoLA,SST-2"] + [
        f"{i + 1 if i % 4 == 0 else ''},{'' if i % 3 else f'team {i}'},model-{i},https://example.org/{i},{50 + i},{90 - i}"
        for i in range(22)]
    path = tmp_path / "glue_raw.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(cs.errors.LeaderboardErrors, match=r"^16 systems have an empty name \(lines 3, 4, 5, 7, .*pass "
                       r"index_col='Model' \(every row has a name there, all different\)"):
        cs.read_leaderboard(path)
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300 and "pass --index-col Model (every row has a name there" in err
    assert cs.read_leaderboard(path, index_col="Model").n_systems == 22
    path.write_text(path.read_text().replace("model-5,", ","), encoding="utf-8")  # no complete column left
    with pytest.raises(cs.errors.LeaderboardErrors, match=r"pass index_col=\.\.\. to take them from another column"):
        cs.read_leaderboard(path)


def test_the_cli_prints_grouped_problems_as_one_line(tmp_path, capsys):
    from consensus.cli import main

    rows = ["model,t1,t2"] + [f"{'' if i % 2 else f'm{i}'},{i / 40},{1 - i / 40}" for i in range(40)]
    path = tmp_path / "names.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300 and "20 systems have an empty name" in err and "--index-col" in err


def test_other_tools_output_read_as_a_table_names_its_importer(tmp_path):
    """A HELM group file, lm-evaluation-harness results or an MTEB folder given as FILE: the error
    names the --from format (cs.read_format in the API), in one line of at most 300 characters."""
    groups = HELM_SUITE / "groups"
    with pytest.raises(cs.LeaderboardError, match=r"not a score table; it looks like a HELM group file .*"
                                                  r"cs\.read_format\(FILE, 'helm-summary'\)"):
        cs.read_leaderboard(groups / "core_scenarios.json")
    harness = FORMATS / "harness" / "output"
    cases = [(groups / "core_scenarios.json", "helm-summary"), (groups / "json" / "core_scenarios_efficiency.json", "helm-summary"),
             (HELM_SUITE, "helm-summary"), (harness, "harness"), (next(harness.glob("*/results_*.json")), "harness"),
             (FORMATS / "mteb" / "results", "mteb"), (MTEB_LEGACY, "mteb"), (tmp_path, "TOOL")]
    runs = [run_cli("inspect", str(path)) for path, _ in cases]
    for (path, kind), res in zip(cases, runs):
        assert res.returncode == 2 and res.stderr.count("\n") == 1, (path, res.stderr)
        assert f"--from {kind}" in res.stderr and "read_format" not in res.stderr and len(res.stderr) <= 301, res.stderr


def test_the_note_listing_excluded_columns_stays_short(tmp_path):
    """Seven columns set aside on an OLL-v2-like export: the stderr note is cut with "... and N more"
    (the reading summary keeps every reason); a short list keeps its reasons and names."""
    lb = _read(shapes.oll_v2_like())
    said = next(n for n in lb.notes if n.startswith("excluded column(s), not tasks"))
    assert len(said) <= 180 and "... and 5 more" in said and "keep_columns=..." in said
    res = run_cli("rank", str(shapes.write_csv(shapes.oll_v2_like(), tmp_path / "v2.csv")), "--rule", "mean")
    assert res.returncode == 0 and max(len(line) for line in res.stderr.splitlines()) <= 200, res.stderr
    assert "pass --keep-columns COL,... to keep them" in res.stderr
