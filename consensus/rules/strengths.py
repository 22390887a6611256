"""Bradley-Terry strengths from the weighted pairwise matrix, by maximum likelihood.

Each task is a set of paired comparisons: system ``i`` beats ``j`` with probability
``p_i / (p_i + p_j)``. With ``A[i, j] = wins[i, j] + ties[i, j] / 2`` (a tied task is half a
win to each side; task weights count as numbers of comparisons) the log-likelihood of the
log-strengths ``theta = log p`` is ``sum_(i != j) A[i, j] log sigmoid(theta_i - theta_j)``,
concave, and shift-invariant; the shift is fixed by the term ``(sum theta)^2 / 2``, zero at
the optimum, so the scores sum to 0.

It is maximized by Newton's method (:func:`_newton`): the Hessian is a weighted graph Laplacian
(plus the all-ones matrix of the shift term), positive definite, factorized by Cholesky. The
iteration starts at ``theta_i = log(wins_i / losses_i) / 2`` and three MM steps (Zermelo's
iteration, Hunter 2004 [3]_), then takes Newton steps, whole when the log-strength
differences change by at most 0.5 (which provably lowers the objective), backtracked on the
objective otherwise, and the last ones with the Hessian already factorized. It stops after a step
of at most 1e-10 in every log-strength; the convergence is quadratic there, so the strengths
are exact to float rounding (about 1e-15 on a well-conditioned board; an ill-conditioned one,
e.g. a tiny prior on a board where some systems almost never lose, stops after a step below
1e-6 from a gradient at float rounding: rounding amplified by the conditioning). That keeps equal
strengths equal (they are compared with :data:`~consensus.rules.SCORE_TOL`), and on a
*balanced* board (every pair compared with the same total weight: a complete board with
``ties="half"``) the strengths are a strictly increasing function of the win totals, so systems
with equal totals are given the very same float. MM alone is linear and slow here (hundreds to
thousands of steps to 1e-10 on a 1,000-system board); this matches choix's
``ilsr_pairwise_dense`` in speed at 200 and 1,000 systems (``benchmarks/bradley_terry.py``).
If the iteration does not converge in 50 Newton steps (not seen on boards with a
well-determined maximum; seen with priors below about 1e-12 of the total weight, where float
rounding cannot resolve the likelihood), the former solver is the fallback:
:func:`scipy.optimize.minimize` (``method="trust-exact"``, exact gradient and Hessian) finished
by :func:`scipy.optimize.root` where the likelihood's float resolution stops it short;
``details["method"]`` says which was used.

The maximum exists, and is unique, exactly when the graph with an edge ``i -> j`` wherever
``A[i, j] > 0`` ("i beats j at least partly") is strongly connected (Zermelo 1929; Ford 1957).
Otherwise some group of systems never loses (not even a tie) to the others, or two groups
are never compared, and the maximum-likelihood strengths are infinite or undetermined. That is
detected before solving (an error naming the systems), and ``prior`` (a pseudo-count of wins
added to each side of every pair, in task-weight units) is the documented way out.

References
----------
.. [1] R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I. The
   method of paired comparisons", Biometrika 39 (1952) 324-345.
.. [2] L. R. Ford Jr., "Solution of a ranking problem from binary comparisons", The American
   Mathematical Monthly 64 (1957) 28-33 (existence: strong connectivity).
.. [3] D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", The Annals of
   Statistics 32 (2004) 384-406.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.optimize import minimize, root
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, SolveFailedError
from ..majority._pairwise import PairwiseMatrix
from ..results import RuleResult
from .declaration import rule
from .engine import run_rule
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_choice,
    check_number,
    pairwise_of,
)

__all__ = ["bradley_terry"]

BTTies = Literal["half", "ignore"]

#: The iteration stops after a Newton step that moves no log-strength by more than this
#: (the convergence is quadratic there: the strengths are then exact to float rounding).
_TOL = 1e-10
#: ... or after a step of at most this taken from a gradient at float rounding: the steps are
#: then rounding amplified by a badly conditioned Hessian (e.g. a tiny prior on a board where
#: some systems almost never lose), not progress.
_FLOOR = 1e-6
#: MM steps before the Newton steps (each costs a few n x n array passes; a Newton step also
#: factorizes an n x n matrix).
_MM_STEPS = 3
#: A Newton step whose log-strength differences change by at most this is taken whole.
_SAFE_SPREAD = 0.5
#: A Hessian factorized at most this far (in every log-strength) from the current point is
#: used again (a chord step: the convergence stays faster than 1e-3 per step).
_REUSE = 1e-3
#: Newton steps (backtracked ones included) before falling back to :func:`_trust_exact`.
_MAX_NEWTON = 50
#: The fallback's trust-exact iterations stop when the gradient of the likelihood (normalized
#: to total weight 1) is below this; the optimum is then within about this of the exact one.
_GTOL = 1e-12
#: A solution whose gradient is above this is a failure (SolveFailedError).
_ACCEPT = 1e-10


def _shown(labels: list[str], limit: int = 5) -> str:
    return ", ".join(repr(s) for s in labels[:limit]) + (", ..." if len(labels) > limit else "")


def _no_mle(systems: tuple[str, ...], support: np.ndarray) -> InvalidOptionError:
    """The error for a graph that is not strongly connected, naming the systems to blame."""
    n_weak, weak = connected_components(csr_matrix(support), directed=True, connection="weak")
    if n_weak > 1:
        groups = [[systems[i] for i in np.nonzero(weak == g)[0]] for g in range(n_weak)]
        why = (
            f"the systems fall into {n_weak} groups never compared with each other "
            f"({'; '.join('{' + _shown(g, 3) + '}' for g in groups[:3])}{'; ...' if n_weak > 3 else ''}), "
            "so their relative strengths are undetermined"
        )
    else:
        _, comp = connected_components(csr_matrix(support), directed=True, connection="strong")
        entering = np.zeros(int(comp.max()) + 1, dtype=bool)  # a component some outsider beats
        rows, cols = np.nonzero(support)
        entering[comp[cols][comp[rows] != comp[cols]]] = True
        top = int(np.nonzero(~entering)[0][0])
        members = [systems[i] for i in np.nonzero(comp == top)[0]]
        rest = len(systems) - len(members)
        why = (
            f"system(s) {_shown(members)} never lose to (nor tie with) any of the other {rest} "
            "system(s), so their maximum-likelihood strength is infinite"
        )
    return InvalidOptionError(
        f"rule 'bradley_terry': the maximum-likelihood strengths do not exist: {why} (the "
        "'beats at least partly' graph is not strongly connected, Ford 1957); pass prior=0.5 "
        "(half a win to each side of every pair, in units of task weight) to "
        "regularize, or rank with another rule"
    )


def _strongly_connected(support: np.ndarray) -> bool:
    """Whether every system reaches every other along ``support`` (a dense boolean matrix):
    node 0 reaches all and all reach node 0 (a breadth-first search each way, O(n^2))."""
    for graph in (support, np.ascontiguousarray(support.T)):
        seen = np.zeros(len(graph), dtype=bool)
        seen[0] = True
        frontier = np.zeros(1, dtype=np.intp)
        while frontier.size:
            new = graph[frontier].any(axis=0) & ~seen
            seen |= new
            frontier = np.flatnonzero(new)
        if not seen.all():
            return False
    return True


def _newton(a: np.ndarray) -> tuple[np.ndarray, int, float] | None:
    """The maximum-likelihood log-strengths of the normalized counts `a` (zero diagonal, total
    1, "beats at least partly" graph strongly connected), the number of iterations and the
    gradient norm there; None if the iteration did not converge (the caller then uses
    :func:`_trust_exact`).

    Start at ``theta_i = log(wins_i / losses_i) / 2`` (exact for two systems), take
    :data:`_MM_STEPS` MM steps (Zermelo 1929; Hunter 2004: ``p_i <- wins_i / sum_j n_ij / (p_i +
    p_j)``, which never lower the likelihood), then Newton steps on the gradient of the negative
    log-likelihood plus ``(sum theta)^2 / 2``: the Hessian is the graph Laplacian with weights
    ``n_ij s_ij s_ji`` (``s_ij = P(i beats j)``, ``n_ij = a_ij + a_ji``) plus the all-ones matrix,
    positive definite, factorized by Cholesky (and used again for the last steps, see
    :data:`_REUSE`). Along a step whose log-strength differences change by at most ``r`` every
    Laplacian weight changes by at most a factor ``e^r``, so a step with ``r <= 0.5``
    (:data:`_SAFE_SPREAD`) lowers the objective by at least ``0.17`` times the Newton decrement
    without evaluating it; a longer one is backtracked on the objective (Armijo). The iteration
    stops after a step of at most :data:`_TOL` in every log-strength, or of at most
    :data:`_FLOOR` computed from a gradient at float rounding (an ill-conditioned board).
    """
    pairs = a + a.T  # comparisons of each pair
    wins = a.sum(axis=1)
    rounding = 1000 * float(np.finfo(np.float64).eps) * float(wins.max())  # of a gradient component

    def objective(theta: np.ndarray) -> float:
        shifted = theta - theta.max()  # p = exp(shifted) in (0, 1]
        p = np.exp(shifted)
        return float((a * np.log(p[:, None] + p[None, :])).sum() - wins @ shifted + 0.5 * theta.sum() ** 2)

    with np.errstate(all="ignore"):  # p underflowing to 0 (log-strengths 700 apart) ends as None
        theta = 0.5 * (np.log(wins) - np.log(a.sum(axis=0)))
        for _ in range(_MM_STEPS):
            p = np.exp(theta - theta.max())
            theta = np.log(wins) - np.log((pairs / (p[:, None] + p[None, :])).sum(axis=1))
        theta -= theta.mean()
        factor, factored_at, done, value = None, theta, False, None
        for newton in range(1, _MAX_NEWTON + 2):
            p = np.exp(theta - theta.max())
            beats = p[:, None] / (p[:, None] + p[None, :])  # P(i beats j)
            expected = pairs * beats
            gradient = expected.sum(axis=1) - wins + theta.sum()
            if done:
                grad = float(np.abs(gradient).max())
                return (theta, _MM_STEPS + newton - 1, grad) if np.isfinite(grad) else None
            if newton > _MAX_NEWTON:
                return None
            if factor is None or float(np.abs(theta - factored_at).max()) > _REUSE:
                hessian = expected * beats.T  # n_ij s_ij s_ji: the Laplacian's weights
                np.negative(hessian, out=hessian)
                np.fill_diagonal(hessian, 0.0)
                np.fill_diagonal(hessian, -hessian.sum(axis=1))
                hessian += 1.0  # the (sum theta)^2 / 2 term
                if not np.isfinite(hessian).all():
                    return None
                try:
                    factor = cho_factor(hessian, overwrite_a=True, check_finite=False)
                except LinAlgError:
                    return None
                factored_at = theta
            step = -cho_solve(factor, gradient, check_finite=False)
            if not np.isfinite(step).all():
                return None
            if float(step.max() - step.min()) > _SAFE_SPREAD:  # backtrack on the objective
                decrement = -float(gradient @ step)
                value = objective(theta) if value is None else value
                scale = 1.0
                while True:
                    candidate = theta + scale * step
                    trial = objective(candidate)
                    if trial <= value - 0.25 * scale * decrement:
                        break
                    scale *= 0.5
                    if scale < 1e-10:
                        return None
                theta, value = candidate, trial
                continue
            theta, value = theta + step, None
            size = float(np.abs(step).max())
            # converged; or the gradient is float rounding (the constant sum-theta part aside,
            # which only shifts), so further steps would be rounding too
            done = size <= _TOL or size <= _FLOOR and float(np.abs(gradient - gradient.mean()).max()) <= rounding
    return None


def _trust_exact(a: np.ndarray) -> tuple[np.ndarray, int, str]:
    """The former solver, kept as the fallback: scipy's trust-region Newton (``trust-exact``),
    finished by ``root`` (``hybr``) when the likelihood's float resolution stops it short.
    Returns the log-strengths, the iterations and scipy's message."""
    n = len(a)
    pairs = a + a.T

    def objective(theta: np.ndarray) -> float:
        diff = theta[:, None] - theta[None, :]
        return float(-(a * log_expit(diff)).sum() + 0.5 * theta.sum() ** 2)

    def gradient(theta: np.ndarray) -> np.ndarray:
        sig = expit(theta[:, None] - theta[None, :])  # P(i beats j)
        return (pairs * sig).sum(axis=1) - a.sum(axis=1) + theta.sum()

    def hessian(theta: np.ndarray) -> np.ndarray:
        sig = expit(theta[:, None] - theta[None, :])
        h = -pairs * sig * sig.T
        np.fill_diagonal(h, 0.0)
        np.fill_diagonal(h, -h.sum(axis=1))
        return h + 1.0  # the (sum theta)^2 / 2 term

    res = minimize(objective, np.zeros(n), jac=gradient, hess=hessian, method="trust-exact",
                   options={"gtol": _GTOL, "maxiter": 1000})
    theta, iterations = res.x, int(res.nit)
    if float(np.abs(gradient(theta)).max()) > _GTOL:
        # the likelihood itself cannot resolve the last digits: solve gradient = 0 from there
        polish = root(gradient, theta, jac=hessian, method="hybr", options={"xtol": 1e-15})
        theta, iterations = polish.x, iterations + int(polish.nfev)
    return theta, iterations, str(res.message)


def _gradient_norm(a: np.ndarray, theta: np.ndarray) -> float:
    """max |gradient| of the normalized negative log-likelihood plus ``(sum theta)^2 / 2``."""
    sig = expit(theta[:, None] - theta[None, :])
    return float(np.abs(((a + a.T) * sig).sum(axis=1) - a.sum(axis=1) + theta.sum()).max())


def _equal_totals_tie(counts: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """On a balanced board (every pair compared with the same total weight, as on a complete
    board with ``ties="half"``) the log-strengths are a strictly increasing function of the win
    totals: give systems with equal totals the same float (their mean), not values a rounding
    error apart. Other boards are returned as they are."""
    compared = counts + counts.T
    common = compared[0, 1]
    compared[np.diag_indices_from(compared)] = common
    if not (compared == common).all():
        return theta
    _, group = np.unique(counts.sum(axis=1), return_inverse=True)
    sizes = np.bincount(group)
    if len(sizes) == len(theta):
        return theta
    return (np.bincount(group, weights=theta) / sizes)[group]


def _bradley_terry_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    n = p.n_systems
    pseudo = opts["prior"]  # in the units of the task weights, as the matrix
    observed = p.preferences if opts["ties"] == "half" else p.wins
    counts = np.array(observed, dtype=np.float64) + pseudo * (1.0 - np.eye(n))  # A[i, j]
    support = counts > 0
    np.fill_diagonal(support, False)
    if not _strongly_connected(support):
        raise _no_mle(p.systems, support)
    a = counts / counts.sum()  # the optimum does not depend on the scale: keep the numbers near 1
    solved, method, message = _newton(a), "newton", ""
    if solved is not None:
        theta, iterations, grad = solved
    if solved is None or not grad <= _ACCEPT:
        theta, iterations, message = _trust_exact(a)
        grad, method = _gradient_norm(a, theta), "trust-exact"
    if not grad <= _ACCEPT:
        raise SolveFailedError(
            f"Bradley-Terry strengths of {n} systems: the Newton iteration did not converge, and "
            f"scipy.optimize.minimize (trust-exact) and root (hybr) stopped with gradient {grad:.3g} "
            f"({message}); pass prior=0.5 to regularize the likelihood"
        )
    theta = _equal_totals_tie(counts, theta - theta.mean())
    theta = theta - theta.mean()
    theta[theta == 0] = 0.0
    share = np.exp(theta - theta.max())
    idx = pd.Index(p.systems, dtype=object)
    details = {
        "strengths": pd.Series(share / share.sum(), index=idx),
        "prior": float(pseudo),
        "iterations": iterations,
        "gradient_norm": grad,
        "method": method,
    }
    return CoreOutput(theta, details)


_SPECS: dict[str, RuleSpec] = {
    "bradley_terry": RuleSpec("bradley_terry", "majority", _bradley_terry_core, True, True, True),
}


@rule(_SPECS["bradley_terry"], linear='its strengths solve a likelihood, not a weighted sum of per-task points')
def bradley_terry(
    data: Leaderboard | PairwiseMatrix,
    *,
    prior: float = 0.0,
    ties: BTTies = "half",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Bradley-Terry: maximum-likelihood log-strengths from the tasks' pairwise outcomes.

    ``A[i, j] = wins[i, j] + ties[i, j] / 2 + pseudo`` counts how much ``i`` beat ``j``: each
    task comparing them counts with its weight, a tied task as half a win to each side
    (``ties="half"``, default; ``ties="ignore"`` leaves tied tasks out), and
    ``pseudo = prior`` is added to each side of every pair as a pseudo-count. The scores
    ``theta`` maximize ``sum A[i, j] log(p_i / (p_i + p_j))`` with ``p = exp(theta)`` and
    ``sum theta = 0``; at the optimum each system's expected wins equal its wins,
    ``sum_j (A[i, j] + A[j, i]) p_i / (p_i + p_j) = sum_j A[i, j]``. They are solved by
    Newton's method after three MM steps, to a last step of at most 1e-10 (exact to float
    rounding; see :mod:`consensus.rules.strengths`), with the former trust-region solver
    as the fallback.

    With the default ``prior=0`` the maximum exists only when the graph of "i beats j at
    least partly" (``A[i, j] > 0``) is strongly connected; otherwise an error names a group
    of systems that never loses to the others (or the groups never compared) and suggests
    ``prior=0.5``. A positive prior always gives finite strengths, pulled towards equality.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        Scores, systems x tasks, or their weighted pairwise matrix (used as it is).
    prior : float, default=0.0
        Pseudo-count of wins added to each side of every pair, in the units of the task
        weights (one task of the default weight 1; a PairwiseMatrix gives the same result
        as its leaderboard). Unlike the rest of the rule it is not scale-free: multiplying
        every task weight by c needs ``prior * c`` for the same strengths (and weights near
        1e308, which the pipeline divides by a power of two, see ``details["weight_scale"]``,
        meet the prior in those units). Must be finite and >= 0.
    ties : {"half", "ignore"}, default="half"
        A task where the two systems tie: half a win to each (recorded as
        ``result.ties``), or no comparison at all.
    tie_tol : float, default=0.0
        Scores within `tie_tol` of each other count as a tied task (used on a
        Leaderboard; a pairwise matrix is taken as it is).
    **options
        The options shared by every rule (``missing``, ``min_coverage``, ``weighting``,
        ``group_weights``, ``two_step``, ``tie_break``), as documented in
        :func:`consensus.rules.rank`. With ``missing=None`` missing scores are allowed:
        each pair is compared on the tasks both are scored on.

    Returns
    -------
    RuleResult
        ``scores``: the log-strengths ``theta`` (sum 0, higher is better; ``theta_i -
        theta_j`` is the log-odds that ``i`` beats ``j``). ``details``: ``strengths``
        (``p`` normalized to sum 1, a Series), ``prior``, ``iterations`` and
        ``gradient_norm`` (of the likelihood normalized to total weight 1, at the
        solution), ``method`` (``"newton"``, or ``"trust-exact"`` when the Newton iteration
        did not converge and the former scipy solver was used).

    Raises
    ------
    InvalidOptionError
        The maximum-likelihood strengths do not exist (``prior=0`` and the "beats at least
        partly" graph is not strongly connected; the message names the systems); `prior`
        is negative, not finite or not a number; `ties` is unknown; `tie_tol` is invalid; a shared option is
        invalid or cannot apply to `data`; or `data` has an unsupported type.
    SolveFailedError
        Neither the Newton iteration nor the fallback optimizer brought the gradient below
        1e-10 (not expected: the problem is strictly concave once the graph is strongly
        connected).

    See Also
    --------
    copeland, minimax : majority rules on the same pairwise matrix.

    References
    ----------
    .. [1] R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I.
       The method of paired comparisons", Biometrika 39 (1952) 324-345.
    .. [2] L. R. Ford Jr., "Solution of a ranking problem from binary comparisons", The
       American Mathematical Monthly 64 (1957) 28-33.

    Examples
    --------
    Two systems, a ahead on 3 tasks of 4: p_a / (p_a + p_b) = 3/4, so theta_a - theta_b =
    log 3.

    >>> import numpy as np, pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t1": [2.0, 1.0], "t2": [2.0, 1.0], "t3": [2.0, 1.0], "t4": [1.0, 2.0]},
    ...                      index=["a", "b"])
    >>> res = bradley_terry(cs.Leaderboard.from_frame(frame))
    >>> bool(np.isclose(res.scores["a"] - res.scores["b"], np.log(3))), res.details["strengths"].round(3).tolist()
    (True, [0.75, 0.25])

    A system that never loses has no finite strength, unless a prior is given:

    >>> bradley_terry(cs.Leaderboard.from_frame(frame.drop(columns="t4")))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    consensus.errors.InvalidOptionError: rule 'bradley_terry': the maximum-likelihood strengths do not exist: system(s) 'a' never lose ...
    >>> bradley_terry(cs.Leaderboard.from_frame(frame.drop(columns="t4")), prior=0.5).details["strengths"].round(3).tolist()
    [0.875, 0.125]
    """
    ties = check_choice("ties", ties, ("half", "ignore"), "bradley_terry")
    rule_options = {
        "prior": check_number(prior, "prior", "bradley_terry", non_negative=True),
        "ties": ties,
        "tie_tol": check_number(tie_tol, "tie_tol", non_negative=True),
    }
    return run_rule(_SPECS["bradley_terry"], data, rule_options, options)
