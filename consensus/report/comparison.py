"""The comparison sections: every rule's ranking side by side, against Kemeny and the baseline.

Registers the report of :class:`~consensus.results.RuleComparison` (``consensus compare``) and
holds the blocks the ``analyze`` report reuses (:mod:`consensus.report.summary`).
"""

from __future__ import annotations

import math

from ..results import RuleComparison
from .blocks import (
    DEFAULT_TOP,
    Block,
    Heading,
    Table,
    capped,
    clip,
    lines,
    more_line,
    name_list,
    num,
)
from .csv_output import frame_csv
from .sections import csv_text, policy_text, sections

__all__ = ["comparison_blocks", "policy_lines"]


def _change(value: int) -> str:
    return f" ({value:+d})" if value else ""


def _rankings_table(comparison: RuleComparison, top: int | None) -> tuple[Table, int]:
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
    shown, more = capped(range(n), top)
    rows = tuple((str(i + 1),) + tuple(col[i] if i < len(col) else "" for col in columns) for i in shown)
    return Table(("#",) + tuple(rules), rows, "r" + "l" * len(rules)), more


def policy_lines(comparison: RuleComparison) -> list[str]:
    """Which missing-score policy each rule used, one line per policy (empty without missing scores).

    Parameters
    ----------
    comparison : RuleComparison
        The comparison.

    Returns
    -------
    list of str
        ``POLICY (what it does): rule, rule``; empty when no rule met a missing score.

    Examples
    --------
    >>> import consensus as cs
    >>> policy_lines(cs.compare_rules(cs.load_example("votenrank-toy"), rules=["borda"]))
    []
    """
    policies = comparison.preparations
    if not any(prep.n_missing_cells for prep in policies.values()):
        return []
    groups: dict[str, list[str]] = {}
    for rule in comparison.rules:
        if rule in policies and rule not in comparison.errors:
            groups.setdefault(policy_text(policies[rule]), []).append(rule)
    return [f"{text}: {', '.join(rules)}" for text, rules in groups.items()]


def rule_notes(comparison: RuleComparison, ran: list[str]) -> list[Block]:
    """What a rule could not rank (geometric_mean's systems with a score <= 0 on a task), one line per rule.

    Parameters
    ----------
    comparison : RuleComparison
        The comparison.
    ran : list of str
        The rules that ran.

    Returns
    -------
    list of Lines
        Empty when every rule ranked every system on its own terms.
    """
    notes = []
    for rule in ran:
        result = comparison.results.get(rule)
        unranked = tuple(getattr(result, "details", {}).get("unranked", ()))
        if unranked:
            what = "system has" if len(unranked) == 1 else "systems have"
            where = "ranked last" if len(unranked) == 1 else "ranked last, tied"
            notes.append(f"note: {rule}: {len(unranked)} {what} a score <= 0 on a task and no {rule}; "
                         f"{where}: {name_list(unranked, DEFAULT_TOP)}")
    return [lines(*notes)] if notes else []


def comparison_blocks(comparison: RuleComparison, top: int | None = DEFAULT_TOP, *,
                      compact: bool = False) -> list[Block]:
    """The comparison sections: rankings side by side (capped), each rule against Kemeny and the baseline.

    Parameters
    ----------
    comparison : RuleComparison
        The comparison.
    top : int or None, default=10
        Rows of the side-by-side rankings; 0 or None shows every system.
    compact : bool, default=False
        The ``analyze`` layout: no policy lines (its summary has them), and the baseline
        and task-distance tables merged into one.

    Returns
    -------
    list of Heading, Lines and Table

    Examples
    --------
    >>> import consensus as cs
    >>> blocks = comparison_blocks(cs.compare_rules(cs.load_example("votenrank-toy"), rules=["borda"]))
    >>> blocks[0].text
    'Rankings side by side'
    """
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
    table, more = _rankings_table(comparison, top)
    blocks += [lines(change_note), table, *more_line(more, "systems"), *rule_notes(comparison, ran)]

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
        row = [rule, clip(str(r["winner"]), 40), num(r["kendall_tau"]), num(r["kendall_distance"]),
               num(r["objective"]), num(r["gap"]), num(r["gap_ratio"]), num(r["condorcet_winner"])]
        row += [num(r[f"top{k}"], 2) for k in ks] + [num(r[f"least{k}"], 2) for k in ks]
        row += [num(r["tie_groups"])]
        rows.append(tuple(row))
    blocks.append(Table(tuple(headers), tuple(rows), "ll" + "r" * (len(headers) - 2)))
    policy = policy_lines(comparison) if not compact else []
    if policy:
        blocks.append(lines("missing-score policy of each rule:", *(f"  {text}" for text in policy)))
    if comparison.errors:
        blocks.append(lines(*(f"not run: {rule}: {clip(why, 200)}" for rule, why in comparison.errors.items())))
    return blocks + _baseline_and_distance(comparison, ran, compact)


def _baseline_and_distance(comparison: RuleComparison, ran: list[str], compact: bool) -> list[Block]:
    """Each rule against the baseline, and its distance to the task rankings: two sections, or one (compact)."""
    frame = comparison.table
    ks = comparison.ks
    base = comparison.baseline
    against_base = f"{base}_tau" in frame.columns and base in comparison.rankings
    base_headers = [f"{base} tau" if compact else "tau"] + [f"top{k}" for k in ks] + [f"least{k}" for k in ks]
    base_rows = {
        rule: [num(frame.loc[rule, f"{base}_tau"])] + [num(frame.loc[rule, f"{base}_top{k}"], 2) for k in ks]
        + [num(frame.loc[rule, f"{base}_least{k}"], 2) for k in ks]
        for rule in ran
    } if against_base else {}
    blocks: list[Block] = []
    if against_base and not compact:
        blocks.append(Heading(f"Each rule against the {base}"))
        blocks.append(Table(tuple(["rule"] + base_headers), tuple(tuple([rule] + base_rows[rule]) for rule in ran)))

    title = "Distance to the task rankings (Colombo et al. 2022, appendix C)"
    if compact and against_base:
        title = f"Each rule against the {base} and the task rankings (Colombo et al. 2022, appendix C)"
    blocks.append(Heading(title))
    kem_mean = frame.loc["kemeny", "mean_task_distance"]
    dispersion = comparison.dispersion
    text = [f"dispersion of the task rankings (mean Kendall distance between two tasks): {num(dispersion)}"]
    if dispersion > 0 and not math.isnan(float(kem_mean)):
        text.append(
            f"Kemeny mean distance / dispersion = {num(float(kem_mean) / dispersion)} "
            "(between 0.5 and 1 when every task ranks every system strictly)"
        )
    blocks.append(lines("; ".join(text)) if compact else lines(*text))
    headers = ["rule"] + (base_headers if compact and against_base else []) + ["sum", "per task weight",
                                                                              "rule time (s)"]
    rows = tuple(
        tuple([rule] + (base_rows[rule] if compact and against_base else [])
              + [num(frame.loc[rule, "task_distance"]), num(frame.loc[rule, "mean_task_distance"]),
                 num(frame.loc[rule, "seconds"], 4)])
        for rule in ran
    )
    blocks.append(Table(tuple(headers), rows))
    return blocks


@sections.register
def _(comparison: RuleComparison, *, top: int | None = DEFAULT_TOP) -> list[Block]:
    return sections(comparison.kemeny, top=top) + comparison_blocks(comparison, top)


@csv_text.register
def _(comparison: RuleComparison) -> str:
    return frame_csv(comparison.table, "rule")
