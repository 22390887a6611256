"""Independent checks of Condorcet-weight evidence: margins rebuilt from the scores, certificates in exact arithmetic.

Everything here recomputes from the leaderboard's scores, without a solver and without the
LP code of :mod:`solvers.weights_lp`: :func:`consensus.condorcet_weights` runs these checks
before it returns, and :meth:`CondorcetWeightsResult.verify` runs them again on request.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, cast

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import (
    DegenerateTaskWarning,
    InvalidOptionError,
    InvalidWeightError,
    SolveFailedError,
    UnknownTaskError,
)
from ..majority._pairwise import pairwise

if TYPE_CHECKING:  # pragma: no cover
    from ..results.condorcet import (
        CondorcetCertificate,
        CondorcetWeightsResult,
        WeightConstraint,
    )

__all__ = ["CONSTRAINT_TOL", "verify_condorcet_result", "weighted_margins"]

#: Returned weights may miss a user constraint by at most this (solver feasibility noise).
CONSTRAINT_TOL = 1e-9


class Labels:
    """System and task labels of one leaderboard, read once (the properties copy on each access).

    Parameters
    ----------
    lb : Leaderboard
        The leaderboard whose labels to hold.

    Attributes
    ----------
    systems : tuple of str
        ``lb.systems``.
    tasks : tuple of str
        ``lb.tasks``.
    index : dict
        System -> row index.

    Examples
    --------
    >>> import consensus as cs
    >>> labels = Labels(cs.load_example("votenrank-toy"))
    >>> labels.index["C"], labels.rivals("B")
    (2, ('A', 'C', 'D'))
    """

    __slots__ = ("index", "systems", "tasks")

    def __init__(self, lb: Leaderboard) -> None:
        self.systems = lb.systems
        self.tasks = lb.tasks
        self.index = {s: j for j, s in enumerate(self.systems)}

    def rivals(self, system: str) -> tuple[str, ...]:
        """Return every system but `system`, in leaderboard order.

        Parameters
        ----------
        system : str
            A system of the leaderboard (another label raises ``KeyError``).

        Returns
        -------
        tuple of str
        """
        i = self.index[system]
        return self.systems[:i] + self.systems[i + 1 :]


def row_margins(values: np.ndarray, i: int, w: np.ndarray) -> np.ndarray:
    """Compute the margins of row `i` over every other row under weights `w`, from the scores.

    The margin over row ``j`` is the weight of the tasks where row `i` scores strictly
    higher minus the weight where it scores strictly lower; a NaN on either side counts
    for neither, as in :func:`consensus.pairwise`.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (higher is better), systems x tasks; NaN marks a missing score.
    i : int
        Row of the system.
    w : numpy.ndarray
        One weight per task (used as given, not normalized).

    Returns
    -------
    numpy.ndarray
        The ``n - 1`` margins over the other rows, in row order (``-0.0`` cleaned to 0.0).

    Examples
    --------
    >>> import numpy as np
    >>> values = np.array([[2.0, 1.0], [1.0, 2.0], [0.0, np.nan]])
    >>> row_margins(values, 0, np.array([0.5, 0.5])).tolist()
    [0.0, 0.5]
    """
    with np.errstate(invalid="ignore"):
        better = (values[i][None, :] > values).astype(np.float64)  # NaN compares False: a tie
        worse = (values[i][None, :] < values).astype(np.float64)
    margins = better @ w - worse @ w
    margins[margins == 0] = 0.0
    return np.delete(margins, i)


# ---------------------------------------------------------------------- public helpers
def weighted_margins(data: Leaderboard, system: str, weights: Mapping[str, float] | pd.Series) -> pd.Series:
    """The weighted margin of `system` over every other system under `weights`.

    ``margin[m'] = sum_k w_k R(system, m', k)``: the weight of the tasks where `system` scores
    strictly better minus the weight where it scores worse (tasks where either is missing
    count for neither). Weights are used as given (not normalized), so with
    ``lb.weights`` this is the row of ``pairwise(lb).margins``. Computed directly from the
    scores, independently of the LP code: use it to check a :class:`CondorcetWeightsResult`.

    Parameters
    ----------
    data : Leaderboard
        The scores.
    system : str
        Row label of the system.
    weights : Mapping or Series, task -> weight
        Finite and >= 0; tasks not listed weigh 0.

    Returns
    -------
    pandas.Series
        Named ``"margin"``, indexed by the other systems, in leaderboard order.

    Raises
    ------
    UnknownSystemError
        If `system` is not a row of `data`.
    UnknownTaskError
        If `weights` names a task that is not on the leaderboard.
    InvalidWeightError
        If a weight is not a finite number >= 0.
    InvalidOptionError
        If `weights` is not a mapping or Series.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> weighted_margins(lb, "A", {"t1": 0.5, "t2": 0.5}).tolist()
    [1.0, 1.0, 1.0]
    >>> weighted_margins(lb, "B", lb.weights).tolist()      # uniform: 3 tasks to 2 each
    [1.0, 1.0, 1.0]
    """
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"weighted_margins needs a Leaderboard, got {type(data).__name__}")
    i = data.system_index(system)
    w = weight_vector(data, weights, "weights")
    systems = data.systems
    rivals = systems[:i] + systems[i + 1 :]
    return pd.Series(row_margins(data.values, i, w), index=pd.Index(rivals, dtype=object), name="margin")


def weight_vector(lb: Leaderboard, weights: Mapping[str, float] | pd.Series, context: str) -> np.ndarray:
    """Return `weights` (task -> weight) as a vector in task order; tasks not listed weigh 0.

    Parameters
    ----------
    lb : Leaderboard
        Gives the tasks and their order.
    weights : Mapping or Series, task -> weight
        Finite and >= 0 (not normalized; all zero is allowed here).
    context : str
        The option name, for error messages (``"weights"``, ``"nearest_to"``, ...).

    Returns
    -------
    numpy.ndarray
        One float per task of `lb`.

    Raises
    ------
    InvalidOptionError
        If `weights` is not a mapping or Series.
    UnknownTaskError
        If a task is not on the leaderboard.
    InvalidWeightError
        If a weight is not a finite number >= 0.

    Examples
    --------
    >>> import consensus as cs
    >>> weight_vector(cs.load_example("votenrank-toy"), {"t2": 2, "t1": 1}, "weights").tolist()
    [1.0, 2.0, 0.0, 0.0, 0.0]
    """
    if not isinstance(weights, (Mapping, pd.Series)):
        raise InvalidOptionError(f"{context} must be a mapping or Series task -> weight, got {type(weights).__name__}")
    tasks = lb.tasks
    index = {t: k for k, t in enumerate(tasks)}
    w = np.zeros(len(tasks))
    for t, value in weights.items():
        if t not in index:
            raise UnknownTaskError(t, tasks, context)
        k = index[t]
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise InvalidWeightError(f"{context}: weight of task {t!r} is not a number: {value!r}", t) from None
        if not math.isfinite(x) or x < 0:
            raise InvalidWeightError(f"{context}: weight of task {t!r} must be finite and >= 0, got {value!r}", t)
        w[k] = x
    return w


def margins_from_pairwise(lb: Leaderboard, system: str, weights: np.ndarray) -> np.ndarray:
    """Return the system's margins in the package's weighted majority relation, rebuilt from scores.

    Goes through :meth:`Leaderboard.with_weights` and :func:`consensus.pairwise`, the code
    every rule uses, as a second route next to :func:`row_margins`.

    Parameters
    ----------
    lb : Leaderboard
        The scores.
    system : str
        Row label of the system.
    weights : numpy.ndarray
        One weight per task of `lb`, in task order; finite, >= 0, not all zero.

    Returns
    -------
    numpy.ndarray
        The margins over the other systems, in leaderboard order.

    Raises
    ------
    UnknownSystemError
        If `system` is not a row of `lb`.
    InvalidWeightError
        If a weight is negative or not finite, or all weights are zero.

    Examples
    --------
    >>> import numpy as np
    >>> import consensus as cs
    >>> margins_from_pairwise(cs.load_example("votenrank-toy"), "A", np.ones(5)).tolist()
    [-1.0, -1.0, -1.0]
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        weighted = lb.with_weights(dict(zip(lb.tasks, weights.tolist())))
    p = pairwise(weighted)
    i = p.index(system)
    return np.delete(p.margins[i], i)


def wins_all(margins: np.ndarray, strict: bool, tol: float) -> bool:
    """Tell whether every margin is a win (`strict`) or at least a tie, within `tol`.

    Parameters
    ----------
    margins : numpy.ndarray
        Margins over the rivals.
    strict : bool
        True: every margin must exceed `tol`; False: every margin must be >= ``-tol``.
    tol : float
        The tolerance.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> wins_all(np.array([0.5, 0.0]), True, 1e-9), wins_all(np.array([0.5, 0.0]), False, 1e-9)
    (False, True)
    """
    return bool((margins > tol).all()) if strict else bool((margins >= -tol).all())


def exact_bound(
    lb: Leaderboard,
    system: str,
    rival_mix: Mapping[str, float],
    multipliers: Mapping[str, float],
    constraints: Sequence[WeightConstraint],
    labels: Labels | None = None,
    points: np.ndarray | None = None,
) -> Fraction:
    """The certificate's bound recomputed from the scores, in rational arithmetic (no solver).

    ``c_k = sum_m' y_m' R(m, m', k)`` with ``y`` normalized exactly; ``d_k`` from the
    multipliers; ``bound = max_k (c_k - d_k) + sum mu_upper * upper - sum mu_lower * lower``.
    With `points` (a linear rule, :func:`consensus.winning_weights`), ``R(m, m', k)`` is the
    point difference ``points[m, k] - points[m', k]``, taken exactly from the floats.

    Parameters
    ----------
    lb : Leaderboard
        The scores.
    system : str
        The system the certificate is about (a label not on `lb` raises ``KeyError``).
    rival_mix : Mapping[str, float]
        Rival -> weight ``y`` (>= 0; normalized here).
    multipliers : Mapping[str, float]
        ``"label:lower"`` / ``"label:upper"`` -> multiplier ``mu`` >= 0 of the
        constraints' sides.
    constraints : sequence of WeightConstraint
        The weight constraints the multipliers refer to (by label).
    labels : Labels, optional
        The labels of `lb`, when the caller already has them.
    points : numpy.ndarray, optional
        Systems x tasks points of a linear rule; None: the majority relation of the scores.

    Returns
    -------
    fractions.Fraction
        The exact bound on the smallest weighted margin of `system`.

    Raises
    ------
    SolveFailedError
        A rival weight or multiplier is negative, or a multiplier sits on a side of a
        constraint that is open (infinite).

    Examples
    --------
    >>> import consensus as cs
    >>> exact_bound(cs.load_example("votenrank-toy"), "A", {"B": 0.5, "C": 0.25, "D": 0.25}, {}, ())
    Fraction(1, 1)
    """
    v = lb.values
    labels = labels if labels is not None else Labels(lb)
    tasks, index = labels.tasks, labels.index
    i = index[system]
    # y_s are floats, i.e. dyadic rationals n_s / 2^e_s: over the common denominator they are
    # integers N_s, and c_k = sum_s N_s R(m, s, k) / sum_s N_s exactly.
    ratios = [float(y).as_integer_ratio() for y in rival_mix.values()]
    if any(n < 0 for n, _ in ratios):
        raise SolveFailedError(f"certificate of {system!r} has a negative rival weight")
    denom = max((d for _, d in ratios), default=1)
    nums = [n * (denom // d) for n, d in ratios]
    total = sum(nums)
    c_num: list[int | Fraction] = [0] * len(tasks)
    if total > 0 and points is not None:
        c_num = cast("list[int | Fraction]", _point_blend(points, i, [index[s] for s in rival_mix], nums, len(tasks)))
    elif total > 0:
        for s, n in zip(rival_mix, nums):
            j = index[s]
            with np.errstate(invalid="ignore"):
                better = (v[i] > v[j]).tolist()  # NaN compares False either way: a tie
                worse = (v[i] < v[j]).tolist()
            for k in range(len(tasks)):
                if better[k]:
                    c_num[k] += n
                elif worse[k]:
                    c_num[k] -= n
    if not multipliers or not any(float(mu) != 0 for mu in multipliers.values()):
        return Fraction(max(c_num), total if total > 0 else 1)
    c = {t: Fraction(x, total if total > 0 else 1) for t, x in zip(tasks, c_num)}
    d = {t: Fraction(0) for t in tasks}
    const = Fraction(0)
    by_label = {con.label: con for con in constraints}
    for key, mu in multipliers.items():
        label, _, side = key.rpartition(":")
        con = by_label[label]
        m = Fraction(float(mu))
        if m < 0:
            raise SolveFailedError(f"certificate of {system!r} has a negative multiplier on {key!r}")
        if m == 0:
            continue
        sign = 1 if side == "upper" else -1
        rhs = con.upper if side == "upper" else con.lower
        if math.isinf(rhs):
            raise SolveFailedError(f"certificate of {system!r} puts a multiplier on the open side {key!r}")
        for t, a in con.coefficients.items():
            d[t] += sign * m * Fraction(a)
        const += sign * m * Fraction(rhs)
    return max(c[t] - d[t] for t in tasks) + const


def _point_blend(points: np.ndarray, i: int, rows: Sequence[int], nums: Sequence[int], n_tasks: int) -> list[Fraction]:
    """``sum_s N_s (points[i, k] - points[s, k])`` per task, exactly."""
    own = [Fraction(float(x)) for x in points[i].tolist()]
    out = [Fraction(0)] * n_tasks
    for j, n in zip(rows, nums):
        if n == 0:
            continue
        row = points[j].tolist()
        for k in range(n_tasks):
            out[k] += n * (own[k] - Fraction(float(row[k])))
    return out


def certificate_holds(
    lb: Leaderboard, cert: CondorcetCertificate, constraints: Sequence[WeightConstraint], points: np.ndarray | None = None
) -> bool:
    """Check a certificate's claim with :func:`exact_bound`, in exact arithmetic.

    ``kind="strict"``: the bound is at most ``cert.threshold``; ``"constraints"``: the
    bound is below ``-CONSTRAINT_TOL`` times the sum of the multipliers; otherwise
    (``"weak"``): the bound is below ``cert.threshold``.

    Parameters
    ----------
    lb : Leaderboard
        The leaderboard the certificate was computed on.
    cert : CondorcetCertificate
        The certificate to check.
    constraints : sequence of WeightConstraint
        The weight constraints of the result the certificate belongs to.
    points : numpy.ndarray, optional
        A linear rule's points (:func:`exact_bound`); None: the majority relation.

    Returns
    -------
    bool
        True when the certificate proves its claim.

    Raises
    ------
    SolveFailedError
        The certificate has a negative rival weight or multiplier, or a multiplier on an
        open constraint side.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t1": [2.0, 1.0, 0.0], "t2": [2.0, 0.0, 1.0]}, index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame)
    >>> res = cs.condorcet_weights(lb, "b")      # 'a' is better on every task
    >>> res.feasible, certificate_holds(lb, res.certificate, res.constraints)
    (False, True)
    """
    bound = exact_bound(lb, cert.system, cert.rival_mix, cert.multipliers, constraints, points=points)
    if cert.kind == "strict":
        return bound <= Fraction(cert.threshold)
    if cert.kind == "constraints":  # contradictory even within CONSTRAINT_TOL per row
        total = sum((Fraction(float(mu)) for mu in cert.multipliers.values()), Fraction(0))
        return bound < -Fraction(CONSTRAINT_TOL) * total
    return bound < Fraction(cert.threshold)


def verify_condorcet_result(
    lb: Leaderboard,
    res: CondorcetWeightsResult,
    margins: Callable[[np.ndarray], np.ndarray] | None = None,
    points: np.ndarray | None = None,
) -> bool:
    """Re-check a :class:`CondorcetWeightsResult` against `lb` without a solver.

    The weights (if any) must sum to 1, satisfy the constraints (within
    :data:`CONSTRAINT_TOL`) and make the system win in the weighted majority relation
    rebuilt from the scores; the certificate (if any) must prove its bound in exact rational
    arithmetic. A feasible result needs weights, an infeasible one a certificate.

    Parameters
    ----------
    lb : Leaderboard
        The leaderboard the result was computed on.
    res : CondorcetWeightsResult
        The result to check.
    margins : callable, optional
        ``w -> margins`` of the system over its rivals (a linear rule's, from running the
        rule: :func:`consensus.exact._winning.verify_winning_result`); default: the weighted majority
        relation rebuilt from the scores.
    points : numpy.ndarray, optional
        The linear rule's points the certificate is checked against (:func:`exact_bound`).

    Returns
    -------
    bool
        True when every piece of evidence holds.

    Raises
    ------
    UnknownTaskError
        The result's weights name a task that is not on `lb`.
    UnknownSystemError
        The result's system is not a row of `lb` (checked when it is feasible).
    SolveFailedError
        The certificate has a negative rival weight or multiplier, or a multiplier on an
        open constraint side.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> verify_condorcet_result(lb, cs.condorcet_weights(lb, "A"))
    True
    """
    lb.system_index(res.system)  # UnknownSystemError if the result is about another leaderboard
    if res.certificate is not None:
        for rival in res.certificate.rival_mix:
            lb.system_index(rival)
    ok = True
    if res.weight_values is not None:
        w = weight_vector(lb, res.weight_values, "weights")
        ok &= abs(w.sum() - 1.0) <= 1e-9
        ok &= all(c.violation(res.weight_values) <= CONSTRAINT_TOL for c in res.constraints)
        if res.feasible:
            found = margins(w) if margins is not None else margins_from_pairwise(lb, res.system, w)
            ok &= wins_all(found, res.strict, res.tol)
    if res.certificate is not None:
        ok &= certificate_holds(lb, res.certificate, res.constraints, points)
    if not res.feasible and res.certificate is None:
        ok = False
    if res.feasible and res.weight_values is None:
        ok = False
    return bool(ok)
