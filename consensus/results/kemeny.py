"""KemenyResult: an exact Kemeny ranking with its proof (returned by :func:`consensus.kemeny`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from .base import Display, Displayed, jsonable, ranked_facts
from .preparation import Preparation

if TYPE_CHECKING:  # pragma: no cover
    from solvers import SolveStatus

__all__ = ["KemenyDetermination", "KemenyResult"]


@dataclass(frozen=True, slots=True)
class KemenyDetermination:
    """What every optimal Kemeny ranking agrees on (``KemenyResult.determined``).

    Several rankings can reach the optimal objective; two readings of one leaderboard (a
    different system order, another solver version) may then return different ones. This
    says, exactly, which parts of the ranking are the same in all of them.

    Attributes
    ----------
    groups : tuple of tuple of str
        The ranking cut into consecutive groups of positions, each held by the same set of
        systems in every optimal ranking. A group of one is a position held by the same
        system in every optimum; a longer group is interchangeable at the optimum (its
        systems take its positions in different orders in different optima).
    flipped : tuple of tuple of str
        Pairs ``(a, b)``, ``a`` above ``b`` in the ranking, that some other optimal ranking
        reverses; every other pair is ordered the same way in every optimum.
    fixed : tuple of str
        Systems whose position is the same in every optimal ranking (ranking order).
    solves : int
        Extra integer solves the proof took (0 when the optimum is unique or every optimum
        was enumerated).

    Examples
    --------
    >>> import consensus as cs
    >>> cycle = cs.PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
    >>> d = cs.kemeny(cycle, determine=True).determined
    >>> d.groups, d.interchangeable()
    ((('a', 'b', 'c'),), [(1, 3, ('a', 'b', 'c'))])
    """

    groups: tuple[tuple[str, ...], ...]
    flipped: tuple[tuple[str, str], ...]
    fixed: tuple[str, ...]
    solves: int

    def interchangeable(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """The groups of two or more positions: ``(first, last, systems)``, positions 1-based.

        Returns
        -------
        list of tuple
        """
        out, start = [], 1
        for group in self.groups:
            if len(group) > 1:
                out.append((start, start + len(group) - 1, group))
            start += len(group)
        return out

    def determined(self, a: str, b: str) -> bool:
        """Whether systems `a` and `b` are in the same order in every optimal ranking.

        Parameters
        ----------
        a, b : str
            Two ranked systems.

        Returns
        -------
        bool
        """
        return (a, b) not in self.flipped and (b, a) not in self.flipped

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
        """
        return {"groups": [list(g) for g in self.groups], "flipped": [list(p) for p in self.flipped],
                "fixed": list(self.fixed), "solves": self.solves}


@dataclass(frozen=True, slots=True, repr=False)
class KemenyResult(Displayed):
    """An exact (or, under a time limit, best-found) Kemeny ranking with its certificate.

    Attributes
    ----------
    order : tuple of str
        Systems, best first (with `weak_order`, tied systems are listed in turn). The tie
        groups are :attr:`ranking`, as on every ranking result.
    objective : float
        Total weighted Kendall disagreement of `order` with the tasks (the sum, over
        pairs, of the task weight preferring the lower-ranked system; a tied task counts
        half), recomputed from the pairwise matrix by :func:`consensus.kemeny_objective`.
    lower_bound : float
        Proven lower bound on the optimal objective; equal to `objective` when optimal.
    status : SolveStatus
        ``OPTIMAL``, or ``TIME_LIMIT`` when the limit stopped the proof.
    method : str
        ``"ilp:highs"``, ``"ilp:cbc"``, ... when an integer program was solved;
        ``"brute_force"`` when every component was enumerated exhaustively;
        ``"decomposition"`` when the majority graph alone orders every system.
    unique : bool or None
        Whether `order` is the only optimal ranking; None when not checked.
    optima : tuple of tuple of str
        All optimal rankings (up to the cap of ``enumerate_optima``), else ``()``.
    optima_truncated : bool
        More optimal rankings exist than `optima` lists.
    components : tuple of int
        Sizes of the majority-graph components solved separately, in ranking order.
    blocks : tuple of tuple of str
        Their members, in ranking order (``components[i] == len(blocks[i])``).
    constraints_added : int
        3-cycle constraints added lazily.
    iterations : int
        LP and MIP solves (lazy-constraint rounds).
    seconds : float
        Wall-clock time of the call.
    time_limit : float or None
        The limit that was given.
    preparation : Preparation
        What the preparation stage did before solving (systems set aside for coverage, the
        missing-score policy); for a pairwise matrix given as data, that its counts were
        used as they are.
    notes : tuple of str
        What the solve adds (weights rescaled into float64, a weak order's strict cost).
    determined : KemenyDetermination or None
        Which positions and pairs are the same in every optimal ranking; None when not
        computed (see ``determine`` of :func:`consensus.kemeny`) or not optimal.
    weak_order : tuple of tuple of str or None
        With ``kemeny(..., weak_order=True)``: the consensus weak order, groups of tied systems
        best first (`order` lists them in turn); None for a strict ranking.

    Examples
    --------
    >>> import consensus as cs
    >>> res = cs.kemeny(cs.load_example("votenrank-toy"))
    >>> res.order, res.objective, res.optimal, res.gap
    (('B', 'C', 'D', 'A'), 12.0, True, 0.0)
    """

    json_command: ClassVar[str] = "kemeny"

    order: tuple[str, ...]
    objective: float
    lower_bound: float
    status: SolveStatus
    method: str
    unique: bool | None
    optima: tuple[tuple[str, ...], ...]
    optima_truncated: bool
    components: tuple[int, ...]
    blocks: tuple[tuple[str, ...], ...]
    constraints_added: int
    iterations: int
    seconds: float
    time_limit: float | None = None
    preparation: Preparation = Preparation()
    notes: tuple[str, ...] = ()
    determined: KemenyDetermination | None = None
    weak_order: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def optimal(self) -> bool:
        """Whether `order` is proven optimal."""
        return self.status.value == "optimal"

    @property
    def ranking(self) -> tuple[tuple[str, ...], ...]:
        """The consensus as tie groups, best first (as on every ranking result): one system per
        group, or the groups of `weak_order` under ``kemeny(..., weak_order=True)``."""
        return self.weak_order if self.weak_order is not None else tuple((s,) for s in self.order)

    @property
    def is_optimal(self) -> bool:
        """Alias of :attr:`optimal`."""
        return self.optimal

    @property
    def bound(self) -> float:
        """Alias of :attr:`lower_bound`."""
        return self.lower_bound

    @property
    def gap(self) -> float:
        """``objective - lower_bound`` (0 when optimal)."""
        return max(0.0, self.objective - self.lower_bound)

    @property
    def relative_gap(self) -> float:
        """`gap` divided by `objective` (0 when the objective is 0)."""
        return self.gap / self.objective if self.objective > 0 else 0.0

    def positions(self) -> list[int]:
        """The position of each system of `order` (1 = best); systems tied in `weak_order` share one.

        Returns
        -------
        list of int
            Competition positions: a group's systems all get one plus the number of systems in
            earlier groups, so ties are shown, not broken by the listing order.
        """
        if self.weak_order is None:
            return list(range(1, len(self.order) + 1))
        out, above = [], 0
        for group in self.weak_order:
            out.extend([above + 1] * len(group))
            above += len(group)
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per system: ``position`` (1 = best) and ``block`` (its component, 1-based).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``system``, in ranking order; ``block`` numbers the entries of
            :attr:`blocks` (the majority-graph components solved separately).

        Examples
        --------
        >>> import consensus as cs
        >>> cs.kemeny(cs.load_example("votenrank-toy")).to_frame()["position"].to_dict()
        {'B': 1, 'C': 2, 'D': 3, 'A': 4}
        """
        block_of = {s: b for b, members in enumerate(self.blocks, start=1) for s in members}
        return pd.DataFrame(
            {"position": self.positions(), "block": [block_of[s] for s in self.order]},
            index=pd.Index(self.order, dtype=object, name="system"),
        )

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The Kemeny top (none for an empty ranking).
        """
        return [("Kemeny top", self.ranking[0])] if self.order else []

    def _display(self) -> Display:
        status = getattr(self.status, "value", str(self.status))
        if not self.optimal:
            status += f" (gap {self.gap:.3g})"
        status += f", objective {self.objective:.6g}, {self.method}, {self.seconds:.2g} s"
        if self.unique is False:  # never shown as if it were the only answer
            count = f"{len(self.optima)}{'+' if self.optima_truncated else ''} listed in .optima" if self.optima else (
                "enumerate_optima lists them")
            status += f"; NOT unique: other rankings are optimal too ({count})"
        elif self.unique is True:
            status += "; the only optimal ranking"
        return f"KemenyResult: {len(self.order)} systems", ranked_facts(self.ranking, status=status), self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values, including the derived `optimal`, `gap` and `relative_gap`.

        Returns
        -------
        dict
            Every field (``status`` as its value, tuples as lists) plus ``gap``,
            ``relative_gap`` and ``optimal``.

        Examples
        --------
        >>> import consensus as cs
        >>> d = cs.kemeny(cs.load_example("votenrank-toy")).to_dict()
        >>> d["order"], d["ranking"][0], d["status"], d["gap"]
        (['B', 'C', 'D', 'A'], ['B'], 'optimal', 0.0)
        """
        return {
            "order": list(self.order),
            "ranking": [list(g) for g in self.ranking],
            "objective": jsonable(self.objective),
            "lower_bound": jsonable(self.lower_bound),
            "gap": jsonable(self.gap),
            "relative_gap": jsonable(self.relative_gap),
            "status": jsonable(self.status),
            "optimal": self.optimal,
            "method": self.method,
            "unique": self.unique,
            "optima": [list(r) for r in self.optima],
            "optima_truncated": self.optima_truncated,
            "components": list(self.components),
            "blocks": [list(b) for b in self.blocks],
            "constraints_added": self.constraints_added,
            "iterations": self.iterations,
            "seconds": jsonable(self.seconds),
            "time_limit": jsonable(self.time_limit),
            "preparation": self.preparation.to_dict(),
            "notes": list(self.notes),
            "determined": self.determined.to_dict() if self.determined is not None else None,
            "weak_order": [list(g) for g in self.weak_order] if self.weak_order is not None else None,
        }
