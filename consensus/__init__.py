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
    # the stages and shared modules: every other public name lives in one of them
    "errors": "errors",
    "results": "results",
    "io": "io",
    "board": "board",
    "majority": "majority",
    "missing": "missing",
    "exact": "exact",
    "comparison": "comparison",
    "resampling": "resampling",
    "noise": "noise",

    # errors
    "ConsensusError": "errors",
    "DegenerateTaskWarning": "errors",
    "InvalidOptionError": "errors",
    "LeaderboardError": "errors",
    "MissingScoreError": "errors",
    "SolveFailedError": "errors",
    "SolverNotAvailableError": "errors",
    "UnknownSystemError": "errors",
    "UnknownTaskError": "errors",
    # scores in: leaderboards, instance-level scores, files, built-in examples
    "Leaderboard": "board._leaderboard",
    "InstanceScores": "board._instances",
    "read_instances": "io._readers",
    "read_leaderboard": "io._readers",
    "datasets": "datasets",
    "list_examples": "datasets",
    "load_example": "datasets",
    # other tools' files: evaluation harnesses, HELM, MTEB, PrefLib, pref_voting
    "formats": "formats",
    "read_format": "formats",
    # coverage: how much of the task weight each system was scored on
    # the preparation stage every question shares: coverage, missing scores, group weighting
    "prepare": "missing._preparation",
    "Prepared": "missing._preparation",
    # pairwise comparisons and the majority relation
    "PairwiseMatrix": "majority._pairwise",
    "pairwise": "majority._pairwise",
    "condorcet_winner": "majority._relation",
    "majority_graph": "majority._relation",
    "majority_summary": "majority._relation",
    "smith_set": "majority._relation",
    # differences within noise: standard errors and paired tests per task
    "significance": "noise._significance",
    # missing scores
    "impute_pairwise": "missing._impute",
    "mean_baseline": "missing._impute",
    "sigma_2l": "missing._impute",
    "sigma_l": "missing._impute",
    "pairwise_confidence": "missing._confidence",
    # rules and exact solvers
    "rules": "rules",
    "rank": "rules",
    "kemeny": "exact._kemeny",
    "kemeny_objective": "exact._kemeny",
    "condorcet_weights": "exact._condorcet",
    "prospective": "exact._prospective",
    "winning_weights": "exact._winning",
    "weight_sensitivity": "exact._sensitivity",
    "Constraints": "exact._weight_options",
    # distances, comparison, analysis, experiments
    "compare": "comparison._compare",
    "compare_rules": "comparison._compare",
    "analyze": "comparison._analysis",
    "experiments": "experiments",
    "rank_stability": "resampling._stability",
    # results
    # reports and figures
    "report": "report",
    "plot": "plot",
    "render": "report",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # what type checkers and IDEs see behind the lazy names (a test keeps it equal to _EXPORTS)
    from . import (
        board,
        comparison,
        datasets,
        errors,
        exact,
        experiments,
        formats,
        io,
        majority,
        missing,
        noise,
        plot,
        report,
        resampling,
        results,
        rules,
    )
    from .board._instances import InstanceScores
    from .board._leaderboard import Leaderboard
    from .comparison._analysis import analyze
    from .comparison._compare import compare, compare_rules
    from .datasets import list_examples, load_example
    from .errors import (
        ConsensusError,
        DegenerateTaskWarning,
        InvalidOptionError,
        LeaderboardError,
        MissingScoreError,
        SolveFailedError,
        SolverNotAvailableError,
        UnknownSystemError,
        UnknownTaskError,
    )
    from .exact._condorcet import condorcet_weights
    from .exact._kemeny import kemeny, kemeny_objective
    from .exact._prospective import prospective
    from .exact._sensitivity import weight_sensitivity
    from .exact._weight_options import Constraints
    from .exact._winning import winning_weights
    from .formats import read_format
    from .io._readers import read_instances, read_leaderboard
    from .majority._pairwise import PairwiseMatrix, pairwise
    from .majority._relation import (
        condorcet_winner,
        majority_graph,
        majority_summary,
        smith_set,
    )
    from .missing._confidence import pairwise_confidence
    from .missing._impute import impute_pairwise, mean_baseline, sigma_2l, sigma_l
    from .missing._preparation import Prepared, prepare
    from .noise._significance import significance
    from .report import render
    from .resampling._stability import rank_stability
    from .rules import rank


#: Public names that are modules themselves (the others are functions, classes, errors).
_SUBMODULES = frozenset({"datasets", "rules", "experiments", "plot", "report", "formats", "errors", "results", "io", "board", "majority", "missing", "noise", "exact", "comparison", "resampling"})


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
