"""What resampling results show in a report: experiments (and rank stability), sections and CSV.

Registered on :func:`consensus.report.sections.sections` and
:func:`consensus.report.sections.csv_text` when :mod:`consensus.report` is imported. The text
shows the summary (one row per setting and rule, never one per repetition); CSV and JSON hold
every row.
"""

from __future__ import annotations

from ..results import ExperimentResult
from .blocks import DEFAULT_TOP, Block, Heading, Lines, Table, num
from .csv_output import frame_csv
from .sections import csv_text, sections

__all__: list[str] = []


@sections.register
def _(result: ExperimentResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    params = result.parameters
    text = [
        f"{result.n_repetitions} repetitions, seed {params.get('seed')}, rules {', '.join(result.rules)}; "
        f"data: {params.get('data')}",
        f"{result.metric} per {result.setting} and rule: mean, standard deviation, min, median, max over repetitions",
    ]
    if result.time_limited:
        text.append(f"Kemeny stopped at its time limit in {result.time_limited} row(s): the best ranking found, not proven")
    summary = result.summary()
    rows = tuple(
        (str(setting), str(rule), num(row["mean"], 4), num(row["std"], 4), num(row["min"], 4), num(row["median"], 4),
         num(row["max"], 4), str(int(row["n"])))
        for (setting, rule), row in summary.iterrows()
    )
    return [Heading(f"Experiment: {result.name}"), Lines(tuple(text)),
            Table((result.setting, "rule", "mean", "std", "min", "median", "max", "n"), rows, "llrrrrrr")]


@csv_text.register
def _(result: ExperimentResult) -> str:
    frame = result.to_frame()
    return frame_csv(frame.set_index("repetition"), "repetition")
