"""The IIA experiment of Vote'n'Rank (Rofin et al. 2023, sec. 3.1, Table 2): consensus.experiments.iia."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given

import consensus as cs
from consensus.errors import InvalidOptionError
from consensus.experiments.iia import VOTENRANK_OPTIONS, VOTENRANK_RULES, _changed, iia

from .strategies import score_tables

#: Table 2 of the paper: rule -> (DP, IIA mean, IIA std) for GLUE and SuperGLUE.
TABLE2 = {
    "votenrank-glue": {
        "mean": (1, 0.0, 0.0), "geometric_mean": (0, 0.0, 0.0), "optimality_gap": (3, 0.0, 0.0),
        "copeland": (6, 2.76, 1.3), "minimax": (21, 2.94, 1.5), "plurality": (25, 5.26, 1.6),
        "dowdall": (0, 9.10, 2.4), "borda": (0, 7.96, 3.8),
    },
    "votenrank-superglue": {
        "mean": (0, 0.0, 0.0), "geometric_mean": (0, 0.0, 0.0), "optimality_gap": (1, 0.0, 0.0),
        "copeland": (2, 0.90, 0.8), "minimax": (17, 1.14, 1.0), "plurality": (17, 1.98, 1.4),
        "dowdall": (0, 4.24, 2.1), "borda": (1, 5.38, 1.8),
    },
}

#: The authors' protocol (votenrank/iia_exp.py): whole order, ties broken by name, the last
#: system never added, their rule variants.
AUTHORS = {"compare": "order", "tie_break": "by_name", "add_last": False, "rule_options": VOTENRANK_OPTIONS}


def authors_orders(systems, n=50):
    """The arrival orders of the authors' code: ``np.random.seed(i); np.random.shuffle(list)``."""
    orders = []
    for i in range(n):
        order = list(systems)
        np.random.RandomState(i).shuffle(order)  # what np.random.seed(i) + np.random.shuffle draw
        orders.append(order)
    return orders


def _summary(res, rule):
    row = res.summary().loc[(res.table["leaderboard"].iloc[0], rule)]
    return float(row["mean"]), float(row["std"])


# ---------------------------------------------------------------------- comparisons, by hand

TIERS_BEFORE = (("a",), ("b", "c"))


@pytest.mark.parametrize(
    ("after", "compare", "ties", "changed"),
    [
        ((("a",), ("b", "c"), ("d",)), "order", "weak", False),  # the new system below: nothing moved
        ((("a",), ("b",), ("c", "d")), "order", "weak", True),  # b and c no longer tied
        ((("a",), ("b",), ("c", "d")), "order", "by_name", True),  # by name c came first, now b does
        ((("a",), ("c",), ("b", "d")), "order", "by_name", False),  # the tie split the way names broke it
        ((("a",), ("c",), ("b", "d")), "order", "weak", True),
        ((("a", "d"), ("b", "c")), "order", "weak", False),  # the new system ties with a: a still above b, c
        ((("b", "c"), ("a", "d")), "first_two", "weak", True),  # first two = a, b: a fell below b
        ((("a",), ("b",), ("c", "d")), "first_two", "weak", False),  # a above b before and after
        ((("a", "b"), ("c", "d")), "first_two", "weak", True),  # a and b now tied
        ((("a", "b"), ("c", "d")), "first_two", "by_name", True),  # by name b comes first
    ],
)
def test_what_counts_as_a_change(after, compare, ties, changed):
    assert _changed(TIERS_BEFORE, after, "d", ("a", "b"), compare, ties) is changed


def test_a_majority_cycle_on_a_hand_checked_board():
    # a > b > c (t1), b > c > a (t2), c > a > b (t3): a beats b, b beats c, c beats a, 2 tasks to 1
    frame = pd.DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [1.0, 3.0, 2.0], "t3": [2.0, 1.0, 3.0]}, index=["a", "b", "c"])
    cycle = cs.Leaderboard.from_frame(frame)
    # {a, b}: a first (2 tasks to 1) for Borda and Copeland; with c all three tie (Borda 3 each,
    # Copeland 0 each): a tie appeared between a and b. The mean (2 for everyone) never moves.
    res = iia(cycle, ["borda", "copeland", "mean"], orders=[["a", "b", "c"]])
    assert res.table.set_index("rule")["changes"].to_dict() == {"borda": 1, "copeland": 1, "mean": 0}
    assert res.table["additions"].tolist() == [1, 1, 1] and res.parameters["orders"] == "given"
    # by name the three-way tie reads c, b, a: b now before a
    assert iia(cycle, ["borda"], orders=[["a", "b", "c"]], tie_break="by_name").table["changes"].tolist() == [1]
    # only the first two (b, a): a above b, then tied, which by name puts b first
    first_two = iia(cycle, ["borda"], orders=[["b", "a", "c"]], tie_break="by_name", compare="first_two")
    assert first_two.table["changes"].tolist() == [1]


def test_the_authors_loop_stops_before_the_last_system(votenrank_toy):
    full = iia(votenrank_toy, ["borda"], repetitions=3)
    short = iia(votenrank_toy, ["borda"], repetitions=3, add_last=False)
    assert full.table["additions"].tolist() == [2, 2, 2] and short.table["additions"].tolist() == [1, 1, 1]
    assert (short.table["changes"] <= full.table["changes"]).all()


# ---------------------------------------------------------------------- properties


@given(score_tables(min_systems=3, max_systems=6, max_tasks=4, weighted=True))
def test_rules_of_each_systems_own_scores_never_change_the_order(lb):
    for tie_break in (None, "by_name"):
        res = iia(lb, ["mean", "optimality_gap"], repetitions=2, tie_break=tie_break,
                  rule_options={"optimality_gap": {"gamma": 2.5}})
        assert (res.table["changes"] == 0).all()


def test_finer_comparisons_count_at_least_as_many_changes():
    lb = cs.datasets.gumbel_leaderboard(7, 5, phi=0.1, seed=3)
    rules = ["borda", "copeland", "plurality"]
    runs = {(c, t): iia(lb, rules, repetitions=6, seed=2, compare=c, tie_break=t).table["changes"]
            for c in ("order", "first_two") for t in (None, "by_name")}
    assert (runs["first_two", None] <= runs["order", None]).all()  # a change of a and b changes the order
    assert (runs["order", "by_name"] <= runs["order", None]).all()  # same weak order -> same name-broken order
    assert runs["order", None].sum() > 0


def test_same_seed_same_table_and_the_seed_matters():
    lb = cs.datasets.gumbel_leaderboard(8, 4, phi=0.1, seed=1)
    a = iia(lb, ["borda", "minimax"], repetitions=5, seed=7)
    pd.testing.assert_frame_equal(a.table, iia(lb, ["borda", "minimax"], repetitions=5, seed=7).table, check_exact=True)
    other = iia(lb, ["borda", "minimax"], repetitions=5, seed=8)
    assert not a.table["changes"].equals(other.table["changes"])
    assert a.parameters["seed"] == 7 and a.name == "iia" and a.setting == "leaderboard" and a.metric == "changes"


def test_kemeny_runs_exactly():
    lb = cs.datasets.gumbel_leaderboard(6, 5, phi=0.2, seed=4)
    res = iia(lb, ["kemeny", "mean"], repetitions=3, seed=0)
    kem = res.table[res.table["rule"] == "kemeny"]
    assert (kem["kemeny_status"] == "optimal").all() and (kem["ties"] == 0).all()
    assert (res.table[res.table["rule"] == "mean"]["kemeny_status"] == "").all()


@pytest.mark.slow  # tests/test_stability.py and tests/test_dask_sums.py start a cluster in every leg
@pytest.mark.xdist_group(name="serial")  # a Dask cluster: see tests/conftest.py
def test_a_two_worker_dask_cluster_gives_the_same_table_value_for_value(dask_cluster):
    distributed = pytest.importorskip("distributed")
    lb = cs.datasets.gumbel_leaderboard(6, 4, phi=0.1, seed=5)
    kwargs = {"rules": ["borda", "copeland", "kemeny"], "repetitions": 4, "seed": 3}
    local = iia(lb, **kwargs)
    with distributed.Client(dask_cluster) as client:
        remote = iia(lb, scheduler=client, **kwargs)
    pd.testing.assert_frame_equal(local.table, remote.table, check_exact=True)


def test_missing_scores_take_each_rules_policy():
    res = iia("votenrank-value", ["copeland", "borda", "mean"], repetitions=2, seed=0)
    assert res.table["systems"].unique().tolist() == [7] and res.table["additions"].unique().tolist() == [5]


def test_progress_and_label(votenrank_toy):
    seen = []
    res = iia(votenrank_toy, ["mean"], repetitions=3, label="toy", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)] and res.table["leaderboard"].unique().tolist() == ["toy"]
    assert iia(votenrank_toy, ["mean"], repetitions=1).table["leaderboard"].iloc[0] == "4 systems x 5 tasks"


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"compare": "pairs"}, r"compare must be one of 'order', 'first_two', got 'pairs'"),
        ({"tie_break": "random"}, r"tie_break must be None or .by_name., got .random."),
        ({"add_last": 1}, r"add_last must be True or False"),
        ({"rule_options": {"bordaa": {}}}, r"rule_options name unknown rule\(s\) 'bordaa'"),
        ({"rule_options": {"borda": "max"}}, r"rule_options\['borda'\] must be a dict"),
        ({"orders": [["A", "B", "C"]]}, r"orders\[0\] must list every system exactly once \(4 systems\)"),
        ({"orders": "ABCD"}, r"orders must be a non-empty list"),
        ({"repetitions": 0}, r"repetitions must be an integer >= 1"),
        ({"time_limit": 0}, r"time_limit must be a positive number of seconds"),
        ({"rules": ["borda", "nope"]}, r"unknown rule\(s\) 'nope'"),
        ({"label": 3}, r"label must be a string"),
    ],
)
def test_bad_options_are_named(votenrank_toy, kwargs, pattern):
    with pytest.raises(InvalidOptionError, match=pattern):
        iia(votenrank_toy, **{"rules": ["borda"], **kwargs})


def test_too_few_systems_and_bad_data():
    three = cs.Leaderboard.from_frame(pd.DataFrame({"t": [1.0, 2.0, 3.0]}, index=["a", "b", "c"]))
    assert iia(three, ["mean"], repetitions=1).table["additions"].tolist() == [1]
    with pytest.raises(InvalidOptionError, match=r"at least 4 systems .* got 3"):
        iia(three, ["mean"], add_last=False)
    with pytest.raises(InvalidOptionError, match=r"data must be a Leaderboard or the name of a built-in example, got int"):
        iia(3, ["mean"])
    with pytest.raises(InvalidOptionError, match=r"unknown example 'glue'"):
        iia("glue", ["mean"])
    with pytest.raises(cs.ConsensusError, match=r"rule 'borda'"):  # a rule option checked before the repetitions
        iia(three, ["borda"], rule_options={"borda": {"ties": "sideways"}})


# ---------------------------------------------------------------------- Vote'n'Rank Table 2


@pytest.mark.parametrize("board", ["votenrank-glue", "votenrank-superglue"])
def test_table2_discriminative_power(board):
    res = iia(board, VOTENRANK_RULES, repetitions=1, rule_options=VOTENRANK_OPTIONS)
    dp = res.table.set_index("rule")["ties"].to_dict()
    paper = {rule: v[0] for rule, v in TABLE2[board].items()}
    # The paper's sigma_og DP is not the optimality-gap rule's: the authors' notebook counts ties
    # of its own unweighted gap (all columns, AX included, scores / 100, rounded to 3 decimals),
    # which is 3 and 1 (next test); the weighted gap with gamma = 95 has 0 ties on GLUE and 1 on
    # SuperGLUE (ERNIE 3.0 and DeBERTa / TuringNLRv4 both lose 716.35 - 760 exactly). The paper's
    # sigma_gm DP 0 on SuperGLUE: CBoW and WARP score 0.0 on MultiRC_n1 (weight 0.5), so they have
    # no geometric mean and tie at the bottom (the authors' code gives 4 NaN "ties" there).
    expected = paper | {"optimality_gap": 0 if board == "votenrank-glue" else 1}
    if board == "votenrank-superglue":
        expected["geometric_mean"] = 1
    assert dp == expected


@pytest.mark.parametrize(("board", "ties"), [("votenrank-glue", 3), ("votenrank-superglue", 1)])
def test_the_papers_og_dp_is_the_notebooks_rounded_unweighted_gap(board, ties):
    scores = cs.load_example(board).scores / 100
    gaps = [round(0.95 - float(np.mean(np.minimum(row, 0.95))), 3) for row in scores.to_numpy()]  # Python's round
    assert len(gaps) - len(set(gaps)) == ties == TABLE2[board]["optimality_gap"][0]


def test_table2_superglue_copeland_and_borda_replayed_exactly():
    """The authors' 50 arrival orders, their protocol: Table 2's 0.90 +- 0.78 (Copeland) and
    5.38 +- 1.79 (Borda) to the digit (the notebook's std 0.7810, 1.7876)."""
    lb = cs.load_example("votenrank-superglue")
    res = iia(lb, ["copeland", "borda"], orders=authors_orders(lb.systems), **AUTHORS)
    assert [tuple(round(x, k) for x, k in zip(_summary(res, r), (2, 4))) for r in ("copeland", "borda")] == [
        (0.90, 0.7810), (5.38, 1.7876)]
    assert res.table["additions"].unique().tolist() == [19]  # 22 systems, the last never added


@pytest.mark.slow
@pytest.mark.parametrize("board", ["votenrank-glue", "votenrank-superglue"])
def test_table2_replayed_with_the_authors_orders(board):
    # in-process: under pytest -n the workers already use the cores (the Dask path has its own test)
    lb = cs.load_example(board)
    res = iia(lb, VOTENRANK_RULES, orders=authors_orders(lb.systems), **AUTHORS)
    # the notebook's printed std (IIA.ipynb), to 4 digits
    notebook_std = {"votenrank-glue": {"copeland": 1.3048, "minimax": 1.5154, "plurality": 1.5976, "borda": 3.8365},
                    "votenrank-superglue": {"copeland": 0.7810, "minimax": 1.0394, "plurality": 1.4070, "borda": 1.7876}}
    for rule, (_, paper_mean, _) in TABLE2[board].items():
        mean, std = _summary(res, rule)
        if rule == "dowdall":
            # Dowdall's exact ties (1/3 + 1/6 = 1/2 with weights 0.5) are broken by float rounding
            # in the authors' code (it depends on the column order); here they are ties, broken
            # by name: 9.10 +- 2.35 on GLUE (paper 9.10 +- 2.43), 3.92 +- 2.14 on SuperGLUE (4.24)
            expected = {"votenrank-glue": (9.10, 2.3516), "votenrank-superglue": (3.92, 2.1433)}[board]
            assert (round(mean, 2), round(std, 4)) == expected
            continue
        assert round(mean, 2) == paper_mean, rule
        if rule in notebook_std[board]:
            assert round(std, 4) == notebook_std[board][rule], rule


@pytest.mark.slow
@pytest.mark.parametrize("board", ["votenrank-glue", "votenrank-superglue"])
def test_table2_with_our_seeds_within_three_standard_errors(board):
    """Our own 50 random orders against the paper's 50: two independent means of the same
    protocol, so the standard error of their difference is sqrt(s1^2 / 50 + s2^2 / 50).

    (Against the paper's standard error alone, s2 / sqrt(50), every rule but SuperGLUE's Borda
    is within 3; Borda is 3.6 away at seed 0, 4.46 against 5.38, where 500 orders give
    4.86 +- 0.09, 2.0 of the paper's standard errors from its 5.38: docs/experiments.md.)
    """
    res = iia(board, VOTENRANK_RULES, repetitions=50, seed=0, **AUTHORS)
    for rule, (_, paper_mean, paper_std) in TABLE2[board].items():
        mean, std = _summary(res, rule)
        assert abs(mean - paper_mean) <= 3 * math.sqrt((paper_std**2 + std**2) / 50), (rule, mean, paper_mean)
        if rule != "borda" or board != "votenrank-superglue":
            assert abs(mean - paper_mean) <= 3 * paper_std / math.sqrt(50), (rule, mean, paper_mean)
