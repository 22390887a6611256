"""Reports: majority summary, rule comparison, analyze, self-checks and rendering in every format."""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.comparison._analysis import example_checks, published_values
from consensus.errors import InvalidOptionError
from consensus.majority._relation import majority_summary
from consensus.report import FORMATS, render


@pytest.fixture(scope="module")
def toy_analysis():
    return cs.analyze(cs.load_example("votenrank-toy"), example="votenrank-toy")


@pytest.fixture
def missing_table():
    frame = pd.DataFrame(
        {"t1": [0.9, 0.6, 0.5, 0.1], "t2": [0.8, np.nan, 0.6, 0.2], "t3": [np.nan, 0.5, 0.7, 0.3]},
        index=["a", "b", "c", "d"],
    )
    return cs.Leaderboard.from_frame(frame)


# ---------------------------------------------------------------- majority summary
def test_majority_summary_of_the_toy(votenrank_toy):
    s = majority_summary(votenrank_toy)
    assert (s.condorcet_winner, s.condorcet_loser, s.smith_set, s.cycle) == ("B", "A", ("B",), None)
    assert [(w, l) for w, l, *_ in s.edges] == [("B", "A"), ("B", "C"), ("B", "D"), ("C", "A"), ("C", "D"), ("D", "A")]
    assert s.ties == () and dict(s.pareto_dominated) == {}
    assert s.to_dict()["edges"][0] == {"winner": "B", "loser": "A", "wins": 3.0, "losses": 2.0, "ties": 0.0, "margin": 1.0}


def test_majority_summary_with_a_cycle_and_ties(cycle3, colombo_table1):
    s = majority_summary(cycle3)
    assert s.condorcet_winner is None and s.smith_set == ("sys-a", "sys-b", "sys-c")
    assert s.cycle is not None and sorted(s.cycle) == ["sys-a", "sys-b", "sys-c"]
    text = render(s)
    assert "Condorcet winner: none (majority cycle " in text
    s = majority_summary(colombo_table1)
    assert s.ties == (("A", "C"),) and s.weak_condorcet_winners == ("C",) and s.cycle is None
    assert "majority ties (1): A = C" in render(s)
    assert "weak Condorcet winner(s) C" in render(s)


def test_majority_summary_lists_pareto_dominated_systems(dominant_a):
    s = majority_summary(dominant_a)
    assert dict(s.pareto_dominated) == {"b": ("a",), "c": ("a",)}
    assert "Pareto-dominated (2 systems): b (by a); c (by a)" in render(s)


# ---------------------------------------------------------------- the comparison table
def test_compare_the_toy_against_kemeny(votenrank_toy):
    table = cs.compare(votenrank_toy, rules=["mean", "borda", "plurality", "dowdall", "minimax", "threshold"])
    assert list(table.index) == ["mean", "borda", "plurality", "dowdall", "minimax", "threshold", "kemeny"]
    borda, plurality, kemeny = table.loc["borda"], table.loc["plurality"], table.loc["kemeny"]
    assert (kemeny["status"], kemeny["objective"], kemeny["gap"], kemeny["gap_ratio"]) == ("reference", 12.0, 0.0, 1.0)
    assert (borda["kendall_tau"], borda["kendall_distance"], borda["gap"]) == (1.0, 0.0, 0.0)
    # plurality: A first, B = C = D tied (published scores 2, 1, 1, 1)
    assert plurality["winner"] == "A" and plurality["tie_groups"] == 2
    assert plurality["objective"] == pytest.approx(cs.comparison.ranking_objective(votenrank_toy, ["A", ("B", "C", "D")]))
    assert plurality["gap"] == pytest.approx(plurality["objective"] - 12.0)
    assert plurality["gap_ratio"] == pytest.approx(plurality["objective"] / 12.0)
    assert bool(plurality["condorcet_winner"]) is False and bool(borda["condorcet_winner"]) is True
    assert table.loc["dowdall", "winner"] == "A = B"  # the published Dowdall tie
    assert table.loc["threshold", "winner"] == "C"
    assert plurality["top1"] == 0.0 and math.isnan(plurality["top5"])  # k > 4 systems
    assert plurality["least1"] == 0.0  # Kemeny's last is A, plurality's first
    assert table.loc["mean", "mean_tau"] == 1.0


def test_compare_rows_explain_rules_that_cannot_run(colombo_table1, missing_table):
    comp = cs.compare_rules(missing_table, rules=["mean", "borda", "copeland"], missing="pairwise")
    assert comp.table.loc["mean", "status"] == "failed" and "MissingScoreError" in comp.errors["mean"]
    assert "('b', 't2')" in comp.errors["borda"]  # names the missing cell
    assert comp.table.loc["copeland", "status"] == "ok"  # majority rules compare pairs on common tasks
    assert math.isnan(comp.table.loc["copeland", "mean_tau"])
    with pytest.raises(InvalidOptionError, match=r"no ranking for baseline 'mean': MissingScoreError"):
        comp.rank_changes()
    assert comp.rank_changes("copeland").loc["a", "kemeny"] == 0


def test_comparison_rankings_and_rank_changes(votenrank_toy):
    comp = cs.compare_rules(votenrank_toy, rules=["mean", "plurality"])
    assert comp.rankings["plurality"] == (("A",), ("B", "C", "D"))
    assert comp.positions().to_dict("index")["A"] == {"mean": 4, "plurality": 1, "kemeny": 4}
    changes = comp.rank_changes()
    assert changes["plurality"].to_dict() == {"B": -1, "C": 0, "D": 1, "A": 3}
    assert comp.dispersion == pytest.approx(2.88)
    assert comp.table.loc["kemeny", "mean_task_distance"] == pytest.approx(12 / 5)
    doc = comp.to_dict()
    json.dumps(doc)  # plain JSON
    assert doc["kemeny"]["ranking"] == [["B"], ["C"], ["D"], ["A"]]


def test_compare_reuses_a_given_kemeny_result(votenrank_toy, monkeypatch):
    result = cs.kemeny(votenrank_toy)
    compare_module = importlib.import_module("consensus.comparison._compare")  # the name compare_rules calls
    monkeypatch.setattr(compare_module, "kemeny", lambda *a, **k: pytest.fail("re-solved"))
    comp = cs.compare_rules(votenrank_toy, rules=["borda"], kemeny_result=result)
    assert comp.kemeny is result


def test_compare_options_are_checked(votenrank_toy):
    with pytest.raises(InvalidOptionError, match="every k must be >= 1"):
        cs.compare(votenrank_toy, rules=["borda"], ks=(0,))
    with pytest.raises(InvalidOptionError, match="rule_options names rule"):
        cs.compare(votenrank_toy, rules=["borda"], rule_options={"copeland": {}})
    with pytest.raises(InvalidOptionError, match="needs a Leaderboard"):
        cs.compare(cs.pairwise(votenrank_toy))


# ---------------------------------------------------------------- analyze and its self-checks
def test_analyze_the_toy_checks_itself(toy_analysis):
    a = toy_analysis
    assert a.source == "example:votenrank-toy"
    assert a.kemeny.order == ("B", "C", "D", "A")
    assert a.checks_ok and len(a.checks) == len(published_values("votenrank-toy")) == 11
    assert {c.name for c in a.checks} >= {"condorcet_winner", "scores:borda", "kemeny_ranking"}
    assert a.prospective is not None and set(a.prospective.systems) == {"A", "B", "C", "D"}


def test_checks_catch_a_wrong_answer(votenrank_toy):
    comp = cs.compare_rules(votenrank_toy, rules=["borda"])
    wrong = SimpleNamespace(ranking=("A", "B", "C", "D"), objective=14.0, status="optimal")
    bad = cs.compare_rules(votenrank_toy, rules=["borda"], kemeny_result=wrong)
    checks = {c.name: c for c in example_checks("votenrank-toy", comparison=bad)}
    assert not checks["kemeny_ranking"].ok and checks["kemeny_ranking"].actual == "A > B > C > D"
    assert not checks["kemeny_objective"].ok
    assert checks["scores:borda"].ok
    assert "rule not compared" in checks["scores:plurality"].actual and not checks["scores:plurality"].ok
    good = {c.name: c.ok for c in example_checks("votenrank-toy", comparison=comp)}
    assert good["kemeny_ranking"] and good["condorcet_winner"]


def test_analysis_renders_without_re_solving(toy_analysis, monkeypatch):
    for name, function in (("consensus.comparison._compare", "kemeny"), ("consensus.comparison._analysis", "prospective_systems")):
        monkeypatch.setattr(importlib.import_module(name), function, lambda *a, **k: pytest.fail("re-solved"))
    for fmt in FORMATS:
        assert render(toy_analysis, format=fmt)


def test_analysis_text_report(toy_analysis):
    text = render(toy_analysis)
    lines = text.splitlines()
    assert lines[0] == "consensus analyze: example:votenrank-toy"
    assert "better:  higher  higher  higher  higher  higher" in text
    assert "ranking: B > C > D > A" in text
    assert lines[-1] == "checks: 11/11 ok"
    side = text[text.index("Rankings side by side"):]
    row2 = next(line for line in side.splitlines() if line.startswith("2 "))
    assert row2.split()[:2] == ["2", "C"] and "B (-1)" in row2  # plurality moves B down one place


def test_analysis_json_document(toy_analysis):
    doc = json.loads(render(toy_analysis, format="json"))
    assert set(doc) == {"schema_version", "command", "input", "result"}
    assert set(doc["result"]) >= {"source", "majority", "kemeny", "rules", "comparison", "prospective", "checks",
                                  "notes"}
    assert set(doc["input"]) == {"source", "systems", "tasks", "lower_is_better", "weights", "groups", "scores",
                                 "missing", "notes", "reading"}
    assert doc["result"] == json.loads(json.dumps(toy_analysis.to_dict()))
    kem = doc["result"]["kemeny"]
    assert kem == json.loads(json.dumps(toy_analysis.kemeny.to_dict()))  # one schema: the result's to_dict()
    assert {"ranking", "objective", "lower_bound", "gap", "status", "optimal", "unique", "method", "seconds"} <= set(kem)


def test_analysis_with_missing_scores_and_no_prospective(missing_table):
    a = cs.analyze(missing_table, source="x.csv", prospective=False)
    text = render(a)
    assert "missing scores: 2 (a/t3, b/t2)" in text
    assert "not run" not in text and "missing-score policies: median: mean" in text  # every rule runs
    assert "coverage: 67% to 100% of the task weight per system" in text
    a = cs.analyze(missing_table, source="x.csv", prospective=False, missing="pairwise")
    text = render(a)
    assert "not run: mean: MissingScoreError" in text
    assert "no rank changes: the mean ranking could not be computed" in text
    assert "Prospective systems" not in text
    doc = json.loads(render(a, format="json"))
    assert doc["input"]["missing"] == [["a", "t3"], ["b", "t2"]]
    assert doc["result"]["comparison"]["rank_changes"] is None


# ---------------------------------------------------------------- every renderer, every format
def test_render_dispatches_on_the_result_type(votenrank_toy):
    rule = cs.rank(votenrank_toy, "borda")
    kem = cs.kemeny(votenrank_toy)
    comp = cs.compare_rules(votenrank_toy, rules=["borda"], kemeny_result=kem)
    weights = cs.condorcet_weights(votenrank_toy, "A")
    answer = cs.prospective(votenrank_toy)
    imputed = cs.impute_pairwise(votenrank_toy)
    for obj, command in [(rule, "rank"), (kem, "kemeny"), (comp, "compare"), (weights, "prospective"),
                         (answer, "prospective"), (imputed, "impute")]:
        for fmt in FORMATS:
            text = render(obj, format=fmt, table=votenrank_toy, source="toy.csv")
            assert text.endswith("\n") and len(text) > 20
            if fmt == "json":
                doc = json.loads(text)
                assert doc["command"] == command and doc["input"]["source"] == "toy.csv"
            if fmt == "csv":
                assert len(list(csv.reader(io.StringIO(text)))) >= 2
    with pytest.raises(InvalidOptionError, match="unknown format 'xml'"):
        render(rule, format="xml")
    with pytest.raises(InvalidOptionError, match="cannot render a int"):
        render(3)


def test_rule_and_kemeny_renderings(votenrank_toy):
    rule = cs.rank(votenrank_toy, "plurality")
    text = render(rule)
    assert "ranking: A > B = C = D" in text
    assert [line.split() for line in text.splitlines()[-4:]] == [["1", "A", "2"], ["2=", "B", "1"], ["2=", "C", "1"],
                                                                 ["2=", "D", "1"]]
    assert render(rule, format="csv").splitlines()[1:3] == ["1,1,A,2.0", "2,2,B,1.0"]
    md = render(rule, format="markdown")
    assert "| position | system | score |" in md and "|---:|:---|---:|" in md
    kem = cs.kemeny(votenrank_toy)
    text = render(kem)
    assert "objective: 12" in text and "status: optimal" in text


def test_leaderboard_rendering_shows_what_was_parsed():
    frame = pd.DataFrame({"acc": ["93.9/91.8", "92.0/92.5"], "latency": [30, 12]}, index=["x", "y"])
    lb = cs.Leaderboard.from_frame(frame, split_composite=True, lower_is_better=["latency"])
    text = render(lb, source="lb.csv")
    assert "Scores as read (lb.csv)" in text
    assert "lower is better: latency" in text
    assert "split composite task 'acc' into 'acc[1]', 'acc[2]'" in text
    assert "weight:     0.5     0.5        1" in text
    assert "better:  higher  higher    lower" in text
    csv_text = render(lb, format="csv")
    assert csv_text.splitlines()[0] == "system,acc[1],acc[2],latency"


def test_comparison_csv_is_the_compare_table(votenrank_toy):
    comp = cs.compare_rules(votenrank_toy, rules=["mean", "borda"])
    rows = list(csv.DictReader(io.StringIO(render(comp, format="csv"))))
    assert [r["rule"] for r in rows] == ["mean", "borda", "kemeny"]
    assert list(rows[0]) == ["rule"] + list(comp.table.columns)
    assert rows[2]["condorcet_winner"] == "true" and rows[0]["top5"] == ""


@pytest.mark.slow
def test_a_time_limited_kemeny_ranking_is_reported_as_such():
    lb = cs.datasets.gumbel_leaderboard(60, 30, phi=0.0, seed=0)  # pure noise: hard to prove in 0.3 s
    comp = cs.compare_rules(lb, rules=["mean", "borda"], time_limit=0.3)
    assert comp.kemeny.status.value == "time_limit" and comp.kemeny.gap > 0
    text = render(comp)
    assert "gap " + text.split(", gap ")[1].split(" ")[0] in text
    assert "(not proven optimal: the time limit stopped the proof)" in text
    assert "the Kemeny ranking below is the best found within the time limit, not proven optimal" in text
    result = json.loads(render(comp.kemeny, format="json"))["result"]
    assert result["status"] == "time_limit" and result["optimal"] is False
    assert result["gap"] == pytest.approx(result["objective"] - result["lower_bound"])


# ---------------------------------------------------------------- messy names, output that scales
MESSY = ["a|b", "c*d*", "e_f", "g`h`", "<i>x</i>", "tab\tname", "new\nline", "bell\x07"]


def _messy_board() -> cs.Leaderboard:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(len(MESSY), 3)), index=MESSY, columns=["q|a", "n*li", "t_3"])
    return cs.Leaderboard.from_frame(frame)


def test_messy_names_keep_text_tables_on_one_line():
    from consensus.report.blocks import one_line

    assert one_line("new\nline") == "new line" and one_line("tab\tname") == "tab name"
    assert one_line("bell\x07") == "bell\\x07" and one_line("a  b") == "a  b"
    result = cs.rank(_messy_board(), "borda")
    text = render(result, format="table", top=0)
    table = text[text.index("position"):].splitlines()
    assert len(table) == 2 + len(MESSY)  # header, rule, one line per system
    widths = {len(line.rstrip()) for line in table[2:]}
    assert "\t" not in text and "\x07" not in text
    assert any("new line" in line for line in table) and max(widths) <= len(table[1])


def test_messy_names_are_escaped_in_markdown():
    from consensus.report.blocks import md_escape

    assert md_escape("a|b *c* _d_ `e` <f> [g]") == "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\<f> \\[g\\]"
    assert md_escape("# title") == "\\# title" and md_escape("> quote") == "\\> quote"
    for obj in (cs.rank(_messy_board(), "borda"), _messy_board(), cs.kemeny(_messy_board())):
        out = render(obj, format="markdown", top=0)
        rows = [line for line in out.splitlines() if line.startswith("|")]
        assert rows
        counts = {len(re.findall(r"(?<!\\)\|", line)) for line in rows}
        assert len(counts) == 1  # every row has the same number of cells: no stray pipe
        assert not re.search(r"(?<!\\)<", out) and "\\<i>x\\</i>" in out  # no raw HTML tag
        assert "new line" in out and "new\nline" not in out


@pytest.fixture(scope="module")
def big_analysis():
    rng = np.random.default_rng(0)
    base = rng.normal(size=100)
    frame = pd.DataFrame(base[:, None] + rng.normal(size=(100, 14)), index=[f"sys-{i}" for i in range(100)],
                         columns=[f"task{j}" for j in range(14)])
    frame = frame.mask(rng.random(frame.shape) < 0.3)
    return cs.analyze(cs.Leaderboard.from_frame(frame), source="generated", min_coverage=0)  # all 100 ranked


def test_analyze_report_of_a_100_by_14_board_fits_in_120_lines(big_analysis):
    text = render(big_analysis)
    lines = text.splitlines()
    assert len(lines) <= 122, len(lines)  # 120, a line of rank ranges under the mean and one more who-can-still-win line
    for rule in ("borda", "copeland"):  # (the board has holes; Borda and Copeland are searched at every size)
        assert f"who can still win under {rule} (any position): " in text
    summary = text[text.index("Summary"):text.index("Scores as read")]
    assert "100 systems x 14 tasks" in summary and "Kemeny top 5: " in summary
    assert "winner per rule: " in summary and "missing-score policies: " in summary
    assert "prospective systems: " in summary and "Condorcet winner" in summary
    ranges = big_analysis.ranges  # the first 10 at the median fill, each with its exact best and worst position
    first = sorted(range(100), key=lambda k: (ranges.median_position[k], ranges.best[k], k))[:10]
    assert "rank ranges under the mean (best-worst), first 10 at the median fill: " + ", ".join(
        f"{ranges.systems[k]} {ranges.best[k]}-{ranges.worst[k]}" for k in first) in summary
    assert "... and 90 more systems" in text
    flat = " ".join(text.split())  # long lines wrap at 200 characters
    assert "majority edges: " in flat and "JSON and CSV list every edge" in flat
    assert max(len(line) for line in lines) <= 200
    markdown = render(big_analysis, format="markdown")
    assert len(markdown) < 30_000
    doc = json.loads(render(big_analysis, format="json"))  # JSON keeps every detail
    assert len(doc["result"]["majority"]["edges"]) == len(big_analysis.majority.edges)
    assert len(doc["result"]["kemeny"]["ranking"]) == 100


def test_top_zero_shows_every_row_and_top_n_caps(big_analysis):
    full = render(big_analysis, top=0)
    assert "more systems" not in full and "sys-99" in full.split("Majority graph")[0]
    assert len(full.splitlines()) > 300
    short = render(big_analysis, top=3)
    assert "... and 97 more systems" in short and len(short.splitlines()) < len(render(big_analysis).splitlines())
    kem = render(big_analysis.kemeny, top=5)
    assert "... and 95 more systems" in kem and "(95 more)" in kem
    comp = render(big_analysis.comparison, top=5)
    assert "... and 95 more systems" in comp
    with pytest.raises(InvalidOptionError, match="top must be an integer"):
        render(big_analysis, top=-1)


def test_analyze_report_flags_low_coverage_winners():
    frame = pd.DataFrame(
        {f"t{j}": [0.9 - 0.05 * i for i in range(6)] for j in range(6)}, index=[f"s{i}" for i in range(6)]
    )
    frame.loc["lucky"] = [1.0] + [np.nan] * 5  # scored on one task of six, best there
    text = render(cs.analyze(cs.Leaderboard.from_frame(frame, infer=False), prospective=True, min_coverage=0))
    summary = text[:text.index("Scores as read")]
    assert "warning: " in summary and "lucky" in summary.split("warning: ", 1)[1]
    assert "coverage: 17% to 100% of the task weight per system; 1 below 50% (lucky)" in summary


def test_rule_notes_name_the_systems_geometric_mean_cannot_rank():
    from consensus.report.html import render_html

    frame = pd.DataFrame({"t1": [0.9, 0.0, 0.5, 0.4, 0.0], "t2": [0.8, 0.9, 0.6, 0.5, 0.7], "t3": [0.7, 0.8, 0.9, 0.6, 0.5]},
                         index=["a", "b", "c", "d", "e"])
    analysis = cs.analyze(cs.Leaderboard.from_frame(frame, infer=False), prospective=False)
    assert analysis.comparison.results["geometric_mean"].details["unranked"] == ("b", "e")
    note = "note: geometric_mean: 2 systems have a score <= 0 on a task and no geometric_mean; ranked last, tied: b, e"
    assert note in cs.render(analysis, format="table")
    assert note.replace("_", "\\_").replace("<", "\\<") in cs.render(analysis, format="markdown")
    assert note.replace("<=", "&lt;=") in render_html(analysis, figure=False)
    complete = cs.analyze(cs.Leaderboard.from_frame(frame + 1.0, infer=False), prospective=False)
    assert "note: geometric_mean" not in cs.render(complete)
