"""Coverage as a first-class fact: min_coverage, coverage flags, scored-tasks-only weights, Pareto with holes.

The fixture is the issue's case: a 22-system x 15-task leaderboard where four systems are
scored on 1 to 7 tasks. ``one_task`` (1 of 15) tops the only task it has and so beats every
rival on the pairs it shares; ``human`` (7 of 15) is best on its 7 tasks; ``one_loser`` (1 of
15) is mid-table on its single task.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.board._coverage import (
    LOW_COVERAGE,
    coverage_flags,
    with_min_coverage,
)
from consensus.comparison._compare import DEFAULT_RULES
from consensus.errors import InvalidOptionError

SPARSE = ("one_task", "three_tasks", "human", "one_loser")


def sparse_board() -> cs.Leaderboard:
    """22 systems x 15 tasks; 18 complete rows and 4 sparse ones (see the module docstring)."""
    rng = np.random.default_rng(7)
    tasks = [f"t{k:02d}" for k in range(15)]
    full = [f"s{k:02d}" for k in range(18)]
    frame = pd.DataFrame(rng.uniform(0.3, 0.7, size=(18, 15)).round(3), index=full, columns=tasks)
    extra = pd.DataFrame(np.nan, index=list(SPARSE), columns=tasks)
    extra.loc["one_task", "t00"] = 0.99
    extra.loc["three_tasks", ["t00", "t07", "t08"]] = [0.90, 0.99, 0.99]
    extra.loc["human", tasks[:7]] = [0.95] + [0.98] * 6
    extra.loc["one_loser", "t00"] = 0.5
    return cs.Leaderboard.from_frame(pd.concat([frame, extra]))


@pytest.fixture(scope="module")
def board() -> cs.Leaderboard:
    return sparse_board()


@pytest.fixture(scope="module")
def analysis(board):
    return cs.analyze(board, min_coverage=0)  # every system ranked, as given: the flags are what is tested


def test_analyze_sets_the_sparse_systems_aside_by_default(board):
    a = cs.analyze(board, prospective=False)
    assert set(a.leaderboard.systems) == set(board.systems) - set(SPARSE)  # 'human' is on 7 of 15 tasks: 47%
    assert a.kemeny.order[0] not in SPARSE and a.coverage_flags == ()
    (note,) = [n for n in a.notes if n.startswith("set aside, not ranked")]
    assert note.startswith("set aside, not ranked: 4 system(s) with coverage below 50% (pass min_coverage=0 to rank them)")
    assert "'one_task' (1/15 tasks, 7% of the weight, 21/21 rivals)" in note
    assert note.endswith("and 2 more")


# ---------------------------------------------------------------------- the leaderboard
def test_the_fixture_is_the_issue_case(board):
    assert (board.n_systems, board.n_tasks) == (22, 15)
    assert board.tasks_scored[list(SPARSE)].tolist() == [1, 3, 7, 1]
    assert board.coverage["one_task"] == pytest.approx(1 / 15)
    assert (board.coverage.drop(list(SPARSE)) == 1.0).all()


def test_with_min_coverage_drops_and_names_the_systems(board):
    small = board.with_min_coverage(0.5)
    assert small.systems == tuple(s for s in board.systems if s not in SPARSE)
    note = small.notes[-1]
    assert note.startswith("min_coverage=0.5: dropped 4 system(s)")
    for s in SPARSE:
        assert repr(s) in note
    assert "'one_task' (1 of 15 tasks, 7%)" in note
    assert with_min_coverage(board, 0.5) == small
    assert board.with_min_coverage(0.0) is board
    assert cs.prepare(board, min_coverage=0).leaderboard is board  # 0 keeps every system
    # 0.4: human (7/15 = 47%) stays
    assert "human" in board.with_min_coverage(0.4).systems


def test_with_min_coverage_drops_tasks_left_without_scores():
    frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [None, None, 0.9], "mt": [1.0, 2.0, None]},
                         index=["a", "b", "c"])
    small = cs.Leaderboard.from_frame(frame).with_min_coverage(0.5)
    assert small.systems == ("a", "b") and small.tasks == ("qa", "mt")
    assert "'nli'" in small.notes[-1]


@pytest.mark.parametrize("threshold", [-0.1, 1.5, "half", True, float("nan")])
def test_with_min_coverage_refuses_bad_thresholds(board, threshold):
    with pytest.raises(InvalidOptionError, match="min_coverage"):
        board.with_min_coverage(threshold)


def test_with_min_coverage_needs_two_systems_left():
    frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [0.6, None, 0.9]}, index=["a", "b", "c"])
    with pytest.raises(InvalidOptionError, match="would leave 1 system"):
        cs.Leaderboard.from_frame(frame).with_min_coverage(0.9)


def test_coverage_flags_group_the_claims_per_system(board):
    flags = coverage_flags(
        board, [("Kemeny top", "one_task"), ("winner of borda", ["human", "s01"]), ("Condorcet winner", "one_task"),
                ("prospective", None)]
    )
    assert flags == (
        "rests on a low-coverage system: 'one_task' (Kemeny top, Condorcet winner) is scored on 1 of 15 tasks "
        "(7% of the weight)",
        "rests on a low-coverage system: 'human' (winner of borda) is scored on 7 of 15 tasks (47% of the weight)",
    )
    assert coverage_flags(board, {"winner of mean": "human"}, threshold=0.4) == ()
    assert LOW_COVERAGE == 0.5
    with pytest.raises(InvalidOptionError):
        coverage_flags(board, {}, threshold=2)


# ---------------------------------------------------------------------- analyze: every rule, every flag
def test_analyze_runs_every_default_rule_and_says_which_policy(analysis):
    comp = analysis.comparison
    assert not comp.errors, comp.errors
    assert set(comp.rules) == set(DEFAULT_RULES) | {"kemeny"}
    assert (comp.table["status"] != "failed").all()
    policies = {rule: record.missing for rule, record in comp.preparations.items()}
    assert policies["copeland"] is None and policies["minimax"] is None and policies["kemeny"] is None
    assert policies["borda"] == policies["plurality"] == policies["baldwin"] == "impute"
    assert policies["mean"] == policies["geometric_mean"] == "median"
    assert all(record.n_missing_cells == 48 for record in comp.preparations.values())


def test_a_one_task_system_is_never_crowned_without_a_flag(board, analysis):
    assert analysis.kemeny.order[0] == "one_task"
    assert analysis.majority.condorcet_winner == "one_task"
    assert analysis.coverage["one_task"] == pytest.approx(1 / 15)
    (flag,) = [f for f in analysis.coverage_flags if "'one_task'" in f]
    assert "Kemeny top" in flag and "Condorcet winner" in flag and "is scored on 1 of 15 tasks" in flag
    # every claimed winner below 50% coverage is flagged
    claimed = {analysis.kemeny.order[0], analysis.majority.condorcet_winner}
    claimed |= {s for rule, tiers in analysis.comparison.rankings.items() for s in tiers[0]}
    claimed |= set(analysis.prospective.prospective_systems)
    low = {s for s in claimed if board.coverage[s] < 0.5}
    assert low and all(any(f"'{s}'" in f for f in analysis.coverage_flags) for s in low)


def test_analyze_with_min_coverage_drops_and_names_them(board):
    a = cs.analyze(board, min_coverage=0.5, prospective=False)
    assert not set(SPARSE) & set(a.leaderboard.systems)
    assert a.kemeny.order[0] not in SPARSE
    assert any(n.startswith("set aside, not ranked: 4 system(s)") and "'one_task'" in n for n in a.notes)
    assert a.coverage_flags == ()
    assert set(a.coverage) == set(a.leaderboard.systems)


def test_analysis_to_dict_carries_coverage(analysis):
    d = analysis.to_dict()
    assert d["coverage"]["one_task"] == pytest.approx(1 / 15)
    assert d["coverage_flags"] == list(analysis.coverage_flags)
    assert d["comparison"]["preparations"]["borda"]["missing"] == "impute"
    json.dumps(d)
    with pytest.raises(TypeError):
        analysis.coverage["one_task"] = 1.0  # read-only


# ---------------------------------------------------------------------- kemeny
def test_kemeny_policies_and_min_coverage(board):
    assert cs.kemeny(board, min_coverage=0).order[0] == "one_task"
    kept = cs.kemeny(board, min_coverage=0.5)
    assert len(kept.order) == 18 and not set(SPARSE) & set(kept.order)
    assert cs.kemeny(board).order == kept.order  # the default
    dropped = cs.kemeny(board, missing="drop_systems")
    assert dropped.order == kept.order
    assert cs.rank(board, "kemeny", missing="drop_systems").order == dropped.order
    for policy in ("impute", "median", "pairwise"):
        assert len(cs.kemeny(board, missing=policy, min_coverage=0).order) == 22
    assert cs.kemeny(board, missing="impute").order == cs.rank(board, "kemeny", missing="impute").order
    with pytest.raises(InvalidOptionError, match="need a Leaderboard"):
        cs.kemeny(cs.pairwise(board), missing="median")
    with pytest.raises(InvalidOptionError, match="missing='zero' is not one of"):
        cs.kemeny(board, missing="zero")


# ---------------------------------------------------------------------- weights: scored tasks only
def test_scored_tasks_only_changes_the_weak_verdict(board):
    loose = cs.condorcet_weights(board, "one_loser", strict=False, scored_tasks_only=False)
    assert loose.feasible and loose.verify(board)
    assert loose.weights["t00"] == pytest.approx(0.0)  # the old "win": no weight on its only task
    strict_only = cs.condorcet_weights(board, "one_loser", strict=False)
    assert not strict_only.feasible and strict_only.verify(board)
    cert = strict_only.certificate
    assert cert.kind == "weak"
    # independent arithmetic: on its one scored task the rival blend is strictly better
    rivals = cert.rivals
    v = board.scores
    advantage = sum(y * np.sign(v.loc["one_loser", "t00"] - v.loc[r, "t00"]) for r, y in rivals.items())
    assert advantage < 0
    labels = {c.label for c in strict_only.constraints}
    assert labels == {f"scored_tasks_only[t{k:02d}]" for k in range(1, 15)}
    assert "scored_tasks_only" in strict_only.explanation


def test_prospective_scored_tasks_only(board):
    default = cs.prospective(board, strict=False, min_coverage=0)
    assert "one_loser" not in default.prospective_systems
    assert default.options["scored_tasks_only"] is True
    old = cs.prospective(board, strict=False, scored_tasks_only=False, min_coverage=0)
    assert "one_loser" in old.prospective_systems
    assert old.options["scored_tasks_only"] is False
    # strict feasibility never depends on it
    assert default.strict_winners == old.strict_winners
    for s, res in default.results.items():
        assert res.verify(board), s
        if res.weight_values is not None:
            unscored = board.missing.loc[s]
            assert all(res.weight_values[t] == 0 for t in board.tasks if unscored[t]), s


def test_weights_missing_policies(board):
    with pytest.raises(InvalidOptionError, match="does not apply to task weights"):
        cs.condorcet_weights(board, "s00", missing="impute")
    with pytest.raises(InvalidOptionError, match="does not apply"):
        cs.prospective(board, missing="impute")
    with pytest.raises(InvalidOptionError, match="dropped by min_coverage"):
        cs.condorcet_weights(board, "one_task", min_coverage=0.5)
    with pytest.raises(InvalidOptionError, match="dropped by missing='drop_systems'"):
        cs.condorcet_weights(board, "one_task", missing="drop_systems")
    res = cs.prospective(board, missing="drop_systems", min_coverage=0)
    assert res.systems == tuple(s for s in board.systems if s not in SPARSE)
    assert list(res.preparation.dropped_systems) == list(SPARSE)
    covered = cs.prospective(board, min_coverage=0.5)
    assert covered.systems == res.systems and covered.preparation.notes[0].startswith("set aside, not ranked: 4")
    assert cs.prospective(board).systems == res.systems  # the default
    median = cs.prospective(board, missing="median", strict=False, min_coverage=0)
    assert median.preparation.missing == "median"
    # the median fill does not let a system win on tasks it was never scored on
    assert "one_loser" not in median.prospective_systems


# ---------------------------------------------------------------------- Pareto with holes
def test_sparse_systems_do_not_pareto_dominate_complete_ones(board):
    dominated = cs.majority.pareto_dominated(board)
    full = [s for s in board.systems if s not in SPARSE]
    for s in full:
        assert not {"human", "one_task", "three_tasks"} & set(dominated.get(s, ())), s
    # a system scored on a subset of another's tasks can be dominated by it
    assert {"one_task", "human"} <= set(dominated["one_loser"])


def test_pareto_needs_the_dominator_to_cover_the_dominated():
    frame = pd.DataFrame(
        {"qa": [0.9, 0.8, 0.7], "nli": [None, 0.7, 0.6], "mt": [None, 0.5, None]}, index=["human", "full", "half"]
    )
    lb = cs.Leaderboard.from_frame(frame)
    assert cs.majority.pareto_dominated(lb) == {"half": ("full",)}


def test_a_result_type_claims_through_its_own_method():
    """claims_of knows no result type: each result says what it puts forward (claims()), so a
    new result type needs no change here; results of every kind keep their claims."""
    import consensus as cs

    class Shortlist:
        def claims(self):
            return [("shortlisted", ("A", "B"))]

    toy = cs.load_example("votenrank-toy")
    assert cs.board.claims_of(Shortlist(), None, object()) == [("shortlisted", ("A", "B"))]
    assert cs.board.claims_of(cs.kemeny(toy), cs.rank(toy, "plurality"), cs.majority_summary(toy)) == [
        ("Kemeny top", ("B",)), ("winner of plurality", ("A",)), ("Condorcet winner", "B")]
