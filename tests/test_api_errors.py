"""Every user error of the public API is a ConsensusError subclass that names the argument at fault.

Three parts: the solver layer's errors translated at the consensus boundary (with the solvers
available here), the reported wrongly typed arguments one by one, and a sweep calling each
public callable with a wrong type for each parameter.
"""

from __future__ import annotations

import builtins
import functools
import io
import os
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
import pytest

import consensus as cs
import consensus.exact._condorcet as condorcet_module
import solvers.backends
import solvers.linear_ordering as lo
from consensus import experiments
from consensus import rules as rule_functions
from consensus.errors import UnknownSolverError
from solvers import SolverError, SolverUnavailableError

FRAME = pd.DataFrame(
    {"qa": [0.71, 0.68, 0.69, 0.50], "nli": [0.62, 0.64, 0.60, 0.30], "summ": [0.40, 0.45, 0.47, 0.20]},
    index=["a", "b", "c", "d"],
)
#: x is nowhere best and nowhere beaten by one rival on every task: its question needs an LP.
NEEDS_LP = pd.DataFrame(
    {"t1": [2.0, 3.0, 1.0, 1.0], "t2": [2.0, 1.0, 3.0, 1.0], "t3": [2.0, 1.0, 1.0, 3.0]}, index=["x", "a", "b", "c"]
)


@pytest.fixture
def lb() -> cs.Leaderboard:
    return cs.Leaderboard.from_frame(FRAME)


@pytest.fixture
def no_cbc(monkeypatch):
    """As on PuLP 4 without a cbc on the PATH: only HiGHS can run."""
    monkeypatch.setattr(solvers.backends, "_available", lambda: frozenset({"HiGHS"}))


# ---------------------------------------------------------------------- solvers
SOLVING: dict[str, Callable[[cs.Leaderboard, object], Any]] = {
    "kemeny": lambda lb, s: cs.kemeny(lb, solver=s),
    "condorcet_weights": lambda lb, s: cs.condorcet_weights(lb, "a", solver=s),
    "prospective": lambda lb, s: cs.prospective(lb, solver=s),
    "prospective_constrained": lambda lb, s: cs.prospective(lb, solver=s, constraints=cs.Constraints(min_weight=0.1)),
    "prospective_borda": lambda lb, s: cs.prospective(lb, rule="borda", solver=s),
    "winning_weights": lambda lb, s: cs.winning_weights(lb, "a", rule="mean", solver=s),
    "weight_sensitivity": lambda lb, s: cs.weight_sensitivity(lb, rule="borda", solver=s),
    "rank_kemeny": lambda lb, s: cs.rank(lb, "kemeny", solver=s),
    "compare": lambda lb, s: cs.compare(lb, rules=("mean",), solver=s),
    "analyze": lambda lb, s: cs.analyze(lb, rules=("mean",), solver=s),
}


@pytest.mark.parametrize("entry", sorted(SOLVING))
@pytest.mark.parametrize("solver", ["nope", 5, None])
def test_unknown_solver_is_solver_not_available_listing_the_available_ones(lb, entry, solver):
    with pytest.raises(cs.SolverNotAvailableError) as info:
        SOLVING[entry](lb, solver)
    err = info.value
    assert isinstance(err, UnknownSolverError) and isinstance(err, cs.InvalidOptionError)  # also a bad option value
    assert isinstance(err, cs.ConsensusError) and isinstance(err, ValueError) and isinstance(err, RuntimeError)
    assert repr(solver) in str(err) and "solver" in str(err)
    assert "solvers available here: 'highs'" in str(err)
    assert "time_limit" not in str(err)
    assert err.solver == solver and "highs" in err.available
    if isinstance(solver, str):  # the solver layer's message is kept and chained
        assert isinstance(err.__cause__, SolverUnavailableError)
        assert str(err).startswith(str(err.__cause__))


@pytest.mark.parametrize("entry", sorted(SOLVING))
def test_uninstalled_solver_says_how_to_get_it_and_what_is_available(no_cbc, lb, entry):
    with pytest.raises(cs.SolverNotAvailableError) as info:
        SOLVING[entry](lb, "cbc")
    err = info.value
    assert not isinstance(err, cs.InvalidOptionError)
    assert str(err).startswith("solver 'cbc' is not available here (")
    assert str(err).endswith("; solvers available here: 'highs'")
    assert isinstance(err.__cause__, SolverUnavailableError)


def _raise(exc: Exception) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return fail


@pytest.mark.parametrize("where", ["kemeny", "condorcet_weights", "prospective"])
def test_solver_unavailable_inside_a_solve_is_not_a_failed_solve(monkeypatch, where):
    exc = SolverUnavailableError("solver 'highs' is not available here (pip install highspy)")
    table = cs.Leaderboard.from_frame(NEEDS_LP)
    if where == "kemeny":
        monkeypatch.setattr(lo, "solve_linear_ordering", _raise(exc))
        call = lambda: cs.kemeny(table)  # noqa: E731
    else:
        monkeypatch.setattr(condorcet_module, "max_margin_lp", _raise(exc))
        call = (lambda: cs.condorcet_weights(table, "x")) if where == "condorcet_weights" else (
            lambda: cs.prospective(table, interface="pulp")
        )
    with pytest.raises(cs.SolverNotAvailableError, match=r"pip install highspy\); solvers available here: ") as info:
        call()
    assert "time_limit" not in str(info.value) and info.value.__cause__ is exc


@pytest.mark.parametrize("where", ["kemeny", "condorcet_weights", "prospective"])
def test_solver_failure_becomes_solve_failed_error_with_context(monkeypatch, where):
    exc = SolverError("HiGHS stopped")
    table = cs.Leaderboard.from_frame(NEEDS_LP)
    if where == "kemeny":
        monkeypatch.setattr(lo, "solve_linear_ordering", _raise(exc))
        call, context = (lambda: cs.kemeny(table)), "Kemeny consensus of 4 systems"
    else:
        monkeypatch.setattr(condorcet_module, "max_margin_lp", _raise(exc))
        context = "Condorcet weights of 'x'"
        call = (lambda: cs.condorcet_weights(table, "x")) if where == "condorcet_weights" else (
            lambda: cs.prospective(table, interface="pulp")
        )
    with pytest.raises(cs.SolveFailedError, match=context) as info:
        call()
    assert isinstance(info.value, cs.ConsensusError) and isinstance(info.value, RuntimeError)
    assert info.value.__cause__ is exc and "HiGHS stopped" in str(info.value)


# ---------------------------------------------------------------------- unreadable files
@pytest.fixture
def unreadable(tmp_path, monkeypatch) -> Path:
    """A scores file that cannot be read: no read permission (and, as root, opening it fails as it would)."""
    path = tmp_path / "scores.csv"
    pd.DataFrame({"system": ["a", "b"], "task": ["t", "t"], "instance": [1, 1], "score": [1.0, 0.0]}).to_csv(
        path, index=False
    )
    path.chmod(0)
    real_open = builtins.open

    def deny(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", deny)
    monkeypatch.setattr(io, "open", deny)
    yield path
    monkeypatch.undo()
    path.chmod(0o600)


@pytest.mark.parametrize("reader", [cs.read_leaderboard, cs.read_instances], ids=["read_leaderboard", "read_instances"])
def test_unreadable_file_is_a_leaderboard_error_naming_it(unreadable, reader):
    with pytest.raises(cs.LeaderboardError) as info:
        reader(unreadable)
    assert str(unreadable) in str(info.value)
    assert "permission" in str(info.value).lower()


# ---------------------------------------------------------------------- reported wrong types
TOY = cs.Leaderboard.from_frame(FRAME)
LONG = pd.DataFrame({"system": ["a", "a", "b", "b"], "task": ["t1", "t2", "t1", "t2"], "score": [1.0, 2.0, 3.0, 1.0]})
INSTANCES = pd.DataFrame({"system": ["a", "b"], "task": ["t", "t"], "instance": [1, 1], "score": [1.0, 0.0]})


def _wide(**options: Any) -> Callable[[], Any]:
    return lambda: cs.Leaderboard.from_frame(FRAME, **options)


# (id, call, error class, pattern naming the argument)
WRONG_TYPES: list[tuple[str, Callable[[], Any], type[cs.ConsensusError], str]] = [
    ("from_frame-weights-list", _wide(weights=[1]), cs.errors.InvalidWeightError, r"^weights must be a mapping task -> number"),
    ("from_frame-weights-number", _wide(weights=2.0), cs.errors.InvalidWeightError, r"^weights must be a mapping"),
    ("from_frame-lower-none", _wide(lower_is_better=None), cs.InvalidOptionError, r"^lower_is_better .*got None"),
    ("from_frame-lower-str", _wide(lower_is_better="qa"), cs.InvalidOptionError, r"^lower_is_better .*pass \['qa'\]"),
    ("from_frame-lower-int", _wide(lower_is_better=5), cs.InvalidOptionError, r"^lower_is_better must be a list"),
    ("from_frame-lower-flags", _wide(lower_is_better={"qa": "yes"}), cs.InvalidOptionError, r"^lower_is_better\['qa'\]"),
    ("from_frame-groups-list", _wide(groups=["qa"]), cs.LeaderboardError, r"^groups must be a mapping"),
    ("from_frame-groups-str", _wide(groups={"g": "qa"}), cs.LeaderboardError, r"^groups\['g'\] .*pass \['qa'\]"),
    ("from_frame-tasks-int", _wide(tasks=5), cs.InvalidOptionError, r"^tasks must be a list"),
    ("from_frame-exclude-int", _wide(exclude=5), cs.InvalidOptionError, r"^exclude must be a list"),
    ("Leaderboard-array", lambda: cs.Leaderboard(FRAME.to_numpy()), cs.LeaderboardError, r"^scores must be a pandas"),
    ("Leaderboard-lower", lambda: cs.Leaderboard(FRAME, lower_is_better=5), cs.InvalidOptionError, r"^lower_is_better"),
    ("from_long-frame", lambda: cs.Leaderboard.from_long(5), cs.LeaderboardError, r"DataFrame"),
    ("from_long-column", lambda: cs.Leaderboard.from_long(LONG, system=["x"]), cs.UnknownTaskError, r"\(system=\)"),
    ("with_weights-list", lambda: TOY.with_weights([1, 2, 3]), cs.errors.InvalidWeightError, r"^weights must be a mapping"),
    ("with_notes-int", lambda: TOY.with_notes(5), cs.InvalidOptionError, r"^notes must be a list"),
    ("select-str", lambda: TOY.select(systems="a"), cs.InvalidOptionError, r"^systems .*pass \['a'\]"),
    ("kemeny-seed-str", lambda: cs.kemeny(TOY, seed="x"), cs.InvalidOptionError, r"^seed must be an integer"),
    ("kemeny-seed-none", lambda: cs.kemeny(TOY, seed=None), cs.InvalidOptionError, r"^seed must be an integer"),
    ("kemeny_objective-int", lambda: cs.kemeny_objective(TOY, 5), cs.InvalidOptionError, r"ranking must be a sequence"),
    ("condorcet_weights-order-int", lambda: cs.condorcet_weights(TOY, "a", constraints=cs.Constraints(order=5)), cs.InvalidOptionError, r"^order "),
    ("prospective-order-int", lambda: cs.prospective(TOY, constraints=cs.Constraints(order=2.5)), cs.InvalidOptionError, r"^order "),
    (
        "condorcet_weights-objective",
        lambda: cs.condorcet_weights(TOY, "a", objective=("max", 5)),
        cs.InvalidOptionError,
        r"^objective's tasks",
    ),
    ("select-repeated", lambda: cs.pairwise(TOY).select(["a", "a"]), cs.InvalidOptionError, r"^systems lists 'a' more"),
    ("select-int", lambda: cs.pairwise(TOY).select(5), cs.InvalidOptionError, r"^systems must be a list"),
    ("gumbel-float-systems", lambda: cs.datasets.gumbel_leaderboard(5.0, 3), cs.InvalidOptionError, r"^n_systems must be an int"),
    ("gumbel-float-tasks", lambda: cs.datasets.gumbel_leaderboard(5, 3.0), cs.InvalidOptionError, r"^n_tasks must be an integer"),
    ("gumbel-bool", lambda: cs.datasets.gumbel_leaderboard(True, 3), cs.InvalidOptionError, r"^n_systems must be an integer"),
    ("gumbel-phi", lambda: cs.datasets.gumbel_leaderboard(5, 3, phi="x"), cs.InvalidOptionError, r"^phi must be"),
    ("gumbel-seed", lambda: cs.datasets.gumbel_leaderboard(5, 3, seed="x"), cs.InvalidOptionError, r"^seed must be"),
    ("load_example-list", lambda: cs.load_example(["gumbel"]), cs.InvalidOptionError, r"^unknown example"),
    (
        "rank-kemeny-unknown-option",
        lambda: cs.rank(TOY, "kemeny", foo=1),
        cs.InvalidOptionError,
        r"^rule 'kemeny' takes no option\(s\) foo; it takes .*seed, .*solver, .*time_limit",
    ),
    (
        "rank-kemeny-typo",
        lambda: cs.rank(TOY, "kemeny", time_limt=5),
        cs.InvalidOptionError,
        r"time_limt.*did you mean 'time_limit'\?$",
    ),
    (
        "rules.kemeny-unknown-option",
        lambda: rule_functions.kemeny(TOY, foo=1),
        cs.InvalidOptionError,
        r"^kemeny takes no option\(s\) foo; it takes .*time_limit",
    ),
    ("rank-borda-unknown-option", lambda: cs.rank(TOY, "borda", foo=1), cs.InvalidOptionError, r"foo; it takes .*ties"),
    ("auto_missing-list", lambda: rule_functions.auto_missing(["x"]), cs.InvalidOptionError, r"^unknown rule"),
    ("scoring_vector-str", lambda: rule_functions.scoring_vector("borda", "4"), cs.InvalidOptionError, r"^n_systems"),
    (
        "from_arrays-systems",
        lambda: cs.InstanceScores.from_arrays({"t": [[1.0], [2.0]]}, systems=5),
        cs.InvalidOptionError,
        r"^systems must be a list",
    ),
    (
        "from_arrays-instances",
        lambda: cs.InstanceScores.from_arrays({"t": [[1.0], [2.0]]}, systems=["a", "b"], instances=[1]),
        cs.InvalidOptionError,
        r"^instances must be a mapping",
    ),
    ("instances-from_long-column", lambda: cs.InstanceScores.from_long(INSTANCES, system=["x"]), cs.LeaderboardError, r"column"),
    (
        "instances-lower",
        lambda: cs.InstanceScores.from_long(INSTANCES, lower_is_better="t"),
        cs.InvalidOptionError,
        r"^lower_is_better",
    ),
    ("instances-weights", lambda: cs.InstanceScores.from_long(INSTANCES, weights=[1]), cs.errors.InvalidWeightError, r"^weights"),
    ("kendall_tau-int", lambda: cs.comparison.kendall_tau(5, ["a", "b"]), cs.InvalidOptionError, r"ranking must be a sequence"),
    ("kendall_tau-item", lambda: cs.comparison.kendall_tau([1, 2], ["a", "b"]), cs.InvalidOptionError, r"ranking holds systems"),
    (
        "kendall_tau_distance-penalty",
        lambda: cs.comparison.kendall_tau_distance(["a", "b"], ["b", "a"], tie_penalty="x"),
        cs.InvalidOptionError,
        r"^tie_penalty must be a number",
    ),
    ("top_k-k", lambda: cs.comparison.top_k_agreement(["a", "b"], ["b", "a"], "1"), cs.InvalidOptionError, r"^k must be an integer"),
    ("rank_changes-int", lambda: cs.comparison.rank_changes(5), cs.InvalidOptionError, r"^rankings must be a mapping"),
    ("compare-rules-int", lambda: cs.compare(TOY, rules=5), cs.InvalidOptionError, r"^rules must be a list"),
    ("compare-rules-str", lambda: cs.compare(TOY, rules="borda"), cs.InvalidOptionError, r"^rules .*pass \['borda'\]"),
    ("compare-ks", lambda: cs.compare_rules(TOY, ks=[1.5]), cs.InvalidOptionError, r"^every k of ks must be an integer"),
    ("compare-baseline", lambda: cs.compare_rules(TOY, baseline=["mean"]), cs.InvalidOptionError, r"^baseline"),
    ("compare-rule_options", lambda: cs.compare_rules(TOY, rule_options=[1]), cs.InvalidOptionError, r"^rule_options"),
    ("compare-kemeny_result", lambda: cs.compare_rules(TOY, kemeny_result=5), cs.InvalidOptionError, r"^kemeny_result"),
    ("analyze-rule_options", lambda: cs.analyze(TOY, rule_options="x"), cs.InvalidOptionError, r"^rule_options"),
    ("coverage_flags-claims", lambda: cs.board.coverage_flags(TOY, 5), cs.InvalidOptionError, r"^claims must be"),
    ("coverage_flags-lb", lambda: cs.board.coverage_flags(5, {}), cs.InvalidOptionError, r"needs a Leaderboard"),
    ("pareto_dominated-int", lambda: cs.majority.pareto_dominated(5), cs.InvalidOptionError, r"needs a Leaderboard"),
    ("weighted_margins-int", lambda: cs.exact.weighted_margins(5, "a", {}), cs.InvalidOptionError, r"needs a Leaderboard"),
    ("partial_ranking_matrix-str", lambda: cs.missing.partial_ranking_matrix("zz"), cs.LeaderboardError, r"^scores must be"),
    ("position_distribution-obj", lambda: cs.missing.position_distribution([{}]), cs.LeaderboardError, r"^scores must be"),
    ("render-table", lambda: cs.render(cs.rank(TOY, "borda"), table=5), cs.InvalidOptionError, r"^table must be"),
    ("gumbel_instances-phi", lambda: experiments.gumbel_instances(3, 2, 2, phi="x"), cs.InvalidOptionError, r"^phi"),
    ("gumbel_instances-seed", lambda: experiments.gumbel_instances(3, 2, 2, seed=-1), cs.InvalidOptionError, r"^seed"),
    ("remove_scores-seed", lambda: experiments.remove_scores(TOY, eta=0.2, seed="x"), cs.InvalidOptionError, r"^seed"),
    ("robustness-etas", lambda: experiments.robustness_experiment(etas=0.2), cs.InvalidOptionError, r"^etas must be"),
    ("robustness-scale", lambda: experiments.robustness_experiment(scale="2"), cs.InvalidOptionError, r"^scale must be"),
    (
        "robustness-n_instances",
        lambda: experiments.robustness_experiment(n_instances=2.5),
        cs.InvalidOptionError,
        r"^n_instances must be",
    ),
]


@pytest.mark.parametrize(("call", "error", "pattern"), [c[1:] for c in WRONG_TYPES], ids=[c[0] for c in WRONG_TYPES])
def test_wrong_type_raises_a_consensus_error_naming_the_argument(call, error, pattern):
    assert issubclass(error, cs.ConsensusError)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=pattern) as info:
            call()
    assert isinstance(info.value, ValueError)  # bad input: also a ValueError


def test_read_instances_chunksize_must_be_an_integer(tmp_path):
    path = tmp_path / "scores.csv"
    INSTANCES.to_csv(path, index=False)
    with pytest.raises(cs.InvalidOptionError, match=r"^chunksize must be"):
        cs.read_instances(path, chunksize="abc")


def test_read_leaderboard_options_are_checked_like_from_frame(tmp_path):
    path = tmp_path / "scores.csv"
    FRAME.to_csv(path)
    with pytest.raises(cs.errors.InvalidWeightError, match=r"^weights must be a mapping"):
        cs.read_leaderboard(path, weights=[1])
    with pytest.raises(cs.InvalidOptionError, match=r"^lower_is_better"):
        cs.read_leaderboard(path, lower_is_better=5)


def test_the_right_types_still_work():
    lb = cs.Leaderboard.from_frame(FRAME, lower_is_better={"qa": False, "nli": True}, weights=pd.Series({"qa": 2.0}))
    assert lb.lower_is_better == frozenset({"nli"}) and lb.weights["qa"] == 2.0
    assert cs.Leaderboard(FRAME, lower_is_better=frozenset({"qa"})).lower_is_better == frozenset({"qa"})
    assert cs.datasets.gumbel_leaderboard(np.int64(3), 2, seed=np.random.default_rng(0)).n_systems == 3
    assert cs.pairwise(TOY).select(("b", "a")).systems == ("b", "a")
    assert cs.kemeny(TOY, seed=np.int64(3)).optimal
    assert cs.rank(TOY, "kemeny", time_limit=30, missing=None).winners


# ---------------------------------------------------------------------- sweep
class _Opaque:
    """An object of no expected type."""

    def __repr__(self) -> str:
        return "<opaque>"


WRONG_VALUES: tuple[object, ...] = (_Opaque(), 5, -1, 2.5, "zz", None, [1], {"zz": 1}, ("a", "a"), float("nan"))

#: Public callable -> (function, positional args, keyword args): a call that works. Each positional
#: and keyword argument in turn is replaced by each of WRONG_VALUES.
SWEEP: dict[str, Callable[[dict[str, Any]], tuple[Callable[..., Any], tuple, dict[str, Any]]]] = {
    "Leaderboard.from_frame": lambda env: (
        cs.Leaderboard.from_frame,
        (FRAME,),
        dict(lower_is_better=(), weights=None, groups=None, tasks=None, exclude=(), keep_columns=None),
    ),
    "Leaderboard.from_long": lambda env: (cs.Leaderboard.from_long, (LONG,), dict(system="system", task="task", score="score")),
    "Leaderboard": lambda env: (cs.Leaderboard, (FRAME,), dict(lower_is_better=(), weights=None, groups=None, notes=())),
    "Leaderboard.with_min_coverage": lambda env: (TOY.with_min_coverage, (0.5,), {}),
    "Leaderboard.select": lambda env: (TOY.select, (), dict(systems=None, tasks=None)),
    "Leaderboard.with_weights": lambda env: (TOY.with_weights, ({"qa": 1},), {}),
    "Leaderboard.with_groups": lambda env: (TOY.with_groups, ({"g": ["qa"]},), {}),
    "Leaderboard.with_notes": lambda env: (TOY.with_notes, (["x"],), {}),
    "InstanceScores.from_long": lambda env: (
        cs.InstanceScores.from_long,
        (INSTANCES,),
        dict(system="system", task="task", instance="instance", score="score", lower_is_better=(), weights=None),
    ),
    "InstanceScores.from_arrays": lambda env: (
        cs.InstanceScores.from_arrays,
        ({"t": np.array([[1.0, 0.0], [0.0, 1.0]])},),
        dict(systems=["a", "b"], instances=None, lower_is_better=(), weights=None),
    ),
    "read_instances": lambda env: (
        cs.read_instances,
        (env["instances_csv"],),
        dict(chunksize=None, lower_is_better=(), weights=None),
    ),
    "read_leaderboard": lambda env: (cs.read_leaderboard, (env["scores_csv"],), dict(dedupe=False)),
    "gumbel_leaderboard": lambda env: (cs.datasets.gumbel_leaderboard, (5, 3), dict(phi=0.05, seed=0)),
    "load_example": lambda env: (cs.load_example, ("gumbel",), dict(n_systems=4)),
    "coverage_flags": lambda env: (cs.board.coverage_flags, (TOY, {"winner": "a"}), dict(threshold=0.5)),
    "with_min_coverage": lambda env: (cs.board.with_min_coverage, (TOY, 0.5), {}),
    "PairwiseMatrix.select": lambda env: (cs.pairwise(TOY).select, (["a", "b"],), {}),
    "pairwise": lambda env: (cs.pairwise, (TOY,), {}),
    "condorcet_winner": lambda env: (cs.condorcet_winner, (TOY,), {}),
    "majority_summary": lambda env: (cs.majority_summary, (TOY,), {}),
    "pareto_dominated": lambda env: (cs.majority.pareto_dominated, (TOY,), {}),
    "smith_set": lambda env: (cs.smith_set, (TOY,), {}),
    "impute_pairwise": lambda env: (cs.impute_pairwise, (TOY,), dict(levels=1)),
    "mean_baseline": lambda env: (cs.mean_baseline, (TOY,), {}),
    "partial_ranking_matrix": lambda env: (cs.missing.partial_ranking_matrix, ([1.0, 2.0, np.nan],), {}),
    "position_distribution": lambda env: (cs.missing.position_distribution, ([1.0, 2.0, np.nan],), dict(ties="average")),
    "pairwise_confidence": lambda env: (cs.pairwise_confidence, (env["instances"],), dict(delta=0.05)),
    "rank": lambda env: (
        cs.rank,
        (TOY, "borda"),
        dict(ties="average", missing=None, min_coverage=None, weighting=None, group_weights=None, tie_break=None),
    ),
    "rank_kemeny": lambda env: (cs.rank, (TOY, "kemeny"), dict(time_limit=None, solver="highs", seed=0, method="auto")),
    "rank_copeland": lambda env: (cs.rank, (TOY, "copeland"), dict(variant="wins_minus_losses", tie_tol=0.0)),
    "rank_scoring": lambda env: (cs.rank, (TOY, "scoring"), dict(vector=[3, 2, 1, 0])),
    "rank_optimality_gap": lambda env: (cs.rank, (TOY, "optimality_gap"), dict(gamma=None)),
    "kemeny": lambda env: (
        cs.kemeny,
        (TOY,),
        dict(method="auto", time_limit=None, solver="highs", enumerate_optima=0, progress=None, seed=0, missing=None,
             min_coverage=None, determine=None),
    ),
    "kemeny-ties": lambda env: (cs.kemeny, (TOY,), dict(weak_order=True, time_limit=None, solver="highs")),
    "kemeny_objective": lambda env: (cs.kemeny_objective, (TOY, ("a", "b", "c", "d")), {}),
    "weak_objective": lambda env: (cs.exact.weak_objective, (TOY, (("a", "b"), ("c",), ("d",))), {}),
    "condorcet_weights": lambda env: (
        cs.condorcet_weights,
        (TOY, "a"),
        dict(nearest_to=None, objective=None, constraints=None,
             min_margin=1e-6, solver="highs", tol=1e-9, missing=None, min_coverage=None),
    ),
    "weighted_margins": lambda env: (cs.exact.weighted_margins, (TOY, "a", {"qa": 1.0}), {}),
    "winning_weights": lambda env: (
        cs.winning_weights,
        (TOY, "a"),
        dict(rule="borda", ties="average", nearest_to=None, constraints=None, min_margin=1e-6, solver="highs",
             tol=1e-9, missing=None),
    ),
    "weight_sensitivity": lambda env: (
        cs.weight_sensitivity,
        (TOY,),
        dict(rule="mean", target="winner", normalize=None, constraints=None, missing=None, solver="highs"),
    ),
    "prospective": lambda env: (
        cs.prospective,
        (TOY,),
        dict(nearest_to="leaderboard", objective=None, constraints=None, solver="highs", interface="auto",
             missing=None),
    ),
    "kendall_tau_distance": lambda env: (
        cs.comparison.kendall_tau_distance,
        (("a", "b", "c"), ("b", "a", "c")),
        dict(tie_penalty=0.5),
    ),
    "rank_changes": lambda env: (cs.comparison.rank_changes, ({"mean": ("a", "b"), "x": ("b", "a")},), dict(baseline="mean")),
    "ranking_objective": lambda env: (cs.comparison.ranking_objective, (TOY, ("a", "b", "c", "d")), {}),
    "task_distance": lambda env: (cs.comparison.task_distance, (TOY, ("a", "b", "c", "d")), dict(tie_penalty=0.5)),
    "top_k_agreement": lambda env: (cs.comparison.top_k_agreement, (("a", "b", "c"), ("b", "a", "c"), 2), {}),
    "compare_rules": lambda env: (
        cs.compare_rules,
        (TOY,),
        dict(rules=("mean",), missing="auto", kemeny_result=None, baseline="mean", ks=(1, 3), solver="highs",
             rule_options=None, tie_penalty=0.5),
    ),
    "analyze": lambda env: (
        cs.analyze,
        (TOY,),
        dict(rules=("mean",), solver="highs", prospective=False, missing="auto", coverage_threshold=0.5,
             rule_options=None),
    ),
    "render": lambda env: (cs.render, (env["kemeny_result"],), dict(format="table", table=None, top=10)),
    "rank_mean_win_rate": lambda env: (cs.rank, (TOY, "mean_win_rate"), dict(ties="half")),
    "rank_normalized_mean": lambda env: (
        cs.rank, (TOY, "normalized_mean"), dict(baseline={"qa": 0.25}, maximum={"qa": 1.0}, clip=True)
    ),
    "rank_bradley_terry": lambda env: (cs.rank, (TOY, "bradley_terry"), dict(prior=0.5, ties="half", tie_tol=0.0)),
    "rank_schulze": lambda env: (cs.rank, (TOY, "schulze"), dict(variant="winning_votes", tie_tol=0.0)),
    "rank_ranked_pairs": lambda env: (cs.rank, (TOY, "ranked_pairs"), dict(variant="margins", tie_tol=0.0)),
    "read_preflib": lambda env: (cs.formats.read_preflib, (env["toy_soc"],), dict(drop_empty=False)),
    "write_preflib": lambda env: (  # the path stays fixed: a wrong string there would be a valid file name
        lambda lb, kind="soc": cs.formats.write_preflib(lb, env["folder"] / "out.soc", kind=kind), (env["toy_board"],),
        dict(kind="soc"),
    ),
    "read_format": lambda env: (cs.read_format, (env["model_dir"], "model-dir"), dict(metric="accuracy")),
    "Analysis.to_html": lambda env: (env["analysis"].to_html, (), dict(figure=False, title="t")),
    "experiments.gumbel_instances": lambda env: (experiments.gumbel_instances, (3, 2, 2), dict(phi=0.05, seed=0)),
    "experiments.remove_scores": lambda env: (experiments.remove_scores, (TOY,), dict(eta=0.2, seed=0)),
    "experiments.scaling": lambda env: (
        experiments.scaling, (TOY, ["borda"]),
        dict(lambdas=(2.0,), repetitions=2, seed=0, time_limit=5.0, scheduler=None, n_jobs=None, progress=None),
    ),
    "experiments.manipulation": lambda env: (
        experiments.manipulation, (None, ["copeland"]),
        dict(ts=(1,), repetitions=2, synthetic={"n_systems": 4, "n_tasks": 3, "phi": 0.1}),
    ),
    "experiments.task_removal": lambda env: (experiments.task_removal, (TOY, ["mean"]), dict(kept=(2,), repetitions=2)),
    "experiments.missing_scores": lambda env: (experiments.missing_scores, (TOY, ["kemeny"]), dict(etas=(0.2,), repetitions=2)),
    "kemeny-warm-start": lambda env: (cs.kemeny, (TOY,), dict(initial=None, threads=1)),
    "rank_stability": lambda env: (
        cs.rank_stability, (TOY, ["borda", "kemeny"]),
        dict(resamples=3, resampling="bootstrap", k=1, seed=0, alpha=0.05, top_k=2, level=0.9, time_limit=5.0,
             scheduler=None, n_jobs=None, progress=None),
    ),
}



@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("sweep")
    scores_csv, instances_csv = folder / "scores.csv", folder / "instances.csv"
    FRAME.to_csv(scores_csv)
    INSTANCES.to_csv(instances_csv, index=False)
    return {
        "scores_csv": scores_csv,
        "instances_csv": instances_csv,
        "instances": cs.InstanceScores.from_long(INSTANCES),
        "kemeny_result": cs.kemeny(TOY),
        "folder": folder,
        "toy_board": cs.load_example("votenrank-toy"),
        "toy_soc": cs.formats.write_preflib(cs.load_example("votenrank-toy"), folder / "toy.soc"),
        "model_dir": _model_dir(folder / "models"),
        "analysis": cs.analyze(TOY, rules=("mean",), prospective=False),
    }


def _model_dir(folder: Path) -> Path:
    folder.mkdir()
    for model, score in (("a", 0.5), ("b", 0.7)):
        (folder / f"{model}.json").write_text('{"qa": %s, "nli": 0.4}' % score)
    return folder


@pytest.mark.parametrize("name", sorted(SWEEP))
def test_sweep_wrong_types_raise_consensus_errors(env, name):
    function, args, kwargs = SWEEP[name](env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        function(*args, **kwargs)  # the call works as given
        escaped = []
        slots = [(f"arg{i}", i) for i in range(len(args))] + [(key, key) for key in kwargs]
        for label, key in slots:
            for wrong in WRONG_VALUES:
                a, kw = list(args), dict(kwargs)
                if isinstance(key, int):
                    a[key] = wrong
                else:
                    kw[key] = wrong
                try:
                    function(*a, **kw)
                except cs.ConsensusError:
                    pass
                except Exception as exc:  # noqa: BLE001 - the point of the sweep
                    escaped.append(f"{label}={wrong!r}: {type(exc).__name__}: {exc}")
    assert not escaped, f"{name}: {len(escaped)} wrong-type call(s) escaped the family:\n" + "\n".join(escaped[:10])


@functools.cache
def _toy():
    return cs.load_example("votenrank-toy")


#: option -> (the entry points taking it, (bad value, message) pairs, a good value).
SHARED_CHECKS = {
    # time_limit (kemeny, rank) and time_limit (stability, experiments): time_limit='5'
    # had been read as 5 while time_limit='5' was refused
    "time limits": (
        [lambda v: cs.kemeny(_toy(), time_limit=v),
         lambda v: cs.rank(_toy(), "kemeny", time_limit=v),
         lambda v: cs.rank_stability(_toy(), ["mean"], resamples=2, time_limit=v),
         lambda v: cs.experiments.task_removal(_toy(), rules=["mean"], repetitions=1, time_limit=v)],
        [("5", "must be a number of seconds"), (True, "must be a number of seconds"),
         (0, "must be a positive number of seconds"), (float("nan"), "positive number")],
        5,
    ),
    # min_coverage: rank had read '0.5' as 0.5 while kemeny and with_min_coverage refused it
    "min_coverage": (
        [lambda v: cs.rank(_toy(), "borda", min_coverage=v),
         lambda v: cs.kemeny(_toy(), min_coverage=v),
         lambda v: cs.prospective(_toy(), min_coverage=v),
         lambda v: _toy().with_min_coverage(v)],
        [("0.5", "must be a number in \\[0, 1\\]"), (True, "must be a number in \\[0, 1\\]"),
         (1.5, "must be in \\[0, 1\\]"), (float("nan"), "must be in \\[0, 1\\]")],
        0.5,
    ),
}


@pytest.mark.parametrize("option", list(SHARED_CHECKS))
def test_an_option_shared_by_entry_points_is_checked_by_one_rule(option):
    """The same values are accepted and refused, with the same message, wherever the option is taken."""
    calls, bad_values, good = SHARED_CHECKS[option]
    for call in calls:
        for bad, message in bad_values:
            with pytest.raises(cs.InvalidOptionError, match=message):
                call(bad)
        call(good)
