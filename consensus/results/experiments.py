"""RobustnessResult: rankings on complete against thinned scores (:mod:`consensus.experiments`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from ..errors import InvalidOptionError
from .base import Display, Displayed, freeze_mapping, jsonable, readonly_array

__all__ = ["ExperimentResult", "RobustnessResult"]


@dataclass(frozen=True, slots=True, repr=False)
class RobustnessResult(Displayed):
    """Kendall tau between rankings on complete and on thinned scores (Himmi et al. sec. 3).

    Attributes
    ----------
    etas : tuple of float
        Shares of scores removed.
    methods : tuple of str
        ``"sigma_l"``, ``"mean"`` (and ``"sigma_2l"`` on instance-level data).
    taus : ndarray (n_etas, n_seeds, n_methods)
        Kendall tau-b between each method's ranking with and without the removed scores.
    removed : ndarray (n_etas, n_seeds)
        Share of scores actually removed (a removal that would leave a system, task or
        instance without any score is skipped).
    parameters : Mapping[str, Any]
        The generator and removal settings.

    Examples
    --------
    >>> res = RobustnessResult(etas=(0.1, 0.5), methods=("sigma_l", "mean"),
    ...                        taus=[[[1.0, 1.0], [0.8, 0.6]], [[0.6, 0.2], [0.4, 0.0]]],
    ...                        removed=[[0.1, 0.1], [0.5, 0.5]], parameters={"seed": 0})
    >>> res.n_seeds, res.taus.shape
    (2, (2, 2, 2))
    """

    etas: tuple[float, ...]
    methods: tuple[str, ...]
    taus: Any
    removed: Any
    parameters: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "etas", tuple(float(e) for e in self.etas))
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "taus", readonly_array(self.taus, float))
        object.__setattr__(self, "removed", readonly_array(self.removed, float))
        object.__setattr__(self, "parameters", freeze_mapping(self.parameters))

    @property
    def n_seeds(self) -> int:
        """Number of seeds (repetitions) per eta: ``taus.shape[1]``."""
        return int(self.taus.shape[1])

    def mean_tau(self, method: str) -> Any:
        """Mean tau over seeds, one value per eta.

        Parameters
        ----------
        method : str
            One of :attr:`methods`.

        Returns
        -------
        numpy.ndarray (n_etas,)
            In the order of :attr:`etas`.

        Raises
        ------
        InvalidOptionError
            If `method` is not one of :attr:`methods`.

        Examples
        --------
        >>> res = RobustnessResult(etas=(0.1, 0.5), methods=("sigma_l", "mean"),
        ...                        taus=[[[1.0, 1.0], [0.8, 0.6]], [[0.6, 0.2], [0.4, 0.0]]],
        ...                        removed=[[0.1, 0.1], [0.5, 0.5]], parameters={"seed": 0})
        >>> [round(t, 6) for t in res.mean_tau("mean").tolist()]
        [0.8, 0.1]
        """
        if method not in self.methods:
            raise InvalidOptionError(f"unknown method {method!r}; this result has {', '.join(self.methods)}")
        return self.taus[:, :, self.methods.index(method)].mean(axis=1)

    def summary(self) -> Any:
        """Mean and standard deviation of tau over seeds: one row per eta.

        Returns
        -------
        pandas.DataFrame
            Indexed by ``eta``; one column per method (mean tau), then ``METHOD_std`` (the
            population standard deviation over seeds, ``ddof=0``) and ``removed`` (mean
            share of scores actually removed).

        Examples
        --------
        >>> res = RobustnessResult(etas=(0.1, 0.5), methods=("sigma_l", "mean"),
        ...                        taus=[[[1.0, 1.0], [0.8, 0.6]], [[0.6, 0.2], [0.4, 0.0]]],
        ...                        removed=[[0.1, 0.1], [0.5, 0.5]], parameters={"seed": 0})
        >>> list(res.summary().columns)
        ['sigma_l', 'mean', 'sigma_l_std', 'mean_std', 'removed']
        """
        data: dict[str, Any] = {}
        for k, m in enumerate(self.methods):
            data[m] = self.taus[:, :, k].mean(axis=1)
        for k, m in enumerate(self.methods):
            data[f"{m}_std"] = self.taus[:, :, k].std(axis=1)
        data["removed"] = self.removed.mean(axis=1)
        return pd.DataFrame(data, index=pd.Index(self.etas, name="eta"))

    def to_frame(self) -> Any:
        """One row per (eta, seed, method): ``eta``, ``seed``, ``method``, ``tau``, ``removed``.

        Returns
        -------
        pandas.DataFrame
            Long format, ordered by eta, then seed, then method; ``seed`` is the 0-based
            repetition index and ``removed`` the share removed in that (eta, seed).

        Examples
        --------
        >>> res = RobustnessResult(etas=(0.1, 0.5), methods=("sigma_l", "mean"),
        ...                        taus=[[[1.0, 1.0], [0.8, 0.6]], [[0.6, 0.2], [0.4, 0.0]]],
        ...                        removed=[[0.1, 0.1], [0.5, 0.5]], parameters={"seed": 0})
        >>> frame = res.to_frame()
        >>> frame.shape, frame["method"].tolist()[:3]
        ((8, 5), ['sigma_l', 'mean', 'sigma_l'])
        """
        e, s, m = np.meshgrid(
            np.arange(len(self.etas)), np.arange(self.n_seeds), np.arange(len(self.methods)), indexing="ij"
        )
        return pd.DataFrame(
            {
                "eta": np.asarray(self.etas)[e.ravel()],
                "seed": s.ravel(),
                "method": np.asarray(self.methods, dtype=object)[m.ravel()],
                "tau": self.taus.ravel(),
                "removed": self.removed[e.ravel(), s.ravel()],
            }
        )

    def _display(self) -> Display:
        facts = [("etas", ", ".join(f"{e:g}" for e in self.etas)), ("methods", ", ".join(self.methods)),
                 ("seeds", self.n_seeds)]
        return "RobustnessResult: Kendall tau, complete against thinned scores", facts, self.summary()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``etas``, ``methods``, ``taus`` and ``removed`` (nested lists, NaN as None) and
            ``parameters``.
        """
        return {
            "etas": list(self.etas),
            "methods": list(self.methods),
            "taus": jsonable(self.taus),
            "removed": jsonable(self.removed),
            "parameters": jsonable(dict(self.parameters)),
        }


@dataclass(frozen=True, slots=True, repr=False)
class ExperimentResult(Displayed):
    """A robustness experiment's tidy table: one row per repetition x rule x setting.

    Built by the experiments of :mod:`consensus.experiments` (``manipulation``, ``scaling``,
    ``task_removal``, ``missing_scores``, ``iia``); drawn by
    :func:`consensus.plot.plot_experiment` in the style of the papers' figures.

    Attributes
    ----------
    name : str
        The experiment.
    table : pandas.DataFrame
        Columns ``repetition``, ``rule``, the `setting` column, the `metric` column and any
        other measurements (e.g. ``kemeny_status``: ``"optimal"`` / ``"time_limit"`` for the
        Kemeny rows, ``""`` otherwise; ``kemeny_not_unique``: Kemeny solves of the row whose
        optimum is not the only one); ordered by setting, repetition, rule.
    setting : str
        The column that the experiment varies (``"t"``, ``"lambda"``, ``"tasks_kept"``,
        ``"eta"``, ``"leaderboard"``); one value when nothing varies.
    metric : str
        The main measurement (``"tau"``, ``"changes"``, ...), summarized by :meth:`summary`.
    parameters : Mapping[str, Any]
        Every setting of the run (seed, repetitions, rules, sizes, ...).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"repetition": [0, 0, 1, 1], "rule": ["mean", "borda"] * 2,
    ...                       "t": [1, 1, 1, 1], "tau": [1.0, 0.5, 0.8, 0.7],
    ...                       "kemeny_status": [""] * 4})
    >>> res = ExperimentResult("manipulation", table, "t", "tau", {"seed": 0})
    >>> res.summary()[["mean", "min", "max", "n"]].round(3).to_dict("index")
    {(1, 'mean'): {'mean': 0.9, 'min': 0.8, 'max': 1.0, 'n': 2}, (1, 'borda'): {'mean': 0.6, 'min': 0.5, 'max': 0.7, 'n': 2}}
    """

    json_command: ClassVar[str] = "experiment"

    name: str
    table: Any
    setting: str
    metric: str
    parameters: Mapping[str, Any]

    def __post_init__(self) -> None:
        table = pd.DataFrame(self.table).reset_index(drop=True)
        for column in ("repetition", "rule", self.setting, self.metric):
            if column not in table.columns:
                raise InvalidOptionError(f"an experiment table needs a {column!r} column; it has {', '.join(map(str, table.columns))}")
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "parameters", freeze_mapping(self.parameters))

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules, in the order they were run."""
        return tuple(dict.fromkeys(self.table["rule"]))

    @property
    def n_repetitions(self) -> int:
        """Number of distinct repetitions."""
        return int(self.table["repetition"].nunique())

    @property
    def time_limited(self) -> int:
        """Rows whose Kemeny solve stopped at its time limit (0 when every one was proven optimal)."""
        if "kemeny_status" not in self.table.columns:
            return 0
        return int((self.table["kemeny_status"] == "time_limit").sum())

    @property
    def kemeny_not_unique(self) -> int:
        """Rows with a Kemeny solve whose optimum is not the only one (its positions are one optimum's)."""
        if "kemeny_not_unique" not in self.table.columns:
            return 0
        return int((self.table["kemeny_not_unique"] > 0).sum())

    def to_frame(self) -> Any:
        """The tidy table (a copy).

        Returns
        -------
        pandas.DataFrame
            One row per repetition x rule x setting.
        """
        return self.table.copy()

    def summary(self) -> Any:
        """The metric's mean, standard deviation (``ddof=0``), min, median and max per setting and rule.

        Returns
        -------
        pandas.DataFrame
            Indexed by (`setting`, ``rule``), rules in run order; columns ``mean``, ``std``,
            ``min``, ``median``, ``max``, ``n`` (repetitions with a value).
        """
        table = self.table.copy()
        table["rule"] = pd.Categorical(table["rule"], categories=list(self.rules), ordered=True)
        grouped = table.groupby([self.setting, "rule"], sort=True, observed=True)[self.metric]
        out = grouped.agg(
            mean="mean", std=lambda v: float(np.std(v.dropna(), ddof=0)) if v.notna().any() else np.nan,
            min="min", median="median", max="max", n="count",
        )
        out.index = pd.MultiIndex.from_tuples(
            [(s, str(r)) for s, r in out.index], names=[self.setting, "rule"]
        )
        return out

    def _display(self) -> Display:
        facts = [("rules", ", ".join(self.rules)), ("repetitions", self.n_repetitions),
                 ("settings", f"{self.setting} = " + ", ".join(map(str, dict.fromkeys(self.table[self.setting]))))]
        if self.time_limited:
            facts.append(("Kemeny at its time limit", f"{self.time_limited} row(s): best ranking found, not proven"))
        if self.kemeny_not_unique:
            facts.append(("Kemeny with several optima", f"{self.kemeny_not_unique} row(s): positions of one optimal "
                          "ranking among several"))
        if self.parameters.get("kemeny_reference_unique") is False:
            facts.append(("Kemeny reference", "several optimal rankings on the unperturbed board: tau is to one of them"))
        return f"ExperimentResult {self.name}: {self.metric} per {self.setting} and rule", facts, self.summary().round(4)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``name``, ``setting``, ``metric``, ``parameters`` and ``rows`` (the table's
            records, NaN as None).
        """
        return {
            "name": self.name,
            "setting": self.setting,
            "metric": self.metric,
            "parameters": jsonable(dict(self.parameters)),
            "rows": jsonable(self.table.to_dict("records")),
        }
