"""Paired-comparison likelihoods: Bradley-Terry and Davidson's ties, by Newton's method on dense counts.

numpy in, arrays out (never imports :mod:`consensus`); :mod:`consensus.rules.strengths` runs
them and documents the model, the existence condition and the stopping rule. Each solver
returns None (Newton) or its best point (the former trust-region solver, the fallback) and
leaves the verdict on convergence to the caller.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.optimize import minimize, root
from scipy.special import expit, log_expit

__all__ = [
    "TOL",
    "FLOOR",
    "MM_STEPS",
    "SAFE_SPREAD",
    "REUSE",
    "MAX_NEWTON",
    "GTOL",
    "ACCEPT",
    "strongly_connected",
    "newton",
    "trust_exact",
    "trust_then_root",
    "gradient_norm",
    "equal_totals_tie",
    "laplacian",
    "bt_information",
    "centered_covariance",
    "davidson_parts",
    "davidson_objective",
    "davidson_derivatives",
    "davidson_newton",
    "davidson_trust_exact",
]

#: The iteration stops after a Newton step that moves no log-strength by more than this
#: (the convergence is quadratic there: the strengths are then exact to float rounding).
TOL = 1e-10
#: ... or after a step of at most this taken from a gradient at float rounding: the steps are
#: then rounding amplified by a badly conditioned Hessian (e.g. a tiny prior on a board where
#: some systems almost never lose), not progress.
FLOOR = 1e-6
#: MM steps before the Newton steps (each costs a few n x n array passes; a Newton step also
#: factorizes an n x n matrix).
MM_STEPS = 3
#: A Newton step whose log-strength differences change by at most this is taken whole.
SAFE_SPREAD = 0.5
#: A Hessian factorized at most this far (in every log-strength) from the current point is
#: used again (a chord step: the convergence stays faster than 1e-3 per step).
REUSE = 1e-3
#: Newton steps (backtracked ones included) before falling back to :func:`trust_exact`.
MAX_NEWTON = 50
#: The fallback's trust-exact iterations stop when the gradient of the likelihood (normalized
#: to total weight 1) is below this; the optimum is then within about this of the exact one.
GTOL = 1e-12
#: A solution whose gradient is above this is a failure (SolveFailedError).
ACCEPT = 1e-10


def strongly_connected(support: np.ndarray) -> bool:
    """Whether every system reaches every other along ``support`` (a dense boolean matrix):
    node 0 reaches all and all reach node 0 (a breadth-first search each way, O(n^2)).

    Parameters
    ----------
    support : ndarray of bool (n, n)

    Returns
    -------
    bool
    """
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


def newton(a: np.ndarray) -> tuple[np.ndarray, int, float] | None:
    """The maximum-likelihood log-strengths of the normalized counts `a` (zero diagonal, total
    1, "beats at least partly" graph strongly connected), the number of iterations and the
    gradient norm there; None if the iteration did not converge (the caller then uses
    :func:`trust_exact`).

    Start at ``theta_i = log(wins_i / losses_i) / 2`` (exact for two systems), take
    :data:`MM_STEPS` MM steps (Zermelo 1929; Hunter 2004: ``p_i <- wins_i / sum_j n_ij / (p_i +
    p_j)``, which never lower the likelihood), then Newton steps on the gradient of the negative
    log-likelihood plus ``(sum theta)^2 / 2``: the Hessian is the graph Laplacian with weights
    ``n_ij s_ij s_ji`` (``s_ij = P(i beats j)``, ``n_ij = a_ij + a_ji``) plus the all-ones matrix,
    positive definite, factorized by Cholesky (and used again for the last steps, see
    :data:`REUSE`). Along a step whose log-strength differences change by at most ``r`` every
    Laplacian weight changes by at most a factor ``e^r``, so a step with ``r <= 0.5``
    (:data:`SAFE_SPREAD`) lowers the objective by at least ``0.17`` times the Newton decrement
    without evaluating it; a longer one is backtracked on the objective (Armijo). The iteration
    stops after a step of at most :data:`TOL` in every log-strength, or of at most
    :data:`FLOOR` computed from a gradient at float rounding (an ill-conditioned board).

    Parameters
    ----------
    a : ndarray (n, n)
        Normalized counts: ``a[i, j]`` the share of the total weight where ``i`` beats ``j``.

    Returns
    -------
    tuple (ndarray, int, float) or None
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
        for _ in range(MM_STEPS):
            p = np.exp(theta - theta.max())
            theta = np.log(wins) - np.log((pairs / (p[:, None] + p[None, :])).sum(axis=1))
        theta -= theta.mean()
        factor, factored_at, done, value = None, theta, False, None
        for newton in range(1, MAX_NEWTON + 2):
            p = np.exp(theta - theta.max())
            beats = p[:, None] / (p[:, None] + p[None, :])  # P(i beats j)
            expected = pairs * beats
            gradient = expected.sum(axis=1) - wins + theta.sum()
            if done:
                grad = float(np.abs(gradient).max())
                return (theta, MM_STEPS + newton - 1, grad) if np.isfinite(grad) else None
            if newton > MAX_NEWTON:
                return None
            if factor is None or float(np.abs(theta - factored_at).max()) > REUSE:
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
            if float(step.max() - step.min()) > SAFE_SPREAD:  # backtrack on the objective
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
            done = size <= TOL or size <= FLOOR and float(np.abs(gradient - gradient.mean()).max()) <= rounding
    return None


def trust_exact(a: np.ndarray) -> tuple[np.ndarray, int, str]:
    """The former solver, kept as the fallback: scipy's trust-region Newton (``trust-exact``),
    finished by ``root`` (``hybr``) when the likelihood's float resolution stops it short.
    Returns the log-strengths, the iterations and scipy's message.

    Parameters
    ----------
    a : ndarray (n, n)
        Normalized counts: ``a[i, j]`` the share of the total weight where ``i`` beats ``j``.

    Returns
    -------
    tuple (ndarray, int, str)
    """
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

    return trust_then_root(objective, gradient, hessian, np.zeros(n))


def trust_then_root(
    objective: Callable[[np.ndarray], float], gradient: Callable[[np.ndarray], np.ndarray],
    hessian: Callable[[np.ndarray], np.ndarray], start: np.ndarray,
) -> tuple[np.ndarray, int, str]:
    """scipy's ``trust-exact`` from `start`, then ``root`` (``hybr``) on the gradient when the
    objective's float resolution stops it short of :data:`GTOL` (the fallback of both models).

    Parameters
    ----------
    objective, gradient, hessian : callable
        Of the point.
    start : ndarray

    Returns
    -------
    tuple (ndarray, int, str)
        The point, the iterations (and root's evaluations) and scipy's message.
    """
    res = minimize(objective, start, jac=gradient, hess=hessian, method="trust-exact",
                   options={"gtol": GTOL, "maxiter": 1000})
    x, iterations = res.x, int(res.nit)
    if float(np.abs(gradient(x)).max()) > GTOL:
        # the objective itself cannot resolve the last digits: solve gradient = 0 from there
        polish = root(gradient, x, jac=hessian, method="hybr", options={"xtol": 1e-15})
        x, iterations = polish.x, iterations + int(polish.nfev)
    return x, iterations, str(res.message)


def gradient_norm(a: np.ndarray, theta: np.ndarray) -> float:
    """max |gradient| of the normalized negative log-likelihood plus ``(sum theta)^2 / 2``.

    Parameters
    ----------
    a : ndarray (n, n)
        Normalized counts: ``a[i, j]`` the share of the total weight where ``i`` beats ``j``.
    theta : ndarray (n,)

    Returns
    -------
    float
    """
    sig = expit(theta[:, None] - theta[None, :])
    return float(np.abs(((a + a.T) * sig).sum(axis=1) - a.sum(axis=1) + theta.sum()).max())


def equal_totals_tie(counts: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """On a balanced board (every pair compared with the same total weight, as on a complete
    board with ``ties="half"``) the log-strengths are a strictly increasing function of the win
    totals: give systems with equal totals the same float (their mean), not values a rounding
    error apart. Other boards are returned as they are.

    Parameters
    ----------
    counts : ndarray (n, n)
        Wins (ties split) in task-weight units.
    theta : ndarray (n,)
        Centered log-strengths.

    Returns
    -------
    ndarray (n,)
    """
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


def laplacian(weights: np.ndarray) -> np.ndarray:
    """The graph Laplacian of the symmetric `weights` (their diagonal ignored).

    Parameters
    ----------
    weights : ndarray (n, n)

    Returns
    -------
    ndarray (n, n)
    """
    lap = -weights
    np.fill_diagonal(lap, 0.0)
    np.fill_diagonal(lap, -lap.sum(axis=1))
    return lap


def bt_information(counts: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """The Hessian of the plain model's negative log-likelihood of the `counts` (``A[i, j]``, in
    task-weight units) at `theta`: the Laplacian with weights ``(A[i, j] + A[j, i]) s_ij s_ji``.

    Parameters
    ----------
    counts : ndarray (n, n)
    theta : ndarray (n,)

    Returns
    -------
    ndarray (n, n)
    """
    sig = expit(theta[:, None] - theta[None, :])  # P(i beats j)
    return laplacian((counts + counts.T) * sig * sig.T)


def centered_covariance(information: np.ndarray, n: int) -> np.ndarray:
    """The Moore-Penrose pseudo-inverse of `information` (positive semidefinite, its null space
    exactly the shift ``v``: ones on the first `n` coordinates, the log-strengths, zeros on any
    further parameter): the covariance of the centered log-strengths (and of the others).

    ``(H + c v v^T)^-1 = H^+ + v v^T / (c n^2)`` (``H v = 0``, ``H^+ v = 0``, ``H H^+ = I - v v^T / n``),
    so ``H^+`` is the inverse of a positive definite matrix, by Cholesky, less ``v v^T / (c n^2)``;
    ``c = trace(H_theta) / n^2`` puts the shift's eigenvalue ``c n`` at the mean degree. Where
    float64 cannot resolve the information (a log-strength gap near 700: ``s_ij s_ji``
    underflows) the factorization fails and every entry is infinite.

    Parameters
    ----------
    information : ndarray (k, k)
    n : int
        The log-strengths: the first `n` parameters.

    Returns
    -------
    ndarray (k, k)
    """
    size = len(information)
    v = np.zeros(size)
    v[:n] = 1.0
    c = float(np.trace(information[:n, :n])) / n**2
    shifted = information + c * np.outer(v, v)
    try:
        factor = cho_factor(shifted, check_finite=True)
        inverse = cho_solve(factor, np.eye(size), check_finite=False)
    except (LinAlgError, ValueError):
        return np.full((size, size), np.inf)
    inverse -= np.outer(v, v) / (c * n**2)
    return 0.5 * (inverse + inverse.T)


def davidson_parts(theta: np.ndarray, nu: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Davidson's ``D_ij / sqrt(p_i p_j) = e^(d/2) + e^(-d/2) + nu`` (``d = theta_i - theta_j``;
    ``d / 2`` clipped to +-700, where the probabilities are 0 and 1 to float precision),
    ``P(i beats j) = e^(d/2) / that`` and ``P(tie) = nu / that``, n x n.

    Parameters
    ----------
    theta : ndarray (n,)
    nu : float

    Returns
    -------
    tuple of three ndarray (n, n)
    """
    half = np.exp(np.clip(0.5 * (theta[:, None] - theta[None, :]), -700.0, 700.0))
    scaled = half + half.T + nu
    return scaled, half / scaled, nu / scaled


def davidson_objective(x: np.ndarray, w: np.ndarray, t: np.ndarray) -> float:
    """Davidson's negative log-likelihood of wins `w` and ties `t` (symmetric) at ``x = (theta,
    log nu)``, plus ``(sum theta)^2 / 2``: with ``log D_ij = log(D_ij / sqrt(p_i p_j)) + (theta_i +
    theta_j) / 2`` the terms linear in theta gather into ``(losses - wins) / 2``.

    Parameters
    ----------
    x : ndarray (n + 1,)
    w, t : ndarray (n, n)

    Returns
    -------
    float
    """
    theta, lam = x[:-1], float(x[-1])
    scaled, _, _ = davidson_parts(theta, float(np.exp(lam)))
    return float(0.5 * ((w + w.T + t) * np.log(scaled)).sum() + 0.5 * theta @ (w.sum(axis=0) - w.sum(axis=1))
                 - 0.5 * lam * t.sum() + 0.5 * theta.sum() ** 2)


def davidson_derivatives(
    x: np.ndarray, w: np.ndarray, t: np.ndarray, *, shift: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of :func:`davidson_objective` (without the ``(sum theta)^2 / 2``
    term when not `shift`: then the Hessian is the observed information).

    With ``h_ij = s_ij + tau_ij / 2`` (expected score of ``i`` against ``j``, a tie half) and
    ``n_ij = w_ij + w_ji + t_ij``: ``d/d theta_i = sum_j n_ij h_ij - sum_j (w_ij + t_ij / 2)``,
    ``d/d lambda = sum_(i<j) n_ij tau_ij - T``; the theta block is the Laplacian with weights
    ``n_ij (h_ij h_ji - tau_ij / 4) = n_ij (s_ij s_ji + tau_ij (1 - tau_ij) / 4) >= 0``, the
    cross terms ``sum_j n_ij tau_ij (h_ji - h_ij) / 2`` and the corner ``sum_(i<j) n_ij tau_ij
    (1 - tau_ij)`` (each ``log D_ij`` is a log-sum-exp: its Hessian is ``M^T (diag q - q q^T) M``).

    Parameters
    ----------
    x : ndarray (n + 1,)
    w, t : ndarray (n, n)
    shift : bool, default=True

    Returns
    -------
    tuple (ndarray (n + 1,), ndarray (n + 1, n + 1))
    """
    theta = x[:-1]
    n = len(theta)
    _, s, tau = davidson_parts(theta, float(np.exp(x[-1])))
    pairs = w + w.T + t
    half = s + 0.5 * tau
    weighted_tau = pairs * tau
    grad = np.empty(n + 1)
    grad[:n] = (pairs * half).sum(axis=1) - w.sum(axis=1) - 0.5 * t.sum(axis=1)
    grad[n] = 0.5 * (weighted_tau.sum() - t.sum())
    hess = np.empty((n + 1, n + 1))
    hess[:n, :n] = laplacian(pairs * (half * half.T) - 0.25 * weighted_tau)
    hess[:n, n] = hess[n, :n] = 0.5 * (weighted_tau * (half.T - half)).sum(axis=1)
    hess[n, n] = 0.5 * (weighted_tau * (1.0 - tau)).sum()
    if shift:
        grad[:n] += theta.sum()
        hess[:n, :n] += 1.0
    return grad, hess


def davidson_newton(w: np.ndarray, t: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, int, float] | None:
    """Davidson's maximum-likelihood ``(theta, log nu)`` of the normalized wins `w` and ties `t`
    from `x`, the iterations and the gradient norm there; None if not converged.

    Newton steps on the convex objective (:func:`davidson_derivatives`, Cholesky), backtracked
    on the objective (Armijo) unless the decrease is at float rounding, to a step of at most
    :data:`TOL` (or :data:`FLOOR` from a gradient at rounding), at most :data:`MAX_NEWTON`.

    Parameters
    ----------
    w, t : ndarray (n, n)
    x : ndarray (n + 1,)
        The start.

    Returns
    -------
    tuple (ndarray, int, float) or None
    """
    rounding = 1000 * float(np.finfo(np.float64).eps) * max(1.0, float(w.sum(axis=1).max()))
    with np.errstate(all="ignore"):
        value = davidson_objective(x, w, t)
        for iteration in range(1, MAX_NEWTON + 1):
            gradient, hessian = davidson_derivatives(x, w, t)
            if not (np.isfinite(gradient).all() and np.isfinite(hessian).all()):
                return None
            try:
                step = -cho_solve(cho_factor(hessian, check_finite=False), gradient, check_finite=False)
            except LinAlgError:
                return None
            if not np.isfinite(step).all():
                return None
            decrement = -float(gradient @ step)
            scale, trial = 1.0, None
            if decrement > 1e-12:  # else the objective cannot tell the points apart: take the step
                while True:
                    trial = davidson_objective(x + scale * step, w, t)
                    if trial <= value - 0.25 * scale * decrement:
                        break
                    scale *= 0.5
                    if scale < 1e-10:
                        return None
            x = x + scale * step
            value = davidson_objective(x, w, t) if trial is None else trial
            size = float(np.abs(step).max())
            if scale < 1.0 or not np.isfinite(value):
                continue
            centered = gradient.copy()
            centered[:-1] -= centered[:-1].mean()  # the sum-theta part only shifts
            if size <= TOL or size <= FLOOR and float(np.abs(centered).max()) <= rounding:
                grad = float(np.abs(davidson_derivatives(x, w, t)[0]).max())
                return (x, iteration, grad) if np.isfinite(grad) else None
    return None


def davidson_trust_exact(w: np.ndarray, t: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, int, str]:
    """The fallback for :func:`davidson_newton`: scipy's ``trust-exact`` on the same objective,
    finished by ``root`` (``hybr``) on the gradient where the objective's float resolution stops it
    short (as :func:`trust_exact`).

    Parameters
    ----------
    w, t : ndarray (n, n)
    x : ndarray (n + 1,)
        The start.

    Returns
    -------
    tuple (ndarray, int, str)
    """

    def gradient(y: np.ndarray) -> np.ndarray:
        return davidson_derivatives(y, w, t)[0]

    def hessian(y: np.ndarray) -> np.ndarray:
        return davidson_derivatives(y, w, t)[1]

    return trust_then_root(lambda y: davidson_objective(y, w, t), gradient, hessian, x)
