"""Condorcet weights: the weights that make a system win, or the certificate that it never can."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._docstrings import fill_doc
from ..errors import InvalidOptionError
from ._base import (
    LOSS_COLOR,
    NODE_COLOR,
    PLOT_DOCS,
    WINNER_COLOR,
    label_font,
    longest,
    matplotlib_modules,
    short,
    text_inches,
)
from .rankings import plot_bars

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from ..board._leaderboard import Leaderboard

__all__ = ["blend_scores", "plot_certificate", "plot_condorcet_weights"]


def _mix_text(mix: dict[str, float], most: int = 4) -> str:
    ranked = sorted(mix.items(), key=lambda kv: -kv[1])
    if len(ranked) == 1:
        return short(ranked[0][0])
    text = " + ".join(f"{y:.2g} {short(s, 24)}" for s, y in ranked[:most])
    return text + (f" + {len(ranked) - most} more" if len(ranked) > most else "")


def blend_scores(table: Leaderboard, mix: dict[str, float]) -> Any:
    """Per task, the rival blend's score: the `mix`-weighted mean of the rivals scored on it.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    mix : mapping
        Rival -> share (as in :attr:`CondorcetCertificate.rival_mix`).

    Returns
    -------
    pandas.Series
        Task -> blended oriented score (higher is better), NaN where no rival of the mix
        is scored; the shares are renormalized over the rivals scored on each task.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> blend_scores(toy, {"B": 1.0}).equals(toy.oriented().loc["B"].rename(None))
    True
    """
    oriented = table.oriented()
    rivals = list(mix)
    values = oriented.loc[rivals].to_numpy(dtype=float)
    shares = np.array([mix[s] for s in rivals], dtype=float)[:, None] * ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        blended = np.nansum(values * shares, axis=0) / shares.sum(axis=0)
    import pandas as pd

    return pd.Series(np.where(shares.sum(axis=0) > 0, blended, np.nan), index=list(oriented.columns), dtype=float)


@fill_doc(PLOT_DOCS)
def plot_certificate(result: Any, *, table: Leaderboard | None = None) -> Figure:
    """Why a system can never win: its rival blend's advantage on every task (and the scores).

    Top panel: per task, the certificate's ``advantage`` (``sum_m' y_m' R(m, m', k)``: how
    much the blend of rivals ``y`` outvotes the system on task ``k``, from -1 to 1), one bar
    per task (gid ``"task:NAME"``); every bar is at or below the dashed bound, so no
    weighting of the tasks can give the system a positive margin over every rival. Bottom
    panel (with `table`): per task, the system's score and the blend's score (the
    `y`-weighted mean of the rivals' scores), each scaled to the task's range on the
    leaderboard (0 = worst, 1 = best), one point each per task (gids ``"system"`` and
    ``"blend"``).

    Parameters
    ----------
    result : CondorcetWeightsResult or CondorcetCertificate
        An infeasible answer of :func:`consensus.condorcet_weights`, or its certificate.
    table : Leaderboard, optional
        The scores the result was computed on (adds the bottom panel).

    Returns
    -------
    matplotlib.figure.Figure
        One or two axes.

    Raises
    ------
    InvalidOptionError
        If `result` has no certificate (the system can win: plot its weights with
        :func:`plot_condorcet_weights`).
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.9, 0.6, 0.8], "summ": [0.5, 0.4, 0.6]},
    ...                      index=["a", "b", "c"])
    >>> table = cs.Leaderboard.from_frame(frame)
    >>> res = cs.condorcet_weights(table, "b")  # b is Pareto-dominated by a: it can never win
    >>> res.feasible, res.certificate.summary()
    (False, 'a')
    >>> fig = plot_certificate(res, table=table)
    >>> sorted(p.get_gid() for p in fig.axes[0].patches)
    ['task:nli', 'task:qa', 'task:summ']
    """
    cert = getattr(result, "certificate", result)
    if cert is None or not hasattr(cert, "task_advantage"):
        raise InvalidOptionError("no certificate to plot: the system can win (plot its weights instead)")
    _, Figure = matplotlib_modules()
    if not cert.rival_mix:  # contradictory constraints: the multipliers are the proof
        fig = plot_bars(dict(cert.multipliers), title="the weight constraints contradict each other (multipliers)")
        return fig
    tasks = list(cert.task_advantage)
    advantage = np.array([cert.task_advantage[t] for t in tasks], dtype=float)
    n = len(tasks)
    font = label_font(n, roomy=8.0)
    room = text_inches(longest(tasks), font)
    width = max(7.0, 2.0 + 0.4 * n, text_inches(len(_mix_text(dict(cert.rival_mix))) + 30, 10.0))
    panels = 2 if table is not None else 1
    fig = Figure(figsize=(width, 1.0 + 3.0 * panels + 0.7 * room), layout="constrained")
    axes = fig.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    top = axes[0]
    x = np.arange(n)
    # blue where the system outvotes the blend, red where the blend outvotes it
    colors = [LOSS_COLOR if a < 0 else NODE_COLOR for a in advantage]
    bars = top.bar(x, advantage, color=colors, edgecolor="#333333", linewidth=0.6)
    for bar, task in zip(bars, tasks):
        bar.set_gid(f"task:{task}")
    top.axhline(0.0, color="#333333", linewidth=0.8)
    top.axhline(cert.bound, color="#333333", linestyle="--", linewidth=1.0,
                label=f"bound {cert.bound:.3g}: no weighting gives a margin above it")
    top.set_ylim(min(-1.05, advantage.min() - 0.05), max(0.3, advantage.max() + 0.1))
    if getattr(result, "rule", "condorcet") == "condorcet":
        top.set_ylabel("system vs blend, per task\n(+1 beats every rival of the blend)", fontsize=8)
    else:
        top.set_ylabel(f"system's {result.rule} points\nminus the blend's, per task", fontsize=8)
    top.legend(loc="upper right", fontsize=8)
    verdict = "can never beat every rival" if cert.kind == "strict" else "loses to some rival under every weighting"
    if getattr(result, "rule", "condorcet") != "condorcet":
        verdict = f"can never score highest under {result.rule}" if cert.kind == "strict" else \
            f"scores below some rival under {result.rule} for every weighting"
    fig.suptitle(f"{short(cert.system)} {verdict}\ncertificate: the rival blend {_mix_text(dict(cert.rival_mix))}",
                 fontsize=10)
    if table is not None:
        low = axes[1]
        oriented = table.oriented().reindex(columns=tasks)
        lo, hi = oriented.min(axis=0).to_numpy(), oriented.max(axis=0).to_numpy()
        span = np.where(hi > lo, hi - lo, 1.0)
        own = (oriented.loc[cert.system].to_numpy(dtype=float) - lo) / span
        blend = (blend_scores(table, dict(cert.rival_mix)).reindex(tasks).to_numpy() - lo) / span
        for xi, a, b in zip(x, own, blend):
            if not (np.isnan(a) or np.isnan(b)):
                low.plot([xi, xi], [a, b], color=LOSS_COLOR if a < b else "#999999", linewidth=1.5, zorder=1)
        (mine,) = low.plot(x, own, linestyle="none", marker="o", markersize=7, color=WINNER_COLOR,
                           markeredgecolor="#333333", label=short(cert.system), zorder=2)
        (theirs,) = low.plot(x, blend, linestyle="none", marker="D", markersize=6, color="#555555",
                             label="rival blend", zorder=2)
        mine.set_gid("system")
        theirs.set_gid("blend")
        missing = np.isnan(own)
        for xi in x[missing]:
            low.annotate("not scored", (xi, 0.5), ha="center", va="center", rotation=90, fontsize=7, color="#777777")
        low.set_ylim(-0.08, 1.08)
        low.set_ylabel("score, scaled per task\n(0 worst, 1 best on the board)", fontsize=8)
        low.legend(loc="best", fontsize=8)
        low.grid(axis="y", alpha=0.3)
    bottom = axes[-1]
    bottom.set_xticks(x, [short(t) for t in tasks], rotation=45 if n > 6 else 0, ha="right" if n > 6 else "center",
                      rotation_mode="anchor", fontsize=font)
    return fig


@fill_doc(PLOT_DOCS)
def plot_condorcet_weights(result: Any, *, table: Leaderboard | None = None) -> Figure:
    """The answer of :func:`consensus.condorcet_weights` as a figure: the weights, or the certificate.

    A system that can win: the witness weights as bars (:func:`plot_bars`). A system that
    can never win: :func:`plot_certificate` (never an empty axis).

    Parameters
    ----------
    result : CondorcetWeightsResult
        From :func:`consensus.condorcet_weights`.
    table : Leaderboard, optional
        The scores (adds the score panel of the certificate plot).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    InvalidOptionError
        If `result` has neither weights nor a certificate.
    {no_matplotlib}

    Examples
    --------
    >>> import consensus as cs
    >>> fig = plot_condorcet_weights(cs.condorcet_weights(cs.load_example("votenrank-toy"), "A"))
    >>> fig.axes[0].get_title()
    'task weights making A win (margin 1)'
    """
    if result.weight_values is not None:
        under = "" if getattr(result, "rule", "condorcet") == "condorcet" else f" {result.rule}"
        return plot_bars(result.weights, title=f"task weights making {short(result.system)} win{under} (margin {result.margin:.3g})")
    return plot_certificate(result, table=table)
