"""What resampling results show in a report: experiments (and rank stability), sections and CSV.

Registered on :func:`consensus.report.sections.sections` and
:func:`consensus.report.sections.csv_text` when :mod:`consensus.report` is imported. The text
shows the summary (one row per setting and rule, never one per repetition); CSV and JSON hold
every row.
"""

from __future__ import annotations

from ..results import ExperimentResult, StabilityResult
from .blocks import DEFAULT_TOP, Block, Heading, Lines, Table, capped, more_line, num
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
    if result.kemeny_not_unique:
        text.append(f"Kemeny had several optimal rankings in {result.kemeny_not_unique} row(s): its figures there are "
                    "those of one of them")
    if params.get("kemeny_reference_unique") is False:
        text.append("Kemeny has several optimal rankings on the unperturbed board: tau is measured to one of them")
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


def _with_next(result: StabilityResult) -> dict[tuple[str, str], float]:
    """(rule, system) -> share of resamples in which the system stays strictly above the next one."""
    pairs = result.pairs_frame()
    return {(r, u): float(k) for r, u, k in zip(pairs["rule"], pairs["upper"], pairs["kept"])}


@sections.register
def _(result: StabilityResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    params = result.parameters
    frame = result.to_frame()
    kept = _with_next(result)
    level = f"{result.level:g}"
    blocks: list[Block] = [
        Heading("Rank stability"),
        Lines((
            f"{result.resamples} {result.resampling} resamples (seed {params.get('seed')}), rules {', '.join(result.rules)}",
            f"interval: the positions holding the central {level} of the resamples; P(first) counts a tie for first "
            f"as first; top set: P(first) >= {result.alpha:g} (not separable from the top)",
            *((f"Kemeny stopped at its time limit in {result.time_limited} resample(s): the best ranking found, "
               "not proven",) if result.time_limited else ()),
            *((f"Kemeny had several optimal rankings in {result.kemeny_not_unique} resample(s): its positions there "
               "are those of one of them",) if result.kemeny_not_unique else ()),
            *(("Kemeny has several optimal rankings on the full data: its positions are those of one of them",)
              if params.get("kemeny_full_unique") is False else ()),
        )),
    ]
    for rule in result.rules:
        part = frame[frame["rule"] == rule]
        shown, more = capped(list(part.itertuples(index=False)), top)
        rows = tuple(
            (str(row.position), str(row.system), f"{row.low}-{row.high}", num(row.median, 3), num(row.p_first, 3),
             num(row.p_top_k, 3), "yes" if row.top_set else "",
             num(kept[(rule, row.system)], 3) if (rule, row.system) in kept else "")
            for row in shown
        )
        blocks += [
            Lines((f"{rule}: top set {', '.join(result.top_set(rule)) or '(empty)'}",)),
            Table(("pos", "system", "interval", "median", "P(first)", f"P(top {result.top_k})", "top set",
                   "above next"), rows, "rlrrrrlr"),
            *more_line(more, "systems"),
        ]
    return blocks


@csv_text.register
def _(result: StabilityResult) -> str:
    frame = result.to_frame()
    kept = _with_next(result)
    frame["kept_with_next"] = [kept.get((r, s)) for r, s in zip(frame["rule"], frame["system"])]
    return frame_csv(frame.set_index("rule"), "rule")
