"""The ``consensus`` command line.

A representative set runs the INSTALLED command in a subprocess (every subcommand once, one bad
file with its exact error line and exit code, ``python -m consensus``); the bad files and the
bulk of option combinations call ``consensus.cli.main(argv)`` in-process, which is what the
console script runs (``tests/cli_runner.py``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.cli import main

from .cli_runner import installed, installed_many, run_cli_many


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def files(tmp_path: Path, votenrank_toy: cs.Leaderboard) -> dict[str, Path]:
    """Small leaderboard files, good and bad, in every input format."""
    f: dict[str, Path] = {}
    toy_scores = votenrank_toy.scores
    toy = toy_scores.rename_axis("model").to_csv(float_format="%g", lineterminator="\n")

    def write(name: str, text: str) -> None:
        f[name] = tmp_path / name
        f[name].write_text(text, encoding="utf-8")

    write("toy.csv", toy)
    write("toy.tsv", toy.replace(",", "\t"))
    write("semicolon.csv", toy.replace(",", ";"))
    write("empty.csv", "")
    write("nonnumeric.csv", "model,qa,nli\na,0.7,0.5\nb,oops,0.4\nc,0.5,0.6\n")
    write("export.csv", "rank,team,model,url,qa,nli,avg\n1,x,a,http://a,0.7,0.5,0.6\n2,y,b,http://b,0.6,0.4,0.5\n"
          "3,z,c,http://c,0.5,0.6,0.55\n")
    write("dup.csv", "model,qa,nli\nm,0.7,0.5\nb,0.6,0.4\nm,0.5,0.6\n")
    write("composite.csv", "model,glue,latency\na,93.9/91.8,30\nb,92.0/92.5,12\nc,90.1/93.0,18\n")
    write("missing.csv", "model,t1,t2,t3,t4\na,0.9,0.8,-,0.7\nb,0.6,,0.5,0.4\nc,0.5,0.6,0.7,\nd,0.1,0.2,0.3,0.35\n")
    long = toy_scores.stack().rename_axis(["sys", "task"]).rename("value")
    write("long.csv", long.to_csv(float_format="%g", lineterminator="\n"))
    rng = np.random.default_rng(0)
    rows = [f"s{i},t{t},{k},{rng.normal(i * 0.5):.4f}\n" for i in range(4) for t in range(3) for k in range(5)
            if not (i == 0 and t == 2)]
    write("instances.csv", "system,task,instance,score\n" + "".join(rows))
    write("weights.json", json.dumps({"t1": 3, "t2": 1}))
    write("weights.csv", "task,weight\nt1,3\nt2,1\n")
    write("groups.json", json.dumps({"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]}))
    frame = pd.read_csv(f["toy.csv"])
    f["toy.parquet"] = tmp_path / "toy.parquet"
    frame.to_parquet(f["toy.parquet"], index=False)
    f["toy.json"] = tmp_path / "toy.json"
    frame.to_json(f["toy.json"], orient="records")
    return f


# ====================================================================== the installed command
@pytest.mark.slow
def test_installed_analyze_without_file_checks_itself():
    proc = installed("analyze")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Condorcet winner: B" in out
    assert "ranking: B > C > D > A" in out
    assert "check scores:borda = A=6; B=9; C=8; D=7: ok" in out
    assert out.rstrip().endswith("checks: 11/11 ok")
    assert proc.stderr == ""


@pytest.mark.slow
def test_installed_subcommands(files):
    cases = [
        (["rank", "{toy.csv}", "--rule", "borda", "--format", "csv"], "position,tier,system,score\n1,1,B,9.0\n"),
        (["kemeny", "{toy.csv}", "--format", "csv"], "position,system\n1,B\n2,C\n3,D\n4,A\n"),
        (["compare", "{toy.csv}", "--format", "csv"], "rule,status,winner,"),
        (["prospective", "{toy.csv}", "--format", "json"], '"command": "prospective"'),
        (["impute", "{missing.csv}", "--format", "json"], '"command": "impute"'),
    ]
    argvs = [[str(files[a[1:-1]]) if a.startswith("{") else a for a in args] for args, _ in cases]
    for (args, expected), proc in zip(cases, installed_many(argvs)):
        assert proc.returncode == 0, (args, proc.stderr)
        assert proc.stdout.startswith(expected) or expected in proc.stdout, args


@pytest.mark.slow
def test_installed_bad_files_print_one_error_line(files, tmp_path):
    missing = tmp_path / "nope.csv"
    cases = [
        (["rank", str(missing), "--rule", "borda"], f"file not found: {str(missing)!r}"),
        (["kemeny", str(files["empty.csv"])], f"file {str(files['empty.csv'])!r} is empty"),
        (
            ["kemeny", str(files["semicolon.csv"])],
            f"file {str(files['semicolon.csv'])!r} has a single column with the csv delimiter; it looks "
            ";-separated: pass --sep ';'",
        ),
        (
            ["compare", str(files["nonnumeric.csv"])],
            "task 'qa' ",
        ),
        (["rank", str(files["toy.csv"]), "--rule", "borda", "--weights", "t1x=2"], "unknown task 't1x' in weights; "
         "did you mean 't1'?"),
    ]
    # the first through the installed command, the rest in-process (the same main function)
    procs = installed_many([cases[0][0]]) + run_cli_many([argv for argv, _ in cases[1:]])
    for (argv, message), proc in zip(cases, procs):
        assert (proc.returncode, proc.stdout) == (2, ""), argv
        if message.endswith(" "):  # a message whose wording belongs to the readers: its start and its flag
            assert proc.stderr.startswith(f"consensus: error: {message}") and proc.stderr.count("\n") == 1, argv
            assert "--exclude qa" in proc.stderr and "exclude=" not in proc.stderr
        else:
            assert proc.stderr == f"consensus: error: {message}\n", argv


@pytest.mark.slow
def test_python_dash_m_consensus_runs_the_same_command(files):
    proc = subprocess.run([sys.executable, "-m", "consensus", "rank", str(files["toy.csv"]), "--rule", "copeland",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["result"]["ranking"] == [["B"], ["C"], ["D"], ["A"]]


# ====================================================================== analyze (in-process)
def test_analyze_report_sections(capsys):
    code, out, err = run(capsys, "analyze", "--quiet")
    assert code == 0 and err == ""
    for heading in ("Summary", "Scores as read", "Majority graph", "Exact Kemeny ranking", "Rankings side by side",
                    "Each rule against the exact Kemeny ranking",
                    "Each rule against the mean and the task rankings (Colombo et al. 2022, appendix C)",
                    "Prospective systems", "Checks against published values"):
        assert heading in out
    assert "Condorcet loser: A" in out and "Smith set: {B}" in out


def test_analyze_formats(capsys):
    code, out, _ = run(capsys, "analyze", "--format", "json")
    doc = json.loads(out)
    assert code == 0
    assert doc["schema_version"] == 3 and doc["command"] == "analyze"
    assert doc["input"]["source"] == "example:votenrank-toy"
    result = doc["result"]
    assert result["majority"]["condorcet_winner"] == "B"
    assert result["kemeny"]["order"] == ["B", "C", "D", "A"] and result["kemeny"]["optimal"] is True
    assert result["rules"]["borda"]["scores"] == {"A": 6.0, "B": 9.0, "C": 8.0, "D": 7.0}
    assert result["comparison"]["rank_changes"]["plurality"]["A"] == 3
    assert all(c["ok"] for c in result["checks"]) and len(result["checks"]) == 11
    assert {row["rule"] for row in result["comparison"]["rows"]} >= {"mean", "borda", "kemeny"}

    code, out, _ = run(capsys, "analyze", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rule"] for r in rows][-1] == "kemeny"
    assert next(r for r in rows if r["rule"] == "borda")["gap"] == "0.0"

    code, out, _ = run(capsys, "analyze", "--format", "markdown")
    assert out.startswith("# consensus analyze: example:votenrank-toy")
    assert "| # | mean | geometric\\_mean | borda |" in out  # markdown specials escaped
    assert "- checks: 11/11 ok" in out


def test_analyze_examples_and_synthetic(capsys):
    code, out, _ = run(capsys, "analyze", "--list-examples")
    assert code == 0 and out.split()[0] == "votenrank-toy" and "colombo-table1" in out and "gumbel" in out
    code, out, _ = run(capsys, "analyze", "--example", "colombo-table1", "--quiet")
    assert code == 0 and "check ranking:borda = C > B > A: ok" in out and "checks: 5/5 ok" in out
    code, out, _ = run(capsys, "analyze", "--n", "6", "--tasks", "4", "--phi", "1", "--seed", "2", "--format", "json",
                       "--no-prospective")
    doc = json.loads(out)
    assert code == 0
    assert doc["input"]["source"] == "example:gumbel(n_systems=6, n_tasks=4, phi=1.0, seed=2)"
    assert len(doc["input"]["systems"]) == 6 and len(doc["input"]["tasks"]) == 4
    assert doc["result"]["checks"] == [] and doc["result"]["prospective"] is None


def test_analyze_failed_self_check_exits_1(capsys, monkeypatch):
    import consensus.comparison._analysis as analysis

    real = analysis.published_values
    monkeypatch.setattr(analysis, "published_values", lambda name: [
        dict(row, value="A=6; B=9; C=8; D=8") if row["quantity"] == "scores:borda" else row for row in real(name)
    ])
    code, out, _ = run(capsys, "analyze", "--quiet")
    assert code == 1
    assert "check scores:borda = A=6; B=9; C=8; D=7: MISMATCH, expected A=6; B=9; C=8; D=8" in out
    assert "checks: 10/11 ok" in out


def test_analyze_a_file_with_missing_scores_and_options(files, capsys):
    code, out, err = run(capsys, "analyze", str(files["missing.csv"]), "--no-prospective")
    assert code == 0, err
    assert "missing scores: 3 (a/t3, b/t2, c/t4)" in out
    assert "not run" not in out  # every rule runs, under a stated policy (--missing auto)
    assert "missing-score policies: median: mean, geometric_mean; impute: borda" in out
    assert "pairwise: copeland, minimax, kemeny" in out
    code, out, err = run(capsys, "analyze", str(files["missing.csv"]), "--no-prospective", "--missing", "pairwise")
    assert code == 0, err
    assert "not run: mean: MissingScoreError" in out  # a score rule cannot compare pairs
    assert "no rank changes: the mean ranking could not be computed" in out


# ====================================================================== the other subcommands, every format
@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_rank_every_format(files, capsys, fmt):
    code, out, _ = run(capsys, "rank", str(files["toy.csv"]), "--rule", "borda", "--format", fmt)
    assert code == 0
    if fmt == "json":
        doc = json.loads(out)
        assert doc["command"] == "rank" and doc["result"]["winners"] == ["B"]
        assert doc["input"]["scores"]["A"] == {"t1": 4.0, "t2": 4.0, "t3": 1.0, "t4": 1.0, "t5": 1.0}
    elif fmt == "csv":
        assert out.splitlines()[:2] == ["position,tier,system,score", "1,1,B,9.0"]
    elif fmt == "markdown":
        assert "## Rule: borda" in out and "| 1 | B | 9 |" in out
    else:
        assert "ranking: B > C > D > A" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_kemeny_every_format(files, capsys, fmt):
    code, out, _ = run(capsys, "kemeny", str(files["toy.csv"]), "--time-limit", "30", "--format", fmt)
    assert code == 0
    if fmt == "json":
        result = json.loads(out)["result"]
        assert result["order"] == ["B", "C", "D", "A"] and result["objective"] == 12.0
        assert result["ranking"] == [["B"], ["C"], ["D"], ["A"]]
        assert result["status"] == "optimal" and result["optimal"] is True
    elif fmt == "csv":
        assert out == "position,system\n1,B\n2,C\n3,D\n4,A\n"
    else:
        assert "B > C > D > A" in out and "objective: 12" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_compare_every_format(files, capsys, fmt):
    code, out, _ = run(capsys, "compare", str(files["toy.csv"]), "--rules", "mean,borda,plurality", "--k", "1,2",
                       "--format", fmt)
    assert code == 0
    if fmt == "json":
        result = json.loads(out)["result"]
        rows = {r["rule"]: r for r in result["rows"]}
        assert list(rows) == ["mean", "borda", "plurality", "kemeny"]
        assert rows["plurality"]["objective"] == 16.5 and rows["plurality"]["top1"] == 0.0
        assert result["ks"] == [1, 2] and result["rankings"]["plurality"] == [["A"], ["B", "C", "D"]]
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [r["rule"] for r in rows] == ["mean", "borda", "plurality", "kemeny"]
        assert "top2" in rows[0] and "least2" in rows[0]
    else:
        assert "plurality" in out and "16.5" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_prospective_every_format(files, capsys, fmt):
    code, out, _ = run(capsys, "prospective", str(files["toy.csv"]), "--format", fmt)
    assert code == 0
    if fmt == "json":
        systems = json.loads(out)["result"]["systems"]
        assert {row["system"] for row in systems} == {"A", "B", "C", "D"}
    elif fmt == "csv":
        assert out.startswith("system,")
    else:
        assert "Prospective systems" in out


def test_prospective_one_system(files, capsys):
    code, out, _ = run(capsys, "prospective", str(files["toy.csv"]), "--system", "A", "--format", "json")
    result = json.loads(out)["result"]
    assert code == 0 and result["system"] == "A"
    assert result["feasible"] is True  # A wins t1 and t2: weight them
    assert sum(result["weights"].values()) == pytest.approx(1.0)
    code, out, _ = run(capsys, "prospective", str(files["toy.csv"]), "--system", "A", "--nearest", "--max-weight",
                       "0.6")
    assert code == 0 and "Condorcet weights for A" in out
    code, _, err = run(capsys, "prospective", str(files["toy.csv"]), "--nearest")
    assert code == 2 and err.startswith("consensus: error: --nearest needs --system")
    code, _, err = run(capsys, "prospective", str(files["toy.csv"]), "--system", "Z")
    assert code == 2 and "unknown system 'Z'" in err


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "csv"])
def test_impute_every_format(files, capsys, fmt):
    code, out, _ = run(capsys, "impute", str(files["missing.csv"]), "--delta", "0.2", "--format", fmt)
    assert code == 0
    if fmt == "json":
        result = json.loads(out)["result"]
        assert result["imputation"]["systems"] == ["a", "b", "c", "d"]
        assert result["confidence"]["delta"] == 0.2 and len(result["confidence"]["pairs"]) == 6
    elif fmt == "csv":
        assert out.splitlines()[0] == "system,other,estimate,half_width,comparisons,confident_winner"
        assert len(out.splitlines()) == 7
    else:
        assert "Imputed pairwise matrix" in out and "Pairwise confidence" in out


def test_impute_instance_level_file(files, capsys):
    code, out, err = run(capsys, "impute", str(files["instances.csv"]), "--instances", "system,task,instance,score",
                         "--levels", "2", "--format", "json")
    assert code == 0, err
    result = json.loads(out)["result"]
    assert result["imputation"]["levels"] == 2 and result["imputation"]["systems"] == ["s0", "s1", "s2", "s3"]
    code, out, err = run(capsys, "kemeny", str(files["instances.csv"]), "--instances", "system,task,instance,score",
                         "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[1] == "1,s3"


# ====================================================================== reading options
def test_input_formats_agree(files, capsys):
    outputs = set()
    for name, extra in [("toy.csv", []), ("toy.tsv", []), ("toy.parquet", []), ("toy.json", []),
                        ("semicolon.csv", ["--sep", ";"]), ("long.csv", ["--long", "sys,task,value"])]:
        code, out, err = run(capsys, "rank", str(files[name]), "--rule", "borda", "--format", "csv", *extra)
        assert code == 0, (name, err)
        outputs.add(out)
    assert len(outputs) == 1


def test_export_columns_need_exclude(files, capsys):
    code, _, err = run(capsys, "rank", str(files["export.csv"]), "--rule", "borda")
    assert code == 2  # the first column ("rank") holds numbers: the names are in "model"
    assert err.startswith("consensus: error: ") and err.count("\n") == 1
    assert "--index-col model" in err and "index_col=" not in err
    code, _, err = run(capsys, "rank", str(files["export.csv"]), "--rule", "borda", "--index-col", "model",
                       "--exclude", "rank,team", "--no-infer")
    assert code == 2  # read as given, the URL column is an error
    assert err.strip().endswith("pass --exclude url if it is not a task")
    assert err.count("--exclude url") == 1  # the hint once
    assert err.count("\n") == 1
    code, out, err = run(capsys, "rank", str(files["export.csv"]), "--rule", "borda", "--index-col", "model",
                         "--format", "json")
    assert code == 0, err  # by default: rank by name, team and url by type, avg by value are not tasks
    assert json.loads(out)["input"]["tasks"] == ["qa", "nli"]
    # four columns with their reasons pass 200 characters: the note names them by role, aggregates first
    assert "excluded column(s), not tasks: 'avg' (aggregate), 'rank' (rank), 'team' (not a score), ... and 1 more" in err
    assert "--keep-columns COL,..." in err and max(len(line) for line in err.splitlines()) <= 200
    code, out, err = run(capsys, "rank", str(files["export.csv"]), "--rule", "borda", "--index-col", "model",
                         "--exclude", "rank,team,url", "--exclude", "avg", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["input"]["tasks"] == ["qa", "nli"]
    code, out, err = run(capsys, "rank", str(files["export.csv"]), "--rule", "borda", "--index-col", "model",
                         "--tasks", "qa", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["input"]["tasks"] == ["qa"]


def test_duplicate_systems_error_unless_dedupe(files, capsys):
    code, _, err = run(capsys, "rank", str(files["dup.csv"]), "--rule", "borda")
    assert code == 2 and err.startswith("consensus: error: duplicate system name(s): 'm'") and err.count("\n") == 1
    assert "--dedupe" in err and "dedupe=" not in err
    code, out, err = run(capsys, "rank", str(files["dup.csv"]), "--rule", "borda", "--dedupe", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["input"]["systems"] == ["m_1", "b", "m_2"]
    assert doc["input"]["notes"] == ["--dedupe renamed duplicate system(s) in file order: m -> m_1, m_2"]
    assert err == "consensus: note: --dedupe renamed duplicate system(s) in file order: m -> m_1, m_2\n"
    code, _, err = run(capsys, "rank", str(files["dup.csv"]), "--rule", "borda", "--dedupe", "--quiet")
    assert code == 0 and err == ""


def test_composite_cells_and_directions(files, capsys):
    code, _, err = run(capsys, "rank", str(files["composite.csv"]), "--rule", "borda")
    assert code == 2 and "composite cell(s)" in err and "--split-composite" in err
    code, out, err = run(capsys, "rank", str(files["composite.csv"]), "--rule", "borda", "--split-composite",
                         "--lower-is-better", "latency", "--format", "json")
    assert code == 0, err
    inp = json.loads(out)["input"]
    assert inp["tasks"] == ["glue[1]", "glue[2]", "latency"]
    assert inp["lower_is_better"] == ["latency"]
    assert inp["weights"] == {"glue[1]": 0.5, "glue[2]": 0.5, "latency": 1.0}
    assert inp["notes"] == ["split composite task 'glue' into 'glue[1]', 'glue[2]'"]


def test_weights_and_groups_syntaxes(files, capsys):
    base = ["rank", str(files["toy.csv"]), "--rule", "borda", "--format", "json"]
    expected = {"t1": 3.0, "t2": 1.0, "t3": 1.0, "t4": 1.0, "t5": 1.0}
    for spec in ("t1=3,t2=1", str(files["weights.json"]), str(files["weights.csv"])):
        code, out, err = run(capsys, *base, "--weights", spec)
        assert code == 0, err
        assert json.loads(out)["input"]["weights"] == expected
    for spec in ("g1=t1,t2;g2=t3,t4,t5", str(files["groups.json"])):
        code, out, err = run(capsys, *base, "--groups", spec)
        assert code == 0, err
        assert json.loads(out)["input"]["groups"] == {"g1": ["t1", "t2"], "g2": ["t3", "t4", "t5"]}


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--weights", "t1"], "--weights: 't1' is neither task=weight,... nor an existing file"),
        (["--weights", "t1=x"], "--weights t1: 'x' is not a number"),
        (["--weights", "t1=-1"], "weight of task 't1' is negative: -1.0; weights must be >= 0"),
        (["--groups", "g1"], "--groups: 'g1' is neither group=task,...;... nor an existing JSON file"),
        (["--groups", "g1=t1;g2=t1"], "task 't1' is in two groups: 'g1' and 'g2'"),
        (["--lower-is-better", "t1x"], "unknown task 't1x' in --lower-is-better; did you mean 't1'?"),
        (["--long", "a,b"], "--long: expected 3 comma-separated column names (system,task,score), got 'a,b'"),
        (["--index-col", "nope"], "unknown task 'nope' in --index-col; known tasks: 'model', 't1', 't2', 't3', "
                                  "'t4', 't5'"),
        (["--option", "variant"], "--option: expected KEY=VALUE, got 'variant'"),
        (["--rule", "bordda"], "unknown rule 'bordda'; did you mean 'borda'?"),
        (["--format", "xml"], "argument --format: invalid choice: 'xml'"),  # argparse's wording varies
    ],
)
def test_bad_options_print_one_line(files, capsys, extra, message):
    code, out, err = run(capsys, "rank", str(files["toy.csv"]), "--rule", "borda", *extra)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"consensus: error: {message}")


def test_usage_errors(capsys, files):
    code, _, err = run(capsys)
    assert code == 2 and err.startswith("consensus: error: the following arguments are required: COMMAND")
    code, _, err = run(capsys, "kemeny", str(files["toy.csv"]), "--time-limit", "-1")
    assert code == 2 and err == ("consensus: error: argument --time-limit: must be a positive number, got '-1' "
                                 "(see 'consensus kemeny --help')\n")
    code, _, err = run(capsys, "analyze", str(files["toy.csv"]), "--example", "gumbel")
    assert code == 2 and err == "consensus: error: give either FILE or --example/--n/--phi/--seed, not both\n"
    code, _, err = run(capsys, "analyze", "--example", "nope")
    assert code == 2 and err.startswith("consensus: error: unknown example 'nope'")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "analyze" in out and "prospective" in out


# ====================================================================== output options
@pytest.mark.slow
def test_output_and_plot_files(files, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    report = tmp_path / "out" / "report.md"
    report.parent.mkdir()
    plot = tmp_path / "out" / "graph.png"
    code, out, err = run(capsys, "analyze", "--format", "markdown", "--output", str(report), "--plot", str(plot))
    assert code == 0, err
    assert out == ""
    assert report.read_text(encoding="utf-8").startswith("# consensus analyze")
    assert plot.read_bytes()[:4] == b"\x89PNG" and plot.stat().st_size > 10_000
    for argv in (["kemeny", str(files["toy.csv"])], ["compare", str(files["toy.csv"])],
                 ["rank", str(files["toy.csv"]), "--rule", "borda"], ["impute", str(files["missing.csv"])],
                 ["prospective", str(files["toy.csv"])], ["prospective", str(files["toy.csv"]), "--system", "C"]):
        target = tmp_path / f"{argv[0]}.png"
        code, _, err = run(capsys, *argv, "--plot", str(target), "--quiet")
        assert code == 0, (argv, err)
        assert target.stat().st_size > 5_000, argv
    code, _, err = run(capsys, "kemeny", str(files["toy.csv"]), "--output", str(tmp_path / "no" / "dir" / "x.txt"))
    assert code == 2 and err.startswith("consensus: error: cannot write --output")


def test_progress_indicator_is_fed_by_the_solver_and_silenced_by_quiet(capsys):
    from consensus.cli.args import Progress

    progress = Progress("Kemeny consensus", delay=0.0, every=0.0)
    progress({"objective": 12.0, "lower_bound": 10.0})
    progress.close()
    err = capsys.readouterr().err
    assert "consensus: Kemeny consensus: 0 s" in err and "objective 12, lower bound 10" in err


@pytest.mark.slow
def test_long_solves_show_progress_on_stderr_unless_quiet(tmp_path, capsys):
    # pure noise at 150 systems: far from solved in 1.5 s on any machine (60 systems now can be)
    lb = cs.datasets.gumbel_leaderboard(150, 30, phi=0.0, seed=0)
    path = tmp_path / "noise.csv"
    lb.scores.to_csv(path)
    code, out, err = run(capsys, "kemeny", str(path), "--time-limit", "4", "--format", "json")
    assert code == 0
    assert json.loads(out)["result"]["status"] == "time_limit"
    assert re.match(r"consensus: Kemeny consensus: \d+ s, stage \w+, .*incumbent [\d.]+, bound [\d.]+", err)
    code, out, err = run(capsys, "kemeny", str(path), "--time-limit", "1.5", "--quiet", "--format", "csv")
    assert code == 0 and err == ""


def test_task_level_commands_on_instance_files_use_task_means(files, capsys):
    code, out, err = run(capsys, "rank", str(files["instances.csv"]), "--instances", "system,task,instance,score",
                         "--rule", "copeland", "--format", "json")
    assert code == 0
    assert err == ("consensus: note: instance-level scores averaged per task (InstanceScores.to_leaderboard) "
                   "for this command\n")
    doc = json.loads(out)
    assert doc["input"]["tasks"] == ["t0", "t1", "t2"] and doc["input"]["missing"] == [["s0", "t2"]]
    code, _, err = run(capsys, "rank", str(files["instances.csv"]), "--instances", "system,task,instance,score",
                       "--rule", "borda", "--dedupe")
    assert code == 2 and err.startswith("consensus: error: --instances files take --lower-is-better, --weights")


# ====================================================================== issue 10: missing scores, coverage, --top
def test_missing_choices_and_defaults_per_command():
    from consensus.cli import build_parser

    parser = build_parser()
    defaults = {"analyze": "auto", "compare": "auto", "rank": None, "kemeny": "pairwise", "prospective": "pairwise",
                "sensitivity": "pairwise"}
    for command, default in defaults.items():
        argv = [command] + (["f.csv"] if command != "analyze" else []) + (["--rule", "borda"] if command == "rank" else [])
        args = parser.parse_args(argv)
        assert args.missing == default and args.min_coverage is None and args.top == 10, command
    assert parser.parse_args(["analyze", "--missing", "median", "--top", "0", "--min-coverage", "0.5",
                              "--all-tasks"]).all_tasks is True
    assert parser.parse_args(["kemeny", "f.csv", "--missing", "impute"]).missing == "impute"
    assert parser.parse_args(["prospective", "f.csv", "--missing", "impute"]).missing == "impute"  # positional rules
    for bad in (["rank", "f.csv", "--rule", "borda", "--missing", "auto"], ["prospective", "f.csv", "--missing", "auto"],
                ["compare", "f.csv", "--min-coverage", "1.5"], ["analyze", "--top", "-1"], ["kemeny", "f.csv", "--all-tasks"]):
        with pytest.raises(Exception):
            parser.parse_args(bad)


def test_every_ranking_command_takes_missing_and_min_coverage(files, capsys, tmp_path):
    path = str(files["missing.csv"])  # a: t3 missing, b: t2 missing, c: t4 missing
    code, out, err = run(capsys, "rank", path, "--rule", "borda", "--missing", "median", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["result"]["preparation"]["missing"] == "median"
    code, out, err = run(capsys, "rank", path, "--rule", "borda")
    assert code == 2 and "--missing" in err and "missing=" not in err  # the hint names the flag
    code, out, err = run(capsys, "compare", path, "--missing", "median", "--format", "json")
    assert code == 0, err
    policies = json.loads(out)["result"]["preparations"]
    assert policies["borda"]["missing"] == "median" and policies["mean"]["missing"] == "median"
    code, out, err = run(capsys, "kemeny", path, "--missing", "drop_tasks", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["result"]["order"] == ["a", "b", "c", "d"]  # t1 alone
    sparse = tmp_path / "sparse.csv"
    sparse.write_text("model,t1,t2,t3,t4\na,0.9,0.8,0.7,0.6\nb,0.5,0.6,0.75,0.8\nc,0.3,0.2,0.4,0.1\nx,1.0,,,\n")
    code, out, err = run(capsys, "kemeny", str(sparse), "--min-coverage", "0.5", "--format", "json")
    assert code == 0, err
    assert sorted(json.loads(out)["result"]["order"]) == ["a", "b", "c"]  # x is scored on 1 task of 4
    code, out, err = run(capsys, "prospective", path, "--all-tasks", "--missing", "median", "--format", "json")
    assert code == 0, err
    code, out, err = run(capsys, "prospective", path, "--system", "a", "--min-coverage", "0.5", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["result"]["system"] == "a"


def test_analyze_states_each_rules_policy_and_caps_tables(files, capsys, tmp_path):
    path = str(files["missing.csv"])
    code, out, err = run(capsys, "analyze", path, "--quiet", "--top", "2")
    assert code == 0, err
    assert "missing-score policies: " in out and "... and 2 more systems" in out
    code, full, err = run(capsys, "analyze", path, "--quiet", "--top", "0")
    assert code == 0 and "more systems" not in full
    sparse = tmp_path / "sparse.csv"
    sparse.write_text("model,t1,t2,t3,t4\na,0.9,0.8,0.7,0.6\nb,0.5,0.6,0.75,0.8\nc,0.3,0.2,0.4,0.1\nx,1.0,,,\n")
    code, out, err = run(capsys, "analyze", str(sparse), "--quiet", "--no-prospective")
    assert code == 0, err  # 'x' (1 of 4 tasks) is set aside by default, said in the summary and the notes
    summary = out.split("Scores as read")[0]
    assert "set aside, not ranked: 1 system(s)" in summary and "--min-coverage 0 ranks them" in summary
    assert "'x' (1/4 tasks, 25% of the weight" in out and "min_coverage=" not in out
    code, out, err = run(capsys, "analyze", str(sparse), "--quiet", "--no-prospective", "--min-coverage", "0")
    assert code == 0, err  # ranked on request, and flagged
    assert "warning: " in out and "'x'" in out.split("warning: ", 1)[1]
    code, out, err = run(capsys, "analyze", str(sparse), "--quiet", "--min-coverage", "0.5", "--format", "json")
    assert code == 0, err
    assert sorted(json.loads(out)["result"]["kemeny"]["order"]) == ["a", "b", "c"]
    code, out, err = run(capsys, "analyze", path, "--quiet", "--missing", "drop_tasks", "--no-prospective")
    assert code == 0, err
    assert "drop_tasks" in out


def test_keep_columns_keeps_a_bookkeeping_column(files, capsys):
    base = ["rank", str(files["export.csv"]), "--rule", "borda", "--index-col", "model", "--exclude", "rank,team,url",
            "--format", "json"]
    code, out, err = run(capsys, *base, "--keep-columns", "avg")
    assert code == 0, err
    assert json.loads(out)["input"]["tasks"] == ["qa", "nli", "avg"]
    code, out, err = run(capsys, *base, "--keep-columns", "all")
    assert code == 0, err
    assert "avg" in json.loads(out)["input"]["tasks"]
    code, _, err = run(capsys, "analyze", "--keep-columns", "avg")
    assert code == 2 and "apply to files" in err


def test_cli_error_uses_the_flag_wording(capsys, monkeypatch):
    import consensus.cli.commands as commands
    from consensus.errors import ConsensusError
    from consensus.hints import hinted, option

    def boom(*args, **kwargs):
        raise ConsensusError(hinted("2 systems have no score; pass {}", option("drop_empty", True)))

    monkeypatch.setattr(commands, "load", boom)
    code, _, err = run(capsys, "kemeny", "x.csv")
    assert code == 2 and err == "consensus: error: 2 systems have no score; pass --drop-empty\n"
