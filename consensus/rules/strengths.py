"""Bradley-Terry strengths from the weighted pairwise matrix, by maximum likelihood.

Each task is a set of paired comparisons: system ``i`` beats ``j`` with probability
``p_i / (p_i + p_j)``. With ``A[i, j] = wins[i, j] + ties[i, j] / 2`` (a tied task is half a
win to each side; task weights count as numbers of comparisons) the log-likelihood of the
log-strengths ``theta = log p`` is ``sum_(i != j) A[i, j] log sigmoid(theta_i - theta_j)``,
concave, and shift-invariant; the shift is fixed by the term ``(sum theta)^2 / 2``, zero at
the optimum, so the scores sum to 0.

It is maximized by Newton's method (:func:`solvers.paired_comparison.newton`): the Hessian is a weighted graph Laplacian
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

Standard errors and intervals (``interval_level=``, off by default). At the maximum the
observed information is the Hessian of the negative log-likelihood in the counts' own units
(task weight, not normalized): the weighted Laplacian ``L`` with weights ``(A[i, j] + A[j, i])
s_ij s_ji``, ``s_ij = P(i beats j)``. It is singular along the shift ``(1, ..., 1)``; the
covariance of the centered log-strengths (``sum theta = 0``, the scores) is its Moore-Penrose
pseudo-inverse ``L^+``, which is also the inverse of ``L`` on the sum-to-zero subspace. It is
computed as ``(L + c 11^T)^-1 - 11^T / (c n^2)`` (exact, ``L^+ 1 = 0``; ``c = trace(L) / n^2``
keeps the sum well conditioned) by a Cholesky factorization at the final strengths
(:func:`solvers.paired_comparison.centered_covariance`). The *observations* are the comparisons the counts stand for:
each task comparing a pair is one Bernoulli trial of weight its task weight (a tie, with
``ties="half"``, half a win to each side: one trial split), the prior's pseudo-counts
included (the curvature of the penalized likelihood). With unit weights these are counts and
the intervals are the usual Wald intervals; with weights that are not counts (or imputed,
fractional preferences) the information is in units of task weight and the intervals are
heuristics: multiplying every weight by ``c`` divides the standard errors by ``sqrt(c)``.
The tasks themselves are not resampled: bootstrap intervals of the *positions*, over
resampled tasks, come from :func:`consensus.rank_stability`.

Davidson's tie model (``tie_model="davidson"``, Davidson 1970 [4]_). A tied task is then a
tie observation, not half a win to each side: ``P(i beats j) = p_i / D``, ``P(tie) = nu
sqrt(p_i p_j) / D``, ``D = p_i + p_j + nu sqrt(p_i p_j)``, with ``nu >= 0`` estimated jointly
with the strengths. In ``(theta, lambda = log nu)`` the negative log-likelihood is a sum of
log-sum-exp terms of affine functions minus a linear term, so convex, and strictly so apart
from the shift once every pair is linked; it is minimized by a damped Newton iteration
(:func:`solvers.paired_comparison.davidson_newton`, the same stopping rule; Armijo backtracking) from the plain
model's strengths (ties counted half) and ``nu = 2 T / (N - T)`` (the equal-strengths
estimate from the ``T`` tied of ``N`` comparisons), scipy's ``trust-exact`` being the
fallback. The gradient in ``theta_i`` is the plain one with ``s_ij + tau_ij / 2`` for
``s_ij`` (each system's expected wins plus half ties equal its observed ones), so on a
balanced board equal totals again get equal strengths. Without any tied task the maximum is
at ``nu = 0``, which is the plain model on the wins (returned as such, ``nu = 0.0``); if every
comparison is a tie (no win, no prior) ``nu`` is infinite and an error says so.

References
----------
.. [1] R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I. The
   method of paired comparisons", Biometrika 39 (1952) 324-345.
.. [2] L. R. Ford Jr., "Solution of a ranking problem from binary comparisons", The American
   Mathematical Monthly 64 (1957) 28-33 (existence: strong connectivity).
.. [3] D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", The Annals of
   Statistics 32 (2004) 384-406.
.. [4] R. R. Davidson, "On extending the Bradley-Terry model to accommodate ties in paired
   comparison experiments", Journal of the American Statistical Association 65 (1970) 317-328.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import ndtri

from solvers import paired_comparison as likelihood

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
TieModel = Literal["davidson"]

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


def _solve_plain(a: np.ndarray, n: int) -> tuple[np.ndarray, int, float, str]:
    """The plain model's log-strengths of the normalized counts `a` (Newton, or the former solver
    as the fallback): log-strengths, iterations, gradient norm, method."""
    solved, method, message = likelihood.newton(a), "newton", ""
    if solved is not None:
        theta, iterations, grad = solved
    if solved is None or not grad <= likelihood.ACCEPT:
        theta, iterations, message = likelihood.trust_exact(a)
        grad, method = likelihood.gradient_norm(a, theta), "trust-exact"
    if not grad <= likelihood.ACCEPT:
        raise SolveFailedError(
            f"Bradley-Terry strengths of {n} systems: the Newton iteration did not converge, and "
            f"scipy.optimize.minimize (trust-exact) and root (hybr) stopped with gradient {grad:.3g} "
            f"({message}); pass prior=0.5 to regularize the likelihood"
        )
    return theta, iterations, grad, method


def _solve_davidson(w: np.ndarray, t: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, float, int, float, str]:
    """Davidson's log-strengths and ``nu`` of the normalized wins `w` and ties `t` (some of each),
    from the plain model's `theta`: log-strengths, nu, iterations, gradient norm, method."""
    n = len(theta)
    ties = 0.5 * float(t.sum())
    start = np.append(theta - theta.mean(), np.log(2.0 * ties / float(w.sum())))
    solved, method, message = likelihood.davidson_newton(w, t, start), "newton", ""
    if solved is not None:
        x, iterations, grad = solved
    if solved is None or not grad <= likelihood.ACCEPT:
        x, iterations, message = likelihood.davidson_trust_exact(w, t, start)
        grad, method = float(np.abs(likelihood.davidson_derivatives(x, w, t)[0]).max()), "trust-exact"
    if not grad <= likelihood.ACCEPT:
        raise SolveFailedError(
            f"Bradley-Terry strengths of {n} systems with Davidson's ties: the Newton iteration did not "
            f"converge, and scipy.optimize.minimize (trust-exact) stopped with gradient {grad:.3g} "
            f"({message}); pass prior=0.5 to regularize the likelihood"
        )
    return x[:-1], float(np.exp(x[-1])), iterations, grad, method


def _bradley_terry_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    n = p.n_systems
    pseudo = opts["prior"]  # in the units of the task weights, as the matrix
    davidson = opts.get("tie_model") == "davidson"
    level = opts.get("interval_level")
    if davidson:
        wins = np.array(p.wins, dtype=np.float64) + pseudo * (1.0 - np.eye(n))
        tied = np.array(p.ties, dtype=np.float64)
        np.fill_diagonal(tied, 0.0)
        counts = wins + 0.5 * tied  # the plain model's A[i, j]: the same support, the start
    else:
        observed = p.preferences if opts["ties"] == "half" else p.wins
        counts = np.array(observed, dtype=np.float64) + pseudo * (1.0 - np.eye(n))  # A[i, j]
    support = counts > 0
    np.fill_diagonal(support, False)
    if not likelihood.strongly_connected(support):
        raise _no_mle(p.systems, support)
    total = counts.sum()
    a = counts / total  # the optimum does not depend on the scale: keep the numbers near 1
    with_ties = davidson and bool(tied.any())
    if with_ties and not wins.any():
        raise InvalidOptionError(
            "rule 'bradley_terry': tie_model='davidson': every comparison is a tie, so the maximum-likelihood "
            "nu is infinite; pass prior=0.5 (half a win to each side of every pair) or use tie_model=None"
        )
    theta, iterations, grad, method = _solve_plain(a, n)
    nu = 0.0
    if with_ties:
        theta, nu, more, grad, method = _solve_davidson(wins / total, tied / total, theta)
        iterations += more
    theta = likelihood.equal_totals_tie(counts, theta - theta.mean())
    theta = theta - theta.mean()
    theta[theta == 0] = 0.0
    share = np.exp(theta - theta.max())
    idx = pd.Index(p.systems, dtype=object)
    details: dict[str, Any] = {
        "strengths": pd.Series(share / share.sum(), index=idx),
        "prior": float(pseudo),
        "iterations": iterations,
        "gradient_norm": grad,
        "method": method,
    }
    if davidson:
        details["davidson_nu"] = nu
    if level is not None:
        if with_ties:  # the information of (theta, log nu), nu estimated jointly
            information = likelihood.davidson_derivatives(np.append(theta, np.log(nu)), wins, tied, shift=False)[1]
        else:
            information = likelihood.bt_information(counts, theta)
        covariance = likelihood.centered_covariance(information, n)[:n, :n]
        stderr = np.sqrt(np.maximum(np.diag(covariance), 0.0))
        half_width = float(ndtri(0.5 + 0.5 * level)) * stderr
        details["stderr"] = pd.Series(stderr, index=idx)
        details["intervals"] = {
            s: (float(lo), float(hi)) for s, lo, hi in zip(p.systems, theta - half_width, theta + half_width)
        }
        details["covariance"] = pd.DataFrame(covariance, index=idx, columns=idx)
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
    interval_level: float | None = None,
    tie_model: TieModel | None = None,
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

    ``interval_level=0.95`` adds standard errors and Wald intervals from the observed
    information: the covariance of the centered log-strengths is the pseudo-inverse of the
    Hessian of the negative log-likelihood at the maximum (a weighted Laplacian, singular
    along the common shift; the pseudo-inverse is its inverse on the sum-to-zero subspace),
    in the counts' own units. The *observations* are the pairwise counts, which are
    task-weighted wins: each task comparing a pair is taken as one Bernoulli observation
    of that pair, of weight its task weight (a tied task, with ``ties="half"``, one
    observation split half and half; the prior's pseudo-counts are counted as observed).
    With unit task weights these are the usual asymptotic intervals of the paired-comparison
    model; with weights that are not counts (or imputed, fractional preferences) the
    information is in units of task weight and the intervals are heuristics (weights times
    ``c`` shrink them by ``sqrt(c)``). They also take the model as true (every task an
    independent comparison of fixed strengths), which tasks of different kinds need not
    satisfy. Bootstrap intervals of the *positions*, resampling tasks, come from
    :func:`consensus.rank_stability`.

    ``tie_model="davidson"`` fits Davidson's (1970) model instead of counting a tied task
    as half a win: ``P(i beats j) = p_i / D``, ``P(tie) = nu sqrt(p_i p_j) / D``, ``D = p_i +
    p_j + nu sqrt(p_i p_j)``, the tied weights of the pairwise matrix (its ``ties``;
    ``tie_tol`` decides them on a leaderboard) as tie observations and ``nu >=
    0`` estimated jointly by maximum likelihood (the prior adds wins only). Two equally
    strong systems tie with probability ``nu / (2 + nu)``. With no tied task ``nu = 0`` and
    the strengths are those of the plain model.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
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
        {tie_tol}
    interval_level : float or None, default=None
        A level in (0, 1), e.g. 0.95: add ``stderr``, ``intervals`` (normal quantiles,
        ``theta_i -/+ z se_i``) and ``covariance`` to ``details`` (see above; under
        ``tie_model="davidson"`` from the joint information of the strengths and ``log nu``).
        None (default): none of them are computed (they cost an n x n inversion). They
        are in the units of the task weights the rule sees (weights near 1e308 are first
        multiplied by ``details["weight_scale"]``).
    tie_model : {None, "davidson"}, default=None
        None: ties as `ties` says (half a win, or left out). ``"davidson"``: Davidson's
        model, tied tasks are tie observations and ``details["davidson_nu"]`` the estimated
        ``nu``; `ties` must then stay ``"half"`` (``"ignore"`` would leave out the ties the
        model is for). An error if every comparison is a tie and there is no prior (``nu``
        would be infinite).
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the log-strengths ``theta`` (sum 0, higher is better; ``theta_i -
        theta_j`` is the log-odds that ``i`` beats ``j``). ``details``: ``strengths``
        (``p`` normalized to sum 1, a Series), ``prior``, ``iterations`` and
        ``gradient_norm`` (of the likelihood normalized to total weight 1, at the
        solution), ``method`` (``"newton"``, or ``"trust-exact"`` when the Newton iteration
        did not converge and the former scipy solver was used). With `interval_level`:
        ``stderr`` (a Series: the standard error of each log-strength, centered
        parametrization), ``intervals`` (system -> ``(low, high)`` of its log-strength at
        that level) and ``covariance`` (a DataFrame, system x system: the standard error of
        a difference ``theta_i - theta_j`` is ``sqrt(C_ii + C_jj - 2 C_ij)``, independent of
        the centering; overlapping intervals are not a test). With
        ``tie_model="davidson"``: ``davidson_nu`` (0.0 without tied tasks; with them
        ``iterations`` also counts those of the plain model, its starting point).

    Raises
    ------
    InvalidOptionError
        The maximum-likelihood strengths do not exist (``prior=0`` and the "beats at least
        partly" graph is not strongly connected; the message names the systems); `prior`
        is negative, not finite or not a number; `ties` is unknown; `tie_tol` is invalid;
        `interval_level` is not None nor a number in (0, 1); `tie_model` is unknown, or
        ``"davidson"`` with ``ties="ignore"`` or with ties only (and no prior); a shared option is
        invalid or cannot apply to `data`; or `data` has an unsupported type.
    SolveFailedError
        Neither the Newton iteration nor the fallback optimizer brought the gradient below
        1e-10 (not expected: the problem is strictly concave once the graph is strongly
        connected).

    See Also
    --------
    copeland, minimax : majority rules on the same pairwise matrix.
    consensus.rank_stability : bootstrap intervals of positions (tasks resampled).

    References
    ----------
    .. [1] R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I.
       The method of paired comparisons", Biometrika 39 (1952) 324-345.
    .. [2] L. R. Ford Jr., "Solution of a ranking problem from binary comparisons", The
       American Mathematical Monthly 64 (1957) 28-33.
    .. [3] R. R. Davidson, "On extending the Bradley-Terry model to accommodate ties in
       paired comparison experiments", JASA 65 (1970) 317-328.

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

    Standard errors: 4 comparisons won 3:1 give the difference ``theta_a - theta_b`` the
    variance ``1 / (4 * 3/4 * 1/4) = 4/3``; each centered log-strength is half the difference:

    >>> res = bradley_terry(cs.Leaderboard.from_frame(frame), interval_level=0.95)
    >>> res.details["stderr"].round(4).tolist(), [round(x, 3) for x in res.details["intervals"]["a"]]
    ([0.5774, 0.5774], [-0.582, 1.681])
    """
    ties = check_choice("ties", ties, ("half", "ignore"), "bradley_terry")
    tie_model = check_choice("tie_model", tie_model, (None, "davidson"), "bradley_terry")
    if tie_model == "davidson" and ties != "half":
        raise InvalidOptionError(
            "rule 'bradley_terry': tie_model='davidson' models the tied tasks, ties='ignore' would leave them "
            "out: give one or the other"
        )
    level = None
    if interval_level is not None:
        level = check_number(interval_level, "interval_level", "bradley_terry")
        if not 0.0 < level < 1.0:
            raise InvalidOptionError(f"rule 'bradley_terry': interval_level must be in (0, 1), got {interval_level!r}")
    rule_options = {
        "prior": check_number(prior, "prior", "bradley_terry", non_negative=True),
        "ties": ties,
        "tie_tol": check_number(tie_tol, "tie_tol", non_negative=True),
        "interval_level": level,
        "tie_model": tie_model,
    }
    return run_rule(_SPECS["bradley_terry"], data, rule_options, options)
