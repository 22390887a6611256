"""Analysis and Check: everything ``consensus analyze`` reports (:func:`consensus.analyze`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .base import Display, Displayed, freeze_mapping, provided_by
from .comparison import RuleComparison
from .majority import MajoritySummary

__all__ = ["Analysis", "Check"]


@dataclass(frozen=True, slots=True)
class Check:
    """One self-check of a built-in example: a published (or brute-force) value against ours.

    Built by :func:`consensus.comparison._analysis.example_checks`.

    Attributes
    ----------
    name : str
        The quantity checked, e.g. ``"condorcet_winner"``, ``"kemeny_objective"``,
        ``"ranking:borda"``.
    expected : str
        The stored value, as written in ``published_values.csv``.
    actual : str
        The computed value, formatted the same way.
    ok : bool
        Whether they agree (numbers within 1e-9).
    source : str
        ``"KIND, SOURCE"``: whether the value is ``published`` or ``computed``, and where
        it comes from.
    """

    name: str
    expected: str
    actual: str
    ok: bool
    source: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``name``, ``expected``, ``actual``, ``ok`` and ``source``.

        Examples
        --------
        >>> Check("condorcet_winner", "B", "B", True, "published, paper").to_dict()["ok"]
        True
        """
        return {"name": self.name, "expected": self.expected, "actual": self.actual, "ok": self.ok,
                "source": self.source}


@dataclass(frozen=True, slots=True, repr=False)
class Analysis(Displayed):
    """Everything ``consensus analyze`` reports, computed once (see :func:`consensus.analyze`).

    Attributes
    ----------
    source : str
        Where the scores came from (a path or ``example:NAME``).
    leaderboard : Leaderboard
    majority : MajoritySummary
    comparison : RuleComparison
        Every rule against the exact Kemeny ranking (``comparison.kemeny``).
    prospective : ProspectiveResult or None
        The systems that can become Condorcet winners under some task weights, with their
        maximal margins; None when not requested (``prospective=False``) or when it could
        not be computed (see `notes`).
    checks : tuple of Check
        Published values of a built-in example against the computed ones (empty otherwise).
    notes : tuple of str
        Sections that could not be computed, and why; what was done to the leaderboard
        (``min_coverage`` drops).
    coverage : Mapping[str, float]
        System -> share of the total task weight it is scored on (read-only), for the
        systems analyzed.
    coverage_flags : tuple of str
        One sentence per claimed system (a rule's winner, the Kemeny top, the Condorcet
        winner, a prospective system, a Pareto dominator) scored on less than the coverage
        threshold (:data:`consensus.board._coverage.LOW_COVERAGE` by default).
    coverage_threshold : float
        That threshold (``analyze(coverage_threshold=...)``).
    possible : Mapping[str, PossibleWinners] or None
        When the scores have holes, per rule: who can still win whatever the missing cells
        hold, over every system read, the set-aside ones included
        (:func:`consensus.missing.possible_winners`): the mean (each cell within its task's
        observed range; with the cells that can still change it) and the Condorcet winner at
        any size, Borda and Copeland up to 20 systems (each program stopped after 0.2 s; a system
        left undecided says so), and Kemeny at any size (certified bounds; exact enumeration on
        small boards; undecided systems counted). None for a complete board.
    ranges : RankRanges or None
        When the scores have holes: each system's best and worst position under the mean
        over every completion (each cell within its task's observed range; exact, closed
        form; :func:`consensus.missing.rank_ranges`). None for a complete board.
    significance : SignificanceResult or None
        With ``analyze(significance=...)``: which systems differ beyond noise on each task, and
        the leaderboard's rows in groups (:attr:`SignificanceResult.row_groups`); the rules and
        the majority relation read it.
    """

    json_command: ClassVar[str] = "analyze"

    source: str
    leaderboard: Any
    majority: MajoritySummary
    comparison: RuleComparison
    prospective: Any
    checks: tuple[Check, ...] = ()
    notes: tuple[str, ...] = ()
    coverage: Mapping[str, float] = field(default_factory=dict)
    coverage_flags: tuple[str, ...] = ()
    coverage_threshold: float = 0.5  # consensus.board._coverage.LOW_COVERAGE
    possible: Any = None
    significance: Any = None
    ranges: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "coverage", freeze_mapping({str(k): float(v) for k, v in dict(self.coverage).items()}))
        object.__setattr__(self, "coverage_flags", tuple(self.coverage_flags))

    @property
    def kemeny(self) -> Any:
        """The exact Kemeny result."""
        return self.comparison.kemeny

    @property
    def checks_ok(self) -> bool:
        """Whether every self-check passed (True when there is none)."""
        return all(c.ok for c in self.checks)

    def to_frame(self) -> Any:
        """The rule comparison table (:meth:`RuleComparison.to_frame`): one row per rule.

        Returns
        -------
        pandas.DataFrame
        """
        return self.comparison.to_frame()

    def _display(self) -> Display:
        lb = self.leaderboard
        title = f"Analysis({self.source or 'leaderboard'}): {lb.n_systems} systems x {lb.n_tasks} tasks"
        facts = [fact for fact in self.comparison._display()[1] if fact[0] != "Condorcet winner"]
        facts.insert(0, ("Condorcet winner", self.majority.condorcet_winner or "none"))
        if self.prospective is not None:
            facts.append(("prospective", f"{len(self.prospective.prospective_systems)} of {lb.n_systems} systems"))
        flags = self.coverage_flags
        if flags:
            facts.append(("coverage warnings", f"{len(flags)}: {flags[0]}" + (" ..." if len(flags) > 1 else "")))
        if self.checks:
            facts.append(("checks", f"{sum(c.ok for c in self.checks)}/{len(self.checks)} ok"))
        return title, facts, self.comparison._display()[2]

    def to_html(self, *, figure: bool = True, title: str | None = None) -> str:
        """The analysis as one self-contained HTML page (:func:`consensus.report.html.render_html`).

        Parameters
        ----------
        figure : bool, default=True
            Include the figure (needs matplotlib; a note says so otherwise).
        title : str, optional
            The page title; default ``consensus report: SOURCE``.

        Returns
        -------
        str
            The HTML document: summary first, the figure, every table (sortable), the
            certificates, coverage and policy notes. ``consensus report`` writes it.
        """
        render = provided_by("consensus.report.html:render_html")  # named, imported on use: no registry
        return str(render(self, figure=figure, title=title))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: each part's own ``to_dict()``.

        Returns
        -------
        dict
            ``source``, ``majority``, ``kemeny`` (the full KemenyResult), ``rules`` (rule ->
            RuleResult, Kemeny excluded), ``comparison``, ``prospective`` (None when not
            computed), ``checks``, ``notes``, ``coverage`` (system -> share of the task
            weight scored), ``coverage_flags``, ``possible`` and ``ranges`` (None for a complete
            board) and ``significance`` (None without it).
        """
        comparison = self.comparison
        return {
            "source": self.source,
            "majority": self.majority.to_dict(),
            "kemeny": self.kemeny.to_dict(),
            "rules": {rule: res.to_dict() for rule, res in comparison.results.items() if rule != "kemeny"},
            "comparison": comparison.to_dict(),
            "prospective": None if self.prospective is None else self.prospective.to_dict(),
            "checks": [c.to_dict() for c in self.checks],
            "notes": list(self.notes),
            "coverage": dict(self.coverage),
            "coverage_flags": list(self.coverage_flags),
            "possible": None if self.possible is None else {rule: r.to_dict() for rule, r in self.possible.items()},
            "significance": None if self.significance is None else self.significance.to_dict(),
            "ranges": None if self.ranges is None else self.ranges.to_dict(),
        }
