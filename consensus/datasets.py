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

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd

from .errors import InvalidOptionError
from .leaderboard import Leaderboard

__all__ = ["Example", "list_examples", "load_example", "votenrank_toy", "colombo_table1", "gumbel_leaderboard"]


def _read_csv(name: str) -> pd.DataFrame:
    with resources.files("consensus").joinpath("data", name).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, index_col=0)


def votenrank_toy() -> Leaderboard:
    """Rofin et al. 2023, appendix A.1, Table 6 (higher is better).

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
    return Leaderboard.from_frame(frame)


def colombo_table1() -> Leaderboard:
    """Colombo et al. 2022, Table 1 (lower is better on every task, see the module notes)."""
    frame = _read_csv("colombo_table1.csv")
    frame.index.name = None
    return Leaderboard.from_frame(frame, lower_is_better=list(frame.columns))


def gumbel_leaderboard(
    n_systems: int = 20, n_tasks: int = 20, *, phi: float = 0.05, seed: int | None = 0
) -> Leaderboard:
    """A synthetic leaderboard from the Gumbel model of Colombo et al. 2022, sec. 4.1.

    System ``s{n}`` (n = 1..N) scores Gumbel(phi * n, 1) on each task, independently.
    The ground-truth ranking is ``s{N}, ..., s1``.

    Examples
    --------
    >>> lb = gumbel_leaderboard(5, 3, phi=1.0, seed=1)
    >>> lb.systems, lb.n_tasks
    (('s1', 's2', 's3', 's4', 's5'), 3)
    """
    if int(n_systems) != n_systems or n_systems < 2:
        raise InvalidOptionError(f"n_systems must be an integer >= 2, got {n_systems!r}")
    if int(n_tasks) != n_tasks or n_tasks < 1:
        raise InvalidOptionError(f"n_tasks must be an integer >= 1, got {n_tasks!r}")
    if not np.isfinite(phi) or phi < 0:
        raise InvalidOptionError(f"phi must be finite and >= 0, got {phi!r}")
    rng = np.random.default_rng(seed)
    loc = phi * np.arange(1, n_systems + 1)[:, None]
    scores = rng.gumbel(loc=loc, scale=1.0, size=(int(n_systems), int(n_tasks)))
    frame = pd.DataFrame(
        scores, index=[f"s{i}" for i in range(1, n_systems + 1)], columns=[f"t{j}" for j in range(1, n_tasks + 1)]
    )
    return Leaderboard.from_frame(frame)


@dataclass(frozen=True, slots=True)
class Example:
    """A built-in example: its name, where it comes from, and how to load it."""

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
    """The built-in examples, in a fixed order."""
    return list(_EXAMPLES.values())


def load_example(name: str = "votenrank-toy", **params: Any) -> Leaderboard:
    """Load a built-in example by name; `params` go to the generator (``gumbel`` only).

    Examples
    --------
    >>> load_example("colombo-table1").lower_is_better == frozenset(f"Task{i}" for i in range(1, 7))
    True
    """
    try:
        example = _EXAMPLES[name]
    except KeyError:
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
