"""How far each shortcut lands from the exact answers: every rule against the exact Kemeny ranking.

:func:`compare_rules` runs the rules on one leaderboard, solves the exact Kemeny ranking
once, and measures each rule against it with the distances of :mod:`consensus.distances`
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

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .distances import (
    Tiers,
    as_tiers,
    check_penalty,
    kendall_tau,
    kendall_tau_distance,
    top_k_agreement,
)
from .errors import ConsensusError, InvalidOptionError
from .kemeny import kemeny
from .leaderboard import Leaderboard
from .majority import condorcet_winner
from .pairwise import pairwise
from .results import RuleComparison
from .rules import rank
from .task_distances import (
    rank_vector,
    ranking_objective,
    task_dispersion,
    task_distance,
)

__all__ = ["DEFAULT_RULES", "compare_rules", "compare"]

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


def compare_rules(
    table: Leaderboard,
    *,
    rules: Iterable[str] = DEFAULT_RULES,
    kemeny_result: Any = None,
    baseline: str = "mean",
    ks: Sequence[int] = (1, 3, 5),
    time_limit: float | None = None,
    solver: str = "highs",
    progress: Callable[..., Any] | None = None,
    rule_options: Mapping[str, Mapping[str, Any]] | None = None,
    tie_penalty: float = 0.5,
) -> RuleComparison:
    """Run each rule and measure how far its ranking lands from the exact Kemeny ranking.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    rules : iterable of str, default=:data:`DEFAULT_RULES`
        Rule names understood by :func:`consensus.rank`. The exact Kemeny ranking is the
        reference and always gets a row (``"kemeny"``, last unless listed).
    kemeny_result : KemenyResult, optional
        A Kemeny result already computed for `table` (it is not re-solved).
    baseline : str, default="mean"
        The rule rank changes and the second set of agreement columns refer to; it is
        compared too (first) when `rules` does not list it.
    ks : sequence of int, default=(1, 3, 5)
        The k of the top-k and least-k agreement columns (NaN where k > systems).
    time_limit, solver, progress
        Passed to :func:`consensus.kemeny` when `kemeny_result` is not given.
    rule_options : mapping, optional
        Rule name -> keyword options for :func:`consensus.rank` (e.g. a missing-score policy).
    tie_penalty : float, default=0.5
        See :func:`kendall_tau_distance`.

    Returns
    -------
    RuleComparison
        ``table`` (one row per rule, see :func:`compare` for the columns), the rankings,
        the rule results, the errors of rules that could not run, rank changes and the
        dispersion of the task rankings.

    Raises
    ------
    InvalidOptionError
        If `table` is not a Leaderboard, `tie_penalty` is not in [0, 1], a k in `ks` is
        below 1, `rule_options` names a rule that is not compared, a Kemeny option (solver
        name, time limit, ...) is invalid, or `kemeny_result` leaves out a system of `table`.
    UnknownSystemError
        If `kemeny_result` ranks a system that is not in `table`.
    SolverNotAvailableError
        If `solver` is not installed here (only when `kemeny_result` is not given).
    SolveFailedError
        If the Kemeny solve fails (only when `kemeny_result` is not given).

    Notes
    -----
    A rule that cannot run on this leaderboard (the geometric mean of non-positive
    scores, a positional rule with missing scores, ...) gets a row with ``status``
    ``"failed"`` and the error message in ``note``; nothing is raised for it.

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

    if not isinstance(table, Leaderboard):
        raise InvalidOptionError(f"compare_rules needs a Leaderboard, got {type(table).__name__}")
    pen = check_penalty(tie_penalty)
    ks = tuple(int(k) for k in ks)
    for k in ks:
        if k < 1:
            raise InvalidOptionError(f"every k must be >= 1, got {k}")
    names = list(dict.fromkeys(str(r) for r in rules))
    if baseline not in names:
        names.insert(0, str(baseline))
    if "kemeny" not in names:
        names.append("kemeny")
    options = {str(k): dict(v) for k, v in (rule_options or {}).items()}
    unknown_options = [r for r in options if r not in names]
    if unknown_options:
        raise InvalidOptionError(f"rule_options names rule(s) not compared: {', '.join(map(repr, unknown_options))}")

    pairs = pairwise(table)
    if kemeny_result is None:

        kw: dict[str, Any] = {"time_limit": time_limit, "solver": solver}
        if progress is not None:
            kw["progress"] = progress
        kw.update(options.get("kemeny", {}))
        start = time.perf_counter()
        kemeny_result = kemeny(pairs, **kw)
        kemeny_seconds = time.perf_counter() - start
    else:
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
        start = time.perf_counter()
        try:
            results[name] = rank(table, name, **options.get(name, {}))
        except ConsensusError as exc:
            errors[name] = f"{type(exc).__name__}: {exc}"
        seconds[name] = time.perf_counter() - start

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
        objective = optimum if name == "kemeny" else ranking_objective(pairs, tiers)
        gap = objective - optimum
        row.update(
            status="reference" if name == "kemeny" else "ok",
            winner=_format_winners(tiers),
            tie_groups=len(tiers),
            kendall_tau=kendall_tau(tiers, kemeny_tiers),
            kendall_distance=kendall_tau_distance(tiers, kemeny_tiers, tie_penalty=pen),
            objective=objective,
            gap=0.0 if name == "kemeny" else gap + 0.0,
            gap_ratio=1.0 if optimum == objective else (objective / optimum if optimum > 0 else math.inf),
            condorcet_winner=(None if winner is None else tiers[0] == (winner,)),
        )
        for k in ks:
            row[f"top{k}"] = top_k_agreement(tiers, kemeny_tiers, k) if k <= n else math.nan
            row[f"least{k}"] = top_k_agreement(tiers, kemeny_tiers, k, least=True) if k <= n else math.nan
        if base is not None:
            row[f"{baseline}_tau"] = kendall_tau(tiers, base)
            for k in ks:
                row[f"{baseline}_top{k}"] = top_k_agreement(tiers, base, k) if k <= n else math.nan
                row[f"{baseline}_least{k}"] = (
                    top_k_agreement(tiers, base, k, least=True) if k <= n else math.nan
                )
        distance = task_distance(pairs, tiers, tie_penalty=pen)
        row["task_distance"] = distance
        row["mean_task_distance"] = distance / total_weight if total_weight > 0 else math.nan
        row["seconds"] = seconds[name]
        row["note"] = ""
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
    )


def compare(table: Leaderboard, *, rules: Iterable[str] = DEFAULT_RULES, **options: Any) -> pd.DataFrame:
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
    an empty ``winner`` and missing values (NaN or NA) elsewhere.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    rules : iterable of str, default=:data:`DEFAULT_RULES`
        Rule names understood by :func:`consensus.rank`; the baseline and ``"kemeny"``
        are added when missing.
    **options
        Keyword options of :func:`compare_rules` (``kemeny_result``, ``baseline``, ``ks``,
        ``time_limit``, ``solver``, ``progress``, ``rule_options``, ``tie_penalty``).

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
    return compare_rules(table, rules=rules, **options).table
