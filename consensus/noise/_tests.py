"""The paired tests and multiple-testing corrections behind :func:`consensus.significance`.

Every function works on whole arrays of pairs at once and returns **natural logarithms of
p-values**: a p-value of a clear difference underflows to 0.0 in float64 (a z of 40 gives
1e-350), and then no level, however small, would call it tied. Decisions compare
``log p <= log level``; the p-values shown are ``exp(log p)``.

Tests (two-sided):

- :func:`z_test`: ``z = d / sqrt(se_a**2 + se_b**2)`` from the scores and their standard errors
  (the only test when only aggregates exist). It treats the two scores as independent: when
  the systems were scored on the same items the differences are positively correlated in
  practice, the true standard error of ``d`` is smaller, and the test is conservative. Two
  standard errors of 0 make an exact comparison (p = 0 when the scores differ, 1 when equal).
- :func:`sign_test`: the exact binomial test of the ``b`` items one system wins and the ``c``
  items the other wins (ties dropped). On 0/1 scores this is the exact McNemar test;
  ``p = min(1, 2 * P(Binomial(b + c, 1/2) <= min(b, c)))``, scipy's ``binomtest`` at 1/2.
- :func:`sign_flip`: the paired permutation test of the summed difference: each item's
  difference keeps or flips its sign, all ``2**k`` patterns when ``resamples >= 2**k``
  (exact, as :func:`scipy.stats.permutation_test` does then), else ``resamples`` random
  patterns and ``p = (1 + #{|T_b| >= |T|}) / (1 + resamples)``.

Corrections, over the pairs of one task (``m`` p-values):

- ``"holm"``: Holm's step-down; the k-th smallest adjusted is
  ``max_{j <= k} min(1, (m - j + 1) p_(j))``. Controls the family-wise error.
- ``"bh"``: Benjamini-Hochberg; ``min_{j >= k} min(1, m p_(j) / j)``. Controls the false
  discovery rate (scipy's ``false_discovery_control``, which needs scipy 1.11).
- ``"none"``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["CORRECTIONS", "adjusted", "sign_flip", "sign_test", "z_test"]

#: The corrections over the pairs of a task, by name.
CORRECTIONS: tuple[str, ...] = ("holm", "bh", "none")

_LOG2 = math.log(2.0)


def z_test(difference: np.ndarray, se_a: np.ndarray, se_b: np.ndarray) -> np.ndarray:
    """Log p-values of the two-sided z-test of ``difference`` (arrays of the same shape).

    Parameters
    ----------
    difference : ndarray
        Score differences.
    se_a, se_b : ndarray
        The standard errors of the two scores (>= 0).

    Returns
    -------
    ndarray
        ``log p``; 0 (p = 1) for equal scores; ``-inf`` for different scores both known exactly.

    Examples
    --------
    >>> np.exp(z_test(np.array([1.96, 0.0, 0.3]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.0]))).round(3)
    array([0.05, 1.  , 0.  ])
    """
    from scipy.special import log_ndtr

    se = np.hypot(se_a, se_b)
    out = np.zeros(np.shape(difference))
    noisy = se > 0
    z = np.abs(difference[noisy]) / se[noisy]
    out[noisy] = np.minimum(0.0, _LOG2 + log_ndtr(-z))
    exact = ~noisy & (difference != 0)
    out[exact] = -np.inf
    return out


def sign_test(wins: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """Log p-values of the two-sided exact sign test: ``wins`` against ``losses`` items.

    Parameters
    ----------
    wins, losses : ndarray
        Item counts (same shape).

    Returns
    -------
    ndarray
        ``log p``; 0 where there is no untied item.

    Examples
    --------
    >>> from scipy.stats import binomtest
    >>> print(round(float(np.exp(sign_test(np.array([9]), np.array([2]))[0])), 10), round(binomtest(9, 11).pvalue, 10))
    0.0654296875 0.0654296875
    """
    from scipy.stats import binom

    wins = np.asarray(wins, dtype=np.float64)
    losses = np.asarray(losses, dtype=np.float64)
    total = wins + losses
    out = np.zeros(np.shape(total))
    some = total > 0
    low = np.minimum(wins, losses)[some]
    out[some] = np.minimum(0.0, _LOG2 + binom.logcdf(low, total[some], 0.5))
    return out


def sign_flip(differences: np.ndarray, shared: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Log p-values of the paired permutation (sign-flip) test of every pair of a task.

    Parameters
    ----------
    differences : ndarray (n, k)
        The scores of ``n`` systems on ``k`` items (oriented, 0 where missing).
    shared : ndarray of bool (n, k)
        Where each system is scored.
    resamples : int
        Random sign patterns; all ``2**k`` patterns (an exact test) when that is not more.
    seed : int
        Seed of the random patterns (the same patterns serve every pair).

    Returns
    -------
    ndarray (n, n)
        Symmetric log p-values of the summed paired difference over the items both systems
        have; 0 on the diagonal.

    Notes
    -----
    With every system scored on every item, the statistic of pattern ``s`` for a pair is
    ``(s @ x_a) - (s @ x_b)``: one ``(patterns x k) @ (k x n)`` product serves all pairs.
    With items missing the statistic is summed pair by pair over the shared items:
    ``n**2 * k * patterns`` operations.
    """
    n, k = differences.shape
    x = np.where(shared, differences, 0.0)
    exact = k < 63 and 2**k <= resamples
    if exact:
        codes = np.arange(2**k, dtype=np.int64)[:, None] >> np.arange(k, dtype=np.int64)[None, :]
        signs = 1.0 - 2.0 * (codes & 1)
    else:
        signs = np.random.default_rng(seed).choice(np.array([-1.0, 1.0]), size=(resamples, k))
    out = np.zeros((n, n))
    if shared.all():
        projected = signs @ x.T  # patterns x n
        observed = x.sum(axis=1)
        for a in range(n - 1):
            stat = projected[:, a, None] - projected[:, a + 1 :]
            obs = observed[a] - observed[a + 1 :]
            out[a, a + 1 :] = _tail(stat, obs, exact)
    else:
        mask = shared.astype(np.float64)
        for a in range(n - 1):
            both = mask[a] * mask[a + 1 :]  # (n - a - 1, k)
            d = (x[a] - x[a + 1 :]) * both
            stat = signs @ d.T  # patterns x pairs
            out[a, a + 1 :] = _tail(stat, d.sum(axis=1), exact)
    out = out + out.T
    return out


def _tail(stat: np.ndarray, observed: np.ndarray, exact: bool) -> np.ndarray:
    """Log of the share of patterns at least as extreme as `observed` (columns: pairs)."""
    target = np.abs(observed)
    slack = 1e-12 * np.maximum(1.0, target)  # sums of the same floats in another order
    hits = (np.abs(stat) >= target - slack).sum(axis=0)
    patterns = stat.shape[0]
    share = hits / patterns if exact else (hits + 1) / (patterns + 1)
    return np.log(np.minimum(share, 1.0))


def adjusted(log_p: np.ndarray, correction: str) -> np.ndarray:
    """`log_p` (1-D, one entry per hypothesis) adjusted by `correction` (:data:`CORRECTIONS`).

    Parameters
    ----------
    log_p : ndarray (m,)
        Log p-values.
    correction : {"holm", "bh", "none"}

    Returns
    -------
    ndarray (m,)
        Log adjusted p-values, in the input order.

    Examples
    --------
    >>> p = np.array([0.01, 0.04, 0.03, 0.2])
    >>> np.exp(adjusted(np.log(p), "holm")).round(3)
    array([0.04, 0.09, 0.09, 0.2 ])
    >>> np.exp(adjusted(np.log(p), "bh")).round(3)
    array([0.04 , 0.053, 0.053, 0.2  ])
    """
    m = len(log_p)
    if correction == "none" or m == 0:
        return np.array(log_p, dtype=np.float64)
    order = np.argsort(log_p, kind="stable")
    ranked = log_p[order]
    position = np.arange(1, m + 1, dtype=np.float64)
    if correction == "holm":
        scaled = np.minimum(0.0, ranked + np.log(m - position + 1))
        steps = np.maximum.accumulate(scaled)
    elif correction == "bh":
        scaled = np.minimum(0.0, ranked + np.log(m / position))
        steps = np.minimum.accumulate(scaled[::-1])[::-1]
    else:
        raise ValueError(f"unknown correction {correction!r}")
    out = np.empty(m)
    out[order] = steps
    return out
