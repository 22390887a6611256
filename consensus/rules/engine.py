"""The pipeline every rule runs through, and the options all rules share.

Every rule of :mod:`consensus.rules` runs through :func:`run_rule`, which applies, in this
order:

1. the preparation stage every question shares (:func:`consensus.missing._preparation.prepared_for`):
   coverage (``min_coverage``), the missing-score policy (``missing``) and group weighting
   (``weighting="groups"``), recorded in ``result.preparation``; a rule that needs complete
   scores refuses holes left by ``missing=None``;
2. weights near the top of float64 divided by a power of two (rules are scale-free);
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

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..arguments import check_min_coverage
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, MissingScoreError, ScoreOverflowError
from ..hints import hinted, option
from ..majority._inputs import as_pairwise
from ..majority._pairwise import PairwiseMatrix
from ..missing._preparation import (
    Prepared,
    check_group_option,
    check_missing,
    group_weight_values,
    prepared_for,
)
from ..noise._seen import resolve, seen_through, tie_group_board
from ..results import RuleResult
from ..results.preparation import Preparation
from ..results.significance import SignificanceResult
from .policies import (
    IMPUTE_TREATMENT,
    NO_IMPUTE,
    apply_tie_break,
    fit_weights,
    policies_for,
    systems_below,
    tie_break_methods,
)
from .spec import (
    SCORE_TOL,
    SHARED_DEFAULTS,
    SHARED_OPTION_NAMES,
    TIE_BREAKS,
    CoreOutput,
    MissingPolicy,
    RuleSpec,
    SharedOptions,
    TieBreak,
    check_choice,
    pairwise_of,
    quiet,
    quiet_leaderboard,
    tiers,
)

__all__ = ["run_rule", "RuleSpec", "SharedOptions", "SHARED_OPTION_NAMES", "MissingPolicy", "TieBreak", "SCORE_TOL"]


# ---------------------------------------------------------------------- the pipeline
def run_rule(spec: RuleSpec, data: Any, rule_options: Mapping[str, Any], shared: Mapping[str, Any]) -> RuleResult:
    """Run `spec` on `data` with its own `rule_options` and the `shared` options of :func:`rank`.

    Parameters
    ----------
    spec : RuleSpec
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        A matrix only if ``spec.accepts_matrix``; InstanceScores also via ``missing="impute"``
        (Borda, majority rules, Kemeny: the rules the imputed pairwise matrix serves).
    rule_options : Mapping[str, Any]
        The rule's own options, already checked; passed to ``spec.core``.
    shared : Mapping[str, Any]
        The shared options as given (unset ones take their defaults).

    Returns
    -------
    RuleResult
        From :func:`build_result`; ``options`` holds `rule_options` and every shared option.

    Raises
    ------
    InvalidOptionError
        A shared option that is invalid or cannot apply (no groups, a drop policy leaving
        nothing, ``missing="impute"`` the rule cannot use, ...), or `data` of a wrong type.
    MissingScoreError
        Missing scores with ``missing=None`` when ``spec.pairwise_missing`` is False.
    ScoreOverflowError
        A score does not fit in float64 even after the weights were rescaled (task weights
        near 1e308 are divided by a power of two first, recorded in
        ``details["weight_scale"]``; means are taken on rescaled scores).
    InvalidWeightError
        A positive weight is below 2**-1074 of the largest, so float64 cannot hold both.
    """
    opts = _check_shared(spec, shared)
    shift = 0
    if isinstance(data, (Leaderboard, Prepared)):
        context = f"rule {spec.name!r}"
        noisy = _significance(spec, opts, data, rule_options)
        if isinstance(data, Leaderboard) and noisy is not None and spec.noise == "groups":
            # before the missing-score policy, which then fills group levels; the groups are built among
            # the systems the coverage keeps (the others score 0 and are set aside again)
            data = tie_group_board(data, noisy, partial=True)
            noisy = None
        if isinstance(data, Leaderboard):
            data, shift = fit_weights(data)  # weights near 1e308: divided by 2**shift (rules are scale-free)
        ready = prepared_for(
            data, context, missing=opts["missing"], min_coverage=opts["min_coverage"], weighting=opts["weighting"],
            coverage_default=SHARED_DEFAULTS["min_coverage"],
            group_weights=None if opts["two_step"] else opts["group_weights"],
            impute=None if spec.impute else NO_IMPUTE, impute_treatment=IMPUTE_TREATMENT.get(spec.kind),
            alternatives=("median", "impute") if spec.impute else ("median",),
        )
        lb, more = fit_weights(ready.leaderboard)
        shift += more
        if ready.preparation.missing is None and lb.has_missing and not spec.pairwise_missing:
            raise MissingScoreError(spec.name, lb.missing_cells(), policies_for(spec))
        preparation = ready.preparation
        if opts["two_step"]:
            out = _two_step(spec, lb, rule_options, ready.impute, opts["group_weights"])
        else:
            out = spec.core(_noisy_board(spec, lb, noisy), rule_options, ready.impute)
        if opts["significance"] is not None:
            out.details["significance"] = _noise_note(spec, opts["significance"])
            preparation = dataclasses.replace(
                preparation, notes=preparation.notes + ("significance: " + out.details["significance"],)
            )
        systems = lb.systems
    elif opts["significance"] not in (None, False):
        raise InvalidOptionError(
            f"rule {spec.name!r}: significance needs a Leaderboard (its scores and standard errors), got "
            f"{type(data).__name__}; for instance-level scores rank instances.to_leaderboard() with "
            "significance=cs.significance(instances)"
        )
    elif (
        opts["missing"] == "impute"
        and (spec.accepts_matrix or spec.name == "borda")  # the rules a pairwise matrix serves
        and isinstance(data, InstanceScores)
    ):
        # instance-level scores (InstanceScores): the one-level imputed matrix, sigma_l of Himmi et al.
        for key in ("min_coverage", "weighting", "group_weights", "two_step"):
            if opts[key] != SHARED_DEFAULTS[key]:
                raise InvalidOptionError(f"rule {spec.name!r}: option {key}={opts[key]!r} needs a Leaderboard")
        if "mean" in tie_break_methods(opts["tie_break"]):
            raise InvalidOptionError("tie_break='mean' needs a Leaderboard")
        lb = None
        matrix = pairwise_of(data, True)
        preparation = Preparation("impute", "imputed pairwise matrix of the instance-level scores (impute_pairwise)")
        out = spec.core(matrix, rule_options, True)
        systems = matrix.systems
    elif spec.accepts_matrix and (
        isinstance(data, (PairwiseMatrix, InstanceScores)) or hasattr(data, "to_pairwise")
    ):
        for key in ("missing", "min_coverage", "weighting", "group_weights", "two_step"):
            if opts[key] != SHARED_DEFAULTS[key]:
                raise InvalidOptionError(
                    f"rule {spec.name!r}: option {key}={opts[key]!r} needs a Leaderboard, not a pairwise matrix"
                )
        if "mean" in tie_break_methods(opts["tie_break"]):
            raise InvalidOptionError("tie_break='mean' needs scores: pass the Leaderboard, not a pairwise matrix")
        lb = None
        matrix = as_pairwise(data)
        preparation = Preparation(None, "pairwise matrix given: its counts are used as they are")
        out = spec.core(matrix, rule_options, False)
        systems = matrix.systems
    else:
        what = "a Leaderboard or a PairwiseMatrix" if spec.accepts_matrix else "a Leaderboard"
        serves = spec.accepts_matrix or spec.name == "borda"  # instance-level scores: pairwise rules only
        hint = hinted("; instance-level scores need {}", option("missing", "impute")) if serves and isinstance(
            data, InstanceScores) else ""
        raise InvalidOptionError(hinted("rule {!r} needs {}, got {}{}", spec.name, what, type(data).__name__, hint))
    if shift:
        out.details["weight_scale"] = 2.0**-shift  # the weights the scores are in units of
    _check_finite(spec, systems, out)
    options = {**dict(rule_options), **opts}
    return build_result(spec, systems, out, options, preparation, lb)


def _significance(
    spec: RuleSpec, opts: dict[str, Any], data: Leaderboard | Prepared, rule_options: Mapping[str, Any]
) -> SignificanceResult | None:
    """The ``significance=`` option as a result (None: off, or a score rule it leaves unchanged),
    resolved on the scores as given; its setting replaces it in `opts` (the options a result
    records stay plain values).

    True or a level is resolved on the board after coverage (the systems set aside are not in
    the correction's family); a given result must cover the systems kept. The rules within tasks
    see each task's tie groups, built among the systems kept from the scored cells before the
    missing-score policy, which then fills or imputes group levels. The majority rules and Kemeny
    read the relation on the tasks both systems are scored on: a filled cell has no noise to
    test, so ``missing="median"`` / ``"impute"`` (or prepared data filled so) are refused for
    them."""
    given = opts["significance"]
    if given is None or given is False:
        opts["significance"] = None
        return None
    context = f"rule {spec.name!r}"
    if spec.noise == "relation" and opts["missing"] in ("median", "impute"):
        raise InvalidOptionError(hinted(
            "{}: significance cannot be combined with {}: a filled cell has no noise to test; use missing=None (each "
            "pair on the tasks both are scored on) or a drop policy", context, option("missing", opts["missing"]),
        ))
    if opts["two_step"]:
        raise InvalidOptionError(f"{context}: significance cannot be combined with two_step=True")
    if rule_options.get("tie_tol"):
        raise InvalidOptionError(f"{context}: significance replaces tie_tol; give one or the other")
    if "mean" in tie_break_methods(opts["tie_break"]) and spec.noise != "unchanged":
        raise InvalidOptionError(f"{context}: tie_break='mean' would break the ties significance makes by the very "
                                 "differences it found within noise; drop one of them")
    if isinstance(data, Prepared) and data.preparation.missing in ("median", "impute") and spec.noise != "unchanged":
        raise InvalidOptionError(hinted(
            "{}: the prepared data filled missing cells ({}), which have no noise to test; pass the Leaderboard and "
            "the policy to the rule instead (rules within tasks fill the groups)", context,
            option("missing", data.preparation.missing),
        ))
    # resolved on the systems the coverage keeps (the same board every entry point uses)
    covered = data if isinstance(data, Prepared) else prepared_for(
        data, context, min_coverage=opts["min_coverage"], coverage_default=SHARED_DEFAULTS["min_coverage"])
    result = resolve(given, covered.leaderboard, context)
    assert result is not None
    opts["significance"] = result.setting
    return None if spec.noise == "unchanged" else result


def _noisy_board(spec: RuleSpec, lb: Leaderboard, result: SignificanceResult | None) -> Leaderboard:
    """The board `spec` runs on under `result`: its pairwise matrix the relation (majority rules,
    Kemeny), or each task's tie groups as its scores (every other rule that ranks within tasks;
    Baldwin's Borda counts too)."""
    if result is None:
        return lb
    return seen_through(lb, result) if spec.noise == "relation" else tie_group_board(lb, result)


def _noise_note(spec: RuleSpec, setting: str) -> str:
    """What significance changed for `spec`, in words (``details["significance"]``)."""
    if spec.noise == "relation":
        return f"a task counts for a pair only where the pair differs significantly ({setting})"
    if spec.noise == "groups":
        return f"each task's scores replaced by its tie groups within noise ({setting})"
    return f"unchanged: a score rule adds the scores themselves ({setting})"


def _check_finite(spec: RuleSpec, systems: Sequence[str], out: CoreOutput) -> None:
    """Refuse scores beyond float64 (never rank -inf against -inf by input order)."""
    scores = np.asarray(out.scores, dtype=np.float64)
    unranked = set(out.details.get("unranked", ()))
    bad = [s for s, v in zip(systems, scores.tolist()) if not np.isfinite(v) and s not in unranked]
    if bad:
        raise ScoreOverflowError(spec.name, bad)


def build_result(
    spec: RuleSpec,
    systems: Sequence[str],
    out: CoreOutput,
    options: Mapping[str, Any],
    preparation: Preparation,
    lb: Leaderboard | None,
) -> RuleResult:
    """Wrap a core's output in a RuleResult, applying the tie-break named in `options`.

    Parameters
    ----------
    spec : RuleSpec
    systems : sequence of str
        The systems ranked, aligned with ``out.scores``.
    out : CoreOutput
    options : Mapping[str, Any]
        Every option used (recorded).
    preparation : Preparation
        What the preparation stage did (recorded).
    lb : Leaderboard or None
        The leaderboard ranked, for ``tie_break="mean"``.

    Returns
    -------
    RuleResult

    Raises
    ------
    InvalidOptionError
        A malformed ``tie_break``, or ``tie_break="mean"`` with `lb` None.
    """
    # weight-homogeneous scores (points, defeats) after fit_weights: ties as in the unscaled scores
    unit = out.details.get("weight_scale", 1.0) if spec.kind in ("positional", "majority") else 1.0
    ranking = out.ranking if out.ranking is not None else tiers(systems, out.scores, unit=unit)
    details = dict(out.details)
    tie_break = options.get("tie_break")
    methods = tie_break_methods(tie_break)
    if methods:
        ranking, split = apply_tie_break(ranking, methods, lb)
        details["tie_break"] = {"methods": methods, "split_groups": split}
    winners = out.winners if out.winners is not None else ranking[0]
    ties = str(options.get("ties", spec.ties_label))
    return RuleResult(
        rule=spec.name,
        options=options,
        systems=tuple(systems),
        score_values=np.asarray(out.scores, dtype=np.float64),
        ranking=ranking,
        winners=winners,
        ties=ties,
        preparation=preparation,
        tie_break=tie_break,
        details=details,
    )


def _check_shared(spec: RuleSpec, shared: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(shared) - set(SHARED_DEFAULTS)
    if unknown:
        raise InvalidOptionError(f"rule {spec.name!r}: unknown option(s) {', '.join(sorted(unknown))}")
    opts = {**SHARED_DEFAULTS, **shared}
    opts["missing"] = check_missing(opts["missing"], f"rule {spec.name!r}")
    if opts["min_coverage"] is not None:
        opts["min_coverage"] = check_min_coverage(opts["min_coverage"], f"rule {spec.name!r}: ")
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
    methods = tie_break_methods(opts["tie_break"])
    for m in methods:
        check_choice("tie_break", m, TIE_BREAKS, spec.name)
    if opts["tie_break"] is not None and not isinstance(opts["tie_break"], str):
        opts["tie_break"] = tuple(methods)
    return opts


def _two_step(
    spec: RuleSpec, lb: Leaderboard, rule_options: Mapping[str, Any], impute: bool, group_weights: Mapping[str, float] | None
) -> CoreOutput:
    """The rule within each group, then over the group results (Vote'n'Rank Fig. 1 C)."""
    groups = check_group_option(lb, "two_step=True")
    gw = group_weight_values(groups, group_weights)
    meta = pd.DataFrame(np.nan, index=pd.Index(lb.systems, dtype=object), columns=pd.Index(list(groups), dtype=object))
    group_results: dict[str, RuleResult | None] = {}
    present = ~lb.missing
    for g, ts in groups.items():
        scored = [s for s in lb.systems if present.loc[s, list(ts)].any()]
        if len(scored) < 2:  # nothing to compare inside this group
            meta.loc[scored, g] = 0.0
            group_results[g] = None
            continue
        sub = quiet(lambda: lb.select(systems=scored, tasks=list(ts)))
        sub_impute = impute and sub.has_missing
        out = spec.core(sub, rule_options, sub_impute)
        info = Preparation(
            "impute" if sub_impute else None,
            "imputed pairwise matrix (impute_pairwise)" if sub_impute else "as the whole leaderboard",
            len(sub.missing_cells()),
        )
        res = build_result(spec, sub.systems, out, {**dict(rule_options), "group": g}, info, sub)
        group_results[g] = res
        if spec.kind == "score":
            meta.loc[scored, g] = res.scores.to_numpy()
        else:  # rankings only: a system scores the number of systems ranked strictly below it
            below = systems_below(res.ranking)
            meta.loc[scored, g] = [below[s] for s in scored]
    second = spec.second_step or spec
    meta_lb, _ = fit_weights(quiet_leaderboard(meta, weights=gw))
    meta_impute = impute and meta_lb.has_missing
    if meta_lb.has_missing and not (second.pairwise_missing or meta_impute):
        raise MissingScoreError(second.name, meta_lb.missing_cells(), policies_for(second))
    out = second.core(meta_lb, rule_options if second is spec else {}, meta_impute)
    details = {
        "group_results": group_results,
        "group_scores": meta,
        "group_weights": gw,
        "second_step_rule": second.name,
        "second_step": out.details,
    }
    return CoreOutput(out.scores, details, out.ranking, out.winners)
