"""leaderboard-consensus: exact answers for multi-task benchmark leaderboards.

Data flow (``docs/architecture.md``): scores -> :class:`Leaderboard` / :class:`InstanceScores`
-> :func:`pairwise` / :func:`majority_graph` -> voting rules (:func:`rank`) and exact solvers
(:func:`kemeny`, :func:`condorcet_weights`) -> result objects -> :func:`render` and the
``consensus`` CLI. The names below are grouped in that order.
"""

# The public names, grouped along the data flow, and the module each lives in. They are
# imported on first use (PEP 562), so that ``import consensus`` and ``consensus --version``
# do not pay for pandas, scipy and the solvers until something needs them.
import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

_EXPORTS: dict[str, str] = {
    # errors
    "CompositeScoreError": "errors",
    "ConsensusError": "errors",
    "DegenerateTaskWarning": "errors",
    "DuplicateInstanceError": "errors",
    "DuplicateLabelError": "errors",
    "EmptyLabelError": "errors",
    "EmptySystemError": "errors",
    "EmptyTaskError": "errors",
    "InvalidOptionError": "errors",
    "InvalidWeightError": "errors",
    "LeaderboardError": "errors",
    "LeaderboardErrors": "errors",
    "LongFormatError": "errors",
    "InputTooLargeError": "errors",
    "MissingScoreError": "errors",
    "NonFiniteScoreError": "errors",
    "NonNumericScoreError": "errors",
    "NonPositiveScoreError": "errors",
    "ScoreOverflowError": "errors",
    "NoTaskError": "errors",
    "SolveFailedError": "errors",
    "SolverNotAvailableError": "errors",
    "UnknownSolverError": "errors",
    "TooFewSystemsError": "errors",
    "UnknownSystemError": "errors",
    "UnknownTaskError": "errors",
    # scores in: leaderboards, instance-level scores, files, built-in examples
    "Leaderboard": "board._leaderboard",
    "InstanceScores": "board._instances",
    "read_instances": "io._readers",
    "read_leaderboard": "io._readers",
    "datasets": "datasets",
    "gumbel_leaderboard": "datasets",
    "list_examples": "datasets",
    "load_example": "datasets",
    # other tools' files: evaluation harnesses, HELM, MTEB, PrefLib, pref_voting
    "formats": "formats",
    "read_format": "formats",
    "read_preflib": "formats",
    "write_preflib": "formats",
    "to_pref_voting": "formats",
    "from_pref_voting": "formats",
    # coverage: how much of the task weight each system was scored on
    "LOW_COVERAGE": "board._coverage",
    "claims_of": "board._coverage",
    "coverage_flags": "board._coverage",
    "with_min_coverage": "board._coverage",
    # the preparation stage every question shares: coverage, missing scores, group weighting
    "prepare": "missing._preparation",
    "Prepared": "missing._preparation",
    # pairwise comparisons and the majority relation
    "PairwiseMatrix": "majority._pairwise",
    "pairwise": "majority._pairwise",
    "beats": "majority._relation",
    "condorcet_cycle": "majority._relation",
    "condorcet_loser": "majority._relation",
    "condorcet_winner": "majority._relation",
    "is_condorcet_winner": "majority._relation",
    "majority_graph": "majority._relation",
    "majority_summary": "majority._relation",
    "majority_ties": "majority._relation",
    "pareto_dominated": "majority._relation",
    "smith_set": "majority._relation",
    "weak_condorcet_winners": "majority._relation",
    # missing scores
    "impute_pairwise": "missing._impute",
    "mean_baseline": "missing._impute",
    "partial_ranking_matrix": "missing._impute",
    "position_distribution": "missing._impute",
    "sigma_2l": "missing._impute",
    "sigma_l": "missing._impute",
    "pairwise_confidence": "missing._confidence",
    "InstanceSource": "missing._instance_source",
    # rules and exact solvers
    "rules": "rules",
    "rank": "rules",
    "kemeny": "exact._kemeny",
    "kemeny_objective": "exact._kemeny",
    "weak_objective": "exact._kemeny",
    "condorcet_weights": "exact._condorcet",
    "weighted_margins": "exact._condorcet",
    "prospective": "exact._prospective",
    "winning_weights": "exact._winning",
    "weight_sensitivity": "exact._sensitivity",
    "Constraints": "exact._weight_options",
    # distances, comparison, analysis, experiments
    "kendall_tau": "comparison._distances",
    "kendall_tau_distance": "comparison._distances",
    "rank_changes": "comparison._distances",
    "ranking_objective": "comparison._task_distances",
    "task_dispersion": "comparison._task_distances",
    "task_distance": "comparison._task_distances",
    "top_k_agreement": "comparison._distances",
    "compare": "comparison._compare",
    "compare_rules": "comparison._compare",
    "analyze": "comparison._analysis",
    "experiments": "experiments",
    "rank_stability": "resampling._stability",
    # results
    "Analysis": "results",
    "Check": "results",
    "CondorcetCertificate": "results",
    "CondorcetWeightsResult": "results",
    "ImputationResult": "results",
    "KemenyResult": "results",
    "KemenyDetermination": "results",
    "MajoritySummary": "results",
    "MeanBaselineResult": "results",
    "PairwiseConfidence": "results",
    "Preparation": "results",
    "ProspectiveResult": "results",
    "RobustnessResult": "results",
    "ExperimentResult": "results",
    "StabilityResult": "results",
    "RuleComparison": "results",
    "RuleResult": "results",
    "SensitivityResult": "results",
    "WeightConstraint": "results",
    # reports and figures
    "report": "report",
    "plot": "plot",
    "render": "report",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # what type checkers and IDEs see behind the lazy names (a test keeps it equal to _EXPORTS)
    from . import datasets, experiments, formats, plot, report, rules
    from .board._coverage import (
        LOW_COVERAGE,
        claims_of,
        coverage_flags,
        with_min_coverage,
    )
    from .board._instances import InstanceScores
    from .board._leaderboard import Leaderboard
    from .comparison._analysis import analyze
    from .comparison._compare import compare, compare_rules
    from .comparison._distances import (
        kendall_tau,
        kendall_tau_distance,
        rank_changes,
        top_k_agreement,
    )
    from .comparison._task_distances import (
        ranking_objective,
        task_dispersion,
        task_distance,
    )
    from .datasets import gumbel_leaderboard, list_examples, load_example
    from .errors import (
        CompositeScoreError,
        ConsensusError,
        DegenerateTaskWarning,
        DuplicateInstanceError,
        DuplicateLabelError,
        EmptyLabelError,
        EmptySystemError,
        EmptyTaskError,
        InputTooLargeError,
        InvalidOptionError,
        InvalidWeightError,
        LeaderboardError,
        LeaderboardErrors,
        LongFormatError,
        MissingScoreError,
        NonFiniteScoreError,
        NonNumericScoreError,
        NonPositiveScoreError,
        NoTaskError,
        ScoreOverflowError,
        SolveFailedError,
        SolverNotAvailableError,
        TooFewSystemsError,
        UnknownSolverError,
        UnknownSystemError,
        UnknownTaskError,
    )
    from .exact._condorcet import condorcet_weights, weighted_margins
    from .exact._kemeny import kemeny, kemeny_objective, weak_objective
    from .exact._prospective import prospective
    from .exact._sensitivity import weight_sensitivity
    from .exact._weight_options import Constraints
    from .exact._winning import winning_weights
    from .formats import (
        from_pref_voting,
        read_format,
        read_preflib,
        to_pref_voting,
        write_preflib,
    )
    from .io._readers import read_instances, read_leaderboard
    from .majority._pairwise import PairwiseMatrix, pairwise
    from .majority._relation import (
        beats,
        condorcet_cycle,
        condorcet_loser,
        condorcet_winner,
        is_condorcet_winner,
        majority_graph,
        majority_summary,
        majority_ties,
        pareto_dominated,
        smith_set,
        weak_condorcet_winners,
    )
    from .missing._confidence import pairwise_confidence
    from .missing._impute import (
        impute_pairwise,
        mean_baseline,
        partial_ranking_matrix,
        position_distribution,
        sigma_2l,
        sigma_l,
    )
    from .missing._instance_source import InstanceSource
    from .missing._preparation import Prepared, prepare
    from .report import render
    from .resampling._stability import rank_stability
    from .results import (
        Analysis,
        Check,
        CondorcetCertificate,
        CondorcetWeightsResult,
        ExperimentResult,
        ImputationResult,
        KemenyDetermination,
        KemenyResult,
        MajoritySummary,
        MeanBaselineResult,
        PairwiseConfidence,
        Preparation,
        ProspectiveResult,
        RobustnessResult,
        RuleComparison,
        RuleResult,
        SensitivityResult,
        StabilityResult,
        WeightConstraint,
    )
    from .rules import rank


#: Public names that are modules themselves (the others are functions, classes, errors).
_SUBMODULES = frozenset({"datasets", "rules", "experiments", "plot", "report", "formats"})


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'consensus' has no attribute {name!r}")
    module = importlib.import_module(f".{module_name}", __name__)
    value = module if name in _SUBMODULES else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
