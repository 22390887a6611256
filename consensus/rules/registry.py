"""The registry of rules, and :func:`rank`: one entry point for every rule by name.

To add a rule: write its function in the module of its family (:mod:`.positional`,
:mod:`.majority_rules`, :mod:`.scores`, ...) on top of :func:`.engine.run_rule` and declare it
with ``@rule`` (:mod:`.declaration`): :data:`RULES` is built from the declarations, and
``rank``, ``compare``, the weight questions' linear rules and the CLI pick it up from there.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..majority._pairwise import PairwiseMatrix
from ..results import RuleResult
from . import (
    condorcet_methods,
    iterative,
    kemeny_rule,
    leaderboard_aggregates,
    majority_rules,
    positional,
    scores,
    strengths,
)
from .declaration import DECLARED, Rule
from .spec import SHARED_OPTION_NAMES

__all__ = ["Rule", "RULES", "RULE_NAMES", "FAMILIES", "rank", "auto_missing", "check_rule_names"]


#: The rule families, in documentation order: :data:`RULES` lists each family's rules in the
#: order its module declares them (``@rule``, :mod:`.declaration`).
FAMILIES = (positional, iterative, majority_rules, scores, leaderboard_aggregates, strengths, condorcet_methods, kemeny_rule)

#: Rule name -> :class:`Rule`, in documentation order: every ``@rule`` declaration of the families.
RULES: Mapping[str, Rule] = MappingProxyType({
    name: declared
    for family in FAMILIES
    for name, declared in DECLARED.items()
    if declared.function.__module__ == family.__name__
})
if set(RULES) != set(DECLARED):  # a rule declared outside the families: add its module to FAMILIES
    raise ImportError(f"rules declared outside consensus.rules' families: {sorted(set(DECLARED) - set(RULES))}")
#: The registered rule names, in documentation order.
RULE_NAMES: tuple[str, ...] = tuple(RULES)


def check_rule_names(names: object, *, listed: bool = False) -> None:
    """Refuse names that are not registered rules: the one "unknown rule" check of the package
    (``rank``, ``compare``, the resampling studies and experiments, the CLI).

    Parameters
    ----------
    names : str or sequence of str
        One rule name (``rule=``) or several (``rules=``).
    listed : bool, default False
        The names came as a list: the message says "rule(s)".

    Raises
    ------
    InvalidOptionError
        Naming the unknown names, the closest rule names, and every rule.

    Examples
    --------
    >>> check_rule_names(["borda", "kemeny"], listed=True)
    >>> check_rule_names("bordda")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: unknown rule 'bordda'; did you mean 'borda'?; choose one of plurality, borda, ...
    """
    given = [names] if isinstance(names, str) or not isinstance(names, (list, tuple)) else list(names)
    unknown = [n for n in given if not isinstance(n, str) or n not in RULES]
    if not unknown:
        return
    close = difflib.get_close_matches(str(unknown[0]), list(RULES), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    shown = ", ".join(map(repr, unknown))
    raise InvalidOptionError(f"unknown rule{'(s)' if listed else ''} {shown}{hint}; choose one of {', '.join(RULES)}")


def auto_missing(rule: str) -> str | None:
    """The missing-score policy ``missing="auto"`` of ``compare`` / ``analyze`` gives `rule`.

    Majority rules, ``bradley_terry``, ``schulze``, ``ranked_pairs`` and Kemeny: None (each
    pair compared on the tasks both are scored on, Vote'n'Rank eq. 1). ``mean_win_rate``:
    None too (HELM's own treatment: each system averaged over the tasks it is scored on,
    against the rivals scored there). Borda and the other positional and iterative rules:
    ``"impute"`` (imputation by compatible permutations, Himmi et al.). Score baselines
    (``mean``, ``geometric_mean``, ``optimality_gap``, ``normalized_mean``): ``"median"``
    (per-task median fill, as the Vote'n'Rank case study does for mean-type baselines).

    Parameters
    ----------
    rule : str
        One of :data:`RULE_NAMES`.

    Returns
    -------
    str or None

    Raises
    ------
    InvalidOptionError
        If `rule` is not a registered rule.

    Examples
    --------
    >>> auto_missing("copeland"), auto_missing("dowdall"), auto_missing("mean")
    (None, 'impute', 'median')
    >>> auto_missing("mean_win_rate"), auto_missing("schulze"), auto_missing("normalized_mean")
    (None, None, 'median')
    """
    check_rule_names(rule)
    spec = RULES[rule].spec
    if spec.pairwise_missing:
        return None
    return "impute" if spec.impute else "median"


def rank(data: Leaderboard | PairwiseMatrix, rule: str, **options: Any) -> RuleResult:
    """Rank the systems of a leaderboard with a named rule.

    Parameters
    ----------
    data : Leaderboard, Prepared or PairwiseMatrix
        The scores (or scores prepared once by :func:`consensus.prepare`, then without the
        shared options below). Majority rules and ``kemeny`` also take a PairwiseMatrix.
    rule : str
        One of :data:`RULE_NAMES`: ``plurality``, ``borda``, ``dowdall``,
        ``scoring``, ``rank_complement``, ``top_ten``, ``eurovision``, ``threshold``,
        ``baldwin``, ``condorcet``, ``copeland``, ``minimax``, ``mean``,
        ``geometric_mean``, ``optimality_gap``, ``mean_win_rate`` (HELM),
        ``normalized_mean`` (Open LLM Leaderboard v2), ``bradley_terry``, ``schulze``,
        ``ranked_pairs``, ``kemeny``.
    **options
        The rule's own options (``ties``, ``variant``, ``vector``, ``gamma``, ``tie_tol``,
        ``baseline``, ``maximum``, ``clip``, ``prior``;
        see each function of :mod:`consensus.rules`; ``kemeny`` passes its options to
        :func:`consensus.exact._kemeny.kemeny`) and the shared ones:

        missing : {None, "pairwise", "drop_tasks", "drop_systems", "impute", "median"}, default None
            The preparation stage (:func:`consensus.prepare`). None (``"pairwise"``): positional rules, Threshold, Baldwin and score baselines raise
            :class:`MissingScoreError`; majority rules, Bradley-Terry, Schulze, ranked pairs
            and Kemeny compare each pair on the tasks both are scored on (Vote'n'Rank eq. 1);
            ``mean_win_rate`` averages each system over its own tasks (HELM). ``drop_*`` drop the tasks or
            systems with a missing score (listed in ``result.preparation``). ``impute``:
            imputation by compatible permutations (Himmi et al.): majority rules, Kemeny
            and Baldwin use :func:`consensus.missing._impute.impute_pairwise`; positional rules score
            the expected points over the complete rankings compatible with each task
            (:func:`consensus.missing._impute.position_distribution`); Threshold the expected
            position counts; score baselines refuse it. ``median``: every missing score is
            filled with the median of the scored systems on its task, then the rule runs on
            the complete board (``result.preparation.medians``). :func:`auto_missing`
            gives the policy ``compare(..., missing="auto")`` uses for each rule.
        min_coverage : float, optional
            Set aside the systems whose coverage is below this share before anything else
            (:func:`consensus.board._coverage.set_aside`); None: the default rule (half, relaxed on
            boards of partial ballots); 0: rank every system. ``result.preparation`` records
            the threshold, the systems set aside and a note.
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
        The ranking, scores and winners of `rule`, with every option used.

    Raises
    ------
    InvalidOptionError
        Unknown rule, an option the rule does not take (the message lists those it takes;
        for ``kemeny``, the keyword options of :func:`consensus.exact._kemeny.kemeny` and the
        shared ones), or an option value the rule cannot use.
    MissingScoreError
        Missing scores and no policy, for a rule that needs complete scores.
    NonPositiveScoreError
        ``geometric_mean`` with fewer than two systems whose scores are all > 0 (the
        others are unranked).
    UnknownTaskError
        ``optimality_gap`` with a `gamma` mapping, or ``normalized_mean`` with a
        `baseline` / `maximum` mapping, that names an unknown task.
    SolverNotAvailableError
        ``kemeny`` with a solver that is not installed here.
    SolveFailedError
        ``kemeny``: the solver failed or, without a time limit, stopped before proving
        optimality.

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
    check_rule_names(rule)
    entry = RULES[rule]
    allowed = set(entry.options) | set(SHARED_OPTION_NAMES)
    unknown = sorted(set(options) - allowed)
    if unknown:
        close = [c for name in unknown for c in difflib.get_close_matches(name, sorted(allowed), n=1, cutoff=0.6)]
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise InvalidOptionError(
            f"rule {rule!r} takes no option(s) {', '.join(unknown)}; it takes {', '.join(sorted(allowed))}{hint}"
        )
    if isinstance(data, Leaderboard):
        options.setdefault("min_coverage", None)  # the set-aside rule of every ranking question (coverage.set_aside)
    return entry.function(data, **options)
