"""StabilityResult: every rule's ranking over resampled leaderboards (:func:`consensus.resampling._stability.rank_stability`).

The result stores the raw positions (resamples x rules x systems) and derives everything else
from them on demand: rank intervals, the probability of being first or in the top k, the
set of systems not separable from the top, and how often adjacent systems keep their order.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from ..errors import InvalidOptionError
from .base import Display, Displayed, freeze_mapping, jsonable, one_line, readonly_array

__all__ = ["StabilityResult"]

#: Systems named per rule in the ``repr``'s top-set line before "... (N more)".
_SHOWN = 6


@dataclass(frozen=True, slots=True, repr=False)
class StabilityResult(Displayed):
    """How sure is each rule's ranking? Positions of every system over resampled leaderboards.

    Positions are competition positions (1 + the systems strictly above; tied systems share
    the best position), so a system tied for first is first. A resample that leaves a system
    without any score does not rank it (NaN): its statistics are computed over the resamples
    that rank it, counted in the ``ranked`` column of :meth:`to_frame`.

    Attributes
    ----------
    rules : tuple of str
        The rules, in run order.
    systems : tuple of str
        The systems, in the data's order (the last axis of :attr:`positions`).
    resampling : str
        ``"bootstrap"``, ``"leave_k_out"`` or ``"instances"``.
    positions : numpy.ndarray (resamples, rules, systems)
        Read-only; the position of each system under each rule in each resample (NaN: not
        ranked in that resample).
    full_positions : numpy.ndarray (rules, systems)
        Read-only; the positions on the full data (the reference ranking).
    kemeny_status : tuple of str
        Per resample, ``"optimal"`` or ``"time_limit"`` (``""`` when Kemeny was not run or
        the resample ranked too few systems to solve).
    kemeny_gaps : numpy.ndarray (resamples,)
        Read-only; Kemeny's relative gap per resample (0 when optimal, NaN without Kemeny).
    alpha : float
        A system is in the top set of a rule when its probability of being first is >= alpha.
    level : float
        Coverage of the rank intervals.
    top_k : int
        The k of ``p_top_k``.
    parameters : Mapping[str, Any]
        The other settings of the run (seed, k, time limit, data kind, ...).
    kemeny_unique : tuple of (bool or None)
        Per resample, whether Kemeny's optimal ranking is the only one (None: not proven
        optimal or not run). When False, that resample's Kemeny positions are one optimum's
        among several: :attr:`kemeny_not_unique` counts them and the repr says so.

    Examples
    --------
    >>> res = StabilityResult(rules=("mean",), systems=("a", "b", "c"), resampling="bootstrap",
    ...     positions=[[[1, 2, 3]], [[2, 1, 3]], [[1, 2, 3]], [[1, 3, 2]]], full_positions=[[1, 2, 3]],
    ...     kemeny_status=("",) * 4, kemeny_gaps=[np.nan] * 4, alpha=0.3, level=0.5, top_k=2,
    ...     parameters={"seed": 0})
    >>> res.to_frame()[["system", "position", "low", "high", "p_first", "top_set"]]
      system  position  low  high  p_first  top_set
    0      a         1    1     2     0.75     True
    1      b         2    1     3     0.25    False
    2      c         3    2     3     0.00    False
    >>> res.top_set("mean")
    ('a',)
    """

    json_command: ClassVar[str] = "stability"

    rules: tuple[str, ...]
    systems: tuple[str, ...]
    resampling: str
    positions: Any
    full_positions: Any
    kemeny_status: tuple[str, ...]
    kemeny_gaps: Any
    alpha: float
    level: float
    top_k: int
    parameters: Mapping[str, Any]
    kemeny_unique: tuple[bool | None, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "systems", tuple(self.systems))
        positions = readonly_array(self.positions, np.float64)
        full = readonly_array(self.full_positions, np.float64)
        shape = (len(self.rules), len(self.systems))
        if positions.ndim != 3 or positions.shape[1:] != shape or full.shape != shape:
            raise InvalidOptionError(
                f"positions must be resamples x {shape[0]} rules x {shape[1]} systems and full_positions "
                f"{shape[0]} x {shape[1]}, got {positions.shape} and {full.shape}"
            )
        object.__setattr__(self, "positions", positions)
        object.__setattr__(self, "full_positions", full)
        object.__setattr__(self, "kemeny_status", tuple(str(s) for s in self.kemeny_status))
        object.__setattr__(self, "kemeny_gaps", readonly_array(self.kemeny_gaps, np.float64))
        object.__setattr__(self, "kemeny_unique", tuple(None if u is None else bool(u) for u in self.kemeny_unique))
        object.__setattr__(self, "alpha", float(self.alpha))
        object.__setattr__(self, "level", float(self.level))
        object.__setattr__(self, "top_k", int(self.top_k))
        object.__setattr__(self, "parameters", freeze_mapping(self.parameters))

    # ------------------------------------------------------------------ counts
    @property
    def resamples(self) -> int:
        """Number of resamples: ``positions.shape[0]``."""
        return int(self.positions.shape[0])

    @property
    def kemeny_not_unique(self) -> int:
        """Resamples whose Kemeny optimum is not unique (the positions are one optimal ranking's)."""
        return sum(u is False for u in self.kemeny_unique)

    @property
    def time_limited(self) -> int:
        """Resamples whose Kemeny solve stopped at its time limit (best ranking found, not proven)."""
        return sum(s == "time_limit" for s in self.kemeny_status)

    @property
    def n_ranked(self) -> np.ndarray:
        """Resamples that rank each system (rules x systems; fewer than :attr:`resamples` only
        when a resample left a system without any score)."""
        return np.count_nonzero(~np.isnan(self.positions), axis=0)

    # ------------------------------------------------------------------ derived statistics
    def _rule_index(self, rule: str) -> int:
        if rule not in self.rules:
            raise InvalidOptionError(f"unknown rule {rule!r}; this result has {', '.join(self.rules)}")
        return self.rules.index(rule)

    def order(self, rule: str) -> tuple[str, ...]:
        """The full-data ranking of `rule`, best first (ties in the data's system order).

        Parameters
        ----------
        rule : str
            One of :attr:`rules`.

        Returns
        -------
        tuple of str
            Systems the rule ranked on the full data, by position, then data order.

        Raises
        ------
        InvalidOptionError
            If `rule` is not one of :attr:`rules`.

        Examples
        --------
        >>> res = StabilityResult(("mean",), ("a", "b"), "bootstrap", [[[2, 1]]], [[2, 1]], ("",),
        ...                       [np.nan], 0.05, 0.95, 1, {})
        >>> res.order("mean")
        ('b', 'a')
        """
        full = self.full_positions[self._rule_index(rule)]
        ranked = [j for j in range(len(self.systems)) if not np.isnan(full[j])]
        return tuple(self.systems[j] for j in sorted(ranked, key=lambda j: (full[j], j)))

    def _stats(self) -> dict[str, np.ndarray]:
        """Per (rule, system): low, high, median, p_first, p_top_k (NaN when never ranked)."""
        pos = self.positions
        ranked = ~np.isnan(pos)
        n = ranked.sum(axis=0)
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: never ranked
            low = np.nanquantile(pos, (1.0 - self.level) / 2.0, axis=0, method="lower")
            high = np.nanquantile(pos, (1.0 + self.level) / 2.0, axis=0, method="higher")
            median = np.nanmedian(pos, axis=0)
            p_first = np.where(n > 0, (pos == 1).sum(axis=0) / n, np.nan)
            p_top = np.where(n > 0, (pos <= self.top_k).sum(axis=0) / n, np.nan)
        return {"low": low, "high": high, "median": median, "p_first": p_first, "p_top_k": p_top, "ranked": n}

    def top_set(self, rule: str) -> tuple[str, ...]:
        """The systems not separable from the top under `rule`: P(first) >= :attr:`alpha`.

        Parameters
        ----------
        rule : str
            One of :attr:`rules`.

        Returns
        -------
        tuple of str
            In the rule's full-data order (possibly empty when first place is spread thin
            over many systems).

        Raises
        ------
        InvalidOptionError
            If `rule` is not one of :attr:`rules`.

        Examples
        --------
        >>> res = StabilityResult(("mean",), ("a", "b"), "bootstrap", [[[1, 2]], [[2, 1]]], [[1, 2]],
        ...                       ("", ""), [np.nan] * 2, 0.05, 0.95, 1, {})
        >>> res.top_set("mean")
        ('a', 'b')
        """
        return self._top_set(rule, self._stats()["p_first"])

    def _top_set(self, rule: str, p_first: np.ndarray) -> tuple[str, ...]:
        row = p_first[self._rule_index(rule)]
        return tuple(s for s in self.order(rule) if row[self.systems.index(s)] >= self.alpha)

    def to_frame(self) -> pd.DataFrame:
        """One row per rule and system, each rule's systems in its full-data order.

        Returns
        -------
        pandas.DataFrame
            Columns ``rule``, ``system``, ``position`` (full data), ``low`` and ``high`` (the
            rank interval: the ``(1 - level) / 2`` quantile of the positions taken with
            ``method="lower"`` and the ``(1 + level) / 2`` quantile with ``method="higher"``,
            so it covers at least `level` of the resamples), ``median``, ``p_first`` (share
            of resamples in position 1, ties for first included), ``p_top_k`` (position <=
            :attr:`top_k`), ``top_set`` (``p_first >= alpha``) and ``ranked`` (resamples
            ranking the system; the statistics are over those). Positions and bounds are
            nullable integers (``<NA>`` for a system never ranked).

        Examples
        --------
        >>> res = StabilityResult(("mean",), ("a", "b"), "bootstrap", [[[1, 2]], [[2, np.nan]]], [[1, 2]],
        ...                       ("", ""), [np.nan] * 2, 0.05, 0.95, 1, {})
        >>> res.to_frame()[["system", "low", "high", "p_first", "ranked"]]
          system  low  high  p_first  ranked
        0      a    1     2      0.5       2
        1      b    2     2      0.0       1
        """
        stats = self._stats()
        rows = []
        for r, rule in enumerate(self.rules):
            listed = list(self.order(rule))
            listed += [s for s in self.systems if s not in listed]
            for system in listed:
                j = self.systems.index(system)
                rows.append((rule, system, self.full_positions[r, j], stats["low"][r, j], stats["high"][r, j],
                             stats["median"][r, j], stats["p_first"][r, j], stats["p_top_k"][r, j],
                             bool(stats["p_first"][r, j] >= self.alpha), int(stats["ranked"][r, j])))
        frame = pd.DataFrame(rows, columns=["rule", "system", "position", "low", "high", "median", "p_first",
                                            "p_top_k", "top_set", "ranked"])
        for column in ("position", "low", "high"):
            frame[column] = frame[column].astype("Int64")
        return frame

    def pairs_frame(self) -> pd.DataFrame:
        """Adjacent pairs of each rule's full-data ranking: how often the upper one stays above.

        Returns
        -------
        pandas.DataFrame
            One row per rule and adjacent pair (``upper`` directly above ``lower`` in the
            full-data order): ``upper_position`` / ``lower_position`` on the full data,
            ``kept`` (share of resamples with the upper system strictly above), ``tied``
            (same position), ``swapped`` (the lower system strictly above) and ``n`` (the
            resamples ranking both, over which the shares are taken). A ``kept`` share
            below `level` means the pair is not separable at that level.

        Examples
        --------
        >>> res = StabilityResult(("mean",), ("a", "b", "c"), "bootstrap",
        ...     [[[1, 2, 3]], [[2, 1, 3]], [[1, 2, 2]], [[1, 2, 3]]], [[1, 2, 3]], ("",) * 4,
        ...     [np.nan] * 4, 0.05, 0.95, 1, {})
        >>> res.pairs_frame()[["upper", "lower", "kept", "tied", "swapped"]]
          upper lower  kept  tied  swapped
        0     a     b  0.75  0.00     0.25
        1     b     c  0.75  0.25     0.00
        """
        rows = []
        for r, rule in enumerate(self.rules):
            listed = self.order(rule)
            for upper, lower in zip(listed, listed[1:]):
                i, j = self.systems.index(upper), self.systems.index(lower)
                a, b = self.positions[:, r, i], self.positions[:, r, j]
                both = ~np.isnan(a) & ~np.isnan(b)
                n = int(both.sum())
                def share(hit: np.ndarray, both: np.ndarray = both, n: int = n) -> float:
                    return float(np.sum(hit & both)) / n if n else float("nan")

                rows.append((rule, upper, lower, int(self.full_positions[r, i]), int(self.full_positions[r, j]),
                             share(a < b), share(a == b), share(a > b), n))
        return pd.DataFrame(rows, columns=["rule", "upper", "lower", "upper_position", "lower_position",
                                           "kept", "tied", "swapped", "n"])

    # ------------------------------------------------------------------ display and export
    def _resampling_text(self) -> str:
        k = self.parameters.get("k")
        return f"leave_k_out (k={k})" if self.resampling == "leave_k_out" else self.resampling

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            Each rule's set of systems not separable from the top.
        """
        return [(f"not separable from the top under {rule}", self.top_set(rule)) for rule in self.rules]

    def _display(self) -> Display:
        facts: list[tuple[str, Any]] = [
            ("resampling", self._resampling_text()), ("resamples", self.resamples),
            ("seed", self.parameters.get("seed")), ("interval level", f"{self.level:g}"),
        ]
        p_first = self._stats()["p_first"]
        for rule in self.rules:
            tops = [one_line(s) for s in self._top_set(rule, p_first)]
            text = ", ".join(tops[:_SHOWN]) + (f" ... ({len(tops) - _SHOWN} more)" if len(tops) > _SHOWN else "")
            facts.append((f"{rule} top set (P(first) >= {self.alpha:g})", text or "none"))
        unranked = int((self.n_ranked < self.resamples).any(axis=0).sum())
        if unranked:
            facts.append(("not always ranked", f"{unranked} system(s) lost every score in some resamples"))
        if self.parameters.get("kemeny_full_status") == "time_limit":
            facts.append(("Kemeny on the full data", "stopped at its time limit: the reference ranking is not proven"))
        if self.parameters.get("kemeny_full_unique") is False:
            facts.append(("Kemeny on the full data", "several optimal rankings: its positions are one of them"))
        if self.kemeny_not_unique:
            facts.append(("Kemeny with several optima", f"{self.kemeny_not_unique} of {self.resamples} resamples: "
                          "positions of one optimal ranking among several"))
        if self.time_limited:
            facts.append(("Kemeny at its time limit",
                          f"{self.time_limited} of {self.resamples} resamples: best ranking found, not proven"))
        frame = self.to_frame()
        frame = frame[frame["position"].fillna(self.top_k + 1) <= self.top_k].set_index(["rule", "system"])
        title = (f"StabilityResult: {len(self.rules)} rule(s) x {len(self.systems)} systems, "
                 f"{self.resamples} {self.resampling} resamples")
        return title, facts, frame.round(3)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``rules``, ``systems``, ``resampling``, ``alpha``, ``level``, ``top_k``,
            ``parameters``, ``positions`` (resamples x rules x systems, NaN as None),
            ``full_positions``, ``kemeny_status``, ``kemeny_gaps``, ``time_limited``, and the
            tables ``summary`` (:meth:`to_frame`) and ``pairs`` (:meth:`pairs_frame`) as lists
            of records.

        Examples
        --------
        >>> res = StabilityResult(("mean",), ("a", "b"), "bootstrap", [[[1, 2]]], [[1, 2]], ("",),
        ...                       [np.nan], 0.05, 0.95, 1, {"seed": 0})
        >>> out = res.to_dict()
        >>> out["positions"], out["summary"][0]["low"], out["pairs"][0]["kept"]
        ([[[1.0, 2.0]]], 1, 1.0)
        """
        summary = self.to_frame().astype(object)
        summary = summary.where(summary.notna(), None)
        return {
            "rules": list(self.rules),
            "systems": list(self.systems),
            "resampling": self.resampling,
            "alpha": self.alpha,
            "level": self.level,
            "top_k": self.top_k,
            "parameters": jsonable(dict(self.parameters)),
            "positions": jsonable(self.positions),
            "full_positions": jsonable(self.full_positions),
            "kemeny_status": list(self.kemeny_status),
            "kemeny_gaps": jsonable(self.kemeny_gaps),
            "time_limited": self.time_limited,
            "kemeny_unique": list(self.kemeny_unique),
            "kemeny_not_unique": self.kemeny_not_unique,
            "summary": jsonable(summary.to_dict("records")),
            "pairs": jsonable(self.pairs_frame().to_dict("records")),
        }
