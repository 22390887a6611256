"""Many instance-level files (one per model or per task) read as one InstanceScores, aligned by (task, instance)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.cli import main
from consensus.errors import (
    DuplicateInstanceError,
    InvalidOptionError,
    LeaderboardError,
)


def long_frame(seed: int = 0, n_models: int = 6, items: int = 12) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for m in range(n_models):
        for task, kind in (("qa", "binary"), ("mt", "float"), ("lat", "float")):
            for i in range(items):
                if rng.random() < 0.2:
                    continue  # this model skipped this item
                score = float(rng.integers(0, 2)) if kind == "binary" else round(float(rng.normal()), 3)
                rows.append((f"model-{m}", task, f"{task}-{i:02d}", score))
    rng.shuffle(rows)
    return pd.DataFrame(rows, columns=["system", "task", "instance", "score"])


def write_per_model(frame: pd.DataFrame, folder: Path, fmt: str, keep_system: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for system, rows in frame.groupby("system", sort=False):
        part = rows if keep_system else rows.drop(columns="system")
        if fmt == "parquet":
            part.to_parquet(folder / f"{system}.parquet", index=False)
        else:
            part.to_csv(folder / f"{system}.csv", index=False)


def concatenated(folder: Path, by: str) -> pd.DataFrame:
    """The files' rows in sorted path order, with the file name as the `by` column."""
    parts = []
    for path in sorted(folder.iterdir()):
        part = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, dtype=str, keep_default_na=False)
        if by not in part.columns:
            part.insert(0, by, path.name.rsplit(".", 1)[0])
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    out["score"] = out["score"].astype(float)
    return out


def same(a: cs.InstanceScores, b: cs.InstanceScores) -> None:
    assert a.systems == b.systems and a.tasks == b.tasks
    assert np.array_equal(np.asarray(a.offsets), np.asarray(b.offsets))
    assert np.array_equal(a.values, b.values, equal_nan=True)
    for t in a.tasks:
        assert list(a.task_frame(t).columns) == list(b.task_frame(t).columns)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_one_file_per_model_without_a_model_column(tmp_path, fmt):
    frame = long_frame()
    write_per_model(frame, tmp_path / "logs", fmt)
    many = cs.read_instances(tmp_path / "logs", system=None, lower_is_better=["lat"], weights={"mt": 2.0})
    ref = cs.InstanceScores.from_long(concatenated(tmp_path / "logs", "system"), lower_is_better=["lat"],
                                      weights={"mt": 2.0})
    same(many, ref)
    assert many.systems == tuple(f"model-{m}" for m in range(6))  # sorted file names
    assert np.isnan(many.values).any()  # skipped items are missing, not an error
    # the pairwise sums are the same as from the long table
    np.testing.assert_array_equal(cs.sigma_l(many).matrix.wins, cs.sigma_l(ref).matrix.wins)


def test_glob_and_list_of_files_per_task_with_the_task_from_the_file_name(tmp_path):
    frame = long_frame(1)
    folder = tmp_path / "tasks"
    folder.mkdir()
    for task, rows in frame.groupby("task", sort=False):
        rows.drop(columns="task").to_parquet(folder / f"{task}.parquet", index=False)
    by_glob = cs.read_instances(str(folder / "*.parquet"), task=None)
    by_list = cs.read_instances(sorted(folder.iterdir()), task=None)
    ref = cs.InstanceScores.from_long(concatenated(folder, "task"))
    same(by_glob, ref)
    same(by_list, ref)
    assert by_glob.tasks == ("lat", "mt", "qa")


def test_mixed_formats_and_the_model_column_kept(tmp_path):
    frame = long_frame(2)
    folder = tmp_path / "mixed"
    write_per_model(frame, folder, "csv", keep_system=True)
    first = sorted(folder.iterdir())[0]
    pd.read_csv(first, dtype=str, keep_default_na=False).to_parquet(first.with_suffix(".parquet"), index=False)
    first.unlink()
    many = cs.read_instances(folder)
    assert set(many.systems) == {f"model-{m}" for m in range(6)}
    ref = cs.InstanceScores.from_long(frame)
    got = {s: many.task_frame("qa").loc[s].dropna().to_dict() for s in many.systems}
    want = {s: ref.task_frame("qa").loc[s].dropna().to_dict() for s in ref.systems}
    assert got == want


def test_ids_are_text_as_written_and_duplicates_across_files_are_errors(tmp_path):
    folder = tmp_path / "ids"
    folder.mkdir()
    (folder / "a.csv").write_text("task,instance,score\nqa,01,1\nqa,1,0\n")
    (folder / "b.csv").write_text("task,instance,score\nqa,1,1\nqa,2,1\n")
    res = cs.read_instances(folder, system=None)
    assert list(res.task_frame("qa").columns) == ["01", "1", "2"]
    (folder / "c.csv").write_text("task,instance,score\n")  # a model file without a row
    with pytest.raises(cs.errors.EmptySystemError, match="'c'"):
        cs.read_instances(folder, system=None)
    (folder / "c.csv").unlink()
    (folder / "b.csv").write_text("task,instance,score\nqa,1,1\nqa,1,0\n")
    with pytest.raises(DuplicateInstanceError, match="'b'"):
        cs.read_instances(folder, system=None)


def test_clear_errors(tmp_path):
    with pytest.raises(LeaderboardError, match="no file matches"):
        cs.read_instances(str(tmp_path / "*.parquet"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(LeaderboardError, match="has no Parquet or CSV files"):
        cs.read_instances(tmp_path / "empty")
    with pytest.raises(InvalidOptionError, match="not both"):
        cs.read_instances(tmp_path, system=None, task=None)
    with pytest.raises(InvalidOptionError, match="format= and chunksize="):
        cs.read_instances(str(tmp_path / "*.csv"), chunksize=10)


def test_progress_is_reported_per_file(tmp_path):
    write_per_model(long_frame(3, n_models=3), tmp_path / "p", "csv")
    seen: list[str] = []
    cs.read_instances(tmp_path / "p", system=None, progress=seen.append)
    assert seen[-1] == "reading scores 3/3 files" and "reading ids 1/3 files" in seen


def test_cli_reads_a_directory_with_the_model_from_the_file_name(tmp_path, capsys):
    write_per_model(long_frame(4), tmp_path / "logs", "parquet")
    code = main(["impute", str(tmp_path / "logs"), "--instances", "@file,task,instance,score", "--format", "json",
                 "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and '"model-0"' in out
