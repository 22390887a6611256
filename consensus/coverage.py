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

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import InvalidOptionError
from .leaderboard import Leaderboard
from .results import (
    CondorcetWeightsResult,
    KemenyResult,
    MajoritySummary,
    ProspectiveResult,
    RuleComparison,
    RuleResult,
    SensitivityResult,
    StabilityResult,
)

__all__ = ["LOW_COVERAGE", "with_min_coverage", "apply_min_coverage", "claims_of", "coverage_flags"]

#: Claims resting on a system scored on less than this share of the task weight are flagged.
LOW_COVERAGE = 0.5


def with_min_coverage(lb: Leaderboard, threshold: float) -> Leaderboard:
    """`lb` without the systems scored on less than `threshold` of the task weight, with a note naming them.

    Same as :meth:`Leaderboard.with_min_coverage`.

    Parameters
    ----------
    lb : Leaderboard
    threshold : float
        In [0, 1].

    Returns
    -------
    Leaderboard
        `lb` itself when no system is below `threshold`; otherwise a selection whose
        :attr:`~Leaderboard.notes` name the dropped systems (and tasks left unscored).

    Raises
    ------
    InvalidOptionError
        If `lb` is not a Leaderboard, `threshold` is not in [0, 1], or fewer than 2
        systems would remain.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [0.6, 0.5, 0.9], "mt": [1, 2, None]},
    ...                      index=["a", "b", "c"])
    >>> with_min_coverage(Leaderboard.from_frame(frame), 0.5).systems
    ('a', 'b')
    """
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"with_min_coverage needs a Leaderboard, got {type(lb).__name__}")
    return lb.with_min_coverage(threshold)


def apply_min_coverage(lb: Any, min_coverage: float | None) -> Any:
    """The ``min_coverage=`` option of an entry point: `lb` unchanged for None, else :func:`with_min_coverage`.

    Parameters
    ----------
    lb : Leaderboard or other data
        Only a Leaderboard can be filtered.
    min_coverage : float or None

    Returns
    -------
    Leaderboard or the data unchanged

    Raises
    ------
    InvalidOptionError
        `min_coverage` is given for data that is not a Leaderboard (a pairwise matrix has
        no coverage), or is invalid (see :func:`with_min_coverage`).

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> apply_min_coverage(toy, None) is toy, apply_min_coverage(toy, 1.0) is toy
    (True, True)
    """
    if min_coverage is None:
        return lb
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"min_coverage needs a Leaderboard (scores), got {type(lb).__name__}")
    return lb.with_min_coverage(min_coverage)


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
    [('Kemeny top', 'B')]
    """
    claims: list[tuple[str, Any]] = []
    for obj in results:
        if isinstance(obj, RuleResult):
            claims.append((f"winner of {obj.rule}", obj.winners))
        elif isinstance(obj, KemenyResult) and obj.ranking:
            claims.append(("Kemeny top", obj.ranking[0]))
        elif isinstance(obj, RuleComparison):
            claims += claims_of(obj.kemeny)
            claims += [(f"winner of {rule}", tiers[0]) for rule, tiers in obj.rankings.items() if rule != "kemeny" and tiers]
        elif isinstance(obj, MajoritySummary):
            claims.append(("Condorcet winner", obj.condorcet_winner))
            dominators: dict[str, int] = {}
            for by in obj.pareto_dominated.values():
                for s in by:
                    dominators[s] = dominators.get(s, 0) + 1
            claims += [(f"Pareto-dominates {count} system(s)", s) for s, count in dominators.items()]
        elif isinstance(obj, ProspectiveResult):
            claims.append(("prospective", obj.prospective_systems))
        elif isinstance(obj, CondorcetWeightsResult) and obj.feasible:
            claims.append(("can win under some weights", obj.system))
        elif isinstance(obj, SensitivityResult) and obj.target == "winner" and obj.current:
            claims.append((f"winner of {obj.rule}", obj.current[0]))
        elif isinstance(obj, StabilityResult):
            claims += [(f"not separable from the top under {rule}", obj.top_set(rule)) for rule in obj.rules]
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
    lb: Leaderboard,
    claims: Mapping[str, Any] | Iterable[tuple[str, Any]],
    threshold: float = LOW_COVERAGE,
) -> tuple[str, ...]:
    """One warning per claimed system whose coverage is below `threshold`.

    Parameters
    ----------
    lb : Leaderboard
        Gives the coverage (:attr:`Leaderboard.coverage`).
    claims : mapping or iterable of pairs
        Claim -> the system(s) it names, e.g. ``{"Kemeny top": "x", "winner of borda":
        ("x", "y")}``; pairs ``(claim, systems)`` work too (claims may then repeat). None
        or an empty collection names nobody. Systems not on `lb` are ignored.
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
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"coverage_flags needs a Leaderboard, got {type(lb).__name__}")
    coverage = lb.coverage
    scored = lb.tasks_scored
    by_system: dict[str, list[str]] = {}
    for claim, s in _claim_items(claims):
        if s in coverage.index and coverage[s] < float(threshold) - 1e-12:
            listed = by_system.setdefault(s, [])
            if claim not in listed:
                listed.append(claim)
    return tuple(
        f"rests on a low-coverage system: {s!r} ({', '.join(what)}) is scored on {int(scored[s])} of "
        f"{lb.n_tasks} tasks ({float(coverage[s]):.0%} of the weight)"
        for s, what in by_system.items()
    )
