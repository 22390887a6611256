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
import sys
import types
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
    "Leaderboard": "leaderboard",
    "InstanceScores": "instances",
    "read_instances": "readers",
    "read_leaderboard": "readers",
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
    "LOW_COVERAGE": "coverage",
    "claims_of": "coverage",
    "coverage_flags": "coverage",
    "with_min_coverage": "coverage",
    # the preparation stage every question shares: coverage, missing scores, group weighting
    "prepare": "preparation",
    "Prepared": "preparation",
    # pairwise comparisons and the majority relation
    "PairwiseMatrix": "pairwise",
    "pairwise": "pairwise",
    "beats": "majority",
    "condorcet_cycle": "majority",
    "condorcet_loser": "majority",
    "condorcet_winner": "majority",
    "is_condorcet_winner": "majority",
    "majority_graph": "majority",
    "majority_summary": "majority",
    "majority_ties": "majority",
    "pareto_dominated": "majority",
    "smith_set": "majority",
    "weak_condorcet_winners": "majority",
    # missing scores
    "impute_pairwise": "impute",
    "mean_baseline": "impute",
    "partial_ranking_matrix": "impute",
    "position_distribution": "impute",
    "sigma_2l": "impute",
    "sigma_l": "impute",
    "pairwise_confidence": "confidence",
    "InstanceSource": "instance_source",
    # rules and exact solvers
    "rules": "rules",
    "rank": "rules",
    "kemeny": "kemeny",
    "kemeny_objective": "kemeny",
    "weak_objective": "kemeny",
    "condorcet_weights": "condorcet",
    "weighted_margins": "condorcet",
    "prospective": "prospective",
    "winning_weights": "winning",
    "weight_sensitivity": "sensitivity",
    # distances, comparison, analysis, experiments
    "kendall_tau": "distances",
    "kendall_tau_distance": "distances",
    "rank_changes": "distances",
    "ranking_objective": "task_distances",
    "task_dispersion": "task_distances",
    "task_distance": "task_distances",
    "top_k_agreement": "distances",
    "compare": "compare",
    "compare_rules": "compare",
    "analyze": "analysis",
    "experiments": "experiments",
    "rank_stability": "stability",
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
    from .analysis import analyze
    from .compare import compare, compare_rules
    from .condorcet import condorcet_weights, weighted_margins
    from .confidence import pairwise_confidence
    from .coverage import LOW_COVERAGE, claims_of, coverage_flags, with_min_coverage
    from .datasets import gumbel_leaderboard, list_examples, load_example
    from .distances import (
        kendall_tau,
        kendall_tau_distance,
        rank_changes,
        top_k_agreement,
    )
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
    from .formats import (
        from_pref_voting,
        read_format,
        read_preflib,
        to_pref_voting,
        write_preflib,
    )
    from .impute import (
        impute_pairwise,
        mean_baseline,
        partial_ranking_matrix,
        position_distribution,
        sigma_2l,
        sigma_l,
    )
    from .instance_source import InstanceSource
    from .instances import InstanceScores
    from .kemeny import kemeny, kemeny_objective, weak_objective
    from .leaderboard import Leaderboard
    from .majority import (
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
    from .pairwise import PairwiseMatrix, pairwise
    from .preparation import Prepared, prepare
    from .prospective import prospective
    from .readers import read_instances, read_leaderboard
    from .report import render
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
    from .sensitivity import weight_sensitivity
    from .stability import rank_stability
    from .task_distances import ranking_objective, task_dispersion, task_distance
    from .winning import winning_weights


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


class _Package(types.ModuleType):
    """The package module. Importing a submodule binds it as an attribute of the package;
    where a public function has the submodule's name (``kemeny``, ``pairwise``, ``compare``,
    ``prospective``), the function keeps the name (the module stays in ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _EXPORTS and name not in _SUBMODULES:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
