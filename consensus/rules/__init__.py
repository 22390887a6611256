"""Voting rules over tasks: scoring, iterative, majority-relation rules, leaderboard aggregates.

Each task is a voter ranking the systems; a rule aggregates those rankings (Rofin et al.
2023, sec. 2.2 and appendix A). Every rule takes a :class:`~consensus.Leaderboard` (majority
rules, ``bradley_terry``, ``schulze``, ``ranked_pairs`` and ``kemeny`` also a
:class:`~consensus.PairwiseMatrix`), its own options, and the options shared by all rules
(``missing``, ``min_coverage``, ``weighting``, ``group_weights``, ``two_step``,
``tie_break``; see :func:`rank`), and returns a :class:`~consensus.results.RuleResult`.

==============================  =======================================================
module                          rules
==============================  =======================================================
:mod:`.positional`              :func:`plurality`, :func:`borda`, :func:`dowdall`,
                                :func:`scoring`, :func:`rank_complement`,
                                :func:`top_ten`, :func:`eurovision` (points by position)
:mod:`.iterative`               :func:`threshold`, :func:`baldwin`
:mod:`.majority_rules`          :func:`condorcet`, :func:`copeland`, :func:`minimax`
:mod:`.condorcet_methods`       :func:`schulze`, :func:`ranked_pairs` (Tideman)
:mod:`.strengths`               :func:`bradley_terry` (maximum-likelihood strengths)
:mod:`.scores`                  :func:`mean`, :func:`geometric_mean`,
                                :func:`optimality_gap`
:mod:`.leaderboard_aggregates`  :func:`mean_win_rate` (HELM), :func:`normalized_mean`
                                (Open LLM Leaderboard v2)
:mod:`.kemeny_rule`             :func:`kemeny` (the exact consensus as a RuleResult)
:mod:`.engine`                  the shared pipeline: :func:`run_rule` (after the
                                preparation stage, :mod:`consensus.missing._preparation`)
:mod:`.policies`                its own steps: float range, how each kind imputes,
                                two-step group scores, tie-breaks
:mod:`.imputed`                 ``missing="impute"`` for positional and iterative rules
                                (expected points over compatible rankings)
:mod:`.declaration`             ``@rule``: a rule declared in one place (name, kind,
                                missing scores, options, linearity)
:mod:`.registry`                :data:`RULES` (name -> :class:`Rule`, built from the
                                declarations), :func:`rank` and :func:`auto_missing`
==============================  =======================================================

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, sections 2.2-2.4 and appendix A.
.. [2] Pinter, "Apres toi: scoring systems based on dataset votes", section 2.
.. [3] Himmi et al., "Towards more robust NLP system evaluation: handling missing scores
   in benchmarks", 2023 (Borda on the imputed pairwise matrix).
.. [4] Liang et al., "Holistic Evaluation of Language Models", TMLR 2023 (mean win rate).
.. [5] Schulze 2011; Tideman 1987; Bradley and Terry 1952 (see each module).
"""

from .condorcet_methods import ranked_pairs, schulze
from .iterative import baldwin, threshold
from .kemeny_rule import kemeny
from .leaderboard_aggregates import mean_win_rate, normalized_mean
from .majority_rules import condorcet, copeland, minimax
from .positional import (
    borda,
    dowdall,
    eurovision,
    plurality,
    rank_complement,
    scoring,
    scoring_vector,
    top_ten,
)
from .registry import RULE_NAMES, RULES, Rule, auto_missing, rank
from .scores import geometric_mean, mean, optimality_gap
from .spec import (
    MISSING_POLICIES,
    SCORE_TOL,
    SHARED_OPTION_NAMES,
    MissingPolicy,
    RuleSpec,
    SharedOptions,
    TieBreak,
)
from .strengths import bradley_terry

__all__ = [
    "plurality",
    "borda",
    "dowdall",
    "scoring",
    "rank_complement",
    "top_ten",
    "eurovision",
    "threshold",
    "baldwin",
    "condorcet",
    "copeland",
    "minimax",
    "mean",
    "geometric_mean",
    "optimality_gap",
    "mean_win_rate",
    "normalized_mean",
    "bradley_terry",
    "schulze",
    "ranked_pairs",
    "kemeny",
    "scoring_vector",
    "rank",
    "auto_missing",
    "MISSING_POLICIES",
    "Rule",
    "RULES",
    "RULE_NAMES",
    "RuleSpec",
    "SharedOptions",
    "SHARED_OPTION_NAMES",
    "SCORE_TOL",
    "MissingPolicy",
    "TieBreak",
]
