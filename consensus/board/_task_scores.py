"""TaskScores: what task-level and instance-level score tables share (weights, directions, lookups)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..errors import UnknownSystemError, UnknownTaskError
from ._docs import SECTIONS

__all__ = ["TaskScores"]


class TaskScores:
    """Accessors shared by task-level and instance-level score tables.

    Subclasses define ``systems``, ``tasks`` and the slots ``_weights`` (a Series over
    tasks) and ``_lower`` (a frozenset of lower-is-better tasks).
    """

    __slots__ = ()
    _weights: pd.Series
    _lower: frozenset[str]

    if TYPE_CHECKING:
        # Declared read-only (subclasses define them as properties); nothing at runtime.
        @property
        def systems(self) -> tuple[str, ...]: ...

        @property
        def tasks(self) -> tuple[str, ...]: ...

    @property
    def weights(self) -> pd.Series:
        """Task weights as given (default 1)."""
        return self._weights.copy()

    @property
    def weight_array(self) -> np.ndarray:
        """Task weights as a float64 array in task order (a fresh copy: far cheaper than
        :attr:`weights` in a loop)."""
        return np.array(self._weights.to_numpy(dtype=np.float64), dtype=np.float64, copy=True)

    @property
    def normalized_weights(self) -> pd.Series:
        """Task weights divided by their sum."""
        return self._weights / float(self._weights.sum())

    @property
    def lower_is_better(self) -> frozenset[str]:
        """Tasks where a lower score is better."""
        return self._lower

    @fill_doc(SECTIONS)
    def system_index(self, system: str) -> int:
        """Row position of `system`; :class:`UnknownSystemError` lists close names.

        Parameters
        ----------
        {system}

        Returns
        -------
        int
            0-based position of `system` in :attr:`systems`.

        Raises
        ------
        UnknownSystemError
            If `system` is not a system of the table; the message lists close names.

        Examples
        --------
        >>> import consensus as cs
        >>> cs.load_example("votenrank-toy").system_index("C")
        2
        """
        try:
            return self.systems.index(system)
        except ValueError:
            raise UnknownSystemError(system, self.systems) from None

    @fill_doc(SECTIONS)
    def task_index(self, task: str) -> int:
        """Column position of `task`; :class:`UnknownTaskError` lists close names.

        Parameters
        ----------
        {task}

        Returns
        -------
        int
            0-based position of `task` in :attr:`tasks`.

        Raises
        ------
        {unknown_task}

        Examples
        --------
        >>> import consensus as cs
        >>> cs.load_example("votenrank-toy").task_index("t2")
        1
        """
        try:
            return self.tasks.index(task)
        except ValueError:
            raise UnknownTaskError(task, self.tasks) from None
