"""Scores gathered from many result files into one leaderboard, with every choice stated.

Each importer reads its files into :class:`ResultEntry` objects (one system, one task, the
metrics the file gives for it, the file). :func:`entries_to_leaderboard` then does what every
importer shares:

- picks the metric of each task (:func:`choose_metrics`): the user's ``metric=``, the tool's
  own default, or the only metric there is; the same metric for every system of a task;
- refuses a (system, task) given twice, naming both files;
- leaves out the tasks the user excludes (``exclude=``), before anything else is checked;
- reads the chosen values: a number is a score, a JSON ``null`` (or NaN) a missing score stated
  in a note, an infinite value (``Infinity``, a failed perplexity) a missing score too, stated
  in its own note (the missing-score policy decides, as for a score table), anything else an
  error naming the file and field;
- sets each task's direction (:func:`consensus.formats.metrics.direction_of`) and refuses, in
  one error, every metric whose direction is unknown;
- builds the :class:`~consensus.Leaderboard` and adds the notes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..arguments import name_list
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError, UnknownTaskError
from ..hints import Hinted, hinted, join, named, option
from .errors import DuplicateResultError, FormatError, MetricDirectionError
from .metrics import Direction, direction_of, normalize_metric, split_filter

__all__ = ["ResultEntry", "MetricSpec", "choose_metrics", "match_metric", "entries_to_leaderboard",
           "number_or_none", "shortlist", "check_names"]

#: What ``metric=`` accepts: one metric, a preference list, or task -> metric (or list).
MetricSpec = str | Sequence[str] | Mapping[str, str | Sequence[str]] | None


@dataclass(frozen=True)
class ResultEntry:
    """The scores one result file gives one system on one task.

    Attributes
    ----------
    system, task : str
        Leaderboard row and column.
    values : Mapping[str, Any]
        Metric key (as the file writes it) -> value as parsed (checked only for the metric
        chosen).
    path : str
        The file (or run directory), for messages.
    declared : Mapping[str, bool]
        Normalized metric -> higher is better, where the file declares it.
    defaults : tuple of str
        The tool's own default metric(s) for this task, in preference order (HELM's main
        metric of the run group); empty when the tool has none.
    """

    system: str
    task: str
    values: Mapping[str, Any]
    path: str
    declared: Mapping[str, bool] = field(default_factory=dict)
    defaults: tuple[str, ...] = ()
    stderr: Mapping[str, Any] = field(default_factory=dict)


def stderr_key(metric: str) -> tuple[str, ...]:
    """The keys a tool writes a metric's standard error under (``acc,none`` -> ``acc_stderr,none``).

    Parameters
    ----------
    metric : str
        The metric key as the file writes it.

    Returns
    -------
    tuple of str
        The candidates, most likely first.

    Examples
    --------
    >>> stderr_key("acc,none"), stderr_key("exact_match")
    (('acc_stderr,none',), ('exact_match_stderr',))
    """
    name, filt = split_filter(metric)
    return (f"{name}_stderr" + (f",{filt}" if filt is not None else ""),)


def shortlist(items: Iterable[object], limit: int = 6) -> str:
    """``'a', 'b', ...``: up to `limit` items, quoted, for messages.

    Parameters
    ----------
    items : iterable
    limit : int, default=6

    Returns
    -------
    str

    Examples
    --------
    >>> shortlist(["x", "y", "z"], 2)
    "'x', 'y', ..."
    """
    items = list(items)
    if not items:
        return "(none)"
    return ", ".join(repr(x) for x in items[:limit]) + (", ..." if len(items) > limit else "")


def check_names(value: object, option: str) -> list[str]:
    """An option holding a list of names (``higher_is_better``, ``tasks``), checked for type.

    Parameters
    ----------
    value : object
    option : str
        Its name, for the message.

    Returns
    -------
    list of str

    Raises
    ------
    InvalidOptionError
        Not a list of strings (a bare string is refused: ``"acc"`` is not ``["acc"]``).
    """
    names = name_list(value, option, kind="names")
    bad = [x for x in names if not isinstance(x, str)]
    if bad:
        raise InvalidOptionError(f"{option} must list names (strings), got {bad[0]!r}")
    return names


def check_wanted(wanted: Iterable[str] | None, found: Sequence[str]) -> None:
    """Every task of the ``tasks=`` option was found in the tool's files.

    Parameters
    ----------
    wanted : iterable of str or None
        The ``tasks=`` option (None: every task).
    found : sequence of str
        The tasks the files hold, in the order found (repeats allowed).

    Raises
    ------
    UnknownTaskError
        The first wanted task not found, with the found ones as the known names.
    """
    if wanted is None:
        return
    present = set(found)
    for name in wanted:
        if name not in present:
            raise UnknownTaskError(name, list(dict.fromkeys(found)), "tasks=")


def match_metric(wanted: str, keys: Iterable[str]) -> list[str]:
    """The keys of a result that `wanted` names: the same key, or the same metric under any filter.

    Compared case-insensitively. ``"acc"`` names ``"acc,none"``; ``"exact_match"`` names both
    ``"exact_match,strict-match"`` and ``"exact_match,flexible-extract"`` (ambiguous: the
    caller refuses it); ``"exact_match,strict-match"`` names only that key.

    Parameters
    ----------
    wanted : str
        A metric, optionally with its filter.
    keys : iterable of str
        The metric keys of a result.

    Returns
    -------
    list of str
        The matching keys, in the order given.

    Examples
    --------
    >>> match_metric("acc", ["acc,none", "acc_norm,none", "acc_stderr,none"])
    ['acc,none']
    """
    target = wanted.strip().lower()
    keys = list(keys)
    exact = [k for k in keys if k.strip().lower() == target]
    if exact or "," in target:
        return exact
    return [k for k in keys if split_filter(k)[0].lower() == target]


def _spec_for(metric: MetricSpec, task: str) -> tuple[str, ...] | None:
    if metric is None:
        return None
    if isinstance(metric, str):
        return (metric,)
    if isinstance(metric, Mapping):
        spec = metric.get(task)
        return None if spec is None else ((spec,) if isinstance(spec, str) else tuple(spec))
    return tuple(metric)


def _check_spec(metric: MetricSpec, tasks: Sequence[str]) -> None:
    if metric is None or isinstance(metric, str):
        return
    if isinstance(metric, Mapping):
        unknown = [t for t in metric if t not in tasks]
        if unknown:
            raise UnknownTaskError(unknown[0], tasks, "metric=")
        values = [v for spec in metric.values() for v in ([spec] if isinstance(spec, str) else spec)]
    else:
        values = list(metric)
    if not values or not all(isinstance(v, str) for v in values):
        raise InvalidOptionError(
            "metric must be a metric name, a list of names (preferred first) or a mapping task -> name(s), "
            f"got {metric!r}"
        )


def choose_metrics(entries: Sequence[ResultEntry], metric: MetricSpec) -> tuple[dict[str, str], list[str]]:
    """The metric key read for each task, the same for every system, and the notes saying why.

    For each task, the candidates are the user's `metric` (its value for the task when a
    mapping), else the tool's defaults (:attr:`ResultEntry.defaults`); the first candidate that
    names exactly one key in every entry of the task is taken. Without candidates, a task
    whose entries all have the same single metric key takes it. When the user gave a
    preference list (two names or more) and a task has none of them, the task's only metric is
    read (the same single key in every entry), with a note; a single name the task lacks stays
    an error. A candidate naming two keys
    (two filters) in an entry is an error listing them.

    Parameters
    ----------
    entries : sequence of ResultEntry
    metric : str, list of str, Mapping or None
        As ``metric=`` of the importers.

    Returns
    -------
    (dict, list of str)
        Task -> metric key (as the files write it), and notes for choices the files did not
        make obvious (a default, a preference, a filter).

    Raises
    ------
    FormatError
        No candidate names a metric of every system's file for a task (naming a file that
        lacks it and listing that file's metrics), a candidate is ambiguous, or no metric
        was given and a task has several.
    UnknownTaskError
        A mapping `metric` names a task no file has.
    InvalidOptionError
        `metric` is not a name, a list of names or a mapping to them.
    """
    by_task: dict[str, list[ResultEntry]] = {}
    for entry in entries:
        by_task.setdefault(entry.task, []).append(entry)
    _check_spec(metric, list(by_task))
    chosen: dict[str, str] = {}
    stated: dict[tuple[str, str], list[str]] = {}
    for task, group in by_task.items():
        given = _spec_for(metric, task)
        candidates = given if given is not None else group[0].defaults
        if not candidates:
            keys = {k for e in group for k in e.values}
            empty = next((e for e in group if not e.values), None)
            if empty is not None:
                raise FormatError(empty.path, f"task {task!r} has no metric (only standard errors or bookkeeping)")
            if len(keys) == 1:
                chosen[task] = next(iter(keys))
                continue
            offender = next((e for e in group if len(e.values) != 1), group[0])
            raise FormatError(
                offender.path,
                hinted("task {!r} has metrics {}; pass {} naming the one to read (a name, a list of names preferred "
                       "first, or a mapping task -> name)", task, shortlist(sorted(offender.values), 12), option("metric")),
            )
        try:
            key = _first_shared(task, group, candidates)
        except FormatError:
            # a preference list (several names) none of which the task has: its only metric, if it has one
            only = {k for e in group for k in e.values}
            if given is None or len(given) < 2 or len(only) != 1 or any(len(e.values) != 1 for e in group):
                raise
            key = next(iter(only))
            chosen[task] = key
            stated.setdefault((key, "its only metric: none of the preferred metrics"), []).append(task)
            continue
        chosen[task] = key
        source = named("metric", equals=True) if given is not None else "the tool's default for the task"
        asked = candidates[0].strip().lower()
        if len(candidates) > 1 or given is None or key.strip().lower() not in (asked, asked + ",none"):
            stated.setdefault((key, source), []).append(task)
    notes: list[str] = [hinted("read metric {!r} ({}) for {} task(s): {}", key, source, len(ts), shortlist(ts, 4))
                        for (key, source), ts in stated.items()]
    return chosen, notes


def _first_shared(task: str, group: Sequence[ResultEntry], candidates: Sequence[str]) -> str:
    """The key of the first candidate that every entry of the task has (the same key in all)."""
    lacking = group[0]
    first_lacking = True
    for wanted in candidates:
        found: set[str] = set()
        for entry in group:
            keys = match_metric(wanted, entry.values)
            if len(keys) > 1:
                raise FormatError(
                    entry.path,
                    hinted("metric {!r} of task {!r} is there under several filters: {}; pass {} (or another of them)",
                           wanted, task, shortlist(keys), option("metric", keys[0])),
                    field=wanted,
                )
            if not keys:
                if first_lacking:
                    lacking, first_lacking = entry, False
                found = set()
                break
            found.add(keys[0])
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            raise FormatError(group[0].path, hinted("metric {!r} of task {!r} is written as {} in different files; pass {} "
                                                    "with the full key", wanted, task, shortlist(sorted(found)),
                                                    named("metric", equals=True)), field=wanted)
    raise FormatError(
        lacking.path,
        hinted("no metric {} for task {!r} of system {!r}; its metrics are {}; pass {}", shortlist(candidates), task,
               lacking.system, shortlist(sorted(lacking.values), 12), option("metric")),
        field=candidates[0],
    )


def number_or_none(value: object, path: str, field: str, *, line: int | None = None) -> float | None:
    """A score as read from JSON: a number, or None for ``null`` / NaN (a missing score).

    Parameters
    ----------
    value : object
        The parsed JSON value.
    path, field : str
        For the message.
    line : int, optional
        For the message (JSON lines).

    Returns
    -------
    float or None

    Raises
    ------
    FormatError
        A string, list, object or boolean: not a score.

    Examples
    --------
    >>> number_or_none(0.5, "r.json", "acc"), number_or_none(None, "r.json", "acc")
    (0.5, None)
    """
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
        return None if math.isnan(number) else number
    kind = {bool: "a boolean", str: "text", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)
    raise FormatError(path, f"{field!r} holds {kind} ({value!r:.60}), not a score", field=field, line=line)


def entries_to_leaderboard(
    entries: Sequence[ResultEntry],
    *,
    metric: MetricSpec = None,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
    notes: Sequence[str] = (),
    hint: str = "",
    exclude: Iterable[str] = (),
    stderr_source: str = "the results files' *_stderr entries",
) -> Leaderboard:
    """One leaderboard from result entries (see the module docs for what is checked).

    Parameters
    ----------
    entries : sequence of ResultEntry
        In reading order: systems and tasks keep their order of first appearance.
    metric : str, list of str, Mapping or None
        See :func:`choose_metrics`.
    higher_is_better, lower_is_better : iterable of str
        Tasks or metrics whose direction the user gives.
    notes : sequence of str
        The importer's own notes, kept first.
    hint : str or Hinted, default=""
        How to fix a duplicate (system, task), for :class:`DuplicateResultError`.
    exclude : iterable of str, default ()
        Tasks left out (with a note) before metrics are chosen and values read: a task whose
        values cannot be read (no score for any system, no metric) can be dropped this way.
    stderr_source : str
        Where the entries' standard errors (:attr:`ResultEntry.stderr`, keyed by
        :func:`stderr_key` of the chosen metric) came from, in words; they become the
        leaderboard's (:meth:`~consensus.Leaderboard.with_stderr`).

    Returns
    -------
    Leaderboard
        Systems x tasks, lower-is-better tasks marked, `notes` plus the metric choices,
        missing and infinite values (read as missing) and directions in
        :attr:`~consensus.Leaderboard.notes`.

    Raises
    ------
    DuplicateResultError
        A (system, task) given by two entries.
    FormatError
        See :func:`choose_metrics`; a chosen value is not a number.
    MetricDirectionError
        Some tasks' metrics have no known direction (all listed).
    InvalidOptionError
        `higher_is_better` and `lower_is_better` both name something, or are not lists.
    UnknownTaskError
        `exclude` names a task no entry has.
    LeaderboardError
        The scores do not form a leaderboard (fewer than 2 systems, a system without scores,
        a task without a score for any system: the message names ``exclude=``).
    """
    higher = check_names(higher_is_better, "higher_is_better")
    lower = check_names(lower_is_better, "lower_is_better")
    left_out = check_names(exclude, "exclude")
    both = sorted(set(higher) & set(lower))
    if both:
        raise InvalidOptionError(f"{shortlist(both)} named in both higher_is_better and lower_is_better")
    notes = list(notes)
    if left_out:
        known = list(dict.fromkeys(e.task for e in entries))
        for name in left_out:
            if name not in known:
                raise UnknownTaskError(name, known, "exclude=")
        entries = [e for e in entries if e.task not in set(left_out)]
        notes.append(hinted("left out task(s) ({}): {}", named("exclude", equals=True), shortlist(left_out, 5)))
    if not entries:
        raise LeaderboardError(_nothing_left(notes))
    seen: dict[tuple[str, str], str] = {}
    for e in entries:
        if (e.system, e.task) in seen:
            raise DuplicateResultError(e.system, e.task, [seen[e.system, e.task], e.path], hint=hint)
        seen[e.system, e.task] = e.path
    chosen, out_notes = choose_metrics(entries, metric)
    cells: dict[str, dict[str, float]] = {}
    missing: list[str] = []
    infinite: dict[str, list[str]] = {}
    for e in entries:
        value = number_or_none(e.values[chosen[e.task]], e.path, chosen[e.task])
        if value is None:
            missing.append(f"{e.system}/{e.task} ({e.path})")
        elif math.isinf(value):  # a failed perplexity, a division by zero: measures nothing
            infinite.setdefault(e.task, []).append(e.system)
            value = None
        cells.setdefault(e.system, {})[e.task] = math.nan if value is None else value
    tasks = list(dict.fromkeys(e.task for e in entries))
    _check_scored(tasks, cells, infinite)
    for name in higher + lower:
        if not any(name == t or (chosen[t] and normalize_metric(name) == normalize_metric(chosen[t])) for t in tasks):
            raise UnknownTaskError(name, tasks + sorted({split_filter(m)[0] for m in chosen.values()}),
                                   "higher_is_better / lower_is_better")
    directions: dict[str, Direction | None] = {}
    unknown: list[tuple[str, str | None]] = []
    sources: dict[tuple[str, Direction | None, str], list[str]] = {}
    for task in tasks:
        declared = next((e.declared for e in entries if e.task == task and e.declared), None)
        metric_name = split_filter(chosen[task])[0] or None  # "": the scores name no metric
        way, source = direction_of(task, chosen[task] if metric_name else None, higher=higher, lower=lower,
                                   declared=declared)
        if way is None:
            unknown.append((task, metric_name))
        directions[task] = way
        sources.setdefault((metric_name or "task name", way, source), []).append(task)
    if unknown:
        if all(m is None for _, m in unknown):
            raise MetricDirectionError([t for t, _ in unknown], "the scores name no metric", kind="task",
                                       hint=hinted("{} naming the metric of every score (e.g. 'accuracy')", option("metric")))
        metrics = list(dict.fromkeys(m or t for t, m in unknown))
        raise MetricDirectionError(metrics, "task(s) " + shortlist([t for t, _ in unknown]))
    if missing:
        out_notes.append(f"{len(missing)} result(s) hold no value (null), kept as missing scores: {shortlist(missing, 5)}")
    if infinite:
        where = "; ".join(f"task {t!r}: {shortlist(s, 3)}" for t, s in list(infinite.items())[:5])
        more = f"; and {len(infinite) - 5} more tasks" if len(infinite) > 5 else ""
        drop = option("exclude", list(infinite)) if len(infinite) <= 5 else option("exclude")
        out_notes.append(hinted("read infinite scores as missing (the missing-score policy decides): {}{}; pass {} to "
                                "leave the task(s) out instead", where, more, drop))
    parts = [f"{shortlist(ts, 4)} {way} is better (given)" if src == "given" else
             f"{m} {way} is better ({src}; {len(ts)} task(s))" for (m, way, src), ts in sources.items()]
    out_notes.append("directions: " + "; ".join(parts))
    frame = pd.DataFrame.from_dict(cells, orient="index").reindex(columns=tasks)
    # every task and its direction come from the tool's own records (stated in the notes above): nothing inferred
    lb = Leaderboard.from_frame(frame, lower_is_better=[t for t in tasks if directions[t] == "lower"], infer=False)
    lb = lb.with_notes(notes + out_notes)
    errors: dict[str, dict[str, float]] = {}
    for e in entries:
        key = next((k for k in stderr_key(chosen[e.task]) if k in e.stderr), None)
        value = e.stderr.get(key) if key is not None else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
            errors.setdefault(e.system, {})[e.task] = float(value)  # "N/A" and the like: unknown
    if errors:
        table = pd.DataFrame.from_dict(errors, orient="index").reindex(index=list(lb.systems))
        lb = lb.with_stderr(table[[t for t in tasks if t in table.columns]], source=stderr_source)
    return lb


def _nothing_left(notes: Sequence[str]) -> Hinted:
    """The error when every task was skipped: why, from the importer's notes (each wording cut to fit a line)."""
    said = join("; ", notes)
    api, cli = (text if len(text) <= 200 else text[:197] + "..." for text in (str(said), said.cli))
    return Hinted("no result is left to read: every task was skipped") + (Hinted(f" ({api})", f" ({cli})") if api else "")


def _check_scored(tasks: Sequence[str], cells: Mapping[str, Mapping[str, float]], infinite: Mapping[str, list[str]]) -> None:
    """A task with no score for any system (every value null or infinite): an error naming ``exclude=``."""
    empty = [t for t in tasks if all(math.isnan(row.get(t, math.nan)) for row in cells.values())]
    if not empty:
        return
    why = "infinite or null for every system" if any(t in infinite for t in empty) else "null for every system"
    raise LeaderboardError(hinted("task(s) {} have no score ({}); pass {} to leave {} out", shortlist(empty, 5), why,
                                  option("exclude", empty), "it" if len(empty) == 1 else "them"))
