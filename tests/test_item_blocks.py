"""Instance-level files summed in-process by item blocks equal the same scores read whole, in every layout,
whatever the block size, spilled to disk or not; repeated rows name both files; the spill folder goes away."""

from __future__ import annotations

import gzip
import importlib.util
import os
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
    InvalidOptionError,
    LeaderboardError,
)
from consensus.missing import _instance_source, _item_blocks
from consensus.missing._instance_source import memory_setting
from consensus.missing._item_blocks import _streamed, block_items

from .instance_sources import (
    assert_same_everything,
    assert_same_imputation,
    in_memory,
    in_memory_files,
    make_long,
    shuffled,
    source,
)

pytest.importorskip("pyarrow")


def write_by_model(long: pd.DataFrame, folder: Path, fmt: str = "parquet") -> pd.DataFrame:
    """One file per model, rows shuffled inside; returns the rows in path order (the reference)."""
    folder.mkdir(parents=True, exist_ok=True)
    pieces = []
    for k, (system, rows) in enumerate(sorted(long.groupby("system"), key=lambda kv: kv[0])):
        rows = shuffled(rows, k)
        if fmt == "parquet":
            rows.to_parquet(folder / f"{system}.parquet", index=False)
        else:
            rows.to_csv(folder / f"{system}.csv", index=False)
        pieces.append(rows)
    return pd.concat(pieces, ignore_index=True)


@pytest.fixture(scope="module")
def long() -> pd.DataFrame:
    return make_long(seed=3)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks and spills at test sizes: buckets of 7 items, blocks of at most 2 buckets, rows spilled
    beyond 2 KB (the memory setting's floor lowered so that a tiny setting is taken as given)."""
    monkeypatch.setattr(_item_blocks, "BUCKET_ITEMS", 7)
    monkeypatch.setattr(_instance_source, "MIN_MEMORY", 0)
    return 4096


def test_parquet_per_model_files(long, tmp_path):
    reference = write_by_model(long, tmp_path)
    assert_same_everything(source(str(tmp_path)), in_memory(reference))
    assert_same_everything(source(str(tmp_path / "*.parquet")), in_memory(reference))


def test_csv_per_task_gzip_and_one_long_file(long, tmp_path):
    pieces = []
    for k, (task, rows) in enumerate(sorted(long.groupby("task"), key=lambda kv: kv[0])):
        rows = shuffled(rows, 50 + k)
        (tmp_path / f"{task}.csv.gz").write_bytes(gzip.compress(rows.to_csv(index=False).encode()))
        pieces.append(rows)
    reference = pd.concat(pieces, ignore_index=True)
    assert_same_everything(source(tmp_path), in_memory(reference))
    whole = tmp_path / "one" / "all.tsv"
    whole.parent.mkdir()
    reference.to_csv(whole, sep="\t", index=False)
    assert_same_everything(source(whole), in_memory(reference))


def test_a_list_keeps_its_order_and_fsspec_urls_are_read(long, tmp_path):
    pytest.importorskip("fsspec")
    reference = write_by_model(long, tmp_path)
    paths = sorted(tmp_path.glob("*.parquet"), reverse=True)
    frame = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    got = cs.impute_pairwise(source(paths))
    assert got.matrix.systems == in_memory(frame).systems != in_memory(reference).systems
    assert_same_imputation(got, cs.impute_pairwise(in_memory(frame)))

    with in_memory_files(tmp_path, "blocks-test") as url:
        assert_same_everything(source(url), in_memory(reference))


def test_the_same_sums_spilled_and_in_small_blocks(long, tmp_path, small_blocks):
    reference = write_by_model(long, tmp_path)
    src = source(str(tmp_path), memory=small_blocks)
    summed, moved = _streamed(src, per_task=True)
    assert moved["spilled_bytes"] > 0 and moved["blocks"] > 5  # the paths this test is about were taken
    assert moved["rows"] == len(long)
    assert_same_everything(src, in_memory(reference))


@given(bucket=st.integers(1, 40), memory=st.sampled_from([64, 1024, 4096, 10**9]), seed=st.integers(0, 3),
       fmt=st.sampled_from(["parquet", "csv"]))
def test_any_block_size_gives_the_same_sums(bucket, memory, seed, fmt):
    """Blocks of 1 item, blocks that split a task, one block for everything; spilled or kept."""
    long = make_long(seed=seed, n_systems=5, items={"qa": 9, "nli": 3, "mt": 6, "err": 4})
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(_item_blocks, "BUCKET_ITEMS", bucket)
        patch.setattr(_instance_source, "MIN_MEMORY", 0)
        patch.setattr(_item_blocks, "BLOCK_BYTES", 8 * 5 * bucket * (1 + seed % 2))
        reference = write_by_model(long, Path(tmp), fmt)
        src = source(tmp, memory=memory)
        for levels in (1, 2):
            assert_same_imputation(cs.impute_pairwise(src, levels=levels),
                                   cs.impute_pairwise(in_memory(reference), levels=levels))


def test_counts_are_exact_integers_and_scores_kept_as_read(tmp_path):
    """0/1 scores are kept in float32 (exact), others in float64: the counts are the whole-array ones."""
    long = make_long(seed=5, n_systems=6)
    long.loc[long["task"] == "mt", "score"] += 1e-9  # not a float32
    reference = write_by_model(long, tmp_path)
    got = cs.sigma_l(source(str(tmp_path)))
    want = cs.sigma_l(in_memory(reference))
    np.testing.assert_array_equal(got.matrix.counts, want.matrix.counts)
    np.testing.assert_allclose(got.matrix.wins, want.matrix.wins, rtol=1e-12, atol=1e-12)


def test_a_row_repeated_across_files_names_both(long, tmp_path):
    write_by_model(long, tmp_path)
    first = sorted(tmp_path.glob("*.parquet"))[0]
    rows = pd.read_parquet(first)
    rows.iloc[[4]].to_parquet(tmp_path / "zz-extra.parquet", index=False)
    with pytest.raises(DuplicateInstanceError, match=r"in files '.+model-\d+\.parquet' and '.+zz-extra\.parquet'") as err:
        cs.sigma_l(source(str(tmp_path)))
    row = rows.iloc[4]
    assert (err.value.system, err.value.task, err.value.instances) == (row["system"], row["task"], (row["instance"],))
    assert [Path(f).name for f in err.value.files] == [first.name, "zz-extra.parquet"]


def test_a_row_repeated_in_one_file_names_it(long, tmp_path, small_blocks):
    rows = shuffled(long, 1)
    pd.concat([rows, rows.iloc[[10]]]).to_csv(tmp_path / "all.csv", index=False)
    for memory in (small_blocks, None):  # spilled, and kept
        with pytest.raises(DuplicateInstanceError, match=r"twice in file '.+all\.csv'"):
            cs.sigma_l(source(tmp_path / "all.csv", memory=memory))


def test_the_spill_folder_is_removed_also_on_errors(long, tmp_path, monkeypatch, small_blocks):
    spill_root = tmp_path / "spill"
    spill_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spill_root))
    data = tmp_path / "data"
    write_by_model(long, data)
    summed, moved = _streamed(source(str(data), memory=small_blocks), per_task=False)
    assert moved["spilled_bytes"] > 0
    assert os.listdir(spill_root) == []
    pd.read_parquet(sorted(data.glob("*.parquet"))[0]).iloc[[0]].to_parquet(data / "zz.parquet", index=False)
    with pytest.raises(DuplicateInstanceError):
        cs.sigma_l(source(str(data), memory=small_blocks))
    assert os.listdir(spill_root) == []


def test_memory_setting():
    assert memory_setting("512MB") == 512 * 1024**2
    assert memory_setting(None) >= _instance_source.MIN_MEMORY
    assert block_items(2000, 2**30) % _item_blocks.BUCKET_ITEMS == 0
    assert block_items(10**6, 2**30) == _item_blocks.BUCKET_ITEMS  # at least one bucket
    assert block_items(2000, 2**30, cell_bytes=4) == 2 * block_items(2000, 2**30)  # float32 blocks: twice the items
    for bad in ("lots", -5, 0, True, 1.5):
        with pytest.raises(InvalidOptionError, match="memory"):
            cs.missing.InstanceSource("logs", memory=bad)


def test_errors_of_the_files_are_named(long, tmp_path):
    write_by_model(long, tmp_path)
    path = sorted(tmp_path.glob("*.parquet"))[1]
    pd.read_parquet(path).rename(columns={"score": "correct"}).to_parquet(path, index=False)
    with pytest.raises(LeaderboardError, match=rf"{path.name}' has no column\(s\) 'score'"):
        cs.sigma_l(source(str(tmp_path)))
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    with pytest.raises(LeaderboardError, match=r"cannot read '.+broken\.parquet' as parquet"):
        cs.sigma_l(source(str(tmp_path / "broken.parquet")))


def test_a_dask_dataframe_needs_dask():
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(make_long(seed=1), npartitions=2)
    with pytest.raises(InvalidOptionError, match="scheduler="):
        _streamed(source(frame), per_task=False)


def test_progress_after_each_file(long, tmp_path, capsys):
    write_by_model(long, tmp_path)
    n_files = len(list(tmp_path.glob("*.parquet")))
    seen = []
    _streamed(source(str(tmp_path)), per_task=False, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, n_files) for k in range(1, n_files + 1)]
    cs.sigma_l(source(str(tmp_path), progress=True))
    assert "consensus: reading" in capsys.readouterr().err


def write_harness_samples(out: Path, n_models: int, tasks: dict[str, int], seed: int) -> None:
    """lm-evaluation-harness --log_samples output: one directory per model, one samples file per task
    (lines in random order, a few samples missing, an error-rate metric on one task: lower is better)."""
    import json

    rng = np.random.default_rng(seed)
    for m in range(n_models):
        folder = out / f"org__model-{m:03d}"
        folder.mkdir(parents=True)
        skill = rng.normal()
        for task, n_docs in tasks.items():
            lines = []
            for doc in rng.permutation(n_docs).tolist():
                if rng.random() < 0.1:
                    continue
                ok = float(rng.random() < 1 / (1 + np.exp(-skill)))
                metric = {"ter": round(float(rng.exponential(np.exp(-skill))), 3)} if task == "mt" else {"acc": ok}
                lines.append(json.dumps({"doc_id": doc, "filter": "none", "metrics": list(metric), **metric}))
            (folder / f"samples_{task}_2024-05-01T12-00-00.000001.jsonl").write_text("\n".join(lines) + "\n")


def test_harness_samples_stream_as_read_whole(tmp_path, small_blocks):
    from consensus.formats.harness import read_harness_samples

    write_harness_samples(tmp_path, 7, {"arc_easy": 30, "hellaswag": 20, "mt": 15}, seed=2)
    metric = {"arc_easy": "acc", "hellaswag": "acc", "mt": "ter"}
    whole = read_harness_samples(tmp_path, metric=metric)
    assert whole.lower_is_better == frozenset({"mt"})  # from the metric: ter is an error rate
    for memory in (small_blocks, None):  # spilled in small blocks, and kept
        src = cs.missing.InstanceSource(tmp_path, layout="harness-samples", metric=metric, memory=memory)
        for levels in (1, 2):
            assert_same_imputation(cs.impute_pairwise(src, levels=levels), cs.impute_pairwise(whole, levels=levels))
    with pytest.raises(InvalidOptionError, match="metric= goes with layout='harness-samples'"):
        cs.missing.InstanceSource(tmp_path, layout="harness-samples")
    with pytest.raises(InvalidOptionError, match="read in this process"):
        cs.sigma_l(cs.missing.InstanceSource(tmp_path, layout="harness-samples", metric=metric), scheduler="synchronous")


def test_the_system_or_task_from_the_file_name(long, tmp_path):
    """One file per model without a model column (system=None), one per task without a task column."""
    models, tasks = tmp_path / "models", tmp_path / "tasks"
    reference = write_by_model(long, models)
    for path in models.glob("*.parquet"):
        pd.read_parquet(path).drop(columns="system").to_parquet(path, index=False)
    assert_same_everything(source(str(models), system=None), in_memory(reference))
    tasks.mkdir()
    pieces = []
    for task, rows in sorted(long.groupby("task"), key=lambda kv: kv[0]):
        rows.drop(columns="task").to_csv(tasks / f"{task}.csv.gz", index=False)
        pieces.append(rows)
    got = cs.sigma_2l(source(str(tasks), task=None))
    want = cs.sigma_2l(in_memory(pd.concat(pieces, ignore_index=True)))
    assert_same_imputation(got, want)
    for bad in ({"system": None, "task": None}, {"system": "task"}):
        with pytest.raises(InvalidOptionError):
            cs.missing.InstanceSource(str(models), **bad)


def _parquet(path: Path, systems: list[str], ids: list[object], scores: list[float]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"system": systems, "task": ["t"] * len(ids), "instance": ids, "score": scores}), path)


@pytest.mark.parametrize("first_ids, second_ids", [
    ([5, 6], [5, 6, 2**22]),            # small and large whole numbers
    ([1, 2, 3], [1.0, 2.0, 3.0, 1.5]),  # ints and whole floats are one item; 1.5 another
    ([5, 6], [5, -1]),                  # a negative id beside whole ones
    ([7, 2**41], [7, 2**41]),           # beyond the whole-number range: by value
])
def test_one_id_is_one_item_whatever_its_file_chunk_or_type(tmp_path, first_ids, second_ids):
    """Each id has one form (review: an id's code depended on the other ids of its chunk)."""
    _parquet(tmp_path / "a.parquet", ["a"] * len(first_ids), first_ids, [float(k % 2) for k in range(len(first_ids))])
    _parquet(tmp_path / "b.parquet", ["b"] * len(second_ids), second_ids, [float(k % 3 > 0) for k in range(len(second_ids))])
    want = cs.sigma_l(cs.read_instances(tmp_path))
    assert_same_imputation(cs.sigma_l(cs.missing.InstanceSource(str(tmp_path))), want)
    assert_same_imputation(cs.sigma_l(cs.missing.InstanceSource(str(tmp_path)), scheduler=None), want)
    if importlib.util.find_spec("dask") is not None:
        assert_same_imputation(cs.sigma_l(cs.missing.InstanceSource(str(tmp_path)), scheduler="synchronous"), want)


def test_a_repeated_row_is_found_whatever_the_other_ids(tmp_path):
    _parquet(tmp_path / "a.parquet", ["a", "b"], [5, 5], [1.0, 0.0])
    _parquet(tmp_path / "b.parquet", ["a", "b"], [-1, 5], [1.0, 0.0])  # (b, t, 5) again, beside an id -1
    with pytest.raises(DuplicateInstanceError, match="in files"):
        cs.sigma_l(cs.missing.InstanceSource(str(tmp_path)))


def test_a_missing_float_id_is_refused(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"system": ["a", "b"], "task": ["t", "t"], "instance": pa.array([1.5, float("nan")]),
                             "score": [1.0, 0.0]}), tmp_path / "a.parquet")
    with pytest.raises(LeaderboardError, match="an instance id is missing"):
        cs.sigma_l(cs.missing.InstanceSource(str(tmp_path)))


def test_the_reading_thread_stops_when_the_reader_fails():
    """Review: the producer blocked on a full queue once the consumer had raised, and the consumer's
    cleanup waited for it forever."""
    import threading
    import time as clock

    from consensus.missing._source_rows import _prefetched

    before = threading.active_count()
    with pytest.raises(RuntimeError, match="stop"):
        for k in _prefetched(iter(range(50)), depth=2):
            clock.sleep(0.05)
            if k == 1:
                raise RuntimeError("stop")
    assert threading.active_count() == before


def test_the_harness_layout_names_models_and_tasks_itself(tmp_path):
    with pytest.raises(InvalidOptionError, match="names its models and tasks itself"):
        cs.missing.InstanceSource(tmp_path, layout="harness-samples", metric="acc", system=None)
    with pytest.raises(InvalidOptionError, match="pandas DataFrame is already in memory"):
        cs.sigma_l(cs.missing.InstanceSource(pd.DataFrame({"system": ["a"]})))


def test_a_glob_over_folders_reads_files_in_the_order_of_read_instances(tmp_path):
    for folder, system in (("m", "A"), ("m-1", "B")):
        (tmp_path / folder).mkdir()
        _parquet(tmp_path / folder / "s.parquet", [system] * 3, [1, 2, 3], [1.0, 0.0, 1.0] if system == "A" else [0.0, 1.0, 1.0])
    pattern = str(tmp_path / "*" / "s.parquet")
    assert cs.sigma_l(cs.missing.InstanceSource(pattern)).matrix.systems == cs.read_instances(pattern).systems == ("A", "B")


def test_a_directory_with_files_it_cannot_read_is_an_error_not_a_silent_skip(long, tmp_path):
    write_by_model(long, tmp_path)
    (tmp_path / "extra.csv.bz2").write_bytes(b"BZh9")  # read_instances would read it
    (tmp_path / "notes.md").write_text("not an instance file")  # nobody reads it
    with pytest.raises(LeaderboardError, match=r"does not read: 'extra\.csv\.bz2'"):
        cs.sigma_l(source(str(tmp_path)))


@pytest.mark.parametrize("scheduler", [None, "synchronous"])
def test_empty_instances_and_tasks_are_named_as_in_memory(tmp_path, small_blocks, scheduler):
    """A task spans blocks: an unscored instance is named as such, a task with no score as a task."""
    if scheduler is not None:
        pytest.importorskip("dask.dataframe")
    n = 30
    rows = pd.DataFrame({"system": ["a"] * n + ["b"] * n, "task": "qa", "instance": list(range(n)) * 2,
                         "score": [float(k % 2) for k in range(2 * n)]})
    rows.loc[rows["instance"] == 17, "score"] = np.nan
    for name, frame in (("one", rows), ("two", rows.assign(task=np.where(rows["task"] == "qa", "nli", "qa"),
                                                            score=np.where(rows["task"] == "qa", np.nan, 0.0)))):
        folder = tmp_path / name
        folder.mkdir()
        frame.to_parquet(folder / "all.parquet", index=False)
        with pytest.raises(cs.errors.EmptyTaskError) as want:
            cs.read_instances(folder / "all.parquet")
        with pytest.raises(cs.errors.EmptyTaskError) as got:
            cs.sigma_l(cs.missing.InstanceSource(str(folder), memory=small_blocks), scheduler=scheduler)
        assert (got.value.task, got.value.instances) == (want.value.task, want.value.instances)


def test_local_parquet_files_are_scanned_by_pyarrow_threads_in_file_order(long, tmp_path, monkeypatch):
    """Local Parquet files of one schema go through pyarrow's dataset scanner (its own threads), in
    file order: the same systems in the same order and the same sums as the files read one by one."""
    from consensus.missing import _source_rows

    reference = write_by_model(long, tmp_path)
    files = [(str(p), "parquet") for p in sorted(tmp_path.glob("*.parquet"))]
    columns = ["system", "task", "instance", "score"]
    scanned = list(_source_rows.parquet_scan(files, columns, ("system", "task"), budget=1))
    assert [k for k, batch in scanned if batch is None] == list(range(len(files)))  # each file once, in order
    one_by_one = [b for path, fmt in files for b in _source_rows._frames(path, fmt, columns, labels=("system", "task"))]
    assert [b for _, b in scanned if b is not None] == one_by_one
    calls = []
    monkeypatch.setattr(_item_blocks, "parquet_scan", lambda *a, **k: calls.append(1) or _source_rows.parquet_scan(*a, **k))
    assert_same_everything(source(str(tmp_path)), in_memory(reference))
    assert calls


def test_files_of_other_schemas_or_formats_are_read_one_by_one(tmp_path):
    from consensus.missing._source_rows import parquet_scan

    columns = ["system", "task", "instance", "score"]
    _parquet(tmp_path / "a.parquet", ["a", "a"], [1, 2], [1.0, 0.0])
    _parquet(tmp_path / "b.parquet", ["b", "b"], ["1", "2"], [0.0, 1.0])  # text ids: another type
    assert parquet_scan([(str(tmp_path / "a.parquet"), "parquet")], columns, ("system", "task"), 10**6) is not None
    assert parquet_scan([(str(tmp_path / f"{s}.parquet"), "parquet") for s in "ab"], columns, (), 10**6) is None
    pd.DataFrame({"system": ["c"], "task": ["t"], "instance": [1], "score": [1.0]}).to_csv(tmp_path / "c.csv", index=False)
    assert parquet_scan([(str(tmp_path / "a.parquet"), "parquet"), (str(tmp_path / "c.csv"), "csv")], columns, (), 10**6) is None
    assert parquet_scan([(str(tmp_path / "a.parquet"), "parquet")], columns + ["extra"], (), 10**6) is None


def test_a_page_that_does_not_decode_names_its_file(tmp_path):
    """A file whose footer reads but whose data does not: a LeaderboardError naming it, on one line
    (scanned or read one by one)."""
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    for s in "abc":
        _parquet(tmp_path / f"{s}.parquet", [s] * 500, list(range(500)), rng.random(500).tolist())
    path = tmp_path / "b.parquet"
    data = bytearray(path.read_bytes())
    start = pq.ParquetFile(path).metadata.row_group(0).column(3).data_page_offset
    data[start + 30 : start + 300] = b"\xff" * 270  # the score column's page header and data
    path.write_bytes(bytes(data))
    for files in (str(tmp_path), str(path)):
        with pytest.raises(LeaderboardError, match=r"cannot read '.+b\.parquet' as parquet: [^\n]+$"):
            cs.sigma_l(source(files))


@pytest.mark.parametrize("scores", [[0.0, 1.0], [0.1, 0.7]])
def test_dense_blocks_are_float32_only_when_every_score_is(tmp_path, monkeypatch, scores):
    """0/1 scores (exactly float32) are summed from float32 blocks, other scores from float64 ones;
    the sums equal the in-memory ones either way."""
    seen = []
    real = _item_blocks._block_sums
    monkeypatch.setattr(_item_blocks, "_block_sums", lambda *a: seen.append(a[-1][0].dtype) or real(*a))
    for k, system in enumerate("abc"):
        _parquet(tmp_path / f"{system}.parquet", [system] * 4, [1, 2, 3, 4], [scores[(k + j) % 2] for j in range(4)])
    assert_same_imputation(cs.sigma_l(cs.missing.InstanceSource(str(tmp_path))), cs.sigma_l(cs.read_instances(tmp_path)))
    assert set(seen) == {np.dtype(np.float32 if scores == [0.0, 1.0] else np.float64)}
