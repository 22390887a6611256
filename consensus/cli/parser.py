"""The argparse parser of ``consensus``: subcommands, their options and help texts."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from ..formats import FORMATS
from .args import PROG, CliParser
from .commands import (
    cmd_analyze,
    cmd_compare,
    cmd_impute,
    cmd_inspect,
    cmd_kemeny,
    cmd_possible,
    cmd_prospective,
    cmd_rank,
    cmd_report,
    cmd_sensitivity,
    cmd_significance,
)
from .resampling import EXPERIMENTS, cmd_experiment, cmd_stability

#: The rules of ``--rule`` in the help, and the linear ones: the declarations' names
#: (``consensus.rules.RULES``, ``@rule(..., linear=True)``) kept here so that ``--help`` imports
#: no rule module (pandas); ``tests/test_architecture.py`` derives both from the declarations.
RULE_NAMES = (
    "plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision", "threshold", "baldwin",
    "condorcet", "copeland", "minimax", "mean", "geometric_mean", "optimality_gap", "mean_win_rate",
    "normalized_mean", "bradley_terry", "schulze", "ranked_pairs", "kemeny",
)
LINEAR_RULE_NAMES = ("plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision", "mean")


def _input_options(parser: argparse.ArgumentParser, *, file_required: bool, file_help: str | None = None) -> None:
    if file_required:
        parser.add_argument("file", metavar="FILE", help="scores file: .csv, .tsv, .parquet or .json")
    else:
        parser.add_argument("file", metavar="FILE", nargs="?", help=file_help or "scores file (default: a built-in example)")
    group = parser.add_argument_group("reading the scores")
    group.add_argument("--from", dest="from_format", metavar="TOOL",
                       choices=tuple(FORMATS),
                       help="FILE is another tool's output: harness (lm-evaluation-harness results_*.json), "
                       "harness-samples (its --log_samples JSONL), helm (a runs/<suite> folder of runs), helm-summary "
                       "(helm-summarize's groups/*.json tables), mteb (a results folder), model-dir (one {task: score} file per model), preflib (.soc/.soi/.toc/.toi)")
    group.add_argument("--metric", metavar="M|TASK=M", action="append",
                       help="--from: the metric to read; repeat for names in order of preference, or give "
                       "TASK=METRIC per task (a name may hold commas, as lm-evaluation-harness's 'acc,none')")
    group.add_argument("--split", metavar="NAME", help="--from helm/mteb: the data split (default: the tool's own)")
    group.add_argument("--max-input-size", metavar="SIZE",
                       help="most bytes a compressed input may decompress to (default 2G; e.g. 8G); set, it "
                       "replaces the compression-ratio check and lets a text line be as long")
    group.add_argument("--max-memory", metavar="SIZE",
                       help="most memory the command may hold (default: what the machine, a container and ulimit -v "
                       "leave); checked before the pairwise comparison, the analysis, resamples and repetitions")
    group.add_argument("--subsets", metavar="NAME,...",
                       help="--from mteb: the hf_subsets (languages) averaged in each task (default: all)")
    group.add_argument("--revision", metavar="MODEL=REV", action="append",
                       help="--from mteb: the revision directory read for a model with several (repeatable)")
    group.add_argument("--include-groups", action="store_true",
                       help="--from harness: keep lm-evaluation-harness group aggregates as tasks (default: their "
                       "subtasks only)")
    group.add_argument("--latest", action="store_true",
                       help="--from harness: keep the newest results file of a model and task given twice")
    group.add_argument("--table", metavar="GROUP[/TABLE]",
                       help="--from helm-summary: the HELM group and table to read (default: core_scenarios, its "
                       "first table)")
    group.add_argument("--higher-is-better", metavar="NAME", nargs="+", action="extend",
                       help="tasks where higher is better whatever their name says (--from: also metrics of unknown "
                       "direction)")
    group.add_argument("--input-format", choices=("csv", "tsv", "parquet", "json"),
                       help="file format when the extension does not say")
    group.add_argument("--sep", help="CSV/TSV delimiter (e.g. ';')")
    group.add_argument("--orient", choices=("columns", "index"),
                       help="JSON object of objects: outer keys are tasks (columns, the default of "
                            "DataFrame.to_json) or systems (index)")
    group.add_argument("--index-col", metavar="COL", help="column of system names (wide files; default: the first)")
    group.add_argument("--long", metavar="SYSTEM,TASK,SCORE",
                       help="long file: one row per system and task, with these column names")
    group.add_argument("--instances", metavar="SYSTEM,TASK,INSTANCE,SCORE",
                       help="instance-level long file: one row per system, task and instance; FILE may be a "
                       "directory or a quoted glob of Parquet/CSV files (one per model or task), and @file as the "
                       "SYSTEM or TASK column takes each file's name")
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
    group.add_argument("--keep-columns", metavar="COL,...|all",
                       help="keep these columns as tasks though they look like no task (a rank, an average, a "
                       "duplicate, model size, a standard error); 'all': keep every column")
    group.add_argument("--no-infer", dest="no_infer", action="store_true",
                       help="read the table exactly as given: every column a task, higher is better unless "
                       "--lower-is-better (no column set aside, no direction inferred from names)")


def _output_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=("table", "markdown", "json", "csv"), default="table",
                       help="output format (default: table)")
    group.add_argument("--output", "-o", metavar="PATH", help="write the output to PATH instead of stdout")
    group.add_argument("--plot", metavar="PATH.png", help="also save a figure (needs matplotlib: the 'plot' extra)")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress indicator or notes on stderr")
    group.add_argument("--top", type=_count, default=10, metavar="N",
                       help="table and markdown: at most N rows per table, then '... and K more' (default 10; "
                       "0: every row; JSON and CSV always hold everything)")


#: ``--missing`` choices and default of each ranking command (``pairwise``: each pair compared on the
#: tasks both systems are scored on; ``auto``: every rule runs under a stated policy).
MISSING_CHOICES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "analyze": (("auto", "pairwise", "drop_tasks", "drop_systems", "impute", "median"), "auto"),
    "compare": (("auto", "pairwise", "drop_tasks", "drop_systems", "impute", "median"), "auto"),
    "rank": (("drop_tasks", "drop_systems", "impute", "median"), None),
    "kemeny": (("pairwise", "drop_tasks", "drop_systems", "impute", "median"), "pairwise"),
    "prospective": (("pairwise", "drop_tasks", "drop_systems", "median", "impute"), "pairwise"),
    "sensitivity": (("pairwise", "drop_tasks", "drop_systems", "median", "impute"), "pairwise"),
}

_MISSING_HELP = {
    "auto": "every rule runs: majority rules and Kemeny pairwise, positional rules impute, score rules median",
    "pairwise": "each pair compared on the tasks both systems are scored on",
    None: "the rule's own policy, or an error naming the missing cells",
}


def _coverage_options(parser: argparse.ArgumentParser, command: str) -> None:
    choices, default = MISSING_CHOICES[command]
    group = parser.add_argument_group("missing scores and coverage")
    group.add_argument("--missing", choices=choices, default=default,
                       help=f"what to do with missing scores (default: {default or 'none'}: {_MISSING_HELP[default]}; "
                       "drop_tasks/drop_systems: drop every task/system with a hole; impute: imputation by "
                       "compatible permutations; median: each task's missing scores set to its median)")
    group.add_argument("--min-coverage", type=_share, metavar="F",
                       help="set aside (list, never rank) systems whose coverage is below F (0..1): the smaller of the "
                       "share of the task weight scored and the share of rivals compared with (default: 0.5 for analyze, "
                       "report, compare, rank, kemeny, prospective; 0 ranks every system that shares a task with another)")
    if command in ("analyze", "prospective"):
        group.add_argument("--all-tasks", action="store_true",
                           help="prospective weights may rest on tasks a system was not scored on "
                           "(default: weight 0 on those tasks)")


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be a level between 0 and 1 (e.g. 0.05), got {text!r}")
    return value


def _noise_options(parser: argparse.ArgumentParser, *, command: bool = False, seeded: bool = True) -> None:
    """The options of differences within noise: ``--significance [LEVEL]`` on a rule's command,
    ``--level`` on ``consensus significance``; the correction, test and seed on both."""
    group = parser.add_argument_group("differences within noise")
    if command:
        group.add_argument("--level", type=_level, default=0.05, metavar="P",
                           help="a pair differs when its adjusted p-value is at most P (default 0.05)")
    else:
        group.add_argument("--significance", type=_level, nargs="?", const=0.05, metavar="LEVEL",
                           help="differences within noise are ties (at LEVEL, default 0.05): majority rules and "
                           "Kemeny count a task for a pair only where the pair differs significantly, positional "
                           "rules rank each task's tie groups, score rules are unchanged; noise from the file's "
                           "standard-error columns (qa_stderr, ...) or, with --instances, a paired test per item")
    group.add_argument("--correction", choices=("holm", "bh", "none"),
                       help="over the pairs of each task: holm (default; family-wise error), bh (Benjamini-Hochberg, "
                       "false discovery rate) or none")
    group.add_argument("--test", choices=("auto", "z", "sign", "permutation"),
                       help="z (standard errors; the default for a leaderboard), sign (exact; McNemar on 0/1 "
                       "instance scores) or permutation (paired sign flips); auto picks per task")
    group.add_argument("--resamples", type=_count, metavar="N",
                       help="sign patterns of the permutation test (default 10000)")
    if seeded:  # analyze's --seed is the gumbel example's; its permutation tests use seed 0
        group.add_argument("--seed", dest="noise_seed", type=_count, metavar="N",
                           help="seed of the permutation test (default 0)")
    else:
        parser.set_defaults(noise_seed=None)


def _solve_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("solving")
    group.add_argument("--time-limit", type=_positive, metavar="S",
                       help="stop the Kemeny solve after S seconds (reports the gap)")
    group.add_argument("--solver", default="highs", help="MILP back-end (default: highs)")


def _target(text: str) -> str:
    """An argparse type: ``winner``, ``ranking`` or ``topK`` (K a whole number >= 1)."""
    value = text.strip().lower()
    if value in ("winner", "ranking") or (value.startswith("top") and value[3:].isdigit() and int(value[3:]) >= 1):
        return value
    raise argparse.ArgumentTypeError(f"expected winner, ranking or topK (e.g. top3), got {text!r}")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _whole(minimum: int, requirement: str) -> Callable[[str], int]:
    """An argparse type: a whole number >= `minimum` (`requirement` says so in the error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{requirement}, got {text!r}")
        return value

    return parse


_count = _whole(0, "must be 0 or more (0: every row)")
_seed = _whole(0, "must be 0 or more")
_systems = _whole(2, "needs at least 2 systems")
_one_k = _whole(1, "every k must be >= 1")


def _k_list(text: str) -> list[int]:
    values = [part.strip() for part in text.split(",") if part.strip()]
    if not values:
        raise argparse.ArgumentTypeError("give one or more whole numbers >= 1, e.g. 1,3,5")
    try:
        return [_one_k(part) for part in values]
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (e.g. --k 1,3,5)") from None


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a share between 0 and 1, got {text!r}")
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text!r}")
    return value


def _analysis_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``analyze`` and ``report``: input, built-in examples, rules, coverage, solver."""
    _input_options(parser, file_required=False)
    ex = parser.add_argument_group("built-in examples (without FILE)")
    ex.add_argument("--example", metavar="NAME", help="votenrank-toy (default), colombo-table1 or gumbel")
    ex.add_argument("--list-examples", action="store_true", help="list the built-in examples and exit")
    ex.add_argument("--n", type=_systems, metavar="N", help="gumbel: number of systems (default 20)")
    ex.add_argument("--phi", type=float, help="gumbel: dispersion phi (default 0.05)")
    ex.add_argument("--seed", type=_seed, help="gumbel: random seed (default 0)")
    parser.add_argument("--rules", metavar="R,...", help="rules to compare (default: the nine usual ones)")
    parser.add_argument("--weak", action="store_true", help="prospective systems as weak Condorcet winners")
    parser.add_argument("--no-prospective", action="store_true", help="skip the prospective-systems section")
    _coverage_options(parser, "analyze")
    _solve_options(parser)
    _noise_options(parser, seeded=False)


def build_parser() -> argparse.ArgumentParser:
    """Build the ``consensus`` argument parser (subcommands and their options).

    Every subcommand (``analyze``, ``rank``, ``kemeny``, ``prospective``, ``compare``,
    ``impute``) sets ``handler`` to its ``cmd_*`` function of :mod:`.commands`; parse
    errors raise :class:`~consensus.cli.args.UsageError` instead of exiting.

    Returns
    -------
    argparse.ArgumentParser
        A :class:`~consensus.cli.args.CliParser`.

    Examples
    --------
    >>> args = build_parser().parse_args(["rank", "scores.csv", "--rule", "borda", "--missing", "drop_tasks"])
    >>> args.rule, args.missing, args.handler.__name__
    ('borda', 'drop_tasks', 'cmd_rank')
    """
    from .. import __version__

    parser = CliParser(
        prog=PROG,
        description="Exact answers for multi-task leaderboards: Condorcet winners, prospective systems, "
        "the exact Kemeny ranking, and how far the usual rules land from them.",
        epilog="Run 'consensus analyze' for a self-checking report on a built-in example.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CliParser)
    sub.required = True

    p = sub.add_parser("analyze", help="full report (no FILE: a built-in example)",
                       description="The full report: the table as read, the majority graph, the exact Kemeny "
                       "ranking, every rule side by side with rank changes, the comparison table and the "
                       "prospective systems. Without FILE it analyzes a built-in example and checks the "
                       "published values (exit code 1 if a check fails).")
    _analysis_options(p)
    _output_options(p)
    p.set_defaults(handler=cmd_analyze)

    p = sub.add_parser("report", help="the analysis as one self-contained HTML page",
                       description="The analysis of 'consensus analyze' as one HTML file to publish: summary "
                       "first, the figure, every table (sortable, nothing cut), the certificates, coverage and "
                       "policy notes. No network needed to view it. Without FILE: a built-in example.")
    _analysis_options(p)
    group = p.add_argument_group("output")
    group.add_argument("--output", "-o", metavar="PATH.html", help="write the page to PATH instead of stdout")
    group.add_argument("--title", help="page title (default: 'consensus report: SOURCE')")
    group.add_argument("--no-figure", action="store_true", help="leave the figure out (it needs matplotlib)")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress indicator or notes on stderr")
    p.set_defaults(handler=cmd_report)

    p = sub.add_parser("inspect", help="how FILE is read: tasks, columns set aside, directions",
                       description="Only how FILE is read, nothing ranked: which columns are tasks, which were set "
                       "aside and why (an aggregate, a rank, a duplicate, not a score, a standard error), the "
                       "direction of each task and why, with the flag that reverses each decision.")
    _input_options(p, file_required=True)
    group = p.add_argument_group("output")
    group.add_argument("--format", choices=("table", "json"), default="table", help="output format (default: table)")
    group.add_argument("--output", "-o", metavar="PATH", help="write the output to PATH instead of stdout")
    group.add_argument("--top", type=_count, default=20, metavar="N",
                       help="at most N decisions and names per list (default 20; 0: all)")
    p.set_defaults(handler=cmd_inspect, quiet=True)  # the notes are the output

    p = sub.add_parser("rank", help="rank with one voting rule", description="Rank the systems with one rule.")
    _input_options(p, file_required=True)
    p.add_argument("--rule", required=True, metavar="R",
                   help=", ".join(RULE_NAMES))
    _coverage_options(p, "rank")
    p.add_argument("--tie-break", choices=("mean", "lexicographic"), help="split tied systems")
    p.add_argument("--option", metavar="KEY=VALUE", action="append",
                   help="a rule option, e.g. --option variant=winning_votes (repeatable)")
    _noise_options(p)
    _output_options(p)
    p.set_defaults(handler=cmd_rank)

    p = sub.add_parser("kemeny", help="the exact Kemeny ranking",
                       description="The exact Kemeny consensus (ILP), with its status and bound.")
    _input_options(p, file_required=True)
    _coverage_options(p, "kemeny")
    _solve_options(p)
    group = p.add_argument_group("several optima")
    group.add_argument("--enumerate-optima", type=_count, default=0, metavar="N",
                       help="list up to N optimal rankings (0: none, the default); when all fit, which positions "
                       "are interchangeable follows from them")
    group.add_argument("--determined", action="store_true",
                       help="prove which positions and pairs are the same in every optimal ranking (free when the "
                       "optimum is unique; else extra solves)")
    group.add_argument("--weak-order", action="store_true",
                       help="the consensus with ties: the closest weak order (Kemeny-Snell distance)")
    _noise_options(p)
    _output_options(p)
    p.set_defaults(handler=cmd_kemeny)

    p = sub.add_parser("significance", help="which systems differ beyond noise on each task: tie groups",
                       description="For each task and pair of systems, whether one is better beyond noise: a z-test "
                       "from the file's standard-error columns, or with --instances a paired test on the items both "
                       "systems have (exact sign test, McNemar's on 0/1 scores; or paired permutation), corrected "
                       "over the pairs of each task. Shows each task's tie groups; JSON holds every pair.")
    _input_options(p, file_required=True)
    _noise_options(p, command=True)
    p.add_argument("--min-coverage", type=_share, metavar="F",
                   help="set aside (list, never group) systems whose coverage is below F (0..1), as every ranking "
                   "question does (default: the same rule as rank; 0 keeps every system)")
    _output_options(p)
    p.set_defaults(handler=cmd_significance)

    p = sub.add_parser("prospective", help="which systems can win under some task weights",
                       description="Systems that can become Condorcet winners (or, with --rule, score highest "
                       "under a linear rule) under some task weights; with --system, the weights that make one "
                       "system win, or a certificate that none can.")
    _input_options(p, file_required=True)
    p.add_argument("--rule", default="condorcet", metavar="R",
                   help="condorcet (default), or a linear rule: " + ", ".join(LINEAR_RULE_NAMES))
    p.add_argument("--option", metavar="KEY=VALUE", action="append",
                   help="a rule option: ties=min, vector=[3,2,1] (scoring), normalize=minmax (mean); repeatable")
    p.add_argument("--system", metavar="S", help="one system: its best weights and margin, or a certificate")
    p.add_argument("--weak", action="store_true", help="weak Condorcet winner (beat or tie every rival)")
    p.add_argument("--min-weight", type=_non_negative, metavar="W", help="lower bound on every normalized weight")
    p.add_argument("--max-weight", type=_non_negative, metavar="W", help="upper bound on every normalized weight")
    p.add_argument("--nearest", action="store_true",
                   help="with --system: the winning weights nearest to the given (default: equal) weights")
    _coverage_options(p, "prospective")
    _output_options(p)
    p.set_defaults(handler=cmd_prospective)

    p = sub.add_parser("sensitivity", help="how far the official weights are from changing the winner",
                       description="The smallest change of the official task weights (L1 and L-infinity) that "
                       "changes the winner, the top k or the ranking of a rule, and the fewest tasks whose "
                       "removal does; each answer verified by running the rule.")
    _input_options(p, file_required=True)
    p.add_argument("--rule", default="mean", metavar="R",
                   help="mean (default), a linear rule (" + ", ".join(LINEAR_RULE_NAMES) + "), condorcet (the "
                   "Condorcet winner) or kemeny (lower bounds from the majority relation)")
    p.add_argument("--target", type=_target, default="winner", metavar="T",
                   help="winner (default), topK (e.g. top3: the set of the first K) or ranking")
    p.add_argument("--option", metavar="KEY=VALUE", action="append",
                   help="a rule option: ties=min, vector=[3,2,1] (scoring), normalize=minmax (mean); repeatable")
    p.add_argument("--min-weight", type=_non_negative, metavar="W", help="lower bound on every new normalized weight")
    p.add_argument("--max-weight", type=_non_negative, metavar="W", help="upper bound on every new normalized weight")
    p.add_argument("--solver", default="highs", help="LP back-end (default: highs)")
    _coverage_options(p, "sensitivity")
    _output_options(p)
    p.set_defaults(handler=cmd_sensitivity)

    p = sub.add_parser("possible", help="who can still win, whatever the missing scores hold",
                       description="Possible and necessary winners over every completion of the missing scores "
                       "(docs/possible.md): who is first under some completion, who under every one, a witness "
                       "completion for each possible winner and the rivals in the way of the others.")
    _input_options(p, file_required=True)
    p.add_argument("--rule", choices=("mean", "normalized_mean", "condorcet", "borda", "copeland", "minimax", "kemeny",
                                      "plurality", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision"),
                   default="mean", help="mean (default) or normalized_mean (a missing cell within its task's bounds), "
                   "condorcet, borda, copeland, minimax, kemeny or another positional rule (any position, ties "
                   "included; kemeny: certified bounds at any size, exact on small boards, the rest reported undecided)")
    p.add_argument("--option", metavar="KEY=VALUE", action="append",
                   help="the rule's options: normalized_mean baseline=V or a JSON object '{\"TASK\": V}', maximum=..., "
                   "clip=false; minimax variant=margins; positional rules ties=min|max, scoring vector=[3,1] "
                   "(repeatable)")
    p.add_argument("--ranges", action="store_true",
                   help="each system's best and worst position over every completion instead (mean, normalized_mean, "
                   "borda, copeland, minimax or another positional rule; --plot draws them)")
    p.add_argument("--time-limit", type=_positive, default=5.0, metavar="S",
                   help="borda, copeland, minimax, the other positional rules: seconds for each system's integer "
                   "programs before it is reported undecided (default: 5)")
    p.add_argument("--budget", type=_positive, metavar="S",
                   help="borda, copeland, minimax, the other positional rules: seconds for the whole question; once "
                   "spent, only the bounds and greedy completions still decide (default: none)")
    p.add_argument("--pivotal", action=argparse.BooleanOptionalAction, default=None,
                   help="borda, copeland, minimax, the other positional rules: search the cells that can still change who can win (a search per "
                   "possible winner, cell and position; often several times the rest); default: up to 20 systems, "
                   "--budget bounds the whole question")
    p.add_argument("--bounds", metavar="TASK=LOW:HIGH", action="append",
                   help="mean: the values a missing cell of TASK may take, in its own units (default: the task's "
                   "observed range); repeatable")
    _output_options(p)
    p.set_defaults(handler=cmd_possible)

    p = sub.add_parser("compare", help="every rule against the exact Kemeny ranking",
                       description="Kendall tau and distance, Kemeny objective gap, Condorcet winner, "
                       "top-k/least-k agreement, tie groups and task dispersion of every rule.")
    _input_options(p, file_required=True)
    p.add_argument("--rules", metavar="R,...", help="rules to compare (default: the nine usual ones)")
    p.add_argument("--baseline", default="mean", help="rule rank changes refer to (default: mean)")
    p.add_argument("--k", type=_k_list, metavar="K,...", help="k of the top-k/least-k agreement (default: 1,3,5)")
    _coverage_options(p, "compare")
    _solve_options(p)
    _noise_options(p)
    _output_options(p)
    p.set_defaults(handler=cmd_compare)

    p = sub.add_parser("impute", help="imputed pairwise matrix and confidence intervals (missing scores)",
                       description="The pairwise matrix with missing scores imputed (Himmi et al. 2023) and "
                       "Hoeffding confidence intervals for every pair.")
    _input_options(p, file_required=True)
    p.add_argument("--delta", type=_positive, default=0.05, metavar="D",
                   help="confidence intervals hold with probability 1 - D (default 0.05)")
    p.add_argument("--levels", type=int, choices=(1, 2), default=1,
                   help="1: one-level aggregation; 2: two-level (instance-level data)")
    _output_options(p)
    p.set_defaults(handler=cmd_impute)

    p = sub.add_parser("stability", help="how sure is the ranking: rank intervals from resampled tasks or instances",
                       description="Resample the tasks (bootstrap or leave-k-out) or, for instance-level scores, "
                       "the instances within each task; rank every resample with each rule and report per system "
                       "its rank interval, P(first), P(top k), the systems not separable from the top, and how "
                       "often adjacent systems keep their order. Kemeny is exact in every resample (warm-started; "
                       "resamples that hit --time-limit are reported).")
    _input_options(p, file_required=False, file_help="scores file (or --example NAME)")
    p.add_argument("--example", metavar="NAME", help="instead of FILE: a built-in example or published leaderboard "
                   "(consensus analyze --list-examples)")
    _resampling_options(p, "--resamples", "resamples (default 1000)", 1000)
    p.add_argument("--resampling", choices=("bootstrap", "leave_k_out", "instances"), default="bootstrap",
                   help="bootstrap of tasks (default), leave_k_out (drop --k random tasks), or instances "
                   "(bootstrap of the instances within each task; needs --instances)")
    p.add_argument("--k", type=int, metavar="K", help="leave_k_out: tasks dropped per resample (default 1)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="a system ranked first in at least this share of resamples is not separable from the top "
                   "(default 0.05)")
    p.add_argument("--top-k", type=int, default=3, metavar="K", help="report P(top K) (default 3)")
    p.add_argument("--level", type=float, default=0.95, help="coverage of the rank interval (default 0.95)")
    _output_options(p)
    p.set_defaults(handler=cmd_stability)

    p = sub.add_parser("experiment", help="robustness experiments of the papers, for any rules",
                       description="manipulation (tasks' rankings reversed), scaling (one task multiplied), "
                       "task-removal (random subsets of tasks), missing (a share of scores removed) and iia "
                       "(systems added one at a time, Vote'n'Rank Table 2), on FILE or on synthetic Gumbel "
                       "scores; one row per repetition x rule x setting.")
    p.add_argument("name", choices=tuple(EXPERIMENTS), metavar="NAME", help=", ".join(EXPERIMENTS))
    _input_options(p, file_required=False, file_help="scores file (or --example NAME, or --synthetic N,T,PHI)")
    p.add_argument("--example", metavar="NAME", help="instead of FILE: a built-in example or published leaderboard "
                   "(votenrank-glue, votenrank-superglue, ...: consensus analyze --list-examples)")
    p.add_argument("--synthetic", metavar="N,T,PHI",
                   help="instead of FILE: a fresh Gumbel leaderboard per repetition (systems, tasks, dispersion)")
    _resampling_options(p, "--repetitions", "repetitions (default 100)", 100)
    p.add_argument("--settings", metavar="V,...",
                   help="the values varied: manipulation t (tasks reversed; default 1,2,3,5), scaling lambda "
                   "(default 0.5,2,5,10), task-removal tasks kept (default T/4,T/2,3T/4), missing eta (default "
                   "0.1,0.2,0.3,0.4)")
    _output_options(p)
    p.set_defaults(handler=cmd_experiment)
    return parser


def _resampling_options(parser: argparse.ArgumentParser, count: str, count_help: str, default: int) -> None:
    """Options shared by ``stability`` and ``experiment``: rules, count, seed, scheduler."""
    group = parser.add_argument_group("repetitions")
    group.add_argument("--rules", metavar="R,...", help="rules (default: mean,borda,copeland,minimax,kemeny; "
                       "experiment iia: the eight rules of Vote'n'Rank Table 2)")
    group.add_argument(count, type=int, default=default, metavar="R", help=count_help)
    group.add_argument("--seed", dest="master_seed", type=int, default=0, metavar="S", help="master seed; repetition r uses SeedSequence(seed).spawn(R)[r] "
                       "(default 0)")
    group.add_argument("--time-limit", type=_positive, default=10.0, metavar="S",
                       help="seconds per Kemeny solve (default 10; a resample past it keeps the best ranking found "
                       "and is reported)")
    group.add_argument("--scheduler", metavar="S",
                       help="none (default: this process), processes (a local Dask cluster on all cores; the 'dask' "
                       "extra) or tcp://host:port (a running Dask scheduler); the same table either way")
    group.add_argument("--n-jobs", type=int, metavar="N", help="--scheduler processes: worker processes (default: all cores)")
