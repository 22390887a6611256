"""Result objects: read-only storage, the shared tie-group walk, one JSON schema (to_dict)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import consensus as cs
from consensus.errors import UnknownSystemError
from consensus.results.base import freeze, ranking_table, tier_positions, walk_tiers


@pytest.fixture(scope="module")
def toy():
    return cs.load_example("votenrank-toy")


def test_walk_tiers_gives_competition_positions_and_tiers():
    tiers = (("b",), ("a", "c"), ("d",), ("e", "f", "g"))
    assert list(walk_tiers(tiers)) == [
        ("b", 1, 1), ("a", 2, 2), ("c", 2, 2), ("d", 4, 3), ("e", 5, 4), ("f", 5, 4), ("g", 5, 4)
    ]
    assert tier_positions(tiers) == {"b": 1, "a": 2, "c": 2, "d": 4, "e": 5, "f": 5, "g": 5}
    table = ranking_table(tiers, dict(zip("abcdefg", [2.0, 3.0, 2.0, 1.0, 0.0, 0.0, 0.0])))
    assert table["position"].tolist() == [1, 2, 2, 4, 5, 5, 5] and table["tier"].tolist() == [1, 2, 2, 3, 4, 4, 4]


def test_positions_agree_with_every_ranking_result(toy):
    res = cs.rank(toy, "dowdall")  # (A = B) > C > D
    assert [res.position(s) for s in ("A", "B", "C", "D")] == [1, 1, 3, 4]
    assert res.to_frame()["position"].to_dict() == {"A": 1, "B": 1, "C": 3, "D": 4}
    imputed = cs.impute_pairwise(toy)
    assert imputed.position("B") == 1 and imputed.order == ("B", "C", "D", "A")
    with pytest.raises(UnknownSystemError, match="'Z'"):
        res.position("Z")


def test_rule_result_cannot_be_changed_through_what_it_hands_out(toy):
    res = cs.rank(toy, "copeland", tie_break="lexicographic")
    scores = res.scores
    scores["A"] = 100.0  # a fresh Series: the result is unchanged
    assert res.scores["A"] != 100.0
    with pytest.raises(ValueError):
        res.score_values[0] = 1.0
    counts = res.details["counts"]
    with pytest.raises(ValueError):
        counts.iloc[0, 0] = 99.0  # read-only values
    with pytest.raises(TypeError):
        res.options["ties"] = "min"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.rule = "borda"  # type: ignore[misc]


def test_missing_score_results_are_read_only(toy):
    two = cs.sigma_2l(toy)
    task_scores = two.task_scores
    task_scores.iloc[0, 0] = -1.0
    assert two.task_scores.iloc[0, 0] != -1.0
    base = cs.mean_baseline(toy)
    coverage = base.coverage
    coverage.iloc[0] = 0.0
    assert base.coverage.iloc[0] == 1.0
    conf = cs.pairwise_confidence(toy)
    for name in ("estimate", "half_width", "counts"):
        with pytest.raises(ValueError):
            getattr(conf, name)[0, 1] = 0.5


def test_comparison_table_is_a_copy(toy):
    comp = cs.compare_rules(toy, rules=["borda"])
    table = comp.table
    table.loc["borda", "kendall_tau"] = -5.0
    assert comp.table.loc["borda", "kendall_tau"] != -5.0


def test_freeze_is_deep():
    frozen = freeze({"a": [1, {"b": np.array([1.0])}], "c": {1, 2}})
    assert frozen["a"][0] == 1 and isinstance(frozen["a"], tuple) and frozen["c"] == frozenset({1, 2})
    with pytest.raises(TypeError):
        frozen["a"][1]["b"] = 2  # type: ignore[index]
    with pytest.raises(ValueError):
        frozen["a"][1]["b"][0] = 2.0
    series = freeze(pd.Series([1.0, 2.0]))
    with pytest.raises(ValueError):
        series.iloc[0] = 3.0


def test_every_result_serializes_to_strict_json(toy):
    kem = cs.kemeny(toy)
    results = [
        cs.rank(toy, "borda"),
        kem,
        cs.condorcet_weights(toy, "A"),
        cs.condorcet_weights(toy, "A", constraints=cs.Constraints(max_weight=0.25)),
        cs.prospective(toy),
        cs.impute_pairwise(toy),
        cs.sigma_2l(toy),
        cs.mean_baseline(toy),
        cs.pairwise_confidence(toy),
        cs.compare_rules(toy, rules=["borda"], kemeny_result=kem),
        cs.majority_summary(toy),
        cs.analyze(toy, prospective=False),
    ]
    for res in results:
        text = json.dumps(res.to_dict(), allow_nan=False)
        assert json.loads(text) == json.loads(json.dumps(res.to_dict(), allow_nan=False))


def test_prospective_result_tabulates_its_per_system_results(toy):
    res = cs.prospective(toy)
    frame = res.to_frame()
    assert list(frame["system"]) == list(res.systems) == list(toy.systems)
    for row in frame.itertuples():
        one = res.results[row.system]
        assert row.margin == pytest.approx(one.margin)
        assert row.strict_feasible == res.strict_feasible[res.systems.index(row.system)]
        assert one.verify(toy)
    doc = res.to_dict()
    assert [r["system"] for r in doc["systems"]] == list(toy.systems)
    assert doc["systems"][0]["result"] == json.loads(json.dumps(res.results["A"].to_dict()))
    assert set(res.prospective_systems) == {s for s, ok in zip(res.systems, res.feasible) if ok}


# ---------------------------------------------------------------- notebook display
def _every_result(board):
    analysis = cs.analyze(board, source="b")
    return [
        cs.rank(board, "borda", missing="impute"), cs.kemeny(board), analysis, analysis.comparison, analysis.majority,
        analysis.prospective, cs.condorcet_weights(board, analysis.kemeny.order[0]),
        cs.condorcet_weights(board, analysis.kemeny.order[-1]), cs.impute_pairwise(board),
        cs.pairwise_confidence(board), cs.mean_baseline(board),
    ]


@pytest.fixture(scope="module")
def board40():
    rng = np.random.default_rng(3)
    names = [f"model <{i}> & co\nv{i}" for i in range(40)]
    frame = pd.DataFrame(rng.normal(size=(40, 6)) + np.arange(40)[:, None] * 0.1, index=names,
                         columns=[f"task{j}" for j in range(6)])
    return cs.Leaderboard.from_frame(frame.mask(rng.random(frame.shape) < 0.15))


def test_results_have_a_short_repr(board40):
    for result in _every_result(board40):
        text = repr(result)
        assert len(text) < 800 and len(text.splitlines()) <= 8, (type(result).__name__, text)
        assert text.startswith(type(result).__name__), text
        assert "\n  " in text  # one fact per indented line


def test_results_render_as_small_escaped_html_tables(board40):
    for result in _every_result(board40):
        out = result._repr_html_()
        assert out.startswith("<div>") and out.endswith("</div>")
        assert "<script" not in out and "model <" not in out  # names escaped
        assert out.count("<tr>") <= 11, type(result).__name__  # header + at most 10 rows
    out = board40._repr_html_()
    assert "&lt;" in out and "model <" not in out and "... and 30 more systems" in out


def test_every_result_has_to_frame(board40):
    for result in _every_result(board40):
        assert isinstance(result.to_frame(), pd.DataFrame), type(result).__name__
    summary = cs.majority_summary(board40)
    assert list(summary.to_frame().columns) == ["winner", "loser", "wins", "losses", "ties", "margin"]
    assert len(summary.to_frame()) == len(summary.edges)


def test_small_result_repr_names_the_essentials(toy):
    assert repr(cs.rank(toy, "borda")) == "RuleResult(borda): 4 systems\n  winners: B\n  top 5: B > C > D > A"
    text = repr(cs.kemeny(toy))
    assert text.startswith("KemenyResult: 4 systems\n  winners: B\n  top 5: B > C > D > A\n  status: optimal")
