"""Reports: the full ``analyze`` report and the rendering of every result, without re-solving.

Two steps, kept apart so that nothing is computed twice:

1. :func:`analyze` computes everything ``consensus analyze`` shows, once, into an
   :class:`~consensus.results.Analysis` (the exact Kemeny ranking is solved once and
   shared by the comparison of every rule).
2. ``render_*`` turn finished results into text: ``"table"`` (aligned plain text),
   ``"markdown"``, ``"json"`` (the stable schema of ``docs/cli.md``) or ``"csv"`` (the
   result's main table).

Built-in examples check themselves: :func:`example_checks` compares the analysis with the
published values stored in ``consensus/data/published_values.csv`` (the library logic
knows no answer).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .compare import DEFAULT_RULES, compare_rules
from .errors import ConsensusError, InvalidOptionError
from .results import Analysis, Check, MajoritySummary, RuleComparison, jsonable

if TYPE_CHECKING:  # pragma: no cover
    from .leaderboard import Leaderboard
    from .pairwise import PairwiseMatrix

__all__ = [
    "FORMATS",
    "SCHEMA_VERSION",
    "majority_summary",
    "analyze",
    "example_checks",
    "published_values",
    "render",
    "render_analysis",
    "render_comparison",
    "render_leaderboard",
    "render_majority",
    "render_rule",
    "render_kemeny",
    "render_prospective",
    "render_condorcet_weights",
    "render_imputation",
    "leaderboard_json",
]

#: Output formats of every ``render_*`` function.
FORMATS: tuple[str, ...] = ("table", "markdown", "json", "csv")

#: Version of the JSON documents (``"schema_version"``); bumped on incompatible changes.
SCHEMA_VERSION = 1


# ====================================================================== computing
def majority_summary(data: Leaderboard | PairwiseMatrix) -> MajoritySummary:
    """What the weighted majority relation says, in one object.

    Condorcet winner and loser, weak Condorcet winners, the Smith set, a majority cycle
    when there is no Condorcet winner, majority ties, Pareto-dominated systems (for a
    Leaderboard), and every majority edge with its wins, losses, ties and margin.

    Examples
    --------
    >>> import consensus as cs
    >>> s = majority_summary(cs.load_example("votenrank-toy"))
    >>> s.condorcet_winner, s.condorcet_loser, s.smith_set, s.cycle
    ('B', 'A', ('B',), None)
    >>> s.edges[0]
    ('B', 'A', 3.0, 2.0, 0.0, 1.0)
    """
    from .leaderboard import Leaderboard
    from .majority import (
        condorcet_cycle,
        condorcet_loser,
        condorcet_winner,
        majority_graph,
        pareto_dominated,
        smith_set,
        weak_condorcet_winners,
    )
    from .pairwise import as_pairwise

    pairs = as_pairwise(data)
    graph = majority_graph(pairs)
    position = {s: i for i, s in enumerate(pairs.systems)}
    edges = sorted(
        (
            (u, v, d["wins"], d["losses"], d["ties"], d["margin"])
            for u, v, d in graph.edges(data=True)
        ),
        key=lambda e: (-e[5], position[e[0]], position[e[1]]),
    )
    winner = condorcet_winner(pairs)
    return MajoritySummary(
        systems=pairs.systems,
        edges=tuple(edges),
        ties=tuple(graph.graph["ties"]),
        condorcet_winner=winner,
        weak_condorcet_winners=weak_condorcet_winners(pairs),
        condorcet_loser=condorcet_loser(pairs),
        smith_set=smith_set(pairs),
        cycle=None if winner is not None else condorcet_cycle(pairs),
        pareto_dominated=pareto_dominated(data) if isinstance(data, Leaderboard) else {},
    )


def analyze(
    table: Leaderboard,
    *,
    source: str = "",
    example: str | None = None,
    rules: Iterable[str] = DEFAULT_RULES,
    time_limit: float | None = None,
    solver: str = "highs",
    progress: Callable[..., Any] | None = None,
    prospective: bool = True,
    strict: bool = True,
) -> Analysis:
    """Compute everything the ``consensus analyze`` report shows, solving each problem once.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    source : str, optional
        Where they came from (shown in the report).
    example : str, optional
        Name of the built-in example `table` is; adds the self-checks of
        :func:`example_checks`.
    rules : iterable of str, default=:data:`consensus.compare.DEFAULT_RULES`
        The rules compared with the exact Kemeny ranking.
    time_limit, solver, progress
        For the Kemeny solve (:func:`consensus.kemeny`).
    prospective : bool, default=True
        Also find the systems that can become Condorcet winners under some task weights
        (:func:`consensus.prospective`), with their maximal margins.
    strict : bool, default=True
        Strict (beat every rival) or weak (beat or tie) Condorcet winners for `prospective`.

    Returns
    -------
    Analysis

    Examples
    --------
    >>> import consensus as cs
    >>> a = analyze(cs.load_example("votenrank-toy"), example="votenrank-toy")
    >>> a.kemeny.ranking, a.majority.condorcet_winner, a.checks_ok
    (('B', 'C', 'D', 'A'), 'B', True)
    """
    notes: list[str] = []
    comparison = compare_rules(table, rules=rules, time_limit=time_limit, solver=solver, progress=progress)
    summary = majority_summary(table)
    frame = None
    if prospective:
        from .condorcet import prospective as prospective_systems

        try:
            frame = prospective_systems(table, strict=strict)
        except ConsensusError as exc:
            notes.append(f"prospective systems not computed: {type(exc).__name__}: {exc}")
    checks = example_checks(example, comparison=comparison, majority=summary) if example else ()
    return Analysis(
        source=source or (f"example:{example}" if example else ""),
        leaderboard=table,
        majority=summary,
        comparison=comparison,
        prospective=frame,
        checks=checks,
        notes=tuple(notes),
    )


# ---------------------------------------------------------------------- self-checks
def published_values(example: str) -> list[dict[str, str]]:
    """The stored published (or brute-force) values of a built-in example.

    Rows of ``consensus/data/published_values.csv`` for `example`: ``quantity``,
    ``value``, ``kind`` (``published`` or ``computed``) and ``source``.

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
    return "; ".join(f"{k}={_num(v, 6)}" for k, v in mapping.items())


def _format_ranking(tiers: Sequence[Sequence[str]]) -> str:
    return " > ".join(" = ".join(group) for group in tiers)


def _parse_ranking(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(s.strip() for s in part.split("=")) for part in text.split(">"))


def _majority_relation(summary: MajoritySummary) -> dict[frozenset[str], str]:
    relation = {frozenset((w, l)): f"{w}>{l}" for w, l, *_ in summary.edges}
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
        tiers = tuple((s,) for s in comparison.kemeny.ranking)
        actual = _format_ranking(tiers)
        return actual, tiers == _parse_ranking(expected)
    if kind == "kemeny_objective":
        value = float(comparison.kemeny.objective)
        return _num(value, 6), math.isclose(value, float(expected), rel_tol=1e-9, abs_tol=1e-9)
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
        scores = {s: float(result.scores[s]) for s in want if s in result.scores.index}
        ok = len(scores) == len(want) and all(
            math.isclose(scores[s], want[s], rel_tol=1e-9, abs_tol=1e-9) for s in want
        )
        return _format_mapping(scores), ok
    if kind == "winners":
        actual = " = ".join(tiers[0])
        return actual, set(tiers[0]) == {s.strip() for s in expected.split("=")}
    if kind == "ranking":
        actual = _format_ranking(tiers)
        return actual, tiers == _parse_ranking(expected)
    raise InvalidOptionError(f"unknown published quantity {quantity!r} in published_values.csv")


# ====================================================================== text blocks
@dataclass(frozen=True)
class _Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class _Lines:
    lines: tuple[str, ...]


@dataclass(frozen=True)
class _Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""  # one of "l" / "r" per column; default: first left, others right


def _lines(*lines: str) -> _Lines:
    return _Lines(tuple(lines))


def _num(value: Any, digits: int = 3) -> str:
    """A number for display: ``-`` for missing, integers without decimals, else `digits` decimals."""
    if value is None or value is pd.NA:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, str):
        return value
    v = float(value)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    if text in {"0", "-0"}:
        return f"{v:.{digits}g}"
    return text


def _score(value: Any) -> str:
    """An original score: up to 6 significant digits, ``-`` for missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    v = float(value)
    return str(int(v)) if v == int(v) and abs(v) < 1e15 else f"{v:.6g}"


def _render_text(blocks: Sequence[Any]) -> str:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, _Heading):
            if out:
                out.append("")
            out.append(block.text)
            out.append(("=" if block.level == 1 else "-") * len(block.text))
        elif isinstance(block, _Lines):
            out.extend(block.lines)
        elif isinstance(block, _Table):
            out.extend(_text_table(block))
    return "\n".join(out) + "\n"


def _text_table(table: _Table) -> list[str]:
    cols = len(table.headers)
    align = table.align or ("l" + "r" * (cols - 1))
    widths = [len(h) for h in table.headers]
    for row in table.rows:
        for j, cell in enumerate(row):
            widths[j] = max(widths[j], len(cell))

    def line(cells: Sequence[str]) -> str:
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)]
        return "  ".join(parts).rstrip()

    return [line(table.headers), "  ".join("-" * w for w in widths)] + [line(r) for r in table.rows]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def _render_markdown(blocks: Sequence[Any]) -> str:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, _Heading):
            if out and out[-1] != "":
                out.append("")
            out.append("#" * block.level + " " + block.text)
            out.append("")
        elif isinstance(block, _Lines):
            out.extend(f"- {line}" if line else "" for line in block.lines)
            out.append("")
        elif isinstance(block, _Table):
            align = block.align or ("l" + "r" * (len(block.headers) - 1))
            out.append("| " + " | ".join(_md_cell(h) for h in block.headers) + " |")
            out.append("|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|")
            for row in block.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append("")
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _render_csv(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue()


def _frame_csv(frame: pd.DataFrame, index_name: str) -> str:
    rows = []
    for key, row in frame.iterrows():
        rows.append([key] + [_csv_value(v) for v in row.tolist()])
    return _render_csv([index_name] + [str(c) for c in frame.columns], rows)


def _csv_value(value: Any) -> Any:
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return ""
        return repr(v + 0.0)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return " ".join(map(str, value))
    return value


def _json(command: str, table: Leaderboard | None, source: str, result: Any) -> str:
    document: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "command": command}
    if table is not None:
        document["input"] = leaderboard_json(table, source)
    document["result"] = result
    return json.dumps(jsonable(document), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _dispatch(
    fmt: str, blocks: Callable[[], list[Any]], csv_text: Callable[[], str], json_text: Callable[[], str]
) -> str:
    if fmt == "table":
        return _render_text(blocks())
    if fmt == "markdown":
        return _render_markdown(blocks())
    if fmt == "json":
        return json_text()
    if fmt == "csv":
        return csv_text()
    raise InvalidOptionError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


# ====================================================================== leaderboard
def leaderboard_json(table: Leaderboard, source: str = "") -> dict[str, Any]:
    """The ``input`` object of every JSON document: what was read and how it was parsed."""
    scores = table.scores
    return {
        "source": source,
        "systems": list(table.systems),
        "tasks": list(table.tasks),
        "lower_is_better": [t for t in table.tasks if t in table.lower_is_better],
        "weights": {t: float(w) for t, w in table.weights.items()},
        "groups": {g: list(ts) for g, ts in table.groups.items()},
        "scores": {s: {t: _finite(scores.at[s, t]) for t in table.tasks} for s in table.systems},
        "missing": [[s, t] for s, t in table.missing_cells()],
        "notes": list(table.notes),
    }


def _finite(value: Any) -> float | None:
    v = float(value)
    return None if math.isnan(v) else v + 0.0


def _leaderboard_blocks(table: Leaderboard, source: str) -> list[Any]:
    title = f"Scores as read ({source})" if source else "Scores as read"
    weighted = not np.allclose(table.weights.to_numpy(), 1.0)
    rows = [("better:",) + tuple("lower" if t in table.lower_is_better else "higher" for t in table.tasks)]
    if weighted:
        rows.append(("weight:",) + tuple(_num(w, 4) for w in table.weights))
    scores = table.scores
    rows += [(s,) + tuple(_score(scores.at[s, t]) for t in table.tasks) for s in table.systems]
    return [_Heading(title), _Lines(tuple(table.describe().splitlines())), _Table(("system",) + table.tasks, tuple(rows))]


def render_leaderboard(table: Leaderboard, *, format: str = "table", source: str = "") -> str:
    """The scores as read, with directions, weights, groups, missing cells and parsing notes."""
    return _dispatch(
        format,
        lambda: _leaderboard_blocks(table, source),
        lambda: _frame_csv(table.scores, "system"),
        lambda: _json("read", table, source, None),
    )


# ====================================================================== majority
def _majority_blocks(summary: MajoritySummary) -> list[Any]:
    lines = []
    if summary.condorcet_winner is not None:
        lines.append(f"Condorcet winner: {summary.condorcet_winner}")
    else:
        why = []
        if summary.cycle:
            why.append("majority cycle " + " > ".join(summary.cycle + summary.cycle[:1]))
        if summary.weak_condorcet_winners:
            why.append("weak Condorcet winner(s) " + ", ".join(summary.weak_condorcet_winners))
        lines.append("Condorcet winner: none" + (f" ({'; '.join(why)})" if why else ""))
    lines.append(f"Condorcet loser: {summary.condorcet_loser or 'none'}")
    lines.append("Smith set: {" + ", ".join(summary.smith_set) + "}")
    if summary.ties:
        lines.append("majority ties: " + ", ".join(f"{a} = {b}" for a, b in summary.ties))
    if summary.pareto_dominated:
        lines.append(
            "Pareto-dominated: "
            + "; ".join(f"{s} (by {', '.join(by)})" for s, by in summary.pareto_dominated.items())
        )
    rows = tuple((w, l, _num(a), _num(b), _num(t), _num(m)) for w, l, a, b, t, m in summary.edges)
    blocks: list[Any] = [_Heading("Majority graph"), _Lines(tuple(lines))]
    if rows:
        blocks.append(_Table(("winner", "loser", "wins", "losses", "ties", "margin"), rows, "llrrrr"))
    return blocks


def render_majority(summary: MajoritySummary, *, format: str = "table") -> str:
    """The majority-graph summary: Condorcet winner/loser, Smith set, cycle, edges."""
    return _dispatch(
        format,
        lambda: _majority_blocks(summary),
        lambda: _render_csv(
            ("winner", "loser", "wins", "losses", "ties", "margin"),
            [(w, l, *(_csv_value(x) for x in rest)) for w, l, *rest in summary.edges],
        ),
        lambda: _json("majority", None, "", summary.to_dict()),
    )


# ====================================================================== kemeny
def kemeny_json(result: Any) -> dict[str, Any]:
    """The JSON object of a Kemeny result (schema in ``docs/cli.md``)."""
    return {
        "ranking": list(result.ranking),
        "objective": jsonable(result.objective),
        "lower_bound": jsonable(result.lower_bound),
        "gap": jsonable(result.gap),
        "status": jsonable(result.status),
        "optimal": bool(result.optimal),
        "unique": result.unique,
        "method": result.method,
        "seconds": jsonable(result.seconds),
    }


def _kemeny_blocks(result: Any) -> list[Any]:
    info = kemeny_json(result)
    status = info["status"] or "unknown"
    lines = [
        "ranking: " + " > ".join(result.ranking),
        f"objective: {_num(info['objective'])} (task weight the ranking disagrees with)",
    ]
    detail = f"status: {status}, lower bound {_num(info['lower_bound'])}"
    if not info["optimal"]:
        detail += f", gap {_num(info['gap'])} (not proven optimal: the time limit stopped the proof)"
    detail += f", method {info['method']}, {_num(info['seconds'], 2)} s"
    lines.append(detail)
    if info["unique"] is not None:
        lines.append("unique optimum: " + ("yes" if info["unique"] else "no (other orders reach the same objective)"))
    rows = tuple((str(i), s) for i, s in enumerate(result.ranking, start=1))
    return [_Heading("Exact Kemeny ranking"), _Lines(tuple(lines)), _Table(("position", "system"), rows, "rl")]


def render_kemeny(result: Any, *, format: str = "table", table: Leaderboard | None = None, source: str = "") -> str:
    """A Kemeny result: ranking, objective, bound, status (CSV: position, system)."""
    return _dispatch(
        format,
        lambda: _kemeny_blocks(result),
        lambda: _render_csv(("position", "system"), [(i, s) for i, s in enumerate(result.ranking, start=1)]),
        lambda: _json("kemeny", table, source, kemeny_json(result)),
    )


# ====================================================================== one rule
def rule_json(result: Any) -> dict[str, Any]:
    """The JSON object of a rule result (schema in ``docs/cli.md``)."""
    return {
        "rule": result.rule,
        "ranking": [list(g) for g in result.ranking],
        "winners": list(result.winners),
        "scores": {str(k): jsonable(v) for k, v in result.scores.items()},
        "options": jsonable(dict(getattr(result, "options", {}))),
        "missing": jsonable(dict(getattr(result, "missing", {}) or {})),
    }


def _rule_rows(result: Any) -> list[tuple[int, int, str, float]]:
    rows, above = [], 0
    for tier, group in enumerate(result.ranking, start=1):
        for s in group:
            rows.append((above + 1, tier, s, float(result.scores[s])))
        above += len(group)
    return rows


def _rule_blocks(result: Any) -> list[Any]:
    lines = ["ranking: " + _format_ranking(result.ranking)]
    lines.append("winner(s): " + (", ".join(result.winners) if result.winners else "none"))
    options = {k: v for k, v in dict(getattr(result, "options", {})).items() if v not in (None, False)}
    if options:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    rows = tuple(
        (str(pos) + ("=" if sum(1 for r in _rule_rows(result) if r[0] == pos) > 1 else ""), s, _num(score, 4))
        for pos, _, s, score in _rule_rows(result)
    )
    return [_Heading(f"Rule: {result.rule}"), _Lines(tuple(lines)), _Table(("position", "system", "score"), rows, "rlr")]


def render_rule(result: Any, *, format: str = "table", table: Leaderboard | None = None, source: str = "") -> str:
    """A rule result (CSV: position, tier, system, score)."""
    return _dispatch(
        format,
        lambda: _rule_blocks(result),
        lambda: _render_csv(
            ("position", "tier", "system", "score"),
            [(p, t, s, _csv_value(v)) for p, t, s, v in _rule_rows(result)],
        ),
        lambda: _json("rank", table, source, rule_json(result)),
    )


# ====================================================================== comparison
def _change(value: int) -> str:
    return f" ({value:+d})" if value else ""


def _rankings_table(comparison: RuleComparison) -> _Table:
    rules = [r for r in comparison.rules if r in comparison.rankings]
    n = len(comparison.systems)
    base = comparison.baseline if comparison.baseline in comparison.rankings else None
    changes = comparison.rank_changes() if base else None
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
    return _Table(("#",) + tuple(rules), rows, "r" + "l" * len(rules))


def _comparison_blocks(comparison: RuleComparison) -> list[Any]:
    frame = comparison.table
    ks = comparison.ks
    base = comparison.baseline
    ran = [r for r in comparison.rules if r not in comparison.errors]
    blocks: list[Any] = [_Heading("Rankings side by side")]
    change_note = (
        f"(+k)/(-k): places gained/lost versus {base}; '= X': tied with the system above"
        if base in comparison.rankings
        else f"no rank changes: the {base} ranking could not be computed"
    )
    blocks += [_lines(change_note), _rankings_table(comparison)]

    blocks.append(_Heading("Each rule against the exact Kemeny ranking"))
    if not bool(getattr(comparison.kemeny, "optimal", True)):
        blocks.append(
            _lines(
                "the Kemeny ranking below is the best found within the time limit, not proven optimal: "
                "gaps are measured against it (a negative gap means the rule found a better ranking)"
            )
        )
    if getattr(comparison.kemeny, "unique", None) is False:
        blocks.append(
            _lines(
                "the Kemeny optimum is not unique: tau, dist and top/least-k refer to the optimum shown above; "
                "objective and gap do not depend on the choice"
            )
        )
    cw = comparison.condorcet_winner
    blocks.append(
        _lines(
            "tau: Kendall tau-b; dist: Kendall distance (pairs in opposite order; a pair tied in one "
            f"ranking only counts {_num(comparison.tie_penalty)})",
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
        row = [rule, r["winner"], _num(r["kendall_tau"]), _num(r["kendall_distance"]), _num(r["objective"]),
               _num(r["gap"]), _num(r["gap_ratio"]), _num(r["condorcet_winner"])]
        row += [_num(r[f"top{k}"], 2) for k in ks] + [_num(r[f"least{k}"], 2) for k in ks]
        row += [_num(r["tie_groups"])]
        rows.append(tuple(row))
    blocks.append(_Table(tuple(headers), tuple(rows), "ll" + "r" * (len(headers) - 2)))
    if comparison.errors:
        blocks.append(_lines(*(f"not run: {rule}: {why}" for rule, why in comparison.errors.items())))

    if f"{base}_tau" in frame.columns and base in comparison.rankings:
        blocks.append(_Heading(f"Each rule against the {base}"))
        headers = ["rule", "tau"] + [f"top{k}" for k in ks] + [f"least{k}" for k in ks]
        rows = []
        for rule in ran:
            r = frame.loc[rule]
            rows.append(
                (rule, _num(r[f"{base}_tau"]))
                + tuple(_num(r[f"{base}_top{k}"], 2) for k in ks)
                + tuple(_num(r[f"{base}_least{k}"], 2) for k in ks)
            )
        blocks.append(_Table(tuple(headers), tuple(rows)))

    blocks.append(_Heading("Distance to the task rankings (Colombo et al. 2022, appendix C)"))
    kem_mean = frame.loc["kemeny", "mean_task_distance"]
    dispersion = comparison.dispersion
    lines = [
        f"dispersion of the task rankings (mean Kendall distance between two tasks): {_num(dispersion)}",
    ]
    if dispersion > 0 and not math.isnan(float(kem_mean)):
        lines.append(
            f"Kemeny mean distance / dispersion = {_num(float(kem_mean) / dispersion)} "
            "(between 0.5 and 1 when every task ranks every system strictly)"
        )
    blocks.append(_lines(*lines))
    rows = tuple(
        (rule, _num(frame.loc[rule, "task_distance"]), _num(frame.loc[rule, "mean_task_distance"]),
         _num(frame.loc[rule, "seconds"], 4))
        for rule in ran
    )
    blocks.append(_Table(("rule", "sum", "per task weight", "rule time (s)"), rows))
    return blocks


def comparison_json(comparison: RuleComparison) -> dict[str, Any]:
    """The JSON object of a rule comparison (schema in ``docs/cli.md``)."""
    document = comparison.to_dict()
    if comparison.baseline in comparison.rankings:
        changes = comparison.rank_changes()
        document["rank_changes"] = {
            rule: {s: int(changes.at[s, rule]) for s in changes.index} for rule in changes.columns
        }
    else:
        document["rank_changes"] = None
    return document


def render_comparison(
    comparison: RuleComparison, *, format: str = "table", table: Leaderboard | None = None, source: str = ""
) -> str:
    """Every rule against the exact Kemeny ranking (CSV: the table of :func:`consensus.compare`)."""
    return _dispatch(
        format,
        lambda: _kemeny_blocks(comparison.kemeny) + _comparison_blocks(comparison),
        lambda: _frame_csv(comparison.table, "rule"),
        lambda: _json("compare", table, source, comparison_json(comparison)),
    )


# ====================================================================== prospective
def _frame_blocks(title: str, frame: pd.DataFrame, index_name: str, lines: Sequence[str] = ()) -> list[Any]:
    headers = (index_name,) + tuple(str(c) for c in frame.columns)
    rows = tuple(
        (str(key),) + tuple(_cell(v) for v in row.tolist()) for key, row in frame.iterrows()
    )
    blocks: list[Any] = [_Heading(title)]
    if lines:
        blocks.append(_Lines(tuple(lines)))
    align = "l" + "".join(
        "r" if pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c]) else "l"
        for c in frame.columns
    )
    blocks.append(_Table(headers, rows, align))
    return blocks


def _cell(value: Any) -> str:
    if isinstance(value, (tuple, list, frozenset, set)):
        return ", ".join(map(str, value))
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_num(v)}" for k, v in value.items())
    return _num(value)


def _frame_json(frame: pd.DataFrame, index_name: str) -> list[dict[str, Any]]:
    rows = []
    for key, row in frame.iterrows():
        record = {index_name: key}
        for col, value in row.items():
            record[str(col)] = None if value is pd.NA else jsonable(value)
        rows.append(record)
    return rows


def _prospective_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The prospective table indexed by system (``prospective()`` keeps it as a column)."""
    frame = frame.set_index("system") if "system" in frame.columns else frame.copy()
    frame.index.name = "system"
    return frame


_PROSPECTIVE_LINES = (
    "feasible: can beat or tie every rival under some task weights (Vote'n'Rank's prospective); "
    "strict_feasible: can beat every rival",
    "margin: best smallest weighted margin over rivals (weights sum to 1); distance: L1 from the "
    "leaderboard's weights to the nearest winning weights; certificate: rival mix proving a 'never'",
)


def render_prospective(
    frame: pd.DataFrame, *, format: str = "table", table: Leaderboard | None = None, source: str = ""
) -> str:
    """The prospective-systems table of :func:`consensus.prospective` (one row per system)."""
    indexed = _prospective_frame(frame)
    return _dispatch(
        format,
        lambda: _frame_blocks("Prospective systems (Condorcet winners under some task weights)",
                              indexed.drop(columns=["method"], errors="ignore"), "system", _PROSPECTIVE_LINES),
        lambda: _frame_csv(indexed, "system"),
        lambda: _json("prospective", table, source, {"systems": _frame_json(indexed, "system")}),
    )


def condorcet_weights_json(result: Any) -> dict[str, Any]:
    """The JSON object of a Condorcet-weights result (schema in ``docs/cli.md``)."""
    weights = result.weights
    margins = result.margins
    cert = result.certificate
    return {
        "system": result.system,
        "feasible": bool(result.feasible),
        "strict": bool(result.strict),
        "margin": jsonable(result.margin),
        "bound": jsonable(result.bound),
        "weights": None if weights is None else {str(k): jsonable(v) for k, v in weights.items()},
        "margins": None if margins is None else {str(k): jsonable(v) for k, v in margins.items()},
        "distance": jsonable(result.distance),
        "certificate": None
        if cert is None
        else {
            "kind": cert.kind,
            "rival_mix": {str(k): jsonable(v) for k, v in cert.rival_mix.items()},
            "bound": jsonable(cert.bound),
            "statement": cert.statement,
        },
        "status": jsonable(result.status),
        "explanation": result.explanation,
    }


def _condorcet_blocks(result: Any) -> list[Any]:
    info = condorcet_weights_json(result)
    kind = "" if info["strict"] else "weak "
    lines = [info["explanation"] or f"{info['system']}: feasible={info['feasible']}"]
    lines.append(f"best smallest margin ({kind}Condorcet winner): {_num(info['margin'], 4)}; status {info['status']}")
    if info["distance"] is not None:
        lines.append(f"L1 distance from the reference weights: {_num(info['distance'], 4)}")
    blocks: list[Any] = [_Heading(f"Condorcet weights for {info['system']}"), _Lines(tuple(lines))]
    if info["weights"]:
        rows = tuple((t, _num(w, 4)) for t, w in info["weights"].items())
        blocks.append(_Table(("task", "weight"), rows))
    if info["margins"]:
        rows = tuple((r, _num(m, 4)) for r, m in info["margins"].items())
        blocks.append(_Table(("rival", "margin"), rows))
    cert = info["certificate"]
    if cert:
        blocks.append(_lines(f"certificate ({cert['kind']}): {cert['statement']}"))
        if cert["rival_mix"]:
            blocks.append(_Table(("rival", "share"), tuple((r, _num(v, 4)) for r, v in cert["rival_mix"].items())))
    return blocks


def render_condorcet_weights(
    result: Any, *, format: str = "table", table: Leaderboard | None = None, source: str = ""
) -> str:
    """A Condorcet-weights result: verdict, margin, weights, certificate (CSV: task, weight)."""
    return _dispatch(
        format,
        lambda: _condorcet_blocks(result),
        lambda: _render_csv(
            ("task", "weight"), [(t, _csv_value(w)) for t, w in (condorcet_weights_json(result)["weights"] or {}).items()]
        ),
        lambda: _json("prospective", table, source, condorcet_weights_json(result)),
    )


# ====================================================================== imputation
def imputation_json(imputed: Any, confidence: Any) -> dict[str, Any]:
    """The JSON object of ``consensus impute`` (schema in ``docs/cli.md``)."""
    matrix = imputed.matrix
    document: dict[str, Any] = {
        "method": imputed.method,
        "levels": int(imputed.levels),
        "systems": list(matrix.systems),
        "wins": jsonable(np.asarray(matrix.wins)),
        "counts": jsonable(np.asarray(matrix.counts)),
        "scores": {str(k): jsonable(v) for k, v in imputed.scores.items()},
        "ranking": [list(g) for g in imputed.ranking],
    }
    document["confidence"] = None if confidence is None else _confidence_json(confidence)
    return document


def _confidence_pairs(confidence: Any) -> list[dict[str, Any]]:
    """Each unordered pair once, better-ranked system first, with the confident winner if any."""
    order = list(confidence.order)
    estimate, half, counts = confidence.estimate, confidence.half_width, confidence.counts
    confident = confidence.confident
    rows = []
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            b = order[j]
            winner = a if confident[i, j] else (b if confident[j, i] else None)
            rows.append(
                {
                    "system": a,
                    "other": b,
                    "estimate": jsonable(estimate[i, j]),
                    "half_width": None if math.isinf(float(half[i, j])) else jsonable(half[i, j]),
                    "comparisons": int(counts[i, j]),
                    "confident_winner": winner,
                }
            )
    return rows


def _confidence_json(confidence: Any) -> dict[str, Any]:
    return {
        "delta": jsonable(confidence.delta),
        "order": list(confidence.order),
        "n_confident": int(confidence.n_confident),
        "pairs": _confidence_pairs(confidence),
    }


def _imputation_blocks(imputed: Any, confidence: Any) -> list[Any]:
    matrix = imputed.matrix
    systems = list(matrix.systems)
    rows = tuple(
        (s,) + tuple(_num(v) for v in np.asarray(matrix.wins)[i]) for i, s in enumerate(systems)
    )
    blocks: list[Any] = [
        _Heading(f"Imputed pairwise matrix ({imputed.method}, Himmi et al. 2023)"),
        _lines(
            "wins[row, column]: comparisons the row system wins, missing scores imputed over the compatible "
            "rankings (ties split)",
            "ranking (Borda on the imputed matrix): " + _format_ranking(imputed.ranking),
        ),
        _Table(("wins",) + tuple(systems), rows),
    ]
    if confidence is not None:
        info = _confidence_json(confidence)
        blocks.append(_Heading("Pairwise confidence (Hoeffding, Himmi et al. 2023, sec. 2.3)"))
        blocks.append(
            _lines(
                f"delta = {_num(info['delta'])}: a winner is named when the interval "
                "estimate +- half-width excludes 1/2",
                f"confident pairs: {sum(p['confident_winner'] is not None for p in info['pairs'])} of "
                f"{len(info['pairs'])}",
            )
        )
        rows = tuple(
            (p["system"], p["other"], _num(p["estimate"]), _num(p["half_width"]), str(p["comparisons"]),
             p["confident_winner"] or "-")
            for p in info["pairs"]
        )
        blocks.append(
            _Table(("system", "other", "P(system > other)", "half-width", "compared", "confident winner"), rows,
                   "llrrrl")
        )
    return blocks


def render_imputation(
    imputed: Any, confidence: Any = None, *, format: str = "table", table: Leaderboard | None = None,
    source: str = ""
) -> str:
    """The imputed pairwise matrix and the pairwise confidence intervals (CSV: one row per pair)."""

    def csv_text() -> str:
        if confidence is None:
            matrix = imputed.matrix
            frame = pd.DataFrame(np.asarray(matrix.wins), index=list(matrix.systems), columns=list(matrix.systems))
            return _frame_csv(frame, "system")
        pairs = _confidence_pairs(confidence)
        return _render_csv(
            ("system", "other", "estimate", "half_width", "comparisons", "confident_winner"),
            [(p["system"], p["other"], _csv_value(p["estimate"]), _csv_value(p["half_width"]), p["comparisons"],
              p["confident_winner"] or "") for p in pairs],
        )

    return _dispatch(
        format,
        lambda: _imputation_blocks(imputed, confidence),
        csv_text,
        lambda: _json("impute", table, source, imputation_json(imputed, confidence)),
    )


# ====================================================================== the full report
def _check_lines(checks: Sequence[Check]) -> list[str]:
    lines = []
    for c in checks:
        if c.ok:
            lines.append(f"check {c.name} = {c.actual}: ok ({c.source})")
        else:
            lines.append(f"check {c.name} = {c.actual}: MISMATCH, expected {c.expected} ({c.source})")
    return lines


def _analysis_blocks(analysis: Analysis) -> list[Any]:
    blocks: list[Any] = [_Heading(f"consensus analyze: {analysis.source}" if analysis.source else "consensus analyze", 1)]
    blocks += _leaderboard_blocks(analysis.leaderboard, "")
    blocks += _majority_blocks(analysis.majority)
    blocks += _kemeny_blocks(analysis.kemeny)
    blocks += _comparison_blocks(analysis.comparison)
    if analysis.prospective is not None:
        blocks += _frame_blocks(
            "Prospective systems (Condorcet winners under some task weights)",
            _prospective_frame(analysis.prospective).drop(columns=["method"], errors="ignore"),
            "system",
            _PROSPECTIVE_LINES,
        )
    if analysis.notes:
        blocks += [_Heading("Notes"), _Lines(analysis.notes)]
    if analysis.checks:
        passed = sum(c.ok for c in analysis.checks)
        blocks += [
            _Heading("Checks against published values"),
            _Lines(tuple(_check_lines(analysis.checks)) + (f"checks: {passed}/{len(analysis.checks)} ok",)),
        ]
    return blocks


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The ``result`` object of ``consensus analyze --format json`` (schema in ``docs/cli.md``)."""
    comparison = analysis.comparison
    rules = {
        rule: rule_json(result)
        for rule, result in comparison.results.items()
        if rule != "kemeny"
    }
    return {
        "majority": analysis.majority.to_dict(),
        "kemeny": kemeny_json(analysis.kemeny),
        "rules": rules,
        "comparison": comparison_json(comparison),
        "prospective": None
        if analysis.prospective is None
        else _frame_json(_prospective_frame(analysis.prospective), "system"),
        "checks": [c.to_dict() for c in analysis.checks],
        "notes": list(analysis.notes),
    }


def render_analysis(analysis: Analysis, *, format: str = "table") -> str:
    """The full ``consensus analyze`` report (CSV: the comparison table).

    Examples
    --------
    >>> import consensus as cs
    >>> text = render_analysis(analyze(cs.load_example("votenrank-toy"), example="votenrank-toy"))
    >>> text.splitlines()[-1]
    'checks: 11/11 ok'
    """
    return _dispatch(
        format,
        lambda: _analysis_blocks(analysis),
        lambda: _frame_csv(analysis.comparison.table, "rule"),
        lambda: _json("analyze", analysis.leaderboard, analysis.source, analysis_json(analysis)),
    )


def render(obj: Any, *, format: str = "table", table: Leaderboard | None = None, source: str = "") -> str:
    """Render any result of the package in `format` (``table``, ``markdown``, ``json``, ``csv``).

    Dispatches on the type: :class:`Analysis`, :class:`RuleComparison`, :class:`MajoritySummary`,
    a rule result, a Kemeny result, a Condorcet-weights result, an imputation result, a
    :class:`Leaderboard` or a prospective-systems DataFrame. `table` and `source` fill the
    JSON ``input`` object.

    Examples
    --------
    >>> import consensus as cs
    >>> print(render(cs.rank(cs.load_example("votenrank-toy"), "borda"), format="csv"), end="")
    position,tier,system,score
    1,1,B,9.0
    2,2,C,8.0
    3,3,D,7.0
    4,4,A,6.0
    """
    from .leaderboard import Leaderboard
    from .results import RuleResult

    if format not in FORMATS:
        raise InvalidOptionError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    if isinstance(obj, Analysis):
        return render_analysis(obj, format=format)
    if isinstance(obj, RuleComparison):
        return render_comparison(obj, format=format, table=table, source=source)
    if isinstance(obj, MajoritySummary):
        return render_majority(obj, format=format)
    if isinstance(obj, RuleResult):
        return render_rule(obj, format=format, table=table, source=source)
    if isinstance(obj, Leaderboard):
        return render_leaderboard(obj, format=format, source=source)
    if isinstance(obj, pd.DataFrame):
        return render_prospective(obj, format=format, table=table, source=source)
    if hasattr(obj, "feasible") and hasattr(obj, "margin"):
        return render_condorcet_weights(obj, format=format, table=table, source=source)
    if hasattr(obj, "objective") and hasattr(obj, "ranking"):
        return render_kemeny(obj, format=format, table=table, source=source)
    if hasattr(obj, "matrix") and hasattr(obj, "levels"):
        return render_imputation(obj, format=format, table=table, source=source)
    raise InvalidOptionError(f"cannot render a {type(obj).__name__}")
