"""Results of the missing-score methods: imputed pairwise matrices, the mean baseline, confidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from ..errors import InvalidOptionError
from .base import (
    Display,
    Displayed,
    FirstTierWinners,
    Tiers,
    jsonable,
    ranked_facts,
    readonly_array,
    scored_table,
    series,
)

__all__ = ["ImputationResult", "MeanBaselineResult", "PairwiseConfidence"]


@dataclass(frozen=True, slots=True, repr=False)
class ImputationResult(FirstTierWinners):
    """The imputed pairwise matrix of a leaderboard with missing scores and its Borda ranking.

    Returned by :func:`consensus.impute_pairwise` (and :func:`consensus.sigma_l`,
    :func:`consensus.sigma_2l`).

    Attributes
    ----------
    method : str
        ``"sigma_l"`` (one level) or ``"sigma_2l"`` (two levels).
    levels : int
        1 or 2.
    matrix : PairwiseMatrix
        ``source="imputed"``. Levels 1: ``wins`` = the weighted sum of the compatible-ranking
        matrices M, ``counts`` = z (tasks or instances scoring both systems). Levels 2:
        ``wins`` = pairwise matrix of the per-task rankings, ``counts`` = tasks with a direct
        comparison. ``ties`` is zero: tied and unscored pairs are already split in ``wins``.
    score_values : numpy.ndarray
        Borda score ``sum_j wins[i, j]`` per system, in input order (read-only); see
        :attr:`scores`.
    ranking : tuple of tuple of str
        Tie groups, best first (within a group, input order).
    n_rankings : int
        Partial rankings summed (levels 1: tasks or instances) or task rankings (levels 2).
    tasks : tuple of str
        Levels 2: the tasks of :attr:`task_scores`; empty otherwise.
    task_score_values : numpy.ndarray or None
        Levels 2: systems x tasks Borda scores (read-only); see :attr:`task_scores`.
    """

    json_command: ClassVar[str] = "impute"
    json_key: ClassVar[str] = "imputation"

    method: str
    levels: int
    matrix: Any  # PairwiseMatrix (frozen arrays)
    score_values: np.ndarray
    ranking: Tiers
    n_rankings: int
    tasks: tuple[str, ...] = ()
    task_score_values: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        object.__setattr__(self, "score_values", readonly_array(self.score_values, np.float64))
        object.__setattr__(self, "tasks", tuple(self.tasks))
        if self.task_score_values is not None:
            object.__setattr__(self, "task_score_values", readonly_array(self.task_score_values, np.float64))

    @property
    def systems(self) -> tuple[str, ...]:
        """Systems in input order."""
        return tuple(self.matrix.systems)

    @property
    def scores(self) -> pd.Series:
        """Borda score ``sum_j wins[i, j]`` per system, in input order (a fresh Series)."""
        return series(self.score_values, self.systems, "score")

    @property
    def task_scores(self) -> pd.DataFrame | None:
        """Levels 2: Borda score of each system on each task (row sums of the task's summed
        matrix, unweighted), systems x tasks; None for levels 1. A fresh frame."""
        if self.task_score_values is None:
            return None
        return pd.DataFrame(
            np.array(self.task_score_values),
            index=pd.Index(self.systems, dtype=object),
            columns=pd.Index(self.tasks, dtype=object),
        )

    @property
    def counts(self) -> np.ndarray:
        """``matrix.counts``: direct comparisons per pair."""
        return self.matrix.counts

    def to_pairwise(self) -> Any:
        """The imputed :class:`PairwiseMatrix` (so ``kemeny(result)`` works).

        Returns
        -------
        PairwiseMatrix
        """
        return self.matrix

    def to_frame(self) -> pd.DataFrame:
        """A table in ranking order: ``score``, ``position`` (1 + systems above) and ``tier``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import consensus as cs
        >>> cs.impute_pairwise(cs.load_example("votenrank-toy")).to_frame()
           score  position  tier
        B    9.0         1     1
        C    8.0         2     2
        D    7.0         3     3
        A    6.0         4     4
        """
        return scored_table(self)

    def _display(self) -> Display:
        return (f"ImputationResult({self.method}): {len(self.systems)} systems",
                ranked_facts(self.ranking, status=f"{self.n_rankings} rankings summed"), self.to_frame())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``method``, ``levels``, ``scores``, ``ranking``, ``n_rankings``, ``systems``,
            ``wins``, ``counts`` (and ``task_scores``: task -> per-system list, levels 2).
        """
        out = {
            "method": self.method,
            "levels": self.levels,
            "scores": {s: jsonable(v) for s, v in zip(self.systems, self.score_values.tolist())},
            "ranking": [list(g) for g in self.ranking],
            "n_rankings": self.n_rankings,
            "systems": list(self.systems),
            "wins": jsonable(self.matrix.wins),
            "counts": jsonable(self.matrix.counts),
        }
        if self.task_score_values is not None:
            out["task_scores"] = {t: jsonable(self.task_score_values[:, k]) for k, t in enumerate(self.tasks)}
        return out


@dataclass(frozen=True, slots=True, repr=False)
class MeanBaselineResult(FirstTierWinners):
    """The mean baseline ``sigma_mu`` that ignores missing scores (Himmi et al. sec. 2.4).

    Attributes
    ----------
    systems : tuple of str
        Input order.
    score_values : numpy.ndarray
        Weighted mean of each system's available (oriented) scores (read-only); see
        :attr:`scores`.
    ranking : tuple of tuple of str
        Tie groups, best first.
    coverage_values : numpy.ndarray
        Share of the total task weight on which each system is scored; see :attr:`coverage`.
    method : str
        ``"mean"``.
    """

    systems: tuple[str, ...]
    score_values: np.ndarray
    ranking: Tiers
    coverage_values: np.ndarray
    method: str = "mean"

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        object.__setattr__(self, "score_values", readonly_array(self.score_values, np.float64))
        object.__setattr__(self, "coverage_values", readonly_array(self.coverage_values, np.float64))

    @property
    def scores(self) -> pd.Series:
        """Weighted mean of each system's available scores, input order (a fresh Series)."""
        return series(self.score_values, self.systems, "score")

    @property
    def coverage(self) -> pd.Series:
        """Share of the total task weight on which each system is scored (a fresh Series)."""
        return series(self.coverage_values, self.systems, "coverage")

    def to_frame(self) -> pd.DataFrame:
        """``score``, ``position``, ``tier`` and ``coverage`` in ranking order.

        Returns
        -------
        pandas.DataFrame
        """
        table = scored_table(self)
        table["coverage"] = self.coverage.reindex(table.index).to_numpy()
        return table

    def _display(self) -> Display:
        low = int((self.coverage_values < 0.5).sum())
        status = f"coverage {self.coverage_values.min():.0%} to {self.coverage_values.max():.0%}" + (
            f", {low} system(s) below 50%" if low else "")
        return f"MeanBaselineResult: {len(self.systems)} systems", ranked_facts(self.ranking, status=status), \
            self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: ``method``, ``scores``, ``ranking``, ``coverage``.

        Returns
        -------
        dict
        """
        return {
            "method": self.method,
            "scores": {s: jsonable(v) for s, v in zip(self.systems, self.score_values.tolist())},
            "ranking": [list(g) for g in self.ranking],
            "coverage": {s: jsonable(v) for s, v in zip(self.systems, self.coverage_values.tolist())},
        }


_CONFIDENCE_MATRICES = ("estimate", "half_width", "lower", "upper", "confident", "counts", "distance")


@dataclass(frozen=True, slots=True, repr=False)
class PairwiseConfidence(Displayed):
    """Hoeffding confidence on each pairwise comparison (Himmi et al. sec. 2.3, Figure 6).

    Every matrix is indexed by :attr:`order` (the ``sigma_l`` ranking, best first), so the
    upper triangle holds "a better-ranked system against a worse-ranked one", as in the
    paper's heatmap.

    Attributes
    ----------
    order : tuple of str
        Systems in ``sigma_l`` order (ties in input order; see ``ranking``).
    ranking : tuple of tuple of str
        The ``sigma_l`` tie groups.
    estimate : ndarray (n, n)
        ``p_ij``: share of the direct comparisons won by ``i`` (ties 1/2); NaN if none.
    half_width : ndarray (n, n)
        ``c_ij = sqrt(-log(delta) / (2 z_ij))``; ``inf`` if never compared.
    counts : ndarray (n, n)
        ``z_ij``: number of tasks or instances scoring both.
    delta : float
        Error level of each one-sided claim.
    """

    json_command: ClassVar[str] = "impute"
    json_key: ClassVar[str] = "confidence"

    order: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    estimate: Any
    half_width: Any
    counts: Any
    delta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        for name in ("estimate", "half_width", "counts"):
            object.__setattr__(self, name, readonly_array(getattr(self, name), float))

    @property
    def lower(self) -> Any:
        """``max(estimate - half_width, 0)`` (NaN on the diagonal and for pairs never compared)."""
        with np.errstate(invalid="ignore"):
            return np.maximum(self.estimate - self.half_width, 0.0)

    @property
    def upper(self) -> Any:
        """``min(estimate + half_width, 1)`` (a share never exceeds 1)."""
        with np.errstate(invalid="ignore"):
            return np.minimum(self.estimate + self.half_width, 1.0)

    @property
    def confident(self) -> Any:
        """Boolean matrix: ``i`` beats ``j`` with confidence ``1 - delta`` (``lower > 1/2``)."""
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(self.lower, nan=-np.inf) > 0.5

    @property
    def distance(self) -> Any:
        """How far the interval lies above 1/2 (``lower - 1/2`` where confident, else 0): the
        colour scale of the paper's Figure 6."""
        return np.where(self.confident, self.lower - 0.5, 0.0)

    @property
    def n_confident(self) -> int:
        """Number of ordered pairs ``(i, j)`` where ``i`` confidently beats ``j``."""
        return int(self.confident.sum())

    def matrix(self, what: str = "confident") -> Any:
        """One matrix as a frame labelled by :attr:`order`: ``estimate``, ``half_width``,
        ``lower``, ``upper``, ``confident``, ``counts`` or ``distance``.

        Parameters
        ----------
        what : str, default="confident"
            The matrix (an attribute or property of the same name).

        Returns
        -------
        pandas.DataFrame
            Rows and columns in :attr:`order`; row ``i``, column ``j`` is about ``i``
            against ``j``.

        Raises
        ------
        InvalidOptionError
            If `what` is not one of the names above.

        Examples
        --------
        >>> import consensus as cs
        >>> conf = cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=0.5)
        >>> conf.matrix("counts").loc["B"].tolist()
        [0.0, 5.0, 5.0, 5.0]
        """
        if what not in _CONFIDENCE_MATRICES:
            raise InvalidOptionError(f"unknown matrix {what!r}; use one of {', '.join(_CONFIDENCE_MATRICES)}")
        idx = pd.Index(self.order, dtype=object)
        return pd.DataFrame(getattr(self, what), index=idx, columns=idx)

    def to_frame(self) -> Any:
        """One row per ordered pair ``(system, other)``, ``system != other``, in :attr:`order`:
        ``estimate``, ``half_width``, ``lower``, ``upper``, ``comparisons`` and ``beats``
        (``i`` beats ``j`` with confidence ``1 - delta``).

        Returns
        -------
        pandas.DataFrame
            ``n (n - 1)`` rows, by `system` then `other` in :attr:`order`; ``comparisons``
            is the integer count ``z_ij``.

        Examples
        --------
        >>> import consensus as cs
        >>> conf = cs.pairwise_confidence(cs.load_example("votenrank-toy"), delta=0.5)
        >>> frame = conf.to_frame()
        >>> len(frame), list(frame.columns)
        (12, ['system', 'other', 'estimate', 'half_width', 'lower', 'upper', 'comparisons', 'beats'])
        """
        n = len(self.order)
        i, j = np.nonzero(~np.eye(n, dtype=bool))
        return pd.DataFrame(
            {
                "system": [self.order[a] for a in i],
                "other": [self.order[b] for b in j],
                "estimate": self.estimate[i, j],
                "half_width": self.half_width[i, j],
                "lower": self.lower[i, j],
                "upper": self.upper[i, j],
                "comparisons": self.counts[i, j].astype(np.int64),
                "beats": self.confident[i, j],
            }
        )

    def _display(self) -> Display:
        n = len(self.order)
        facts = ranked_facts(self.ranking) + [("delta", self.delta),
                                              ("confident", f"{self.n_confident} of {n * (n - 1) // 2} pairs")]
        return f"PairwiseConfidence: {n} systems", facts, self.to_frame()

    def pairs(self) -> list[dict[str, Any]]:
        """Each unordered pair once, better-ranked system first, with its confident winner.

        Returns
        -------
        list of dict
            ``system``, ``other``, ``estimate`` (``P(system > other)``, None if never
            compared), ``half_width`` (None if infinite), ``comparisons`` and
            ``confident_winner`` (a system, or None when the interval contains 1/2).
        """
        confident = self.confident
        rows = []
        for i, a in enumerate(self.order):
            for j in range(i + 1, len(self.order)):
                b = self.order[j]
                winner = a if confident[i, j] else (b if confident[j, i] else None)
                half = float(self.half_width[i, j])
                rows.append(
                    {
                        "system": a,
                        "other": b,
                        "estimate": jsonable(self.estimate[i, j]),
                        "half_width": None if np.isinf(half) else jsonable(half),
                        "comparisons": int(self.counts[i, j]),
                        "confident_winner": winner,
                    }
                )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``order``, ``ranking``, ``delta``, ``n_confident`` and ``pairs`` (see
            :meth:`pairs`; the matrices are :meth:`matrix`).
        """
        return {
            "order": list(self.order),
            "ranking": [list(g) for g in self.ranking],
            "delta": self.delta,
            "n_confident": self.n_confident,
            "pairs": self.pairs(),
        }
