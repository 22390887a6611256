"""The figure of a robustness experiment, in the style of the papers' figures.

A numeric setting (tasks reversed, lambda, tasks kept, eta) gives one line per rule: the mean
of the metric over repetitions, with a band of one standard deviation, against the setting
(Colombo et al. 2022 Fig. 2 and 3, Himmi et al. Fig. 2). A single or non-numeric setting (the
IIA experiment per leaderboard) gives grouped bars with the standard deviation as error bars
(Vote'n'Rank Table 2 drawn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import fill_doc
from ..results import ExperimentResult
from ._base import MIN_FONT, PLOT_DOCS, new_axes

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_experiment"]


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in values)


@fill_doc(PLOT_DOCS)
def plot_experiment(result: ExperimentResult, *, ax: Axes | None = None) -> Figure:
    """Mean and spread of an experiment's metric per setting, one line (or bar) per rule.

    Parameters
    ----------
    result : ExperimentResult
        From :mod:`consensus.experiments`.
    {ax}

    Returns
    -------
    matplotlib.figure.Figure
        Lines carry the gid ``"rule:NAME"`` (their y data are the means per setting, in
        setting order); bars carry ``"bar:RULE:SETTING"``.

    Raises
    ------
    TypeError
        If `result` is not an ExperimentResult.
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> res = cs.experiments.scaling(cs.datasets.gumbel_leaderboard(5, 4, seed=0), ["mean", "borda"], lambdas=(1.0, 10.0),
    ...                              repetitions=3)
    >>> fig = plot_experiment(res)
    >>> [line.get_gid() for line in fig.axes[0].get_lines()]
    ['rule:mean', 'rule:borda']
    """
    if not isinstance(result, ExperimentResult):
        raise TypeError(f"plot_experiment draws an ExperimentResult, got {type(result).__name__}")
    summary = result.summary()
    settings = list(dict.fromkeys(summary.index.get_level_values(0)))
    rules = list(result.rules)
    numeric = _numeric(settings) and len(settings) > 1
    width = 6.5 if numeric else max(6.5, 0.35 * len(rules) * len(settings) + 2)
    fig, axes = new_axes(ax, (width, 4.2))
    if numeric:
        for rule in rules:
            part = summary.xs(rule, level="rule").reindex(settings)
            x = np.asarray(settings, dtype=float)
            mean, std = part["mean"].to_numpy(float), part["std"].to_numpy(float)
            (line,) = axes.plot(x, mean, marker="o", label=rule, gid=f"rule:{rule}")
            axes.fill_between(x, mean - std, mean + std, alpha=0.15, color=line.get_color(), linewidth=0)
        axes.set_xlabel(result.setting)
    else:
        step = 0.8 / max(1, len(rules))
        for k, rule in enumerate(rules):
            part = summary.xs(rule, level="rule").reindex(settings)
            x = np.arange(len(settings)) + (k - (len(rules) - 1) / 2) * step
            bars = axes.bar(x, part["mean"].to_numpy(float), width=step, yerr=part["std"].to_numpy(float),
                            capsize=2, label=rule)
            for bar, setting in zip(bars, settings):
                bar.set_gid(f"bar:{rule}:{setting}")
        axes.set_xticks(np.arange(len(settings)), [str(s) for s in settings])
        axes.set_xlabel(result.setting)
    axes.set_ylabel(f"{result.metric} (mean ± std over {result.n_repetitions} repetitions)")
    axes.set_title(f"{result.name}: {result.metric} per {result.setting}", fontsize=max(MIN_FONT, 10))
    axes.grid(alpha=0.3)
    axes.legend(fontsize=max(MIN_FONT, 8), ncols=min(len(rules), 5), loc="best")
    return fig
