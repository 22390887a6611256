"""HELM's leaderboard tables: the ``groups/*.json`` files ``helm-summarize`` writes (what the HELM website serves).

``helm-summarize --suite SUITE`` writes, beside the run directories of
``benchmark_output/runs/<suite>/``, one file per run group: ``groups/<group>.json``, a JSON
list of tables (and each table alone as ``groups/json/<group>_<table>.json``). A table is
HELM's ``Table``::

    {"title": "Accuracy", "name": "accuracy",
     "header": [{"value": "Model/adapter", "markdown": false, "metadata": {}},
                {"value": "Mean win rate", "lower_is_better": false, "metadata": {}},
                {"value": "MMLU - EM", "lower_is_better": false,
                 "metadata": {"metric": "EM", "run_group": "MMLU"}}, ...],
     "rows": [[{"value": "GPT-4 (0613)", ...}, {"value": 0.96, ...}, {"value": 0.735, ...}], ...]}

The first column names the models (HELM's display names); every other column is a
(scenario, metric) of the table, read as a task named by its header. What HELM itself
declares decides the rest, each stated in a note:

- a column without ``metadata.run_group`` is an aggregate HELM computed from the others
  (``Mean win rate``, ``Mean score``): excluded;
- a column whose ``lower_is_better`` is absent (HELM: "comparisons are not meaningful", e.g.
  ``# eval``, ``# train``, truncation counts) is not a score: excluded;
- either comes back as a task when the user asks (``keep_columns=``, or ``tasks=`` naming it),
  with HELM's direction where the header gives one;
- the direction of every other column is HELM's ``lower_is_better`` (inference time,
  calibration error, toxicity and bias metrics are lower-is-better there);
- a cell without a ``value`` ("No matching runs") is a missing score.

The user picks the group (``group=``; default ``core_scenarios``, the main leaderboard of
HELM Classic and Lite, when the suite has it, else the only group) and the table within it
(``table=``, its ``name`` or ``title``; default the group's first table: the accuracy table
of a group by metric, the aggregate table of a group by scenario). The notes say which was
read and list the others.

Minimal example (one table of two models)::

    runs/v1/groups/core_scenarios.json
        [{"title": "Accuracy", "name": "accuracy",
          "header": [{"value": "Model"}, {"value": "MMLU - EM", "lower_is_better": false,
                                          "metadata": {"metric": "EM", "run_group": "MMLU"}}],
          "rows": [[{"value": "model-a"}, {"value": 0.5}], [{"value": "model-b"}, {"value": 0.7}]]}]
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError, UnknownTaskError
from ..hints import Hinted, hinted, option
from .errors import FormatError
from .files import load_json
from .metrics import normalize_metric
from .records import ResultEntry, check_names, entries_to_leaderboard, shortlist

__all__ = ["read_helm_summary", "DEFAULT_GROUP", "summary_groups"]

#: The group read when a suite has several and none is chosen: HELM Classic's and Lite's main
#: leaderboard ("Core scenarios").
DEFAULT_GROUP = "core_scenarios"


def summary_groups(path: str | Path) -> dict[str, Path]:
    """The group files ``helm-summarize`` wrote below `path`: group name -> file.

    Parameters
    ----------
    path : str or Path
        A suite directory (``benchmark_output/runs/<suite>``), its ``groups`` directory, or
        one group file (``groups/<group>.json``, or ``groups/json/<group>_<table>.json``).

    Returns
    -------
    dict
        Group name (the file's stem) -> path, sorted by name.

    Raises
    ------
    LeaderboardError
        `path` does not exist, or holds no group file (the message says what it looks like
        instead: runs of ``helm-run``, a ``benchmark_output`` directory).
    """
    root = Path(path)
    if root.is_file():
        return {root.stem: root}
    if not root.is_dir():
        raise LeaderboardError(f"{str(root)!r} not found: pass a HELM suite directory (benchmark_output/runs/<suite>) "
                               "holding helm-summarize's groups/, or one groups/<group>.json file")
    folder = root / "groups" if (root / "groups").is_dir() else root
    found = {p.stem: p for p in sorted(folder.glob("*.json")) if p.is_file()}
    if found and folder == root and root.name != "groups" and (root / "groups.json").is_file():
        found.pop("groups", None)  # the index of groups, written beside the groups/ folder
    if not found:
        if (root / "runs").is_dir():
            raise LeaderboardError(f"{str(root)!r} holds suites: pass {str(root / 'runs' / '<suite>')!r}")
        if any((p / "stats.json").is_file() for p in root.iterdir() if p.is_dir()):
            raise LeaderboardError(f"{str(root)!r} holds helm-run's run directories but no groups/ from helm-summarize: "
                                   "read the runs with --from helm (format 'helm'), or run helm-summarize first")
        raise LeaderboardError(f"no helm-summarize group tables (groups/<group>.json) in {str(root)!r}")
    return found


def _tables(data: Any, f: Path) -> list[dict[str, Any]]:
    tables = [data] if isinstance(data, dict) else data
    if not isinstance(tables, list) or not tables:
        raise FormatError(f, "not a HELM group file (a JSON list of tables) or table (an object with header and rows)")
    for k, t in enumerate(tables):
        if not isinstance(t, dict) or not isinstance(t.get("header"), list) or not isinstance(t.get("rows"), list):
            raise FormatError(f, f"table #{k + 1} has no 'header' and 'rows' lists (not a HELM table)", field="header")
    return tables


def _label(table: dict[str, Any], k: int) -> str:
    return str(table.get("name") or table.get("title") or f"#{k + 1}")


def _pick_table(tables: list[dict[str, Any]], table: str | None, f: Path) -> tuple[dict[str, Any], str]:
    labels = [_label(t, k) for k, t in enumerate(tables)]
    if table is None:
        return tables[0], labels[0]
    for t, label in zip(tables, labels):
        if table in (t.get("name"), t.get("title"), label):
            return t, label
    raise InvalidOptionError(f"no table {table!r} in HELM group file {f.name!r}; its tables: {shortlist(labels, 8)}; "
                             + hinted("pick one with {}", option("table")))


def _cell_text(cell: Any) -> str:
    value = cell.get("value") if isinstance(cell, dict) else None
    return "" if value is None else str(value).strip()


def read_helm_summary(
    path: str | Path,
    *,
    group: str | None = None,
    table: str | None = None,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    keep_columns: Iterable[str] | bool | None = None,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
) -> Leaderboard:
    """Read one of HELM's leaderboard tables (``helm-summarize`` output) as a leaderboard of models x columns.

    See the module docs for the files, the columns excluded and the directions.

    Parameters
    ----------
    path : str or Path
        A suite directory (``benchmark_output/runs/<suite>``), its ``groups`` directory, or
        one group (or table) JSON file.
    group : str, optional
        The run group (the file ``groups/<group>.json``). Default: ``core_scenarios`` when
        present, else the only group; an error (listing them) when there are several.
    table : str, optional
        The table of the group, by ``name`` or ``title`` (``"accuracy"``, ``"Efficiency"``).
        Default: the group's first table.
    tasks : list of str, optional
        Read only these columns (headers); a column HELM sets aside (an aggregate such as
        ``Mean win rate``, a count) named here is read as a task.
    exclude : list of str, optional
        Leave out these columns (with a note), before values are read.
    keep_columns : list of str or True, optional
        Columns HELM sets aside (aggregates, counts) to read as tasks all the same; True: all
        of them. The direction is HELM's ``lower_is_better`` where the header gives one, else
        `higher_is_better` / `lower_is_better` must give it.
    higher_is_better, lower_is_better : list of str
        Columns (or HELM metric names, e.g. ``"EM"``) whose direction overrides HELM's.

    Returns
    -------
    Leaderboard
        Models x columns, HELM's directions; notes name the group and table read, the
        others, the excluded aggregate and non-comparable columns, and missing cells.

    Raises
    ------
    FormatError
        A file is not HELM's table shape, a header or model name is empty or repeated, a row
        has another length than the header, a value is not a number.
    InvalidOptionError
        `group` or `table` names one the files do not have (the message lists them).
    UnknownTaskError
        `tasks`, `exclude` or `keep_columns` name a column the table does not have.
    LeaderboardError
        `path` holds no group file, or several groups and `group` is not given; the table
        has no score column or fewer than 2 models.

    Examples
    --------
    >>> import json, os, tempfile
    >>> groups = os.path.join(tempfile.mkdtemp(), "groups")
    >>> os.makedirs(groups)
    >>> header = [{"value": "Model"}, {"value": "Mean win rate", "lower_is_better": False},
    ...           {"value": "MMLU - EM", "lower_is_better": False, "metadata": {"metric": "EM", "run_group": "MMLU"}},
    ...           {"value": "MMLU - # eval", "metadata": {"metric": "# eval", "run_group": "MMLU"}}]
    >>> rows = [[{"value": "a"}, {"value": 0.0}, {"value": 0.5}, {"value": 100}],
    ...         [{"value": "b"}, {"value": 1.0}, {"value": 0.7}, {"value": 100}]]
    >>> tables = [{"title": "Accuracy", "name": "accuracy", "header": header, "rows": rows}]
    >>> _ = open(os.path.join(groups, "core_scenarios.json"), "w").write(json.dumps(tables))
    >>> lb = read_helm_summary(os.path.dirname(groups))
    >>> lb.scores
       MMLU - EM
    a        0.5
    b        0.7
    """
    for name, value in (("group", group), ("table", table)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise InvalidOptionError(f"{name} must be a name, got {value!r}")
    wanted = None if tasks is None else check_names(tasks, "tasks")
    groups = summary_groups(path)
    notes: list[str] = []
    if group is None:
        if len(groups) == 1:
            group = next(iter(groups))
        elif DEFAULT_GROUP in groups:
            group = DEFAULT_GROUP
        else:
            raise LeaderboardError(f"{str(path)!r} holds {len(groups)} HELM groups ({shortlist(groups, 8)}): "
                                   + hinted("pick one with {}", option("group")))
        chosen = "the only group" if len(groups) == 1 else "the default"
    else:
        if group not in groups:
            raise InvalidOptionError(f"no HELM group {group!r} in {str(path)!r}; its groups: {shortlist(groups, 8)}; "
                                     + hinted("pick one with {}", option("group")))
        chosen = "as asked"
    f = groups[group]
    data = load_json(f)
    tables = _tables(data, f)
    picked, label = _pick_table(tables, table, f)
    others = [_label(t, k) for k, t in enumerate(tables) if t is not picked]
    notes.append((f"HELM table {label!r} (the file {f.name!r} holds it alone)" if isinstance(data, dict) else
                  f"HELM group {group!r} ({chosen}), table {label!r}")
                 + (hinted(" ({}of {}; the others: {}; pick one with {})", "the first " if table is None else "",
                           len(tables), shortlist(others, 4), option("table")) if others else ""))
    header = picked["header"]
    names = [_cell_text(h) for h in header]
    if len(header) < 2 or any(not n for n in names):
        raise FormatError(f, f"table {label!r}: every header cell needs a value, and a score column must follow the model "
                          "column", field="header")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise FormatError(f, f"table {label!r}: column(s) {shortlist(repeated)} appear twice", field="header")
    keep_all = keep_columns is True
    keep = [] if keep_columns is None or isinstance(keep_columns, bool) else check_names(keep_columns, "keep_columns")
    for naming, given in (("tasks=", wanted or []), ("keep_columns=", keep)):
        for name in given:
            if name not in names[1:]:
                raise UnknownTaskError(name, names[1:], naming)
    asked = set(keep) | set(wanted or ())
    kept: list[tuple[int, str, dict[str, bool]]] = []
    aggregates: list[str] = []
    not_comparable: list[str] = []
    brought: list[str] = []
    for j, h in enumerate(header[1:], start=1):
        meta = h.get("metadata") if isinstance(h.get("metadata"), dict) else {}
        set_aside = "aggregate" if not meta.get("run_group") else "count" if h.get("lower_is_better") is None else ""
        if set_aside and not (keep_all or names[j] in asked):
            (aggregates if set_aside == "aggregate" else not_comparable).append(names[j])
            continue
        if wanted is None or names[j] in wanted:
            metric = str(meta.get("metric") or names[j])
            lower = h.get("lower_is_better")
            kept.append((j, metric, {} if lower is None else {normalize_metric(metric): not lower}))
            if set_aside:
                brought.append(names[j])
    if aggregates:
        notes.append(hinted("excluded HELM's aggregate column(s), computed from the others: {}; pass {} to read them "
                            "as tasks", shortlist(aggregates, 4), _keep_hint(aggregates)))
    if not_comparable:
        notes.append(f"excluded {len(not_comparable)} column(s) HELM marks as not comparable (no lower_is_better; counts, "
                     f"not scores): {shortlist(not_comparable, 4)}")
    if brought:
        notes.append(f"read column(s) HELM sets aside as tasks, as asked: {shortlist(brought, 4)}")
    if not kept:
        raise LeaderboardError(hinted("table {!r} of HELM group {!r} has no score column (only {}); pick another table "
                                      "with {}", label, group, shortlist(names[1:], 4), option("table")))
    entries: list[ResultEntry] = []
    seen: dict[str, int] = {}
    for r, row in enumerate(picked["rows"], start=1):
        if not isinstance(row, list) or len(row) != len(header):
            raise FormatError(f, f"table {label!r}: row {r} has {len(row) if isinstance(row, list) else 'no'} cells, "
                              f"the header {len(header)}", field="rows")
        model = _cell_text(row[0])
        if not model:
            raise FormatError(f, f"table {label!r}: row {r} has no model name", field="rows")
        if model in seen:
            raise FormatError(f, f"table {label!r}: model {model!r} is in rows {seen[model]} and {r}", field="rows")
        seen[model] = r
        for j, metric, declared in kept:
            cell = row[j] if isinstance(row[j], dict) else {}
            entries.append(ResultEntry(model, names[j], {metric: cell.get("value")}, f"{f.name} row {r}",
                                       declared=declared))
    return entries_to_leaderboard(entries, higher_is_better=higher_is_better, lower_is_better=lower_is_better,
                                  notes=notes, hint="a HELM table has one row per model", exclude=exclude)


def _keep_hint(columns: list[str]) -> Hinted:
    """``keep_columns=[...]`` naming `columns` (a few), else with a placeholder (``--keep-columns COL,...``)."""
    return option("keep_columns", columns) if len(columns) <= 3 else option("keep_columns")

