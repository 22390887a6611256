"""The evidence :func:`consensus.condorcet_weights` returns when a system cannot win: certificates.

An LP's dual (or Farkas) solution becomes a :class:`~consensus.results.CondorcetCertificate`: the
rival mix, the constraint multipliers, the bound, and one sentence saying what it proves.
A single rival that alone proves "never" is preferred over a blend (:func:`single_rival`).
Every certificate is verified by :mod:`consensus.exact._certificates` before it is returned.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from solvers.weights_lp import MarginCertificate, relation_matrix

from ..board._leaderboard import Leaderboard
from ..results.condorcet import CondorcetCertificate, WeightConstraint

__all__ = ["make_certificate", "single_rival"]


def single_rival(R: np.ndarray, strict: bool, tol: float = 0.0) -> int | None:
    """A rival that alone proves "never": at least as good on every task (strict), or strictly
    better on every task (weak); the strongest one (smallest row maximum, then row sum).

    Parameters
    ----------
    R : ndarray
        ``R[j, k]`` = +1 / 0 / -1: the system against rival ``j`` on task ``k``.
    strict : bool
        Which notion the proof is for.
    tol : float, default=0.0
        The proof's threshold (the exact check asks ``max <= tol`` for strict, ``max < -tol``
        for weak): a rival ahead by less than `tol` on a task (point differences of a linear
        rule, where float rounding leaves 1e-16 where 0 is meant) is no single-rival proof.

    Returns
    -------
    int or None
        The rival's row in `R`, or None when no single rival suffices.

    Examples
    --------
    >>> single_rival(np.array([[1, -1], [0, -1]]), strict=True)
    1
    """
    row_max = R.max(axis=1)
    ok = row_max <= tol if strict else row_max < -tol
    if not ok.any():
        return None
    cand = np.nonzero(ok)[0]
    key = np.lexsort((cand, R[cand].sum(axis=1), row_max[cand]))
    return int(cand[key[0]])


def _mix_text(mix: Mapping[str, float]) -> str:
    if len(mix) == 1:
        return repr(next(iter(mix)))
    return "the blend " + " + ".join(f"{y:.3g}*{s}" for s, y in mix.items())


def make_certificate(
    lb: Leaderboard,
    system: str,
    rivals: Sequence[str],
    cert: MarginCertificate,
    kind: str,
    threshold: float,
    cons: Sequence[WeightConstraint],
    R: np.ndarray | None = None,
    tasks: Sequence[str] | None = None,
    points: bool = False,
    scale: float = 1.0,
) -> CondorcetCertificate:
    """A :class:`CondorcetCertificate` from the LP's raw certificate, with its statement for humans.

    Parameters
    ----------
    lb : Leaderboard
    system : str
        The system the certificate is about.
    rivals : sequence of str
        The other systems, in the order of the LP's rows.
    cert : MarginCertificate
        The LP's dual (or Farkas) certificate.
    kind : {"strict", "weak", "constraints"}
        What it proves (see :class:`CondorcetCertificate`).
    threshold : float
        The bound it must stay under.
    cons : sequence of WeightConstraint
        The weight constraints its multipliers refer to.
    R : ndarray, optional
        The system's comparison matrix (recomputed when None).
    tasks : sequence of str, optional
        Task names (default: the leaderboard's).
    points : bool, default=False
        `R` holds a linear rule's point differences (:func:`consensus.winning_weights`), not
        the majority relation: the statement speaks of points and of scoring highest.
    scale : float, default=1.0
        The statement's bound is ``cert.bound * scale`` (the LP ran on points divided by
        `scale`; the certificate's numbers are rescaled by the caller).

    Returns
    -------
    CondorcetCertificate
        Not yet verified: callers check it with :func:`consensus.exact._certificates.certificate_holds`
        or :func:`consensus.exact._certificates.exact_bound` before returning it.
    """
    mix = {rivals[int(j)]: float(cert.rivals[j]) for j in np.nonzero(cert.rivals)[0]}
    multipliers: dict[str, float] = {}
    for i, con in enumerate(cons):
        if cert.upper_multipliers[i] > 0:
            multipliers[f"{con.label}:upper"] = float(cert.upper_multipliers[i])
        if cert.lower_multipliers[i] > 0:
            multipliers[f"{con.label}:lower"] = float(cert.lower_multipliers[i])
    used = ", ".join(sorted({k.rpartition(":")[0] for k in multipliers}))
    if kind == "constraints":
        statement = (
            f"the weight constraints are contradictory: {used} cannot hold together with "
            "non-negative weights summing to 1"
        )
    else:
        who = _mix_text(mix)
        if multipliers:
            what = f"against {who}, the weight constraints ({used}) cap its weighted margin"
        elif points:
            rel = "gets at least as many points as" if kind == "strict" else "gets more points than"
            what = f"{who} {rel} {system!r} on every task" + ("" if len(mix) == 1 else ", on average")
        elif len(mix) == 1:
            j = int(np.nonzero(cert.rivals)[0][0])
            row = (R if R is not None else relation_matrix(lb.values, lb.system_index(system)))[j]
            if (row == -1).all():
                what = f"{who} scores strictly better than {system!r} on every task"
            elif (row == 0).all():
                what = f"{who} ties {system!r} on every task both are scored on"
            else:
                what = f"{who} is at least as good as {system!r} on every task both are scored on (Pareto dominance)"
        else:
            rel = "at least as good as" if kind == "strict" else "strictly better than"
            what = f"{who} is {rel} {system!r} on every task, on average"
        if points:
            verdict = (
                f"{system!r} can never score strictly highest: {what}"
                if kind == "strict"
                else f"{system!r} always scores below some rival: {what}"
            )
        else:
            verdict = (
                f"{system!r} can never beat every rival: {what}"
                if kind == "strict"
                else f"{system!r} always loses to some rival: {what}"
            )
        statement = f"{verdict}; no weighting gives a smallest margin above {float(cert.bound) * scale:.4g}"
    return CondorcetCertificate(
        system=system,
        kind=kind,
        rival_mix=mix,
        task_advantage={t: float(a) for t, a in zip(tasks or lb.tasks, cert.advantage.tolist())} if mix else {},
        multipliers=multipliers,
        offset=float(cert.offset),
        bound=float(cert.bound),
        threshold=float(threshold),
        statement=statement,
    )
