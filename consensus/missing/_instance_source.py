"""Instance-level scores that stay where they are: a path, a glob or a Dask DataFrame, summed in place.

An :class:`InstanceSource` names long-format instance scores (one row per system, task,
instance) that are not loaded into an :class:`~consensus.InstanceScores`: a Dask DataFrame,
or Parquet/CSV files (a directory, a glob, a list of paths, or any fsspec URL the user's
environment can open). :func:`consensus.impute_pairwise`, :func:`~consensus.sigma_l`,
:func:`~consensus.sigma_2l` and :func:`~consensus.pairwise_confidence` accept it with
``scheduler=`` and compute the pairwise sums as a map-reduce over partitions
(:mod:`consensus.missing._dask_sums`, the ``dask`` extra). Nothing here imports Dask.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidOptionError
from ..io._limits import available_memory, parse_size

__all__ = ["InstanceSource", "memory_setting", "MIN_MEMORY", "LAYOUTS"]

#: The layouts of :class:`InstanceSource`.
LAYOUTS = ("long", "harness-samples")

#: The smallest memory setting (a smaller one is raised to this).
MIN_MEMORY = 64 * 1024**2
#: Memory setting when the available memory cannot be told.
_FALLBACK_MEMORY = 2 * 1024**3


@dataclass(frozen=True)
class InstanceSource:
    """Long instance-level scores to be summed where they are (see the module notes).

    Parameters
    ----------
    data : dask.dataframe.DataFrame, str, Path or list of them
        A Dask DataFrame with the four columns, or Parquet/CSV files: a directory (every
        ``*.parquet`` / ``*.pq`` / ``*.csv`` inside), a glob (``"logs/*.parquet"``), a list of
        paths, or fsspec URLs (``"s3://bucket/logs/*.parquet"``, when the environment has the
        filesystem installed).
    system, task, instance, score : str
        Column names. Files only: ``system=None`` (``task=None``) takes each file's name,
        without its extension, as its system (task): one file per model (per task) with no
        such column, as :func:`consensus.read_instances`.
    lower_is_better : iterable of str
        Tasks where a lower score is better.
    weights : mapping, optional
        Task -> weight (unlisted tasks weigh 1).
    memory : int or str, optional
        Files summed in-process (no ``scheduler=``): the memory setting that sizes the rows
        kept before spilling to disk and the item blocks, in bytes or as ``"2GB"``; default a
        quarter of the available memory (see :mod:`consensus.missing._item_blocks`).
    progress : bool, default=False
        Files summed in-process: show a progress bar of the files read (tqdm, on stderr).
        On Dask, use Dask's own (``distributed.progress``, the dashboard).
    layout : {"long", "harness-samples"}, default="long"
        ``"long"``: files (or a Dask DataFrame) with the four columns. ``"harness-samples"``:
        lm-evaluation-harness ``--log_samples`` output (`data` its ``--output_path``, one
        model's directory, a glob or a list of ``samples_*.jsonl`` files), read as
        :func:`consensus.formats.harness.read_harness_samples` reads it (model, task,
        ``doc_id``, the sample's `metric`), one file at a time, in-process only; the
        metric's direction marks lower-is-better tasks.
    metric : str or mapping, optional
        ``layout="harness-samples"``: the per-sample metric (``"acc"``, ``"exact_match,strict-match"``,
        or task -> metric).

    Examples
    --------
    >>> InstanceSource("logs/*.parquet", score="correct")
    InstanceSource('logs/*.parquet', score='correct')
    """

    data: Any
    system: str | None = "system"
    task: str | None = "task"
    instance: str = "instance"
    score: str = "score"
    lower_is_better: tuple[str, ...] = ()
    weights: Mapping[str, float] | None = field(default=None)
    memory: int | str | None = None
    progress: bool = False
    layout: str = "long"
    metric: str | Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise InvalidOptionError(f"layout must be one of {', '.join(map(repr, LAYOUTS))}, got {self.layout!r}")
        if (self.layout == "harness-samples") != (self.metric is not None):
            raise InvalidOptionError("metric= goes with layout='harness-samples' (the per-sample metric to read), "
                                     "and only with it")
        if self.layout == "harness-samples" and None in (self.system, self.task):
            raise InvalidOptionError("layout='harness-samples' names its models and tasks itself: "
                                     "leave system= and task= as they are")
        columns = [c for c in (self.system, self.task, self.instance, self.score) if c is not None]
        if self.system is None and self.task is None:
            raise InvalidOptionError("system=None and task=None together: a file names a system or a task, not both")
        if not all(isinstance(c, str) and c for c in columns) or len(set(columns)) != len(columns) or \
                self.instance is None or self.score is None:
            raise InvalidOptionError(f"system, task, instance and score must be different column names, got {columns}")
        if None in (self.system, self.task) and not isinstance(self.data, (str, os.PathLike, list, tuple)):
            raise InvalidOptionError("system=None / task=None take the name from each file: they need files, "
                                     "not a Dask DataFrame")
        lower = self.lower_is_better
        if isinstance(lower, str) or not isinstance(lower, Iterable):
            raise InvalidOptionError(f"lower_is_better must be a list of task names, got {lower!r}")
        object.__setattr__(self, "lower_is_better", tuple(str(t) for t in lower))
        if self.weights is not None and not isinstance(self.weights, Mapping):
            raise InvalidOptionError(f"weights must be a mapping task -> weight, got {type(self.weights).__name__}")
        if self.memory is not None:
            memory_setting(self.memory)  # a clear error now, not after the files are read

    def __repr__(self) -> str:
        shown = repr(self.data) if isinstance(self.data, (str, list, tuple)) else type(self.data).__name__
        extra = [f"{k}={getattr(self, k)!r}" for k in ("system", "task", "instance", "score")
                 if getattr(self, k) != k]
        return f"InstanceSource({', '.join([shown, *extra])})"


def memory_setting(memory: int | str | None) -> int:
    """The memory setting in bytes: `memory` as given, else a quarter of the available memory.

    Parameters
    ----------
    memory : int, str or None
        Bytes, or a size such as ``"512MB"`` / ``"2GiB"``; None: a quarter of
        :func:`~consensus.io._limits.available_memory` (2 GiB when it cannot be told).

    Returns
    -------
    int
        At least :data:`MIN_MEMORY`.

    Raises
    ------
    InvalidOptionError
        `memory` is not a size.

    Examples
    --------
    >>> memory_setting("1GiB")
    1073741824
    >>> memory_setting(1) == MIN_MEMORY
    True
    """
    if memory is None:
        available = available_memory()
        return max(MIN_MEMORY, available // 4 if available is not None else _FALLBACK_MEMORY)
    if isinstance(memory, bool) or not isinstance(memory, (int, str)):
        raise InvalidOptionError(f"memory must be a number of bytes or a size such as '2GB', got {memory!r}")
    try:
        value = parse_size(memory) if isinstance(memory, str) else int(memory)
    except ValueError as exc:
        raise InvalidOptionError(f"memory={memory!r} is not a size: {exc}") from None
    if value <= 0:
        raise InvalidOptionError(f"memory must be positive, got {memory!r}")
    return max(MIN_MEMORY, value)
