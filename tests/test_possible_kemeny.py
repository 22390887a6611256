"""Who can still be the Kemeny winner, against brute force over every completion of small boards."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as hst

import consensus as cs
from consensus.missing._possible_kemeny import _smallest_dominant, kemeny_co_winners


def weak_orders(items: list[int]) -> list[dict[int, int]]:
    """Every weak order of `items` as item -> level (higher is better)."""
    out = []
    n = len(items)
    for levels in itertools.product(range(n), repeat=n):
        used = sorted(set(levels))
        if used == list(range(len(used))):  # surjective onto 0..k-1: each weak order once
            out.append(dict(zip(items, levels)))
    return out


def completions(scores: np.ndarray) -> list[np.ndarray]:
    """Every completion by position: per task with holes, every weak order of all systems that
    keeps the scored systems' order (ties included), as levels."""
    n, m = scores.shape
    per_task = []
    for k in range(m):
        col = scores[:, k]
        if not np.isnan(col).any():
            per_task.append([col])
            continue
        scored = np.flatnonzero(~np.isnan(col))
        options = []
        for order in weak_orders(list(range(n))):
            if all(np.sign(col[a] - col[b]) == np.sign(order[a] - order[b]) for a in scored for b in scored):
                options.append(np.array([float(order[s]) for s in range(n)]))
        per_task.append(options)
    return [np.column_stack(choice) for choice in itertools.product(*per_task)]


def co_winners(values: np.ndarray, weights: np.ndarray) -> tuple[set[int], bool]:
    """Systems first in some optimal ranking (by every permutation), and whether one is alone."""
    n = values.shape[0]
    diff = values[:, None, :] - values[None, :, :]
    pref = ((diff > 0) * weights).sum(axis=2) + 0.5 * ((diff == 0) * weights).sum(axis=2)
    costs = {}
    for perm in itertools.permutations(range(n)):
        costs[perm] = sum(pref[perm[b], perm[a]] for a in range(n) for b in range(a + 1, n))
    best = min(costs.values())
    firsts = {perm[0] for perm, c in costs.items() if c <= best + 1e-9}
    return firsts, len(firsts) == 1


def truth(scores: np.ndarray, weights: np.ndarray) -> tuple[list[bool], list[bool], list[bool], list[bool]]:
    n = scores.shape[0]
    ever, ever_alone = [False] * n, [False] * n
    always, always_alone = [True] * n, [True] * n
    for filled in completions(scores):
        firsts, alone = co_winners(filled, weights)
        for i in range(n):
            ever[i] |= i in firsts
            ever_alone[i] |= alone and i in firsts
            always[i] &= i in firsts
            always_alone[i] &= alone and i in firsts
    return ever, ever_alone, always, always_alone


def board(scores: np.ndarray, weights: np.ndarray) -> cs.Leaderboard:
    n, m = scores.shape
    frame = pd.DataFrame(scores, index=[f"s{i}" for i in range(n)], columns=[f"t{k}" for k in range(m)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, infer=False, weights={f"t{k}": float(w) for k, w in enumerate(weights)})


@hst.composite
def holey_boards(draw):
    n = draw(hst.integers(3, 5))
    m = draw(hst.integers(2, 4))
    scores = np.array(draw(hst.lists(hst.lists(hst.integers(0, 3), min_size=m, max_size=m), min_size=n, max_size=n)),
                      dtype=float)
    cells = draw(hst.lists(hst.tuples(hst.integers(0, n - 1), hst.integers(0, m - 1)), min_size=1, max_size=3,
                           unique=True))
    for j, k in cells:
        scores[j, k] = np.nan
    for j in range(n):  # every system keeps a score, every task two
        if np.isnan(scores[j]).all():
            scores[j, 0] = 1.0
    for k in range(m):
        if (~np.isnan(scores[:, k])).sum() < 2:
            scores[:2, k] = np.where(np.isnan(scores[:2, k]), 2.0, scores[:2, k])
    weights = np.array(draw(hst.lists(hst.sampled_from([1.0, 2.0]), min_size=m, max_size=m)))
    return scores, weights


@given(holey_boards())
def test_possible_and_necessary_kemeny_winners_equal_brute_force(case):
    scores, weights = case
    lb = board(scores, weights)
    res = cs.missing.possible_winners(lb, "kemeny")
    ever, ever_alone, always, always_alone = truth(scores, weights)
    for i, s in enumerate(lb.systems):
        assert res.possible[i] == ever[i], (s, res.decided_by[i])
        assert res.possible_strict[i] == ever_alone[i], (s, res.decided_by[i])
        assert res.necessary[i] == always[i], (s, res.decided_by[i])
        assert res.necessary_strict[i] == always_alone[i], (s, res.decided_by[i])
    for s, rivals in res.beaten_by.items():  # a dominant set it is never above
        assert s not in rivals and rivals


def worst_margin(scores: np.ndarray, weights: np.ndarray, a: int, b: int) -> float:
    """a's weighted majority margin over b with a's missing cells last and b's first (independent arithmetic)."""
    low, high = np.nanmin(scores) - 1.0, np.nanmax(scores) + 1.0
    x = np.where(np.isnan(scores[a]), low, scores[a])
    y = np.where(np.isnan(scores[b]), high, scores[b])
    return float((np.sign(x - y) * weights).sum())


@pytest.mark.parametrize("seed", range(3))
def test_the_bounds_decide_at_any_size_with_checkable_evidence(seed):
    rng = np.random.default_rng(seed)
    n = 60
    scores = np.round(rng.normal(size=(n, 8)) + np.linspace(6, 0, n)[:, None], 1)
    scores[rng.random(scores.shape) < 0.01] = np.nan
    weights = np.ones(8)
    res = cs.missing.possible_winners(board(scores, weights), "kemeny")
    flags = zip(res.possible, res.possible_strict, res.necessary, res.necessary_strict)
    assert all(("undecided" in d) == (None in f) for f, d in zip(flags, res.decided_by))
    at = {f"s{i}": i for i in range(n)}
    for s, rivals in res.beaten_by.items():  # every rival in its way beats it in every completion
        assert all(worst_margin(scores, weights, at[r], at[s]) > 0 for r in rivals), s
    for s, how in zip(res.systems, res.decided_by):  # even at its best, moving it last would lower the cost
        if how.startswith("negative net margin"):
            assert sum(-worst_margin(scores, weights, k, at[s]) for k in range(n) if k != at[s]) < 0, s
    for s, cells in res.witnesses.items():  # its witness makes it a weak Condorcet winner
        filled = scores.copy()
        for key, value in cells.items():
            who, task = key.split("|")
            filled[at[who], int(task[1:])] = value
        i = at[s]
        assert all((np.sign(filled[i] - filled[k]) * weights).sum() >= 0 for k in range(n) if k != i), s
    assert res.possible.count(False) > 0 and res.possible_winners


def test_a_complete_board_gives_the_kemeny_co_winners():
    scores = np.array([[3.0, 1.0, 2.0], [2.0, 3.0, 1.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])  # a cycle and a loser
    res = cs.missing.possible_winners(board(scores, np.ones(3)), "kemeny")
    firsts, _ = co_winners(scores, np.ones(3))
    assert set(res.possible_winners) == {f"s{i}" for i in firsts} == set(res.necessary_winners)


def test_dominant_sets_and_the_dynamic_program():
    beats = np.zeros((4, 4), dtype=bool)
    beats[0, 2] = beats[0, 3] = beats[1, 2] = beats[1, 3] = beats[2, 3] = True  # {0, 1} dominates
    assert _smallest_dominant(beats).tolist() == [True, True, False, False]
    rng = np.random.default_rng(0)
    for _ in range(20):
        w = rng.integers(0, 4, (5, 5)).astype(float)
        pref = w + w.T
        pref = np.triu(rng.integers(0, 5, (5, 5)), 1).astype(float)
        pref = pref + (5 - pref.T) * np.triu(np.ones((5, 5)), 1).T
        np.fill_diagonal(pref, 0)
        firsts, optimum = kemeny_co_winners(pref, 1e-9)
        costs = {p: sum(pref[p[b], p[a]] for a in range(5) for b in range(a + 1, 5)) for p in itertools.permutations(range(5))}
        best = min(costs.values())
        assert optimum == pytest.approx(best)
        assert set(np.flatnonzero(firsts)) == {p[0] for p, c in costs.items() if c <= best + 1e-9}


def test_the_command_line_asks_kemeny_too(tmp_path, capsys):
    from consensus.cli import main

    path = tmp_path / "holes.csv"
    path.write_text("model,qa,nli,mt\na,0.9,0.6,\nb,0.8,,0.2\nc,0.7,0.5,0.9\nd,0.6,0.9,0.3\n")
    code = main(["possible", str(path), "--rule", "kemeny", "--format", "json"])
    out = capsys.readouterr().out
    import json

    got = json.loads(out)["result"]
    expected = cs.missing.possible_winners(cs.read_leaderboard(path), "kemeny")
    assert code == 0 and got["rule"] == "kemeny"
    assert got["possible"] == list(expected.possible) and got["necessary"] == list(expected.necessary)
    assert got["decided_by"] == list(expected.decided_by) and set(got["witnesses"]) == set(expected.witnesses)
