"""End to end on files that look like real leaderboard exports (``tests/data/messy``, written by
``tests/messy_exports.py``): every command through the CLI (in-process, ``tests/cli_runner``), and the same through the API.

Each test names the item of the "real leaderboards" checklist it covers: (1) missing cells do
not skip rules, (2) sparse coverage is flagged, (3) bookkeeping columns are not tasks, (4)
composite cells with a missing half, (5) messy names, (6) errors in one pass, (7) reports that
fit on screen, (8) plots, (9) notebook display.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.errors import ConsensusError

from .cli_runner import run_cli, run_cli_many

MESSY = Path(__file__).parent / "data" / "messy"
GLUE = MESSY / "glue_like.csv"
SPARSE = MESSY / "sparse_22x15.csv"
LONG = MESSY / "long_format.csv"
GLUE_READ = ["--index-col", "Model", "--exclude", "Name,URL", "--split-composite", "--dedupe"]
DEFAULT_RULES = ("mean", "borda", "copeland", "minimax", "plurality", "dowdall", "threshold", "baldwin", "kemeny")


@pytest.fixture(scope="module")
def glue() -> cs.Leaderboard:
    return cs.read_leaderboard(GLUE, index_col="Model", exclude=["Name", "URL"], split_composite=True, dedupe=True)


@pytest.fixture(scope="module")
def sparse() -> cs.Leaderboard:
    return cs.read_leaderboard(SPARSE)


# ---------------------------------------------------------------------- (3), (4), (5): reading
def test_bookkeeping_columns_are_excluded_and_named(glue: cs.Leaderboard) -> None:
    assert "Rank" not in glue.tasks and "Score" not in glue.tasks
    notes = " ".join(glue.notes)
    assert "Rank" in notes and "Score" in notes
    kept = cs.read_leaderboard(GLUE, index_col="Model", exclude=["Name", "URL"], split_composite=True,
                               dedupe=True, keep_columns=["Score"])
    assert "Score" in kept.tasks and "Rank" not in kept.tasks


def test_composite_cells_with_a_missing_half_split(glue: cs.Leaderboard) -> None:
    raw = pd.read_csv(GLUE, dtype=str, keep_default_na=False)
    half = raw[raw["STS-B"].str.contains("/") & raw["STS-B"].str.contains(r"(?:^|/)(?:-|NaN)?(?:/|$)")]
    assert len(half) > 0
    for _, row in half.iterrows():
        first, second = row["STS-B"].split("/")
        name = " ".join(row["Model"].split())
        got = glue.scores.loc[[s for s in glue.systems if s.startswith(name)][0]]
        for part, text in (("STS-B[1]", first), ("STS-B[2]", second)):
            if text in ("", "-", "NaN"):
                assert np.isnan(got[part])
            else:
                assert got[part] == pytest.approx(float(text))


def test_names_are_normalized_and_the_mapping_reported(glue: cs.Leaderboard) -> None:
    assert "RoBERTa (ensemble)" in glue.systems
    assert "ALBERT *xxlarge*" in glue.systems
    assert "BERT base" in glue.systems
    assert all("\n" not in s and "\t" not in s and "  " not in s for s in glue.systems)
    assert "RoBERTa (ensemble)" in " ".join(glue.notes)
    frame = pd.DataFrame({" qa\n": [0.9, 0.8, 0.7], "nli": [0.1, 0.3, 0.2]}, index=["a", "b", "c"])
    lb = cs.Leaderboard.from_frame(frame, lower_is_better=["qa"], weights={"  qa ": 2})
    assert lb.tasks == ("qa", "nli") and lb.lower_is_better == {"qa"} and lb.weights["qa"] == 2


def test_markdown_and_tables_survive_messy_names(glue: cs.Leaderboard) -> None:
    res = cs.rank(glue, "copeland")
    md = cs.report.render(res, format="markdown")
    for line in md.splitlines():
        if line.startswith("|") and "T5" in line:
            assert r"T5 \| 11B" in line
    table = cs.report.render(res, format="table", top=0)
    widths = {len(line) for line in table.splitlines() if line.startswith(("model-", "T5", "RoBERTa"))}
    assert len(widths) <= 2  # one row per system, aligned


# ---------------------------------------------------------------------- (6): errors in one pass
def test_one_error_lists_every_text_column_with_its_flag() -> None:
    res = run_cli("analyze", str(GLUE))
    assert res.returncode != 0 and "Traceback" not in res.stderr
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1
    for column in ("Name", "Model", "URL"):
        assert column in err
    assert "--index-col" in err or "--exclude" in err
    assert "=True" not in err  # CLI flags, not Python keywords


def test_long_format_is_detected() -> None:
    res = run_cli("rank", str(LONG), "--rule", "borda")
    assert res.returncode != 0
    assert "long" in res.stderr and "--long" in res.stderr
    ok = run_cli("rank", str(LONG), "--rule", "borda", "--long", "system,task,score")
    assert ok.returncode == 0, ok.stderr


def test_empty_name_error_is_one_based_and_names_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "blank.csv"
    path.write_text("model,qa,nli\na,1,2\n,3,4\nc,5,6\n")
    res = run_cli("rank", str(path), "--rule", "borda")
    assert res.returncode != 0
    assert "line 3" in res.stderr and "--index-col" in res.stderr


# ---------------------------------------------------------------------- (1): every rule runs
def test_analyze_runs_every_default_rule_on_holes_and_names_the_policy(glue: cs.Leaderboard) -> None:
    comparison = cs.compare_rules(glue, time_limit=60)
    table = comparison.table
    assert set(DEFAULT_RULES) <= set(table.index)
    assert (table.loc[list(DEFAULT_RULES), "status"] != "failed").all(), table["note"].to_dict()
    policies = comparison.preparations
    assert policies["borda"].missing == "impute" and policies["mean"].missing == "median"
    assert policies["copeland"].missing is None  # pairwise on shared tasks


def test_compare_missing_option_and_per_rule_override(glue: cs.Leaderboard) -> None:
    frame = cs.compare(glue, rules=["mean", "borda"], missing="median", time_limit=60)
    assert (frame.loc[["mean", "borda"], "status"] == "ok").all()
    with_holes = cs.compare(glue, rules=["mean"], missing="drop_tasks", time_limit=60)  # every task has a hole
    assert with_holes.loc["mean", "status"] == "failed" and "drop_tasks" in with_holes.loc["mean", "note"]
    frame = cs.compare(glue, rules=["mean"], rule_options={"mean": {"missing": "drop_systems"}}, time_limit=60)
    assert frame.loc["mean", "status"] == "ok"


def test_cli_missing_flag_on_every_ranking_command() -> None:
    common = [str(GLUE), *GLUE_READ, "--quiet"]
    results = run_cli_many([
        ["rank", *common, "--rule", "plurality", "--missing", "median"],
        ["compare", *common, "--missing", "impute", "--rules", "borda,plurality", "--time-limit", "30"],
        ["kemeny", *common, "--missing", "median", "--time-limit", "30"],
        ["prospective", *common, "--missing", "median"],
        ["prospective", *common, "--rule", "borda", "--missing", "impute"],
        ["sensitivity", *common, "--rule", "mean", "--missing", "median", "--target", "top3"],
        ["sensitivity", *common, "--rule", "borda", "--missing", "impute"],
        ["sensitivity", *common, "--rule", "kemeny", "--target", "ranking"],
    ])
    for res in results:
        assert res.returncode == 0, (res.args, res.stderr)


# ---------------------------------------------------------------------- (2): coverage
def test_low_coverage_winner_is_flagged(sparse: cs.Leaderboard) -> None:
    coverage = sparse.coverage
    assert coverage["tiny-1"] == pytest.approx(1 / 15)
    analysis = cs.analyze(sparse, time_limit=60, min_coverage=0)
    flagged = " ".join(analysis.coverage_flags)
    top = cs.kemeny(sparse, time_limit=60, min_coverage=0).order[0]
    assert coverage[top] < 0.5  # this board crowns a barely evaluated system...
    assert repr(top) in flagged or top in flagged  # ...and the report says so


def test_min_coverage_drops_and_names(sparse: cs.Leaderboard) -> None:
    res = cs.kemeny(sparse, min_coverage=0.5, time_limit=60)
    assert not {"tiny-1", "tiny-2", "tiny-3", "tiny-3b"} & set(res.order)
    assert len(res.order) == 17 and "tiny-1" in " ".join(res.preparation.notes)  # human baseline (6 of 15) too
    out = run_cli("analyze", str(SPARSE), "--min-coverage", "0.5", "--quiet")
    assert out.returncode == 0, out.stderr
    assert "tiny-1" in out.stdout  # named in the note of what was dropped


def test_one_task_system_cannot_weakly_win_on_tasks_nobody_evaluated(sparse: cs.Leaderboard) -> None:
    old = cs.condorcet_weights(sparse, "tiny-1", strict=False, scored_tasks_only=False)
    new = cs.condorcet_weights(sparse, "tiny-1", strict=False)
    assert old.feasible  # weight only on tasks tiny-1 was never scored on: ties everyone
    if new.feasible:
        scored = [t for t in sparse.tasks if not np.isnan(sparse.scores.loc["tiny-1", t])]
        assert sum(new.weights[t] for t in scored) > 0


def test_partial_human_baseline_does_not_pareto_dominate(sparse: cs.Leaderboard) -> None:
    summary = cs.majority_summary(sparse)
    dominated = summary.to_dict()["pareto_dominated"]  # dominated system -> its dominators
    assert dominated  # complete systems still dominate each other...
    assert not any("human baseline" in by for by in dominated.values())  # ...the partial baseline does not


# ---------------------------------------------------------------------- (7): output that scales
def test_glue_analyze_fits_on_two_screens() -> None:
    res = run_cli("analyze", str(GLUE), *GLUE_READ, "--quiet", "--time-limit", "60")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) <= 160  # 120 before the report opened with how the scores were read and wrapped at 200
    assert max(len(line) for line in lines) <= 200  # prose wraps, wide tables are split
    assert re.search(r"and \d+ more", res.stdout)
    full = run_cli("analyze", str(GLUE), *GLUE_READ, "--quiet", "--time-limit", "60", "--format", "json")
    doc = json.loads(full.stdout)
    assert len(json.dumps(doc)) > len(res.stdout)  # the JSON keeps everything


# ---------------------------------------------------------------------- (9): notebook display
def test_results_print_short(glue: cs.Leaderboard) -> None:
    for result in (cs.rank(glue, "borda", missing="impute"), cs.kemeny(glue, time_limit=60), glue):
        text = repr(result)
        assert len(text.splitlines()) <= 12 and len(text) < 1500
        html = result._repr_html_()
        assert "<table" in html and "\n(ensemble)" not in html


def test_every_error_is_a_consensus_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("model,qa\na,x\nb,y\n")
    with pytest.raises(ConsensusError):
        cs.read_leaderboard(path)


def test_every_report_names_a_low_coverage_winner() -> None:
    results = run_cli_many([
        ["kemeny", str(SPARSE), "--quiet", "--min-coverage", "0"],
        ["rank", str(SPARSE), "--rule", "copeland", "--quiet", "--min-coverage", "0"],
        ["compare", str(SPARSE), "--quiet", "--rules", "copeland,minimax", "--min-coverage", "0"],
        ["prospective", str(SPARSE), "--quiet", "--min-coverage", "0"],
        ["kemeny", str(SPARSE), "--quiet"],
    ])
    for res in results[:4]:  # ranked on request: each claim resting on a sparse system is a warning on stderr
        assert res.returncode == 0, res.stderr
        first = res.stderr.splitlines()[0]
        assert first.startswith("consensus: warning: rests on a low-coverage system:"), (res.args, first)
        assert "warning" not in res.stdout
    assert "Kemeny top" in results[0].stderr and "'tiny-1'" in results[0].stderr
    assert "winner of copeland" in results[1].stderr and "'human baseline'" in results[1].stderr
    default = results[4]
    assert default.returncode == 0 and "warning" not in default.stderr + default.stdout  # set aside by default
    assert "tiny-1" in default.stdout and "set aside, not ranked" in default.stdout  # ...and named in the notes


def test_glue_plots_through_the_cli(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    analysis_png, certificate_png = tmp_path / "analysis.png", tmp_path / "never.png"
    results = run_cli_many([
        ["analyze", str(GLUE), *GLUE_READ, "--quiet", "--plot", str(analysis_png)],
        ["prospective", str(GLUE), *GLUE_READ, "--quiet", "--system", "model-50", "--plot", str(certificate_png)],
    ])
    for res in results:
        assert res.returncode == 0, res.stderr
    assert "can never beat every rival" in results[1].stdout
    for path in (analysis_png, certificate_png):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image  # a matplotlib dependency

    width, height = Image.open(analysis_png).size
    assert width < 6000 and height < 6000  # sized for 100 systems, not a 6,000-pixel strip
