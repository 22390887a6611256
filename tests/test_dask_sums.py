"""An InstanceSource summed on Dask (files or a Dask DataFrame) equals the same scores summed in memory."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.errors import (
    DuplicateInstanceError,
    EmptySystemError,
    InvalidOptionError,
    LeaderboardError,
    UnknownTaskError,
)

from .instance_sources import (
    assert_same_confidence,
    assert_same_imputation,
    in_memory,
    in_memory_files,
    make_long,
    shuffled,
    source,
)
from .instance_sources import assert_same_everything as same_everything

dd = pytest.importorskip("dask.dataframe")

SYNC = "synchronous"


def assert_same_everything(src: cs.missing.InstanceSource, reference: cs.InstanceScores, scheduler: object = SYNC) -> None:
    same_everything(src, reference, scheduler)


# ---------------------------------------------------------------------- the three layouts
@pytest.fixture(scope="module")
def long() -> pd.DataFrame:
    return make_long(seed=7)


@pytest.fixture(scope="module")
def by_model(long, tmp_path_factory) -> tuple[object, pd.DataFrame]:
    """One Parquet file per model (rows shuffled inside); the reference is their concatenation in path order."""
    folder = tmp_path_factory.mktemp("by_model")
    pieces = []
    for k, (system, rows) in enumerate(sorted(long.groupby("system"), key=lambda kv: kv[0])):
        rows = shuffled(rows, k)
        rows.to_parquet(folder / f"{system}.parquet", index=False)
        pieces.append(rows)
    return folder, pd.concat(pieces, ignore_index=True)


@pytest.fixture(scope="module")
def by_task(long, tmp_path_factory) -> tuple[object, pd.DataFrame]:
    """One CSV per task (rows shuffled inside); the reference is their concatenation in path order."""
    folder = tmp_path_factory.mktemp("by_task")
    pieces = []
    for k, (task, rows) in enumerate(sorted(long.groupby("task"), key=lambda kv: kv[0])):
        rows = shuffled(rows, 100 + k)
        rows.to_csv(folder / f"{task}.csv", index=False)
        pieces.append(rows)
    return folder, pd.concat(pieces, ignore_index=True)


def test_parquet_directory_one_file_per_model(by_model):
    folder, reference = by_model
    assert_same_everything(source(str(folder)), in_memory(reference))


def test_parquet_list_keeps_the_given_order(by_model):
    folder, reference = by_model
    paths = sorted(folder.glob("*.parquet"), reverse=True)
    frame = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    got = cs.impute_pairwise(source(paths), scheduler=SYNC)
    want = cs.impute_pairwise(in_memory(frame))
    assert got.matrix.systems == want.matrix.systems != in_memory(reference).systems
    assert_same_imputation(got, want)


def test_csv_glob_one_file_per_task(by_task):
    folder, reference = by_task
    assert_same_everything(source(str(folder / "*.csv")), in_memory(reference))


def test_compressed_csv_is_read_with_the_in_process_bounds(by_task, tmp_path, monkeypatch):
    """A .csv.gz went to Dask's own decompression (fsspec), with no size limit or bomb check: a
    1 KB file of gigabytes filled a worker. It is now one partition read through the package's
    bounded reader, with the client's limits: the same sums, a bomb refused, a limit set by hand
    lets a very compressible file through."""
    import gzip

    from consensus.io._limits import BOMB_AFTER

    folder, reference = by_task
    packed = tmp_path / "packed"
    packed.mkdir()
    for path in sorted(folder.glob("*.csv")):
        (packed / (path.name + ".gz")).write_bytes(gzip.compress(path.read_bytes()))
    (packed / "zz.csv").write_bytes(b"system,task,instance,score\n")  # a plain file beside them: two runs of files
    assert_same_everything(source(packed), in_memory(reference))
    monkeypatch.setattr("consensus.io._opening.BOMB_AFTER", BOMB_AFTER // 16)  # the same check, sooner (CI time)
    bomb = tmp_path / "bomb"
    bomb.mkdir()
    rows = b"system,task,instance,score\n" + b"".join(b"model-%d,qa,%d,1\n" % (k % 2, k // 2) for k in range(40))
    (bomb / "a.csv.gz").write_bytes(gzip.compress(rows + b"model-0,qa,999," + b"1" * (1 << 20) + b"\n"))
    with pytest.raises(cs.errors.InputTooLargeError, match="looks like a compression bomb"):
        cs.impute_pairwise(cs.missing.InstanceSource(bomb / "a.csv.gz"), scheduler=SYNC)
    monkeypatch.setenv("CONSENSUS_MAX_INPUT_BYTES", "100k")
    with pytest.raises(cs.errors.InputTooLargeError, match="decompresses to more than 102,400 bytes"):
        cs.impute_pairwise(cs.missing.InstanceSource(bomb / "a.csv.gz"), scheduler=SYNC)
    (bomb / "a.csv.gz").write_bytes(gzip.compress(rows + b"model-0,qa,999," + b"0" * (1 << 18) + b"1\n"))
    monkeypatch.setenv("CONSENSUS_MAX_INPUT_BYTES", "4M")  # set by hand: a real file compressing 1000x is read
    got = cs.impute_pairwise(cs.missing.InstanceSource(bomb / "a.csv.gz"), scheduler=SYNC)
    assert got.matrix.systems == ("model-0", "model-1")


def test_dask_dataframe(long):
    frame = shuffled(long, 3)
    assert_same_everything(source(dd.from_pandas(frame, npartitions=3)), in_memory(frame))


def test_dask_dataframe_with_other_column_names(long):
    frame = shuffled(long, 4).rename(columns={"system": "model", "task": "dataset", "instance": "id", "score": "ok"})
    frame["extra"] = 1
    names = {"system": "model", "task": "dataset", "instance": "id", "score": "ok"}
    got = cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=4), **names), levels=2, scheduler=SYNC)
    assert_same_imputation(got, cs.impute_pairwise(in_memory(frame, **names), levels=2))


def test_task_level_data_one_instance_per_task():
    """One item per task: the in-memory sums take the task-level path, Dask the per-item one."""
    frame = shuffled(make_long(seed=11, items={f"t{k}": 1 for k in range(9)}), 5)
    frame["task"] = frame["task"].replace({"t0": "qa", "t1": "err", "t2": "nli", "t3": "mt"})
    assert in_memory(frame).values.shape[1] == 9
    assert_same_everything(source(dd.from_pandas(frame, npartitions=3)), in_memory(frame))


def test_labels_in_category_order_and_normalized(long):
    frame = shuffled(long, 6)
    order = sorted(frame["system"].unique(), reverse=True)
    frame["system"] = pd.Categorical(frame["system"], categories=order)
    got = cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=3)), scheduler=SYNC)
    assert got.matrix.systems == tuple(order) == in_memory(frame).systems

    spaced = shuffled(long, 8)
    spaced.loc[spaced.index[-40:], "task"] = " " + spaced["task"].iloc[-40:]  # " qa" is the task "qa"
    got = cs.impute_pairwise(source(dd.from_pandas(spaced, npartitions=3)), levels=2, scheduler=SYNC)
    assert_same_imputation(got, cs.impute_pairwise(in_memory(spaced), levels=2))


def test_one_partition_and_other_schedulers(long):
    frame = shuffled(long, 9)
    reference = cs.impute_pairwise(in_memory(frame), levels=2)
    for npartitions, scheduler in ((1, SYNC), (4, "threads")):
        got = cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=npartitions)), levels=2, scheduler=scheduler)
        assert_same_imputation(got, reference)


# ---------------------------------------------------------------------- errors
def test_missing_column_in_a_file_is_named(by_model, tmp_path):
    folder, _ = by_model
    for k, path in enumerate(sorted(folder.glob("*.parquet"))[:3]):
        frame = pd.read_parquet(path)
        if k == 2:
            frame = frame.rename(columns={"score": "correct"})
        frame.to_parquet(tmp_path / path.name, index=False)
    with pytest.raises(LeaderboardError, match=r"model-\d+\.parquet' has no column\(s\) 'score'"):
        cs.impute_pairwise(source(tmp_path), scheduler=SYNC)


def test_missing_column_in_a_dask_dataframe_is_named(long):
    frame = dd.from_pandas(long.drop(columns="instance"), npartitions=2)
    with pytest.raises(LeaderboardError, match=r"has no column\(s\) 'instance'"):
        cs.impute_pairwise(source(frame), scheduler=SYNC)


def test_missing_files_and_unknown_formats(tmp_path):
    with pytest.raises(LeaderboardError, match="no file matches"):
        cs.impute_pairwise(source(str(tmp_path / "*.parquet")), scheduler=SYNC)
    with pytest.raises(LeaderboardError, match="has no Parquet or CSV files"):
        cs.impute_pairwise(source(tmp_path), scheduler=SYNC)
    (tmp_path / "scores.json").write_text("{}")
    with pytest.raises(LeaderboardError, match="cannot tell the format"):
        cs.impute_pairwise(source(tmp_path / "scores.json"), scheduler=SYNC)


def test_duplicate_row_is_named(long):
    frame = shuffled(long, 10)
    row = frame[(frame["task"] == "mt") & (frame["instance"] == 3)].iloc[[0]]
    doubled = pd.concat([frame, row], ignore_index=True)  # the copy lands in another input partition
    with pytest.raises(DuplicateInstanceError, match=r"system '.+' has more than one score for instance\(s\) 3 of task 'mt'") as err:
        cs.impute_pairwise(source(dd.from_pandas(doubled, npartitions=3)), scheduler=SYNC)
    assert (err.value.system, err.value.task, err.value.instances) == (row["system"].iloc[0], "mt", (3,))


def test_unknown_task_options_and_empty_system(long):
    with pytest.raises(UnknownTaskError, match="unknown task 'errr' in lower_is_better"):
        cs.impute_pairwise(cs.missing.InstanceSource(dd.from_pandas(long, npartitions=2), lower_is_better=["errr"]), scheduler=SYNC)
    frame = pd.concat([long, pd.DataFrame({"system": ["ghost"], "task": ["qa"], "instance": [0], "score": [np.nan]})])
    with pytest.raises(EmptySystemError, match="'ghost'"):
        cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=2)), scheduler=SYNC)


def test_scheduler_needs_an_instance_source(long):
    with pytest.raises(InvalidOptionError, match="scheduler="):
        cs.impute_pairwise(in_memory(long), scheduler="threads")


# ---------------------------------------------------------------------- a real cluster
@pytest.fixture
def client(dask_cluster):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(dask_cluster) as c:
        yield c


@pytest.mark.slow
@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_local_cluster_parquet_per_model(client, tmp_path):
    long = make_long(seed=21, n_systems=30, items={"qa": 200, "nli": 200, "mt": 200, "err": 200})
    pieces = []
    for system, rows in sorted(long.groupby("system"), key=lambda kv: kv[0]):
        rows.to_parquet(tmp_path / f"{system}.parquet", index=False)
        pieces.append(rows)
    reference = in_memory(pd.concat(pieces, ignore_index=True))
    src = source(str(tmp_path / "*.parquet"))
    assert_same_imputation(cs.impute_pairwise(src), cs.impute_pairwise(reference))  # the active client
    assert_same_imputation(
        cs.impute_pairwise(source(str(tmp_path)), levels=2, scheduler=client), cs.impute_pairwise(reference, levels=2)
    )
    assert_same_confidence(cs.pairwise_confidence(src, delta=0.1), cs.pairwise_confidence(reference, delta=0.1))


@pytest.mark.slow
@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_local_scheduler_while_a_client_is_active(client, long):
    """The shuffle must not pick P2P (it needs the cluster's workers) when another scheduler is asked for."""
    frame = shuffled(long, 12)
    got = cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=3)), levels=2, scheduler=SYNC)
    assert_same_imputation(got, cs.impute_pairwise(in_memory(frame), levels=2))


@pytest.mark.slow
@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_local_cluster_carries_errors_back(client, long):
    frame = pd.concat([long, long.iloc[[5]]], ignore_index=True)
    with pytest.raises(DuplicateInstanceError) as err:
        cs.impute_pairwise(source(dd.from_pandas(frame, npartitions=3)), scheduler=client)
    assert err.value.system == long["system"].iloc[5] and err.value.task == long["task"].iloc[5]


# ---------------------------------------------------------------------- item blocks on Dask
@given(workers=st.integers(1, 6), memory=st.sampled_from([64, 2048, None]), seed=st.integers(0, 2))
def test_any_number_of_blocks_gives_the_same_sums(workers, memory, seed):
    """Blocks by an item hash (2 per worker thread), sub-blocks by the memory setting: the same sums."""
    from consensus.missing import _dask_sums, _instance_source, _item_blocks

    frame = shuffled(make_long(seed=seed, n_systems=5, items={"qa": 9, "nli": 3, "mt": 6, "err": 4}), seed)
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(_dask_sums, "_workers", lambda scheduler: workers)
        patch.setattr(_instance_source, "MIN_MEMORY", 0)
        patch.setattr(_item_blocks, "BUCKET_ITEMS", 3)
        for k, (system, rows) in enumerate(sorted(frame.groupby("system"), key=lambda kv: kv[0])):
            rows.to_csv(Path(tmp) / f"{system}.csv", index=False)
        reference = pd.concat([pd.read_csv(p) for p in sorted(Path(tmp).glob("*.csv"))], ignore_index=True)
        src = source(tmp, memory=memory)
        for levels in (1, 2):
            assert_same_imputation(cs.impute_pairwise(src, levels=levels, scheduler=SYNC),
                                   cs.impute_pairwise(in_memory(reference), levels=levels))


def test_repeated_row_across_files_names_both_and_urls_are_read(by_model, tmp_path):
    pytest.importorskip("fsspec")
    folder, reference = by_model
    with in_memory_files(folder, "dask-blocks") as url:
        assert_same_everything(source(url), in_memory(reference))
    first = sorted(folder.glob("*.parquet"))[0]
    for path in sorted(folder.glob("*.parquet")):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    pd.read_parquet(first).iloc[[2]].to_parquet(tmp_path / "zz.parquet", index=False)
    with pytest.raises(DuplicateInstanceError, match=rf"in files '.+{first.name}' and '.+zz\.parquet'"):
        cs.sigma_l(source(str(tmp_path)), scheduler=SYNC)


def test_system_from_the_file_name_on_dask(by_model, tmp_path):
    folder, reference = by_model
    for path in sorted(folder.glob("*.parquet")):
        pd.read_parquet(path).drop(columns="system").to_parquet(tmp_path / path.name, index=False)
    assert_same_everything(source(str(tmp_path), system=None), in_memory(reference))


@pytest.mark.parametrize("offset", [0, 300, 70_000, 2**33])
def test_packed_ids_of_every_width_give_the_same_sums(long, offset, tmp_path):
    """Whole-number ids travel between tasks in the smallest unsigned dtype (uint8 ... int64):
    one task's ids shifted by `offset`, the other tasks' not, so one file holds several widths."""
    from consensus.missing._dask_sums import _packed_piece

    frame = long.copy()
    frame.loc[frame["task"] == "qa", "instance"] += offset
    for system, rows in frame.groupby("system"):
        rows.to_parquet(tmp_path / f"{system}.parquet", index=False)
    reference = pd.concat([pd.read_parquet(p) for p in sorted(tmp_path.glob("*.parquet"))], ignore_index=True)
    assert_same_everything(source(str(tmp_path)), in_memory(reference))
    packed = _packed_piece(np.array([4, 4, 4]), np.array([0, 1, 1]), np.array([0, offset, 5]), np.zeros(3, np.float32))
    assert packed.systems.tolist() == [4] and packed.ids.astype(np.int64).tolist() == [0, offset, 5]
    assert packed.ids.dtype.itemsize == (1 if offset < 256 else 2 if offset < 2**16 else 4 if offset < 2**32 else 8)


class _FakeLibc:
    """Records the glibc calls of :func:`consensus.missing._dask_sums._plain_heap`."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(("trim", pad))
        return 1


def test_dask_tasks_run_with_a_plain_heap_and_give_it_back(monkeypatch):
    """Under Dask's nanny (``MALLOC_TRIM_THRESHOLD_`` set) a task raises glibc's thresholds once
    for all the worker's threads, and the last one to leave sets the given ones back and trims,
    also when it fails; without the variable nothing is called."""
    import threading

    from consensus.missing import _dask_sums as ds

    real = ds._libc
    real.cache_clear()
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert real() is None  # a plain process: nothing to change
    real.cache_clear()
    fake = _FakeLibc()
    monkeypatch.setattr(ds, "_libc", lambda: fake)
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    inside, leave = threading.Event(), threading.Event()

    def task() -> None:
        with ds._plain_heap():
            inside.set()
            leave.wait(5)

    other = threading.Thread(target=task)
    other.start()
    inside.wait(5)
    with pytest.raises(ValueError), ds._plain_heap():  # a second task, failing, while the first runs
        raise ValueError("boom")
    assert fake.calls == [("mallopt", ds._M_TRIM_THRESHOLD, 256 * 2**20), ("mallopt", ds._M_MMAP_THRESHOLD, 32 * 2**20)]
    leave.set()
    other.join(5)
    assert fake.calls[2:] == [("mallopt", ds._M_TRIM_THRESHOLD, 65536), ("mallopt", ds._M_MMAP_THRESHOLD, 128 * 2**10),
                              ("trim", 0)]
    assert ds._heap_users == 0


def test_plain_heap_on_glibc_under_the_nanny_variable():
    """A fresh process started as Dask's nanny starts a worker: glibc is found and a task runs."""
    import os
    import subprocess
    import sys

    if "CS_GNU_LIBC_VERSION" not in getattr(os, "confstr_names", {}) or not os.confstr("CS_GNU_LIBC_VERSION"):
        pytest.skip("glibc only")
    code = ("from consensus.missing import _dask_sums as ds\n"
            "with ds._plain_heap():\n    x = bytearray(50 * 2**20)\n"
            "print(ds._libc() is not None, ds._heap_users)\n")
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "0"]
