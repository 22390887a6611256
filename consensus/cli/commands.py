"""One function per subcommand: load the data, call the library, render the result. No analysis here."""

from __future__ import annotations

import argparse
from typing import Any

from .._docstrings import fill_doc
from .args import (
    COMMAND_DOCS,
    EXIT_CHECK_FAILED,
    EXIT_OK,
    UsageError,
    is_leaderboard,
    note,
    option_value,
    progress_for,
    split_names,
)
from .loading import load
from .output import deliver, emit, save_plot


@fill_doc(COMMAND_DOCS)
def cmd_analyze(args: argparse.Namespace) -> int:
    """Run ``consensus analyze``: the full self-checking report on FILE or a built-in example.

    With ``--list-examples`` it only lists the built-in examples. Otherwise it loads the
    data (instance-level scores averaged per task), runs :func:`consensus.comparison._analysis.analyze`
    with ``--rules`` (default: ``consensus.comparison._compare.DEFAULT_RULES``), renders the report in
    ``--format`` to stdout or ``--output`` and saves ``--plot``.

    Parameters
    ----------
    {args}

    Returns
    -------
    int
        0, or 1 when a check of the published values fails (``analysis.checks_ok`` is
        False).

    Raises
    ------
    UsageError
        Conflicting or malformed options, or ``--output``/``--plot`` cannot be written.
    ConsensusError
        Bad scores, an unknown rule or example, or a failed solve
        (:func:`consensus.cli.main` prints it as one line and returns 2).

    Examples
    --------
    >>> from consensus.cli import build_parser
    >>> cmd_analyze(build_parser().parse_args(["analyze", "--list-examples"]))  # doctest: +ELLIPSIS
    votenrank-toy        Rofin et al. 2023 (Vote'n'Rank), appendix A.1, Table 6: ...
    colombo-table1       ...
    gumbel               ...
    votenrank-glue       GLUE as in Rofin et al. 2023 (Vote'n'Rank), Table 2: ...
    votenrank-superglue  ...
    votenrank-value      ...
    0
    """
    from ..report import render

    if args.list_examples:
        return _list_examples(args)
    analysis = _analysis(args)
    emit(args, render(analysis, format=args.format, command="analyze", top=args.top))

    def figure() -> Any:
        from ..plot import plot_analysis

        return plot_analysis(analysis, top=args.top or None)

    save_plot(args, figure)
    return EXIT_OK if analysis.checks_ok else EXIT_CHECK_FAILED


def _list_examples(args: argparse.Namespace) -> int:
    """``--list-examples``: the built-in examples and published leaderboards, one per line."""
    from ..datasets import list_examples

    rows = [(e.name, e.description) for e in list_examples(leaderboards=True)]
    width = max(len(name) for name, _ in rows)
    emit(args, "".join(f"{name.ljust(width)}  {text}\n" for name, text in rows))
    return EXIT_OK


def _analysis(args: argparse.Namespace) -> Any:
    """The :class:`~consensus.results.Analysis` of ``analyze`` and ``report``, from the parsed options."""
    from ..comparison._analysis import analyze

    table, source, example = load(args, leaderboard=args.significance is None)
    table, noise = _with_noise(args, table)
    progress = progress_for(args, "Kemeny consensus")
    try:
        return analyze(
            table,
            source=source,
            example=example,
            rules=split_names(args.rules) if args.rules else _default_rules(),
            time_limit=args.time_limit,
            solver=args.solver,
            progress=progress,
            prospective=not args.no_prospective,
            strict=not args.weak,
            missing=args.missing,
            min_coverage=args.min_coverage,
            scored_tasks_only=not args.all_tasks,
            significance=noise,
        )
    finally:
        if progress:
            progress.close()


def cmd_report(args: argparse.Namespace) -> int:
    """Run ``consensus report``: the analysis of ``analyze`` as one self-contained HTML page.

    Parameters
    ----------
    args : argparse.Namespace
        The options parsed by :func:`consensus.cli.build_parser` for ``report`` (those of
        ``analyze`` plus ``--output``, ``--title`` and ``--no-figure``).

    Returns
    -------
    int
        0, or 1 when a check of a built-in example's published values fails (the page
        shows the mismatch).

    Raises
    ------
    UsageError
        Conflicting or malformed options, or ``--output`` cannot be written.
    ConsensusError
        Bad scores, an unknown rule or example, or a failed solve.

    Examples
    --------
    >>> import tempfile, os
    >>> from consensus.cli import build_parser
    >>> path = os.path.join(tempfile.mkdtemp(), "report.html")
    >>> cmd_report(build_parser().parse_args(["report", "-o", path, "--no-figure", "--quiet"]))
    0
    >>> open(path, encoding="utf-8").read().startswith("<!DOCTYPE html>")
    True
    """
    from ..report.html import render_html

    if args.list_examples:
        return _list_examples(args)
    analysis = _analysis(args)
    emit(args, render_html(analysis, figure=not args.no_figure, title=args.title, cli=True))
    return EXIT_OK if analysis.checks_ok else EXIT_CHECK_FAILED


def _default_rules() -> list[str]:
    from ..comparison._compare import DEFAULT_RULES

    return list(DEFAULT_RULES)


def _given_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--option KEY=VALUE`` (repeatable) as a dict, each value parsed by :func:`option_value`."""
    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"--option: expected KEY=VALUE, got {item!r}")
        if key in options:
            raise UsageError(f"--option {key!r} is given twice")
        options[key] = option_value(value.strip())
    return options


def _rule_options(args: argparse.Namespace) -> dict[str, Any]:
    options = _given_options(args)
    if args.missing:
        options["missing"] = args.missing
    if args.min_coverage is not None:
        options["min_coverage"] = args.min_coverage
    if args.tie_break:
        options["tie_break"] = args.tie_break
    return options


@fill_doc(COMMAND_DOCS)
def cmd_rank(args: argparse.Namespace) -> int:
    """Run ``consensus rank``: rank FILE with one rule (:func:`consensus.rules.rank`).

    Rule options come from ``--option KEY=VALUE`` (VALUE parsed as JSON when it can be,
    dashes in KEY read as underscores), ``--missing`` and ``--tie-break``; the result is
    rendered in ``--format`` to stdout or ``--output``, and ``--plot`` saves the scores.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        A malformed ``--option`` or reading option, or ``--output``/``--plot`` cannot be
        written.
    ConsensusError
        Bad scores, an unknown rule or option, or missing scores without ``--missing``
        (:func:`consensus.cli.main` prints it as one line and returns 2).
    """
    from ..rules import rank

    table, source, _ = load(args, leaderboard=args.significance is None)
    table, noise = _with_noise(args, table)
    options = _rule_options(args)
    if noise is not None:
        options["significance"] = noise
    result = rank(table, args.rule, **options)
    return deliver(args, result, table, source, ("plot_scores", lambda plot: plot(result)))


def _noise_of(args: argparse.Namespace, data: Any, level: float) -> Any:
    """:func:`consensus.significance` of `data` with the command's options (unset: its defaults)."""
    from ..noise._significance import significance

    given = {"correction": args.correction, "test": args.test, "resamples": args.resamples, "seed": args.noise_seed}
    return significance(data, level=level, **{k: v for k, v in given.items() if v is not None})


def _with_noise(args: argparse.Namespace, data: Any) -> tuple[Any, Any]:
    """(`data` as a leaderboard, the significance result) under ``--significance``; else
    (`data`, None). Instance-level scores are tested item by item, then averaged per task."""
    if args.significance is None:
        given = [flag for flag, value in (("--correction", args.correction), ("--test", args.test),
                                          ("--resamples", args.resamples), ("--seed", args.noise_seed))
                 if value is not None]
        if given:
            raise UsageError(f"{', '.join(given)} apply only with --significance")
        return data, None
    noise = _noise_of(args, data, args.significance)
    if not is_leaderboard(data):
        note(args, "instance-level scores averaged per task (InstanceScores.to_leaderboard); the tests ran per item")
        data = data.to_leaderboard()
    return data, noise


@fill_doc(COMMAND_DOCS)
def cmd_significance(args: argparse.Namespace) -> int:
    """Run ``consensus significance``: per task, which systems differ beyond noise (:func:`consensus.significance`).

    A leaderboard's systems with too little coverage are set aside first (``--min-coverage``, the
    default rule of every ranking question, said in a note), so the relation and the row groups
    shown are those ``rank --significance`` uses.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        A malformed reading option, or ``--output`` cannot be written.
    ConsensusError
        Bad scores, a scored cell without a standard error, or a test the data cannot run
        (:func:`consensus.cli.main` prints it as one line and returns 2).
    """
    data, source, _ = load(args, leaderboard=False)
    if is_leaderboard(data):  # the systems every ranking question keeps: the relation `rank --significance` reads
        from ..hints import cli_of
        from ..missing._preparation import prepared_for

        covered = prepared_for(data, "significance", min_coverage=args.min_coverage)
        for text in covered.preparation.notes:
            note(args, cli_of(text))
        data = covered.leaderboard
    result = _noise_of(args, data, args.level)
    return deliver(args, result, data if is_leaderboard(data) else None, source,
                   ("plot_significance", lambda plot: plot(result)))


@fill_doc(COMMAND_DOCS)
def cmd_kemeny(args: argparse.Namespace) -> int:
    """Run ``consensus kemeny``: the exact Kemeny consensus of FILE (:func:`consensus.kemeny`).

    Instance-level scores (``--instances``) are used as they are. Solves with
    ``--time-limit`` and ``--solver``, showing progress on stderr unless ``--quiet``;
    renders the result in ``--format`` and ``--plot`` saves the majority graph.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    {usage_error}
    ConsensusError
        Bad scores, an unknown or unavailable solver, or a failed solve
        (:func:`consensus.cli.main` prints it as one line and returns 2).
    """
    data, source, _ = load(args, leaderboard=False)
    from ..exact._kemeny import kemeny

    data, noise = _with_noise(args, data)
    progress = progress_for(args, "Kemeny consensus")
    options: dict[str, Any] = {"time_limit": args.time_limit, "solver": args.solver, "missing": args.missing,
                               "min_coverage": args.min_coverage, "enumerate_optima": args.enumerate_optima,
                               "determine": True if args.determined else None, "weak_order": args.weak_order,
                               "significance": noise}
    if progress is not None:
        options["progress"] = progress
    try:
        result = kemeny(data, **options)
    finally:
        if progress:
            progress.close()
    table = data if is_leaderboard(data) else None
    return deliver(args, result, table, source, ("plot_majority_graph", lambda plot: plot(data, ranking=result.order)))


@fill_doc(COMMAND_DOCS)
def cmd_prospective(args: argparse.Namespace) -> int:
    """Run ``consensus prospective``: which systems can win under some task weights.

    Without ``--system``: :func:`consensus.prospective` over every system (``--plot``: the
    best smallest margins). With ``--system``: :func:`consensus.condorcet_weights` for it,
    with ``nearest_to="leaderboard"`` under ``--nearest`` (``--plot``: the weights).
    ``--weak`` asks for weak Condorcet winners; ``--min-weight`` and ``--max-weight``
    bound every weight.

    Parameters
    ----------
    {args}

    Returns
    -------
    int
        0 (a system that can never win is an answer, not an error).

    Raises
    ------
    UsageError
        ``--nearest`` without ``--system``, a malformed reading option, or
        ``--output``/``--plot`` cannot be written.
    ConsensusError
        Bad scores, an unknown ``--system``, or a failed solve (:func:`consensus.cli.main`
        prints it as one line and returns 2).
    """
    from ..exact._prospective import prospective
    from ..exact._winning import winning_weights

    table, source, _ = load(args, leaderboard=True)
    bounds: dict[str, Any] = {"missing": args.missing, "scored_tasks_only": not args.all_tasks}
    if args.min_coverage is not None:  # else each question's own default (prospective: set aside; --system: keep all)
        bounds["min_coverage"] = args.min_coverage
    if args.rule != "condorcet" or args.option:
        bounds.update(rule=args.rule, **_weight_rule_options(args))
    bounds["constraints"] = {"min_weight": args.min_weight, "max_weight": args.max_weight}
    if args.system is None:
        if args.nearest:
            raise UsageError("--nearest needs --system (the weights nearest to the official ones for one system)")
        answer = prospective(table, strict=not args.weak, **bounds)
        what = "best smallest margin" if args.rule == "condorcet" else f"best smallest {args.rule} margin"
        margins = answer.to_frame().set_index("system")["margin"].sort_values(ascending=False, kind="stable")
        return deliver(args, answer, table, source,
                       ("plot_bars", lambda plot: plot(margins, title=f"prospective systems: {what}")))
    if args.nearest:
        bounds["nearest_to"] = "leaderboard"
    result = winning_weights(table, args.system, strict=not args.weak, **{"rule": "condorcet", **bounds})
    return deliver(args, result, table, source, ("plot_condorcet_weights", lambda plot: plot(result, table=table)))


def _weight_rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--option KEY=VALUE`` of ``prospective`` / ``sensitivity``: the rule's own options only."""
    options = _given_options(args)
    for key, parsed in options.items():
        if key not in ("ties", "vector", "normalize"):
            raise UsageError(f"--option {key!r}: the options here are ties, vector (scoring) and normalize (mean)")
        options[key] = tuple(parsed) if isinstance(parsed, list) else parsed
    return options


@fill_doc(COMMAND_DOCS)
def cmd_sensitivity(args: argparse.Namespace) -> int:
    """Run ``consensus sensitivity``: how far the official weights are from changing the target.

    :func:`consensus.weight_sensitivity` with ``--rule``, ``--target`` (``winner``, ``topK``,
    ``ranking``), ``--option`` (the rule's ``ties`` / ``vector`` / ``normalize``),
    ``--min-weight`` / ``--max-weight`` (bounds on the new weights), ``--missing`` and
    ``--min-coverage``; ``--plot`` saves the weight change per task.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        A malformed option, or ``--output``/``--plot`` cannot be written.
    ConsensusError
        Bad scores, a rule or target that does not apply, or a failed solve.
    """
    from ..exact._sensitivity import weight_sensitivity

    table, source, _ = load(args, leaderboard=True)
    options: dict[str, Any] = {"missing": args.missing, "solver": args.solver, **_weight_rule_options(args)}
    if args.min_coverage is not None:  # else weight_sensitivity's default: every rival kept
        options["min_coverage"] = args.min_coverage
    options["constraints"] = {"min_weight": args.min_weight, "max_weight": args.max_weight}
    result = weight_sensitivity(table, rule=args.rule, target=args.target, **options)
    return deliver(args, result, table, source, ("plot_weight_sensitivity", lambda plot: plot(result)))


@fill_doc(COMMAND_DOCS)
def cmd_compare(args: argparse.Namespace) -> int:
    """Run ``consensus compare``: every rule against the exact Kemeny ranking (:func:`consensus.compare_rules`).

    Uses ``--rules`` (default: ``consensus.comparison._compare.DEFAULT_RULES``), ``--baseline`` and
    ``--k`` (default 1, 3, 5); ``--plot`` saves the rank changes.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    {usage_error}
    ConsensusError
        Bad scores, an unknown rule, or a failed Kemeny solve (:func:`consensus.cli.main`
        prints it as one line and returns 2).
    """
    from ..comparison._compare import compare_rules

    table, source, _ = load(args, leaderboard=args.significance is None)
    table, noise = _with_noise(args, table)
    ks = args.k or [1, 3, 5]
    progress = progress_for(args, "Kemeny consensus")
    try:
        comparison = compare_rules(
            table,
            rules=split_names(args.rules) if args.rules else _default_rules(),
            baseline=args.baseline,
            ks=ks,
            time_limit=args.time_limit,
            solver=args.solver,
            progress=progress,
            missing=args.missing,
            min_coverage=args.min_coverage,
            significance=noise,
        )
    finally:
        if progress:
            progress.close()
    return deliver(args, comparison, table, source, ("plot_rank_changes", lambda plot: plot(comparison, top=args.top or None)))


@fill_doc(COMMAND_DOCS)
def cmd_impute(args: argparse.Namespace) -> int:
    """Run ``consensus impute``: the imputed pairwise matrix and Hoeffding confidence intervals.

    Calls :func:`consensus.missing._impute.impute_pairwise` (``--levels``) and
    :func:`consensus.missing._confidence.pairwise_confidence` (``--delta``) on FILE (instance-level
    scores used as they are), renders both in ``--format``; ``--plot`` saves the
    confidence figure.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    {usage_error}
    ConsensusError
        Bad scores, or ``--delta`` not below 1 (:func:`consensus.cli.main` prints it as one
        line and returns 2).
    """
    from ..missing._confidence import pairwise_confidence
    from ..missing._impute import impute_pairwise

    data, source, _ = load(args, leaderboard=False)
    imputed = impute_pairwise(data, levels=args.levels)
    confidence = pairwise_confidence(data, delta=args.delta)
    table = data if is_leaderboard(data) else None
    return deliver(args, (imputed, confidence), table, source, ("plot_confidence", lambda plot: plot(confidence)))


@fill_doc(COMMAND_DOCS)
def cmd_inspect(args: argparse.Namespace) -> int:
    """Run ``consensus inspect FILE``: only how the file is read (columns, roles, directions), nothing ranked.

    Parameters
    ----------
    args : argparse.Namespace
        The reading options and ``--format`` (``table``, ``markdown`` or ``json``).

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        Conflicting or malformed options.
    ConsensusError
        The file cannot be read as a leaderboard.
    """
    import json

    from ..report.reading import inspect_document, inspect_lines

    data, source, _ = load(args, leaderboard=True)
    if args.format == "json":
        emit(args, json.dumps(inspect_document(data, source), indent=2, ensure_ascii=False) + "\n")
    else:
        emit(args, "\n".join(inspect_lines(data, source, cli=True, top=args.top)) + "\n")
    return EXIT_OK


@fill_doc(COMMAND_DOCS)
def cmd_possible(args: argparse.Namespace) -> int:
    """Run ``consensus possible``: who can still win under the missing scores (:func:`consensus.missing.possible_winners`),
    or with ``--ranges`` each system's rank range (:func:`consensus.missing.rank_ranges`).

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        A malformed ``--bounds`` or reading option, or ``--output``/``--plot`` cannot be written.
    ConsensusError
        Bad scores, or bounds the rule does not take (:func:`consensus.cli.main` prints it as one
        line and returns 2).
    """
    from ..missing._possible import (
        PIVOTAL_SEARCH_SYSTEMS,
        SEARCHED_RULES,
        possible_winners,
    )

    table, source, _ = load(args, leaderboard=True)
    bounds: dict[str, tuple[float, float]] = {}
    for text in args.bounds or ():
        task, sep, span = text.rpartition("=")
        low, colon, high = span.partition(":")
        try:
            pair = (float(low), float(high))
        except ValueError:
            pair = None
        if not sep or not colon or not task or pair is None:
            raise UsageError(f"--bounds takes TASK=LOW:HIGH, got {text!r}")
        if task in bounds:
            raise UsageError(f"--bounds gives task {task!r} twice")
        bounds[task] = pair
    searched = args.rule in SEARCHED_RULES
    limit = args.time_limit if searched else None
    if args.budget is not None and args.ranges:
        raise UsageError("--budget applies to who can still win, not to --ranges")
    if args.pivotal is not None and (args.ranges or not searched):
        raise UsageError("--pivotal and --no-pivotal apply to who can still win under borda, copeland, minimax and the "
                         "other positional rules (the mean and condorcet give the cells that can change it in closed "
                         "form; kemeny does not)")
    if args.ranges:
        from ..missing._possible import rank_ranges

        ranges = rank_ranges(table, args.rule, bounds=bounds or None, time_limit=limit, rule_options=_given_options(args))
        return deliver(args, ranges, table, source, ("plot_rank_ranges", lambda plot: plot(ranges)))
    pivotal = args.pivotal if args.pivotal is not None else table.n_systems <= PIVOTAL_SEARCH_SYSTEMS
    if searched and not pivotal and args.pivotal is None:
        note(args, f"the cells that can still change who can win are not searched above {PIVOTAL_SEARCH_SYSTEMS} "
                   "systems (their searches can take far longer than the question): --pivotal searches them, "
                   "--budget S bounds the whole question")
    result = possible_winners(table, args.rule, bounds=bounds or None, time_limit=limit, rule_options=_given_options(args),
                              budget=args.budget if searched else None, pivotal=pivotal)
    return deliver(args, result, table, source)

