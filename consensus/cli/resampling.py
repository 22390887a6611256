"""``consensus stability`` and ``consensus experiment``: many repetitions, with a progress bar.

Both run a list of seeded repetitions (:mod:`consensus.resampling._repetitions`), in this process or on a
Dask cluster (``--scheduler processes`` or ``--scheduler tcp://host:port``), and show their
progress with tqdm on stderr (``--quiet``: none).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .._docstrings import fill_doc
from .args import COMMAND_DOCS, UsageError, is_leaderboard, split_names
from .loading import load
from .output import deliver

__all__ = ["EXPERIMENTS", "cmd_experiment", "cmd_stability", "parse_synthetic"]

#: ``consensus experiment NAME``: the function of :mod:`consensus.experiments` and the keyword
#: its ``--settings`` values go to (with their type).
EXPERIMENTS: dict[str, tuple[str, str, type]] = {
    "manipulation": ("manipulation", "ts", int),
    "scaling": ("scaling", "lambdas", float),
    "task-removal": ("task_removal", "kept", int),
    "missing": ("missing_scores", "etas", float),
    "iia": ("iia", "", int),
}


@contextmanager
def _bar(args: argparse.Namespace, what: str) -> Iterator[Callable[[int, int], None] | None]:
    """A tqdm progress bar on stderr, fed ``progress(done, total)``; None with ``--quiet``.

    The bar appears at the first report, once the options were checked and the work began:
    an option refused up front prints its error alone."""
    if args.quiet:
        yield None
        return
    from tqdm import tqdm

    bars: list[Any] = []

    def progress(done: int, total: int) -> None:
        if not bars:
            bars.append(tqdm(total=total, desc=f"consensus: {what}", unit="rep", file=sys.stderr, leave=False,
                             dynamic_ncols=True))
        bars[0].total = total
        bars[0].update(done - bars[0].n)  # tqdm redraws at most every mininterval

    try:
        yield progress
    finally:
        for bar in bars:
            bar.close()


def parse_synthetic(text: str) -> dict[str, Any]:
    """``--synthetic N,T,PHI``: the Gumbel model's systems, tasks and dispersion.

    Parameters
    ----------
    text : str
        E.g. ``"20,20,0.05"``.

    Returns
    -------
    dict
        ``n_systems``, ``n_tasks``, ``phi``.

    Raises
    ------
    UsageError
        If `text` is not three comma-separated numbers.

    Examples
    --------
    >>> parse_synthetic("20,10,0.1")
    {'n_systems': 20, 'n_tasks': 10, 'phi': 0.1}
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 3:
            raise ValueError
        return {"n_systems": int(parts[0]), "n_tasks": int(parts[1]), "phi": float(parts[2])}
    except ValueError:
        raise UsageError(f"--synthetic takes N,T,PHI (systems, tasks, dispersion), e.g. 20,20,0.05; got {text!r}") from None


def _data(args: argparse.Namespace, *, leaderboard: bool) -> tuple[Any, str]:
    """FILE (with the reading options), or ``--example NAME`` (a built-in example or published leaderboard)."""
    if args.example is not None:
        if args.file is not None:
            raise UsageError("give FILE or --example, not both")
        from ..datasets import load_example

        return load_example(args.example), f"example:{args.example}"
    if args.file is None:
        raise UsageError(f"{args.command}: give FILE, --example NAME" + (" or --synthetic N,T,PHI" if
                         args.command == "experiment" else ""))
    data, source, _ = load(args, leaderboard=leaderboard)
    return data, source


def _scheduler(args: argparse.Namespace) -> Any:
    return None if args.scheduler in (None, "none") else args.scheduler


@fill_doc(COMMAND_DOCS)
def cmd_stability(args: argparse.Namespace) -> int:
    """Run ``consensus stability``: rank intervals per rule from resampled tasks or instances.

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
        Bad scores or options (:func:`consensus.cli.main` prints it as one line and returns 2).
    """
    from ..resampling._stability import rank_stability

    data, source = _data(args, leaderboard=False)
    options: dict[str, Any] = {
        "resamples": args.resamples, "resampling": args.resampling, "seed": args.master_seed, "alpha": args.alpha,
        "top_k": args.top_k, "level": args.level, "time_limit": args.time_limit,
        "scheduler": _scheduler(args), "n_jobs": args.n_jobs,
    }
    if args.rules:
        options["rules"] = split_names(args.rules)
    if args.k is not None:
        options["k"] = args.k
    with _bar(args, f"{args.resamples} resamples") as progress:
        result = rank_stability(data, progress=progress, **options)
    table = data if is_leaderboard(data) else None  # coverage warnings for top-set systems scored on few tasks
    return deliver(args, result, table, source, ("plot_stability", lambda plot: plot(result, top=args.top or None)))


@fill_doc(COMMAND_DOCS)
def cmd_experiment(args: argparse.Namespace) -> int:
    """Run ``consensus experiment NAME``: a robustness experiment of :mod:`consensus.experiments`.

    Parameters
    ----------
    {args}

    Returns
    -------
    {exit_zero}

    Raises
    ------
    UsageError
        FILE and ``--synthetic`` both or neither given, malformed ``--settings``, or an
        output that cannot be written.
    ConsensusError
        Bad scores or options (:func:`consensus.cli.main` prints it as one line and returns 2).
    """
    from .. import experiments

    function_name, keyword, kind = EXPERIMENTS[args.name]
    if args.synthetic is not None and (args.file is not None or args.example is not None):
        raise UsageError(f"experiment {args.name}: give FILE, --example NAME or --synthetic N,T,PHI (one of them)")
    options: dict[str, Any] = {
        "repetitions": args.repetitions, "seed": args.master_seed, "scheduler": _scheduler(args), "n_jobs": args.n_jobs,
    }
    if args.rules:
        options["rules"] = split_names(args.rules)
    options["time_limit"] = args.time_limit
    if args.settings:
        if not keyword:
            raise UsageError(f"experiment {args.name} takes no --settings")
        try:
            options[keyword] = [kind(v) for v in split_names(args.settings)]
        except ValueError:
            raise UsageError(f"--settings of {args.name}: {kind.__name__} values, comma-separated; got {args.settings!r}") from None
    if args.synthetic is not None:
        if args.name == "iia":
            raise UsageError("experiment iia ranks a real leaderboard: give FILE")
        data, source = None, "synthetic " + args.synthetic
        options["synthetic"] = parse_synthetic(args.synthetic)
    else:
        data, source = _data(args, leaderboard=True)
        if args.name == "iia":  # the setting column names the leaderboard
            options["label"] = args.example or source
    with _bar(args, f"{args.name}, {args.repetitions} repetitions") as progress:
        result = getattr(experiments, function_name)(data, progress=progress, **options)
    return deliver(args, result, None, source, ("plot_experiment", lambda plot: plot(result)))
