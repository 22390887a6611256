"""Leaderboard construction, parsing and validation."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus import (
    DegenerateTaskWarning,
    Leaderboard,
    LeaderboardError,
    UnknownTaskError,
)
from consensus.errors import (
    CompositeScoreError,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    InvalidWeightError,
    NonFiniteScoreError,
    NonNumericScoreError,
    NoTaskError,
    TooFewSystemsError,
)


def frame(data: dict, index=("a", "b", "c")) -> pd.DataFrame:
    return pd.DataFrame(data, index=list(index))


# ---------------------------------------------------------------- construction and directions
def test_lower_is_better_orients_but_keeps_original_scores():
    lb = Leaderboard.from_frame(frame({"acc": [0.9, 0.8, 0.7], "lat": [3.0, 1.0, 2.0]}), lower_is_better=["lat"])
    assert lb.scores["lat"].tolist() == [3.0, 1.0, 2.0]
    assert lb.oriented()["lat"].tolist() == [-3.0, -1.0, -2.0]
    assert lb.values[:, 1].tolist() == [-3.0, -1.0, -2.0]
    assert lb.lower_is_better == frozenset({"lat"})
    # b is best on latency: it beats a there only; it beats c on both tasks
    p = cs.pairwise(lb)
    assert p.wins[1, 0] == 1.0 and p.wins[1, 2] == 2.0 and p.wins[0, 1] == 1.0


def test_lower_is_better_accepts_mapping():
    lb = Leaderboard.from_frame(frame({"x": [1, 2, 3], "y": [1, 2, 3]}), lower_is_better={"x": True, "y": False})
    assert lb.lower_is_better == frozenset({"x"})


def test_values_are_read_only():
    lb = Leaderboard.from_frame(frame({"x": [1.0, 2.0, 3.0]}))
    with pytest.raises(ValueError):
        lb.values[0, 0] = 5.0


def test_default_weights_are_one_and_normalized_sum_to_one():
    lb = Leaderboard.from_frame(frame({"x": [1, 2, 3], "y": [3, 1, 2]}), weights={"y": 3})
    assert lb.weights.tolist() == [1.0, 3.0]
    assert lb.normalized_weights.tolist() == [0.25, 0.75]


def test_numeric_text_cells_are_parsed_and_missing_markers_kept_missing():
    lb = Leaderboard.from_frame(frame({"x": ["1.5", "-", ""], "y": ["2", "4", "3e-1"], "z": ["n/a", "NaN", "1"]}))
    values = lb.scores
    assert values.loc["a", "x"] == 1.5 and math.isnan(values.loc["b", "x"]) and math.isnan(values.loc["c", "x"])
    assert values.loc["c", "y"] == pytest.approx(0.3)
    assert lb.missing_cells() == [("a", "z"), ("b", "x"), ("b", "z"), ("c", "x")]
    assert lb.has_missing


def test_from_long_pivots_and_keeps_missing():
    long = pd.DataFrame(
        {"model": ["a", "a", "b", "c"], "dataset": ["t1", "t2", "t1", "t2"], "value": [1.0, 2.0, 3.0, 4.0]}
    )
    lb = Leaderboard.from_long(long, system="model", task="dataset", score="value")
    assert lb.systems == ("a", "b", "c") and lb.tasks == ("t1", "t2")
    assert math.isnan(lb.scores.loc["b", "t2"])


def test_from_long_duplicate_pair_is_an_error():
    long = pd.DataFrame({"system": ["a", "a", "b"], "task": ["t", "t", "t"], "score": [1, 2, 3]})
    with pytest.raises(DuplicateLabelError, match=r"a/t"):
        Leaderboard.from_long(long)


def test_select_keeps_weights_and_directions():
    lb = Leaderboard.from_frame(
        frame({"x": [1, 2, 3], "y": [3, 1, 2], "z": [0, 1, 0]}), lower_is_better=["y"], weights={"y": 2}
    )
    sub = lb.select(systems=["c", "a"], tasks=["y", "x"])
    assert sub.systems == ("c", "a") and sub.tasks == ("y", "x")
    assert sub.weights.to_dict() == {"y": 2.0, "x": 1.0}
    assert sub.lower_is_better == frozenset({"y"})


# ---------------------------------------------------------------- composite cells
def test_composite_cell_is_an_error_naming_system_task_and_cell():
    data = frame({"glue": ["93.9/91.8", "92.0/92.5", "90.1/90.0"], "qa": [1, 2, 3]})
    with pytest.raises(CompositeScoreError, match=r"task 'glue'.*'a', 'b', 'c'.*'93\.9/91\.8'.*split_composite"):
        Leaderboard.from_frame(data)


def test_split_composite_makes_two_half_weight_tasks():
    data = frame({"glue": ["93.9/91.8", "92.0/92.5", "-"], "qa": [1, 2, 3]})
    lb = Leaderboard.from_frame(data, split_composite=True, weights={"glue": 3}, lower_is_better=["glue"])
    assert lb.tasks == ("glue[1]", "glue[2]", "qa")
    assert lb.weights.tolist() == [1.5, 1.5, 1.0]
    assert lb.scores["glue[1]"].tolist()[:2] == [93.9, 92.0]
    assert lb.scores["glue[2]"].tolist()[:2] == [91.8, 92.5]
    assert math.isnan(lb.scores.loc["c", "glue[1]"]) and math.isnan(lb.scores.loc["c", "glue[2]"])
    assert lb.lower_is_better == frozenset({"glue[1]", "glue[2]"})
    assert any("split composite task 'glue'" in note for note in lb.notes)


def test_split_composite_groups_follow_the_split():
    data = frame({"glue": ["1/2", "2/1", "3/3"], "qa": [1, 2, 3]})
    lb = Leaderboard.from_frame(data, split_composite=True, groups={"g": ["glue"], "h": ["qa"]})
    assert lb.groups["g"] == ("glue[1]", "glue[2]")


def test_composite_mixed_with_plain_number_is_an_error():
    data = frame({"glue": ["93.9/91.8", "92.0", "-"], "qa": [1, 2, 3]})
    with pytest.raises(LeaderboardError, match=r"system 'b'"):
        Leaderboard.from_frame(data, split_composite=True)


# ---------------------------------------------------------------- bad input
def test_non_numeric_cell_names_task_and_system():
    with pytest.raises(NonNumericScoreError, match=r"task 'nli'.*'b'.*'81%'"):
        Leaderboard.from_frame(frame({"qa": [1, 2, 3], "nli": ["80", "81%", "82"]}))


def test_infinite_score_is_an_error_when_read_as_given():
    with pytest.raises(NonFiniteScoreError, match=r"task 'qa'.*'b'"):
        Leaderboard.from_frame(frame({"qa": [1.0, np.inf, 3.0]}), infer=False)
    with pytest.raises(NonFiniteScoreError, match=r"task 'qa'.*'b'"):
        Leaderboard(frame({"qa": [1.0, np.inf, 3.0]}))  # the constructor never infers


def test_infinite_text_score_is_an_error_when_read_as_given():
    with pytest.raises(NonFiniteScoreError, match=r"task 'qa'"):
        Leaderboard.from_frame(frame({"qa": ["1", "-inf", "3"]}), infer=False)


def test_infinite_scores_are_read_as_missing_by_default():
    lb = Leaderboard.from_frame(frame({"qa": ["1", "-inf", "3"], "nli": [1.0, 2.0, np.inf]}))
    assert lb.scores.isna().to_numpy().tolist() == [[False, False], [True, False], [False, True]]
    assert any("infinite scores as missing" in n for n in lb.notes)


def test_duplicate_system_names_are_listed():
    with pytest.raises(DuplicateLabelError, match=r"duplicate system name\(s\): 'a'"):
        Leaderboard.from_frame(frame({"x": [1, 2, 3]}, index=["a", "b", "a"]))


def test_duplicate_task_names():
    data = pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["t", "t"])
    with pytest.raises(DuplicateLabelError, match=r"duplicate task name\(s\): 't'"):
        Leaderboard.from_frame(data)


@pytest.mark.parametrize("bad", ["", "  ", None, float("nan")])
def test_empty_system_name(bad):
    with pytest.raises(EmptyLabelError, match=r"system at position 2"):  # 1-based
        Leaderboard.from_frame(frame({"x": [1, 2, 3]}, index=["a", bad, "c"]))


def test_empty_task_name():
    data = pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["t", ""])
    with pytest.raises(EmptyLabelError, match=r"task at position 2"):  # 1-based
        Leaderboard.from_frame(data)


@pytest.mark.parametrize(
    ("weights", "pattern"),
    [
        ({"x": -1}, r"weight of task 'x' is negative"),
        ({"x": float("nan")}, r"weight of task 'x' is not finite"),
        ({"x": float("inf")}, r"weight of task 'x' is not finite"),
        ({"x": "heavy"}, r"weight of task 'x' is not a number"),
        ({"x": 0, "y": 0}, r"all task weights are zero"),
    ],
)
def test_bad_weights(weights, pattern):
    with pytest.raises(InvalidWeightError, match=pattern):
        Leaderboard.from_frame(frame({"x": [1, 2, 3], "y": [3, 2, 1]}), weights=weights)


def test_weight_for_unknown_task_suggests_close_name():
    with pytest.raises(UnknownTaskError, match=r"unknown task 'qaa' in weights; did you mean 'qa'"):
        Leaderboard.from_frame(frame({"qa": [1, 2, 3]}), weights={"qaa": 2})


def test_direction_for_unknown_task():
    with pytest.raises(UnknownTaskError, match=r"unknown task 'latency' in lower_is_better"):
        Leaderboard.from_frame(frame({"qa": [1, 2, 3]}), lower_is_better=["latency"])


def test_group_errors():
    data = frame({"x": [1, 2, 3], "y": [3, 2, 1]})
    with pytest.raises(UnknownTaskError, match=r"unknown task 'z' in group 'g'"):
        Leaderboard.from_frame(data, groups={"g": ["x", "z"]})
    with pytest.raises(LeaderboardError, match=r"task 'x' is in two groups: 'g' and 'h'"):
        Leaderboard.from_frame(data, groups={"g": ["x"], "h": ["x", "y"]})
    with pytest.raises(LeaderboardError, match=r"group 'g' has no task"):
        Leaderboard.from_frame(data, groups={"g": []})


def test_system_without_any_score_is_an_error_unless_dropped():
    data = frame({"x": [1, np.nan, 3], "y": [3, np.nan, 1]})
    with pytest.raises(EmptySystemError, match=r"'b'.*drop_empty=True"):
        Leaderboard.from_frame(data)
    with pytest.warns(UserWarning, match=r"dropped system\(s\) with no score: 'b'"):
        lb = Leaderboard.from_frame(data, drop_empty=True)
    assert lb.systems == ("a", "c")
    assert lb.notes == ("dropped system(s) with no score: 'b'",)


def test_task_without_any_score_is_an_error_unless_dropped():
    data = frame({"x": [1, 2, 3], "y": [np.nan] * 3})
    with pytest.raises(LeaderboardError, match=r"task\(s\) 'y' have no score"):
        Leaderboard.from_frame(data)
    with pytest.warns(UserWarning, match=r"dropped task\(s\) with no score: 'y'"):
        assert Leaderboard.from_frame(data, drop_empty=True).tasks == ("x",)


def test_too_few_systems_and_no_tasks():
    with pytest.raises(TooFewSystemsError, match=r"at least 2 systems, got 1"):
        Leaderboard.from_frame(frame({"x": [1]}, index=["a"]))
    with pytest.raises(NoTaskError):
        Leaderboard.from_frame(pd.DataFrame(index=["a", "b"]))
    with pytest.raises(NoTaskError, match="excluded"):
        Leaderboard.from_frame(frame({"x": [1, 2, 3]}), exclude=["x"])


def test_tasks_and_exclude_select_columns():
    data = frame({"rank": [1, 2, 3], "url": ["u", "v", "w"], "qa": [0.5, 0.6, 0.7]})
    assert Leaderboard.from_frame(data, exclude=["url", "rank"]).tasks == ("qa",)
    assert Leaderboard.from_frame(data, tasks=["qa"]).tasks == ("qa",)
    read = Leaderboard.from_frame(data)  # the rank by name, the text column by type: not tasks
    assert read.tasks == ("qa",) and read.reading.excluded["url"].role == "metadata"
    assert read.reading.excluded["rank"].role == "rank"
    with pytest.raises(NonNumericScoreError, match=r"task 'url'"):
        Leaderboard.from_frame(data, infer=False)


def test_degenerate_task_warns():
    with pytest.warns(DegenerateTaskWarning, match=r"task 'x'"):
        Leaderboard.from_frame(frame({"x": [1, 1, 1], "y": [1, 2, 3]}))


def test_errors_are_value_errors_and_consensus_errors():
    with pytest.raises(ValueError):
        Leaderboard.from_frame(frame({"x": ["a", "b", "c"]}))
    with pytest.raises(cs.ConsensusError):
        Leaderboard.from_frame(frame({"x": ["a", "b", "c"]}))


def test_not_a_frame():
    with pytest.raises(LeaderboardError, match="DataFrame"):
        Leaderboard.from_frame([[1, 2], [3, 4]])  # type: ignore[arg-type]


# ---------------------------------------------------------------- files
def test_read_csv_keeps_composites_and_missing(tmp_path):
    path = tmp_path / "lb.csv"
    path.write_text("model,glue,qa\na,93.9/91.8,0.5\nb,92.0/92.5,-\nc,90.0/89.0,0.7\n")
    lb = cs.read_leaderboard(path, split_composite=True)
    assert lb.tasks == ("glue[1]", "glue[2]", "qa")
    assert math.isnan(lb.scores.loc["b", "qa"])


def test_read_tsv_parquet_json_long(tmp_path):
    data = pd.DataFrame({"system": ["a", "b"], "x": [1.0, 2.0], "y": [2.0, 1.0]})
    data.to_csv(tmp_path / "lb.tsv", sep="\t", index=False)
    data.to_parquet(tmp_path / "lb.parquet", index=False)
    (tmp_path / "lb.json").write_text(json.dumps(data.to_dict(orient="records")))
    expected = Leaderboard.from_frame(data.set_index("system").rename_axis(None))
    for name in ("lb.tsv", "lb.parquet", "lb.json"):
        assert cs.read_leaderboard(tmp_path / name) == expected, name
    long = data.melt(id_vars="system", var_name="task", value_name="score")
    long.to_csv(tmp_path / "long.csv", index=False)
    lb = cs.read_leaderboard(tmp_path / "long.csv", long=("system", "task", "score"))
    assert lb.scores.loc["b", "x"] == 2.0


def test_read_errors(tmp_path):
    with pytest.raises(LeaderboardError, match=r"file not found"):
        cs.read_leaderboard(tmp_path / "nope.csv")
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(LeaderboardError, match=r"is empty"):
        cs.read_leaderboard(tmp_path / "empty.csv")
    (tmp_path / "semi.csv").write_text("model;x;y\na;1;2\nb;2;1\n")
    with pytest.raises(LeaderboardError, match=r"looks ;-separated: pass sep=';'"):
        cs.read_leaderboard(tmp_path / "semi.csv")
    assert cs.read_leaderboard(tmp_path / "semi.csv", sep=";").tasks == ("x", "y")
    (tmp_path / "x.xlsx").write_text("")
    with pytest.raises(LeaderboardError, match=r"cannot tell the format"):
        cs.read_leaderboard(tmp_path / "x.xlsx")
    with pytest.raises(UnknownTaskError, match=r"index_col"):
        cs.read_leaderboard(tmp_path / "semi.csv", sep=";", index_col="name")


def test_describe_mentions_what_was_parsed():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = Leaderboard.from_frame(
            frame({"glue": ["1/2", "2/1", "-"], "lat": [3, 2, 1]}),
            split_composite=True,
            lower_is_better=["lat"],
        )
    text = lb.describe()
    assert "3 systems x 3 tasks" in text
    assert "lower is better: lat" in text
    assert "missing scores: 2" in text
    assert "split composite task 'glue'" in text
