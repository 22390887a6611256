"""Independence of irrelevant alternatives (Vote'n'Rank sec. 3.1, Table 2): systems added one at a time.

A rule satisfies IIA when the relative ranking of two systems never depends on the other
systems on the board. :func:`iia` measures how often a rule violates it on a real
leaderboard: the systems enter the board one at a time, in a random order, and after every
arrival the rule ranks the board again; a *change* is an arrival that changes the ranking of
the systems already there. Rofin et al. (2023, sec. 3.1) report the mean and standard
deviation of the number of changes over 50 random orders (Table 2), next to the rule's
discriminative power (DP) on the full board.

The paper's text and the authors' code (``votenrank/iia_exp.py`` of
github.com/PragmaticsLab/vote_and_rank, which produced Table 2) differ; the decisions:

- **What is compared** (`compare`). ``"order"`` (default, what Table 2 measures): the whole
  ranking of the systems already on the board, before and after each arrival (the new system
  left out). ``"first_two"``: the paper's text, "initialise with two random systems mA, mB,
  add a new random system, check if the rankings of mA and mB have changed": only the
  relation between the first two systems, before and after each arrival.
- **Ties** (`tie_break`). None (default): rankings are compared as weak orders, so a tie that
  appears or disappears between two systems already there is a change; no tie is broken.
  ``"by_name"``: the authors' code, which sorts each ranking by (score, name) in descending
  order, i.e. breaks every tie by system name (the later name first) and compares the
  resulting strict orders; a tie that keeps the name order is then no change, one that
  reverses it is. Tie groups are the rule's own (:func:`consensus.rank`: rule scores within
  its tolerance), not the float comparison of the authors' code, where mathematically equal
  Dowdall scores (``1/3 + 1/6`` against ``1/2`` with weights 0.5) can differ in the last bit,
  depending on the order of the columns: that, and only that, moves Dowdall's Table 2 numbers.
- **How many arrivals** (`add_last`). The board starts with the first two systems of the
  random order; with ``add_last=True`` (default) every other system arrives, ``M - 2``
  comparisons for ``M`` systems. The authors' loop (``range(3, len(models))``) stops before
  the last system, ``M - 3`` comparisons; ``add_last=False`` reproduces it.
- **Randomness.** Repetition ``r`` orders the systems with
  ``numpy.random.default_rng(SeedSequence(seed).spawn(repetitions)[r]).permutation``
  (:func:`consensus.resampling._repetitions.spawn_seeds`), so the table is the same in this process and
  on a Dask cluster. The authors use ``np.random.seed(r)`` and ``np.random.shuffle``: other
  orders, so the means agree within their standard errors, not digit for digit. `orders`
  replays given arrival orders instead (e.g. the authors' own, which gives Table 2 to the
  digit for every rule but Dowdall).
- **Sub-boards.** Each board is the leaderboard restricted to the systems present, in its
  own row order (the arrival order never matters to a rule), with the task weights kept; a
  task no system on the board has scored is left out of that board. Missing scores get each rule's
  own policy (:func:`consensus.rules.auto_missing`) unless `options` name one; an imputed or
  median-filled score depends on the other systems, so such a rule can violate IIA through
  the policy alone.
- **Rule options** are the package's defaults unless `options` says otherwise.
  :data:`VOTENRANK_OPTIONS` holds the variants of the authors' code: Borda and Plurality give
  tied systems the points of the worst shared position (``ties="max"``), Dowdall of the best
  (``ties="min"``), and the optimality gap uses ``gamma=95``: the paper's gamma = 0.95 on
  scores in percent. (With the package's default ``gamma=None``, the best observed score of
  each task on the board, no score exceeds gamma and the gap is the weighted mean minus a
  constant: it ranks as the mean.) Copeland (wins minus losses; the authors' wins plus half
  ties ranks alike) and Minimax (winning votes) are the package's defaults.
- **DP** (column ``ties``): the number of systems minus the number of tie groups in the rule's
  ranking of the full board, i.e. the authors' ``len(ranking) - ranking.nunique()`` (the
  number of systems that share a score with a system ranked above them); with ``ties``,
  ``additions`` (comparisons per repetition) and ``systems`` (``M``) on every row.
- **Geometric mean without two rankable systems.** A system with a score <= 0 on a task of
  positive weight has no geometric mean; the rule ranks it in a final tie group, but refuses a
  board where fewer than two systems have one (SuperGLUE: CBoW and WARP score 0.0 on
  MultiRC_n1, so an early board holding one or both of them and one other system is one).
  There, and only without options for the rule, the experiment extends the rule's own
  convention: the one system with a geometric mean first, the others tied below.
- **Kemeny** is exact (single-threaded, with its uniqueness proof, `time_limit` seconds per
  solve; ``kemeny_status`` says ``"time_limit"`` when a repetition had a solve stopped there).
  When several orders are optimal, the solver returns one of them, so a "change" can be a
  switch between equally good consensus orders; ``kemeny_not_unique`` counts the boards of a
  repetition where Kemeny's optimum was not the only one.

Examples
--------
>>> import consensus as cs
>>> res = iia(cs.load_example("votenrank-toy"), ["mean", "borda"], repetitions=4, seed=0)
>>> res.table.columns.tolist()
['repetition', 'rule', 'leaderboard', 'changes', 'additions', 'ties', 'systems', 'kemeny_status', 'kemeny_not_unique']
>>> res.summary()["max"].tolist()[0]  # the mean of a system's own scores: IIA holds
0
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_count, check_seconds
from ..board._leaderboard import Leaderboard
from ..datasets import load_example
from ..errors import DegenerateTaskWarning, InvalidOptionError, NonPositiveScoreError
from ..io._limits import check_repetitions
from ..resampling._repetitions import check_scheduler, run_repetitions, spawn_seeds
from ..resampling._rule_runs import check_rules, loop_options
from ..results import ExperimentResult
from ..rules.registry import RULE_NAMES, rank
from .perturbations import EXPERIMENT_DOCS, KEMENY_TIME_LIMIT

__all__ = ["VOTENRANK_OPTIONS", "VOTENRANK_RULES", "iia"]

#: The rules of Vote'n'Rank Table 2, in its row order.
VOTENRANK_RULES: tuple[str, ...] = (
    "mean", "geometric_mean", "optimality_gap", "copeland", "minimax", "plurality", "dowdall", "borda",
)

#: The rule variants of the Vote'n'Rank code (``votenrank/leaderboard/_rules.py``) where they
#: differ from the package's defaults, for scores in percent (``gamma=95``).
VOTENRANK_OPTIONS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "optimality_gap": MappingProxyType({"gamma": 95.0}),
    "plurality": MappingProxyType({"ties": "max"}),
    "dowdall": MappingProxyType({"ties": "min"}),
    "borda": MappingProxyType({"ties": "max"}),
})

Compare = Literal["order", "first_two"]
_COMPARE = ("order", "first_two")


Tiers = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class _Job:
    """What one repetition needs (picklable: it may run on a Dask worker)."""

    seed: np.random.SeedSequence | None
    order: tuple[str, ...] | None
    repetition: int
    board: Leaderboard
    rules: tuple[str, ...]
    options: dict[str, dict[str, Any]]
    compare: str
    ties: str
    add_last: bool
    time_limit: float | None


def _sub_board(board: Leaderboard, frame: pd.DataFrame, present: Sequence[str]) -> Leaderboard:
    """`board` (scores `frame`) restricted to `present`, in the board's own row order, without unscored tasks."""
    wanted = set(present)
    rows = [i for i, s in enumerate(board.systems) if s in wanted]
    systems = [board.systems[i] for i in rows]
    with warnings.catch_warnings():  # two or three systems often tie on a task: not news here
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        if not board.has_missing:  # the constructor directly: Leaderboard.select's checks cost twice as much
            return Leaderboard(frame.iloc[rows], lower_is_better=board.lower_is_better,
                               weights=dict(board.weights.items()), groups=board.groups, notes=board.notes)
        scored = frame.loc[systems].notna().any()
        return board.select(systems=systems, tasks=[t for t in board.tasks if scored[t]])


def _without_geometric_mean(board: Leaderboard) -> Tiers:
    """The geometric mean's ranking where fewer than two systems have one (the rule refuses it).

    The rule's own convention, extended: a system with a score <= 0 on a task of positive
    weight has no geometric mean and goes to a final tie group, below the (one) system that
    has one.
    """
    raw = board.scores.to_numpy(dtype=np.float64)
    bad = (raw[:, board.weight_array > 0] <= 0).any(axis=1)
    good = tuple(s for s, b in zip(board.systems, bad.tolist()) if not b)
    rest = tuple(s for s, b in zip(board.systems, bad.tolist()) if b)
    return (good, rest) if good else (rest,)


def _rankings(job: _Job, frame: pd.DataFrame, present: Sequence[str]) -> tuple[dict[str, Tiers], str, bool]:
    """Every rule's tie groups on the board of `present`, Kemeny's solver status, and whether its optimum has rivals."""
    board = _sub_board(job.board, frame, present)
    out: dict[str, Tiers] = {}
    status, several = "", False
    for rule in job.rules:
        given = job.options.get(rule, {})
        try:
            res = rank(board, rule, **loop_options(board, rule, given, job.time_limit))
        except NonPositiveScoreError:
            if rule != "geometric_mean" or given or board.has_missing:
                raise
            out[rule] = _without_geometric_mean(board)
            continue
        out[rule] = tuple(tuple(group) for group in res.ranking)
        if rule == "kemeny":
            status = res.details["kemeny"].status.value
            several = res.details["kemeny"].unique is False
    return out, status, several


def _strict(tiers: Tiers) -> list[str]:
    """The authors' order: by (score, name) descending, i.e. ties broken by the later name first."""
    return [s for group in tiers for s in sorted(group, reverse=True)]


def _weak(tiers: Tiers, leave_out: str | None = None) -> tuple[frozenset[str], ...]:
    """The weak order as a tuple of sets, without `leave_out` (and without a group it empties)."""
    groups = (frozenset(g) - {leave_out} for g in tiers)
    return tuple(g for g in groups if g)


def _relation(tiers: Tiers, a: str, b: str, ties: str) -> int:
    """+1 if `a` is ranked above `b`, -1 if below, 0 if tied (never with ``tie_break="by_name"``)."""
    if ties == "by_name":
        order = _strict(tiers)
        return 1 if order.index(a) < order.index(b) else -1
    tier = {s: k for k, group in enumerate(tiers) for s in group}
    return int(np.sign(tier[b] - tier[a]))


def _changed(before: Tiers, after: Tiers, new: str, first_two: Sequence[str], compare: str, ties: str) -> bool:
    """Did the arrival of `new` change the ranking of the systems already there?"""
    if compare == "first_two":
        a, b = first_two
        return _relation(before, a, b, ties) != _relation(after, a, b, ties)
    if ties == "by_name":
        return _strict(before) != [s for s in _strict(after) if s != new]
    return _weak(before) != _weak(after, new)


def _repetition(job: _Job) -> list[dict[str, Any]]:
    """One order of arrivals (random, or given): the changes of every rule, as table rows."""
    systems = job.board.systems
    if job.order is not None:
        arrival = list(job.order)
    else:
        arrival = [systems[i] for i in np.random.default_rng(job.seed).permutation(len(systems))]
    last = len(systems) if job.add_last else len(systems) - 1
    changes = dict.fromkeys(job.rules, 0)
    statuses = set()
    frame = job.board.scores
    before, status, several = _rankings(job, frame, arrival[:2])
    statuses.add(status)
    not_unique = int(several)
    for k in range(3, last + 1):
        after, status, several = _rankings(job, frame, arrival[:k])
        statuses.add(status)
        not_unique += several
        for rule in job.rules:
            changes[rule] += _changed(before[rule], after[rule], arrival[k - 1], arrival[:2], job.compare, job.ties)
        before = after
    kemeny_status = "time_limit" if "time_limit" in statuses else "optimal"
    return [
        {"repetition": job.repetition, "rule": rule, "changes": changes[rule], "additions": last - 2,
         "kemeny_status": kemeny_status if rule == "kemeny" else "",
         "kemeny_not_unique": not_unique if rule == "kemeny" else 0}
        for rule in job.rules
    ]


def _check_options(options: object, rules: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Rule -> options; a registered rule that is not run is ignored, an unknown name refused."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidOptionError(f"rule_options must map rule names to dicts of options, got {options!r}")
    unknown = [r for r in options if r not in RULE_NAMES]
    if unknown:
        raise InvalidOptionError(f"rule_options name unknown rule(s) {', '.join(map(repr, unknown))}; rules are {', '.join(RULE_NAMES)}")
    out = {}
    for rule, opts in options.items():
        if not isinstance(opts, Mapping):
            raise InvalidOptionError(f"rule_options[{rule!r}] must be a dict of options, got {opts!r}")
        if rule in rules:
            out[str(rule)] = dict(opts)
    return out


def _check_orders(orders: object, systems: Sequence[str]) -> list[tuple[str, ...]]:
    """Each order a permutation of `systems` (as a tuple); at least one order."""
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence) or not orders:
        raise InvalidOptionError(f"orders must be a non-empty list of orders of the systems, got {orders!r}")
    want = sorted(systems)
    out = []
    for k, order in enumerate(orders):
        if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or sorted(map(str, order)) != want:
            raise InvalidOptionError(
                f"orders[{k}] must list every system exactly once ({len(want)} systems), got {order!r}"
            )
        out.append(tuple(map(str, order)))
    return out


def _check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidOptionError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


@fill_doc(EXPERIMENT_DOCS)
def iia(
    data: Leaderboard | str,
    rules: Sequence[str] = VOTENRANK_RULES,
    *,
    repetitions: int = 50,
    seed: int = 0,
    compare: Compare = "order",
    tie_break: Literal["by_name"] | None = None,
    add_last: bool = True,
    rule_options: Mapping[str, Mapping[str, Any]] | None = None,
    orders: Sequence[Sequence[str]] | None = None,
    label: str | None = None,
    time_limit: float | None = KEMENY_TIME_LIMIT,
    scheduler: object = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """Independence of irrelevant alternatives (Rofin et al. 2023, sec. 3.1, Table 2).

    In each repetition the systems arrive in a random order, starting from a board of two;
    after each arrival every rule ranks the board again, and a change is counted when the
    ranking of the systems already there differs from the one before the arrival (the
    module docstring gives every decision).

    Parameters
    ----------
    data : Leaderboard or str
        The leaderboard (at least 3 systems; 4 with ``add_last=False``), or the name of a
        built-in one for :func:`consensus.load_example` (e.g. ``"votenrank-glue"``).
    rules : sequence of str, default=VOTENRANK_RULES
        Registered rule names; the default is Table 2's eight rules (``kemeny`` works too).
    repetitions : int, default=50
        Number of random arrival orders (the paper's 50).
    {seed}
    compare : {"order", "first_two"}, default="order"
        ``"order"``: the whole ranking of the systems already on the board (Table 2, the
        authors' code); ``"first_two"``: only the relation of the first two systems (the
        paper's text).
    tie_break : {None, "by_name"}, default=None
        None: compare weak orders (a tie that appears or disappears is a change);
        ``"by_name"``: break ties by system name, later name first, as the authors' code does.
    add_last : bool, default=True
        Add every system (``M - 2`` comparisons); False stops before the last one, as the
        authors' loop does (``M - 3``).
    rule_options : mapping, optional
        Rule -> options for :func:`consensus.rank` (e.g. :data:`VOTENRANK_OPTIONS`, the
        variants of the authors' code); entries for rules not in `rules` are ignored.
    orders : sequence of sequences of str, optional
        Explicit arrival orders, one per repetition (each a permutation of the systems),
        instead of random ones: e.g. to replay another study's orders. `repetitions` and
        `seed` are then not used.
    label : str, optional
        The value of the ``leaderboard`` column (default: the example name, or
        ``"N systems x T tasks"``).
    {time_limit}
    {repetition_options}

    Returns
    -------
    ExperimentResult
        Name ``"iia"``, setting column ``leaderboard``, metric ``changes``; one row per
        repetition x rule with ``changes``, ``additions`` (comparisons), ``ties`` (the DP:
        systems minus tie groups in the rule's ranking of the full board), ``systems`` and
        ``kemeny_status``. ``summary()`` gives Table 2's mean and (``ddof=0``) std.

    Raises
    ------
    InvalidOptionError
        An unknown rule, example, `compare` or `tie_break` value; `rule_options` not a mapping of
        rule names to dicts; an order in `orders` that is not a permutation of the systems;
        a bad count, seed, time limit or scheduler; too few systems.
    ConsensusError
        Whatever :func:`consensus.rank` raises for a rule and its options on the full board
        (checked before any repetition runs).

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice
       Theory", EACL 2023, sec. 3.1 and Table 2; code: github.com/PragmaticsLab/vote_and_rank.

    Examples
    --------
    >>> import consensus as cs
    >>> res = iia("votenrank-superglue", ["mean", "copeland"], repetitions=2, seed=1)
    >>> res.summary()[["mean", "n"]].to_dict("index")
    {('votenrank-superglue', 'mean'): {'mean': 0.0, 'n': 2}, ('votenrank-superglue', 'copeland'): {'mean': 3.5, 'n': 2}}
    >>> res.table[["rule", "additions", "ties", "systems"]].drop_duplicates().to_dict("list")
    {'rule': ['mean', 'copeland'], 'additions': [20, 20], 'ties': [0, 2], 'systems': [22, 22]}
    """
    names = check_rules(rules)
    check_scheduler(scheduler, n_jobs)
    if isinstance(data, str):
        label = data if label is None else label
        data = load_example(data)
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"data must be a Leaderboard or the name of a built-in example, got {type(data).__name__}")
    compare = _check_choice(compare, "compare", _COMPARE)  # type: ignore[assignment]
    if tie_break is not None and tie_break != "by_name":
        raise InvalidOptionError(f"tie_break must be None or 'by_name', got {tie_break!r}")
    ties = "by_name" if tie_break else "weak"
    if not isinstance(add_last, (bool, np.bool_)):
        raise InvalidOptionError(f"add_last must be True or False, got {add_last!r}")
    needed = 3 if add_last else 4
    if data.n_systems < needed:
        raise InvalidOptionError(
            f"the IIA experiment needs at least {needed} systems (two to start, then arrivals), got {data.n_systems}"
        )
    if label is None:
        label = f"{data.n_systems} systems x {data.n_tasks} tasks"
    elif not isinstance(label, str):
        raise InvalidOptionError(f"label must be a string, got {label!r}")
    opts = _check_options(rule_options, names)
    time_limit = check_seconds(time_limit, "time_limit")
    full: dict[str, int] = {}
    for rule in names:  # the full board: DP, and every rule's options checked before the repetitions
        res = rank(data, rule, **loop_options(data, rule, opts.get(rule, {}), time_limit))
        full[rule] = data.n_systems - len(res.ranking)
    if orders is None:
        check_repetitions(check_count(repetitions, "repetitions", 1), 1024 + 16 * len(names) * data.n_systems,
                          "repetitions")
        draws: list[tuple[Any, Any]] = [(s, None) for s in spawn_seeds(seed, repetitions)]
    else:
        draws = [(None, o) for o in _check_orders(orders, data.systems)]
    jobs = [
        _Job(s, o, r, data, names, opts, compare, ties, bool(add_last), time_limit)
        for r, (s, o) in enumerate(draws)
    ]
    rows = [row for rep in run_repetitions(_repetition, jobs, scheduler=scheduler, n_jobs=n_jobs, progress=progress)
            for row in rep]
    table = pd.DataFrame(rows)
    table.insert(2, "leaderboard", label)
    table.insert(5, "ties", table["rule"].map(full).astype(int))
    table.insert(6, "systems", data.n_systems)
    parameters = {
        "experiment": "iia", "rules": list(names), "repetitions": len(jobs),
        "seed": seed if orders is None else None, "orders": "given" if orders is not None else "random", "compare": compare,
        "tie_break": tie_break, "add_last": bool(add_last), "rule_options": {r: dict(o) for r, o in opts.items()},
        "data": label, "n_systems": data.n_systems, "n_tasks": data.n_tasks, "time_limit": time_limit,
    }
    return ExperimentResult("iia", table, "leaderboard", "changes", parameters)
