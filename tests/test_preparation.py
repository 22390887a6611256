"""The preparation stage every question shares: one vocabulary, one implementation, one record.

``cs.prepare`` applies coverage, the missing-score policy and group weighting once; every
question takes the prepared data and gives what it gives with the same options passed itself,
and every result carries the same ``Preparation`` record.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.errors import InvalidOptionError, MissingScoreError
from consensus.missing._preparation import MISSING_POLICIES, check_missing


@pytest.fixture()
def holes() -> cs.Leaderboard:
    """Five systems, four tasks, three holes and one system scored on one task only."""
    frame = pd.DataFrame(
        {
            "t1": [0.9, 0.5, 0.7, 0.2, 0.95],
            "t2": [0.6, np.nan, 0.8, 0.3, np.nan],
            "t3": [0.1, 0.4, 0.3, 0.9, np.nan],
            "t4": [0.5, 0.6, np.nan, 0.7, np.nan],
        },
        index=["a", "b", "c", "d", "lone"],
    )
    return cs.Leaderboard.from_frame(frame)


# the questions, each with what it accepts: (name, call, policies it takes)
QUESTIONS = {
    "rank copeland": (lambda data, **kw: cs.rank(data, "copeland", **kw), MISSING_POLICIES),
    "rank borda": (lambda data, **kw: cs.rank(data, "borda", **kw), (*MISSING_POLICIES[1:],)),
    "kemeny": (lambda data, **kw: cs.kemeny(data, **kw), MISSING_POLICIES),
    "condorcet_weights": (lambda data, **kw: cs.condorcet_weights(data, "a", **kw), (None, "drop_tasks", "median")),
    "prospective": (lambda data, **kw: cs.prospective(data, **kw), (None, "drop_tasks", "drop_systems", "median")),
    "winning_weights": (lambda data, **kw: cs.winning_weights(data, "a", rule="borda", **kw),
                        ("drop_tasks", "impute", "median")),
    "weight_sensitivity": (lambda data, **kw: cs.weight_sensitivity(data, rule="kemeny", **kw),
                           (None, "drop_tasks", "drop_systems", "median")),
}


def _answer(result: object) -> object:
    """What a question answers, comparable across two runs (no timings)."""
    for name in ("ranking", "feasible"):
        if hasattr(result, name):
            value = getattr(result, name)
            return tuple(value) if isinstance(value, (tuple, list)) else value
    return result.to_dict()["explanation"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("question", sorted(QUESTIONS))
@pytest.mark.parametrize("min_coverage", [0, 0.5])
def test_prepared_once_answers_as_the_options_given_to_each_question(holes, question, min_coverage):
    ask, policies = QUESTIONS[question]
    for policy in policies:
        direct = ask(holes, missing=policy, min_coverage=min_coverage)
        ready = cs.prepare(holes, missing=policy, min_coverage=min_coverage)
        prepared = ask(ready)
        assert _answer(prepared) == _answer(direct), (question, policy)
        assert prepared.preparation.missing == direct.preparation.missing == policy
        assert prepared.preparation.set_aside == direct.preparation.set_aside
        assert prepared.preparation.dropped_systems == direct.preparation.dropped_systems
        assert prepared.to_dict()["preparation"]["n_missing_cells"] == direct.preparation.n_missing_cells


def test_prepared_data_refuses_the_shared_options_a_second_time(holes):
    ready = cs.prepare(holes, missing="median", min_coverage=0)
    for question, (ask, _) in QUESTIONS.items():
        with pytest.raises(InvalidOptionError, match=r"already prepared.*missing='drop_tasks'"):
            ask(ready, missing="drop_tasks")
        with pytest.raises(InvalidOptionError, match=r"already prepared.*min_coverage=0\.9"):
            ask(ready, min_coverage=0.9)


def test_one_vocabulary_one_message(holes):
    assert check_missing("pairwise") is None and check_missing(None) is None
    for question, (ask, _) in QUESTIONS.items():
        assert ask(holes, missing="pairwise" if None in QUESTIONS[question][1] else "median") is not None
        with pytest.raises(InvalidOptionError, match=r"missing='drop_task' is not one of .*did you mean 'drop_tasks'"):
            ask(holes, missing="drop_task")
    with pytest.raises(InvalidOptionError, match="missing='zero' is not one of"):
        cs.compare_rules(holes, missing="zero")
    with pytest.raises(InvalidOptionError, match="missing='zero' is not one of"):
        cs.prepare(holes, missing="zero")


def test_what_a_question_cannot_use_is_refused_with_the_reason(holes):
    for name in ("condorcet_weights", "prospective", "weight_sensitivity"):
        with pytest.raises(InvalidOptionError, match="cannot use missing='impute': it does not apply to task weights"):
            QUESTIONS[name][0](holes, missing="impute")
    with pytest.raises(InvalidOptionError, match="rule 'mean' cannot use missing='impute'"):
        cs.rank(holes, "mean", missing="impute")
    ready = cs.prepare(holes, missing="impute")  # prepared for one question, refused by another
    assert cs.kemeny(ready).preparation.treatment.startswith("imputed pairwise matrix")
    with pytest.raises(InvalidOptionError, match="cannot use missing='impute'"):
        cs.condorcet_weights(ready, "a")
    with pytest.raises(MissingScoreError, match="rule 'borda' needs complete scores"):
        cs.rank(cs.prepare(holes), "borda")  # pairwise holes kept: borda needs a policy


def test_none_is_the_set_aside_rule_everywhere_and_zero_keeps_every_system(holes):
    default = cs.prepare(holes)
    assert default.preparation.set_aside == ("lone",) and "lone" not in default.leaderboard.systems
    assert default.preparation.coverage == pytest.approx({"lone": 0.25})
    assert "set aside, not ranked" in default.preparation.notes[0]
    assert cs.kemeny(holes).preparation.set_aside == ("lone",)
    assert cs.rank(holes, "copeland").preparation.set_aside == ("lone",)
    assert cs.prospective(holes).preparation.set_aside == ("lone",)
    # the questions about one given system keep every rival by default (0), and None means the rule
    assert cs.condorcet_weights(holes, "a").preparation.set_aside == ()
    assert cs.condorcet_weights(holes, "a", min_coverage=None).preparation.set_aside == ("lone",)
    assert cs.prepare(holes, min_coverage=0).leaderboard.systems == holes.systems
    assert cs.rules.copeland(holes).preparation.set_aside == ()  # a rule function ranks every system


def test_group_weighting_is_part_of_the_preparation(holes):
    grouped = holes.with_groups({"g1": ["t1", "t2", "t3"], "g2": ["t4"]})
    ready = cs.prepare(grouped, missing="median", min_coverage=0, weighting="groups", group_weights={"g2": 3})
    assert ready.leaderboard.weights.to_dict() == pytest.approx({"t1": 1 / 3, "t2": 1 / 3, "t3": 1 / 3, "t4": 3.0})
    assert ready.preparation.weighting == "groups" and dict(ready.preparation.group_weights) == {"g1": 1.0, "g2": 3.0}
    direct = cs.rank(grouped, "borda", missing="median", min_coverage=0, weighting="groups", group_weights={"g2": 3})
    assert cs.rank(ready, "borda").ranking == direct.ranking
    assert cs.kemeny(ready).objective == pytest.approx(cs.kemeny(ready.leaderboard).objective)
    with pytest.raises(InvalidOptionError, match="group_weights needs weighting='groups'"):
        cs.prepare(grouped, group_weights={"g1": 2})
    with pytest.raises(InvalidOptionError, match="weighting='groups' needs task groups"):
        cs.prepare(holes, weighting="groups")


def test_median_keeps_the_scored_cells_for_scored_tasks_only(holes):
    ready = cs.prepare(holes, missing="median", min_coverage=0)
    assert not ready.leaderboard.has_missing and ready.scored.has_missing
    assert dict(ready.preparation.medians) == pytest.approx({"t2": 0.6, "t3": 0.35, "t4": 0.6})
    assert ready.preparation.n_missing_cells == int(holes.missing.to_numpy().sum())
    # lone is scored on t1 only: under scored_tasks_only it cannot win on tasks filled by the median
    assert not cs.condorcet_weights(ready, "lone").feasible or cs.condorcet_weights(ready, "lone").weights["t1"] > 0


def test_every_result_of_a_question_carries_the_record_and_the_reports_print_it(holes):
    results = [
        cs.rank(holes, "copeland"),
        cs.kemeny(holes),
        cs.condorcet_weights(holes, "a", min_coverage=None),
        cs.prospective(holes),
        cs.weight_sensitivity(holes, rule="kemeny", min_coverage=None),
    ]
    for res in results:
        assert isinstance(res.preparation, cs.results.Preparation)
        assert res.to_dict()["preparation"]["set_aside"] == ["lone"], type(res).__name__
    text = cs.render(cs.rank(holes, "copeland"), format="table")
    assert "missing scores (2 cells): pairwise" in text and "set aside, not ranked: 1 system(s)" in text
    for res in results[1:]:  # every report prints the record
        assert "set aside, not ranked: 1 system(s)" in cs.render(res, format="table"), type(res).__name__
    assert cs.kemeny(cs.pairwise(holes)).preparation.treatment.startswith("pairwise matrix given")
