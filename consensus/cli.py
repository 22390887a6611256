"""The ``consensus`` command line: argparse wiring around the library, no analysis logic.

Subcommands: ``analyze`` (the full report; no FILE: a built-in example), ``rank``,
``kemeny``, ``prospective``, ``compare``, ``impute``. Every user error (a
:class:`~consensus.errors.ConsensusError`, a bad option, an unreadable file) prints one line
``consensus: error: ...`` on stderr and exits with code 2, without a traceback. See
``docs/cli.md`` for every option and the JSON schema.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import pandas as pd

from .errors import CompositeScoreError, ConsensusError, NonNumericScoreError

__all__ = ["main", "build_parser"]

PROG = "consensus"
EXIT_OK, EXIT_CHECK_FAILED, EXIT_ERROR = 0, 1, 2
_SYNTHETIC_DEFAULTS = {"n": 20, "tasks": 20, "phi": 0.05, "seed": 0}


class UsageError(Exception):
    """A command-line problem (bad option value, unreadable option file)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors become one ``consensus: error: ...`` line."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ====================================================================== option parsing
def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _names(values: Sequence[str] | None) -> list[str]:
    """``--opt a b`` and ``--opt a,b`` (and repeated options) as one list."""
    return [name for value in (values or []) for name in _split(value)]


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{what}: {text!r} is not a number") from None


def parse_weights(spec: str | None) -> dict[str, float] | None:
    """``task=w,...`` or a file: JSON ``{"task": w}`` or CSV/TSV rows ``task,weight``."""
    if spec is None:
        return None
    if "=" in spec:
        weights = {}
        for item in _split(spec):
            task, sep, value = item.partition("=")
            if not sep or not task.strip():
                raise UsageError(f"--weights: expected task=weight, got {item!r}")
            weights[task.strip()] = _number(value.strip(), f"--weights {task.strip()}")
        return weights
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--weights: {spec!r} is neither task=weight,... nor an existing file")
    if path.suffix.lower() == ".json":
        data = _read_json(path, "--weights")
        if not isinstance(data, dict):
            raise UsageError(f"--weights: {spec!r} must hold a JSON object {{task: weight}}")
        return {str(k): _number(str(v), f"--weights {k}") for k, v in data.items()}
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    weights = {}
    for k, row in enumerate(_read_rows(path, delimiter)):
        if len(row) != 2:
            raise UsageError(f"--weights: line {k + 1} of {spec!r} must be task{delimiter}weight, got {row!r}")
        task, value = row[0].strip(), row[1].strip()
        if k == 0:
            try:
                float(value)
            except ValueError:
                continue  # a header line
        weights[task] = _number(value, f"--weights {task}")
    return weights


def parse_groups(spec: str | None) -> dict[str, list[str]] | None:
    """``g1=a,b;g2=c`` or a JSON file ``{"g1": ["a", "b"], "g2": ["c"]}``."""
    if spec is None:
        return None
    if "=" in spec:
        groups: dict[str, list[str]] = {}
        for item in (part for part in spec.split(";") if part.strip()):
            name, sep, members = item.partition("=")
            if not sep or not name.strip() or not _split(members):
                raise UsageError(f"--groups: expected group=task,task;group=task, got {item!r}")
            groups[name.strip()] = _split(members)
        return groups
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--groups: {spec!r} is neither group=task,...;... nor an existing JSON file")
    data = _read_json(path, "--groups")
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise UsageError(f"--groups: {spec!r} must hold a JSON object {{group: [task, ...]}}")
    return {str(k): [str(t) for t in v] for k, v in data.items()}


def _read_json(path: Path, option: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{option}: cannot read {str(path)!r} as JSON: {exc}") from None


def _read_rows(path: Path, delimiter: str) -> list[list[str]]:
    import csv

    with path.open(encoding="utf-8", newline="") as fh:
        return [row for row in csv.reader(fh, delimiter=delimiter) if row and any(c.strip() for c in row)]


def _columns(spec: str | None, count: int, option: str, meaning: str) -> list[str] | None:
    if spec is None:
        return None
    names = _split(spec)
    if len(names) != count:
        raise UsageError(f"{option}: expected {count} comma-separated column names ({meaning}), got {spec!r}")
    return names


def _option_value(text: str) -> Any:
    """A ``--option KEY=VALUE`` value: JSON when it parses (numbers, true, lists), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


# ====================================================================== loading
def _dedupe_names(names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Rename every occurrence of a duplicated name NAME_1, NAME_2, ... in order; and what was renamed."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    renamed = []
    for name in names:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            renamed.append(f"{name}_{seen[name]}")
        else:
            renamed.append(name)
    notes = [
        f"{name} -> {', '.join(f'{name}_{k}' for k in range(1, count + 1))}"
        for name, count in counts.items()
        if count > 1
    ]
    return renamed, notes


def _leaderboard_options(args: argparse.Namespace, *, with_columns: bool = True) -> dict[str, Any]:
    options: dict[str, Any] = {
        "lower_is_better": _names(args.lower_is_better),
        "weights": parse_weights(args.weights),
        "groups": parse_groups(args.groups),
        "split_composite": args.split_composite,
        "drop_empty": args.drop_empty,
    }
    if with_columns:
        tasks = _column_selection(args)
        if tasks is not None:
            options["tasks"] = tasks
        options["exclude"] = _names(args.exclude)
    return options


def _column_selection(args: argparse.Namespace) -> list[str] | None:
    if args.tasks is None or getattr(args, "_tasks_is_count", False):
        return None
    return _split(args.tasks)


def _read_file(args: argparse.Namespace) -> tuple[Any, list[str]]:
    """The leaderboard (or instance scores) of FILE and the notes to show."""
    from .leaderboard import Leaderboard, read_table

    notes: list[str] = []
    path = args.file
    instances = _columns(args.instances, 4, "--instances", "system,task,instance,score")
    long = _columns(args.long, 3, "--long", "system,task,score")
    if instances and long:
        raise UsageError("--long and --instances cannot be used together")
    if instances:
        from .instances import read_instances

        if args.dedupe or args.tasks or args.exclude or args.groups or args.split_composite or args.index_col:
            raise UsageError(
                "--instances files take --lower-is-better, --weights and --sep only "
                "(not --dedupe, --tasks, --exclude, --groups, --split-composite, --index-col)"
            )
        data = read_instances(
            path,
            system=instances[0],
            task=instances[1],
            instance=instances[2],
            score=instances[3],
            lower_is_better=_names(args.lower_is_better),
            weights=parse_weights(args.weights),
            format=args.input_format,
            sep=args.sep,
        )
        return data, notes
    frame = read_table(path, format=args.input_format, sep=args.sep)
    options = _leaderboard_options(args)
    if long:
        system, task, score = long
        if args.dedupe and system in frame.columns and task in frame.columns:
            keys = frame[[system, task]].astype(str)
            occurrence = keys.groupby([system, task], sort=False).cumcount() + 1
            repeated = keys.duplicated([system, task], keep=False)
            duplicated_systems = set(keys.loc[repeated, system])
            if duplicated_systems:
                frame = frame.copy()
                is_dup = keys[system].isin(duplicated_systems)
                frame.loc[is_dup, system] = keys.loc[is_dup, system] + "_" + occurrence[is_dup].astype(str)
                notes.append(
                    "--dedupe renamed repeated system(s) by occurrence of each task: "
                    + ", ".join(sorted(duplicated_systems))
                )
        lb = Leaderboard.from_long(frame, system=system, task=task, score=score, **options)
        return _with_notes(lb, notes), notes
    index_col = args.index_col
    if index_col is None:
        index_col = str(frame.columns[0]) if len(frame.columns) else None
    if index_col is None:
        raise UsageError(f"file {path!r} has no columns")
    if index_col not in frame.columns:
        from .errors import UnknownTaskError

        raise UnknownTaskError(index_col, [str(c) for c in frame.columns], "--index-col")
    frame = frame.set_index(index_col)
    frame.index.name = None
    if args.dedupe:
        names = [str(s) for s in frame.index]
        renamed, changes = _dedupe_names(names)
        if changes:
            frame.index = pd.Index(renamed, dtype=object)
            notes.append("--dedupe renamed duplicate system(s) in file order: " + "; ".join(changes))
    lb = Leaderboard.from_frame(frame, **options)
    return _with_notes(lb, notes), notes


def _with_notes(lb: Any, notes: Sequence[str]) -> Any:
    if not notes:
        return lb
    from .leaderboard import Leaderboard

    return Leaderboard(
        lb.scores,
        lower_is_better=lb.lower_is_better,
        weights=dict(lb.weights.items()),
        groups=lb.groups,
        notes=tuple(lb.notes) + tuple(notes),
    )


def _synthetic_requested(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None for name in ("n", "phi", "seed"))


def _load_example(args: argparse.Namespace) -> tuple[Any, str, str]:
    """A built-in example (with the shared options applied) for ``analyze`` without FILE."""
    from .datasets import load_example
    from .leaderboard import Leaderboard

    name = args.example or ("gumbel" if _synthetic_requested(args) else "votenrank-toy")
    params: dict[str, Any] = {}
    if name == "gumbel":
        n_tasks = _SYNTHETIC_DEFAULTS["tasks"]
        if args.tasks is not None and args.tasks.strip().isdigit():
            n_tasks = int(args.tasks)
            args._tasks_is_count = True
        params = {
            "n_systems": args.n if args.n is not None else _SYNTHETIC_DEFAULTS["n"],
            "n_tasks": n_tasks,
            "phi": args.phi if args.phi is not None else _SYNTHETIC_DEFAULTS["phi"],
            "seed": args.seed if args.seed is not None else _SYNTHETIC_DEFAULTS["seed"],
        }
    elif _synthetic_requested(args):
        raise UsageError(f"--n, --phi and --seed apply to the synthetic example 'gumbel', not {name!r}")
    lb = load_example(name, **params)
    options = _leaderboard_options(args)
    if options["split_composite"] or options["drop_empty"] or args.dedupe:
        raise UsageError("--split-composite, --drop-empty and --dedupe apply to files, not built-in examples")
    if options["lower_is_better"] or options["weights"] or options["groups"] or options.get("tasks") or options["exclude"]:
        lb = Leaderboard.from_frame(
            lb.scores,
            lower_is_better=sorted(set(lb.lower_is_better) | set(options["lower_is_better"])),
            weights=options["weights"] if options["weights"] is not None else dict(lb.weights.items()),
            groups=options["groups"] if options["groups"] is not None else lb.groups,
            tasks=options.get("tasks"),
            exclude=options["exclude"],
        )
    label = f"example:{name}" + (
        "(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else ""
    )
    return lb, label, name


def _load(args: argparse.Namespace, *, leaderboard: bool) -> tuple[Any, str, str | None]:
    """The data of a subcommand: (Leaderboard or InstanceScores, source label, example name)."""
    if args.file is None:
        return _load_example(args)
    if getattr(args, "example", None) or _synthetic_requested(args):
        raise UsageError("give either FILE or --example/--n/--phi/--seed, not both")
    data, notes = _read_file(args)
    for note in notes:
        _note(args, note)
    if leaderboard and not _is_leaderboard(data):
        _note(args, "instance-level scores averaged per task (InstanceScores.to_leaderboard) for this command")
        data = data.to_leaderboard()
    return data, str(args.file), None


def _is_leaderboard(data: Any) -> bool:
    from .leaderboard import Leaderboard

    return isinstance(data, Leaderboard)


# ====================================================================== output
def _note(args: argparse.Namespace, message: str) -> None:
    if not getattr(args, "quiet", False):
        print(f"{PROG}: note: {message}", file=sys.stderr)


def _emit(args: argparse.Namespace, text: str) -> None:
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write --output {args.output!r}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _save_plot(args: argparse.Namespace, make: Callable[[], Any]) -> None:
    if not args.plot:
        return
    figure = make()
    try:
        figure.savefig(args.plot, dpi=120)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write --plot {args.plot!r}: {exc}") from None


class _Progress:
    """A stderr progress line for long solves, fed by the solver's progress callback.

    Silent for the first `delay` seconds (short solves print nothing); then, on a terminal,
    one line rewritten in place, elsewhere a line every `every` seconds.
    """

    def __init__(self, label: str, *, delay: float = 1.0, every: float = 5.0) -> None:
        self.label = label
        self.start = time.monotonic()
        self.delay = delay
        self.every = every
        self.last = -math.inf
        self.tty = sys.stderr.isatty()
        self.shown = False

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or now - self.last < (0.2 if self.tty else self.every):
            return
        self.last = now
        text = f"{PROG}: {self.label}: {elapsed:.0f} s" + _progress_details(args, kwargs)
        if self.tty:
            sys.stderr.write("\r" + text.ljust(78)[:200])
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown and self.tty:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


def _progress_details(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The interesting fields of a progress report (an object such as the Kemeny solver's
    ``SolveProgress``, a mapping, or keywords): stage, component, round, cuts, incumbent, bound, gap."""
    names = ("stage", "component", "n_components", "round", "iteration", "cuts", "objective", "incumbent",
             "lower_bound", "bound", "gap")
    info: dict[str, Any] = dict(kwargs)
    for arg in args:
        if isinstance(arg, dict):
            info.update(arg)
        elif isinstance(arg, str):
            info.setdefault("stage", arg)
        else:
            for name in names:
                if hasattr(arg, name):
                    info[name] = getattr(arg, name)
    parts = []
    if "component" in info and "n_components" in info and info["n_components"] and info["n_components"] > 1:
        info["component"] = f"{int(info['component']) + 1}/{info['n_components']}"
    else:
        info.pop("component", None)
    for name in names:
        value = info.get(name)
        if value is None or name == "n_components":
            continue
        if isinstance(value, float):
            value = f"{value:g}"
        parts.append(f"{name.replace('_', ' ')} {value}")
    return (", " + ", ".join(parts)) if parts else ""


def _progress(args: argparse.Namespace, label: str) -> _Progress | None:
    return None if args.quiet else _Progress(label)


# ====================================================================== subcommands
def _cmd_analyze(args: argparse.Namespace) -> int:
    from .datasets import list_examples
    from .report import analyze, render_analysis

    if args.list_examples:
        rows = [(e.name, e.description) for e in list_examples()]
        width = max(len(name) for name, _ in rows)
        _emit(args, "".join(f"{name.ljust(width)}  {text}\n" for name, text in rows))
        return EXIT_OK
    table, source, example = _load(args, leaderboard=True)
    progress = _progress(args, "Kemeny consensus")
    try:
        analysis = analyze(
            table,
            source=source,
            example=example,
            rules=_split(args.rules) if args.rules else _default_rules(),
            time_limit=args.time_limit,
            solver=args.solver,
            progress=progress,
            prospective=not args.no_prospective,
            strict=not args.weak,
        )
    finally:
        if progress:
            progress.close()
    _emit(args, render_analysis(analysis, format=args.format))

    def figure() -> Any:
        from .plot import plot_analysis

        return plot_analysis(analysis)

    _save_plot(args, figure)
    return EXIT_OK if analysis.checks_ok else EXIT_CHECK_FAILED


def _default_rules() -> list[str]:
    from .compare import DEFAULT_RULES

    return list(DEFAULT_RULES)


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option: expected KEY=VALUE, got {item!r}")
        options[key.strip().replace("-", "_")] = _option_value(value.strip())
    if args.missing:
        options["missing"] = args.missing
    if args.tie_break:
        options["tie_break"] = args.tie_break
    return options


def _cmd_rank(args: argparse.Namespace) -> int:
    from .rank import rank
    from .report import render_rule

    table, source, _ = _load(args, leaderboard=True)
    result = rank(table, args.rule, **_rule_options(args))
    _emit(args, render_rule(result, format=args.format, table=table, source=source))

    def figure() -> Any:
        from .plot import plot_scores

        return plot_scores(result)

    _save_plot(args, figure)
    return EXIT_OK


def _cmd_kemeny(args: argparse.Namespace) -> int:
    data, source, _ = _load(args, leaderboard=False)
    from .kemeny import kemeny
    from .report import render_kemeny

    progress = _progress(args, "Kemeny consensus")
    options: dict[str, Any] = {"time_limit": args.time_limit, "solver": args.solver}
    if progress is not None:
        options["progress"] = progress
    try:
        result = kemeny(data, **options)
    finally:
        if progress:
            progress.close()
    table = data if _is_leaderboard(data) else None
    _emit(args, render_kemeny(result, format=args.format, table=table, source=source))

    def figure() -> Any:
        from .plot import plot_majority_graph

        return plot_majority_graph(data, ranking=result.ranking)

    _save_plot(args, figure)
    return EXIT_OK


def _cmd_prospective(args: argparse.Namespace) -> int:
    from .condorcet import condorcet_weights, prospective
    from .report import render_condorcet_weights, render_prospective

    table, source, _ = _load(args, leaderboard=True)
    bounds: dict[str, Any] = {}
    if args.min_weight is not None:
        bounds["min_weight"] = args.min_weight
    if args.max_weight is not None:
        bounds["max_weight"] = args.max_weight
    if args.system is None:
        if args.nearest:
            raise UsageError("--nearest needs --system (the weights nearest to the official ones for one system)")
        frame = prospective(table, strict=not args.weak, **bounds)
        _emit(args, render_prospective(frame, format=args.format, table=table, source=source))

        def figure() -> Any:
            from .plot import plot_bars

            margins = frame.set_index("system")["margin"] if "system" in frame.columns else frame["margin"]
            return plot_bars(margins, title="prospective systems: best smallest margin")

        _save_plot(args, figure)
        return EXIT_OK
    if args.nearest:
        bounds["nearest_to"] = "leaderboard"
    result = condorcet_weights(table, args.system, strict=not args.weak, **bounds)
    _emit(args, render_condorcet_weights(result, format=args.format, table=table, source=source))

    def weights_figure() -> Any:
        from .plot import plot_bars

        return plot_bars(result.weights, title=f"task weights making {args.system} win (margin {result.margin:.3g})")

    _save_plot(args, weights_figure)
    return EXIT_OK


def _cmd_compare(args: argparse.Namespace) -> int:
    from .compare import compare_rules
    from .report import render_comparison

    table, source, _ = _load(args, leaderboard=True)
    ks = [int(k) for k in _split(args.k)] if args.k else [1, 3, 5]
    progress = _progress(args, "Kemeny consensus")
    try:
        comparison = compare_rules(
            table,
            rules=_split(args.rules) if args.rules else _default_rules(),
            baseline=args.baseline,
            ks=ks,
            time_limit=args.time_limit,
            solver=args.solver,
            progress=progress,
        )
    finally:
        if progress:
            progress.close()
    _emit(args, render_comparison(comparison, format=args.format, table=table, source=source))

    def figure() -> Any:
        from .plot import plot_rank_changes

        return plot_rank_changes(comparison)

    _save_plot(args, figure)
    return EXIT_OK


def _cmd_impute(args: argparse.Namespace) -> int:
    from .impute import impute_pairwise, pairwise_confidence
    from .report import render_imputation

    data, source, _ = _load(args, leaderboard=False)
    imputed = impute_pairwise(data, levels=args.levels)
    confidence = pairwise_confidence(data, delta=args.delta)
    table = data if _is_leaderboard(data) else None
    _emit(args, render_imputation(imputed, confidence, format=args.format, table=table, source=source))

    def figure() -> Any:
        from .plot import plot_confidence

        return plot_confidence(confidence)

    _save_plot(args, figure)
    return EXIT_OK


# ====================================================================== parser
def _input_options(parser: argparse.ArgumentParser, *, file_required: bool) -> None:
    if file_required:
        parser.add_argument("file", metavar="FILE", help="scores file: .csv, .tsv, .parquet or .json")
    else:
        parser.add_argument("file", metavar="FILE", nargs="?", help="scores file (default: a built-in example)")
    group = parser.add_argument_group("reading the scores")
    group.add_argument("--input-format", choices=("csv", "tsv", "parquet", "json"),
                       help="file format when the extension does not say")
    group.add_argument("--sep", help="CSV/TSV delimiter (e.g. ';')")
    group.add_argument("--index-col", metavar="COL", help="column of system names (wide files; default: the first)")
    group.add_argument("--long", metavar="SYSTEM,TASK,SCORE",
                       help="long file: one row per system and task, with these column names")
    group.add_argument("--instances", metavar="SYSTEM,TASK,INSTANCE,SCORE",
                       help="instance-level long file: one row per system, task and instance")
    group.add_argument("--tasks", metavar="COL,...",
                       help="only these task columns (analyze --example gumbel: the number of tasks)")
    group.add_argument("--exclude", metavar="COL,...", action="append",
                       help="drop these columns (rank, team, URL, average, ...)")
    group.add_argument("--lower-is-better", metavar="TASK", nargs="+", action="extend",
                       help="tasks where lower is better (space- or comma-separated)")
    group.add_argument("--weights", metavar="SPEC", help="task weights: task=w,... or a JSON/CSV file")
    group.add_argument("--groups", metavar="SPEC",
                       help="task groups: 'g1=a,b;g2=c' or a JSON file {group: [tasks]}")
    group.add_argument("--split-composite", action="store_true",
                       help="split cells like '93.9/91.8' into tasks TASK[1] and TASK[2]")
    group.add_argument("--drop-empty", action="store_true", help="drop systems and tasks without any score")
    group.add_argument("--dedupe", action="store_true",
                       help="rename duplicate system names NAME_1, NAME_2, ... in file order")


def _output_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=("table", "markdown", "json", "csv"), default="table",
                       help="output format (default: table)")
    group.add_argument("--output", "-o", metavar="PATH", help="write the output to PATH instead of stdout")
    group.add_argument("--plot", metavar="PATH.png", help="also save a figure (needs matplotlib: the 'plot' extra)")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress indicator or notes on stderr")


def _solve_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("solving")
    group.add_argument("--time-limit", type=_positive, metavar="S",
                       help="stop the Kemeny solve after S seconds (reports the gap)")
    group.add_argument("--solver", default="highs", help="MILP back-end (default: highs)")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``consensus`` argument parser (subcommands and their options)."""
    from . import __version__

    parser = _Parser(
        prog=PROG,
        description="Exact answers for multi-task leaderboards: Condorcet winners, prospective systems, "
        "the exact Kemeny ranking, and how far the usual rules land from them.",
        epilog="Run 'consensus analyze' for a self-checking report on a built-in example.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("analyze", help="full report (no FILE: a built-in example)",
                       description="The full report: the table as read, the majority graph, the exact Kemeny "
                       "ranking, every rule side by side with rank changes, the comparison table and the "
                       "prospective systems. Without FILE it analyzes a built-in example and checks the "
                       "published values (exit code 1 if a check fails).")
    _input_options(p, file_required=False)
    ex = p.add_argument_group("built-in examples (without FILE)")
    ex.add_argument("--example", metavar="NAME", help="votenrank-toy (default), colombo-table1 or gumbel")
    ex.add_argument("--list-examples", action="store_true", help="list the built-in examples and exit")
    ex.add_argument("--n", type=int, metavar="N", help="gumbel: number of systems (default 20)")
    ex.add_argument("--phi", type=float, help="gumbel: dispersion phi (default 0.05)")
    ex.add_argument("--seed", type=int, help="gumbel: random seed (default 0)")
    p.add_argument("--rules", metavar="R,...", help="rules to compare (default: the nine usual ones)")
    p.add_argument("--weak", action="store_true", help="prospective systems as weak Condorcet winners")
    p.add_argument("--no-prospective", action="store_true", help="skip the prospective-systems section")
    _solve_options(p)
    _output_options(p)
    p.set_defaults(handler=_cmd_analyze)

    p = sub.add_parser("rank", help="rank with one voting rule", description="Rank the systems with one rule.")
    _input_options(p, file_required=True)
    p.add_argument("--rule", required=True, metavar="R",
                   help="borda, copeland, minimax, plurality, dowdall, threshold, baldwin, mean, ...")
    p.add_argument("--missing", choices=("drop_tasks", "drop_systems", "impute"),
                   help="what to do with missing scores (default: the rule's own policy or an error)")
    p.add_argument("--tie-break", choices=("mean", "lexicographic"), help="split tied systems")
    p.add_argument("--option", metavar="KEY=VALUE", action="append",
                   help="a rule option, e.g. --option variant=winning_votes (repeatable)")
    _output_options(p)
    p.set_defaults(handler=_cmd_rank)

    p = sub.add_parser("kemeny", help="the exact Kemeny ranking",
                       description="The exact Kemeny consensus (ILP), with its status and bound.")
    _input_options(p, file_required=True)
    _solve_options(p)
    _output_options(p)
    p.set_defaults(handler=_cmd_kemeny)

    p = sub.add_parser("prospective", help="which systems can win under some task weights",
                       description="Systems that can become Condorcet winners under some task weights "
                       "(or, with --system, the weights that make one system win).")
    _input_options(p, file_required=True)
    p.add_argument("--system", metavar="S", help="one system: its best weights and margin, or a certificate")
    p.add_argument("--weak", action="store_true", help="weak Condorcet winner (beat or tie every rival)")
    p.add_argument("--min-weight", type=_non_negative, metavar="W", help="lower bound on every normalized weight")
    p.add_argument("--max-weight", type=_non_negative, metavar="W", help="upper bound on every normalized weight")
    p.add_argument("--nearest", action="store_true",
                   help="with --system: the winning weights nearest to the given (default: equal) weights")
    _output_options(p)
    p.set_defaults(handler=_cmd_prospective)

    p = sub.add_parser("compare", help="every rule against the exact Kemeny ranking",
                       description="Kendall tau and distance, Kemeny objective gap, Condorcet winner, "
                       "top-k/least-k agreement, tie groups and task dispersion of every rule.")
    _input_options(p, file_required=True)
    p.add_argument("--rules", metavar="R,...", help="rules to compare (default: the nine usual ones)")
    p.add_argument("--baseline", default="mean", help="rule rank changes refer to (default: mean)")
    p.add_argument("--k", metavar="K,...", help="k of the top-k/least-k agreement (default: 1,3,5)")
    _solve_options(p)
    _output_options(p)
    p.set_defaults(handler=_cmd_compare)

    p = sub.add_parser("impute", help="imputed pairwise matrix and confidence intervals (missing scores)",
                       description="The pairwise matrix with missing scores imputed (Himmi et al. 2023) and "
                       "Hoeffding confidence intervals for every pair.")
    _input_options(p, file_required=True)
    p.add_argument("--delta", type=_positive, default=0.05, metavar="D",
                   help="confidence intervals hold with probability 1 - D (default 0.05)")
    p.add_argument("--levels", type=int, choices=(1, 2), default=1,
                   help="1: one-level aggregation; 2: two-level (instance-level data)")
    _output_options(p)
    p.set_defaults(handler=_cmd_impute)
    return parser


# ====================================================================== entry point
def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        text = f"{exc.strerror or exc}" + (f": {exc.filename!r}" if exc.filename else "")
    else:
        text = str(exc)
    if isinstance(exc, NonNumericScoreError) and not isinstance(exc, CompositeScoreError):
        text += f"; if {exc.task!r} is not a score column, pass --exclude {exc.task}"
    return " ".join(text.split())


def _print_warnings(caught: Sequence[warnings.WarningMessage], quiet: bool) -> None:
    """User-facing warnings (UserWarning and subclasses), each once; developer warnings are dropped."""
    if quiet:
        return
    seen = set()
    for w in caught:
        if not issubclass(w.category, UserWarning):
            continue
        text = " ".join(str(w.message).split())
        if text not in seen:
            seen.add(text)
            print(f"{PROG}: warning: {text}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``consensus`` command line; returns the exit code (0 ok, 1 failed self-check, 2 error)."""
    parser = build_parser()
    quiet = False
    error: str | None = None
    code = EXIT_ERROR
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            args = parser.parse_args(argv)
            quiet = args.quiet
            code = int(args.handler(args))
        except SystemExit as exc:  # --help and --version
            code = int(exc.code or 0)
        except (UsageError, ConsensusError, OSError, ImportError) as exc:
            error = _message(exc)
        except KeyboardInterrupt:
            error, code = "interrupted", 130
    _print_warnings(caught, quiet)
    if error is not None:
        print(f"{PROG}: error: {error}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
