"""How far each shortcut lands from the exact answers: every rule against the exact Kemeny ranking.

:func:`compare_rules` runs the rules on one leaderboard, solves the exact Kemeny ranking
once, and measures each rule against it with the distances of :mod:`consensus.comparison._distances`
(Kendall distance and tau with ties, the Kemeny objective of a tied ranking, top-k and
least-k agreement, distance to the task rankings); :func:`compare` returns its table.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice
   Theory", EACL 2023, sec. 3.1 (agreement rates, discriminative power, Table 3).
.. [2] Colombo et al., "What are the best systems? New perspectives on NLP
   benchmarking", NeurIPS 2022, sec. 3.4 and appendix C (dispersion).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .._docstrings import COMMON, fill_doc
from ..arguments import name_list
from ..board._leaderboard import Leaderboard
from ..errors import ConsensusError, InvalidOptionError
from ..exact._kemeny import kemeny
from ..hints import hinted, option
from ..majority._pairwise import PairwiseMatrix, pairwise
from ..majority._relation import condorcet_winner
from ..missing._impute import impute_pairwise
from ..missing._preparation import check_missing, prepared_for
from ..noise._seen import resolve, significance_pairwise
from ..results import Preparation, RuleComparison
from ..rules import rank, registry
from ._distances import (
    Tiers,
    as_tiers,
    check_penalty,
    kendall_tau,
    kendall_tau_distance,
    top_k_agreement,
)
from ._task_distances import (
    rank_vector,
    ranking_objective,
    task_dispersion,
    task_distance,
)

__all__ = ["DEFAULT_RULES", "COMPARE_POLICIES", "auto_policy", "compare_rules", "compare"]

#: The rules :func:`compare` runs by default (the exact Kemeny ranking is always added).
DEFAULT_RULES: tuple[str, ...] = (
    "mean",
    "geometric_mean",
    "borda",
    "dowdall",
    "plurality",
    "copeland",
    "minimax",
    "baldwin",
    "threshold",
)

def _format_winners(tiers: Tiers) -> str:
    return " = ".join(tiers[0]) if tiers else ""


#: The ``missing=`` choices of :func:`compare_rules` (``"pairwise"`` is an alias of None).
COMPARE_POLICIES: tuple[str | None, ...] = ("auto", None, "pairwise", "drop_tasks", "drop_systems", "impute", "median")


def auto_policy(rule: str) -> str | None:
    """The missing-score policy ``missing="auto"`` gives `rule` on a leaderboard with holes.

    Majority rules and Kemeny: None (each pair on the tasks both are scored on); score rules
    (``mean``, ``geometric_mean``, ``optimality_gap``): ``"median"``; every other rule
    (positional and iterative): ``"impute"`` (compatible permutations, Himmi et al.).

    Parameters
    ----------
    rule : str
        A rule name of :data:`consensus.rules.RULE_NAMES` (an unknown name gives None).

    Returns
    -------
    str or None

    Examples
    --------
    >>> auto_policy("copeland") is None, auto_policy("borda"), auto_policy("mean")
    (True, 'impute', 'median')
    """
    return registry.auto_missing(rule) if rule in registry.RULES else None  # unknown: reported as failed later


def _accepts(rule: str, policy: str | None) -> bool:
    entry = registry.RULES.get(rule)
    if entry is None or policy != "impute":
        return True
    return entry.imputable


def _resolve_policies(
    names: Sequence[str], missing: str | None, options: Mapping[str, Mapping[str, Any]], holes: bool
) -> dict[str, tuple[bool, str | None, str]]:
    """Rule -> (pass a policy?, the policy, how it was chosen)."""
    out: dict[str, tuple[bool, str | None, str]] = {}
    for name in names:
        if "missing" in options.get(name, {}):
            out[name] = (True, options[name]["missing"], "rule_options")
        elif not holes:
            out[name] = (False, None, "no missing scores")
        elif missing == "auto":
            out[name] = (True, auto_policy(name), "auto")
        elif _accepts(name, missing):
            out[name] = (True, missing, "missing")
        else:
            out[name] = (True, auto_policy(name), hinted("auto (the rule cannot use {})", option("missing", missing)))
    return out


def _kemeny_matrix(
    given: Leaderboard, table: Leaderboard, policy: str | None, min_coverage: float | None
) -> tuple[PairwiseMatrix, Preparation]:
    """The pairwise matrix of the Kemeny reference under `policy` (every system of `table`, the
    set-aside `given`, is kept: ``"drop_systems"`` and a policy that fails fall back to pairwise)."""
    try:
        ready = prepared_for(given, "compare_rules", missing=policy, min_coverage=min_coverage,
                             impute_treatment="imputed pairwise matrix (impute_pairwise)")
    except ConsensusError as exc:
        ready, why = prepared_for(given, "compare_rules", min_coverage=min_coverage), f"pairwise on shared tasks ({exc})"
    else:
        if policy != "drop_systems":
            return (impute_pairwise(ready.leaderboard).matrix if ready.impute else pairwise(ready.leaderboard)), ready.preparation
        ready = prepared_for(given, "compare_rules", min_coverage=min_coverage)
        why = "pairwise on shared tasks: the Kemeny reference ranks every system, so drop_systems does not apply"
    return pairwise(table), ready.preparation.with_treatment(why) if table.has_missing else ready.preparation


def _restrict(tiers: Tiers, keep: set[str]) -> Tiers:
    return tuple(g for g in (tuple(s for s in group if s in keep) for group in tiers) if g)


def _compare_options(
    data: object, missing: object, tie_penalty: float, ks: object, rules: object, baseline: object,
    rule_options: object, kemeny_result: object,
) -> tuple[Any, float, tuple[int, ...], list[str], dict[str, dict[str, Any]]]:
    """Every option of :func:`compare_rules` but the shared ones, checked in one place before any rule
    runs: the policy, the tie penalty, the ks, the rule names (baseline first, Kemeny last) and
    their options."""
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"compare_rules needs a Leaderboard, got {type(data).__name__}")
    if missing != "auto":
        missing = check_missing(missing, "compare_rules")
    pen = check_penalty(tie_penalty)
    checked_ks = tuple(name_list(ks, "ks", kind="integers"))
    for k in checked_ks:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise InvalidOptionError(f"every k of ks must be an integer, got {k!r}")
        if k < 1:
            raise InvalidOptionError(f"every k must be >= 1, got {k}")
    names = list(dict.fromkeys(str(r) for r in name_list(rules, "rules", kind="rule names")))
    if not isinstance(baseline, str):
        raise InvalidOptionError(f"baseline must be a rule name, got {baseline!r}")
    if not (rule_options is None or isinstance(rule_options, Mapping)) or not all(
        isinstance(v, Mapping) for v in (rule_options or {}).values()
    ):
        raise InvalidOptionError(f"rule_options must be a mapping rule -> {{option: value}}, got {rule_options!r}")
    if kemeny_result is not None and not hasattr(kemeny_result, "ranking"):
        raise InvalidOptionError(f"kemeny_result must be a KemenyResult, got {type(kemeny_result).__name__}")
    if baseline not in names:
        names.insert(0, str(baseline))
    registry.check_rule_names(names, listed=True)  # a typo is the user's error, not a rule that failed to run
    if "kemeny" not in names:
        names.append("kemeny")
    options = {str(k): dict(v) for k, v in (rule_options or {}).items()}
    unknown_options = [r for r in options if r not in names]
    if unknown_options:
        raise InvalidOptionError(f"rule_options names rule(s) not compared: {', '.join(map(repr, unknown_options))}")
    return missing, pen, tuple(int(k) for k in checked_ks), names, options


@fill_doc(COMMON)
def compare_rules(
    data: Leaderboard,
    *,
    rules: Iterable[str] = DEFAULT_RULES,
    missing: str | None = "auto",
    min_coverage: float | None = None,
    kemeny_result: Any = None,
    baseline: str = "mean",
    ks: Sequence[int] = (1, 3, 5),
    time_limit: float | None = None,
    solver: str = "highs",
    progress: Callable[..., Any] | None = None,
    rule_options: Mapping[str, Mapping[str, Any]] | None = None,
    tie_penalty: float = 0.5,
    significance: Any = None,
) -> RuleComparison:
    """Run each rule and measure how far its ranking lands from the exact Kemeny ranking.

    Parameters
    ----------
    data : Leaderboard
        The scores.
    rules : iterable of str, default=:data:`DEFAULT_RULES`
        Rule names understood by :func:`consensus.rank`. The exact Kemeny ranking is the
        reference and always gets a row (``"kemeny"``, last unless listed).
    missing : {"auto", None, "drop_tasks", "drop_systems", "impute", "median"}, default="auto"
        The missing-score policy (only used when a score is missing). ``"auto"``: every
        rule runs, each under :func:`auto_policy` (majority rules and Kemeny on the pairs
        both systems have, positional and iterative rules ``"impute"``, score rules
        ``"median"``). None (or ``"pairwise"``): the strict behaviour of
        :func:`consensus.rank`, rules that need complete scores fail. Any other policy
        applies to every rule that accepts it (``"impute"``: the rules that can impute;
        the others fall back to ``"auto"``). ``rule_options[rule]["missing"]`` overrides
        it per rule. :attr:`RuleComparison.preparations` says what each rule used.
    min_coverage : float, optional
        Drop the systems scored on less than this share of the task weight first
        (:meth:`Leaderboard.with_min_coverage`); the note naming them is in
        :attr:`RuleComparison.notes`.
    kemeny_result : KemenyResult, optional
        A Kemeny result already computed for `data` (it is not re-solved).
    baseline : str, default="mean"
        The rule rank changes and the second set of agreement columns refer to; it is
        compared too (first) when `rules` does not list it.
    ks : sequence of int, default=(1, 3, 5)
        The k of the top-k and least-k agreement columns (NaN where k > systems).
    time_limit, solver, progress
        Passed to :func:`consensus.kemeny` when `kemeny_result` is not given.
    rule_options : mapping, optional
        Rule name -> keyword options for :func:`consensus.rank` (e.g. a missing-score policy).
    {tie_penalty}
    significance : bool, float or SignificanceResult, optional
        Differences within noise are ties (:func:`consensus.significance`, resolved once on
        `data`): every rule runs with it, and the Kemeny reference solves the relation's
        pairwise matrix (its missing-score policy is then pairwise).

    Returns
    -------
    RuleComparison
        ``data`` (one row per rule, see :func:`compare` for the columns), the rankings,
        the rule results, the errors of rules that could not run, rank changes, the
        dispersion of the task rankings, the policy each rule used and the notes.

    Raises
    ------
    InvalidOptionError
        If `data` is not a Leaderboard, `missing` is not a policy, `min_coverage` is not
        in [0, 1] (or leaves fewer than 2 systems), `tie_penalty` is not a number in [0, 1],
        a k in `ks` is not an integer >= 1, `rules` or `ks` is not a list, `baseline` is
        not a rule name, `rule_options` is not a mapping rule -> options or names a rule
        that is not compared, a Kemeny option (solver name, time limit, ...) is invalid,
        or `kemeny_result` is not a Kemeny result or leaves out a system of `data`.
    UnknownSystemError
        If `kemeny_result` ranks a system that is not in `data`.
    SolverNotAvailableError
        If `solver` is not installed here (only when `kemeny_result` is not given).
    SolveFailedError
        If the Kemeny solve fails (only when `kemeny_result` is not given).

    Notes
    -----
    A rule that cannot run on this leaderboard (the geometric mean of non-positive
    scores, a positional rule with missing scores under ``missing=None``, ...) gets a row
    with ``status`` ``"failed"`` and the error message in ``note``; nothing is raised for it.

    The Kemeny reference ranks every system: its matrix is the pairwise comparison on
    shared tasks (None, ``"drop_systems"``), the imputed matrix (``"impute"``), or the
    pairwise comparison of the median-filled or task-dropped leaderboard. Every objective
    and task distance is measured on that matrix. A rule that ranks only some systems
    (``"drop_systems"``) is measured on those: against the Kemeny ranking restricted to
    them, objective and task distance on their sub-matrix, ``gap`` against the restricted
    Kemeny order (which need not be optimal for the sub-problem, so it can be negative);
    its ``note`` says which systems it left out.

    Examples
    --------
    >>> import consensus as cs
    >>> comp = compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "borda", "plurality"])
    >>> comp.table[["winner", "kendall_tau", "objective", "gap"]].round(3)  # doctest: +NORMALIZE_WHITESPACE
              winner  kendall_tau  objective  gap
    rule
    mean           B        1.000       12.0  0.0
    borda          B        1.000       12.0  0.0
    plurality      A       -0.707       16.5  4.5
    kemeny         B        1.000       12.0  0.0
    >>> comp.rank_changes()["plurality"].to_dict()
    {'B': -1, 'C': 0, 'D': 1, 'A': 3}
    """

    missing, pen, ks, names, options = _compare_options(data, missing, tie_penalty, ks, rules, baseline, rule_options,
                                                       kemeny_result)
    covered = prepared_for(data, "compare_rules", min_coverage=min_coverage)  # what every rule sets aside
    table, notes = covered.leaderboard, covered.preparation.notes
    chosen = _resolve_policies(names, missing, options, table.has_missing)
    noise = resolve(significance, table, "compare_rules")  # on the systems the coverage keeps
    if noise is not None and kemeny_result is not None and not any(
            n.startswith("significance") for n in kemeny_result.preparation.notes):
        raise InvalidOptionError("compare_rules: kemeny_result was solved without significance; drop it (the "
                                 "reference is then solved on the relation) or solve it with significance=")

    preparations: dict[str, Preparation] = {}
    chosen_by = {name: how for name, (_, _, how) in chosen.items()}
    if kemeny_result is None:
        kem_options = dict(options.get("kemeny", {}))
        kem_policy = check_missing(kem_options.pop("missing", chosen["kemeny"][1]), "compare_rules")
        if noise is None:
            pairs, preparations["kemeny"] = _kemeny_matrix(data, table, kem_policy, min_coverage)
        else:  # the relation, on the tasks both systems of a pair are scored on
            pairs = significance_pairwise(table, noise)
            preparations["kemeny"] = dataclasses.replace(
                covered.preparation.with_treatment("pairwise on shared tasks (significance)"),
                notes=covered.preparation.notes + (f"significance: the relation's pairwise matrix ({noise.setting})",))
            chosen_by["kemeny"] = "significance"
        kw: dict[str, Any] = {"time_limit": time_limit, "solver": solver}
        if progress is not None:
            kw["progress"] = progress
        kw.update(kem_options)
        start = time.perf_counter()
        kemeny_result = kemeny(pairs, **kw)
        kemeny_seconds = time.perf_counter() - start
    else:
        pairs = pairwise(table)
        preparations["kemeny"] = covered.preparation.with_treatment("Kemeny result given (kemeny_result)")
        chosen_by["kemeny"] = "kemeny_result"
        kemeny_seconds = float(getattr(kemeny_result, "seconds", float("nan")))
    kemeny_tiers = as_tiers(kemeny_result.ranking)
    rank_vector(pairs, kemeny_tiers)  # the result belongs to this leaderboard

    results: dict[str, Any] = {}
    errors: dict[str, str] = {}
    seconds: dict[str, float] = {}
    for name in names:
        if name == "kemeny":
            results[name] = kemeny_result
            seconds[name] = kemeny_seconds
            continue
        given, policy, how = chosen[name]
        kw = dict(options.get(name, {}))
        if given:
            kw["missing"] = policy
        kw.setdefault("min_coverage", min_coverage)  # each rule sets aside what the comparison set aside, no more
        if noise is not None:
            kw.setdefault("significance", noise)
        start = time.perf_counter()
        try:
            results[name] = rank(data, name, **kw)
            preparations[name] = results[name].preparation
        except ConsensusError as exc:
            errors[name] = f"{type(exc).__name__}: {exc}"
            preparations[name] = Preparation(policy, "not run", len(table.missing_cells()), notes=notes)
        seconds[name] = time.perf_counter() - start
    preparations = {name: preparations[name] for name in names}

    rankings = {name: as_tiers(res) for name, res in results.items()}
    winner = condorcet_winner(pairs)
    optimum = float(kemeny_result.objective)
    base = rankings.get(baseline)
    n = table.n_systems
    total_weight = float(table.weights.sum())
    rows = []
    for name in names:
        row: dict[str, Any] = {"rule": name}
        if name in errors:
            row.update(status="failed", note=errors[name])
            rows.append(row)
            continue
        tiers = rankings[name]
        ranked = {s for group in tiers for s in group}
        note = ""
        if len(ranked) < n:
            left_out = [s for s in table.systems if s not in ranked]
            shown = ", ".join(map(repr, left_out[:5])) + (", ..." if len(left_out) > 5 else "")
            note = f"ranks {len(ranked)} of {n} systems (left out: {shown}); measured on those"
            sub = pairs.select([s for s in table.systems if s in ranked])
            ref = _restrict(kemeny_tiers, ranked)
            objective = ranking_objective(sub, tiers)
            gap = objective - ranking_objective(sub, ref)
            ref_optimum = objective - gap
            base_tiers = None if base is None else _restrict(base, ranked)
        else:
            sub, ref, ref_optimum, base_tiers = pairs, kemeny_tiers, optimum, base
            objective = optimum if name == "kemeny" else ranking_objective(pairs, tiers)
            gap = objective - optimum
        unranked = getattr(results.get(name), "details", {}).get("unranked")
        if unranked:
            shown = ", ".join(map(repr, unranked[:5])) + (", ..." if len(unranked) > 5 else "")
            note = "; ".join(x for x in (note, f"unranked, placed last: {shown}") if x)
        m = len(ranked)
        row.update(
            status="reference" if name == "kemeny" else "ok",
            winner=_format_winners(tiers),
            tie_groups=len(tiers),
            kendall_tau=kendall_tau(tiers, ref),
            kendall_distance=kendall_tau_distance(tiers, ref, tie_penalty=pen),
            objective=objective,
            gap=0.0 if name == "kemeny" else gap + 0.0,
            gap_ratio=1.0 if ref_optimum == objective else (objective / ref_optimum if ref_optimum > 0 else math.inf),
            condorcet_winner=(None if winner is None else tiers[0] == (winner,)),
        )
        for k in ks:
            row[f"top{k}"] = top_k_agreement(tiers, ref, k) if k <= m else math.nan
            row[f"least{k}"] = top_k_agreement(tiers, ref, k, least=True) if k <= m else math.nan
        if base_tiers is not None:
            if {s for g in base_tiers for s in g} != ranked:  # the baseline left out systems this rule ranks
                keep = {s for g in base_tiers for s in g}
                tiers_b, base_b = _restrict(tiers, keep), base_tiers
            else:
                tiers_b, base_b = tiers, base_tiers
            mb = sum(len(g) for g in base_b)
            row[f"{baseline}_tau"] = kendall_tau(tiers_b, base_b)
            for k in ks:
                row[f"{baseline}_top{k}"] = top_k_agreement(tiers_b, base_b, k) if k <= mb else math.nan
                row[f"{baseline}_least{k}"] = (
                    top_k_agreement(tiers_b, base_b, k, least=True) if k <= mb else math.nan
                )
        distance = task_distance(sub, tiers, tie_penalty=pen)
        row["task_distance"] = distance
        row["mean_task_distance"] = distance / total_weight if total_weight > 0 else math.nan
        row["seconds"] = seconds[name]
        row["note"] = note
        rows.append(row)

    columns = ["status", "winner", "tie_groups", "kendall_tau", "kendall_distance", "objective", "gap", "gap_ratio",
               "condorcet_winner"]
    columns += [f"{kind}{k}" for kind in ("top", "least") for k in ks]
    columns += [f"{baseline}_tau"] + [f"{baseline}_{kind}{k}" for kind in ("top", "least") for k in ks]
    columns += ["task_distance", "mean_task_distance", "seconds", "note"]
    frame = pd.DataFrame(rows).set_index("rule").reindex(columns=columns)
    frame["tie_groups"] = frame["tie_groups"].astype("Int64")
    frame["condorcet_winner"] = frame["condorcet_winner"].astype("boolean")
    frame["note"] = frame["note"].fillna("")
    frame["winner"] = frame["winner"].fillna("")
    return RuleComparison(
        systems=table.systems,
        rules=tuple(names),
        _table=frame,
        rankings=rankings,
        results=results,
        errors=errors,
        kemeny=kemeny_result,
        condorcet_winner=winner,
        baseline=baseline,
        ks=ks,
        tie_penalty=pen,
        dispersion=task_dispersion(table, tie_penalty=pen),
        total_weight=total_weight,
        preparations=preparations,
        chosen_by=chosen_by,
        notes=notes,
    )


def compare(data: Leaderboard, *, rules: Iterable[str] = DEFAULT_RULES, **options: Any) -> pd.DataFrame:
    """One row per rule: how far its ranking is from the exact Kemeny ranking.

    The table of :func:`compare_rules` (which see for the options), indexed by ``rule``.
    Columns:

    - ``status`` (``ok``, ``failed``, ``reference``) and ``note`` (why a rule failed);
    - ``winner`` (the top tie group, ``" = "``-joined), ``tie_groups`` (number of distinct
      positions: the discriminative power of Vote'n'Rank, which counts the tied
      alternatives ``n - tie_groups``);
    - ``kendall_tau`` (tau-b) and ``kendall_distance`` to the Kemeny ranking;
    - ``objective`` (Kemeny objective of the rule's ranking, ties as a random tie-break),
      ``gap`` (``objective - optimum``) and ``gap_ratio`` (``objective / optimum``);
    - ``condorcet_winner``: whether the rule's winner is the Condorcet winner alone (NA
      when there is none);
    - ``top{k}``, ``least{k}``: agreement with Kemeny; ``mean_tau``, ``mean_top{k}``,
      ``mean_least{k}``: with the mean (NaN where k exceeds the systems; the prefix is the
      ``baseline`` option, ``mean`` by default);
    - ``task_distance`` (weighted sum of Kendall distances to the task rankings, Colombo
      et al. appendix C.1) and ``mean_task_distance`` (divided by the total task weight,
      comparable with :attr:`RuleComparison.dispersion`); ``seconds``.

    A rule that could not run keeps its row: ``status="failed"``, the error in ``note``,
    an empty ``winner`` and missing values (NaN or NA) elsewhere. On a leaderboard with
    missing scores every rule runs by default (``missing="auto"``); the policy each used is
    in :attr:`RuleComparison.chosen_by` (``compare_rules(...).chosen_by``).

    Parameters
    ----------
    data : Leaderboard
        The scores.
    rules : iterable of str, default=:data:`DEFAULT_RULES`
        Rule names understood by :func:`consensus.rank`; the baseline and ``"kemeny"``
        are added when missing.
    **options
        Keyword options of :func:`compare_rules` (``missing``, ``min_coverage``,
        ``kemeny_result``, ``baseline``, ``ks``, ``time_limit``, ``solver``, ``progress``,
        ``rule_options``, ``tie_penalty``).

    Returns
    -------
    pandas.DataFrame
        :attr:`RuleComparison.table`: one row per rule, the columns above.

    Raises
    ------
    InvalidOptionError, UnknownSystemError, SolverNotAvailableError, SolveFailedError
        As :func:`compare_rules`.

    Examples
    --------
    >>> import consensus as cs
    >>> table = compare(cs.load_example("votenrank-toy"), rules=["borda"])
    >>> table[["winner", "objective", "gap"]]  # doctest: +NORMALIZE_WHITESPACE
           winner  objective  gap
    rule
    mean        B       12.0  0.0
    borda       B       12.0  0.0
    kemeny      B       12.0  0.0
    """
    return compare_rules(data, rules=rules, **options).table
