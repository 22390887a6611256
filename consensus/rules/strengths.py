"""Bradley-Terry strengths from the weighted pairwise matrix, by maximum likelihood.

Each task is a set of paired comparisons: system ``i`` beats ``j`` with probability
``p_i / (p_i + p_j)``. With ``A[i, j] = wins[i, j] + ties[i, j] / 2`` (a tied task is half a
win to each side; task weights count as numbers of comparisons) the log-likelihood of the
log-strengths ``theta = log p`` is ``sum_(i != j) A[i, j] log sigmoid(theta_i - theta_j)``,
concave, and shift-invariant. It is maximized by :func:`scipy.optimize.minimize` (trust-region
Newton with the exact gradient and Hessian, ``method="trust-exact"``; the Hessian is a weighted
graph Laplacian), and when the likelihood's own float resolution stops it short, the gradient
equations are finished with :func:`scipy.optimize.root`: the strengths are then exact to about
1e-12, which keeps equal strengths equal (they are compared with
:data:`~consensus.rules.SCORE_TOL`). The shift is fixed
by the term ``(sum theta)^2 / 2``, zero at the optimum, so the scores sum to 0.

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

#: Newton iterations stop when the gradient of the likelihood (normalized to total weight 1)
#: is below this; the optimum is then within about this of the exact one.
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


def _bradley_terry_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    n = p.n_systems
    pseudo = opts["prior"]  # in the units of the task weights, as the matrix
    observed = p.preferences if opts["ties"] == "half" else p.wins
    counts = np.array(observed, dtype=np.float64) + pseudo * (1.0 - np.eye(n))  # A[i, j]
    support = counts > 0
    np.fill_diagonal(support, False)
    n_strong, _ = connected_components(csr_matrix(support), directed=True, connection="strong")
    if n_strong > 1:
        raise _no_mle(p.systems, support)
    a = counts / counts.sum()  # the optimum does not depend on the scale: keep the numbers near 1
    pairs = a + a.T  # comparisons of each pair

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
    grad = float(np.abs(gradient(theta)).max())
    if not grad <= _ACCEPT:
        raise SolveFailedError(
            f"Bradley-Terry strengths of {n} systems: scipy.optimize.minimize (trust-exact) and root "
            f"(hybr) stopped with gradient {grad:.3g} ({res.message}); pass prior=0.5 to regularize "
            "the likelihood"
        )
    theta = theta - theta.mean()
    theta[theta == 0] = 0.0
    share = np.exp(theta - theta.max())
    idx = pd.Index(p.systems, dtype=object)
    details = {
        "strengths": pd.Series(share / share.sum(), index=idx),
        "prior": float(pseudo),
        "iterations": iterations,
        "gradient_norm": grad,
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
    ``sum_j (A[i, j] + A[j, i]) p_i / (p_i + p_j) = sum_j A[i, j]``.

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
        solution).

    Raises
    ------
    InvalidOptionError
        The maximum-likelihood strengths do not exist (``prior=0`` and the "beats at least
        partly" graph is not strongly connected; the message names the systems); `prior`
        is negative, not finite or not a number; `ties` is unknown; `tie_tol` is invalid; a shared option is
        invalid or cannot apply to `data`; or `data` has an unsupported type.
    SolveFailedError
        The optimizer stopped before the gradient vanished (not expected: the problem is
        strictly concave once the graph is strongly connected).

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
