"""What a :class:`~consensus.results.SensitivityResult` shows in a report: its sections and CSV table.

Registered on :func:`consensus.report.sections.sections` and
:func:`consensus.report.sections.csv_text` when :mod:`consensus.report` is imported.
"""

from __future__ import annotations

import math

from ..results import RadiusAnswer, SensitivityResult
from .blocks import DEFAULT_TOP, Block, Heading, Lines, Table, capped, more_line, num
from .csv_output import frame_csv
from .sections import csv_text, preparation_lines, sections

__all__: list[str] = []


def _then(outcome: tuple[tuple[str, ...], ...], majority: bool) -> str:
    """What the rule gives after the change: its first tie group (majority rules: the Condorcet winner)."""
    first = outcome[0] if outcome else ()
    if majority:
        return f"then the Condorcet winner: {first[0]}" if len(first) == 1 else "then no Condorcet winner"
    return f"then first: {', '.join(first)}"


def _radius_line(ans: RadiusAnswer, bound: str, majority: bool) -> str:
    name = {"l1": "L1", "linf": "L-infinity"}[ans.norm]
    if math.isinf(ans.distance):
        return f"{name}: no admissible weighting changes it"
    if ans.distance == 0:
        return f"{name}: 0 (already tied)"
    who = f"{ans.challenger} catches {ans.leader}; " if ans.leader else ""
    return f"{name} radius: {bound}{num(ans.distance, 4)} ({who}{_then(ans.outcome, majority)})"


@sections.register
def _(result: SensitivityResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    bound = "at least " if result.kind == "lower_bound" else ""
    majority = result.rule in ("condorcet", "kemeny")
    current = " > ".join(", ".join(g) for g in result.current[:5]) + (" > ..." if len(result.current) > 5 else "")
    text = [
        result.explanation,
        f"{result.target} under {result.rule} with the official weights: {current}",
        _radius_line(result.l1, bound, majority),
        _radius_line(result.linf, bound, majority),
    ]
    rem = result.removal
    if rem.n_removed is None:
        text.append("fewest task removals: none changes it")
    elif rem.n_removed == 0:
        text.append("fewest task removals: 0 (already tied)")
    else:
        then = _then(rem.outcome, majority)
        text.append(f"fewest task removals: {bound}{rem.n_removed} ({', '.join(rem.tasks)}; {then})")
    text.extend(preparation_lines(result.preparation))
    if result.kind == "lower_bound":
        text.append("kemeny: radii and removals are lower bounds from the majority relation (see docs/sensitivity.md)")
    blocks: list[Block] = [Heading(f"Weight sensitivity of the {result.target} ({result.rule})"), Lines(tuple(text))]
    moved = result.changed_tasks()
    shown, more = capped(list(moved.iterrows()), top)
    rows = tuple(
        (str(task), num(row["reference"], 4), num(row["weight_l1"], 4), num(row["change_l1"], 4),
         num(row["weight_linf"], 4), num(row["change_linf"], 4), "yes" if row["removed"] else "")
        for task, row in shown
    )
    if rows:
        blocks.append(Lines(("tasks whose weight changes (nearest weightings) or that are removed:",)))
        blocks += [Table(("task", "official", "L1 weight", "L1 change", "Linf weight", "Linf change", "removed"),
                         rows, "lrrrrrl"), *more_line(more, "tasks")]
    return blocks


@csv_text.register
def _(result: SensitivityResult) -> str:
    return frame_csv(result.to_frame(), "task")
