"""Tests for consensus.board._instances: InstanceScores and read_instances."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import consensus as cs
from consensus.errors import (
    DuplicateInstanceError,
    EmptyLabelError,
    EmptySystemError,
    EmptyTaskError,
    InvalidOptionError,
    LeaderboardError,
    NonFiniteScoreError,
    NonNumericScoreError,
    TooFewSystemsError,
    UnknownTaskError,
)
from consensus.majority._inputs import as_pairwise


@pytest.fixture
def long_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "model": ["a", "b", "c", "a", "b", "a", "b", "c", "c"],
            "dataset": ["qa", "qa", "qa", "qa", "qa", "mt", "mt", "mt", "qa"],
            "item": [1, 1, 1, 2, 2, 1, 1, 1, 3],
            "value": [0.9, 0.8, 0.1, 0.5, 0.6, 30.0, 10.0, 20.0, 0.4],
        }
    )


def build(frame: pd.DataFrame, **options) -> cs.InstanceScores:
    return cs.InstanceScores.from_long(frame, system="model", task="dataset", instance="item", score="value", **options)


def test_from_long_layout(long_frame):
    data = build(long_frame, lower_is_better=["mt"], weights={"mt": 2.0})
    assert data.systems == ("a", "b", "c") and data.tasks == ("qa", "mt")
    assert data.n_instances == {"qa": 3, "mt": 1}
    assert data.instances("qa").tolist() == [1, 2, 3] and data.instances("mt").tolist() == [1]
    assert data.offsets.tolist() == [0, 3, 4]
    assert data.n_scores == 9 and data.missing_share == pytest.approx(3 / 12)
    qa = data.task_frame("qa")
    assert qa.loc["c", 1] == 0.1 and np.isnan(qa.loc["c", 2])
    assert np.isnan(qa.loc["a", 3]) and qa.loc["c", 3] == 0.4
    assert data.task_values("mt")[:, 0].tolist() == [-30.0, -10.0, -20.0]  # oriented
    assert data.task_frame("mt")[1].tolist() == [30.0, 10.0, 20.0]  # as given
    assert data.weights.to_dict() == {"qa": 1.0, "mt": 2.0}
    assert not data.values.flags.writeable


def test_to_long_round_trip(long_frame):
    data = build(long_frame)
    again = cs.InstanceScores.from_long(data.to_long())
    assert again == data


def test_instance_ids_are_per_task():
    frame = pd.DataFrame({"system": ["a", "b", "a", "b"], "task": ["t1", "t1", "t2", "t2"],
                          "instance": [0, 0, 0, 0], "score": [1.0, 2.0, 3.0, 4.0]})
    data = cs.InstanceScores.from_long(frame)
    assert data.n_instances == {"t1": 1, "t2": 1}


def test_labels_that_print_alike_are_merged():
    frame = pd.DataFrame({"system": [1, "1", "b"], "task": ["t"] * 3, "instance": [0, 1, 0], "score": [1.0, 2.0, 3.0]})
    data = cs.InstanceScores.from_long(frame)
    assert data.systems == ("1", "b") and data.task_frame("t").loc["1"].tolist() == [1.0, 2.0]


def test_task_means_and_leaderboard(long_frame):
    data = build(long_frame, lower_is_better=["mt"])
    means = data.task_means()
    assert means.loc["a", "qa"] == pytest.approx(0.7) and means.loc["c", "qa"] == pytest.approx(0.25)
    assert means.loc["b", "mt"] == 10.0
    lb = data.to_leaderboard()
    assert lb.lower_is_better == frozenset({"mt"}) and lb.values[1, 1] == -10.0


def test_to_pairwise_feeds_pairwise_consumers(long_frame):
    data = build(long_frame)
    pairs = as_pairwise(data)
    assert pairs.source == "imputed"
    np.testing.assert_allclose(pairs.wins, cs.impute_pairwise(data).matrix.wins)
    np.testing.assert_allclose(cs.impute_pairwise(data, levels=2).matrix.wins, cs.sigma_2l(data).matrix.wins)
    assert cs.condorcet_winner(data) in (None, *data.systems)


def test_with_weights_and_describe(long_frame):
    data = build(long_frame).with_weights({"qa": 0.5})
    assert data.weights.to_dict() == {"qa": 0.5, "mt": 1.0}
    text = data.describe()
    assert "3 systems x 2 tasks, 4 instances, 9 scores" in text and "qa=0.5" in text
    assert repr(data) == "InstanceScores(3 systems x 2 tasks, 4 instances, 9 scores, 3 missing)"


def test_from_arrays():
    data = cs.InstanceScores.from_arrays(
        {"t1": [[1.0, np.nan], [2.0, 3.0]], "t2": np.array([[5.0], [4.0]])},
        systems=["a", "b"],
        instances={"t1": ["x", "y"]},
    )
    assert data.instances("t1").tolist() == ["x", "y"] and data.instances("t2").tolist() == [0]
    assert data.values.shape == (2, 3)


# ---------------------------------------------------------------------- bad input
def test_duplicate_instance_names_system_task_and_instance(long_frame):
    frame = pd.concat([long_frame, long_frame.iloc[[4]]], ignore_index=True)
    with pytest.raises(DuplicateInstanceError, match=r"system 'b' .* instance\(s\) 2 of task 'qa'") as info:
        build(frame)
    assert info.value.system == "b" and info.value.task == "qa" and info.value.instances == (2,)


def test_duplicate_instance_ids_in_arrays():
    with pytest.raises(DuplicateInstanceError, match=r"task 't' lists instance id\(s\) 'x'"):
        cs.InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, 4.0]]}, systems=["a", "b"], instances={"t": ["x", "x"]})


def test_task_with_every_system_missing(long_frame):
    frame = long_frame.copy()
    frame.loc[frame["dataset"] == "mt", "value"] = np.nan
    with pytest.raises(EmptyTaskError, match="task 'mt' has no score for any system") as info:
        build(frame)
    assert info.value.task == "mt"


def test_instance_with_every_system_missing(long_frame):
    frame = long_frame.copy()
    frame.loc[(frame["dataset"] == "qa") & (frame["item"] == 2), "value"] = np.nan
    with pytest.raises(EmptyTaskError, match=r"task 'qa': instance\(s\) 2 have no score"):
        build(frame)


def test_system_without_scores(long_frame):
    frame = pd.concat([long_frame, pd.DataFrame([["a", "qa", 3, 0.2]], columns=long_frame.columns)], ignore_index=True)
    frame.loc[frame["model"] == "c", "value"] = np.nan
    with pytest.raises(EmptySystemError, match="'c'"):
        build(frame)


def test_non_numeric_and_infinite_scores(long_frame):
    frame = long_frame.astype({"value": object})
    frame.loc[6, "value"] = "ten"
    with pytest.raises(NonNumericScoreError, match=r"task 'mt' .* 'b'.*'ten'"):
        build(frame)
    frame.loc[6, "value"] = "-"  # a missing marker is a missing score
    assert np.isnan(build(frame).task_values("mt")[1, 0])
    frame = long_frame.copy()
    frame.loc[0, "value"] = np.inf
    with pytest.raises(NonFiniteScoreError, match="task 'qa'"):
        build(frame)
    with pytest.raises(NonNumericScoreError, match="task 'qa'"):
        build(long_frame.assign(value=long_frame["value"] > 0.5))


def test_missing_columns_and_labels(long_frame):
    with pytest.raises(LeaderboardError, match="column 'instance' is not in the frame"):
        cs.InstanceScores.from_long(long_frame, system="model", task="dataset", score="value")
    frame = long_frame.copy()
    frame.loc[2, "model"] = None
    with pytest.raises(EmptyLabelError, match="system at position 3"):
        build(frame)
    with pytest.raises(TooFewSystemsError):
        build(long_frame[long_frame["model"] == "a"])
    with pytest.raises(UnknownTaskError, match="'mtt'"):
        build(long_frame, lower_is_better=["mtt"])


def test_bad_arrays():
    with pytest.raises(LeaderboardError, match=r"task 't': expected an array of shape \(2, n_instances >= 1\)"):
        cs.InstanceScores.from_arrays({"t": [[1.0, 2.0]]}, systems=["a", "b"])
    with pytest.raises(NonNumericScoreError, match="task 't'"):
        cs.InstanceScores.from_arrays({"t": [["x"], ["y"]]}, systems=["a", "b"])


# ---------------------------------------------------------------------- files
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("chunksize", [None, 0, 2])
def test_read_instances(tmp_path, long_frame, suffix, chunksize):
    path = tmp_path / f"scores{suffix}"
    frame = long_frame.assign(extra="ignored")
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, index=False)
    data = cs.read_instances(
        path, system="model", task="dataset", instance="item", score="value", lower_is_better=["mt"], chunksize=chunksize
    )
    # a CSV holds text: its instance ids are read as written ("1"), Parquet keeps their type
    expected = long_frame.assign(item=long_frame["item"].astype(str)) if suffix == ".csv" else long_frame
    assert data == build(expected, lower_is_better=["mt"])


def test_read_instances_errors(tmp_path, long_frame):
    with pytest.raises(LeaderboardError, match="file not found"):
        cs.read_instances(tmp_path / "nope.csv")
    path = tmp_path / "s.csv"
    long_frame.to_csv(path, index=False)
    with pytest.raises(LeaderboardError, match=r"no column\(s\) 'system', 'task', 'instance', 'score'"):
        cs.read_instances(path)
    with pytest.raises(InvalidOptionError, match="chunksize"):
        cs.read_instances(path, chunksize=-1)
    json_path = tmp_path / "s.json"
    json_path.write_text("[]")
    with pytest.raises(LeaderboardError, match="csv, tsv or parquet"):
        cs.read_instances(json_path)
    empty = tmp_path / "e.csv"
    empty.write_text("")
    with pytest.raises(LeaderboardError, match="empty"):
        cs.read_instances(empty)


# ---------------------------------------------------------------------- property
@st.composite
def long_frames(draw):
    n_sys = draw(st.integers(2, 4))
    rows = []
    for t in range(draw(st.integers(1, 3))):
        for k in range(draw(st.integers(1, 4))):
            for s in range(n_sys):
                if draw(st.booleans()) or s == 0:
                    rows.append((f"s{s}", f"t{t}", k, float(draw(st.integers(0, 3)))))
    frame = pd.DataFrame(rows, columns=["system", "task", "instance", "score"])
    order = draw(st.permutations(range(len(frame))))
    return frame.iloc[list(order)].reset_index(drop=True)


@given(long_frames())
def test_from_long_keeps_every_score(frame):
    assume(frame["system"].nunique() >= 2)  # one system alone: TooFewSystemsError
    data = cs.InstanceScores.from_long(frame)
    for system, task, instance, score in frame.itertuples(index=False):
        k = data.instances(task).get_loc(instance)
        assert data.task_values(task)[data.system_index(system), k] == score
    assert data.n_scores == len(frame)
