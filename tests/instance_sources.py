"""Instance-level scores in long form, written as files, and the checks that two ways of summing them agree
(shared by the in-process item-block tests and the Dask tests)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

import consensus as cs

LOWER = ("err",)
WEIGHTS = {"qa": 2.0, "nli": 0.5, "mt": 1.5}  # err weighs 1


def make_long(seed: int = 0, n_systems: int = 8, items: dict[str, int] | None = None) -> pd.DataFrame:
    """Long instance scores: 0/1 tasks (qa, nli), continuous ones (mt; err, lower is better),
    each system missing 10-30% of its items (every item keeps at least one score)."""
    rng = np.random.default_rng(seed)
    items = items or {"qa": 40, "nli": 30, "mt": 25, "err": 20}
    systems = np.array([f"model-{k:02d}" for k in rng.permutation(n_systems)])
    skill = rng.normal(size=n_systems)
    absent = rng.uniform(0.1, 0.3, size=n_systems)
    parts = []
    for task, n_items in items.items():
        for i in range(n_items):
            if task == "mt":
                score = np.round(rng.normal(skill, 1.0), 2)
            elif task == "err":
                score = np.round(rng.exponential(np.exp(-skill)), 3)
            else:
                score = (rng.random(n_systems) < 1.0 / (1.0 + np.exp(-skill))).astype(float)
            present = rng.random(n_systems) >= absent
            if not present.any():
                present[rng.integers(n_systems)] = True
            parts.append(pd.DataFrame({"system": systems[present], "task": task, "instance": i, "score": score[present]}))
    return pd.concat(parts, ignore_index=True)


def shuffled(frame: pd.DataFrame, seed: int) -> pd.DataFrame:
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def in_memory(frame: pd.DataFrame, **options: object) -> cs.InstanceScores:
    return cs.InstanceScores.from_long(frame, lower_is_better=LOWER, weights=WEIGHTS, **options)


def source(data: object, **options: object) -> cs.missing.InstanceSource:
    return cs.missing.InstanceSource(data, lower_is_better=LOWER, weights=WEIGHTS, **options)


def assert_same_imputation(got: object, want: object) -> None:
    assert got.matrix.systems == want.matrix.systems
    assert got.ranking == want.ranking
    assert got.n_rankings == want.n_rankings
    assert got.tasks == want.tasks
    np.testing.assert_allclose(got.matrix.wins, want.matrix.wins, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got.matrix.counts, want.matrix.counts)
    np.testing.assert_allclose(got.score_values, want.score_values, rtol=1e-12, atol=1e-12)
    if want.task_score_values is not None:
        np.testing.assert_allclose(got.task_score_values, want.task_score_values, rtol=1e-12, atol=1e-12)


def assert_same_confidence(got: object, want: object) -> None:
    assert got.order == want.order
    assert got.ranking == want.ranking
    np.testing.assert_allclose(got.estimate, want.estimate, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.half_width, want.half_width, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got.counts, want.counts)


def assert_same_everything(src: cs.missing.InstanceSource, reference: cs.InstanceScores, scheduler: object = None) -> None:
    for levels in (1, 2):
        assert_same_imputation(
            cs.impute_pairwise(src, levels=levels, scheduler=scheduler), cs.impute_pairwise(reference, levels=levels)
        )
    assert_same_confidence(
        cs.pairwise_confidence(src, delta=0.1, scheduler=scheduler), cs.pairwise_confidence(reference, delta=0.1)
    )


@contextlib.contextmanager
def in_memory_files(folder: Path, name: str) -> Iterator[str]:
    """The Parquet files of `folder` copied to fsspec's memory filesystem: yields their glob URL."""
    import fsspec

    memory = fsspec.filesystem("memory")
    for path in sorted(folder.glob("*.parquet")):
        memory.pipe(f"/{name}/{path.name}", path.read_bytes())
    try:
        yield f"memory://{name}/*.parquet"
    finally:
        memory.rm(f"/{name}", recursive=True)
