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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidOptionError

__all__ = ["InstanceSource"]


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
        Column names.
    lower_is_better : iterable of str
        Tasks where a lower score is better.
    weights : mapping, optional
        Task -> weight (unlisted tasks weigh 1).
    memory : int or str, optional
        Files summed in-process (no ``scheduler=``): the memory setting that sizes the rows
        kept before spilling to disk and the item blocks, in bytes or as ``"2GB"``; default a
        quarter of the available memory (see :mod:`consensus.missing._item_blocks`).

    Examples
    --------
    >>> InstanceSource("logs/*.parquet", score="correct")
    InstanceSource('logs/*.parquet', score='correct')
    """

    data: Any
    system: str = "system"
    task: str = "task"
    instance: str = "instance"
    score: str = "score"
    lower_is_better: tuple[str, ...] = ()
    weights: Mapping[str, float] | None = field(default=None)
    memory: int | str | None = None

    def __post_init__(self) -> None:
        columns = [self.system, self.task, self.instance, self.score]
        if not all(isinstance(c, str) and c for c in columns) or len(set(columns)) != 4:
            raise InvalidOptionError(f"system, task, instance and score must be four different column names, got {columns}")
        lower = self.lower_is_better
        if isinstance(lower, str) or not isinstance(lower, Iterable):
            raise InvalidOptionError(f"lower_is_better must be a list of task names, got {lower!r}")
        object.__setattr__(self, "lower_is_better", tuple(str(t) for t in lower))
        if self.weights is not None and not isinstance(self.weights, Mapping):
            raise InvalidOptionError(f"weights must be a mapping task -> weight, got {type(self.weights).__name__}")
        if self.memory is not None:
            from ._item_blocks import memory_setting

            memory_setting(self.memory)  # a clear error now, not after the files are read

    def __repr__(self) -> str:
        shown = repr(self.data) if isinstance(self.data, (str, list, tuple)) else type(self.data).__name__
        extra = [f"{k}={getattr(self, k)!r}" for k in ("system", "task", "instance", "score")
                 if getattr(self, k) != k]
        return f"InstanceSource({', '.join([shown, *extra])})"
