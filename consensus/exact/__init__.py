"""The solver-backed questions: Kemeny, Condorcet weights, winning weights, sensitivity.

The names below are this stage's public API; each lives in a private module (imported on
first use, so importing the stage costs nothing until a name is used):

=========================  ======================================================================
module                     what it holds
=========================  ======================================================================
:mod:`._kemeny`            Exact Kemeny consensus: the ranking that disagrees least with the
                           tasks, with proof
:mod:`._condorcet`         Can a system be the Condorcet winner under some task weights? Weights,
                           margins and proofs
:mod:`._evidence`          The evidence :func:`consensus.condorcet_weights` returns when a system
                           cannot win: certificates
:mod:`._certificates`      Independent checks of Condorcet-weight evidence: margins rebuilt from
                           the scores, certificates in exact arithmetic
:mod:`._winning`           Can a system score highest under Borda, the mean, Dowdall...? Weights,
                           margins and proofs
:mod:`._prospective`       Which systems can be the Condorcet winner under some task weights?
                           :func:`prospective` asks for each
:mod:`._sensitivity`       How stable is the winner? The smallest change of the official weights
                           that changes it
:mod:`._weight_options`    The weight options of :func:`consensus.condorcet_weights` and
                           :func:`consensus.prospective`, checked
:mod:`._solver_choice`     The ``solver=`` option of every solving function, and the solver
                           layer's errors in the package's terms
=========================  ======================================================================
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "kemeny": "_kemeny",
    "kemeny_objective": "_kemeny",
    "weak_objective": "_kemeny",
    "condorcet_weights": "_condorcet",
    "weighted_margins": "_condorcet",
    "make_certificate": "_evidence",
    "single_rival": "_evidence",
    "CONSTRAINT_TOL": "_certificates",
    "verify_condorcet_result": "_certificates",
    "winning_weights": "_winning",
    "verify_winning_result": "_winning",
    "prospective": "_prospective",
    "weight_sensitivity": "_sensitivity",
    "Reference": "_weight_options",
    "number": "_weight_options",
    "task_name": "_weight_options",
    "reference_for": "_weight_options",
    "reference_weights": "_weight_options",
    "group_members": "_weight_options",
    "Constraints": "_weight_options",
    "as_constraints": "_weight_options",
    "weight_constraints": "_weight_options",
    "solver_constraints": "_weight_options",
    "objective_tasks": "_weight_options",
    "check_tolerances": "_weight_options",
    "unscored_constraints": "_weight_options",
    "WEIGHT_NO_IMPUTE": "_weight_options",
    "prepared_weights": "_weight_options",
    "available_solvers": "_solver_choice",
    "check_solver": "_solver_choice",
    "solver_errors": "_solver_choice",
    "solver_not_available": "_solver_choice",
}

__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # what type checkers see behind the lazy names (a test keeps it equal to _EXPORTS)
    from ._certificates import CONSTRAINT_TOL, verify_condorcet_result
    from ._condorcet import condorcet_weights, weighted_margins
    from ._evidence import make_certificate, single_rival
    from ._kemeny import kemeny, kemeny_objective, weak_objective
    from ._prospective import prospective
    from ._sensitivity import weight_sensitivity
    from ._solver_choice import (
        available_solvers,
        check_solver,
        solver_errors,
        solver_not_available,
    )
    from ._weight_options import (
        WEIGHT_NO_IMPUTE,
        Constraints,
        Reference,
        as_constraints,
        check_tolerances,
        group_members,
        number,
        objective_tasks,
        prepared_weights,
        reference_for,
        reference_weights,
        solver_constraints,
        task_name,
        unscored_constraints,
        weight_constraints,
    )
    from ._winning import verify_winning_result, winning_weights
