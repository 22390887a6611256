"""What a rule is to the pipeline: its spec, its core's output, the options all rules share, small helpers."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..board._validation import finite_number
from ..errors import DegenerateTaskWarning, InvalidOptionError
from ..hints import hinted, option
from ..majority._pairwise import PairwiseMatrix, pairwise
from ..missing._impute import impute_pairwise
from ..missing._preparation import MISSING_POLICIES, MissingPolicy
from ..results import tiers_from_scores

if TYPE_CHECKING:
    from ..board._instances import InstanceScores

__all__ = [
    "RuleSpec",
    "CoreOutput",
    "SharedOptions",
    "SHARED_OPTION_NAMES",
    "SHARED_DEFAULTS",
    "MissingPolicy",
    "TieBreak",
    "SCORE_TOL",
    "MISSING_POLICIES",
    "quiet_leaderboard",
    "check_number",
    "check_task_numbers",
    "quiet",
    "pairwise_of",
    "tiers",
    "check_choice",
    "complete_values",
]

TieBreak = Literal["mean", "lexicographic"]
RuleKind = Literal["positional", "iterative", "majority", "score", "exact"]

#: Two rule scores within this (relative to the larger magnitude, floor 1) are tied.
SCORE_TOL = 1e-9

TIE_BREAKS = ("mean", "lexicographic")


class SharedOptions(TypedDict, total=False):
    """Options every rule accepts (see :func:`rank`)."""

    missing: MissingPolicy | None
    min_coverage: float | None
    weighting: Literal["groups"] | None
    group_weights: Mapping[str, float] | None
    two_step: bool
    tie_break: TieBreak | Sequence[TieBreak] | None
    significance: Any


SHARED_DEFAULTS: dict[str, Any] = {
    "missing": None,
    "min_coverage": 0.0,  # a rule function ranks every system; rank() passes None, the set-aside rule
    "weighting": None,
    "group_weights": None,
    "two_step": False,
    "tie_break": None,
    "significance": None,
}
#: Names of the options every rule accepts.
SHARED_OPTION_NAMES: tuple[str, ...] = tuple(SHARED_DEFAULTS)


@dataclass
class CoreOutput:
    """What a rule's core computes on a prepared leaderboard (internal)."""

    scores: np.ndarray
    details: dict[str, Any] = field(default_factory=dict)
    ranking: tuple[tuple[str, ...], ...] | None = None  # None: tie groups of `scores`
    winners: tuple[str, ...] | None = None  # None: the first tie group


Core = Callable[[Any, Mapping[str, Any], bool], CoreOutput]


@dataclass(frozen=True)
class RuleSpec:
    """How :func:`run_rule` treats one rule.

    Attributes
    ----------
    name : str
        Rule name.
    kind : {"positional", "iterative", "majority", "score", "exact"}
        Positional and iterative rules rank systems within each task; majority rules (and
        Kemeny) use the pairwise matrix; score baselines use the numbers.
    core : callable
        ``core(data, options, impute) -> CoreOutput`` on a prepared leaderboard (or a
        PairwiseMatrix when `accepts_matrix`).
    pairwise_missing : bool
        With ``missing=None`` the rule compares each pair on the tasks both are scored on
        (the R operator, Vote'n'Rank eq. 1) instead of refusing missing scores.
    impute : bool
        ``missing="impute"`` is meaningful: imputation by compatible permutations gives the
        rule its input (pairwise preferences, or expected positions for positional and
        iterative rules); score baselines need numbers and refuse it.
    accepts_matrix : bool
        A :class:`PairwiseMatrix` may be passed instead of a leaderboard.
    second_step : RuleSpec or None
        The rule applied over the group results in two-step aggregation when it is not
        this rule (``optimality_gap`` averages the group gaps).
    ranks_within_tasks : bool
        A score rule that uses only each task's order (``mean_win_rate``): under
        ``significance=`` it sees the tasks' tie groups, as the positional rules do.
    """

    name: str
    kind: RuleKind
    core: Core
    pairwise_missing: bool = False
    impute: bool = False
    accepts_matrix: bool = False
    second_step: RuleSpec | None = None
    ranks_within_tasks: bool = False

    @property
    def noise(self) -> Literal["relation", "groups", "unchanged"]:
        """What ``significance=`` changes for this rule: the pairwise relation (majority rules,
        Kemeny), each task's order (tie groups: positional and iterative rules, win rates), or
        nothing (score rules add the scores themselves)."""
        if self.kind in ("majority", "exact"):
            return "relation"
        if self.kind in ("positional", "iterative") or self.ranks_within_tasks:
            return "groups"
        return "unchanged"

    @property
    def ties_label(self) -> str:
        """Default ``RuleResult.ties`` of this kind: ``"neither"``, ``"scores"`` or ``"average"``."""
        return {"majority": "neither", "exact": "neither", "score": "scores"}.get(self.kind, "average")


# ---------------------------------------------------------------------- helpers shared by the rules
def quiet_leaderboard(frame: pd.DataFrame, **kwargs: Any) -> Leaderboard:
    """Build ``Leaderboard(frame, **kwargs)`` without re-emitting DegenerateTaskWarning (seen once).

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores, systems x tasks.
    **kwargs
        Further arguments of :class:`~consensus.Leaderboard` (``weights``, ...).

    Returns
    -------
    Leaderboard

    Raises
    ------
    LeaderboardError, UnknownTaskError
        Whatever the :class:`~consensus.Leaderboard` constructor raises.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return Leaderboard(frame, **kwargs)


def quiet(call: Callable[[], Leaderboard]) -> Leaderboard:
    """Call `call` without re-emitting DegenerateTaskWarning (already seen once).

    Parameters
    ----------
    call : callable
        No-argument function building a leaderboard (``lambda: lb.select(...)``, ...).

    Returns
    -------
    Leaderboard
        What `call` returns; whatever it raises propagates.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [1.0, 1.0], "nli": [0.2, 0.3]}, index=["a", "b"])
    >>> quiet(lambda: Leaderboard(frame)).n_systems
    2
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return call()


def pairwise_of(
    data: Leaderboard | PairwiseMatrix | InstanceScores, impute: bool, *, tie_tol: float = 0.0
) -> PairwiseMatrix:
    """Return the pairwise matrix a majority rule uses: given, imputed, or counted from the scores.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix or InstanceScores
        A PairwiseMatrix is returned as it is; InstanceScores need `impute`.
    impute : bool
        Use :func:`consensus.missing._impute.impute_pairwise` (``missing="impute"``).
    tie_tol : float, default=0.0
        Scores within `tie_tol` count as tied (:func:`consensus.pairwise`).

    Returns
    -------
    PairwiseMatrix

    Raises
    ------
    InvalidOptionError
        `impute` with a nonzero `tie_tol`, a bad `tie_tol`, or InstanceScores without `impute`.
    """
    if isinstance(data, PairwiseMatrix):
        return data
    if impute:
        if tie_tol:
            raise InvalidOptionError(hinted("tie_tol cannot be combined with {}", option("missing", "impute")))
        return impute_pairwise(data).matrix
    # InstanceScores without impute: pairwise raises the InvalidOptionError documented above
    return pairwise(data, tie_tol=tie_tol)  # type: ignore[arg-type]


def tiers(systems: Sequence[str], scores: np.ndarray, *, unit: float = 1.0) -> tuple[tuple[str, ...], ...]:
    """Group `systems` into ties by `scores` (higher is better) within :data:`SCORE_TOL`.

    Parameters
    ----------
    systems : sequence of str
    scores : numpy.ndarray
        One score per system.
    unit : float, default=1.0
        What a score of 1 was before the task weights were divided by ``1 / unit`` (see
        :func:`.policies.fit_weights`): the tolerance's floor of 1 scales with it, so the tie
        groups are those of the unscaled scores.

    Returns
    -------
    tuple of tuple of str
        Tie groups, best first; a group keeps the order of `systems`.
    """
    values = [float(x) for x in scores]
    if unit == 1.0:
        return tiers_from_scores(list(systems), values, tol=SCORE_TOL)
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    groups: list[list[int]] = []
    for i in order:  # as tiers_from_scores, with the floor 1 read in the unscaled units
        if groups:
            ref = values[groups[-1][0]]
            if abs(values[i] - ref) <= SCORE_TOL * max(unit, abs(ref), abs(values[i])):
                groups[-1].append(i)
                continue
        groups.append([i])
    return tuple(tuple(systems[i] for i in sorted(g)) for g in groups)


def check_choice(name: str, value: Any, choices: Sequence[Any], rule: str) -> Any:
    """Return `value` if it is one of `choices`, else raise an error naming them.

    Parameters
    ----------
    name, rule : str
        Option and rule names, for the message.
    value : object
    choices : sequence

    Returns
    -------
    object
        `value`, unchanged.

    Raises
    ------
    InvalidOptionError
        `value` is not in `choices`.
    """
    if value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise InvalidOptionError(f"rule {rule!r}: {name}={value!r} is not one of {shown}")
    return value


def check_number(value: Any, name: str, rule: str | None = None, *, non_negative: bool = False) -> float:
    """Return `value` as a finite float (``>= 0`` with `non_negative`), else raise naming the rule and option.

    :func:`consensus.board._validation.finite_number` with the rule's name in the message; booleans
    are refused (``True`` is not a tolerance, prior or baseline).

    Parameters
    ----------
    value : object
        The option's value.
    name : str
        The option, for the message (``"tie_tol"``, ``"baseline of task 'qa'"``).
    rule : str, optional
        The rule, prefixed to the message as ``rule 'NAME': ``.
    non_negative : bool, default False
        Also refuse values below 0.

    Returns
    -------
    float

    Raises
    ------
    InvalidOptionError
        `value` is not a number, not finite, or (`non_negative`) negative.

    Examples
    --------
    >>> check_number("0.5", "tie_tol", non_negative=True)
    0.5
    >>> check_number(-1, "prior", "bradley_terry", non_negative=True)
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: rule 'bradley_terry': prior must be finite and >= 0, got -1
    """
    return finite_number(value, f"rule {rule!r}: {name}" if rule else name, non_negative=non_negative)


def check_task_numbers(value: Any, name: str, rule: str) -> float | dict[str, float] | None:
    """An option that is None, one number for every task, or a mapping task -> number.

    Parameters
    ----------
    value : None, number or Mapping
        The option's value (``gamma``, ``baseline``, ``maximum``).
    name, rule : str
        Option and rule names, for the message.

    Returns
    -------
    None, float or dict
        `value` with every number checked finite (keys as strings); task names are not
        checked here (the rule knows its leaderboard).

    Raises
    ------
    InvalidOptionError
        A value is not a finite number (naming its task).

    Examples
    --------
    >>> check_task_numbers({"qa": "0.25"}, "baseline", "normalized_mean")
    {'qa': 0.25}
    """
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {str(t): check_number(v, f"{name} of task {t!r}", rule) for t, v in value.items()}
    return check_number(value, name, rule)


def complete_values(lb: Leaderboard) -> np.ndarray:
    """Return ``lb.values`` (oriented scores), which must be complete: a guard for the rule cores.

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    InvalidOptionError
        A score is missing (an internal error: the pipeline refuses or drops them first).
    """
    values = lb.values
    if np.isnan(values).any():  # the pipeline refuses or drops missing scores before this
        raise InvalidOptionError("internal: a positional rule received missing scores")
    return values
