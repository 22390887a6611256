"""Coverage: how much of a leaderboard each system was evaluated on, and which claims rest on little.

A system scored on 1 task of 15 can top a Kemeny ranking or be the Condorcet winner: each
pair is compared on the tasks both are scored on, so one good score beats every rival it
shares that task with. :attr:`Leaderboard.coverage` measures it (the share of the total task
weight a system is scored on); :func:`with_min_coverage` drops the systems below a threshold
(``min_coverage=`` of every entry point), and :func:`coverage_flags` words a warning for each
claimed system (a rule's winner, the Kemeny top, the Condorcet winner, a prospective system,
a Pareto dominator) whose coverage is below :data:`LOW_COVERAGE`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..arguments import check_min_coverage
from ..errors import DegenerateTaskWarning, InvalidOptionError
from ..hints import hinted, option
from ._leaderboard import Leaderboard
from ._validation import min_coverage_option

__all__ = [
    "LOW_COVERAGE",
    "comparability",
    "set_aside",
    "with_min_coverage",
    "claims_of",
    "coverage_flags",
]

#: Claims resting on a system scored on less than this share of the task weight are flagged.
LOW_COVERAGE = 0.5


def comparability(lb: Leaderboard) -> pd.DataFrame:
    """Per system: how much of the board it was scored on, and how many rivals it was compared with.

    Two systems are compared when at least one task (of positive weight) scores both.

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    pandas.DataFrame
        Indexed by system: ``tasks_scored``, ``weight_share`` (the share of the task weight
        scored, :attr:`Leaderboard.coverage`), ``rivals_compared``, ``rival_share`` (of the
        other systems), and ``coverage``, the smaller share (what the low-coverage flag and
        the default set-aside rule use).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [0.6, 0.5, None], "mt": [None, None, 0.9]},
    ...                      index=["a", "b", "c"])
    >>> comparability(Leaderboard.from_frame(frame, infer=False))[["rivals_compared", "coverage"]]
       rivals_compared  coverage
    a                1       0.5
    b                1       0.5
    c                0       0.0
    """
    values = lb.values
    w = lb.weight_array
    present = ~np.isnan(values) & (w > 0)
    n = lb.n_systems
    # a task scored by k systems compares each of them with k - 1 others: the largest such k - 1 is a lower
    # bound, exact when it reaches n - 1 (no n x n matrix for complete boards: 100,000 systems fit)
    per_task = present.sum(axis=0)
    rivals = np.where(present, per_task - 1, 0).max(axis=1, initial=0)
    todo = np.nonzero(rivals < n - 1)[0]
    chunk = max(1, (1 << 24) // max(n, 1))
    as_float = present.astype(np.float32)
    for start in range(0, len(todo), chunk):
        rows = todo[start:start + chunk]
        shared = as_float[rows] @ as_float.T
        shared[np.arange(len(rows)), rows] = 0.0
        rivals[rows] = (shared > 0).sum(axis=1)
    others = max(n - 1, 1)
    weight_share = lb.coverage.to_numpy()
    rival_share = rivals / others
    return pd.DataFrame(
        {
            "tasks_scored": (~np.isnan(values)).sum(axis=1),
            "weight_share": weight_share,
            "rivals_compared": rivals,
            "rival_share": rival_share,
            "coverage": np.minimum(weight_share, rival_share),
        },
        index=pd.Index(lb.systems, dtype=object),
    )


def _describe(table: pd.DataFrame, s: str, n_tasks: int, n_rivals: int) -> str:
    row = table.loc[s]
    return (f"{s!r} ({int(row.tasks_scored)}/{n_tasks} tasks, {row.weight_share:.0%} of the weight, "
            f"{int(row.rivals_compared)}/{n_rivals} rivals)")


def set_aside(lb: Any, min_coverage: float | None = None) -> Any:
    """The systems a ranking covers: `lb` without those compared with no rival or barely evaluated.

    The rule every ranking entry point applies first (``analyze``, ``compare``, ``rank``,
    ``kemeny``, ``prospective``; API and CLI): a system compared with no rival (it shares
    no scored task with any other system) is set aside first: listed, not ranked (its
    tasks go with it, which changes the others' coverage). Then a system whose coverage
    (:func:`comparability`: the smaller of the share of the task weight it is scored on and
    the share of its rivals it was compared with) is below `min_coverage` is set aside too.
    The default (None) is :data:`LOW_COVERAGE` (half); when that would leave fewer than 2
    systems (a board of partial ballots, where every system is scored on few tasks), the
    default sets aside only the systems compared with no rival (and nothing when fewer than
    2 systems share a task), and says so. ``min_coverage=0`` sets nothing aside: every
    system is ranked as given, and the reports flag the claims resting on few scores. The
    rule is applied until it changes nothing (setting a system aside can leave another with
    fewer rivals). Notes on the result name every system set aside with its coverage and
    the option that brings it back.

    Parameters
    ----------
    lb : Leaderboard or other data
        Other data (a pairwise matrix) is returned unchanged when `min_coverage` is None.
    min_coverage : float, optional
        In [0, 1]; None: the default rule.

    Returns
    -------
    Leaderboard or the data unchanged
        `lb` itself when nothing is set aside.

    Raises
    ------
    InvalidOptionError
        `min_coverage` is not in [0, 1], is given for data that is not a Leaderboard, or
        (when given) would leave fewer than 2 systems.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"t1": [3, 2, 1, None], "t2": [1, 3, 2, None], "t3": [2, 1, 3, None],
    ...                       "t4": [None, None, None, 9]}, index=["a", "b", "c", "lone"])
    >>> small = set_aside(Leaderboard.from_frame(frame, infer=False))
    >>> small.systems
    ('a', 'b', 'c')
    >>> print(small.notes[-2])
    set aside, not ranked: 1 system(s) compared with no rival (no task scores it and another system): 'lone' (1/4 tasks, 25% of the weight, 0/3 rivals)
    """
    if min_coverage is not None:
        check_min_coverage(min_coverage)
        if not isinstance(lb, Leaderboard):
            raise InvalidOptionError(f"min_coverage needs a Leaderboard (scores), got {type(lb).__name__}")
    if not isinstance(lb, Leaderboard) or not lb.has_missing:
        return lb
    threshold = LOW_COVERAGE if min_coverage is None else float(min_coverage)
    if threshold == 0:  # every system ranked, as given (claims resting on few scores are still flagged)
        return lb
    current = lb
    notes: list[str] = []
    fallback = False
    for _ in range(2 * lb.n_systems):
        table = comparability(current)
        n_tasks, n_rivals = current.n_tasks, current.n_systems - 1
        # systems with no rival first: their tasks go with them, which changes everyone's coverage
        lone = [s for s in current.systems if table.loc[s, "rivals_compared"] == 0]
        low: list[str] = []
        if lone and current.n_systems - len(lone) < 2:  # nobody (or one) shares a task: nothing to set apart from
            if min_coverage is not None:
                raise InvalidOptionError(
                    min_coverage_option(min_coverage) + f" would leave {current.n_systems - len(lone)} system(s): "
                    + _shown(lone) + " are each compared with no rival; pass " + option("min_coverage", 0)
                    + " to rank them anyway"
                )
            fallback = True
            break
        if lone:
            notes.append(
                f"set aside, not ranked: {len(lone)} system(s) compared with no rival (no task scores it and another "
                f"system): " + _shown([_describe(table, s, n_tasks, n_rivals) for s in lone], quote=False)
            )
        else:
            low = [s for s in current.systems if table.loc[s, "coverage"] < threshold - 1e-12]
            if current.n_systems - len(low) < 2 and low:
                if min_coverage is not None:
                    raise InvalidOptionError(
                        min_coverage_option(min_coverage) + f" would leave {current.n_systems - len(low)} system(s) "
                        f"of {current.n_systems}: the highest coverage is {table['coverage'].max():.0%}; lower min_coverage"
                    )
                fallback, low = True, []
            if low:
                notes.append(
                    hinted("set aside, not ranked: {} system(s) with coverage below {:.0%} (pass {} to rank them): ",
                           len(low), threshold, option("min_coverage", 0))
                    + _shown([_describe(table, s, n_tasks, n_rivals) for s in low], quote=False, limit=2)
                )
        if not lone and not low:
            break
        current, gone = _keep_systems(current, [s for s in current.systems if s not in set(lone) | set(low)])
        if gone:
            notes.append("dropped task(s) scored only by systems set aside: " + _shown(gone))
    if fallback and not any(n.startswith("no system was set aside for coverage") for n in lb.notes):
        notes.append(
            f"no system was set aside for coverage: fewer than 2 systems have {threshold:.0%} coverage (of the task "
            "weight and of their rivals) and share a task with another; pass " + option("min_coverage")
            + " to set a threshold"
        )
    return current.with_notes(notes) if notes else lb


def _keep_systems(lb: Leaderboard, kept: list[str]) -> tuple[Leaderboard, list[str]]:
    """`lb` restricted to the systems `kept` and the tasks one of them scores, and the tasks dropped."""
    present = ~lb.missing.loc[kept]
    tasks = [t for t in lb.tasks if present[t].any()]
    with warnings.catch_warnings():  # the same scores: their warnings were given already
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return lb.select(systems=kept, tasks=tasks), [t for t in lb.tasks if t not in set(tasks)]


def _without_lone(lb: Leaderboard) -> Leaderboard:
    """`lb` without the systems compared with no rival, and the tasks only they scored (until none is left
    alone; `lb` itself when fewer than 2 systems would remain)."""
    current = lb
    while current.has_missing:
        table = comparability(current)
        kept = [s for s in current.systems if table.loc[s, "rivals_compared"] > 0]
        if len(kept) == current.n_systems or len(kept) < 2:
            break
        current, _ = _keep_systems(current, kept)
    return current


def _shown(items: Sequence[str], quote: bool = True, limit: int = 3) -> str:
    shown = [repr(x) if quote else x for x in items[:limit]]
    return ", ".join(shown) + (f", and {len(items) - limit} more" if len(items) > limit else "")


def with_min_coverage(data: Leaderboard, threshold: float) -> Leaderboard:
    """`data` without the systems scored on less than `threshold` of the task weight, with a note naming them.

    Same as :meth:`Leaderboard.with_min_coverage`.

    Parameters
    ----------
    data : Leaderboard
    threshold : float
        In [0, 1].

    Returns
    -------
    Leaderboard
        `data` itself when no system is below `threshold`; otherwise a selection whose
        :attr:`~Leaderboard.notes` name the dropped systems (and tasks left unscored).

    Raises
    ------
    InvalidOptionError
        If `data` is not a Leaderboard, `threshold` is not in [0, 1], or fewer than 2
        systems would remain.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [0.6, 0.5, 0.9], "mt": [1, 2, None]},
    ...                      index=["a", "b", "c"])
    >>> with_min_coverage(Leaderboard.from_frame(frame), 0.5).systems
    ('a', 'b')
    """
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"with_min_coverage needs a Leaderboard, got {type(data).__name__}")
    return data.with_min_coverage(threshold)


def claims_of(*results: Any) -> list[tuple[str, Any]]:
    """The systems the results put forward, as ``(claim, systems)`` pairs for :func:`coverage_flags`.

    Parameters
    ----------
    *results : result objects
        :class:`RuleResult` (its winners), :class:`KemenyResult` and :class:`RuleComparison`
        (the Kemeny top; a comparison also each other rule's winners), :class:`MajoritySummary`
        (the Condorcet winner, the Pareto dominators), :class:`ProspectiveResult` (the
        prospective systems), :class:`CondorcetWeightsResult` (the system, when it can win),
        :class:`SensitivityResult` (the winner, for ``target="winner"``),
        :class:`StabilityResult` (each rule's top set);
        None and other objects claim nothing.

    Returns
    -------
    list of (str, object)

    Examples
    --------
    >>> import consensus as cs
    >>> claims_of(cs.kemeny(cs.load_example("votenrank-toy")), None)
    [('Kemeny top', ('B',))]
    """
    claims: list[tuple[str, Any]] = []
    for obj in results:  # each result type says what it claims (results.base.Displayed.claims)
        method = getattr(obj, "claims", None)
        if callable(method):
            claims += method()
    return claims


def _claim_items(claims: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> list[tuple[str, str]]:
    items = claims.items() if isinstance(claims, Mapping) else claims
    shape = "claims must be a mapping claim -> system(s) or a list of (claim, system(s)) pairs"
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise InvalidOptionError(f"{shape}, got {items!r}")
    out: list[tuple[str, str]] = []
    for item in items:
        if isinstance(item, str) or not isinstance(item, Iterable) or len(pair := tuple(item)) != 2:
            raise InvalidOptionError(f"{shape}, got the entry {item!r}")
        claim, systems = pair
        if systems is None:
            continue
        if not isinstance(systems, (str, Iterable)):
            raise InvalidOptionError(
                f"the systems of claim {claim!r} must be a name or a list of names, got {systems!r}"
            )
        for s in ([systems] if isinstance(systems, str) else list(systems)):
            out.append((str(claim), str(s)))
    return out


def coverage_flags(
    data: Leaderboard,
    claims: Mapping[str, Any] | Iterable[tuple[str, Any]],
    threshold: float = LOW_COVERAGE,
) -> tuple[str, ...]:
    """One warning per claimed system whose coverage is below `threshold`.

    Parameters
    ----------
    data : Leaderboard
        Gives the coverage (:attr:`Leaderboard.coverage`).
    claims : mapping or iterable of pairs
        Claim -> the system(s) it names, e.g. ``{"Kemeny top": "x", "winner of borda":
        ("x", "y")}``; pairs ``(claim, systems)`` work too (claims may then repeat). None
        or an empty collection names nobody. Systems not on `data` are ignored.
    threshold : float, default=:data:`LOW_COVERAGE`
        Coverage below this is low.

    Returns
    -------
    tuple of str
        One sentence per low-coverage system, in the order systems are first claimed,
        listing every claim that rests on it, e.g. ``"rests on a low-coverage system: 'x'
        (Kemeny top, winner of borda) is scored on 3 of 15 tasks (20% of the weight)"``.

    Raises
    ------
    InvalidOptionError
        `threshold` is not a number in [0, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.7, 0.5, 0.9], "nli": [0.6, 0.5, None], "mt": [1, 2, None]},
    ...                      index=["a", "b", "c"])
    >>> lb = Leaderboard.from_frame(frame)
    >>> coverage_flags(lb, {"Kemeny top": "c", "winner of mean": ["a"], "Condorcet winner": None})
    ("rests on a low-coverage system: 'c' (Kemeny top) is scored on 1 of 3 tasks (33% of the weight)",)
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= float(threshold) <= 1:
        raise InvalidOptionError(f"the coverage threshold must be a number in [0, 1], got {threshold!r}")
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"coverage_flags needs a Leaderboard, got {type(data).__name__}")
    items = _claim_items(claims)
    if not items or not data.has_missing:  # nobody claimed, or every system scored on every task
        return ()
    data = _without_lone(data)  # the board the claims were made on: systems with no rival (and their tasks) left out
    table = comparability(data)
    by_system: dict[str, list[str]] = {}
    for claim, s in items:
        if s in table.index and table.loc[s, "coverage"] < float(threshold) - 1e-12:
            listed = by_system.setdefault(s, [])
            if claim not in listed:
                listed.append(claim)
    out = []
    for s, what in by_system.items():
        row = table.loc[s]
        rivals = (f", compared with {int(row.rivals_compared)} of {data.n_systems - 1} rivals"
                  if row.rival_share < 1 else "")
        out.append(f"rests on a low-coverage system: {s!r} ({', '.join(what)}) is scored on {int(row.tasks_scored)} of "
                   f"{data.n_tasks} tasks ({float(row.weight_share):.0%} of the weight){rivals}")
    return tuple(out)
