"""The analysis behind ``consensus analyze``: every answer about one leaderboard, computed once.

:func:`analyze` solves the exact Kemeny ranking once and shares it with the comparison of
every rule, summarizes the majority relation and finds the prospective systems; the report
(:func:`consensus.render`) only renders the resulting :class:`~consensus.results.Analysis`.

Built-in examples check themselves: :func:`example_checks` compares the analysis with the
published values stored in ``consensus/data/published_values.csv`` (the library logic
knows no answer).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Any

from ..board._coverage import LOW_COVERAGE, claims_of, coverage_flags
from ..board._leaderboard import Leaderboard
from ..errors import ConsensusError, InvalidOptionError
from ..exact._prospective import prospective as prospective_systems
from ..io._limits import check_square_matrices
from ..majority._relation import majority_summary
from ..missing._preparation import prepared_for
from ..noise._seen import resolve, significance_pairwise
from ..report.blocks import format_ranking, num
from ..results import Analysis, Check, MajoritySummary, RuleComparison
from ._compare import DEFAULT_RULES, compare_rules

__all__ = ["analyze", "example_checks", "published_values"]


def _analyze_options(data: object, coverage_threshold: float) -> None:
    """The options of :func:`analyze` that no question it asks checks, checked before any of them runs
    (the others are checked by the questions, before their own work)."""
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"analyze needs a Leaderboard, got {type(data).__name__}")
    coverage_flags(data, (), coverage_threshold)  # the threshold
    check_square_matrices(data.n_systems, "analysis", "the full analysis")  # the memory the matrices need


def analyze(
    data: Leaderboard,
    *,
    source: str = "",
    example: str | None = None,
    rules: Iterable[str] = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = "highs",
    progress: Callable[..., Any] | None = None,
    prospective: bool = True,
    strict: bool = True,
    missing: str | None = "auto",
    min_coverage: float | None = None,
    coverage_threshold: float = LOW_COVERAGE,
    scored_tasks_only: bool = True,
    rule_options: Mapping[str, Mapping[str, Any]] | None = None,
    significance: Any = None,
) -> Analysis:
    """Compute everything the ``consensus analyze`` report shows, solving each problem once.

    Parameters
    ----------
    data : Leaderboard
        The scores.
    source : str, optional
        Where they came from (shown in the report).
    example : str, optional
        Name of the built-in example `data` is; adds the self-checks of
        :func:`example_checks`.
    rules : iterable of str, default=:data:`consensus.comparison._compare.DEFAULT_RULES`
        The rules compared with the exact Kemeny ranking.
    time_limit, solver, progress
        For the Kemeny solve (:func:`consensus.kemeny`).
    prospective : bool, default=True
        Also find the systems that can become Condorcet winners under some task weights
        (:func:`consensus.prospective`), with their maximal margins.
    strict : bool, default=True
        Strict (beat every rival) or weak (beat or tie) Condorcet winners for `prospective`.
    missing : {"auto", None, "drop_tasks", "drop_systems", "impute", "median"}, default="auto"
        The missing-score policy of the rule comparison (:func:`consensus.compare_rules`:
        ``"auto"`` runs every rule, each under its stated policy). The prospective systems
        use it too when they can (None, ``"drop_tasks"``, ``"drop_systems"``,
        ``"median"``; otherwise pairwise: a missing score is neither a win nor a loss).
    min_coverage : float, optional
        Drop the systems scored on less than this share of the task weight first
        (:meth:`Leaderboard.with_min_coverage`); the note naming them is in ``notes``.
    coverage_threshold : float, default=:data:`consensus.board._coverage.LOW_COVERAGE`
        Claims resting on a system with a lower coverage are flagged (``coverage_flags``).
    scored_tasks_only : bool, default=True
        For `prospective`: weight 0 on the tasks a system is not scored on
        (:func:`consensus.prospective`).
    rule_options : mapping, optional
        Rule name -> options for :func:`consensus.rank` (see :func:`consensus.compare_rules`).
    significance : bool, float or SignificanceResult, optional
        Differences within noise are ties (:func:`consensus.significance`, once): every rule
        and the Kemeny reference read it, the majority relation is the relation's; the
        prospective systems and who can still win use the scores as given (a note says so).
        The result is ``Analysis.significance``; the report shows its tie groups.

    Returns
    -------
    Analysis
        The leaderboard, its :class:`~consensus.results.MajoritySummary`, the
        :class:`~consensus.results.RuleComparison` (with the Kemeny result), the prospective
        systems (None when not asked for or not computable; a failure is recorded in
        ``notes`` instead of raised), the self-checks, the notes, each system's coverage
        and the coverage flags: one sentence per low-coverage system that a claim rests
        on (a rule's winner, the Kemeny top, the Condorcet winner, a prospective system,
        a system that Pareto-dominates others).

    Raises
    ------
    InvalidOptionError
        If `data` is not a Leaderboard, a Kemeny option (`solver`, `time_limit`) is
        invalid, `missing` is not a policy, `min_coverage` or `coverage_threshold` is not
        in [0, 1], or ``published_values.csv`` stores a quantity :func:`example_checks` does
        not know. (A rule that cannot run only gets a ``failed`` row.)
    SolverNotAvailableError
        If `solver` is not installed here.
    SolveFailedError
        If the Kemeny solve fails.

    Examples
    --------
    >>> import consensus as cs
    >>> a = analyze(cs.load_example("votenrank-toy"), example="votenrank-toy")
    >>> a.kemeny.order, a.majority.condorcet_winner, a.checks_ok
    (('B', 'C', 'D', 'A'), 'B', True)
    """
    _analyze_options(data, coverage_threshold)
    covered = prepared_for(data, "analyze", min_coverage=min_coverage)  # no rival, or barely evaluated
    table, notes = covered.leaderboard, list(covered.preparation.notes)
    noise = resolve(significance, table, "analyze")  # on the systems the coverage keeps
    comparison = compare_rules(  # the same threshold: every question sets aside the same systems, and says so
        data, rules=rules, missing=missing, time_limit=time_limit, solver=solver, progress=progress,
        rule_options=rule_options, min_coverage=min_coverage, significance=noise,
    )
    summary = majority_summary(table if noise is None else significance_pairwise(table, noise))
    if noise is not None:
        notes.append(f"significance ({noise.setting}): the rules and the majority relation read differences within "
                     "noise as ties; the prospective systems and who can still win use the scores as given")
    frame = None
    if prospective:
        policy = missing if missing in (None, "pairwise", "drop_tasks", "drop_systems", "median") else None
        try:
            frame = prospective_systems(data, strict=strict, missing=policy, scored_tasks_only=scored_tasks_only,
                                        min_coverage=min_coverage)
        except ConsensusError as exc:
            notes.append(f"prospective systems not computed: {type(exc).__name__}: {exc}")
    possible = ranges = None
    if bool(data.missing.to_numpy().any()):  # who can still win, over every system read (set-aside ones too)
        from ..missing._possible import (
            POSSIBLE_SEARCH_BUDGET,
            POSSIBLE_SEARCH_SECONDS,
            POSSIBLE_SEARCH_SYSTEMS,
            possible_winners,
            rank_ranges,
        )

        possible = {}
        small = data.n_systems <= POSSIBLE_SEARCH_SYSTEMS
        for rule in ("mean", "condorcet", *(("borda", "copeland") if small else ()), "kemeny"):
            searched = rule in ("borda", "copeland")
            try:
                # the searched rules' pivotal cells take a search per cell and position: not within analyze's time
                possible[rule] = possible_winners(data, rule, time_limit=POSSIBLE_SEARCH_SECONDS if searched else None,
                                                  budget=POSSIBLE_SEARCH_BUDGET if searched else None,
                                                  pivotal=not searched)
            except ConsensusError as exc:
                notes.append(f"who can still win under {rule} not computed: {type(exc).__name__}: {exc}")
        try:  # the positions each system can still reach under the mean (closed form)
            ranges = rank_ranges(data, "mean")
        except ConsensusError as exc:
            notes.append(f"rank ranges under the mean not computed: {type(exc).__name__}: {exc}")

    checks = example_checks(example, comparison=comparison, majority=summary) if example else ()
    flags = coverage_flags(table, claims_of(comparison, summary, frame), coverage_threshold)
    return Analysis(
        source=source or (f"example:{example}" if example else ""),
        leaderboard=table,
        majority=summary,
        comparison=comparison,
        prospective=frame,
        possible=possible,
        ranges=ranges,
        checks=checks,
        notes=tuple(notes),
        coverage=table.coverage.to_dict(),
        coverage_flags=flags,
        coverage_threshold=float(coverage_threshold),
        significance=noise,
    )


# ---------------------------------------------------------------------- self-checks
def published_values(example: str) -> list[dict[str, str]]:
    """The stored published (or brute-force) values of a built-in example.

    Rows of ``consensus/data/published_values.csv`` for `example`: ``quantity``,
    ``value``, ``kind`` (``published`` or ``computed``) and ``source``.

    Parameters
    ----------
    example : str
        Name of a built-in example (see :func:`consensus.load_example`).

    Returns
    -------
    list of dict of str to str
        The CSV rows of `example`, in file order (each also has its ``example`` column);
        empty when nothing is stored for that name.

    Examples
    --------
    >>> [r["quantity"] for r in published_values("votenrank-toy")][:2]
    ['condorcet_winner', 'scores:borda']
    """
    with resources.files("consensus").joinpath("data", "published_values.csv").open("r", encoding="utf-8") as fh:
        return [row for row in csv.DictReader(fh) if row["example"] == example]


def _parse_mapping(text: str) -> dict[str, float]:
    result = {}
    for item in text.split(";"):
        key, _, value = item.partition("=")
        result[key.strip()] = float(value)
    return result


def _format_mapping(mapping: Mapping[str, float]) -> str:
    return "; ".join(f"{k}={num(v, 6)}" for k, v in mapping.items())


def _parse_ranking(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(s.strip() for s in part.split("=")) for part in text.split(">"))


def _majority_relation(summary: MajoritySummary) -> dict[frozenset[str], str]:
    relation = {frozenset((w, loser)): f"{w}>{loser}" for w, loser, *_ in summary.edges}
    for a, b in summary.ties:
        relation[frozenset((a, b))] = f"{a}={b}"
    return relation


def example_checks(
    example: str, *, comparison: RuleComparison, majority: MajoritySummary | None = None
) -> tuple[Check, ...]:
    """Compare an analysis of a built-in example with its stored published values.

    Each stored quantity becomes a :class:`~consensus.results.Check`: ``condorcet_winner``,
    ``kemeny_ranking``, ``kemeny_objective``, ``majority`` (pairwise relations such as
    ``B>A; A=C``), ``scores:RULE`` (tolerance 1e-9), ``winners:RULE`` and ``ranking:RULE``.
    Nothing is re-solved: the values come from `comparison` and `majority`.

    Parameters
    ----------
    example : str
        Name of the built-in example the analysis is of.
    comparison : RuleComparison
        The comparison of rules on that example (:func:`consensus.compare_rules`).
    majority : MajoritySummary, optional
        Needed for ``majority`` quantities; without it they fail with ``"not computed"``.

    Returns
    -------
    tuple of Check
        One check per stored quantity, in file order; empty when nothing is stored for
        `example`. A rule that did not run (or was not compared) gives a failed check, not
        an error.

    Raises
    ------
    InvalidOptionError
        If ``published_values.csv`` stores a quantity kind this function does not know.

    Examples
    --------
    >>> import consensus as cs
    >>> comp = cs.compare_rules(cs.load_example("colombo-table1"), rules=["mean", "borda"])
    >>> [(c.name, c.ok) for c in example_checks("colombo-table1", comparison=comp)][1:]
    [('ranking:mean', True), ('ranking:borda', True), ('kemeny_ranking', True), ('kemeny_objective', True)]
    """
    checks = []
    for row in published_values(example):
        quantity, expected, kind, source = row["quantity"], row["value"], row["kind"], row["source"]
        label = f"{kind}, {source}"
        actual, ok = _actual_value(quantity, expected, comparison, majority)
        checks.append(Check(name=quantity, expected=expected, actual=actual, ok=ok, source=label))
    return tuple(checks)


def _actual_value(
    quantity: str, expected: str, comparison: RuleComparison, majority: MajoritySummary | None
) -> tuple[str, bool]:
    kind, _, rule = quantity.partition(":")
    if kind == "condorcet_winner":
        actual = comparison.condorcet_winner or "none"
        return actual, actual == expected
    if kind == "kemeny_ranking":
        tiers: tuple[tuple[str, ...], ...] = tuple(comparison.kemeny.ranking)
        actual = format_ranking(tiers)
        return actual, tiers == _parse_ranking(expected)
    if kind == "kemeny_objective":
        value = float(comparison.kemeny.objective)
        return num(value, 6), math.isclose(value, float(expected), rel_tol=1e-9, abs_tol=1e-9)
    if kind == "majority":
        if majority is None:
            return "not computed", False
        relation = _majority_relation(majority)
        wanted = [item.strip() for item in expected.split(";")]
        got = []
        for item in wanted:
            sep = ">" if ">" in item else "="
            a, b = (s.strip() for s in item.split(sep))
            got.append(relation.get(frozenset((a, b)), "?"))
        return "; ".join(got), got == [w.replace(" ", "") for w in wanted]
    if rule not in comparison.rankings:
        why = comparison.errors.get(rule, "rule not compared")
        return f"not available ({why})", False
    result = comparison.results[rule]
    tiers = comparison.rankings[rule]
    if kind == "scores":
        want = _parse_mapping(expected)
        given = result.scores
        scores = {s: float(given[s]) for s in want if s in given.index}
        ok = len(scores) == len(want) and all(
            math.isclose(scores[s], want[s], rel_tol=1e-9, abs_tol=1e-9) for s in want
        )
        return _format_mapping(scores), ok
    if kind == "winners":
        actual = " = ".join(tiers[0])
        return actual, set(tiers[0]) == {s.strip() for s in expected.split("=")}
    if kind == "ranking":
        actual = format_ranking(tiers)
        return actual, tiers == _parse_ranking(expected)
    raise InvalidOptionError(f"unknown published quantity {quantity!r} in published_values.csv")
