"""What each result shows in a report: one ``sections`` and one ``csv_text`` per result type.

Both are :func:`functools.singledispatch` functions: to make a new result printable, register
its sections and its CSV table here (JSON needs nothing: it is the result's ``to_dict()``).
Nothing here computes: every number comes from the result objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import singledispatch
from typing import Any, cast

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..hints import call, hinted
from ..results import (
    CondorcetWeightsResult,
    ImputationResult,
    KemenyResult,
    MajoritySummary,
    PairwiseConfidence,
    PossibleWinners,
    Preparation,
    ProspectiveResult,
    RankRanges,
    RuleResult,
    walk_tiers,
)
from .blocks import (
    DEFAULT_TOP,
    Block,
    Heading,
    Lines,
    Table,
    capped,
    cell,
    clip,
    format_ranking,
    lines,
    more_line,
    name_list,
    num,
    score,
)
from .csv_output import csv_value, frame_csv, render_csv

__all__ = ["sections", "csv_text", "leaderboard_sections", "condorcet_line", "kemeny_lines", "prospective_line",
           "policy_text", "preparation_lines"]


@singledispatch
def sections(obj: Any, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    """The report blocks of `obj` (headings, lines, tables), dispatched on its type.

    Parameters
    ----------
    obj : result object, Leaderboard, or tuple of them
        A tuple renders each element in turn.
    top : int or None, default=10
        Rows of each table (systems, edges, pairs), then ``... and N more``; 0 or None
        shows every row. CSV and JSON are never capped.

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
        CSV text with a header row (:func:`~consensus.report.csv_output.render_csv`).

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
def _(obj: tuple, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    return [block for item in obj for block in sections(item, top=top)]


@csv_text.register
def _(obj: tuple) -> str:
    return csv_text(obj[-1])


# ---------------------------------------------------------------------- leaderboard
@sections.register
def _(table: Leaderboard, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    return _leaderboard_blocks(table, "", top)


def _leaderboard_blocks(table: Leaderboard, source: str, top: int | None,
                        groups: Mapping[str, int] | None = None) -> list[Block]:
    title = f"Scores as read ({source})" if source else "Scores as read"
    weighted = not np.allclose(table.weight_array, 1.0)
    holes = table.has_missing
    cov_header = ("coverage",) if holes else ()
    group_header = ("group",) if groups else ()
    blank = ("",) * (len(cov_header) + len(group_header))
    rows = [("better:",) + tuple("lower" if t in table.lower_is_better else "higher" for t in table.tasks) + blank]
    if weighted:
        rows.append(("weight:",) + tuple(num(w, 4) for w in table.weights) + blank)
    scores = table.scores
    coverage = table.coverage if holes else None
    shown, more = capped(table.systems, top)
    for s in shown:
        row = (s,) + tuple(score(scores.at[s, t]) for t in table.tasks)
        if coverage is not None:
            row += (f"{float(coverage[s]):.0%}",)
        if groups:
            row += (str(groups.get(s, "")),)
        rows.append(row)
    notes = {str(n): n for n in table.notes}  # the notes themselves: their command-line wording kept
    text = [notes.get(x, x) for x in table.describe().splitlines() if not x.startswith("excluded column(s), not tasks")]
    if holes:  # on the missing-scores line: the summary lists the low-coverage systems
        at = next(i for i, line in enumerate(text) if line.startswith("missing scores:"))
        text[at] += "; coverage: share of the task weight each system is scored on"
    if groups:
        text.append("group: the system's group within noise (1 = the best; docs/significance.md)")
    return [Heading(title), Lines(tuple(text)), Table(("system",) + table.tasks + cov_header + group_header, tuple(rows)),
            *more_line(more, "systems")]


@csv_text.register
def _(table: Leaderboard) -> str:
    return frame_csv(table.scores, "system")


# ---------------------------------------------------------------------- majority
_EDGE_HEADERS = ("winner", "loser", "wins", "losses", "ties", "margin")


def condorcet_line(summary: MajoritySummary, top: int | None = DEFAULT_TOP) -> str:
    """``Condorcet winner: X``, or ``none`` with the reason (a cycle, weak winners).

    Parameters
    ----------
    summary : MajoritySummary
        The majority relation.
    top : int or None, default=10
        Systems of a cycle or of the weak winners shown.

    Returns
    -------
    str

    Examples
    --------
    >>> import consensus as cs
    >>> from consensus.majority._relation import majority_summary
    >>> condorcet_line(majority_summary(cs.load_example("votenrank-toy")))
    'Condorcet winner: B'
    """
    if summary.condorcet_winner is not None:
        return f"Condorcet winner: {summary.condorcet_winner}"
    why = []
    if summary.cycle:
        cycle = list(summary.cycle) + [summary.cycle[0]]
        why.append("majority cycle " + (" > ".join(cycle) if not top or len(cycle) <= top + 1
                                        else " > ".join(cycle[:top]) + f" > ... ({len(cycle) - 1} systems)"))
    if summary.weak_condorcet_winners:
        why.append("weak Condorcet winner(s) " + name_list(summary.weak_condorcet_winners, top))
    return "Condorcet winner: none" + (f" ({'; '.join(why)})" if why else "")


@sections.register
def _(summary: MajoritySummary, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    text = [condorcet_line(summary, top)]
    text.append(f"Condorcet loser: {summary.condorcet_loser or 'none'}")
    smith = summary.smith_set
    text.append("Smith set: {" + name_list(smith, top) + "}" + (f" ({len(smith)} systems)" if len(smith) > 1 else ""))
    n = len(summary.systems)
    pairs = n * (n - 1) // 2
    inline = min(top, 5) if top else top  # lists inside a line: at most 5 items unless everything is asked for
    if summary.ties:
        text.append(f"majority ties ({len(summary.ties)}): "
                    + name_list([f"{a} = {b}" for a, b in summary.ties], inline))
    if summary.pareto_dominated:
        dominated = [f"{s} (by {name_list(by, 3)})" for s, by in summary.pareto_dominated.items()]
        plural = "s" if len(dominated) != 1 else ""
        text.append(f"Pareto-dominated ({len(dominated)} system{plural}): " + name_list(dominated, inline, "; "))
    blocks: list[Block] = [Heading("Majority graph"), Lines(tuple(text))]
    if top and len(summary.edges) > top:  # too many to list: counts and the strongest few
        strongest = ", ".join(f"{w} > {loser} ({num(m)})" for w, loser, _, _, _, m in summary.edges[:5])
        blocks.append(lines(f"majority edges: {len(summary.edges)} of {pairs} pairs decided, {len(summary.ties)} "
                            f"tied; strongest (margin): {strongest} (JSON and CSV list every edge)"))
    elif summary.edges:
        rows = tuple((w, loser, num(a), num(b), num(t), num(m)) for w, loser, a, b, t, m in summary.edges)
        blocks.append(Table(_EDGE_HEADERS, rows, "llrrrr"))
    return blocks


@csv_text.register
def _(summary: MajoritySummary) -> str:
    return render_csv(_EDGE_HEADERS, [(w, loser, *(csv_value(x) for x in rest)) for w, loser, *rest in summary.edges])


# ---------------------------------------------------------------------- kemeny
def kemeny_lines(result: KemenyResult, top: int | None = DEFAULT_TOP) -> list[str]:
    """The Kemeny ranking (capped), its objective and its status, one line each.

    Parameters
    ----------
    result : KemenyResult
        The exact Kemeny ranking.
    top : int or None, default=10
        Systems shown in the ranking line.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import consensus as cs
    >>> kemeny_lines(cs.kemeny(cs.load_example("votenrank-toy")))[0]
    'ranking: B > C > D > A'
    """
    status = result.status.value if result.status is not None else "unknown"
    tiers = result.ranking
    text = [
        "ranking: " + format_ranking(tiers, top),
        f"objective: {num(result.objective)} (task weight the ranking disagrees with)",
    ]
    detail = f"status: {status}, lower bound {num(result.lower_bound)}"
    if not result.optimal:
        detail += f", gap {num(result.gap)} (not proven optimal: the time limit stopped the proof)"
    detail += f", method {result.method}, {num(result.seconds, 2)} s"
    text.append(detail)
    text.extend(optima_lines(result, top))
    text.extend(preparation_lines(result.preparation))
    text.extend(result.notes)
    return text


@sections.register
def _(result: KemenyResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    shown, more = capped(list(zip(result.positions(), result.order)), top)
    rows = tuple((str(i), s) for i, s in shown)
    return [Heading("Exact Kemeny ranking"), Lines(tuple(kemeny_lines(result, top))),
            Table(("position", "system"), rows, "rl"), *more_line(more, "systems")]


@csv_text.register
def _(result: KemenyResult) -> str:
    return render_csv(("position", "system"), list(zip(result.positions(), result.order)))


def optima_lines(result: KemenyResult, top: int | None = DEFAULT_TOP) -> list[str]:
    """Whether the optimum is unique, the optima listed, and which positions every optimum shares.

    Parameters
    ----------
    result : KemenyResult
        The exact Kemeny ranking.
    top : int or None, default=10
        Optima listed, interchangeable groups listed, and systems per ranking shown.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import consensus as cs
    >>> cycle = cs.PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
    >>> for line in optima_lines(cs.kemeny(cycle, determine=True)):
    ...     print(line)
    unique optimum: no (other rankings reach the same objective)
    determined: 0 of 3 positions hold the same system in every optimal ranking; 3 pairs are ordered differently by some optimum
    positions 1-3 are interchangeable at the optimum: a, b, c
    the winner is not determined: another optimal ranking puts another system first (positions 1-3 hold a, b, c in every optimum)
    """
    text: list[str] = []
    d = result.determined
    if result.unique is not None:
        if result.unique:
            text.append("unique optimum: yes")
        else:
            hint = "" if d is not None else hinted("; {} shows which positions every optimum shares", call("cs.kemeny(..., determine=True)", "consensus kemeny --determined"))
            text.append(hinted("unique optimum: no (other rankings reach the same objective{})", hint))
    if result.optima:
        more = "more exist" if result.optima_truncated else "all of them"
        text.append(f"optimal rankings: {len(result.optima)} listed ({more})")
        shown, rest = capped(list(enumerate(result.optima, start=1)), top)
        text.extend(f"  {k}. " + format_ranking([(s,) for s in order], top) for k, order in shown)
        if rest:
            text.append(f"  ... {rest} more listed in the JSON output")
    if d is None or result.unique:
        return text
    n = len(result.order)
    groups = d.interchangeable()
    text.append(f"determined: {len(d.fixed)} of {n} positions hold the same system in every optimal ranking; "
                f"{len(d.flipped)} pairs are ordered differently by some optimum" + (f" ({d.solves} extra solve{'s' if d.solves > 1 else ''})" if d.solves else ""))
    shown, rest = capped(groups, top)
    for first, last, members in shown:
        names = ", ".join(members[:top] if top else members) + (", ..." if top and len(members) > top else "")
        text.append(f"positions {first}-{last} are interchangeable at the optimum: {names}")
    if rest:
        text.append(f"... {rest} more interchangeable groups (JSON output: determined.groups)")
    if result.order and result.order[0] not in d.fixed:
        first = d.groups[0]
        text.append(f"the winner is not determined: another optimal ranking puts another system first "
                    f"(positions 1-{len(first)} hold {', '.join(first[:top] if top else first)} in every optimum)")
    return text


# ---------------------------------------------------------------------- one rule
def policy_text(preparation: Preparation) -> str:
    """The missing-score part of a preparation record (policy, treatment, what it dropped) as text.

    Parameters
    ----------
    preparation : Preparation
        A result's ``preparation``; a None ``missing`` means each pair is compared on the
        tasks both systems are scored on (``pairwise``).

    Returns
    -------
    str

    Examples
    --------
    >>> from consensus.results import Preparation
    >>> policy_text(Preparation("impute", "imputed pairwise matrix", 3))
    'impute (imputed pairwise matrix)'
    """
    text = preparation.policy_name
    treatment = preparation.treatment
    if treatment:
        text = treatment if treatment.startswith(f"{text}:") else f"{text} ({treatment})"
    for what in ("systems", "tasks"):
        dropped = getattr(preparation, f"dropped_{what}")
        if dropped:
            text += f"; dropped {len(dropped)} {what}"
    return text


def preparation_lines(preparation: Preparation) -> list[str]:
    """What every report prints of a result's preparation: the missing-score line, then its notes.

    Parameters
    ----------
    preparation : Preparation

    Returns
    -------
    list of str
        ``missing scores (N cells): ...`` when scores were missing, then the notes (systems
        set aside for coverage).

    Examples
    --------
    >>> from consensus.results import Preparation
    >>> preparation_lines(Preparation("median", "filled 2 missing cell(s)", 2))
    ['missing scores (2 cells): median (filled 2 missing cell(s))']
    """
    first = [f"missing scores ({preparation.n_missing_cells} cells): {policy_text(preparation)}"] \
        if preparation.n_missing_cells else []
    return first + list(preparation.notes)


@sections.register
def _(result: RuleResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    text = ["ranking: " + format_ranking(result.ranking, top)]
    text.append("winner(s): " + (name_list(result.winners, top) if result.winners else "none"))
    options = {k: v for k, v in result.options.items() if v not in (None, False) and k != "missing"}
    if options:
        text.append("options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    text.extend(preparation_lines(result.preparation))
    scores = result.scores
    sizes = {tier: len(group) for tier, group in enumerate(result.ranking, start=1)}
    shown, more = capped(list(walk_tiers(result.ranking)), top)
    rows = tuple((str(pos) + ("=" if sizes[tier] > 1 else ""), s, num(scores[s], 4)) for s, pos, tier in shown)
    return [Heading(f"Rule: {result.rule}"), Lines(tuple(text)), Table(("position", "system", "score"), rows, "rlr"),
            *more_line(more, "systems")]


@csv_text.register
def _(result: RuleResult) -> str:
    scores = result.scores
    return render_csv(
        ("position", "tier", "system", "score"),
        [(pos, tier, s, csv_value(float(scores[s]))) for s, pos, tier in walk_tiers(result.ranking)],
    )


# ---------------------------------------------------------------------- condorcet weights
_PROSPECTIVE_LINES = (
    "feasible: can beat or tie every rival under some task weights (Vote'n'Rank's prospective); "
    "strict_feasible: can beat every rival",
    "margin: best smallest weighted margin over rivals (weights sum to 1); distance: L1 from the "
    "leaderboard's weights to the nearest winning weights; certificate: rival mix proving a 'never'",
)


def _frame_blocks(title: str, frame: pd.DataFrame, index_name: str, text: tuple[str, ...] = (),
                  top: int | None = DEFAULT_TOP, what: str = "systems") -> list[Block]:
    headers = (index_name,) + tuple(str(c) for c in frame.columns)
    shown, more = capped(list(frame.iterrows()), top)
    rows = tuple((str(key),) + tuple(clip(cell(v)) for v in row.tolist()) for key, row in shown)
    blocks: list[Block] = [Heading(title)]
    if text:
        blocks.append(Lines(text))
    align = "l" + "".join(
        "r" if pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c]) else "l"
        for c in frame.columns
    )
    blocks += [Table(headers, rows, align), *more_line(more, what)]
    return blocks


def prospective_line(result: ProspectiveResult, top: int | None = DEFAULT_TOP) -> str:
    """How many systems can win under some task weights, and which.

    Parameters
    ----------
    result : ProspectiveResult
        The prospective systems.
    top : int or None, default=10
        Names shown.

    Returns
    -------
    str

    Examples
    --------
    >>> import consensus as cs
    >>> prospective_line(cs.prospective(cs.load_example("votenrank-toy")))
    'prospective systems: 4 of 4 can beat or tie every rival under some task weights (A, B, C, D); 4 can beat every rival'
    """
    weak, strict = result.prospective_systems, result.strict_winners
    rule = result.options.get("rule", "condorcet")
    if rule != "condorcet":
        text = (f"prospective systems under {rule}: {len(weak)} of {len(result.systems)} can score highest (or tie) "
                "under some task weights" + (f" ({name_list(weak, top)})" if weak else ""))
        return text + f"; {len(strict)} can score strictly highest"
    text = (f"prospective systems: {len(weak)} of {len(result.systems)} can beat or tie every rival under "
            "some task weights" + (f" ({name_list(weak, top)})" if weak else ""))
    return text + f"; {len(strict)} can beat every rival"


@sections.register
def _(result: ProspectiveResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    frame = result.to_frame().drop(columns=["method"])
    # the systems that can win first (largest margin first), then the others in leaderboard order
    key = np.where(frame["feasible"].to_numpy(bool), -frame["margin"].fillna(-np.inf).to_numpy(float), np.inf)
    frame = frame.iloc[np.argsort(key, kind="stable")].set_index("system")
    rule = result.options.get("rule", "condorcet")
    if rule == "condorcet":
        title, text = "Prospective systems (Condorcet winners under some task weights)", _PROSPECTIVE_LINES
    else:
        title = f"Prospective systems under {rule} (highest score under some task weights)"
        text = (
            f"feasible: scores highest or tied under {rule} for some task weights; strict_feasible: strictly highest",
            f"margin: best smallest {rule} score margin over rivals (weights sum to 1; in {rule}'s units); "
            "distance: L1 from the leaderboard's weights to the nearest winning weights; certificate: rival mix "
            "proving a 'never' (checked exactly)",
        )
    blocks = _frame_blocks(title, frame, "system", text, top)
    hidden = len(frame) - len(cast(Table, blocks[2]).rows) if top else 0  # [Heading, Lines, Table, ...]
    if hidden:  # say how many of the systems not shown can win
        can = sum(frame["feasible"].iloc[len(frame) - hidden:])
        blocks[-1] = lines(f"... and {hidden} more systems ({can} of them can win; the other {hidden - can} "
                           "cannot: certificates in JSON)")
    return blocks[:1] + [lines(prospective_line(result, top), *preparation_lines(result.preparation))] + blocks[1:]


@csv_text.register
def _(result: ProspectiveResult) -> str:
    return frame_csv(result.to_frame().set_index("system"), "system")


@sections.register
def _(result: CondorcetWeightsResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    kind = "" if result.strict else "weak "
    text = [result.explanation or f"{result.system}: feasible={result.feasible}"]
    if result.rule == "condorcet":
        what, heading = f"{kind}Condorcet winner", f"Condorcet weights for {result.system}"
    else:
        what = f"{'strictly ' if result.strict else ''}highest {result.rule} score, in {result.rule}'s units"
        heading = f"Weights under which {result.system} wins {result.rule}"
    text.append(f"best smallest margin ({what}): {num(result.margin, 4)}; status {result.status.value}")
    if result.distance is not None:
        text.append(f"L1 distance from the reference weights: {num(result.distance, 4)}")
    text.extend(preparation_lines(result.preparation))
    blocks: list[Block] = [Heading(heading), Lines(tuple(text))]
    if result.weight_values:
        blocks.append(Table(("task", "weight"), tuple((t, num(w, 4)) for t, w in result.weight_values.items())))
    if result.rival_margins:
        closest = sorted(result.rival_margins.items(), key=lambda item: item[1])  # the closest rivals first
        shown, more = capped(closest, top)
        blocks += [Table(("rival", "margin"), tuple((r, num(m, 4)) for r, m in shown)), *more_line(more, "rivals")]
    cert = result.certificate
    if cert is not None:
        blocks.append(lines(f"certificate ({cert.kind}): {cert.statement}"))
        if cert.rival_mix:
            mix = sorted(cert.rival_mix.items(), key=lambda item: -item[1])
            shown, more = capped(mix, top)
            blocks += [Table(("rival", "share"), tuple((r, num(v, 4)) for r, v in shown)), *more_line(more, "rivals")]
    return blocks


@csv_text.register
def _(result: CondorcetWeightsResult) -> str:
    return render_csv(("task", "weight"), [(t, csv_value(w)) for t, w in (result.weight_values or {}).items()])


# ---------------------------------------------------------------------- missing scores
@sections.register
def _(imputed: ImputationResult, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    systems = list(imputed.matrix.systems)
    wins = np.asarray(imputed.matrix.wins)
    shown, more = capped(imputed.order, top)  # the best-ranked systems, rows and columns
    index = [systems.index(s) for s in shown]
    rows = tuple((s,) + tuple(num(wins[i, j]) for j in index) for s, i in zip(shown, index))
    text = [
        "wins[row, column]: comparisons the row system wins, missing scores imputed over the compatible "
        "rankings (ties split)",
        "ranking (Borda on the imputed matrix): " + format_ranking(imputed.ranking, top),
    ]
    if more:
        text.append(f"the {len(shown)} best-ranked systems against each other (CSV and JSON: all {len(systems)})")
    return [Heading(f"Imputed pairwise matrix ({imputed.method}, Himmi et al. 2023)"), lines(*text),
            Table(("wins",) + tuple(shown), rows)]


@csv_text.register
def _(imputed: ImputationResult) -> str:
    systems = list(imputed.matrix.systems)
    return frame_csv(pd.DataFrame(np.asarray(imputed.matrix.wins), index=systems, columns=systems), "system")


@sections.register
def _(confidence: PairwiseConfidence, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    pairs = confidence.pairs()
    shown, more = capped(pairs, top)
    rows = tuple(
        (p["system"], p["other"], num(p["estimate"]), num(p["half_width"]), str(p["comparisons"]),
         p["confident_winner"] or "-")
        for p in shown
    )
    return [
        Heading("Pairwise confidence (Hoeffding, Himmi et al. 2023, sec. 2.3)"),
        lines(
            f"delta = {num(confidence.delta)}: a winner is named when the interval "
            "estimate +- half-width excludes 1/2",
            f"confident pairs: {sum(p['confident_winner'] is not None for p in pairs)} of {len(pairs)}",
        ),
        Table(("system", "other", "P(system > other)", "half-width", "compared", "confident winner"), rows, "llrrrl"),
        *more_line(more, "pairs"),
    ]


@csv_text.register
def _(confidence: PairwiseConfidence) -> str:
    return render_csv(
        ("system", "other", "estimate", "half_width", "comparisons", "confident_winner"),
        [(p["system"], p["other"], csv_value(p["estimate"]), csv_value(p["half_width"]), p["comparisons"],
          p["confident_winner"] or "") for p in confidence.pairs()],
    )


def leaderboard_sections(table: Leaderboard, source: str, top: int | None = DEFAULT_TOP,
                         groups: Mapping[str, int] | None = None) -> list[Block]:
    """The scores-as-read section of `table`, titled with its `source`.

    Parameters
    ----------
    table : Leaderboard
        The scores: its description, each task's direction, the weights (only when some
        weight is not 1), the scores as read (the first `top` systems) and, with missing
        scores, each system's coverage.
    source : str
        Where the scores came from; an empty string leaves it out of the title.
    top : int or None, default=10
        Systems shown; 0 or None shows all.
    groups : Mapping[str, int], optional
        System -> its group within noise (:attr:`SignificanceResult.row_groups`, 1 = the
        best), shown as a last column ``group``.

    Returns
    -------
    list of Heading, Lines and Table

    Examples
    --------
    >>> import consensus as cs
    >>> leaderboard_sections(cs.load_example("votenrank-toy"), "example:votenrank-toy")[0].text
    'Scores as read (example:votenrank-toy)'
    """
    return _leaderboard_blocks(table, source, top, groups)


# ---------------------------------------------------------------------- who can still win
@sections.register
def _(result: PossibleWinners, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    model = ("a missing cell takes any value within its task's bounds" if result.model == "bounds"
             else "a missing cell takes any position among its task's scores, ties included")
    verdict = ("the winner is settled: " + name_list(result.necessary_winners, top) if result.settled
               else f"possible winners: {name_list(result.possible_winners, top) or 'none'}; necessary winners: "
               f"{name_list(result.necessary_winners, top) or 'none'}")
    undecided = [s for s, p in zip(result.systems, result.possible) if p is None]
    text = (verdict, f"{result.n_missing_cells} missing cell(s); {model}"
            + (f"; {result.programs} program(s) solved" if result.programs else "")
            + (f"; undecided within the time limit: {name_list(tuple(undecided), top)}" if undecided else ""),
            result.next_evaluations)
    frame = result.to_frame()
    order = sorted(range(len(frame)), key=lambda k: (not result.necessary[k], not result.possible[k], k))
    options = "".join(f", {key}={value}" for key, value in (result.rule_options or {}).items())  # ties, vector, ...
    return _frame_blocks(f"Who can still win ({result.rule}{options})", frame.iloc[order], "system", text, top)


@csv_text.register
def _(result: PossibleWinners) -> str:
    return frame_csv(result.to_frame(), "system")


@sections.register
def _(result: RankRanges, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    model = ("a missing cell takes any value within its task's bounds" if result.model == "bounds"
             else "a missing cell takes any position among its task's scores, ties included")
    open_ = [s for s, e in zip(result.systems, result.exact) if not e]
    text = ("positions count ties as rankings do: best = 1 + the systems strictly ahead, worst = the systems "
            f"ahead or tied; median_position: the missing cells filled by their task's median; {model}"
            + (f"; {result.programs} program(s) solved" if result.programs else "")
            + (f"; not proven within the time limit (bounds given): {name_list(tuple(open_), top)}" if open_ else ""),)
    frame = result.to_frame()
    order = sorted(range(len(frame)), key=lambda k: (result.median_position[k], result.best[k], k))
    return _frame_blocks(f"Rank ranges under the missing scores ({result.rule})", frame.iloc[order], "system", text, top)


@csv_text.register
def _(result: RankRanges) -> str:
    return frame_csv(result.to_frame(), "system")
