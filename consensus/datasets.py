"""Built-in example leaderboards and the seeded synthetic generator.

- ``votenrank-toy``: the 4-system, 5-task toy leaderboard of Rofin et al. 2023
  (Vote'n'Rank), appendix A.1, Table 6. The paper gives per-task rankings only; the
  scores 4, 3, 2, 1 (higher is better) reproduce them.
- ``colombo-table1``: the 3-system, 6-task example of Colombo et al. 2022, Table 1.
  The ranks printed in parentheses give rank 1 to the *smallest* score, and only with
  lower-is-better on every task do the paper's statements hold together: the mean
  ranks A > B > C (A has the smallest sum), Borda ranks C > B > A (rank sums 11 < 12 <
  13), and the pairwise comparisons give B > A, C > B and A = C (3 tasks each). So this
  example is loaded with ``lower_is_better`` = all tasks.
- ``gumbel``: the synthetic model of Colombo et al. 2022, sec. 4.1: the score of system
  ``n`` (1-based) on every task is an independent Gumbel(loc = phi * n, scale = 1) draw,
  so the ground truth ranks ``s{N}`` first and ``s1`` last; phi = 0 is pure noise.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd

from .arguments import check_count, check_rng_seed
from .errors import InvalidOptionError
from .leaderboard import Leaderboard

__all__ = ["Example", "list_examples", "load_example", "votenrank_toy", "colombo_table1", "gumbel_leaderboard"]


def _read_csv(name: str) -> pd.DataFrame:
    with resources.files("consensus").joinpath("data", name).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, index_col=0)


def votenrank_toy() -> Leaderboard:
    """Rofin et al. 2023, appendix A.1, Table 6 (higher is better).

    Returns
    -------
    Leaderboard
        Systems A-D x tasks t1-t5, scores 4, 3, 2, 1 reproducing the paper's per-task
        rankings; B is the Condorcet winner.

    Examples
    --------
    >>> votenrank_toy().scores
        t1   t2   t3   t4   t5
    A  4.0  4.0  1.0  1.0  1.0
    B  3.0  1.0  4.0  3.0  3.0
    C  2.0  3.0  2.0  4.0  2.0
    D  1.0  2.0  3.0  2.0  4.0
    """
    frame = _read_csv("votenrank_toy.csv")
    frame.index.name = None
    return Leaderboard.from_frame(frame, keep_columns=True)


def colombo_table1() -> Leaderboard:
    """Colombo et al. 2022, Table 1 (lower is better on every task, see the module notes).

    Returns
    -------
    Leaderboard
        Systems A, B, C x tasks Task1-Task6, every task lower-is-better.

    Examples
    --------
    >>> lb = colombo_table1()
    >>> lb.systems, lb.n_tasks
    (('A', 'B', 'C'), 6)
    """
    frame = _read_csv("colombo_table1.csv")
    frame.index.name = None
    return Leaderboard.from_frame(frame, lower_is_better=list(frame.columns), keep_columns=True)


def gumbel_leaderboard(
    n_systems: int = 20, n_tasks: int = 20, *, phi: float = 0.05, seed: int | None = 0
) -> Leaderboard:
    """A synthetic leaderboard from the Gumbel model of Colombo et al. 2022, sec. 4.1.

    System ``s{n}`` (n = 1..N) scores Gumbel(phi * n, 1) on each task, independently.
    The ground-truth ranking is ``s{N}, ..., s1``.

    Parameters
    ----------
    n_systems : int, default=20
        Number of systems N (at least 2), labelled ``s1`` .. ``s{N}``.
    n_tasks : int, default=20
        Number of tasks (at least 1), labelled ``t1`` .. ``t{T}``.
    phi : float, default=0.05
        Dispersion: the location step between consecutive systems (finite, >= 0; 0 is
        pure noise).
    seed : int or None, default=0
        Seed of ``numpy.random.default_rng``; the same seed gives the same scores.

    Returns
    -------
    Leaderboard
        Complete scores, higher is better, every task weight 1.

    Raises
    ------
    InvalidOptionError
        If `n_systems` < 2, `n_tasks` < 1 (or either is not an integer: ``5.0`` is
        refused), `phi` is not a number, negative or not finite, or `seed` is neither an
        integer >= 0 nor None.

    Examples
    --------
    >>> lb = gumbel_leaderboard(5, 3, phi=1.0, seed=1)
    >>> lb.systems, lb.n_tasks
    (('s1', 's2', 's3', 's4', 's5'), 3)
    """
    n_systems = check_count(n_systems, "n_systems", 2)
    n_tasks = check_count(n_tasks, "n_tasks", 1)
    if isinstance(phi, bool) or not isinstance(phi, numbers.Real) or not np.isfinite(phi) or phi < 0:
        raise InvalidOptionError(f"phi must be a finite number >= 0, got {phi!r}")
    rng = np.random.default_rng(check_rng_seed(seed))
    loc = phi * np.arange(1, n_systems + 1)[:, None]
    scores = rng.gumbel(loc=loc, scale=1.0, size=(int(n_systems), int(n_tasks)))
    frame = pd.DataFrame(
        scores, index=[f"s{i}" for i in range(1, n_systems + 1)], columns=[f"t{j}" for j in range(1, n_tasks + 1)]
    )
    return Leaderboard.from_frame(frame, keep_columns=True)  # generated tasks: nothing to detect


@dataclass(frozen=True, slots=True)
class Example:
    """A built-in example: its name, where it comes from, and how to load it.

    Attributes
    ----------
    name : str
        The name :func:`load_example` takes (``"votenrank-toy"``, ...).
    description : str
        The source and size, one line.
    loader : callable
        Returns the :class:`Leaderboard`; takes `parameters` as keywords.
    parameters : tuple of str
        Keyword arguments the loader accepts (empty for fixed tables).
    """

    name: str
    description: str
    loader: Callable[..., Leaderboard]
    parameters: tuple[str, ...] = ()


_EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in (
        Example("votenrank-toy", "Rofin et al. 2023 (Vote'n'Rank), appendix A.1, Table 6: 4 systems x 5 tasks", votenrank_toy),
        Example("colombo-table1", "Colombo et al. 2022, Table 1: 3 systems x 6 tasks, lower is better", colombo_table1),
        Example(
            "gumbel",
            "synthetic Gumbel model of Colombo et al. 2022, sec. 4.1 (n, tasks, phi, seed)",
            gumbel_leaderboard,
            ("n_systems", "n_tasks", "phi", "seed"),
        ),
    )
}


def list_examples() -> list[Example]:
    """The built-in examples, in a fixed order.

    Returns
    -------
    list of Example
        ``votenrank-toy``, ``colombo-table1``, ``gumbel``.

    Examples
    --------
    >>> [e.name for e in list_examples()]
    ['votenrank-toy', 'colombo-table1', 'gumbel']
    """
    return list(_EXAMPLES.values())


def load_example(name: str = "votenrank-toy", **params: Any) -> Leaderboard:
    """Load a built-in example by name; `params` go to the generator (``gumbel`` only).

    Parameters
    ----------
    name : str, default="votenrank-toy"
        One of the names of :func:`list_examples`.
    **params
        Keyword arguments of the example's loader: ``n_systems``, ``n_tasks``, ``phi``,
        ``seed`` for ``gumbel`` (:func:`gumbel_leaderboard`); the others take none.

    Returns
    -------
    Leaderboard

    Raises
    ------
    InvalidOptionError
        If `name` is unknown, a parameter is not one the example takes, or the generator
        rejects a value.

    Examples
    --------
    >>> load_example("colombo-table1").lower_is_better == frozenset(f"Task{i}" for i in range(1, 7))
    True
    >>> load_example("gumbel", n_systems=3, n_tasks=2, seed=1)
    Leaderboard(3 systems x 2 tasks, missing=0)
    """
    try:
        example = _EXAMPLES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise InvalidOptionError(
            f"unknown example {name!r}; choose one of {', '.join(repr(k) for k in _EXAMPLES)}"
        ) from None
    unknown = set(params) - set(example.parameters)
    if unknown:
        raise InvalidOptionError(
            f"example {name!r} takes no parameter(s) {', '.join(sorted(unknown))}"
            + (f"; it takes {', '.join(example.parameters)}" if example.parameters else "")
        )
    return example.loader(**params)
