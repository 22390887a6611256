"""``rank(lb, rule, **options)``: one entry point for every voting rule, and the options they share.

Every rule of :mod:`consensus.rules` runs through :func:`run_rule`, which applies, in this
order:

1. the missing-score policy (``missing=None | "drop_tasks" | "drop_systems" | "impute"``);
2. group weighting (``weighting="groups"``: each task group carries the same total weight);
3. the rule itself, or two-step aggregation (``two_step=True``: the rule within each task
   group, then the same rule over the group results, Vote'n'Rank Figure 1 C);
4. an explicit tie-break (``tie_break="mean" | "lexicographic"``), if asked for.

The result is a :class:`~consensus.results.RuleResult` that records each of these choices.
See ``docs/rules.md`` for the decisions taken where the papers are silent.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, sections 2.2-2.4 and appendix A.
.. [2] Himmi et al., "Towards more robust NLP system evaluation: handling missing scores in
   benchmarks", 2023 (the imputed pairwise matrix behind ``missing="impute"``).
"""

from __future__ import annotations

import difflib
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

import numpy as np
import pandas as pd

from .errors import DegenerateTaskWarning, InvalidOptionError, MissingScoreError
from .leaderboard import Leaderboard
from .pairwise import PairwiseMatrix, as_pairwise, pairwise
from .results import RuleResult, tiers_from_scores

__all__ = ["rank", "run_rule", "RuleSpec", "SharedOptions", "SHARED_OPTION_NAMES", "MissingPolicy", "TieBreak", "SCORE_TOL"]

MissingPolicy = Literal["drop_tasks", "drop_systems", "impute"]
TieBreak = Literal["mean", "lexicographic"]
RuleKind = Literal["positional", "iterative", "majority", "score", "exact"]

#: Two rule scores within this (relative to the larger magnitude, floor 1) are tied.
SCORE_TOL = 1e-9

_MISSING_POLICIES = (None, "drop_tasks", "drop_systems", "impute")
_TIE_BREAKS = ("mean", "lexicographic")


class SharedOptions(TypedDict, total=False):
    """Options every rule accepts (see :func:`rank`)."""

    missing: MissingPolicy | None
    weighting: Literal["groups"] | None
    group_weights: Mapping[str, float] | None
    two_step: bool
    tie_break: TieBreak | Sequence[TieBreak] | None


_SHARED_DEFAULTS: dict[str, Any] = {
    "missing": None,
    "weighting": None,
    "group_weights": None,
    "two_step": False,
    "tie_break": None,
}
#: Names of the options every rule accepts.
SHARED_OPTION_NAMES: tuple[str, ...] = tuple(_SHARED_DEFAULTS)


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
        ``missing="impute"`` is meaningful (the rule only needs pairwise preferences).
    accepts_matrix : bool
        A :class:`PairwiseMatrix` may be passed instead of a leaderboard.
    second_step : RuleSpec or None
        The rule applied over the group results in two-step aggregation when it is not
        this rule (``optimality_gap`` averages the group gaps).
    """

    name: str
    kind: RuleKind
    core: Core
    pairwise_missing: bool = False
    impute: bool = False
    accepts_matrix: bool = False
    second_step: RuleSpec | None = None

    @property
    def ties_label(self) -> str:
        return {"majority": "neither", "exact": "neither", "score": "scores"}.get(self.kind, "average")


# ---------------------------------------------------------------------- helpers shared by the rules
def quiet_leaderboard(frame: pd.DataFrame, **kwargs: Any) -> Leaderboard:
    """A Leaderboard built without re-emitting DegenerateTaskWarning (the user saw it once)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return Leaderboard(frame, **kwargs)


def _quiet(call: Callable[[], Leaderboard]) -> Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return call()


def pairwise_of(data: Leaderboard | PairwiseMatrix, impute: bool, *, tie_tol: float = 0.0) -> PairwiseMatrix:
    """The pairwise matrix a majority rule uses: given, imputed, or counted from the scores."""
    if isinstance(data, PairwiseMatrix):
        return data
    if impute:
        if tie_tol:
            raise InvalidOptionError("tie_tol cannot be combined with missing='impute'")
        try:
            from .impute import impute_pairwise  # imported lazily
        except ImportError as exc:
            raise InvalidOptionError(f"missing='impute' needs consensus.impute, which cannot be imported: {exc}") from exc
        return impute_pairwise(data).matrix
    return pairwise(data, tie_tol=tie_tol)


def tiers(systems: Sequence[str], scores: np.ndarray) -> tuple[tuple[str, ...], ...]:
    """Tie groups of `scores` (higher is better) within :data:`SCORE_TOL`."""
    return tiers_from_scores(list(systems), [float(x) for x in scores], tol=SCORE_TOL)


def check_choice(name: str, value: Any, choices: Sequence[Any], rule: str) -> Any:
    """`value` if it is one of `choices`, else InvalidOptionError naming them."""
    if value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise InvalidOptionError(f"rule {rule!r}: {name}={value!r} is not one of {shown}")
    return value


# ---------------------------------------------------------------------- the pipeline
def run_rule(spec: RuleSpec, data: Any, rule_options: Mapping[str, Any], shared: Mapping[str, Any]) -> RuleResult:
    """Run `spec` on `data` with its own `rule_options` and the `shared` options of :func:`rank`."""
    opts = _check_shared(spec, shared)
    if isinstance(data, Leaderboard):
        lb, missing_info, impute = _apply_missing(spec, data, opts["missing"])
        if opts["weighting"] == "groups":
            lb = _group_weighted(lb, opts["group_weights"])
        if opts["two_step"]:
            out = _two_step(spec, lb, rule_options, impute, opts["group_weights"])
        else:
            out = spec.core(lb, rule_options, impute)
        systems = lb.systems
    elif (
        opts["missing"] == "impute"
        and spec.impute
        and hasattr(data, "to_pairwise")
        and not isinstance(data, PairwiseMatrix)
    ):
        # instance-level scores (InstanceScores): the one-level imputed matrix, sigma_l of Himmi et al.
        for key in ("weighting", "group_weights", "two_step"):
            if opts[key] != _SHARED_DEFAULTS[key]:
                raise InvalidOptionError(f"rule {spec.name!r}: option {key}={opts[key]!r} needs a Leaderboard")
        if "mean" in _tie_break_methods(opts["tie_break"]):
            raise InvalidOptionError("tie_break='mean' needs a Leaderboard")
        lb = None
        matrix = pairwise_of(data, True)
        missing_info = _missing_info("impute", 0, "imputed pairwise matrix of the instance-level scores (impute_pairwise)")
        out = spec.core(matrix, rule_options, True)
        systems = matrix.systems
    elif spec.accepts_matrix and (isinstance(data, PairwiseMatrix) or hasattr(data, "to_pairwise")):
        for key in ("missing", "weighting", "group_weights", "two_step"):
            if opts[key] != _SHARED_DEFAULTS[key]:
                raise InvalidOptionError(
                    f"rule {spec.name!r}: option {key}={opts[key]!r} needs a Leaderboard, not a pairwise matrix"
                )
        if "mean" in _tie_break_methods(opts["tie_break"]):
            raise InvalidOptionError("tie_break='mean' needs scores: pass the Leaderboard, not a pairwise matrix")
        lb = None
        matrix = as_pairwise(data)
        missing_info = _missing_info(None, 0, "pairwise matrix given: its counts are used as they are")
        out = spec.core(matrix, rule_options, False)
        systems = matrix.systems
    else:
        what = "a Leaderboard or a PairwiseMatrix" if spec.accepts_matrix else "a Leaderboard"
        hint = "; instance-level scores need missing='impute'" if spec.impute and hasattr(data, "to_pairwise") else ""
        raise InvalidOptionError(f"rule {spec.name!r} needs {what}, got {type(data).__name__}{hint}")
    options = {**dict(rule_options), **opts}
    return build_result(spec, systems, out, options, missing_info, lb)


def build_result(
    spec: RuleSpec,
    systems: Sequence[str],
    out: CoreOutput,
    options: Mapping[str, Any],
    missing_info: Mapping[str, Any],
    lb: Leaderboard | None,
) -> RuleResult:
    """Wrap a core's output in a RuleResult, applying the tie-break named in `options`."""
    ranking = out.ranking if out.ranking is not None else tiers(systems, out.scores)
    details = dict(out.details)
    tie_break = options.get("tie_break")
    methods = _tie_break_methods(tie_break)
    if methods:
        ranking, split = _apply_tie_break(ranking, methods, lb)
        details["tie_break"] = {"methods": methods, "split_groups": split}
    winners = out.winners if out.winners is not None else ranking[0]
    ties = str(options.get("ties", spec.ties_label))
    scores = pd.Series(np.asarray(out.scores, dtype=np.float64), index=pd.Index(list(systems), dtype=object), name=spec.name)
    return RuleResult(
        rule=spec.name,
        options=options,
        scores=scores,
        ranking=ranking,
        winners=winners,
        ties=ties,
        missing=missing_info,
        tie_break=tie_break,
        details=details,
    )


def _check_shared(spec: RuleSpec, shared: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(shared) - set(_SHARED_DEFAULTS)
    if unknown:
        raise InvalidOptionError(f"rule {spec.name!r}: unknown option(s) {', '.join(sorted(unknown))}")
    opts = {**_SHARED_DEFAULTS, **shared}
    check_choice("missing", opts["missing"], _MISSING_POLICIES, spec.name)
    check_choice("weighting", opts["weighting"], (None, "groups"), spec.name)
    if not isinstance(opts["two_step"], (bool, np.bool_)):
        raise InvalidOptionError(f"rule {spec.name!r}: two_step must be True or False, got {opts['two_step']!r}")
    opts["two_step"] = bool(opts["two_step"])
    if opts["two_step"] and opts["weighting"] == "groups":
        raise InvalidOptionError(
            "two_step=True already gives each task group one vote; drop weighting='groups' "
            "(use group_weights to weigh the groups)"
        )
    if opts["group_weights"] is not None:
        if not (opts["two_step"] or opts["weighting"] == "groups"):
            raise InvalidOptionError("group_weights needs weighting='groups' or two_step=True")
        opts["group_weights"] = dict(opts["group_weights"])
    methods = _tie_break_methods(opts["tie_break"])
    for m in methods:
        check_choice("tie_break", m, _TIE_BREAKS, spec.name)
    if opts["tie_break"] is not None and not isinstance(opts["tie_break"], str):
        opts["tie_break"] = tuple(methods)
    return opts


def _tie_break_methods(tie_break: Any) -> tuple[str, ...]:
    if tie_break is None:
        return ()
    if isinstance(tie_break, str):
        return (tie_break,)
    if isinstance(tie_break, Sequence):
        methods = tuple(tie_break)
        if not methods:
            raise InvalidOptionError("tie_break must name at least one method, or be None")
        return methods
    raise InvalidOptionError(f"tie_break must be None, 'mean', 'lexicographic' or a sequence of them, got {tie_break!r}")


# ---------------------------------------------------------------------- missing scores
def _policies_for(spec: RuleSpec) -> tuple[str, ...]:
    """The missing-score policies `spec` accepts, for error messages."""
    return (("impute",) if spec.impute else ()) + ("drop_tasks", "drop_systems")


def _missing_info(policy: str | None, n_cells: int, treatment: str, tasks: Sequence[str] = (), systems: Sequence[str] = ()) -> dict[str, Any]:
    return {
        "policy": policy,
        "treatment": treatment,
        "n_missing_cells": int(n_cells),
        "dropped_tasks": tuple(tasks),
        "dropped_systems": tuple(systems),
    }


def _apply_missing(spec: RuleSpec, lb: Leaderboard, policy: str | None) -> tuple[Leaderboard, dict[str, Any], bool]:
    """Apply the missing-score policy: (leaderboard to rank, what was done, impute?)."""
    cells = lb.missing_cells()
    if policy == "impute" and not spec.impute:
        raise InvalidOptionError(
            f"rule {spec.name!r} cannot use missing='impute': the imputed pairwise matrix gives "
            "probabilities that one system is above another, which only Borda and the "
            "majority rules (condorcet, copeland, minimax, kemeny) consume; pass "
            "missing='drop_tasks' or 'drop_systems'"
        )
    if not cells:
        return lb, _missing_info(policy, 0, "no missing scores"), False
    if policy is None:
        if not spec.pairwise_missing:
            raise MissingScoreError(spec.name, cells, _policies_for(spec))
        return lb, _missing_info(None, len(cells), "pairwise: each pair compared on the tasks both are scored on"), False
    if policy == "impute":
        return lb, _missing_info(policy, len(cells), "imputed pairwise matrix (impute_pairwise)"), True
    missing = lb.missing
    if policy == "drop_tasks":
        dropped = [t for t in lb.tasks if missing[t].any()]
        kept = [t for t in lb.tasks if t not in set(dropped)]
        if not kept:
            raise InvalidOptionError(
                f"missing='drop_tasks' would drop every task ({len(dropped)}): each has a missing score; "
                "use missing='drop_systems'" + (" or 'impute'" if spec.impute else "")
            )
        new = _quiet(lambda: lb.select(tasks=kept))
        return new, _missing_info(policy, len(cells), "dropped the tasks with a missing score", tasks=dropped), False
    dropped = [s for s in lb.systems if missing.loc[s].any()]
    kept = [s for s in lb.systems if s not in set(dropped)]
    if len(kept) < 2:
        raise InvalidOptionError(
            f"missing='drop_systems' would leave {len(kept)} system(s) (dropping "
            f"{', '.join(repr(s) for s in dropped[:5])}{', ...' if len(dropped) > 5 else ''}); "
            "use missing='drop_tasks'" + (" or 'impute'" if spec.impute else "")
        )
    new = _quiet(lambda: lb.select(systems=kept))
    return new, _missing_info(policy, len(cells), "dropped the systems with a missing score", systems=dropped), False


# ---------------------------------------------------------------------- groups
def _check_groups(lb: Leaderboard, option: str) -> Mapping[str, tuple[str, ...]]:
    groups = lb.groups
    if not groups:
        raise InvalidOptionError(
            f"{option} needs task groups: build the leaderboard with groups={{...}} "
            "(Leaderboard.from_frame) or call lb.with_groups({...})"
        )
    covered = {t for ts in groups.values() for t in ts}
    loose = [t for t in lb.tasks if t not in covered]
    if loose:
        raise InvalidOptionError(
            f"{option} needs every task in a group; task(s) {', '.join(repr(t) for t in loose[:5])}"
            f"{', ...' if len(loose) > 5 else ''} are in none: add them to a group (a group may hold one task)"
        )
    return groups


def _group_weight_values(groups: Mapping[str, Sequence[str]], group_weights: Mapping[str, float] | None) -> dict[str, float]:
    values = {g: 1.0 for g in groups}
    for g, w in (group_weights or {}).items():
        if g not in groups:
            close = difflib.get_close_matches(str(g), list(groups), n=3)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f"; groups: {', '.join(repr(k) for k in groups)}"
            raise InvalidOptionError(f"group_weights names unknown group {g!r}{hint}")
        try:
            value = float(w)
        except (TypeError, ValueError):
            raise InvalidOptionError(f"weight of group {g!r} is not a number: {w!r}") from None
        if not np.isfinite(value) or value < 0:
            raise InvalidOptionError(f"weight of group {g!r} must be finite and >= 0, got {w!r}")
        values[g] = value
    if not any(v > 0 for v in values.values()):
        raise InvalidOptionError("every group weight is zero; give at least one group a positive weight")
    return values


def _group_weighted(lb: Leaderboard, group_weights: Mapping[str, float] | None) -> Leaderboard:
    """Task weights rescaled so that each group's tasks sum to the group's weight (default 1)."""
    groups = _check_groups(lb, "weighting='groups'")
    gw = _group_weight_values(groups, group_weights)
    w = lb.weights
    new: dict[str, float] = {}
    for g, ts in groups.items():
        total = float(w[list(ts)].sum())
        for t in ts:
            new[t] = gw[g] * float(w[t]) / total if total > 0 else 0.0
    if not any(v > 0 for v in new.values()):
        raise InvalidOptionError("group weighting leaves every task with weight 0")
    return _quiet(lambda: lb.with_weights(new))


def _two_step(
    spec: RuleSpec, lb: Leaderboard, rule_options: Mapping[str, Any], impute: bool, group_weights: Mapping[str, float] | None
) -> CoreOutput:
    """The rule within each group, then over the group results (Vote'n'Rank Fig. 1 C)."""
    groups = _check_groups(lb, "two_step=True")
    gw = _group_weight_values(groups, group_weights)
    meta = pd.DataFrame(np.nan, index=pd.Index(lb.systems, dtype=object), columns=pd.Index(list(groups), dtype=object))
    group_results: dict[str, RuleResult | None] = {}
    present = ~lb.missing
    for g, ts in groups.items():
        scored = [s for s in lb.systems if present.loc[s, list(ts)].any()]
        if len(scored) < 2:  # nothing to compare inside this group
            meta.loc[scored, g] = 0.0
            group_results[g] = None
            continue
        sub = _quiet(lambda: lb.select(systems=scored, tasks=list(ts)))
        sub_impute = impute and sub.has_missing
        out = spec.core(sub, rule_options, sub_impute)
        info = _missing_info(
            "impute" if sub_impute else None,
            len(sub.missing_cells()),
            "imputed pairwise matrix (impute_pairwise)" if sub_impute else "as the whole leaderboard",
        )
        res = build_result(spec, sub.systems, out, {**dict(rule_options), "group": g}, info, sub)
        group_results[g] = res
        if spec.kind == "score":
            meta.loc[scored, g] = res.scores.to_numpy()
        else:  # rankings only: a system scores the number of systems ranked strictly below it
            below = _systems_below(res.ranking)
            meta.loc[scored, g] = [below[s] for s in scored]
    second = spec.second_step or spec
    meta_lb = quiet_leaderboard(meta, weights=gw)
    meta_impute = impute and meta_lb.has_missing
    if meta_lb.has_missing and not (second.pairwise_missing or meta_impute):
        raise MissingScoreError(second.name, meta_lb.missing_cells(), _policies_for(second))
    out = second.core(meta_lb, rule_options if second is spec else {}, meta_impute)
    details = {
        "group_results": group_results,
        "group_scores": meta,
        "group_weights": gw,
        "second_step_rule": second.name,
        "second_step": out.details,
    }
    return CoreOutput(out.scores, details, out.ranking, out.winners)


def _systems_below(ranking: Sequence[Sequence[str]]) -> dict[str, float]:
    total = sum(len(g) for g in ranking)
    below: dict[str, float] = {}
    above = 0
    for group in ranking:
        for s in group:
            below[s] = float(total - above - len(group))
        above += len(group)
    return below


# ---------------------------------------------------------------------- tie-breaks
def _apply_tie_break(
    ranking: tuple[tuple[str, ...], ...], methods: Sequence[str], lb: Leaderboard | None
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    split: list[tuple[str, ...]] = []
    for method in methods:
        key: dict[str, float]
        if method == "mean":
            if lb is None:
                raise InvalidOptionError("tie_break='mean' needs the Leaderboard's scores")
            key = _mean_key(lb)
        else:
            key = {}
        new: list[tuple[str, ...]] = []
        for group in ranking:
            if len(group) == 1:
                new.append(group)
                continue
            if method == "mean":
                parts = tiers_from_scores(list(group), [key[s] for s in group], tol=SCORE_TOL)
            else:  # lexicographic: by system label
                parts = tuple((s,) for s in sorted(group))
            if len(parts) > 1:
                split.append(group)
            new.extend(parts)
        ranking = tuple(new)
    return ranking, tuple(split)


def _mean_key(lb: Leaderboard) -> dict[str, float]:
    """Weighted mean of oriented scores over the tasks each system is scored on."""
    values = lb.values
    w = lb.weights.to_numpy()
    ok = ~np.isnan(values)
    num = np.where(ok, values, 0.0) @ w
    den = ok.astype(np.float64) @ w
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(den > 0, num / np.where(den > 0, den, 1.0), -np.inf)
    return dict(zip(lb.systems, mean.tolist()))


# ---------------------------------------------------------------------- the entry point
def rank(data: Leaderboard | PairwiseMatrix, rule: str, **options: Any) -> RuleResult:
    """Rank the systems of a leaderboard with a named rule.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        The scores. Majority rules and ``kemeny`` also take a PairwiseMatrix.
    rule : str
        One of :data:`consensus.rules.RULE_NAMES`: ``plurality``, ``borda``, ``dowdall``,
        ``scoring``, ``rank_complement``, ``top_ten``, ``eurovision``, ``threshold``,
        ``baldwin``, ``condorcet``, ``copeland``, ``minimax``, ``mean``,
        ``geometric_mean``, ``optimality_gap``, ``kemeny``.
    **options
        The rule's own options (``ties``, ``variant``, ``vector``, ``gamma``, ``tie_tol``;
        see each function of :mod:`consensus.rules`; ``kemeny`` passes its options to
        :func:`consensus.kemeny.kemeny`) and the shared ones:

        missing : {None, "drop_tasks", "drop_systems", "impute"}, default None
            None: positional rules, Threshold, Baldwin and score baselines raise
            :class:`MissingScoreError`; majority rules and Kemeny compare each pair on the
            tasks both are scored on (Vote'n'Rank eq. 1). ``drop_*`` drop the tasks or
            systems with a missing score (listed in ``result.missing``). ``impute`` uses
            :func:`consensus.impute.impute_pairwise` (Borda, majority rules, Kemeny only).
        weighting : {None, "groups"}, default None
            ``"groups"``: every group of ``lb.groups`` carries the same total weight (its
            tasks keep their relative weights), Vote'n'Rank Fig. 1 B.
        group_weights : dict, optional
            Group -> weight (default 1 each) for ``weighting="groups"`` or ``two_step``.
        two_step : bool, default False
            Apply the rule within each group, then to the group results, Fig. 1 C.
        tie_break : {None, "mean", "lexicographic"} or a sequence of them, default None
            Split the rule's tie groups by the weighted mean of oriented scores, or by
            system label. The result's ``tie_break`` says which was used.

    Returns
    -------
    RuleResult

    Raises
    ------
    InvalidOptionError
        Unknown rule or option, or an option the rule cannot use.
    MissingScoreError
        Missing scores and no policy, for a rule that needs complete scores.

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice
       Theory", EACL 2023.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> rank(toy, "borda").scores.tolist()
    [6.0, 9.0, 8.0, 7.0]
    >>> rank(toy, "copeland").ranking
    (('B',), ('C',), ('D',), ('A',))
    >>> rank(toy, "dowdall", tie_break="lexicographic").order
    ('A', 'B', 'C', 'D')
    """
    from .rules import RULES

    if not isinstance(rule, str) or rule not in RULES:
        close = difflib.get_close_matches(str(rule), list(RULES), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise InvalidOptionError(f"unknown rule {rule!r}{hint}; choose one of {', '.join(RULES)}")
    func = RULES[rule]
    params = inspect.signature(func).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD and p.name == "kemeny_options" for p in params.values()):
        allowed = {n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY} | set(_SHARED_DEFAULTS)
        unknown = sorted(set(options) - allowed)
        if unknown:
            raise InvalidOptionError(
                f"rule {rule!r} takes no option(s) {', '.join(unknown)}; it takes {', '.join(sorted(allowed))}"
            )
    return func(data, **options)
