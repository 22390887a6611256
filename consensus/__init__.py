"""leaderboard-consensus: exact answers for multi-task benchmark leaderboards.

Data flow: scores -> :class:`Leaderboard` -> :func:`pairwise` / :func:`majority_graph`
-> voting rules and exact solvers -> result objects -> reports and the ``consensus`` CLI.
"""

from . import datasets
from .datasets import gumbel_leaderboard, list_examples, load_example
from .errors import (
    CompositeScoreError,
    ConsensusError,
    DegenerateTaskWarning,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
    MissingScoreError,
    NonFiniteScoreError,
    NonNumericScoreError,
    NoTaskError,
    SolveFailedError,
    SolverNotAvailableError,
    TooFewSystemsError,
    UnknownSystemError,
    UnknownTaskError,
)
from .leaderboard import Leaderboard, read_leaderboard
from .majority import (
    beats,
    condorcet_cycle,
    condorcet_loser,
    condorcet_winner,
    is_condorcet_winner,
    majority_graph,
    majority_ties,
    pareto_dominated,
    smith_set,
    weak_condorcet_winners,
)
from .pairwise import PairwiseMatrix, pairwise

__version__ = "0.1.0"

__all__ = [
    "Leaderboard",
    "read_leaderboard",
    "PairwiseMatrix",
    "pairwise",
    "majority_graph",
    "majority_ties",
    "beats",
    "condorcet_winner",
    "is_condorcet_winner",
    "weak_condorcet_winners",
    "condorcet_loser",
    "condorcet_cycle",
    "smith_set",
    "pareto_dominated",
    "datasets",
    "load_example",
    "list_examples",
    "gumbel_leaderboard",
    "ConsensusError",
    "LeaderboardError",
    "DuplicateLabelError",
    "EmptyLabelError",
    "NonNumericScoreError",
    "CompositeScoreError",
    "NonFiniteScoreError",
    "InvalidWeightError",
    "UnknownSystemError",
    "UnknownTaskError",
    "EmptySystemError",
    "TooFewSystemsError",
    "NoTaskError",
    "MissingScoreError",
    "InvalidOptionError",
    "SolveFailedError",
    "SolverNotAvailableError",
    "DegenerateTaskWarning",
]

# Each capability adds its public names in its own block below.
# --- rules (issue 3) ---
from . import rules
from .errors import NonPositiveScoreError
from .rank import rank
from .results import RuleResult

__all__ += ["rank", "rules", "RuleResult", "NonPositiveScoreError"]

# --- kemeny (issue 4) ---
from .kemeny import kemeny, kemeny_objective
from .results import KemenyResult

__all__ += ["kemeny", "kemeny_objective", "KemenyResult"]

# --- condorcet weights (issue 5) ---
from .condorcet import condorcet_weights, prospective, weighted_margins
from .results import CondorcetCertificate, CondorcetWeightsResult, WeightConstraint

__all__ += [
    "condorcet_weights",
    "prospective",
    "weighted_margins",
    "CondorcetWeightsResult",
    "CondorcetCertificate",
    "WeightConstraint",
]

# --- missing scores (issue 6) ---
from . import experiments
from .errors import DuplicateInstanceError, EmptyTaskError
from .impute import (
    impute_pairwise,
    mean_baseline,
    pairwise_confidence,
    partial_ranking_matrix,
    sigma_2l,
    sigma_l,
)
from .instances import InstanceScores, read_instances
from .results import ImputationResult, MeanBaselineResult, PairwiseConfidence, RobustnessResult

__all__ += [
    "InstanceScores",
    "read_instances",
    "impute_pairwise",
    "sigma_l",
    "sigma_2l",
    "mean_baseline",
    "pairwise_confidence",
    "partial_ranking_matrix",
    "ImputationResult",
    "MeanBaselineResult",
    "PairwiseConfidence",
    "RobustnessResult",
    "DuplicateInstanceError",
    "EmptyTaskError",
    "experiments",
]


# --- comparison, reports, plots (issue 7) ---
from . import plot, report
from .compare import (
    compare,
    compare_rules,
    kendall_tau,
    kendall_tau_distance,
    rank_changes,
    ranking_objective,
    task_distance,
    task_dispersion,
    top_k_agreement,
)
from .report import analyze, majority_summary, render
from .results import Analysis, Check, MajoritySummary, RuleComparison

__all__ += [
    "compare",
    "compare_rules",
    "kendall_tau",
    "kendall_tau_distance",
    "top_k_agreement",
    "rank_changes",
    "ranking_objective",
    "task_distance",
    "task_dispersion",
    "analyze",
    "majority_summary",
    "render",
    "report",
    "plot",
    "RuleComparison",
    "MajoritySummary",
    "Analysis",
    "Check",
]
