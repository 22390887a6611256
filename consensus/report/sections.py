"""What each result shows in a report: one ``sections`` and one ``csv_text`` per result type.

Both are :func:`functools.singledispatch` functions: to make a new result printable, register
its sections and its CSV table here (JSON needs nothing: it is the result's ``to_dict()``).
Nothing here computes: every number comes from the result objects.
"""

from __future__ import annotations

import math
from functools import singledispatch
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InvalidOptionError
from ..leaderboard import Leaderboard
from ..results import (
    Analysis,
    Check,
    CondorcetWeightsResult,
    ImputationResult,
    KemenyResult,
    MajoritySummary,
    PairwiseConfidence,
    ProspectiveResult,
    RuleComparison,
    RuleResult,
    walk_tiers,
)
from .blocks import (
    Block,
    Heading,
    Lines,
    Table,
    cell,
    csv_value,
    format_ranking,
    frame_csv,
    lines,
    num,
    render_csv,
    score,
)

__all__ = ["sections", "csv_text"]


@singledispatch
def sections(obj: Any) -> list[Block]:
    """The report blocks of `obj` (headings, lines, tables), dispatched on its type.

    Parameters
    ----------
    obj : result object, Leaderboard, or tuple of them
        A tuple renders each element in turn.

    Returns
    -------
    list of Heading, Lines and Table
        Ready for :func:`~consensus.report.blocks.render_text` or
        :func:`~consensus.report.blocks.render_markdown`.

    Raises
    ------
    InvalidOptionError
        If nothing is registered for the type (of `obj`, or of an element of a tuple).

    Examples
    --------
    >>> import consensus as cs
    >>> [type(b).__name__ for b in sections(cs.kemeny(cs.load_example("votenrank-toy")))]
    ['Heading', 'Lines', 'Table']
    """
    raise InvalidOptionError(f"cannot render a {type(obj).__name__}")


@singledispatch
def csv_text(obj: Any) -> str:
    """The main table of `obj` as CSV, dispatched on its type (a tuple: its last element).

    Parameters
    ----------
    obj : result object, Leaderboard, or tuple of them
        The scores (as read), a majority summary (its edges), a Kemeny or rule result (its
        ranking), a comparison or analysis (the comparison table), Condorcet weights (task
        weights), prospective systems, an imputed matrix or pairwise confidences.

    Returns
    -------
    str
        CSV text with a header row (:func:`~consensus.report.blocks.render_csv`).

    Raises
    ------
    InvalidOptionError
        If nothing is registered for the type.

    Examples
    --------
    >>> import consensus as cs
    >>> print(csv_text(cs.kemeny(cs.load_example("votenrank-toy"))), end="")
    position,system
    1,B
    2,C
    3,D
    4,A
    """
    raise InvalidOptionError(f"cannot render a {type(obj).__name__} as CSV")


@sections.register
def _(obj: tuple) -> list[Block]:
    return [block for item in obj for block in sections(item)]


@csv_text.register
def _(obj: tuple) -> str:
    return csv_text(obj[-1])


# ---------------------------------------------------------------------- leaderboard
@sections.register
def _(table: Leaderboard) -> list[Block]:
    return _leaderboard_blocks(table, "")


def _leaderboard_blocks(table: Leaderboard, source: str) -> list[Block]:
    title = f"Scores as read ({source})" if source else "Scores as read"
    weighted = not np.allclose(table.weights.to_numpy(), 1.0)
    rows = [("better:",) + tuple("lower" if t in table.lower_is_better else "higher" for t in table.tasks)]
    if weighted:
        rows.append(("weight:",) + tuple(num(w, 4) for w in table.weights))
    scores = table.scores
    rows += [(s,) + tuple(score(scores.at[s, t]) for t in table.tasks) for s in table.systems]
    return [Heading(title), Lines(tuple(table.describe().splitlines())), Table(("system",) + table.tasks, tuple(rows))]


@csv_text.register
def _(table: Leaderboard) -> str:
    return frame_csv(table.scores, "system")


# ---------------------------------------------------------------------- majority
_EDGE_HEADERS = ("winner", "loser", "wins", "losses", "ties", "margin")


@sections.register
def _(summary: MajoritySummary) -> list[Block]:
    text = []
    if summary.condorcet_winner is not None:
        text.append(f"Condorcet winner: {summary.condorcet_winner}")
    else:
        why = []
        if summary.cycle:
            why.append("majority cycle " + " > ".join(summary.cycle + summary.cycle[:1]))
        if summary.weak_condorcet_winners:
            why.append("weak Condorcet winner(s) " + ", ".join(summary.weak_condorcet_winners))
        text.append("Condorcet winner: none" + (f" ({'; '.join(why)})" if why else ""))
    text.append(f"Condorcet loser: {summary.condorcet_loser or 'none'}")
    text.append("Smith set: {" + ", ".join(summary.smith_set) + "}")
    if summary.ties:
        text.append("majority ties: " + ", ".join(f"{a} = {b}" for a, b in summary.ties))
    if summary.pareto_dominated:
        text.append(
            "Pareto-dominated: " + "; ".join(f"{s} (by {', '.join(by)})" for s, by in summary.pareto_dominated.items())
        )
    rows = tuple((w, l, num(a), num(b), num(t), num(m)) for w, l, a, b, t, m in summary.edges)
    blocks: list[Block] = [Heading("Majority graph"), Lines(tuple(text))]
    if rows:
        blocks.append(Table(_EDGE_HEADERS, rows, "llrrrr"))
    return blocks


@csv_text.register
def _(summary: MajoritySummary) -> str:
    return render_csv(_EDGE_HEADERS, [(w, l, *(csv_value(x) for x in rest)) for w, l, *rest in summary.edges])


# ---------------------------------------------------------------------- kemeny
@sections.register
def _(result: KemenyResult) -> list[Block]:
    status = result.status.value if result.status is not None else "unknown"
    text = [
        "ranking: " + " > ".join(result.ranking),
        f"objective: {num(result.objective)} (task weight the ranking disagrees with)",
    ]
    detail = f"status: {status}, lower bound {num(result.lower_bound)}"
    if not result.optimal:
        detail += f", gap {num(result.gap)} (not proven optimal: the time limit stopped the proof)"
    detail += f", method {result.method}, {num(result.seconds, 2)} s"
    text.append(detail)
    if result.unique is not None:
        text.append("unique optimum: " + ("yes" if result.unique else "no (other orders reach the same objective)"))
    rows = tuple((str(i), s) for i, s in enumerate(result.ranking, start=1))
    return [Heading("Exact Kemeny ranking"), Lines(tuple(text)), Table(("position", "system"), rows, "rl")]


@csv_text.register
def _(result: KemenyResult) -> str:
    return render_csv(("position", "system"), list(enumerate(result.ranking, start=1)))


# ---------------------------------------------------------------------- one rule
@sections.register
def _(result: RuleResult) -> list[Block]:
    text = ["ranking: " + format_ranking(result.ranking)]
    text.append("winner(s): " + (", ".join(result.winners) if result.winners else "none"))
    options = {k: v for k, v in result.options.items() if v not in (None, False)}
    if options:
        text.append("options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    scores = result.scores
    sizes = {tier: len(group) for tier, group in enumerate(result.ranking, start=1)}
    rows = tuple(
        (str(pos) + ("=" if sizes[tier] > 1 else ""), s, num(scores[s], 4))
        for s, pos, tier in walk_tiers(result.ranking)
    )
    return [Heading(f"Rule: {result.rule}"), Lines(tuple(text)), Table(("position", "system", "score"), rows, "rlr")]


@csv_text.register
def _(result: RuleResult) -> str:
    scores = result.scores
    return render_csv(
        ("position", "tier", "system", "score"),
        [(pos, tier, s, csv_value(float(scores[s]))) for s, pos, tier in walk_tiers(result.ranking)],
    )


# ---------------------------------------------------------------------- comparison
def _change(value: int) -> str:
    return f" ({value:+d})" if value else ""


def _rankings_table(comparison: RuleComparison) -> Table:
    rules = [r for r in comparison.rules if r in comparison.rankings]
    n = len(comparison.systems)
    changes = comparison.rank_changes() if comparison.baseline in comparison.rankings else None
    columns = []
    for rule in rules:
        cells = []
        for group in comparison.rankings[rule]:
            for k, s in enumerate(group):
                text = ("= " if k else "") + s
                if changes is not None:
                    text += _change(int(changes.at[s, rule]))
                cells.append(text)
        columns.append(cells)
    rows = tuple((str(i + 1),) + tuple(col[i] for col in columns) for i in range(n))
    return Table(("#",) + tuple(rules), rows, "r" + "l" * len(rules))


def _comparison_blocks(comparison: RuleComparison) -> list[Block]:
    frame = comparison.table
    ks = comparison.ks
    base = comparison.baseline
    ran = [r for r in comparison.rules if r not in comparison.errors]
    blocks: list[Block] = [Heading("Rankings side by side")]
    change_note = (
        f"(+k)/(-k): places gained/lost versus {base}; '= X': tied with the system above"
        if base in comparison.rankings
        else f"no rank changes: the {base} ranking could not be computed"
    )
    blocks += [lines(change_note), _rankings_table(comparison)]

    blocks.append(Heading("Each rule against the exact Kemeny ranking"))
    if not bool(getattr(comparison.kemeny, "optimal", True)):
        blocks.append(
            lines(
                "the Kemeny ranking below is the best found within the time limit, not proven optimal: "
                "gaps are measured against it (a negative gap means the rule found a better ranking)"
            )
        )
    if getattr(comparison.kemeny, "unique", None) is False:
        blocks.append(
            lines(
                "the Kemeny optimum is not unique: tau, dist and top/least-k refer to the optimum shown above; "
                "objective and gap do not depend on the choice"
            )
        )
    cw = comparison.condorcet_winner
    blocks.append(
        lines(
            "tau: Kendall tau-b; dist: Kendall distance (pairs in opposite order; a pair tied in one "
            f"ranking only counts {num(comparison.tie_penalty)})",
            "objective: Kemeny objective (task weight disagreeing; tied pairs: random tie-break); "
            "gap: objective - optimum; ratio: objective / optimum",
            (f"CW: the winner is the Condorcet winner {cw} alone; " if cw else "CW: - (no Condorcet winner); ")
            + "top/least-k: share of the k best/worst systems in common; groups: number of tie groups",
        )
    )
    headers = ["rule", "winner", "tau", "dist", "objective", "gap", "ratio", "CW"]
    headers += [f"top{k}" for k in ks] + [f"least{k}" for k in ks] + ["groups"]
    rows = []
    for rule in ran:
        r = frame.loc[rule]
        row = [rule, r["winner"], num(r["kendall_tau"]), num(r["kendall_distance"]), num(r["objective"]),
               num(r["gap"]), num(r["gap_ratio"]), num(r["condorcet_winner"])]
        row += [num(r[f"top{k}"], 2) for k in ks] + [num(r[f"least{k}"], 2) for k in ks]
        row += [num(r["tie_groups"])]
        rows.append(tuple(row))
    blocks.append(Table(tuple(headers), tuple(rows), "ll" + "r" * (len(headers) - 2)))
    if comparison.errors:
        blocks.append(lines(*(f"not run: {rule}: {why}" for rule, why in comparison.errors.items())))

    if f"{base}_tau" in frame.columns and base in comparison.rankings:
        blocks.append(Heading(f"Each rule against the {base}"))
        headers = ["rule", "tau"] + [f"top{k}" for k in ks] + [f"least{k}" for k in ks]
        rows = []
        for rule in ran:
            r = frame.loc[rule]
            rows.append(
                (rule, num(r[f"{base}_tau"]))
                + tuple(num(r[f"{base}_top{k}"], 2) for k in ks)
                + tuple(num(r[f"{base}_least{k}"], 2) for k in ks)
            )
        blocks.append(Table(tuple(headers), tuple(rows)))

    blocks.append(Heading("Distance to the task rankings (Colombo et al. 2022, appendix C)"))
    kem_mean = frame.loc["kemeny", "mean_task_distance"]
    dispersion = comparison.dispersion
    text = [f"dispersion of the task rankings (mean Kendall distance between two tasks): {num(dispersion)}"]
    if dispersion > 0 and not math.isnan(float(kem_mean)):
        text.append(
            f"Kemeny mean distance / dispersion = {num(float(kem_mean) / dispersion)} "
            "(between 0.5 and 1 when every task ranks every system strictly)"
        )
    blocks.append(lines(*text))
    rows = tuple(
        (rule, num(frame.loc[rule, "task_distance"]), num(frame.loc[rule, "mean_task_distance"]),
         num(frame.loc[rule, "seconds"], 4))
        for rule in ran
    )
    blocks.append(Table(("rule", "sum", "per task weight", "rule time (s)"), rows))
    return blocks


@sections.register
def _(comparison: RuleComparison) -> list[Block]:
    return sections(comparison.kemeny) + _comparison_blocks(comparison)


@csv_text.register
def _(comparison: RuleComparison) -> str:
    return frame_csv(comparison.table, "rule")


# ---------------------------------------------------------------------- condorcet weights
_PROSPECTIVE_LINES = (
    "feasible: can beat or tie every rival under some task weights (Vote'n'Rank's prospective); "
    "strict_feasible: can beat every rival",
    "margin: best smallest weighted margin over rivals (weights sum to 1); distance: L1 from the "
    "leaderboard's weights to the nearest winning weights; certificate: rival mix proving a 'never'",
)


def _frame_blocks(title: str, frame: pd.DataFrame, index_name: str, text: tuple[str, ...] = ()) -> list[Block]:
    headers = (index_name,) + tuple(str(c) for c in frame.columns)
    rows = tuple((str(key),) + tuple(cell(v) for v in row.tolist()) for key, row in frame.iterrows())
    blocks: list[Block] = [Heading(title)]
    if text:
        blocks.append(Lines(text))
    align = "l" + "".join(
        "r" if pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c]) else "l"
        for c in frame.columns
    )
    blocks.append(Table(headers, rows, align))
    return blocks


@sections.register
def _(result: ProspectiveResult) -> list[Block]:
    frame = result.to_frame().set_index("system").drop(columns=["method"])
    return _frame_blocks("Prospective systems (Condorcet winners under some task weights)", frame, "system",
                         _PROSPECTIVE_LINES)


@csv_text.register
def _(result: ProspectiveResult) -> str:
    return frame_csv(result.to_frame().set_index("system"), "system")


@sections.register
def _(result: CondorcetWeightsResult) -> list[Block]:
    kind = "" if result.strict else "weak "
    text = [result.explanation or f"{result.system}: feasible={result.feasible}"]
    text.append(f"best smallest margin ({kind}Condorcet winner): {num(result.margin, 4)}; status {result.status.value}")
    if result.distance is not None:
        text.append(f"L1 distance from the reference weights: {num(result.distance, 4)}")
    blocks: list[Block] = [Heading(f"Condorcet weights for {result.system}"), Lines(tuple(text))]
    if result.weight_values:
        blocks.append(Table(("task", "weight"), tuple((t, num(w, 4)) for t, w in result.weight_values.items())))
    if result.rival_margins:
        blocks.append(Table(("rival", "margin"), tuple((r, num(m, 4)) for r, m in result.rival_margins.items())))
    cert = result.certificate
    if cert is not None:
        blocks.append(lines(f"certificate ({cert.kind}): {cert.statement}"))
        if cert.rival_mix:
            blocks.append(Table(("rival", "share"), tuple((r, num(v, 4)) for r, v in cert.rival_mix.items())))
    return blocks


@csv_text.register
def _(result: CondorcetWeightsResult) -> str:
    return render_csv(("task", "weight"), [(t, csv_value(w)) for t, w in (result.weight_values or {}).items()])


# ---------------------------------------------------------------------- missing scores
@sections.register
def _(imputed: ImputationResult) -> list[Block]:
    systems = list(imputed.matrix.systems)
    wins = np.asarray(imputed.matrix.wins)
    rows = tuple((s,) + tuple(num(v) for v in wins[i]) for i, s in enumerate(systems))
    return [
        Heading(f"Imputed pairwise matrix ({imputed.method}, Himmi et al. 2023)"),
        lines(
            "wins[row, column]: comparisons the row system wins, missing scores imputed over the compatible "
            "rankings (ties split)",
            "ranking (Borda on the imputed matrix): " + format_ranking(imputed.ranking),
        ),
        Table(("wins",) + tuple(systems), rows),
    ]


@csv_text.register
def _(imputed: ImputationResult) -> str:
    systems = list(imputed.matrix.systems)
    return frame_csv(pd.DataFrame(np.asarray(imputed.matrix.wins), index=systems, columns=systems), "system")


@sections.register
def _(confidence: PairwiseConfidence) -> list[Block]:
    pairs = confidence.pairs()
    rows = tuple(
        (p["system"], p["other"], num(p["estimate"]), num(p["half_width"]), str(p["comparisons"]),
         p["confident_winner"] or "-")
        for p in pairs
    )
    return [
        Heading("Pairwise confidence (Hoeffding, Himmi et al. 2023, sec. 2.3)"),
        lines(
            f"delta = {num(confidence.delta)}: a winner is named when the interval "
            "estimate +- half-width excludes 1/2",
            f"confident pairs: {sum(p['confident_winner'] is not None for p in pairs)} of {len(pairs)}",
        ),
        Table(("system", "other", "P(system > other)", "half-width", "compared", "confident winner"), rows, "llrrrl"),
    ]


@csv_text.register
def _(confidence: PairwiseConfidence) -> str:
    return render_csv(
        ("system", "other", "estimate", "half_width", "comparisons", "confident_winner"),
        [(p["system"], p["other"], csv_value(p["estimate"]), csv_value(p["half_width"]), p["comparisons"],
          p["confident_winner"] or "") for p in confidence.pairs()],
    )


# ---------------------------------------------------------------------- the full report
def _check_lines(checks: tuple[Check, ...]) -> list[str]:
    out = []
    for c in checks:
        if c.ok:
            out.append(f"check {c.name} = {c.actual}: ok ({c.source})")
        else:
            out.append(f"check {c.name} = {c.actual}: MISMATCH, expected {c.expected} ({c.source})")
    return out


@sections.register
def _(analysis: Analysis) -> list[Block]:
    title = f"consensus analyze: {analysis.source}" if analysis.source else "consensus analyze"
    blocks: list[Block] = [Heading(title, 1)]
    blocks += _leaderboard_blocks(analysis.leaderboard, "")
    blocks += sections(analysis.majority)
    blocks += sections(analysis.kemeny)
    blocks += _comparison_blocks(analysis.comparison)
    if analysis.prospective is not None:
        blocks += sections(analysis.prospective)
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


def leaderboard_sections(table: Leaderboard, source: str) -> list[Block]:
    """The scores-as-read section of `table`, titled with its `source`.

    Parameters
    ----------
    table : Leaderboard
        The scores: its description, each task's direction, the weights (only when some
        weight is not 1) and every score as read.
    source : str
        Where the scores came from; an empty string leaves it out of the title.

    Returns
    -------
    list of Heading, Lines and Table

    Examples
    --------
    >>> import consensus as cs
    >>> leaderboard_sections(cs.load_example("votenrank-toy"), "example:votenrank-toy")[0].text
    'Scores as read (example:votenrank-toy)'
    """
    return _leaderboard_blocks(table, source)
