"""The ``consensus analyze`` report: a summary first, then every section with its tables capped.

Registers the report of :class:`~consensus.results.Analysis`. The summary answers the
questions a maintainer asks first (the winner of each rule, the Kemeny top, the Condorcet
status, the coverage warnings, the prospective count); the sections after it show the first
`top` rows of each table (``... and 90 more``); JSON keeps every detail.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hints import call, hinted, option
from ..missing._possible import BUDGET_SPENT, POSSIBLE_SEARCH_SYSTEMS
from ..results import Analysis, Check, RankRanges
from .blocks import (
    DEFAULT_TOP,
    Block,
    Heading,
    Lines,
    capped,
    clip,
    format_ranking,
    name_list,
)
from .comparison import comparison_blocks
from .csv_output import frame_csv
from .sections import (
    condorcet_line,
    csv_text,
    kemeny_lines,
    leaderboard_sections,
    prospective_line,
    sections,
)

__all__ = ["summary_lines"]

def _ranges_line(ranges: RankRanges, top: int | None) -> str:
    """The best and worst positions the first systems (at the median fill) can still reach: 10 at most."""
    shown = min(10, top) if top else 10
    order = sorted(range(len(ranges.systems)), key=lambda k: (ranges.median_position[k], ranges.best[k], k))[:shown]
    items = ", ".join(f"{ranges.systems[k]} {ranges.best[k]}-{ranges.worst[k]}" for k in order)
    return f"rank ranges under the mean (best-worst), first {len(order)} at the median fill: {items}"


def _winners_line(analysis: Analysis, top: int | None) -> str:
    """``winner per rule: A (borda, kemeny); B = C (dowdall)``: rules grouped by their winners."""
    comparison = analysis.comparison
    groups: dict[tuple[str, ...], list[str]] = {}
    for rule in comparison.rules:
        tiers = comparison.rankings.get(rule)
        if tiers:
            groups.setdefault(tuple(tiers[0]), []).append(rule)
    parts = [f"{name_list(list(w), 3, ' = ')} ({', '.join(rules)})" for w, rules in groups.items()]
    return "winner per rule: " + name_list(parts, top, "; ")


def _policies_line(analysis: Analysis) -> str | None:
    """``missing-score policies: pairwise: copeland, kemeny; impute: borda`` (None without holes)."""
    if not analysis.leaderboard.has_missing:
        return None
    policies = analysis.comparison.preparations
    groups: dict[str, list[str]] = {}
    for rule in analysis.comparison.rules:
        if rule in policies and rule not in analysis.comparison.errors:
            groups.setdefault(policies[rule].policy_name, []).append(rule)
    if not groups:
        return None
    return "missing-score policies: " + "; ".join(f"{p}: {', '.join(rules)}" for p, rules in groups.items())


def summary_lines(analysis: Analysis, top: int | None = DEFAULT_TOP) -> list[str]:
    """The summary at the top of the ``analyze`` report, one line per fact.

    Size and missing scores, coverage, the Condorcet status, the Kemeny top 5, the winner
    of each rule (rules grouped by winner), the missing-score policy of each rule, the
    prospective count, every coverage warning and the rules that could not run.

    Parameters
    ----------
    analysis : Analysis
        The analysis.
    top : int or None, default=10
        Names shown in a list before ``... and N more``; 0 or None shows all.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import consensus as cs
    >>> summary_lines(cs.analyze(cs.load_example("votenrank-toy")))[:2]
    ['4 systems x 5 tasks', 'Condorcet winner: B']
    """
    lb = analysis.leaderboard
    text = [f"{lb.n_systems} systems x {lb.n_tasks} tasks"]
    if lb.has_missing:
        n_missing = len(lb.missing_cells())
        text[0] += f"; {n_missing} of {lb.n_systems * lb.n_tasks} scores missing ({n_missing / (lb.n_systems * lb.n_tasks):.0%})"
        coverage = lb.coverage
        threshold = analysis.coverage_threshold
        low = [s for s in lb.systems if float(coverage[s]) < threshold]
        text.append(f"coverage: {float(coverage.min()):.0%} to {float(coverage.max()):.0%} of the task weight per system"
                    + (f"; {len(low)} below {threshold:.0%} ({name_list(low, 5)})" if low else ""))
    aside = [n for n in analysis.notes if n.startswith("set aside, not ranked")]
    if aside:
        count = sum(int(n.split(": ", 1)[1].split(" ", 1)[0]) for n in aside)
        text.append(hinted("set aside, not ranked: {} system(s) (Notes say which and why; {} ranks them)", count,
                           option("min_coverage", 0)))
    text.append(condorcet_line(analysis.majority, top))
    kem = analysis.kemeny
    status = "optimal" if kem.optimal else f"not proven optimal (time limit), gap {kem.gap:.3g}"
    status += f", objective {kem.objective:.6g}, {kem.method} {kem.seconds:.2g} s"
    if kem.unique is False:
        groups = kem.determined.interchangeable() if kem.determined is not None else None
        if groups:
            status += ", other orders reach the same objective: positions " + ", ".join(
                f"{first}-{last}" for first, last, _ in groups[:3]) + (" ..." if len(groups) > 3 else "") + " interchangeable"
        else:
            status += hinted(", other orders reach the same objective ({} says which positions)",
                             call("cs.kemeny(..., determine=True)", "consensus kemeny --determined"))
    text.append(hinted("Kemeny top {}: {} ({})", min(5, len(kem.order)), format_ranking(kem.ranking, 5), status))
    if analysis.significance is not None:
        rows = analysis.significance.row_groups
        few = min(top, 5) if top else 0
        text.append(f"differences within noise are ties ({analysis.significance.setting}); the rows fall in "
                    f"{len(rows)} group(s), the first: {name_list(list(rows[0]), few)}")
    text.append(_winners_line(analysis, top))
    policies = _policies_line(analysis)
    if policies:
        text.append(policies)
    if analysis.prospective is not None:
        text.append(prospective_line(analysis.prospective, top))
    for rule, pw in (analysis.possible or {}).items():
        undecided = sum(p is None or n is None for p, n in zip(pw.possible, pw.necessary))
        if rule == "mean":
            text.append(f"who can still win under the mean ({pw.n_missing_cells} missing cells in each task's observed "
                        f"range): {name_list(pw.possible_winners, top) or 'none'}; in every case: "
                        f"{name_list(pw.necessary_winners, top) or 'none'}")
            text.append(pw.next_evaluations)
            if analysis.ranges is not None:
                text.append(_ranges_line(analysis.ranges, top))
            continue
        few = min(top, 5) if top else 0  # a shorter line per rank rule (any position of each missing cell)
        spent = any(how.endswith(BUDGET_SPENT) for how in pw.decided_by)
        text.append(f"who can still win under {rule} (any position): {name_list(pw.possible_winners, few) or 'none'}; "
                    f"in every case: {name_list(pw.necessary_winners, few) or 'none'}"
                    + (f"; {undecided} undecided within " + ("the time budget" if spent else "the time limit")
                       + f" (consensus possible FILE --rule {rule})" if undecided else "")
                    + (" (witnesses: consensus possible FILE --rule R)" if rule == "condorcet" else ""))
    read = len(next(iter(analysis.possible.values())).systems) if analysis.possible else 0  # every system read
    if read > POSSIBLE_SEARCH_SYSTEMS and "borda" not in (analysis.possible or {}):
        text.append(f"who can still win under borda and copeland: not computed above {POSSIBLE_SEARCH_SYSTEMS} systems "
                    "(their searches take about n^2 per system; consensus possible FILE --rule borda)")
    flags, more = capped(list(analysis.coverage_flags), 5)
    text += [f"warning: {flag}" for flag in flags] + ([f"... and {more} more warnings (JSON: coverage_flags)"]
                                                      if more else [])
    for rule, why in analysis.comparison.errors.items():
        text.append(f"not run: {rule}: {clip(why, 120)}")
    if top and lb.n_systems > top:
        text.append(hinted("tables show at most {} rows ({}: every row; JSON has everything)", top, option("top", 0)))
    return text


def _check_lines(checks: Sequence[Check]) -> list[str]:
    out = []
    for c in checks:
        if c.ok:
            out.append(f"check {c.name} = {c.actual}: ok ({c.source})")
        else:
            out.append(f"check {c.name} = {c.actual}: MISMATCH, expected {c.expected} ({c.source})")
    return out


@sections.register
def _(analysis: Analysis, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    title = f"consensus analyze: {analysis.source}" if analysis.source else "consensus analyze"
    blocks: list[Block] = [Heading(title, 1), Heading("Summary"), Lines(tuple(summary_lines(analysis, top)))]
    noise = analysis.significance
    groups = None if noise is None else {s: k for k, g in enumerate(noise.row_groups, start=1) for s in g}
    blocks += leaderboard_sections(analysis.leaderboard, "", top, groups)
    blocks += sections(analysis.majority, top=top)
    if not top or len(analysis.kemeny.order) <= top:  # else the summary and the side-by-side table have it
        blocks += [Heading("Exact Kemeny ranking"), Lines(tuple(kemeny_lines(analysis.kemeny, top)))]
    blocks += comparison_blocks(analysis.comparison, top, compact=True)
    if analysis.prospective is not None:
        prospective = sections(analysis.prospective, top=top)
        blocks += prospective[:1] + prospective[2:]  # its count line is in the summary
    if analysis.significance is not None:
        blocks += sections(analysis.significance, top=top)
    if analysis.notes:
        blocks += [Heading("Notes"), Lines(analysis.notes)]
    if analysis.checks:
        passed = sum(c.ok for c in analysis.checks)
        blocks += [
            Heading("Checks against published values"),
            Lines(tuple(_check_lines(analysis.checks)) + (f"checks: {passed}/{len(analysis.checks)} ok",)),
        ]
    return blocks


@csv_text.register
def _(analysis: Analysis) -> str:
    return frame_csv(analysis.comparison.table, "rule")
