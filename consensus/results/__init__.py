"""Frozen result objects, one module per concept; :mod:`.base` holds what they share.

=====================  ====================================================================
module                 results
=====================  ====================================================================
:mod:`.preparation`    :class:`Preparation` (what was done to the scores first; every result)
:mod:`.rules`          :class:`RuleResult` (every voting rule and score baseline)
:mod:`.kemeny`         :class:`KemenyResult` (exact Kemeny consensus)
:mod:`.condorcet`      :class:`CondorcetWeightsResult` (also of ``winning_weights``),
                       :class:`CondorcetCertificate`, :class:`WeightConstraint`
:mod:`.prospective`    :class:`ProspectiveResult`
:mod:`.possible`       :class:`PossibleWinners`, :class:`RankRanges` (who can still win, and where each
                       system can still end, under missing scores)
:mod:`.missing`        :class:`ImputationResult`, :class:`MeanBaselineResult`,
                       :class:`PairwiseConfidence`
:mod:`.experiments`    :class:`RobustnessResult`, :class:`ExperimentResult`
:mod:`.comparison`     :class:`RuleComparison`
:mod:`.majority`       :class:`MajoritySummary`
:mod:`.analysis`       :class:`Analysis`, :class:`Check`
:mod:`.sensitivity`    :class:`SensitivityResult`, :class:`RadiusAnswer`,
                       :class:`RemovalAnswer`
:mod:`.stability`      :class:`StabilityResult` (rank intervals over resampled leaderboards)
:mod:`.significance`   :class:`SignificanceResult` (per task, which systems differ beyond noise)
=====================  ====================================================================

No result module imports the code that produces it; checks of a result's evidence live in
:mod:`consensus.exact._certificates`.
"""

from .analysis import Analysis, Check
from .base import (
    RankedResult,
    collect_infinities,
    freeze_mapping,
    jsonable,
    tiers_from_scores,
    walk_tiers,
)
from .comparison import RuleComparison
from .condorcet import (
    CondorcetCertificate,
    CondorcetWeightsResult,
    WeightConstraint,
)
from .experiments import ExperimentResult, RobustnessResult
from .kemeny import KemenyDetermination, KemenyResult
from .majority import MajoritySummary
from .missing import ImputationResult, MeanBaselineResult, PairwiseConfidence
from .possible import PossibleWinners, RankRanges
from .preparation import Preparation
from .prospective import ProspectiveResult
from .rules import RuleResult
from .sensitivity import RadiusAnswer, RemovalAnswer, SensitivityResult
from .significance import SignificanceResult
from .stability import StabilityResult

__all__ = [
    "Analysis",
    "Check",
    "CondorcetCertificate",
    "CondorcetWeightsResult",
    "ImputationResult",
    "KemenyDetermination",
    "KemenyResult",
    "MajoritySummary",
    "MeanBaselineResult",
    "PairwiseConfidence",
    "Preparation",
    "PossibleWinners",
    "RankRanges",
    "ProspectiveResult",
    "RankedResult",
    "ExperimentResult",
    "RobustnessResult",
    "RuleComparison",
    "RuleResult",
    "RadiusAnswer",
    "RemovalAnswer",
    "SensitivityResult",
    "SignificanceResult",
    "StabilityResult",
    "WeightConstraint",
    "freeze_mapping",
    "jsonable",
    "collect_infinities",
    "tiers_from_scores",
    "walk_tiers",
]
