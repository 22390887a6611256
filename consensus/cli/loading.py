"""Loading what a subcommand reads: FILE (a score table, instance-level files, another tool's
output with ``--from``) or a built-in example, with the reading options applied and the notes to show."""

from __future__ import annotations

import argparse
from typing import Any, cast

from .args import (
    _SYNTHETIC_DEFAULTS,
    UsageError,
    _columns,
    _names,
    is_leaderboard,
    note,
    parse_groups,
    parse_weights,
    progress_for,
    split_names,
)

__all__ = ["load", "FROM_FILE_NAME"]


def _leaderboard_options(args: argparse.Namespace, *, tasks_is_count: bool = False) -> dict[str, Any]:
    """The reading options given on the command line, as keyword arguments of the readers.

    With `tasks_is_count` (the synthetic example), ``--tasks N`` is a number of tasks, not a
    selection of task names.
    """
    options: dict[str, Any] = {
        "lower_is_better": _names(args.lower_is_better),
        "weights": parse_weights(args.weights),
        "groups": parse_groups(args.groups),
        "split_composite": args.split_composite,
        "drop_empty": args.drop_empty,
        "exclude": _names(args.exclude),
    }
    if args.tasks is not None and not tasks_is_count:
        options["tasks"] = split_names(args.tasks)
    keep = getattr(args, "keep_columns", None)
    if keep is not None:
        options["keep_columns"] = True if keep.strip().lower() == "all" else split_names(keep)
    if getattr(args, "higher_is_better", None):
        options["higher_is_better"] = _names(args.higher_is_better)
    if getattr(args, "no_infer", False):
        options["infer"] = False
    return options


#: In ``--instances`` with a directory or glob: the system (or task) is each file's name.
FROM_FILE_NAME = "@file"


#: An importer's option -> the flag that sets it.
_FLAG_OF = {"metric": "--metric", "split": "--split", "group": "--table", "table": "--table", "tasks": "--tasks",
            "subsets": "--subsets", "revision": "--revision", "include_groups": "--include-groups", "latest": "--latest",
            "higher_is_better": "--higher-is-better", "lower_is_better": "--lower-is-better", "exclude": "--exclude",
            "keep_columns": "--keep-columns"}


def _revisions(values: list[str] | None) -> dict[str, str] | None:
    """``--revision MODEL=REV`` (repeatable) as a mapping; a model given twice is an error."""
    if not values:
        return None
    out: dict[str, str] = {}
    for item in values:
        model, eq, rev = item.rpartition("=")
        if not eq or not model.strip() or not rev.strip():
            raise UsageError(f"--revision: expected MODEL=REVISION, got {item!r}")
        if model.strip() in out:
            raise UsageError(f"--revision: model {model.strip()!r} is given twice")
        out[model.strip()] = rev.strip()
    return out

#: Reading options that only apply to score tables, not to ``--from`` (another tool's files);
#: ``--keep-columns`` applies to the importers that set columns aside (they take ``keep_columns``).
_TABLE_ONLY = ("input_format", "sep", "orient", "index_col", "long", "instances", "split_composite", "dedupe",
               "keep_columns", "drop_empty", "no_infer")


def _metric_option(values: list[str]) -> Any:
    """``--metric`` (repeatable): one name, names in order of preference, or ``TASK=METRIC`` each.

    Names are taken whole (lm-evaluation-harness names hold commas: ``exact_match,strict-match``).
    """
    names = [v.strip() for v in values]
    if any("=" in name for name in names):
        pairs = [name.partition("=") for name in names]
        if any(not sep or not key.strip() or not value.strip() for key, sep, value in pairs):
            raise UsageError(f"--metric: give TASK=METRIC for every task, or metric names only; got {values!r}")
        return {key.strip(): value.strip() for key, _, value in pairs}
    if any(not name for name in names):
        raise UsageError("--metric: empty metric name")
    return names[0] if len(names) == 1 else names


def _read_tool_output(args: argparse.Namespace) -> tuple[Any, list[str]]:
    """``--from TOOL``: FILE read by :func:`consensus.formats.read_format`, with the notes to show."""
    from ..formats import format_options, read_format
    from ..hints import cli_of
    from ..io._readers import apply_reading_options

    accepted = format_options(args.from_format)
    given = [name for name in _TABLE_ONLY if getattr(args, name, None) not in (None, False, [])
             and not (name == "keep_columns" and name in accepted)]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        why = ""
        if {"keep_columns", "no_infer"} & set(given):
            why = (" (group aggregates come back with --include-groups)" if "include_groups" in accepted else
                   " (an importer reads each metric it is told to as a task: nothing is set aside)")
        raise UsageError(f"--from {args.from_format} reads the tool's own files: {flags} do not apply{why}")
    options: dict[str, Any] = {"split": args.split} if args.split is not None else {}
    keep = getattr(args, "keep_columns", None)
    if keep is not None:
        options["keep_columns"] = True if keep.strip().lower() == "all" else split_names(keep)
    exclude = _names(args.exclude)
    if exclude and "exclude" in accepted:  # left out before the importer reads the values (an infinite task)
        options["exclude"] = exclude
    if getattr(args, "table", None) is not None:
        if args.from_format != "helm-summary":
            raise UsageError(f"--table picks a HELM group table: it applies to --from helm-summary, not --from {args.from_format}")
        group, _, table = args.table.partition("/")
        if not group.strip() or (_ and not table.strip()):
            raise UsageError(f"--table: expected GROUP or GROUP/TABLE, got {args.table!r}")
        options.update({"group": group.strip()} | ({"table": table.strip()} if table.strip() else {}))
    for name, value in (("metric", args.metric and _metric_option(args.metric)), ("tasks", args.tasks and split_names(args.tasks)),
                        ("higher_is_better", _names(args.higher_is_better)), ("lower_is_better", _names(args.lower_is_better)),
                        ("subsets", args.subsets and split_names(args.subsets)), ("revision", _revisions(args.revision)),
                        ("include_groups", args.include_groups), ("latest", args.latest)):
        if value:
            options[name] = value
    notes: list[str] = []
    if args.from_format == "harness-samples":
        if args.weights:
            raise UsageError("--weights with --from harness-samples: instance files carry no task weights here; "
                             "read them with consensus.formats.read_harness_samples and weight the leaderboard")
        options["notes"] = notes
    for name in options:
        if name not in accepted and name != "notes":
            own_flags = dict.fromkeys(_FLAG_OF[a] for a in accepted if a in _FLAG_OF)
            raise UsageError(f"{_FLAG_OF[name]} does not apply to --from {args.from_format} (its flags: "
                             f"{', '.join(own_flags)})")
    data = read_format(args.file, args.from_format, **options)
    if is_leaderboard(data):  # the table's reading options that apply to what was read (--tasks went to the importer)
        reading: dict[str, Any] = {"weights": parse_weights(args.weights), "groups": parse_groups(args.groups),
                                   "exclude": [] if "exclude" in options else exclude}
        data = apply_reading_options(data, **reading) if any(reading.values()) else data
        notes = list(data.notes)
    elif args.exclude or args.groups:
        raise UsageError(f"--exclude and --groups apply to a leaderboard, not to --from {args.from_format}'s instances")
    return data, [cli_of(text) for text in notes]


def _read_file(args: argparse.Namespace) -> tuple[Any, list[str]]:
    """The leaderboard (or instance scores) of FILE and the notes to show."""
    from ..hints import cli_of
    from ..io._readers import frame_to_leaderboard, read_table

    if getattr(args, "from_format", None):
        return _read_tool_output(args)
    for option in ("metric", "split", "table", "subsets", "revision", "include_groups", "latest"):
        if getattr(args, option, None):
            raise UsageError(f"--{option.replace('_', '-')} applies to --from TOOL files only")
    notes: list[str] = []
    path = args.file
    instances = _columns(args.instances, 4, "--instances", "system,task,instance,score")
    long = _columns(args.long, 3, "--long", "system,task,score")
    if instances and long:
        raise UsageError("--long and --instances cannot be used together")
    if instances:
        from ..io._readers import read_instances

        if (args.dedupe or args.tasks or args.exclude or args.groups or args.split_composite or args.index_col
                or getattr(args, "keep_columns", None) or args.higher_is_better or args.no_infer):
            raise UsageError(
                "--instances files take --lower-is-better, --weights and --sep only (not --dedupe, --tasks, --exclude, "
                "--groups, --split-composite, --index-col, --keep-columns, --higher-is-better, --no-infer)"
            )
        from ..io._instance_sets import is_many

        many = is_many(path)
        names = [None if many and name == FROM_FILE_NAME else name for name in instances]
        progress = progress_for(args, "reading instance files") if many else None
        try:
            data = read_instances(
                path,
                system=names[0],
                task=names[1],
                instance=instances[2],
                score=instances[3],
                lower_is_better=_names(args.lower_is_better),
                weights=parse_weights(args.weights),
                format=None if many else args.input_format,
                sep=args.sep,
                progress=progress,
            )
        finally:
            if progress is not None:
                progress.close()
        return data, notes
    frame = read_table(path, format=args.input_format, sep=args.sep, orient=args.orient)
    lb = frame_to_leaderboard(
        frame,
        index_col=args.index_col,
        long=cast("tuple[str, str, str]", tuple(long)) if long else None,  # _columns checked: 3 names
        dedupe=args.dedupe,
        source=str(path),
        **_leaderboard_options(args),
    )
    # what reading changed (renamed duplicates, excluded bookkeeping columns, normalized names, split cells),
    # in the command line's wording (pass --keep-columns ... for keep_columns=[...])
    notes = [cli_of(text) for text in lb.notes]
    return lb, notes


def _synthetic_requested(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None for name in ("n", "phi", "seed"))


def _load_example(args: argparse.Namespace) -> tuple[Any, str, str | None]:
    """A built-in example (with the shared options applied) for ``analyze`` without FILE."""
    from ..datasets import load_example
    from ..io._readers import apply_reading_options

    name = args.example or ("gumbel" if _synthetic_requested(args) else "votenrank-toy")
    params: dict[str, Any] = {}
    tasks_is_count = name == "gumbel" and args.tasks is not None and args.tasks.strip().isdigit()
    if name == "gumbel":
        params = {
            "n_systems": args.n if args.n is not None else _SYNTHETIC_DEFAULTS["n"],
            "n_tasks": int(args.tasks) if tasks_is_count else _SYNTHETIC_DEFAULTS["tasks"],
            "phi": args.phi if args.phi is not None else _SYNTHETIC_DEFAULTS["phi"],
            "seed": args.seed if args.seed is not None else _SYNTHETIC_DEFAULTS["seed"],
        }
    elif _synthetic_requested(args):
        raise UsageError(f"--n, --phi and --seed apply to the synthetic example 'gumbel', not {name!r}")
    options = _leaderboard_options(args, tasks_is_count=tasks_is_count)
    if (options.pop("split_composite") or options.pop("drop_empty") or args.dedupe or options.pop("keep_columns", None)
            or options.pop("higher_is_better", None) or options.pop("infer", True) is False):
        raise UsageError(
            "--split-composite, --drop-empty, --dedupe, --keep-columns, --higher-is-better and --no-infer apply to "
            "files, not built-in examples"
        )
    published = load_example(name, **params)
    lb = apply_reading_options(published, **options)
    label = f"example:{name}" + (
        "(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else ""
    )
    if lb is not published:  # the published figures are of the example as published
        changed = [flag for flag, given in (
            ("--weights", args.weights), ("--tasks", args.tasks and not tasks_is_count), ("--exclude", args.exclude),
            ("--lower-is-better", args.lower_is_better), ("--groups", args.groups),
        ) if given]
        note(args, f"{', '.join(changed)} changed example {name!r}: its published values are not checked")
        return lb, label + " modified by " + " ".join(changed), None
    return lb, label, name


def load(args: argparse.Namespace, *, leaderboard: bool) -> tuple[Any, str, str | None]:
    """Load the data of a subcommand: FILE, or a built-in example when there is no FILE.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (FILE, the reading options and, for ``analyze``, the example
        options). For the ``gumbel`` example a numeric ``--tasks`` is taken as the number
        of tasks.
    leaderboard : bool
        Convert instance-level scores to a Leaderboard (averaged per task, with a note on
        stderr unless ``--quiet``).

    Returns
    -------
    tuple
        The data (a Leaderboard, or InstanceScores when `leaderboard` is False and
        ``--instances`` was given), the source label (the file name or
        ``"example:NAME(...)"``), and the example name (None for a file).

    Raises
    ------
    UsageError
        Conflicting options (FILE with ``--example``/``--n``/``--phi``/``--seed``,
        ``--long`` with ``--instances``, file-only options with an example, ...), or a
        malformed ``--weights``, ``--groups``, ``--long`` or ``--instances``.
    ConsensusError
        FILE is missing or unreadable, or its scores (or the example's) cannot form a
        valid leaderboard (any subclass, e.g. :class:`~consensus.errors.UnknownTaskError`
        for ``--index-col``).
    """
    if args.file is None:
        return _load_example(args)
    if getattr(args, "example", None) or _synthetic_requested(args):
        raise UsageError("give either FILE or --example/--n/--phi/--seed, not both")
    data, notes = _read_file(args)
    for text in notes:
        note(args, text)
    if leaderboard and not is_leaderboard(data):
        note(args, "instance-level scores averaged per task (InstanceScores.to_leaderboard) for this command")
        data = data.to_leaderboard()
    return data, str(args.file), None
