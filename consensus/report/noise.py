"""What a :class:`~consensus.results.SignificanceResult` shows in a report: sections and CSV.

Registered on :func:`consensus.report.sections.sections` and
:func:`consensus.report.sections.csv_text` when :mod:`consensus.report` is imported. The text
shows each task's tie groups (the first groups, capped like every list) and the leaderboard's
rows in groups; CSV holds every system's group on every task and, with an empty task, its row
group; JSON every pair with its p-values.
"""

from __future__ import annotations

import pandas as pd

from ..results import SignificanceResult
from .blocks import (
    DEFAULT_TOP,
    Block,
    Heading,
    Lines,
    Table,
    capped,
    clip,
    more_line,
    num,
)
from .csv_output import frame_csv
from .sections import csv_text, sections

__all__: list[str] = []

#: Tie groups shown per task in the text (the rest counted).
_GROUPS_SHOWN = 3


@sections.register
def _(result: SignificanceResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    separated = result.separated()
    groups = result.tie_groups
    lines = [result.describe(),
             "tie groups: each task's systems in score order, a new group starting at the first system significantly "
             "worse than the group's leader (docs/significance.md)"]
    lines += [f"note: {n}" for n in result.parameters.get("notes", ())]
    shown, more = capped(list(result.tasks), top)
    rows = []
    for task in shown:
        tiers = groups[task]
        text = " > ".join("{" + clip(", ".join(g), 60) + "}" for g in tiers[:_GROUPS_SHOWN])
        if len(tiers) > _GROUPS_SHOWN:
            text += f" > ... ({len(tiers) - _GROUPS_SHOWN} more)"
        rows.append((clip(task, 40), result.tests[task], str(len(tiers)), f"{separated[task]:.0%}", text))
    frame = result.rows_frame()
    shown_rows, more_rows = capped(list(frame.itertuples(index=False)), top)
    row_table = tuple((str(r.group), r.system, num(r.mean, 4)) for r in shown_rows)
    groups_line = (f"the leaderboard's rows: {len(result.row_groups)} group(s) by their weighted means (a z-test of the "
                   "means over the tasks both are scored on, the same correction over every pair)")
    return [
        Heading("Differences within noise"),
        Lines(tuple(lines)),
        Table(("task", "test", "groups", "pairs separated", "tie groups, best first"), tuple(rows), "llrrl"),
        *more_line(more, "tasks"),
        Lines((groups_line,)),
        Table(("group", "system", "mean"), row_table, "rlr"),
        *more_line(more_rows, "systems"),
    ]


@csv_text.register
def _(result: SignificanceResult) -> str:
    rows = result.rows_frame().rename(columns={"mean": "score"}).assign(task="")
    frame = pd.concat([result.groups_frame(), rows[["task", "system", "group", "score"]]], ignore_index=True)
    return frame_csv(frame.set_index("task"), "task")
