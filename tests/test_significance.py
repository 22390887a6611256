"""Differences within noise: the tests and corrections against scipy, error rates on simulated
boards, tie groups, and what every kind of rule makes of the relation."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pandas as pd
import pytest
import scipy
import scipy.stats as st
from hypothesis import given
from hypothesis import strategies as hst

import consensus as cs
from consensus.errors import InvalidOptionError, MissingStandardErrorError
from consensus.noise import significance_pairwise, tie_group_board
from consensus.noise._tests import adjusted, sign_flip, sign_test, z_test
from consensus.results.significance import task_tie_groups
from tests.strategies import seeds

SCIPY_FDR = tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (1, 11)


def board_with_stderr(scores: np.ndarray, se: np.ndarray | float, lower: tuple[str, ...] = ()) -> cs.Leaderboard:
    n, m = scores.shape
    frame = pd.DataFrame(scores, index=[f"s{i}" for i in range(n)], columns=[f"t{j}" for j in range(m)])
    se = np.broadcast_to(np.asarray(se, dtype=float), scores.shape)
    for j in range(m):
        frame[f"t{j}_stderr"] = se[:, j]
    return cs.Leaderboard.from_frame(frame, lower_is_better=list(lower), infer=False) if lower else \
        cs.Leaderboard.from_frame(frame)


def holm_reference(p: np.ndarray) -> np.ndarray:
    """Holm's adjusted p-values from the definition: max over j <= k of min(1, (m - j + 1) p_(j))."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    for k in range(m):
        out[order[k]] = max(min(1.0, (m - j) * p[order[j]]) for j in range(k + 1))
    return out


p_values = hst.lists(hst.floats(1e-12, 1.0), min_size=1, max_size=40).map(np.array)


@given(p_values)
def test_holm_equals_its_definition(p):
    assert np.allclose(np.exp(adjusted(np.log(p), "holm")), holm_reference(p), rtol=1e-12, atol=0)


@pytest.mark.skipif(not SCIPY_FDR, reason="scipy.stats.false_discovery_control needs scipy 1.11")
@given(p_values)
def test_benjamini_hochberg_equals_scipy(p):
    assert np.allclose(np.exp(adjusted(np.log(p), "bh")), st.false_discovery_control(p, method="bh"), rtol=1e-12)


def test_no_correction_leaves_the_p_values():
    p = np.array([0.3, 0.01])
    assert np.array_equal(adjusted(np.log(p), "none"), np.log(p))


@given(hst.lists(hst.tuples(hst.floats(-5, 5), hst.floats(0.01, 2), hst.floats(0, 2)), min_size=1, max_size=20))
def test_z_test_equals_the_normal_tail(rows):
    d, a, b = (np.array(x) for x in zip(*rows))
    expected = np.minimum(1.0, 2 * st.norm.sf(np.abs(d) / np.hypot(a, b)))
    assert np.allclose(np.exp(z_test(d, a, b)), expected, rtol=1e-9, atol=1e-300)


def test_z_test_in_logs_keeps_huge_differences_apart_from_ties():
    logs = z_test(np.array([100.0, 0.0]), np.array([1.0, 1.0]), np.array([1.0, 1.0]))
    assert np.isfinite(logs[0]) and logs[0] < math.log(1e-300)  # p underflows float64, its log does not
    assert logs[1] == 0.0


@given(hst.integers(0, 60), hst.integers(0, 60))
def test_sign_test_equals_scipy_binomtest(b, c):
    expected = st.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0
    assert math.isclose(float(np.exp(sign_test(np.array([b]), np.array([c]))[0])), expected, rel_tol=1e-9)


@pytest.mark.parametrize("seed", seeds(10))
def test_exact_sign_flip_equals_scipy_permutation_test(seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(0, 1, (4, 9)), 2)
    logs = sign_flip(x, np.ones_like(x, dtype=bool), resamples=10_000, seed=0)  # 2**9 < 10,000: exact
    for a, b in itertools.combinations(range(4), 2):
        ref = st.permutation_test((x[a], x[b]), lambda u, v: np.sum(u - v), permutation_type="samples",
                                  n_resamples=np.inf).pvalue
        assert math.isclose(float(np.exp(logs[a, b])), ref, rel_tol=1e-9), (a, b)


def test_sign_flip_with_missing_items_tests_the_shared_items_only():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (3, 8))
    shared = np.ones_like(x, dtype=bool)
    shared[2, :3] = False
    logs = sign_flip(x, shared, resamples=10_000, seed=0)
    ref = st.permutation_test((x[0, 3:], x[2, 3:]), lambda u, v: np.sum(u - v), permutation_type="samples",
                              n_resamples=np.inf).pvalue
    assert math.isclose(float(np.exp(logs[0, 2])), ref, rel_tol=1e-9)


def test_random_sign_flips_are_seeded_and_never_below_one_over_resamples():
    x = np.vstack([np.ones(100), np.zeros(100)])
    one = sign_flip(x, np.ones_like(x, dtype=bool), resamples=500, seed=1)
    assert np.array_equal(one, sign_flip(x, np.ones_like(x, dtype=bool), resamples=500, seed=1))
    assert math.isclose(float(np.exp(one[0, 1])), 1 / 501)


# ---------------------------------------------------------------------- from instance-level scores
def instances(arrays: dict[str, np.ndarray]) -> cs.InstanceScores:
    n = next(iter(arrays.values())).shape[0]
    return cs.InstanceScores.from_arrays(arrays, systems=[f"s{i}" for i in range(n)])


def test_mcnemar_on_zero_one_scores_is_the_exact_binomial_of_the_discordant_items():
    rng = np.random.default_rng(0)
    x = (rng.random((5, 300)) < np.linspace(0.4, 0.7, 5)[:, None]).astype(float)
    x[1, :20] = np.nan
    res = cs.significance(instances({"qa": x}))
    assert res.tests["qa"] == "sign"
    raw = res.pvalues("qa", adjusted=False)
    for a, b in itertools.combinations(range(5), 2):
        both = ~np.isnan(x[a]) & ~np.isnan(x[b])
        wins = int(((x[a] == 1) & (x[b] == 0) & both).sum())
        losses = int(((x[a] == 0) & (x[b] == 1) & both).sum())
        assert math.isclose(raw.iloc[a, b], st.binomtest(wins, wins + losses).pvalue, rel_tol=1e-9)
        diff = res.relation("qa").iloc[a, b]
        assert diff in (-1, 0, 1)
    holm = holm_reference(raw.to_numpy()[np.triu_indices(5, 1)])
    assert np.allclose(res.pvalues("qa").to_numpy()[np.triu_indices(5, 1)], holm)


def test_lower_is_better_instance_scores_point_the_relation_the_right_way():
    err = np.array([[0.0] * 50, [1.0] * 50])  # s0 never errs, s1 always does
    res = cs.significance(cs.InstanceScores.from_arrays({"err": err}, systems=["s0", "s1"], lower_is_better=["err"]))
    assert res.relation("err").loc["s0", "s1"] == 1
    assert res.tie_groups["err"] == (("s0",), ("s1",))


def test_continuous_instance_scores_take_the_permutation_test_with_its_seed_recorded():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (3, 40)) + np.array([[0.0], [0.0], [1.5]])
    res = cs.significance(instances({"bleu": x}), resamples=2000, seed=7)
    assert res.tests["bleu"] == "permutation" and res.parameters["seed"] == 7
    assert res.relation("bleu").loc["s2", "s0"] == 1 and res.relation("bleu").loc["s0", "s1"] == 0


def test_too_few_resamples_for_holm_is_said():
    rng = np.random.default_rng(1)
    res = cs.significance(instances({"bleu": rng.normal(0, 1, (30, 40))}), resamples=100)
    assert any("resamples" in note for note in res.parameters["notes"])


# ---------------------------------------------------------------------- error rates (simulated)
SIMULATIONS = 1000 if len(seeds(1000)) == 1000 else 100


def test_holm_keeps_the_familywise_error_on_equal_systems():
    """Systems equal in truth: at most 5% of tasks (plus a binomial tolerance) show any false separation."""
    rng = np.random.default_rng(2024)
    falsely = 0
    for _ in range(SIMULATIONS):
        se = rng.uniform(0.5, 2.0, 8)
        scores = rng.normal(0.0, se)[:, None]
        res = cs.significance(board_with_stderr(scores, se[:, None]))
        falsely += bool(res.separated().iloc[0] > 0)
    tolerance = 3 * math.sqrt(0.05 * 0.95 / SIMULATIONS)
    assert falsely / SIMULATIONS <= 0.05 + tolerance


def test_holm_keeps_the_familywise_error_on_equal_systems_item_by_item():
    rng = np.random.default_rng(7)
    falsely = 0
    runs = SIMULATIONS // 2
    for _ in range(runs):
        x = (rng.random((6, 200)) < 0.6).astype(float)
        res = cs.significance(instances({"qa": x}))
        falsely += bool(res.separated().iloc[0] > 0)
    assert falsely / runs <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)


def test_real_differences_are_separated():
    scores = np.array([[0.9], [0.7], [0.5], [0.3]])
    res = cs.significance(board_with_stderr(scores, 0.01))
    assert res.tie_groups["t0"] == (("s0",), ("s1",), ("s2",), ("s3",))
    assert res.separated().iloc[0] == 1.0


def test_a_vanishing_level_ties_every_pair_with_noise():
    rng = np.random.default_rng(5)
    scores = rng.uniform(0, 40, (6, 3))
    lb = board_with_stderr(scores, 1.0)  # |z| < 40 / sqrt(2): every p-value is above 1e-200
    assert cs.significance(lb).separated().min() > 0.5
    res = cs.significance(lb, level=1e-300)
    for t in lb.tasks:
        assert (res.relation(t).to_numpy() == 0).all()
        assert len(res.tie_groups[t]) == 1
    assert cs.rank(lb, "borda", significance=res).ranking == (lb.systems,)


def test_zero_standard_errors_compare_exactly():
    lb = board_with_stderr(np.array([[0.5], [0.5000001], [0.5]]), 0.0)
    res = cs.significance(lb, level=1e-12)
    assert res.tie_groups["t0"] == (("s1",), ("s0", "s2"))


# ---------------------------------------------------------------------- tie groups
@given(hst.integers(2, 9), hst.integers(0, 10**6), hst.floats(0.0, 1.0))
def test_tie_groups_follow_their_rule(n, seed, density):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 5, n).astype(float)
    if n > 2:
        scores[rng.integers(0, n)] = np.nan
    better = (rng.random((n, n)) < density) & (scores[:, None] > scores[None, :])
    systems = [f"s{i}" for i in range(n)]
    groups = task_tie_groups(systems, scores, better)
    at = {s: i for i, s in enumerate(systems)}
    flat = [s for g in groups for s in g]
    assert sorted(flat) == sorted(s for s, v in zip(systems, scores) if not np.isnan(v))
    value = {s: scores[at[s]] for s in flat}
    assert [value[s] for s in flat] == sorted(value.values(), reverse=True)  # score order
    for g, h in itertools.combinations(groups, 2):
        assert not {value[s] for s in g} & {value[s] for s in h}  # equal scores are never split
        assert not any(better[at[b], at[a]] for a in g for b in h)  # no later group beats an earlier one
    follows_scores = not any(better[at[b], at[a]] for a in flat for b in flat if value[b] < value[a])
    for k, g in enumerate(groups):  # the walk's own guarantees, when no merge was needed
        top = [s for s in g if value[s] == value[g[0]]]  # the leaders
        if follows_scores:
            assert not any(better[at[a], at[b]] for a in top for b in g)  # nobody significantly below a leader
            if k:  # the group's first level is significantly below a leader of the previous group
                prev = groups[k - 1]
                leaders = [s for s in prev if value[s] == value[prev[0]]]
                assert any(better[at[a], at[b]] for a in leaders for b in top)


def test_a_later_group_that_beats_an_earlier_one_is_merged_into_it():
    better = np.zeros((3, 3), dtype=bool)
    better[0, 1] = better[1, 2] = True
    better[2, 0] = True  # a cycle of significant differences, against the score order
    assert task_tie_groups(["x", "w", "y"], np.array([0.85, 0.60, 0.525]), better) == (("x", "w", "y"),)
    better[2, 0] = False
    assert task_tie_groups(["x", "w", "y"], np.array([0.85, 0.60, 0.525]), better) == (("x",), ("w",), ("y",))


# ---------------------------------------------------------------------- rules
def _noisy(holes: bool) -> cs.Leaderboard:
    rng = np.random.default_rng(11)
    scores = np.round(rng.normal(70, 3, (9, 5)), 1)
    if holes:
        scores[2, 1] = scores[5, 3] = np.nan
    return board_with_stderr(scores, rng.uniform(0.3, 1.5, (9, 5)))


@pytest.fixture(scope="module")
def noisy_board():
    return _noisy(False)


@pytest.fixture(scope="module")
def holey_board():
    """Missing cells: the majority rules compare each pair on the tasks both are scored on."""
    return _noisy(True)


@pytest.mark.parametrize("rule", ["copeland", "minimax", "schulze", "ranked_pairs", "condorcet", "bradley_terry"])
def test_majority_rules_read_the_relation(holey_board, rule):
    res = cs.significance(holey_board)
    matrix = significance_pairwise(holey_board, res)
    assert cs.rank(holey_board, rule, significance=res).ranking == cs.rank(matrix, rule).ranking


def test_the_relation_counts_only_significant_tasks(holey_board):
    res = cs.significance(holey_board)
    matrix = significance_pairwise(holey_board, res)
    plain = cs.pairwise(holey_board)
    expected = sum(holey_board.weights[t] * res.significant(t) for t in holey_board.tasks)
    assert np.array_equal(matrix.wins, expected)
    assert np.array_equal(matrix.wins + matrix.wins.T + matrix.ties, plain.wins + plain.wins.T + plain.ties)
    assert (matrix.wins <= plain.wins).all()


@pytest.mark.parametrize("rule", ["borda", "dowdall", "plurality", "baldwin", "threshold", "mean_win_rate"])
def test_rules_within_tasks_see_the_tie_groups(noisy_board, rule):
    res = cs.significance(noisy_board)
    groups = tie_group_board(noisy_board, res)
    assert cs.rank(noisy_board, rule, significance=res).ranking == cs.rank(groups, rule).ranking
    for t in noisy_board.tasks:
        assert groups.scores[t].nunique() == len(res.tie_groups[t])


@pytest.mark.parametrize("rule", ["mean", "geometric_mean", "normalized_mean"])
def test_score_rules_are_unchanged_and_say_so(noisy_board, rule):
    lb = noisy_board if rule != "geometric_mean" else noisy_board.select(tasks=["t0", "t2"])
    with_noise = cs.rank(lb, rule, significance=True)
    assert with_noise.ranking == cs.rank(lb, rule).ranking
    assert with_noise.details["significance"].startswith("unchanged")


def test_kemeny_reads_the_relation_and_records_it(holey_board):
    res = cs.significance(holey_board, level=0.2)
    k = cs.kemeny(holey_board, significance=res)
    assert k.objective == cs.kemeny(significance_pairwise(holey_board, res)).objective
    assert any(n.startswith("significance") for n in k.preparation.notes)
    by_rule = cs.rank(holey_board, "kemeny", significance=res)
    assert cs.kemeny_objective(significance_pairwise(holey_board, res), by_rule.order) == k.objective


def test_significance_off_changes_nothing(noisy_board):
    for rule in ("borda", "copeland"):
        assert cs.rank(noisy_board, rule).to_dict() == cs.rank(noisy_board, rule, significance=None).to_dict()
    plain, off = cs.rank(noisy_board, "kemeny"), cs.rank(noisy_board, "kemeny", significance=False)
    assert (plain.ranking, plain.options, plain.preparation) == (off.ranking, off.options, off.preparation)


def test_a_level_and_true_use_the_boards_standard_errors(noisy_board):
    assert (cs.rank(noisy_board, "borda", significance=0.05).ranking
            == cs.rank(noisy_board, "borda", significance=True).ranking
            == cs.rank(noisy_board, "borda", significance=cs.significance(noisy_board)).ranking)


def test_set_aside_systems_are_left_out_of_the_relation():
    scores = np.array([[0.9, 0.8, 0.7, 0.6], [0.5, 0.6, 0.7, 0.2], [0.4, 0.3, 0.2, 0.9], [0.99, np.nan, np.nan, np.nan]])
    lb = board_with_stderr(scores, 0.01)
    full = cs.significance(lb)
    for option in (True, full):
        res = cs.rank(lb, "copeland", significance=option, min_coverage=0.5)
        assert "s3" not in res.systems and res.preparation.set_aside == ("s3",)
        assert res.ranking == cs.rank(significance_pairwise(lb.select(systems=["s0", "s1", "s2"]), full), "copeland").ranking


# ---------------------------------------------------------------------- errors
def test_a_scored_cell_without_a_standard_error_is_named():
    frame = pd.DataFrame({"qa": [0.7, 0.6, 0.5], "qa_stderr": [0.01, np.nan, 0.01]}, index=["a", "b", "c"])
    with pytest.raises(MissingStandardErrorError, match="'b' on task 'qa'") as info:
        cs.significance(cs.Leaderboard.from_frame(frame))
    assert info.value.cells == (("b", "qa"),)


def test_a_board_without_standard_errors_says_where_they_can_come_from():
    with pytest.raises(MissingStandardErrorError, match="stderr="):
        cs.rank(cs.load_example("votenrank-toy"), "borda", significance=True)


def test_the_stderr_frame_replaces_the_files_columns(noisy_board):
    se = pd.DataFrame(1e-9, index=list(noisy_board.systems), columns=list(noisy_board.tasks))
    assert cs.significance(noisy_board, stderr=se).separated().min() > 0.9
    with pytest.raises(InvalidOptionError, match="system 'zz'"):
        cs.significance(noisy_board, stderr=pd.DataFrame({"t0": [0.1]}, index=["zz"]))
    with pytest.raises(InvalidOptionError, match="'s0' on task 't0'"):
        cs.significance(noisy_board, stderr=se.assign(t0=-1.0))


@pytest.mark.parametrize(("options", "match"), [
    ({"level": 0}, "between 0 and 1"), ({"level": True}, "number"), ({"correction": "bonferroni"}, "correction"),
    ({"test": "sign"}, "instance-level"), ({"resamples": 0}, "resamples"),
])
def test_bad_options_are_named(noisy_board, options, match):
    with pytest.raises(InvalidOptionError, match=match):
        cs.significance(noisy_board, **options)


@pytest.mark.parametrize(("options", "match"), [
    ({"missing": "median"}, "filled cell"), ({"tie_tol": 0.1}, "tie_tol"), ({"significance": "yes"}, "significance must"),
    ({"significance": 1.5}, "between 0 and 1"),
])
def test_rules_refuse_what_significance_cannot_mean(noisy_board, options, match):
    rule = "copeland"
    with pytest.raises(InvalidOptionError, match=match):
        cs.rank(noisy_board, rule, **{"significance": True, **options})


def test_instance_scores_and_matrices_are_refused_with_the_way_to_go():
    scores = instances({"qa": np.array([[1.0, 0.0], [0.0, 1.0]])})
    with pytest.raises(InvalidOptionError, match="to_leaderboard"):
        cs.rank(scores, "copeland", significance=cs.significance(scores), missing="impute")
    with pytest.raises(InvalidOptionError, match="stderr= applies"):
        cs.significance(scores, stderr=pd.DataFrame())


def test_a_result_of_another_board_is_refused(noisy_board):
    other = board_with_stderr(np.array([[1.0], [2.0]]), 0.1)
    with pytest.raises(InvalidOptionError, match="no system 's2'|no task 't1'"):
        cs.rank(noisy_board, "borda", significance=cs.significance(other))


def test_the_result_shows_its_tables(holey_board):
    res = cs.significance(holey_board)
    frame = res.to_frame()
    assert set(frame["result"]) <= {"better", "tied", "worse"}
    n_pairs = sum(math.comb(int(holey_board.scores[t].notna().sum()), 2) for t in holey_board.tasks)
    assert len(frame) == n_pairs
    out = res.to_dict()
    assert out["level"] == 0.05 and set(out["tie_groups"]) == set(holey_board.tasks)
    assert "tie group" in repr(res)
    groups = res.groups_frame()
    assert groups.groupby("task")["group"].max().to_dict() == {t: len(g) for t, g in res.tie_groups.items()}


# ---------------------------------------------------------------------- command line
STDERR_CSV = """model,qa,qa_stderr,nli,nli_stderr,math,math_stderr
m1,0.80,0.01,0.61,0.02,0.40,0.03
m2,0.78,0.01,0.66,0.02,0.42,0.03
m3,0.60,0.01,0.64,0.02,0.55,0.03
m4,0.59,0.012,0.50,0.02,0.41,0.03
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    from consensus.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_significance_command_shows_each_tasks_tie_groups(tmp_path, capsys):
    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV)
    code, out, _ = run(capsys, "significance", str(path))
    lb = cs.read_leaderboard(path)
    expected = cs.significance(lb).tie_groups
    assert code == 0
    for task, tiers in expected.items():
        assert " > ".join("{" + ", ".join(g) + "}" for g in tiers) in out, task
    code, out, _ = run(capsys, "significance", str(path), "--format", "csv", "--level", "0.01", "--correction", "bh")
    frame = pd.read_csv(__import__("io").StringIO(out))
    assert code == 0 and set(frame.columns) == {"task", "system", "group", "score"}
    assert frame.groupby("task")["group"].max().to_dict() == {
        t: len(g) for t, g in cs.significance(lb, level=0.01, correction="bh").tie_groups.items()}


def test_rank_and_kemeny_take_significance_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV)
    lb = cs.read_leaderboard(path)
    code, out, _ = run(capsys, "rank", str(path), "--rule", "borda", "--significance", "--format", "json")
    import json

    doc = json.loads(out)
    assert code == 0
    assert doc["result"]["ranking"] == [list(g) for g in cs.rank(lb, "borda", significance=True).ranking]
    code, out, _ = run(capsys, "kemeny", str(path), "--significance", "0.2", "--format", "json")
    assert code == 0 and json.loads(out)["result"]["objective"] == cs.kemeny(lb, significance=0.2).objective


def test_instance_level_files_are_tested_item_by_item_on_the_command_line(tmp_path, capsys):
    rng = np.random.default_rng(0)
    rows = [(f"m{i}", "qa", k, float(rng.random() < 0.3 + 0.2 * i)) for i in range(3) for k in range(200)]
    path = tmp_path / "items.csv"
    pd.DataFrame(rows, columns=["system", "task", "instance", "score"]).to_csv(path, index=False)
    code, out, _ = run(capsys, "significance", str(path), "--instances", "system,task,instance,score")
    assert code == 0 and "sign" in out
    code, out, err = run(capsys, "rank", str(path), "--instances", "system,task,instance,score", "--rule", "copeland",
                         "--significance")
    assert code == 0 and "ranking:" in out


def test_a_board_without_standard_errors_is_one_line_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "board.csv"
    path.write_text("model,qa,nli\na,0.5,0.6\nb,0.4,0.7\n")
    code, out, err = run(capsys, "rank", str(path), "--rule", "borda", "--significance")
    assert code == 2 and "no standard errors" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------- the leaderboard's rows
def test_the_rows_test_is_the_z_test_of_the_weighted_means_over_shared_tasks():
    scores = np.array([[0.8, 0.6, 0.7], [0.7, 0.65, np.nan], [0.5, 0.4, 0.3]])
    se = np.array([[0.02, 0.03, 0.01], [0.02, 0.01, 0.05], [0.04, 0.01, 0.02]])
    lb = board_with_stderr(scores, se).with_weights({"t0": 1.0, "t1": 3.0, "t2": 2.0})
    res = cs.significance(lb, correction="none")
    w = np.array([1.0, 3.0, 2.0])
    for (a, b), k in zip(itertools.combinations(range(3), 2), range(3)):
        both = ~np.isnan(scores[a]) & ~np.isnan(scores[b])
        d = np.sum(w[both] * (scores[a, both] - scores[b, both])) / w[both].sum()
        sd = math.sqrt(np.sum(w[both] ** 2 * (se[a, both] ** 2 + se[b, both] ** 2))) / w[both].sum()
        assert math.isclose(res.overall[0, k], d, rel_tol=1e-12)
        assert math.isclose(math.exp(res.overall[1, k]), 2 * st.norm.sf(abs(d) / sd), rel_tol=1e-9)
    assert res.row_groups == task_tie_groups(lb.systems, res.means, res.overall_significant())
    assert list(res.rows_frame()["system"]) == [s for g in res.row_groups for s in g]


def test_the_rows_test_of_instance_scores_uses_the_paired_differences():
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (3, 60)) + np.array([[0.0], [0.1], [0.8]])
    y = (rng.random((3, 80)) < 0.6).astype(float)
    res = cs.significance(instances({"a": x, "b": y}), correction="none", resamples=200)
    d_a, d_b = x[2] - x[0], y[2] - y[0]
    diff = (d_a.mean() + d_b.mean()) / 2
    var = (np.mean(d_a**2) / 60 + np.mean(d_b**2) / 80) / 4  # each mean's variance under the sign-flip null
    k = 1  # the pair (s0, s2)
    assert math.isclose(res.overall[0, k], -diff, rel_tol=1e-9)
    assert math.isclose(math.exp(res.overall[1, k]), 2 * st.norm.sf(abs(diff) / math.sqrt(var)), rel_tol=1e-6)


def test_holm_keeps_the_familywise_error_of_the_rows():
    rng = np.random.default_rng(99)
    falsely = 0
    for _ in range(SIMULATIONS):
        se = rng.uniform(0.5, 2.0, (8, 4))
        res = cs.significance(board_with_stderr(rng.normal(0.0, se), se))
        falsely += bool(res.overall_significant().any())
    assert falsely / SIMULATIONS <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / SIMULATIONS)


def test_rules_within_tasks_fill_the_group_levels_under_a_missing_score_policy(holey_board):
    res = cs.significance(holey_board)
    groups = tie_group_board(holey_board, res)
    for policy in ("impute", "median", "drop_systems"):
        got = cs.rank(holey_board, "borda", significance=res, missing=policy)
        assert got.ranking == cs.rank(groups, "borda", missing=policy).ranking, policy
    assert cs.rank(holey_board, "mean", significance=res, missing="median").ranking == \
        cs.rank(holey_board, "mean", missing="median").ranking


def test_a_mean_tie_break_would_undo_significance(noisy_board):
    with pytest.raises(InvalidOptionError, match="tie_break='mean'"):
        cs.rank(noisy_board, "borda", significance=True, tie_break="mean")
    assert cs.rank(noisy_board, "mean", significance=True, tie_break="mean").ranking == cs.rank(noisy_board, "mean").ranking


# ---------------------------------------------------------------------- analyze, compare, plot
def test_analyze_runs_every_rule_and_the_majority_relation_with_significance(holey_board):
    res = cs.significance(holey_board)
    a = cs.analyze(holey_board, significance=res, prospective=False)
    assert a.significance is res
    for rule, result in a.comparison.results.items():
        if rule == "kemeny":
            assert result.objective == cs.kemeny(significance_pairwise(a.leaderboard, res),
                                                 time_limit=None).objective
            continue
        expected = cs.rank(holey_board, rule, significance=res, missing=result.preparation.missing,
                           min_coverage=None)
        assert result.ranking == expected.ranking, rule
    assert a.majority.smith_set == cs.majority_summary(significance_pairwise(a.leaderboard, res)).smith_set
    assert a.to_dict()["significance"]["row_groups"] == [list(g) for g in res.row_groups]
    text = cs.render(a)
    assert "Differences within noise" in text and "differences within noise are ties" in text


def test_analyze_on_the_command_line_takes_significance(tmp_path, capsys):
    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV)
    code, out, _ = run(capsys, "analyze", str(path), "--significance", "--no-prospective")
    assert code == 0 and "the leaderboard's rows: 2 group(s)" in out
    lb = cs.read_leaderboard(path)
    for k, group in enumerate(cs.significance(lb).row_groups, start=1):  # the group column of the scores
        for s in group:
            assert re.search(rf"^{s} .* {k}$", out, re.M), s
    page = tmp_path / "page.html"
    code, _, _ = run(capsys, "report", str(path), "--significance", "0.1", "-o", str(page), "--no-figure")
    assert code == 0 and "Differences within noise" in page.read_text() and '<th scope="col">group</th>' in page.read_text()


def test_the_rows_figure_draws_one_band_per_group(noisy_board):
    pytest.importorskip("matplotlib")
    res = cs.significance(noisy_board)
    fig = cs.plot.plot_significance(res)
    bands = sorted(p.get_gid() for p in fig.axes[0].patches if p.get_gid())
    assert bands == sorted(f"group:{k}" for k in range(1, len(res.row_groups) + 1))
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [s for g in res.row_groups for s in g]


def test_compare_on_the_command_line_takes_significance(tmp_path, capsys):
    import json

    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV)
    code, out, _ = run(capsys, "compare", str(path), "--significance", "--format", "json")
    expected = cs.compare_rules(cs.read_leaderboard(path), significance=True)
    assert code == 0
    got = json.loads(out)["result"]
    for rule, result in expected.results.items():
        if rule != "kemeny":
            assert got["rankings"][rule] == [list(g) for g in result.ranking], rule
    assert got["chosen_by"]["kemeny"] == "significance"


def test_the_reading_says_where_the_standard_errors_came_from(noisy_board):
    from consensus.report.reading import inspect_lines

    assert "standard errors for: t0, t1, t2, t3, t4 (from their columns)" in inspect_lines(noisy_board)
    se = pd.DataFrame(0.1, index=list(noisy_board.systems), columns=["t0"])
    given = noisy_board.with_stderr(se, source="a colleague's bootstrap")
    assert "standard errors for: t0 (from a colleague's bootstrap)" in inspect_lines(given)
    assert cs.significance(given.select(tasks=["t0"])).source == "a colleague's bootstrap"


# ---------------------------------------------------------------------- regressions (a newcomer's review)
def test_the_sign_test_points_the_way_the_items_were_won():
    a = np.r_[np.full(20, 0.51), np.full(2, 0.0)]
    b = np.r_[np.full(20, 0.50), np.full(2, 1.0)]  # a wins 20 items, loses 2, but its mean is lower
    res = cs.significance(instances({"t": np.vstack([a, b])}), test="sign")
    assert res.relation("t").loc["s0", "s1"] == 1
    assert res.to_frame()["difference"].iloc[0] == pytest.approx(18 / 22)


def test_two_items_never_separate_the_rows_with_certainty():
    res = cs.significance(instances({"qa": np.array([[1.0, 1.0], [0.0, 0.0]])}))
    assert math.exp(res.overall[1, 0]) == pytest.approx(2 * st.norm.sf(1 / math.sqrt(0.5)))
    assert res.row_groups == (("s0", "s1"),)


@pytest.mark.parametrize("scale", [1e3, 1e8, 1e9])
def test_the_rows_test_keeps_its_precision_on_large_scores(scale):
    rng = np.random.default_rng(0)
    base = scale + rng.normal(0, scale * 1e-3, 200)
    a, b = base + rng.normal(0, 1, 200), base + 0.3 + rng.normal(0, 1, 200)
    res = cs.significance(instances({"t": np.vstack([a, b])}), resamples=200)
    d = a - b
    z = abs(d.mean()) / math.sqrt(np.mean(d**2) / 200)
    assert math.exp(res.overall[1, 0]) == pytest.approx(2 * st.norm.sf(z), rel=1e-6)


@pytest.mark.filterwarnings("ignore::consensus.DegenerateTaskWarning")
def test_systems_set_aside_never_lead_a_group_and_every_entry_point_agrees():
    nan = np.nan
    frame = pd.DataFrame({"t1": [.90, .88, .86], "t1_stderr": [.01] * 3, "t2": [nan, .5, .5], "t2_stderr": [.01] * 3,
                          "t3": [nan, .5, .5], "t3_stderr": [.01] * 3}, index=["X", "A", "B"])
    lb = cs.Leaderboard.from_frame(frame)
    for rule in ("borda", "copeland"):  # A and B tie on every task once X is set aside
        assert cs.rank(lb, rule, significance=True, min_coverage=0.5).ranking == (("A", "B"),)
    frame = pd.DataFrame({"t1": [.818, .800, .7693, .50], "t1_stderr": [.01] * 4, "t2": [nan, .6, .6, .4],
                          "t2_stderr": [.01] * 4, "t3": [nan, .6, .6, .4], "t3_stderr": [.01] * 4},
                         index=["X", "A", "B", "C"])
    lb = cs.Leaderboard.from_frame(frame)
    direct = cs.kemeny(lb, significance=True, min_coverage=0.5)
    by_rule = cs.rank(lb, "kemeny", significance=True, min_coverage=0.5).details["kemeny"]
    assert direct.objective == by_rule.objective and direct.preparation.set_aside == ("X",)


def test_prepared_data_with_filled_cells_is_refused_with_the_way_out():
    frame = pd.DataFrame({"t1": [.9, .5, .3], "t1_stderr": [.01] * 3, "t2": [.8, np.nan, .2], "t2_stderr": [.01] * 3},
                         index=["A", "B", "C"])
    ready = cs.prepare(cs.Leaderboard.from_frame(frame), missing="median")
    for rule in ("copeland", "borda"):
        with pytest.raises(InvalidOptionError, match="filled missing cells"):
            cs.rank(ready, rule, significance=True)


def test_an_exact_permutation_test_with_too_few_items_says_so():
    x = np.array([[.9, .8, .95, .85, .9], [.1, .2, .05, .15, .1], [.5] * 5])
    res = cs.significance(instances({"t": x}), resamples=1_000_000)
    assert res.separated().iloc[0] == 0
    assert any("5 shared items" in note for note in res.parameters["notes"])


def test_options_of_a_test_that_does_not_run_are_refused(tmp_path, capsys, noisy_board):
    with pytest.raises(InvalidOptionError, match="resamples= and seed="):
        cs.significance(noisy_board, resamples=3)
    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV)
    code, _, err = run(capsys, "rank", str(path), "--rule", "borda", "--test", "permutation")
    assert code == 2 and "--test apply only with --significance" in err
    bad = pd.DataFrame("n/a", index=list(noisy_board.systems), columns=["t0"])
    with pytest.raises(InvalidOptionError, match="stderr of system 's0' on task 't0' is 'n/a'"):
        cs.significance(noisy_board, stderr=bad)
    plain = cs.kemeny(noisy_board)
    with pytest.raises(InvalidOptionError, match="kemeny_result was solved without significance"):
        cs.compare_rules(noisy_board, kemeny_result=plain, significance=True)


def test_the_significance_command_sets_aside_what_rank_sets_aside(tmp_path, capsys):
    path = tmp_path / "board.csv"
    path.write_text(STDERR_CSV + "m5,0.99,0.01,,,,\n")  # scored on one task of three
    code, out, err = run(capsys, "significance", str(path), "--format", "csv")
    assert code == 0 and "set aside" in err and "--min-coverage 0" in err and "m5" not in out
    lb = cs.read_leaderboard(path)
    kept = cs.rank(lb, "borda", significance=True)
    assert "m5" not in kept.systems
    code, out, _ = run(capsys, "significance", str(path), "--format", "csv", "--min-coverage", "0")
    assert code == 0 and "m5" in out
