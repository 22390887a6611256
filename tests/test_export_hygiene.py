"""Reading real exports: bookkeeping columns, composite cells with a missing half, messy names,
all problems in one error with 1-based file positions, long-format detection, CLI wording."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus import Leaderboard, LeaderboardError, UnknownTaskError
from consensus.errors import (
    CompositeScoreError,
    DuplicateLabelError,
    EmptyLabelError,
    LeaderboardErrors,
    LongFormatError,
    NonNumericScoreError,
)
from consensus.hints import CLI_FLAGS, hinted, option
from consensus.io._bookkeeping import BOOKKEEPING_NAMES, bookkeeping_key
from consensus.io._readers import frame_to_leaderboard

MESSY = Path(__file__).parent / "data" / "messy"


def _glue_frame(n: int = 30, seed: int = 0) -> pd.DataFrame:
    """A GLUE-like in-memory export: Rank, Average, 30% empty cells, `-/99.8` composites, messy names."""
    rng = np.random.default_rng(seed)
    quality = np.sort(rng.normal(0, 1, n))[::-1]
    tasks = ["CoLA", "SST-2", "QNLI", "RTE", "WNLI"]
    main = np.round(60 + 5 * quality[:, None] + rng.normal(0, 2, (n, len(tasks))), 1)
    empty = rng.random(main.shape) < 0.30
    empty[:, 0] = False
    cells = pd.DataFrame(np.where(empty, "", main.astype(str)), columns=tasks)
    mrpc = [f"{a:.1f}/{a + 1:.1f}" for a in main[:, 1]]
    mrpc[4], mrpc[6], mrpc[8] = "-/99.8", "NaN/88.0", "/90.2"
    cells.insert(2, "MRPC", mrpc)
    names = [f"model-{i}" for i in range(n)]
    names[1], names[2], names[3] = "RoBERTa\n(ensemble)", "  T5\t11B ", "BERT   base"
    shown = np.where(empty, np.nan, main)
    average = np.round(np.nanmean(shown, axis=1), 1)
    frame = cells.assign(Average=[f"{a:.1f}" for a in average])
    frame.insert(0, "Model", names)
    frame.insert(0, "Rank", [str(i + 1) for i in range(n)])
    return frame


# ---------------------------------------------------------------- bookkeeping columns
def test_glue_like_frame_excludes_rank_and_average_and_reads_every_oddity():
    raw = _glue_frame()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = frame_to_leaderboard(raw, index_col="Model", split_composite=True)
    assert "Rank" not in lb.tasks and "Average" not in lb.tasks
    assert lb.tasks == ("CoLA", "SST-2", "MRPC[1]", "MRPC[2]", "QNLI", "RTE", "WNLI")
    note = next(n for n in lb.notes if n.startswith("excluded column(s), not tasks"))
    assert "'Rank' (named like a rank)" in note and "'Average' (named like an aggregate)" in note
    assert "keep_columns=['Rank', 'Average']" in note
    # composite halves missing: the missing half is NaN, the other kept
    assert math.isnan(lb.scores.loc["model-4", "MRPC[1]"]) and lb.scores.loc["model-4", "MRPC[2]"] == 99.8
    assert math.isnan(lb.scores.loc["model-6", "MRPC[1]"]) and lb.scores.loc["model-6", "MRPC[2]"] == 88.0
    assert math.isnan(lb.scores.loc["model-8", "MRPC[1]"]) and lb.scores.loc["model-8", "MRPC[2]"] == 90.2
    # names normalized, and the mapping reported
    assert lb.systems[1:4] == ("RoBERTa (ensemble)", "T5 11B", "BERT base")
    renamed = next(n for n in lb.notes if n.startswith("normalized whitespace"))
    assert "'RoBERTa\\n(ensemble)' -> 'RoBERTa (ensemble)'" in renamed and "'BERT   base' -> 'BERT base'" in renamed
    assert 0.1 < np.isnan(lb.values).mean() < 0.4


def test_keep_columns_keeps_bookkeeping_columns():
    raw = _glue_frame()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = frame_to_leaderboard(raw, index_col="Model", split_composite=True, keep_columns=["Average"])
        everything = frame_to_leaderboard(raw, index_col="Model", split_composite=True, keep_columns=True)
    assert "Average" in kept.tasks and "Rank" not in kept.tasks
    assert {"Rank", "Average"} <= set(everything.tasks)
    assert not any(n.startswith("excluded column(s)") for n in everything.notes)
    with pytest.raises(UnknownTaskError, match="keep_columns"):
        frame_to_leaderboard(raw, index_col="Model", split_composite=True, keep_columns=["Avrage"])


@pytest.mark.parametrize("name", ["Rank", "#", "Score", "Overall", "Total", "Average", "Avg.", "mean",
                                  "Mean-Rank", "Meta-Ave", "Macro-Avg", "  AVERAGE ↑ "])
def test_bookkeeping_names_are_case_and_punctuation_insensitive(name):
    assert bookkeeping_key(name) in BOOKKEEPING_NAMES
    frame = pd.DataFrame({"qa": [0.7, 0.6, 0.5], "nli": [0.5, 0.6, 0.4], name: [3.0, 1.0, 2.0]}, index=list("abc"))
    lb = Leaderboard.from_frame(frame)
    assert lb.tasks == ("qa", "nli")
    assert repr(" ".join(name.split())) in lb.notes[-1] or repr(name.strip()) in lb.notes[-1]


def test_a_column_of_row_order_ranks_is_excluded_by_its_values():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.uniform(50, 90, (8, 3)).round(1), columns=["qa", "nli", "mt"],
                         index=[f"s{i}" for i in range(8)])
    frame.insert(0, "n", [1, 2, 3, 3, 5, 6, 7, 8])
    lb = Leaderboard.from_frame(frame)
    assert lb.tasks == ("qa", "nli", "mt")
    assert "'n' (integer ranks 1, 2, 3, ... in row order)" in lb.notes[0]


def test_a_column_equal_to_the_row_mean_is_excluded_by_its_values():
    rng = np.random.default_rng(2)
    scores = rng.uniform(40, 90, (10, 4)).round(2)
    scores[rng.random(scores.shape) < 0.2] = np.nan
    scores[:, 0] = rng.uniform(40, 90, 10).round(2)
    frame = pd.DataFrame(scores, columns=["a1", "a2", "a3", "a4"], index=[f"s{i}" for i in range(10)])
    frame["summary"] = np.round(np.nanmean(scores, axis=1), 1)
    lb = Leaderboard.from_frame(frame)
    assert "summary" not in lb.tasks
    assert "'summary' (the mean of a1, a2, a3, a4 within print rounding" in lb.notes[0]
    assert lb.reading.excluded["summary"].of == ("a1", "a2", "a3", "a4")


def test_small_sorted_leaderboards_keep_their_tasks():
    # a 3-system board sorted by an integer task, and the voting toy (integer scores 1..4)
    frame = pd.DataFrame({"t1": [1, 2, 3], "t2": [3, 1, 2], "t3": [2, 2, 3]}, index=list("abc"))
    assert Leaderboard.from_frame(frame).tasks == ("t1", "t2", "t3")
    toy = cs.load_example("votenrank-toy")
    assert Leaderboard.from_frame(toy.scores).tasks == toy.tasks
    # a coarse coincidence with a row mean is not enough
    missing = pd.DataFrame({"t1": [0.9, 0.6, 0.5, 0.1], "t2": [0.8, None, 0.6, 0.2], "t3": [None, 0.5, 0.7, 0.3],
                            "t4": [0.7, 0.4, None, 0.35]}, index=list("abcd"))
    assert Leaderboard.from_frame(missing).tasks == ("t1", "t2", "t3", "t4")


def test_a_column_named_in_an_option_is_never_bookkeeping():
    frame = pd.DataFrame({"qa": [0.7, 0.6, 0.5], "score": [3.0, 1.0, 2.0]}, index=list("abc"))
    assert Leaderboard.from_frame(frame, weights={"score": 2}).tasks == ("qa", "score")
    assert Leaderboard.from_frame(frame, tasks=["score", "qa"]).tasks == ("score", "qa")
    only = pd.DataFrame({"score": [3.0, 1.0, 2.0]}, index=list("abc"))
    assert Leaderboard.from_frame(only).tasks == ("score",)  # never every column


def test_the_low_level_constructor_keeps_every_column():
    frame = pd.DataFrame({"qa": [0.7, 0.6, 0.5], "Rank": [1.0, 2.0, 3.0]}, index=list("abc"))
    assert Leaderboard(frame).tasks == ("qa", "Rank")


# ---------------------------------------------------------------- composite cells
@pytest.mark.parametrize(("cell", "first", "second"), [
    ("NaN/99.8", None, 99.8), ("-/99.8", None, 99.8), ("/99.8", None, 99.8), ("99.8/", 99.8, None),
    ("-/-", None, None), (" 85.1 / 99.8 ", 85.1, 99.8),
])
def test_composite_cells_with_a_missing_half_split(cell, first, second):
    frame = pd.DataFrame({"glue": ["90.0/91.0", cell, "80.0/81.0"], "qa": [1, 2, 3]}, index=list("abc"))
    lb = Leaderboard.from_frame(frame, split_composite=True)
    got = lb.scores.loc["b", ["glue[1]", "glue[2]"]].tolist()
    for value, want in zip(got, (first, second)):
        assert math.isnan(value) if want is None else value == want
    with pytest.raises(CompositeScoreError, match="split_composite=True"):
        Leaderboard.from_frame(frame)


# ---------------------------------------------------------------- names
def test_names_in_options_are_normalized_like_the_columns():
    frame = pd.DataFrame({"error\nrate": [0.1, 0.2, 0.3], "qa  score": [0.5, 0.6, 0.4], "mt": [1, 2, 3]},
                         index=["a", " b", "c\t"])
    lb = Leaderboard.from_frame(frame, lower_is_better=["error  rate"], weights={"qa\tscore": 2},
                                groups={"g": ["error rate", " qa score"]})
    assert lb.tasks == ("error rate", "qa score", "mt") and lb.systems == ("a", "b", "c")
    assert lb.lower_is_better == frozenset({"error rate"})
    assert lb.weights["qa score"] == 2.0 and lb.groups["g"] == ("error rate", "qa score")
    assert Leaderboard.from_frame(frame, tasks=["qa  score"], exclude=[]).tasks == ("qa score",)
    assert Leaderboard.from_frame(frame, exclude=["error\trate"]).tasks == ("qa score", "mt")


def test_names_colliding_after_normalization_name_both_originals():
    frame = pd.DataFrame({"qa": [1, 2, 3]}, index=["BERT  large", "BERT large", "c"])
    with pytest.raises(DuplicateLabelError, match=r"'BERT large'.*from 'BERT  large', 'BERT large'.*dedupe=True"):
        Leaderboard.from_frame(frame)


def test_dedupe_in_the_api_renames_in_row_order():
    frame = pd.DataFrame({"qa": [1, 2, 3], "nli": [3, 1, 2]}, index=["m", "n", "m"])
    lb = Leaderboard.from_frame(frame, dedupe=True)
    assert lb.systems == ("m_1", "n", "m_2")
    assert any("m -> m_1, m_2" in note for note in lb.notes)


# ---------------------------------------------------------------- errors in one pass
def test_every_problem_is_reported_at_once_with_one_based_positions():
    frame = pd.DataFrame({"qa": ["0.5", "oops", "0.7", "0.1"], "nli": ["1/2", "3/4", "5/6", "7/8"],
                          "mt": ["x", "0.2", "0.3", "0.4"]}, index=["a", "", "c", "c"])
    with pytest.raises(LeaderboardErrors) as info:
        Leaderboard.from_frame(frame)
    err = info.value
    kinds = [type(p).__name__ for p in err.problems]
    assert kinds == ["EmptyLabelError", "DuplicateLabelError", "NonNumericScoreError", "CompositeScoreError",
                     "NonNumericScoreError"]
    text = str(err)
    assert text.startswith("5 problems in the scores:")
    assert "system at position 2 has an empty name" in text
    assert "task 'qa' (column 1; row 2) has non-numeric scores" in text
    assert "task 'mt' (column 3; row 1)" in text
    assert isinstance(err, LeaderboardError) and isinstance(err, ValueError)


def test_a_single_problem_keeps_its_own_class():
    frame = pd.DataFrame({"qa": [1, 2, 3], "nli": ["80", "81%", "82"]}, index=list("abc"))
    with pytest.raises(NonNumericScoreError, match=r"task 'nli' \(column 2; row 2\)"):
        Leaderboard.from_frame(frame)


def test_problems_are_capped():
    frame = pd.DataFrame({f"t{j}": ["x", "1", "2"] for j in range(30)}, index=list("abc"))
    with pytest.raises(LeaderboardErrors) as info:
        Leaderboard.from_frame(frame)
    assert len(info.value.problems) == 20 and info.value.n_found == 30
    assert str(info.value).endswith("... and 10 more")


def test_file_errors_give_file_lines_and_columns(tmp_path):
    path = tmp_path / "lb.csv"
    path.write_text('model,qa,nli\na,0.7,0.5\n"b\nc",oops,0.4\n,0.5,0.6\nd,0.1,0.2\n')
    with pytest.raises(LeaderboardErrors) as info:
        cs.read_leaderboard(path)
    text = str(info.value)
    assert "task 'qa' (column 2; line 3) has non-numeric scores for system(s) 'b c'" in text
    assert ("system at position 3 (line 5) has an empty name; system names come from the first column "
            "('model'); pass index_col=... to take them from another column") in text
    assert "pass --index-col COL to take them" in info.value.cli_message()


def test_numbers_in_the_first_column_point_to_index_col(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text("Rank,Model,qa,nli\n1,a,0.7,0.5\n2,b,0.6,0.4\n3,c,0.5,0.6\n")
    with pytest.raises(LeaderboardError, match=r"first column 'Rank', which holds numbers.*index_col='Model'") as info:
        cs.read_leaderboard(path)
    assert "--index-col Model" in info.value.cli_message()
    with pytest.raises(LeaderboardErrors, match=r"first column 'Rank', which holds numbers.*index_col='Model'") as info:
        cs.read_leaderboard(path, infer=False)  # as given: the text column is an error of its own
    assert "task 'Model' (column 2; lines 2, 3, 4) holds text" in str(info.value)
    lb = cs.read_leaderboard(path, index_col="Model")
    assert lb.systems == ("a", "b", "c") and lb.tasks == ("qa", "nli")


def test_glue_like_export_is_fixed_in_two_runs():
    path = MESSY / "glue_like.csv"
    with pytest.raises(LeaderboardErrors) as info:
        cs.read_leaderboard(path)
    first = str(info.value)
    assert "index_col='Model'" in first and "split_composite=True" in first
    assert "exclude=" not in first  # the text columns (Name, URL) are set aside by the reading step
    with pytest.raises(LeaderboardErrors) as info:
        cs.read_leaderboard(path, index_col="Model")
    assert "dedupe=True" in str(info.value) and "'BERT-large' at lines" in str(info.value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = cs.read_leaderboard(path, index_col="Model", split_composite=True, dedupe=True)
    assert lb.n_systems == 100 and "Rank" not in lb.tasks and "Score" not in lb.tasks
    assert "RoBERTa (ensemble)" in lb.systems and "BERT-large_2" in lb.systems
    assert any("'Rank'" in n and "'Score'" in n for n in lb.notes if n.startswith("excluded column(s)"))
    assert {"Name", "URL"} <= {c for c, r in lb.reading.excluded.items() if r.role == "metadata"}


# ---------------------------------------------------------------- long format
def test_a_long_file_read_as_wide_says_so():
    with pytest.raises(LongFormatError, match=r"long format.*pass long=\('system', 'task', 'score'\)") as info:
        cs.read_leaderboard(MESSY / "long_format.csv")
    assert info.value.cli_message().endswith("pass --long system,task,score")
    lb = cs.read_leaderboard(MESSY / "long_format.csv", long=("system", "task", "score"))
    assert lb.n_systems == 14 and lb.n_tasks == 14


def test_a_wide_frame_with_repeated_names_and_a_text_column_is_long():
    frame = pd.DataFrame({"dataset": ["qa", "nli"] * 3, "value": [1, 2, 3, 4, 5, 6]},
                         index=pd.Index(list("aabbcc"), name="model"))
    with pytest.raises(LongFormatError, match=r"long=\('model', 'dataset', 'value'\)"):
        Leaderboard.from_frame(frame)


# ---------------------------------------------------------------- CLI wording
@pytest.mark.parametrize(("verb", "hint", "api", "cli"), [
    ("pass", option("drop_empty", True), "pass drop_empty=True", "pass --drop-empty"),
    ("pass", option("split_composite", True), "pass split_composite=True", "pass --split-composite"),
    ("pass", option("index_col"), "pass index_col=...", "pass --index-col COL"),
    ("pass", option("long", ("system", "task", "score")), "pass long=('system', 'task', 'score')",
     "pass --long system,task,score"),
    ("pass", option("long", placeholder="(SYSTEM, TASK, SCORE)"), "pass long=(SYSTEM, TASK, SCORE)",
     "pass --long SYSTEM,TASK,SCORE"),
    ("pass", option("keep_columns", ["Rank", "Score"]), "pass keep_columns=['Rank', 'Score']",
     "pass --keep-columns Rank,Score"),
    ("pass", option("keep_columns", True), "pass keep_columns=True", "pass --keep-columns all"),
    ("pass", option("dedupe", True), "pass dedupe=True", "pass --dedupe"),
    ("pass", option("missing", "impute"), "pass missing='impute'", "pass --missing impute"),
    ("pass", option("missing", "drop_tasks", "drop_systems"), "pass missing='drop_tasks' or 'drop_systems'",
     "pass --missing drop_tasks or drop_systems"),
    ("pass", option("min_coverage", 0.5), "pass min_coverage=0.5", "pass --min-coverage 0.5"),
    ("pass", option("exclude", ["URL"]), "pass exclude=['URL']", "pass --exclude URL"),
    ("see", option("rule_options", placeholder="x"), "see rule_options=x", "see rule_options=x"),
])
def test_option_hints_carry_both_wordings(verb, hint, api, cli):
    text = hinted(verb + " {}", hint)
    assert str(text) == api and text.cli == cli
    assert (verb + " " + hint).cli == cli  # + keeps the command-line wording too


def test_cli_message_on_real_errors():
    frame = pd.DataFrame({"x": [1, np.nan, 3], "y": [3, np.nan, 1]}, index=list("abc"))
    with pytest.raises(cs.errors.EmptySystemError) as info:
        Leaderboard.from_frame(frame)
    assert "pass drop_empty=True" in str(info.value) and info.value.cli_message().endswith("pass --drop-empty")
    with pytest.raises(cs.MissingScoreError) as info:
        cs.rank(Leaderboard.from_frame(pd.DataFrame({"x": [1, np.nan, 3], "y": [3, 2, 1]}, index=list("abc"))),
                rule="borda")
    assert "missing=" in str(info.value) and "--missing " in info.value.cli_message()
    assert "missing=" not in info.value.cli_message()
    with pytest.raises(DuplicateLabelError) as info:
        Leaderboard.from_frame(pd.DataFrame({"x": [1, 2, 3]}, index=list("aba")))
    assert "pass --dedupe" in info.value.cli_message()
    with pytest.raises(EmptyLabelError) as info:
        Leaderboard.from_frame(pd.DataFrame({"x": [1, 2, 3]}, index=["a", None, "c"]))
    assert info.value.position == 1 and "position 2" in str(info.value)


def test_long_frames_normalize_names_before_pivoting():
    long = pd.DataFrame({"system": ["a ", "a", "b\nx", "b\nx"], "task": ["t1", "t2", "t1", " t2"],
                         "score": [1.0, 2.0, 3.0, 4.0]})
    lb = Leaderboard.from_long(long)
    assert lb.systems == ("a", "b x") and lb.tasks == ("t1", "t2") and not lb.has_missing
    assert lb.notes == ("normalized whitespace in names: 'b\\nx' -> 'b x'",)


def test_constant_or_copied_columns_are_tasks_not_bookkeeping():
    # a task on which every system ties (1, 1, 1, ...) is not a rank column, and a task equal to
    # one other task is not "the row mean of the other columns" (that needs at least two others):
    # it is the same benchmark twice, counted once
    frame = pd.DataFrame({"t0": [1.0] * 6, "t1": [3.0, 9.0, 27.0, 81.0, 50.0, 60.0],
                          "t2": [3.0, 9.0, 27.0, 81.0, 50.0, 60.0]}, index=[f"s{i}" for i in range(6)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        lb = cs.Leaderboard.from_frame(frame)
    assert lb.tasks == ("t0", "t1")
    assert lb.reading.excluded["t2"].role == "duplicate" and lb.reading.excluded["t2"].of == ("t1",)
    assert not any(r.role in ("rank", "aggregate") for r in lb.reading.excluded.values())


_API_HINT = re.compile(rf"(?<![\w.-])({'|'.join(CLI_FLAGS)})=(?=[\w'\[(.])")


@pytest.mark.parametrize("case", ["gem", "glue", "sparse", "long", "empty_system", "composite", "unknown_task",
                                  "mean_holes", "duplicate"])
def test_the_command_line_names_flags_never_api_options(tmp_path, case):
    """Every line the command line prints (errors, reading notes, reports) names flags: the hints are
    built with both wordings (consensus.hints), so none is left in the API's (``drop_empty=True``)."""
    from . import messy_exports, real_shapes
    from .cli_runner import run_cli

    path = tmp_path / "board.csv"
    args = ["analyze"]
    if case == "gem":
        real_shapes.write_csv(real_shapes.gem_like(), path)
    elif case in ("glue", "sparse", "long"):
        frame = {"glue": messy_exports.glue_like, "sparse": messy_exports.sparse_board,
                 "long": messy_exports.long_format}[case]()
        frame.to_csv(path, index=case != "long")
        args = ["rank", "--rule", "borda"] if case == "glue" else args
    elif case == "empty_system":
        path.write_text("model,qa,nli\na,1,2\nb,,\nc,3,1\n", encoding="utf-8")
    elif case == "composite":
        path.write_text("model,glue,nli\na,93.9/91.8,2\nb,90.1/88.0,1\nc,91.0/87.5,3\n", encoding="utf-8")
    elif case == "unknown_task":
        path.write_text("model,qa,nli\na,1,2\nb,2,1\nc,3,3\n", encoding="utf-8")
        args = ["rank", "--tasks", "qa,nlii"]
    elif case == "mean_holes":
        path.write_text("model,qa,nli,sum\na,1,2,3\nb,2,,1\nc,3,3,2\n", encoding="utf-8")
        args = ["rank", "--rule", "mean", "--min-coverage", "0"]
    elif case == "duplicate":
        path.write_text("model,qa,nli\na,1,2\na,2,1\nc,3,3\n", encoding="utf-8")
    res = run_cli(*args, str(path), "--top", "5")
    printed = res.stdout + res.stderr
    assert printed.strip(), case
    assert not _API_HINT.findall(printed), (case, [line for line in printed.splitlines() if _API_HINT.search(line)])
    if res.returncode:
        assert "--" in res.stderr, res.stderr  # the way out, as a flag
