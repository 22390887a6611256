"""Possible and necessary winners under missing scores, against brute force over every completion."""

from __future__ import annotations

import itertools
import json
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import consensus as cs
from consensus.errors import DegenerateTaskWarning, InvalidOptionError, UnknownTaskError
from consensus.missing import possible_winners

from .strategies import examples, score_tables


def _holes(lb: cs.Leaderboard) -> list[tuple[int, int]]:
    return [(i, k) for i in range(lb.n_systems) for k in range(lb.n_tasks) if np.isnan(lb.values[i, k])]


def _raw(lb: cs.Leaderboard) -> np.ndarray:
    return lb.scores.to_numpy(dtype=float, copy=True)  # each task's own units (lb.values is oriented)


def _board(lb: cs.Leaderboard, values: np.ndarray) -> cs.Leaderboard:
    frame = pd.DataFrame(values, index=list(lb.systems), columns=list(lb.tasks))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return cs.Leaderboard.from_frame(frame, weights=dict(lb.weights), lower_is_better=list(lb.lower_is_better),
                                         infer=False)


def _holed_board(n: int, n_tasks: int, seed: int = 0) -> cs.Leaderboard:
    """Latent quality plus task noise, 30% of the cells missing (the benchmark's shape)."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(size=n)[:, None] + rng.normal(size=(n, n_tasks)), 2)
    values[rng.random(values.shape) < 0.3] = np.nan
    frame = pd.DataFrame(values, index=[f"s{i}" for i in range(n)], columns=[f"t{k}" for k in range(n_tasks)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, infer=False)


def _mean_winners(lb: cs.Leaderboard, values: np.ndarray, rule: str = "mean", **options) -> tuple[str, ...]:
    return cs.rank(_board(lb, values), rule, min_coverage=0, **options).winners


def _normalization(lb: cs.Leaderboard) -> dict[str, dict[str, float]]:
    """normalized_mean options that clip: each task's baseline at its median score, its maximum past its best."""
    raw = _raw(lb)
    baseline, maximum = {}, {}
    for k, t in enumerate(lb.tasks):
        scored = raw[:, k][~np.isnan(raw[:, k])]
        baseline[t] = float(np.median(scored))
        maximum[t] = float(scored.min() - 1.0) if t in lb.lower_is_better else float(scored.max() + 1.0)
    return {"baseline": baseline, "maximum": maximum}


def _condorcet_winner(values: np.ndarray, weights: np.ndarray) -> int | None:
    """The weighted-majority Condorcet winner of complete `values` (higher is better), by its definition."""
    n = values.shape[0]
    for s in range(n):
        if all(weights @ (values[s] > values[r]) > weights @ (values[r] > values[s]) for r in range(n) if r != s):
            return s
    return None


def _truth(per_completion: list[tuple[str, ...]], systems: tuple[str, ...]) -> dict[str, tuple[bool, ...]]:
    return {
        "possible": tuple(any(s in w for w in per_completion) for s in systems),
        "possible_strict": tuple(any(w == (s,) for w in per_completion) for s in systems),
        "necessary": tuple(all(s in w for w in per_completion) for s in systems),
        "necessary_strict": tuple(all(w == (s,) for w in per_completion) for s in systems),
    }


def _pivotal_truth(lb, holes, choices, seen) -> dict[str, tuple[str, ...]]:
    """Per cell, the possible winners that stop being possible once the cell is fixed at some value
    (the completions grouped by the cell's value)."""
    possible = {s for w in seen for s in w}
    out = {}
    for h, (i, k) in enumerate(holes):
        lost = set()
        for value in {c[h] for c in choices}:
            kept = {s for c, w in zip(choices, seen) if c[h] == value for s in w}
            lost |= possible - kept
        if lost:
            out[f"{lb.systems[i]}|{lb.tasks[k]}"] = tuple(s for s in lb.systems if s in lost)
    return dict(sorted(out.items()))


def _check(res, truth) -> None:
    for name, expected in truth.items():
        assert getattr(res, name) == expected, name


@examples(1)  # the brute force over every completion owns this property (up to 2**4 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True), st.sampled_from(["mean", "normalized_mean"]))
def test_mean_matches_every_vertex_of_the_bounds(lb, rule):
    # normalized_mean with baselines at each task's median: clipped cells included
    holes = _holes(lb)
    assume(1 <= len(holes) <= 4)
    options = _normalization(lb) if rule == "normalized_mean" else {}
    res = possible_winners(lb, rule, rule_options=options)
    lo = np.nanmin(_raw(lb), axis=0)
    hi = np.nanmax(_raw(lb), axis=0)
    seen = []
    corners = list(itertools.product((0, 1), repeat=len(holes)))
    for corner in corners:  # the mean is monotone in each cell: vertices suffice
        values = _raw(lb)
        for (i, k), up in zip(holes, corner):
            values[i, k] = hi[k] if up else lo[k]
        seen.append(_mean_winners(lb, values, rule, **options))
    _check(res, _truth(seen, lb.systems))
    assert res.pivotal == _pivotal_truth(lb, holes, corners, seen)
    for system, cells in res.witnesses.items():  # each witness completion makes its system first
        values = _raw(lb)
        for key, value in cells.items():
            s, t = key.split("|")
            values[lb.systems.index(s), lb.tasks.index(t)] = value
        assert system in _mean_winners(lb, values, rule, **options)
    assert set(res.witnesses) == set(res.possible_winners)
    assert dict(res.rule_options) == options


@examples(1)  # the brute force over every position owns this property (up to 14**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True))
def test_condorcet_matches_every_position_of_the_missing_cells(lb):
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    res = possible_winners(lb, "condorcet")
    options = []
    for _, k in holes:  # every position on the task: each score (a tie) and two points in every gap
        scored = np.unique(lb.values[:, k][~np.isnan(lb.values[:, k])])
        edges = np.concatenate(([scored[0] - 2.0], scored, [scored[-1] + 2.0])) if scored.size else np.array([0.0, 1.0])
        gaps = [edges[j] + (edges[j + 1] - edges[j]) * f for j in range(len(edges) - 1) for f in (1 / 3, 2 / 3)]
        options.append(sorted(set(scored.tolist()) | set(gaps)))
    weights = lb.weight_array
    seen = []
    choices = list(itertools.product(*options))
    for choice in choices:
        values = lb.values.copy()
        for (i, k), v in zip(holes, choice):
            values[i, k] = v
        winner = _condorcet_winner(values, weights)
        seen.append(() if winner is None else (lb.systems[winner],))
    _check(res, _truth(seen, lb.systems))
    # a fixed cell leaves the other missing cells of its task free on both sides of it: with two
    # holes on one task the grid gets points just around the fixed value (at most 2 holes: cost)
    shared = {f"{lb.systems[i]}|{lb.tasks[k]}" for i, k in holes if sum(kk == k for _, kk in holes) > 1}
    truth = _pivotal_truth(lb, holes, choices, seen)
    if shared and len(holes) <= 2:
        possible = {s for w in seen for s in w}
        for h, (i, k) in enumerate(holes):
            if f"{lb.systems[i]}|{lb.tasks[k]}" not in shared:
                continue
            lost = set()
            for value in options[h]:
                others = [sorted(set(options[o]) | ({value - 1e-3, value, value + 1e-3} if holes[o][1] == k else set()))
                          if o != h else [value] for o in range(len(holes))]
                kept = set()
                for choice in itertools.product(*others):
                    values = lb.values.copy()
                    for (a, b), v in zip(holes, choice):
                        values[a, b] = v
                    winner = _condorcet_winner(values, weights)
                    if winner is not None:
                        kept.add(lb.systems[winner])
                lost |= possible - kept
            cell = f"{lb.systems[i]}|{lb.tasks[k]}"
            truth.pop(cell, None)
            if lost:
                truth[cell] = tuple(s for s in lb.systems if s in lost)
        truth = dict(sorted(truth.items()))
    elif shared:  # three holes sharing a task: only the other cells are checked
        truth = {c: v for c, v in truth.items() if c not in shared}
    assert {c: v for c, v in res.pivotal.items() if c in truth or c not in shared} == truth


def _positions(lb: cs.Leaderboard, holes: list[tuple[int, int]]) -> list[list[float]]:
    """Every position of each missing cell (oriented): each score (a tie) and three points in every gap,
    so that up to three missing cells of one task can take any weak order among themselves."""
    options = []
    for _, k in holes:
        scored = np.unique(lb.values[:, k][~np.isnan(lb.values[:, k])])
        edges = np.concatenate(([scored[0] - 2.0], scored, [scored[-1] + 2.0])) if scored.size else np.array([0.0, 1.0])
        gaps = [edges[j] + (edges[j + 1] - edges[j]) * f for j in range(len(edges) - 1) for f in (0.25, 0.5, 0.75)]
        options.append(sorted(set(scored.tolist()) | set(gaps)))
    return options


def _borda_scores(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Borda scores of complete oriented boards (..., systems, tasks): rivals beaten plus half the ties."""
    beats = (values[..., :, None, :] > values[..., None, :, :]).sum(axis=-2)
    ties = (values[..., :, None, :] == values[..., None, :, :]).sum(axis=-2) - 1
    return (beats + 0.5 * ties) @ weights


def _all_completions(lb: cs.Leaderboard, holes: list[tuple[int, int]]) -> np.ndarray:
    grid = np.array(list(itertools.product(*_positions(lb, holes))))
    boards = np.repeat(lb.values[None, :, :], len(grid), axis=0)
    for h, (i, k) in enumerate(holes):
        boards[:, i, k] = grid[:, h]
    return boards


def _positional_scores(values: np.ndarray, weights: np.ndarray, rule: str, ties: str, vector=None) -> np.ndarray:
    """Scores of complete oriented boards (..., systems, tasks) under a scoring vector: on each task a
    system with ``a`` systems strictly ahead and ``c`` tied (itself included) gets the mean, the first
    or the last of the points of positions a+1 .. a+c."""
    n = values.shape[-2]
    points = np.array({"plurality": [1.0] + [0.0] * (n - 1), "dowdall": [1.0 / (p + 1) for p in range(n)],
                       "borda": [n - 1.0 - p for p in range(n)], "eurovision": ([12.0, 10, 8, 7, 6, 5, 4, 3, 2, 1] + [0.0] * n)[:n],
                       "scoring": list(vector or []) + [0.0] * (n - len(vector or []))}[rule])
    ahead = (values[..., None, :, :] > values[..., :, None, :]).sum(axis=-2)
    tied = (values[..., None, :, :] == values[..., :, None, :]).sum(axis=-2)
    cum = np.concatenate(([0.0], np.cumsum(points)))
    got = {"min": points[ahead], "max": points[ahead + tied - 1], "average": (cum[ahead + tied] - cum[ahead]) / tied}[ties]
    return got @ weights


POSITIONAL_CASES = [("plurality", {}), ("plurality", {"ties": "min"}), ("plurality", {"ties": "max"}),
                    ("dowdall", {}), ("dowdall", {"ties": "max"}), ("borda", {"ties": "min"}), ("borda", {"ties": "max"}),
                    ("eurovision", {}), ("scoring", {"vector": (2.0, 1.0)}), ("scoring", {"vector": (3.0, 1.0), "ties": "min"})]


@examples(1)  # the brute force over every position with ties owns this property (up to 23**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True))
def test_borda_matches_every_position_of_the_missing_cells(lb):
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    res = possible_winners(lb, "borda")
    scores = _borda_scores(_all_completions(lb, holes), lb.weight_array)
    _check_against_every_completion(lb, res, scores, 1e-9 * max(1.0, float(lb.weight_array.sum()) * lb.n_systems))


@given(score_tables(max_systems=7, max_tasks=4, missing=True, weighted=True))
def test_the_pair_bound_matrix_is_the_per_system_bounds(lb):
    """Every pair of a task at once equals the single-target closed form, system by system."""
    from consensus.missing._possible_borda import pair_bounds
    from solvers.completion_borda import borda_pair_bounds

    values, weights = np.array(lb.values, dtype=float), lb.weight_array
    expected = np.column_stack([borda_pair_bounds(values, weights, i) for i in range(lb.n_systems)])
    assert np.allclose(pair_bounds(values, weights), expected, rtol=1e-12, atol=1e-9)


@examples(1)  # the brute force over every completion owns this property
@given(score_tables(max_systems=5, max_tasks=3, missing=True, weighted=True), st.data())
def test_the_weighted_bound_is_the_least_over_every_completion(lb, data):
    """The closed form of sum_k lam_k (score(k) - score(target)) over completions: the least of every
    completion, attained by the completion it returns, and recounted exactly by the certificate check."""
    from consensus.missing._possible_borda import _scores, weighted_bound_exact
    from solvers.completion_borda import borda_weighted_bound

    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    n = lb.n_systems
    target = data.draw(st.integers(0, n - 1))
    lam = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=n, max_size=n)))
    lam[target] = 0.0
    assume(lam.sum() > 0)
    lam /= lam.sum()
    weights = lb.weight_array
    value, completion = borda_weighted_bound(lb.values, weights, target, lam)
    every = _borda_scores(_all_completions(lb, holes), weights)
    sums = every @ lam - every[:, target]
    assert value == pytest.approx(sums.min(), abs=1e-9)
    got = _scores(completion, weights)
    assert not np.isnan(completion).any() and (got @ lam - got[target]) == pytest.approx(value, abs=1e-9)
    exact, rounded = weighted_bound_exact(lb.values, weights, target, lam)
    assert np.allclose(rounded, lam, atol=1e-6)  # the certificate's weighting: lam over 2**20
    assert float(exact) == pytest.approx(borda_weighted_bound(lb.values, weights, target, rounded)[0], abs=1e-9)


@examples(1)  # the brute force over every completion owns this property
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True))
def test_the_weighted_rivals_and_their_columns_decide_like_brute_force(lb):
    """Step 3 of the Borda search, alone on every system: a weighted bound proves impossible only what
    is, a combined completion is a real witness, and strictness matches every completion."""
    from consensus.missing._possible_borda import (
        _mixture,
        _scores,
        pair_bounds,
        tolerance,
    )

    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    values, weights = np.array(lb.values, dtype=float), lb.weight_array
    tol = tolerance(weights, lb.n_systems)
    every = _borda_scores(_all_completions(lb, holes), weights)
    first = every >= every.max(axis=1, keepdims=True) - tol
    alone = first & (first.sum(axis=1, keepdims=True) == 1)
    upper = pair_bounds(values, weights)
    for target in range(lb.n_systems):
        found = _mixture(values, weights, upper, target, tol, None)
        if found is None:
            continue
        assert found.possible == bool(first[:, target].any())
        if found.possible:
            assert found.possible_strict == bool(alone[:, target].any())
            got = _scores(found.witness, weights)
            assert (got[target] >= got - tol).all() and ((np.delete(got, target) < got[target] - tol).all()
                                                         == found.possible_strict)
        else:
            assert found.decided_by == "weighted bound" and found.beaten_by


@pytest.mark.parametrize("rows, weights", [
    ([[None, .5, 0], [2, None, .5], [1, None, 0], [2, None, 0], [0, 2, 2]], [1.0, 1.0, 1.0]),
    ([[1, None, 2], [1, 0, 1], [1, 0, 0], [0, 2, 1], [2, None, 1], [0, 0, 0]], [2.5, 2.5, 0.0]),
])
def test_a_tie_within_the_solvers_slack_is_a_tie(rows, weights):
    """Review: the margin program reported 1e-6 (its slack) for a tie, the completion showed 0, and the
    search gave up ("completion not representable in floats"); brute force: tied first, never alone."""
    frame = pd.DataFrame(rows, index=[f"s{i}" for i in range(len(rows))], columns=["t0", "t1", "t2"], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = cs.Leaderboard.from_frame(frame, weights=dict(zip(frame.columns, weights)), infer=False)
    res = possible_winners(lb, "borda")
    assert None not in res.possible
    scores = _borda_scores(_all_completions(lb, _holes(lb)), lb.weight_array)
    _check_against_every_completion(lb, res, scores, 1e-9 * max(1.0, float(lb.weight_array.sum()) * lb.n_systems))


def test_the_weighted_bound_and_combined_completions_decide_a_mid_size_board():
    """60 systems x 10 tasks, 30% missing: every system decided with no time limit (the integer
    program of step 4 stalled on some of these before), every witness re-run by the rule."""
    rng = np.random.default_rng(7)
    values = np.round(rng.normal(size=60)[:, None] + rng.normal(size=(60, 10)), 2)
    values[rng.random(values.shape) < 0.3] = np.nan
    values[np.arange(60), rng.integers(0, 10, size=60)] = rng.normal(size=60)
    frame = pd.DataFrame(values, index=[f"s{i:02d}" for i in range(60)], columns=[f"t{k}" for k in range(10)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = possible_winners(cs.Leaderboard.from_frame(frame, infer=False), "borda", pivotal=False)
    assert None not in res.possible
    assert {"combined completion", "weighted bound"} & set(res.decided_by)


def _check_against_every_completion(lb, res, scores: np.ndarray, tol: float, **options) -> None:
    """possible / necessary (strict and not) against the rule's scores in every completion (rows), each
    witness run through the rule itself, and every impossible system's rivals in the way named."""
    top = scores.max(axis=1, keepdims=True)
    first = scores >= top - tol
    alone = first & (first.sum(axis=1, keepdims=True) == 1)
    truth = {"possible": tuple(first.any(axis=0).tolist()), "possible_strict": tuple(alone.any(axis=0).tolist()),
             "necessary": tuple(first.all(axis=0).tolist()), "necessary_strict": tuple(alone.all(axis=0).tolist())}
    _check(res, truth)
    assert set(res.witnesses) == set(res.possible_winners)
    for system, cells in res.witnesses.items():
        values = _raw(lb)
        for key, value in cells.items():
            s, t = key.split("|")
            values[lb.systems.index(s), lb.tasks.index(t)] = value
        winners = cs.rank(_board(lb, values), res.rule, min_coverage=0, **options).winners
        assert system in winners and (winners == (system,)) == res.possible_strict[lb.systems.index(system)]
    for system, rivals in res.beaten_by.items():  # a rival named in the way is never behind it everywhere
        assert rivals and system not in rivals
    for system, decided in zip(res.systems, res.decided_by):  # a program's proof: its dual bound below zero
        impossible = not res.possible[res.systems.index(system)]
        if decided == "integer program" and impossible:
            margin, bound = res.program_bounds[system]
            assert bound is not None and bound < 0 and (margin is None or margin <= bound + 1e-6)
        else:
            assert system not in res.program_bounds


def _copeland_scores(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Copeland scores (wins minus losses by weighted majority) of complete oriented boards (..., systems, tasks)."""
    diff = np.sign(values[..., :, None, :] - values[..., None, :, :]) @ weights
    return np.sign(np.where(np.abs(diff) < 1e-9, 0.0, diff)).sum(axis=-1)


def _minimax_scores(values: np.ndarray, weights: np.ndarray, variant: str) -> np.ndarray:
    """Minus the worst defeat of each system of complete oriented boards (..., systems, tasks)."""
    wins = (values[..., :, None, :] > values[..., None, :, :]).astype(float) @ weights
    margins = wins - np.swapaxes(wins, -1, -2)
    against = {"margins": margins, "pairwise_opposition": wins,
               "winning_votes": np.where(margins > 1e-9, wins, 0.0)}[variant]
    n = values.shape[-2]
    against = np.where(np.eye(n, dtype=bool), -np.inf, against)
    return -against.max(axis=-2)


@examples(1)  # the brute force over every position with ties owns this property (up to 23**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True),
       st.sampled_from([("copeland", None), ("minimax", "winning_votes"), ("minimax", "margins"),
                        ("minimax", "pairwise_opposition")]))
def test_copeland_and_minimax_match_every_position_of_the_missing_cells(lb, rule_variant):
    rule, variant = rule_variant
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    options = {} if variant is None else {"variant": variant}
    res = possible_winners(lb, rule, rule_options=options)
    boards = _all_completions(lb, holes)
    scores = (_copeland_scores(boards, lb.weight_array) if rule == "copeland"
              else _minimax_scores(boards, lb.weight_array, variant))
    _check_against_every_completion(lb, res, scores, 1e-9, **options)



@examples(1)  # the brute force over every position with ties owns this property (up to 23**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True), st.booleans())
def test_copeland_rival_leads_are_the_least_over_every_completion(lb, relaxed):
    """Each rival's least Copeland lead over a system is the least over every completion (with
    `relaxed`, every system's cells are past EXACT_CELLS: a lower bound), and the cell-by-cell
    recount of the certificate agrees."""
    from unittest import mock

    from consensus.missing import _possible_majority as majority

    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    weights = lb.weight_array
    unit = majority.weight_unit(weights)
    assume(unit is not None)
    units = np.round(weights / unit)
    every = _copeland_scores(_all_completions(lb, holes), weights)
    values = np.array(lb.values, dtype=float)
    with mock.patch.object(majority, "EXACT_CELLS", -1 if relaxed else majority.EXACT_CELLS):
        for target in range(lb.n_systems):
            leads = majority.rival_leads(values, units, target)
            truth = (every - every[:, [target]]).min(axis=0)
            for k in range(lb.n_systems):
                if k == target:
                    assert np.isnan(leads[k])
                    continue
                assert leads[k] <= truth[k] if relaxed else leads[k] == truth[k]
                assert majority.lead_checked(values, units, target, k) == leads[k]



@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7), st.integers(1, 5), st.integers(0, 2**32 - 1),
       st.sampled_from([("copeland", "winning_votes"), ("minimax", "winning_votes"), ("minimax", "margins"),
                        ("minimax", "pairwise_opposition")]))
def test_a_moved_cell_rescored_by_the_majority_mover_matches_the_rule_recomputed(n, n_tasks, seed, rule_variant):
    """MajorityBoard.mover (one system's row of margins shifted) gives the scores of the whole
    moved board, for every value class (ties with each score, between, both ends) and weights."""
    from consensus.missing._possible_majority import MajorityBoard

    rng = np.random.default_rng(seed)
    complete = rng.integers(0, 4, size=(n, n_tasks)).astype(float)  # few levels: many ties
    weights = rng.integers(1, 4, size=n_tasks).astype(float)
    board = MajorityBoard.of(complete, weights, *rule_variant)
    moved = board.mover(complete)
    for x in range(n):
        for t in range(n_tasks):
            levels = np.unique(complete[:, t])
            values = np.concatenate([levels, levels + 0.5, [levels[0] - 1.0]])
            fast = moved(x, t, values)
            for j, v in enumerate(values):
                board_moved = complete.copy()
                board_moved[x, t] = v
                np.testing.assert_array_equal(fast[j], board.scores(board_moved))


@pytest.mark.parametrize("seed", range(3))
def test_copeland_rival_leads_are_exact_with_four_cells_of_one_system_free(seed):
    """Four missing cells of one system, all on tasks the target is scored on (3**4 choices in
    the exact path), against brute force over every position of the four."""
    from consensus.missing import _possible_majority as majority

    rng = np.random.default_rng(seed)
    values = rng.integers(0, 3, size=(4, 5)).astype(float)
    values[2, 1:] = np.nan
    frame = pd.DataFrame(values, index=[f"s{i}" for i in range(4)], columns=[f"t{k}" for k in range(5)])
    weights = np.array([1.0, 2.0, 1.0, 1.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = cs.Leaderboard.from_frame(frame, weights=dict(zip(frame.columns, weights)), infer=False)
    every = _copeland_scores(_all_completions(lb, _holes(lb)), weights)
    for target in (0, 1, 3):
        leads = majority.rival_leads(np.array(lb.values, dtype=float), weights, target)
        truth = (every - every[:, [target]]).min(axis=0)
        assert np.array_equal(np.delete(leads, target), np.delete(truth, target))

@examples(1)  # the brute force over every position with ties owns this property
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True))
def test_copeland_rival_bound_and_annealing_decide_like_brute_force(lb):
    """The Copeland steps after the greedy completion, alone on every system: a rival bound proves
    impossible only what is, an annealed completion is a real witness, strictness matches."""
    from consensus.missing._possible_majority import MajorityBoard, _copeland_steps, _greedy

    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    values, weights = np.array(lb.values, dtype=float), lb.weight_array
    board = MajorityBoard.of(values, weights, "copeland")
    assume(board.unit is not None)
    every = _copeland_scores(_all_completions(lb, holes), weights)
    first = every >= every.max(axis=1, keepdims=True)
    alone = first & (first.sum(axis=1, keepdims=True) == 1)
    for target in range(lb.n_systems):
        found, best = _copeland_steps(board, target, _greedy(values, target))
        assert _copeland_steps(board, target, _greedy(values, target), search=False)[0] is None  # budget spent
        assert not np.isnan(best).any() and np.array_equal(best[~np.isnan(values)], values[~np.isnan(values)])
        if found is None:
            continue
        assert found.possible == bool(first[:, target].any())
        if found.possible:
            assert found.possible_strict == bool(alone[:, target].any())
            got = board.scores(found.witness)
            assert (got[target] >= got).all() and (np.delete(got, target) < got[target]).all() == found.possible_strict
        else:
            assert found.decided_by == "rival bound" and found.beaten_by
            assert all((every[:, k] > every[:, target]).all() for k in found.beaten_by)



def test_a_copeland_program_margin_of_one_win_is_strict():
    """Regression: the search's tie slack (1000 times the tolerance, for float scores) read
    Copeland's margin of one whole win (tolerance 0.5) as a tie, so b below was reported never
    first alone; brute force finds it first alone when d's qa and c's nli tie a's. The steps
    before the programs are switched off so that the programs decide."""
    from unittest import mock

    from consensus.missing import _possible_majority as majority

    values = np.array([[0.9, 0.6, 0.5], [0.7, 0.8, 0.6], [0.8, np.nan, 0.7], [np.nan, 0.7, 0.4]])
    completed = values.copy()
    completed[3, 0], completed[2, 1] = 0.9, 0.6
    scores = _copeland_scores(completed, np.ones(3))
    assert scores[1] > np.delete(scores, 1).max()  # b first alone in this completion
    board = majority.MajorityBoard.of(values, np.ones(3), "copeland")
    with mock.patch.object(majority, "_copeland_steps", lambda board, target, greedy, **kwargs: (None, greedy)):
        found = majority.majority_search(board, 1, None)
    assert found.decided_by == "integer program" and found.possible and found.possible_strict
    scored = board.scores(found.witness)
    assert scored[1] > np.delete(scored, 1).max()



@pytest.mark.parametrize("program", ["borda", "copeland"])
def test_a_program_stopped_by_its_limit_without_a_point_reports_time_limit(program):
    """A completion program whose solve hits its time limit before any point (as between rounds
    of cuts, when the time left is tiny) says time_limit, not not_solved."""
    from unittest import mock

    from solvers.completion_borda import best_borda_completion
    from solvers.completion_majority import best_copeland_completion
    from solvers.model import LinearModel
    from solvers.status import ModelSolution, SolveStatus

    values = np.array([[1.0, np.nan, 0.0], [0.0, 1.0, 1.0], [np.nan, 0.0, 2.0]])
    stopped = ModelSolution(SolveStatus.NOT_SOLVED, None, None, None, None, 1.0, "time limit reached", limit_reached=True)
    with mock.patch.object(LinearModel, "solve", return_value=stopped):
        if program == "borda":
            out = best_borda_completion(values, np.ones(3), 0, np.ones(3, dtype=bool), time_limit=1.0)
        else:
            out = best_copeland_completion(values, np.ones(3), 0, np.ones(3, dtype=bool), 1.0, time_limit=1.0)
    assert out.status is SolveStatus.TIME_LIMIT and out.values is None


@pytest.mark.parametrize("program", ["borda", "copeland"])
def test_a_program_whose_time_runs_out_while_it_is_built_stops_there(program):
    """The build checks the deadline between tasks: a program over the whole 100 x 20 board (its
    build alone takes seconds) given 0.2 s stops unbuilt, never solved, within a task's share."""
    from unittest import mock

    from solvers.completion_borda import best_borda_completion
    from solvers.completion_majority import best_copeland_completion
    from solvers.model import LinearModel
    from solvers.status import SolveStatus

    rng = np.random.default_rng(0)
    values = np.round(rng.normal(size=(100, 1)) + rng.normal(size=(100, 20)), 2)
    values[rng.random(values.shape) < 0.3] = np.nan
    everyone = np.ones(100, dtype=bool)
    with mock.patch.object(LinearModel, "solve", side_effect=AssertionError("solved an unfinished model")):
        begin = time.perf_counter()
        if program == "borda":
            out = best_borda_completion(values, np.ones(20), 50, everyone, time_limit=0.2)
        else:
            out = best_copeland_completion(values, np.ones(20), 50, everyone, 1.0, time_limit=0.2)
        spent = time.perf_counter() - begin
    assert out.status is SolveStatus.TIME_LIMIT and out.values is None and out.solves == 0
    assert spent < 1.5  # unbounded, the build takes 3 s or more


def test_complete_board_gives_the_rules_winners_and_necessary_is_possible():
    toy = cs.load_example("votenrank-toy")
    for rule in ("mean", "normalized_mean", "condorcet", "borda", "copeland", "minimax"):
        res = possible_winners(toy, rule)
        winners = cs.rank(toy, rule).winners
        assert res.possible_winners == res.necessary_winners == winners and res.n_missing_cells == 0
        assert res.settled == (len(winners) == 1)


def test_wider_bounds_never_shrink_the_possible_winners():
    frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.6, None, 0.5], "mt": [0.2, 0.9, None]},
                         index=["a", "b", "c"])
    lb = cs.Leaderboard.from_frame(frame)
    narrow = possible_winners(lb)
    wide = possible_winners(lb, bounds={"nli": (0.0, 1.0), "mt": (0.0, 1.0)})
    assert set(narrow.possible_winners) <= set(wide.possible_winners)
    assert set(wide.necessary_winners) <= set(narrow.necessary_winners)
    median = cs.rank(lb, "mean", missing="median", min_coverage=0).winners  # a real completion
    assert set(median) <= set(narrow.possible_winners)


def test_lower_is_better_tasks_fill_in_the_right_direction():
    frame = pd.DataFrame({"acc": [0.9, 0.8], "latency": [10.0, None]}, index=["a", "b"])
    lb = cs.Leaderboard.from_frame(frame, lower_is_better=["latency"])
    res = possible_winners(lb, bounds={"latency": (1.0, 100.0)})
    assert dict(res.witnesses["b"]) == {"b|latency": 1.0}  # b first only with the fastest latency
    assert res.possible_winners == ("a", "b") and res.necessary_winners == ()


def test_bad_options_are_named():
    toy = cs.load_example("votenrank-toy")
    with pytest.raises(InvalidOptionError, match="rule must be one of 'mean', 'normalized_mean', 'condorcet', 'borda'"):
        possible_winners(toy, "schulze")
    with pytest.raises(UnknownTaskError):
        possible_winners(toy, bounds={"nope": (0, 1)})
    with pytest.raises(InvalidOptionError, match="low <= high"):
        possible_winners(toy, bounds={"t1": (2, 1)})
    with pytest.raises(InvalidOptionError, match="bounds apply to score rules"):
        possible_winners(toy, "condorcet", bounds={"t1": (0, 1)})
    with pytest.raises(InvalidOptionError, match="'ties' do not apply to rule 'copeland'"):
        possible_winners(toy, "copeland", rule_options={"ties": "min"})
    with pytest.raises(InvalidOptionError, match="'vector' do not apply to rule 'dowdall'"):
        possible_winners(toy, "dowdall", rule_options={"vector": (3, 1)})
    with pytest.raises(InvalidOptionError, match="ties='best' is not one of 'average', 'min', 'max'"):
        possible_winners(toy, "plurality", rule_options={"ties": "best"})
    with pytest.raises(InvalidOptionError, match="rule 'scoring' needs vector="):
        possible_winners(toy, "scoring")
    with pytest.raises(InvalidOptionError, match="'ties' do not apply to rule 'copeland'"):
        cs.missing.rank_ranges(toy, "copeland", rule_options={"ties": "min"})
    with pytest.raises(InvalidOptionError, match="baseline"):  # the rule's own check names the option
        possible_winners(toy, "normalized_mean", rule_options={"baseline": {"t1": "x"}})
    assert "Who can still win (mean)" in cs.render(possible_winners(toy))


def test_the_possible_command(tmp_path, capsys):
    from consensus.cli import main

    path = tmp_path / "holes.csv"
    path.write_text("model,qa,nli\na,0.9,0.6\nb,0.8,\nc,0.7,0.5\n", encoding="utf-8")
    assert main(["possible", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["command"] == "possible" and doc["result"]["possible_winners"] == ["a"]
    assert main(["possible", str(path), "--bounds", "nli=0:1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["possible_winners"] == ["a", "b"]
    assert main(["possible", str(path), "--rule", "condorcet"]) == 0
    assert "Who can still win (condorcet)" in capsys.readouterr().out
    assert main(["possible", str(path), "--rule", "copeland", "--format", "json"]) == 0
    # b above a on nli ties them 1-1 (both beat c): b can tie a for first, never pass it
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["rule"] == "copeland" and doc["possible_winners"] == ["a", "b"] and doc["necessary_winners"] == ["a"]
    assert doc["possible_strict"] == [True, False, False] and doc["necessary_strict"] == [False, False, False]
    # normalized_mean, baselines at 0.75 on qa: a 0.6, c clipped to 0; b's nli in [0.5, 0.6] can't make up
    assert main(["possible", str(path), "--rule", "normalized_mean", "--option", 'baseline={"qa": 0.75}',
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["possible_winners"] == ["a"] and doc["rule_options"] == {"baseline": {"qa": 0.75}}
    assert main(["possible", str(path), "--rule", "normalized_mean", "--option", "ties=min"]) == 2
    assert "'ties' do not apply to rule 'normalized_mean'" in capsys.readouterr().err
    # plurality: a wins qa; nli's point goes to a unless b is placed above it (then a and b tie, 1 point each)
    assert main(["possible", str(path), "--rule", "plurality", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["possible_winners"] == ["a", "b"] and doc["necessary_winners"] == ["a"] and doc["pivotal"] == {"b|nli": ["b"]}
    # ties=max (the worst shared position): b tied with a on nli leaves both 0 there; b above a still ties a
    assert main(["possible", str(path), "--rule", "scoring", "--option", "vector=[1]", "--option", "ties=max",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["possible_winners"] == ["a", "b"] and doc["rule_options"] == {"vector": [1], "ties": "max"}
    assert main(["possible", str(path), "--rule", "scoring"]) == 2
    assert "needs vector=" in capsys.readouterr().err
    assert main(["possible", str(path), "--rule", "plurality", "--option", "ties=min"]) == 0
    assert "Who can still win (plurality, ties=min)" in capsys.readouterr().out  # the options in the title
    for bad in (["--bounds", "nli"], ["--bounds", "nli=0:1", "--bounds", "nli=0:2"], ["--plot", str(tmp_path / "p.png")]):
        assert main(["possible", str(path), *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error:" in err, err
    assert not (tmp_path / "p.png").exists()


def test_the_searched_pivotal_cells_can_be_skipped(tmp_path, capsys):
    from consensus.cli import main

    frame = pd.DataFrame({"a": [3, 2, 1, None], "b": [None, 3, 2, 1], "c": [1, None, 3, 2]}, index=list("wxyz"))
    lb = cs.Leaderboard.from_frame(frame, infer=False)
    full = possible_winners(lb, "borda")
    assert full.pivotal["z|a"] == ("z",) and full.pivotal_undecided == {}
    assert full.next_evaluations.startswith("3 cell(s) can still change who can win: w|b, x|c, z|a")
    bare = possible_winners(lb, "borda", pivotal=False)
    assert bare.pivotal is None and bare.pivotal_undecided is None and bare.programs <= full.programs
    assert bare.possible == full.possible and "were not computed" in bare.next_evaluations
    with pytest.raises(InvalidOptionError, match="pivotal must be True or False, got 'no'"):
        possible_winners(lb, "copeland", pivotal="no")
    path = tmp_path / "holes.csv"
    frame.to_csv(path, index_label="model")
    assert main(["possible", str(path), "--rule", "copeland", "--no-pivotal", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["pivotal"] is None
    for bad in (["--no-pivotal"], ["--rule", "kemeny", "--pivotal"], ["--rule", "borda", "--no-pivotal", "--ranges"]):
        assert main(["possible", str(path), *bad]) == 2  # the mean's cells are closed form, Kemeny's not computed
        assert "--pivotal and --no-pivotal apply to who can still win under borda" in capsys.readouterr().err
    # above 20 systems the command skips them unless asked, and says so; --pivotal searches them
    big = pd.DataFrame(np.arange(22 * 3, dtype=float).reshape(22, 3) % 7, index=[f"s{i}" for i in range(22)],
                       columns=list("abc"))
    big.iloc[0, 0] = np.nan
    big_path = tmp_path / "big.csv"
    big.to_csv(big_path, index_label="model")
    assert main(["possible", str(big_path), "--rule", "borda", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["result"]["pivotal"] is None and "not searched above 20 systems" in out.err
    assert main(["possible", str(big_path), "--rule", "borda", "--pivotal", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["result"]["pivotal"] is not None and "not searched" not in out.err


def _ranges_from(scores: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Per completion (rows) and system: 1 + the systems strictly ahead, and those ahead or tied."""
    diff = scores[:, None, :] - scores[:, :, None]  # [c, i, k] = score k - score i
    ahead = (diff > tol).sum(axis=2)
    tied_or_ahead = (diff >= -tol).sum(axis=2)
    return 1 + ahead, tied_or_ahead


@examples(1)  # brute force over every vertex of the bounds (the mean is monotone in each cell)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True), st.sampled_from(["mean", "normalized_mean"]))
def test_mean_rank_ranges_match_every_vertex(lb, rule):
    holes = _holes(lb)
    assume(1 <= len(holes) <= 4)
    options = _normalization(lb) if rule == "normalized_mean" else {}
    res = cs.missing.rank_ranges(lb, rule, rule_options=options)
    lo = np.nanmin(_raw(lb), axis=0)
    hi = np.nanmax(_raw(lb), axis=0)
    firsts, lasts = [], []
    for corner in itertools.product((0, 1), repeat=len(holes)):
        values = _raw(lb)
        for (i, k), up in zip(holes, corner):
            values[i, k] = hi[k] if up else lo[k]
        ranking = cs.rank(_board(lb, values), rule, min_coverage=0, **options).ranking
        seen = 0
        first, last = {}, {}
        for group in ranking:
            for s in group:
                first[s], last[s] = seen + 1, seen + len(group)
            seen += len(group)
        firsts.append([first[s] for s in lb.systems])
        lasts.append([last[s] for s in lb.systems])
    assert res.best == tuple(np.min(firsts, axis=0).tolist())
    assert res.worst == tuple(np.max(lasts, axis=0).tolist())
    assert all(b <= m <= w for b, m, w in zip(res.best, res.median_position, res.worst))  # the median fill is a completion


@examples(1)  # brute force over every position with ties (up to 23**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True),
       st.sampled_from([("borda", {}), ("copeland", {}), ("minimax", {"variant": "winning_votes"}),
                        ("minimax", {"variant": "margins"}), ("minimax", {"variant": "pairwise_opposition"}),
                        *POSITIONAL_CASES]))
def test_searched_rank_ranges_match_every_position(lb, case):
    rule, options = case
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    res = cs.missing.rank_ranges(lb, rule, rule_options=options)
    boards = _all_completions(lb, holes)
    if rule == "minimax":
        scores, tol = _minimax_scores(boards, lb.weight_array, options["variant"]), 1e-9
    elif options or rule not in ("borda", "copeland"):
        scores = _positional_scores(boards, lb.weight_array, rule, options.get("ties", "average"), options.get("vector"))
        tol = 1e-9 * max(1.0, float(lb.weight_array.sum()) * 12.0 * lb.n_systems)
    elif rule == "borda":
        scores = _borda_scores(boards, lb.weight_array)
        tol = 1e-9 * max(1.0, float(lb.weight_array.sum()) * lb.n_systems)
    else:
        scores, tol = _copeland_scores(boards, lb.weight_array), 0.5
    first, last = _ranges_from(scores, tol)
    assert all(res.exact)
    assert res.best == tuple(first.min(axis=0).tolist()) == res.best_bound
    assert res.worst == tuple(last.max(axis=0).tolist()) == res.worst_bound
    assert all(b <= m <= w for b, m, w in zip(res.best, res.median_position, res.worst))
    for system, ends in res.witnesses.items():  # each witness reaches its end, run through the rule
        i = lb.systems.index(system)
        for end, cells in ends.items():
            values = _raw(lb)
            for key, value in cells.items():
                s, t = key.split("|")
                values[lb.systems.index(s), lb.tasks.index(t)] = value
            ranking = cs.rank(_board(lb, values), rule, min_coverage=0, **options).ranking
            before = 0
            for group in ranking:
                if system in group:
                    position = before + 1 if end == "best" else before + len(group)
                    break
                before += len(group)
            assert position == (res.best[i] if end == "best" else res.worst[i]), (system, end)


def test_the_ranges_command_and_its_figure(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from consensus.cli import main

    path = tmp_path / "holes.csv"
    path.write_text("model,qa,nli\na,0.9,0.6\nb,0.8,\nc,0.7,0.5\n", encoding="utf-8")
    figure = tmp_path / "ranges.png"
    assert main(["possible", str(path), "--ranges", "--bounds", "nli=0:1", "--format", "json", "--plot", str(figure)]) == 0
    doc = json.loads(capsys.readouterr().out)
    result = doc["result"]
    assert doc["command"] == "ranges" and result["best"] == [1, 1, 2] and result["worst"] == [2, 3, 3]
    assert result["witnesses"]["b"] == {"best": {"b|nli": 1.0}, "worst": {"b|nli": 0.0}}
    assert figure.stat().st_size > 0
    assert main(["possible", str(path), "--ranges", "--rule", "borda"]) == 0
    assert "Rank ranges under the missing scores (borda)" in capsys.readouterr().out
    # minimax: b above a on nli leaves a and b unbeaten (1-1) and c beaten twice; b below a loses to a 0-2 and
    # ties c 1-1, so b and c share places 2-3
    assert main(["possible", str(path), "--ranges", "--rule", "minimax", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    assert result["best"] == [1, 1, 2] and result["worst"] == [2, 3, 3] and all(result["exact"])
    assert main(["possible", str(path), "--ranges", "--rule", "condorcet"]) == 2
    assert "rank_ranges: rule must be one of 'mean', 'normalized_mean', 'borda'" in capsys.readouterr().err


def test_the_ranges_figure_names_every_system_in_median_order():
    pytest.importorskip("matplotlib")
    from consensus.plot import plot_rank_ranges

    rng = np.random.default_rng(0)
    values = np.round(rng.normal(size=(100, 6)), 2)
    values[rng.random(values.shape) < 0.2] = np.nan
    values[:, 0] = np.where(np.isnan(values[:, 0]), 0.0, values[:, 0])  # every system keeps a score
    lb = cs.Leaderboard.from_frame(pd.DataFrame(values, index=[f"s{i:03d}" for i in range(100)],
                                                columns=[f"t{k}" for k in range(6)]), infer=False)
    res = cs.missing.rank_ranges(lb)
    fig = plot_rank_ranges(res)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    order = sorted(range(100), key=lambda i: (res.median_position[i], res.best[i], i))
    assert labels == [lb.systems[i] for i in order]
    width, height = fig.get_size_inches() * fig.dpi
    assert width <= 4000 and height <= 4000


def test_analyze_says_who_can_still_win_on_a_board_with_holes():
    frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7, 0.6], "nli": [0.6, None, 0.5, 0.9], "mt": [None, 0.2, 0.9, 0.3]},
                         index=["a", "b", "c", "d"])
    lb = cs.Leaderboard.from_frame(frame)
    analysis = cs.analyze(lb, prospective=False)
    assert list(analysis.possible) == ["mean", "condorcet", "borda", "copeland", "kemeny"]  # 4 systems: every rule
    for rule, res in analysis.possible.items():
        expected = possible_winners(lb, rule)
        assert res.possible_winners == expected.possible_winners and res.necessary_winners == expected.necessary_winners
        assert f"who can still win under {'the mean' if rule == 'mean' else rule}" in cs.render(analysis)
    expected = possible_winners(lb, "mean")
    assert analysis.to_dict()["possible"]["mean"]["pivotal"] == {k: list(v) for k, v in expected.pivotal.items()}
    text = cs.render(analysis)
    assert expected.next_evaluations in text
    assert max(map(len, text.splitlines())) <= 200
    assert cs.analyze(cs.load_example("votenrank-toy"), prospective=False).possible is None  # complete: nothing to say


def test_a_total_budget_leaves_the_rest_to_the_bounds_and_says_so():
    lb = _holed_board(30, 8)
    full = possible_winners(lb, "borda", time_limit=2, pivotal=False)
    start = time.perf_counter()
    quick = possible_winners(lb, "borda", time_limit=2, budget=1e-3)  # the pivotal cells too: their searches stop
    assert time.perf_counter() - start < 10
    if quick.pivotal_undecided:
        left = len(set(quick.pivotal_undecided) - set(quick.pivotal))
        assert f"{left} {'more ' if quick.pivotal else ''}cell(s) not decided within the time limit or budget" \
            in quick.next_evaluations
    for a, b, how in zip(full.possible, quick.possible, quick.decided_by):
        if b is not None:
            assert a == b  # whatever the budget still decides is right
        else:
            assert "undecided" in how or "budget" in how or "time" in how
    assert any("budget" in how for how in quick.decided_by) or None not in quick.possible
    with pytest.raises(InvalidOptionError, match="budget"):
        possible_winners(lb, "borda", budget=-1)


@pytest.mark.parametrize("rule", ["copeland", "minimax"])
def test_the_budget_bounds_the_pivotal_cells_of_the_majority_rules(rule):
    """The known witnesses are moved cell by cell in O(n) each (MajorityBoard.mover), not rescored
    board by board: on 40 x 10 under a 2 s budget the whole call took 33 s (Copeland) and 21 s
    (Minimax) before; what the budget leaves open is said (undecided), not guessed."""
    lb = _holed_board(40, 10)
    start = time.perf_counter()
    res = possible_winners(lb, rule, time_limit=1, budget=2)
    assert time.perf_counter() - start < 10
    assert res.pivotal is not None and res.pivotal_undecided  # searched, and the rest said to be open



@pytest.mark.parametrize("rule", ["borda", "copeland", "minimax", "plurality"])
def test_under_an_ample_budget_the_deferred_programs_give_the_same_answers(rule):
    """With a total budget the searches run every system's cheaper steps first and the integer
    programs after (deferred): with time to spare, the answers are those of the one-pass search,
    and no system is left "deferred"."""
    rng = np.random.default_rng(1)  # a board where each rule needs integer programs for some systems
    n = 10
    values = rng.integers(0, 5, size=(n, 4)).astype(float)
    values[rng.random(values.shape) < 0.3] = np.nan
    frame = pd.DataFrame(values, index=[f"s{i}" for i in range(n)], columns=[f"t{k}" for k in range(4)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lb = cs.Leaderboard.from_frame(frame, infer=False)
    one_pass = possible_winners(lb, rule, pivotal=False, time_limit=30)
    two_pass = possible_winners(lb, rule, budget=600, pivotal=False, time_limit=30)
    assert None not in one_pass.possible and "deferred" not in " ".join(two_pass.decided_by)
    if rule in ("copeland", "plurality"):
        assert "integer program" in two_pass.decided_by
    assert two_pass.possible == one_pass.possible and two_pass.possible_strict == one_pass.possible_strict
    assert two_pass.necessary == one_pass.necessary


def test_analyze_leaves_borda_and_copeland_out_above_100_systems_and_says_so():
    from consensus.missing._possible import POSSIBLE_SEARCH_SYSTEMS
    from consensus.report import render

    rng = np.random.default_rng(0)
    n = POSSIBLE_SEARCH_SYSTEMS + 1
    frame = pd.DataFrame(rng.normal(size=n)[:, None] + rng.normal(size=(n, 4)), index=[f"s{i}" for i in range(n)],
                         columns=[f"t{k}" for k in range(4)]).mask(rng.random((n, 4)) < 0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = cs.analyze(cs.Leaderboard.from_frame(frame, infer=False), min_coverage=0, time_limit=5)
    assert list(analysis.possible) == ["mean", "condorcet", "kemeny"]
    assert f"who can still win under borda and copeland: not computed above {POSSIBLE_SEARCH_SYSTEMS} systems" in render(analysis)

def test_the_budget_on_the_command_line(tmp_path, capsys):
    from consensus.cli import main

    path = tmp_path / "holes.csv"
    path.write_text("model,qa,nli,mt\na,0.9,0.6,\nb,0.8,,0.2\nc,0.7,0.5,0.9\nd,0.6,0.9,0.3\n")
    assert main(["possible", str(path), "--rule", "borda", "--budget", "5", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["possible", str(path), "--rule", "borda", "--budget", "5", "--ranges"]) == 2
    assert "--budget applies to who can still win" in capsys.readouterr().err


@examples(4)  # the brute force over every position with ties owns this property; ten rule cases share it
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True), st.sampled_from(POSITIONAL_CASES))
def test_positional_rules_match_every_position_of_the_missing_cells(lb, case):
    """Plurality, Dowdall, Eurovision, a scoring vector, Borda with min / max ties: possible and
    necessary winners (strict and not), witnesses and the program's proofs, against every completion."""
    rule, options = case
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    res = possible_winners(lb, rule, rule_options=options)
    w = lb.weight_array
    scores = _positional_scores(_all_completions(lb, holes), w, rule, options.get("ties", "average"), options.get("vector"))
    _check_against_every_completion(lb, res, scores, 1e-9 * max(1.0, float(w.sum()) * 12.0 * lb.n_systems), **options)


def test_a_strict_win_is_found_at_the_problem_scale():
    """Review: a margin capped near the solver's tolerances (8e-6) made HiGHS's presolve call a tie
    optimal, so a strict possible winner was reported tie-only. a wins alone with c|t1 = d|t1 = 0
    (each other system then shares or loses t1's top positions)."""
    frame = pd.DataFrame({"t0": [1, 1, 3, 2, 3], "t1": [3, 2, None, None, 0]}, index=list("abcde"))
    res = possible_winners(cs.Leaderboard.from_frame(frame, infer=False), "borda", rule_options={"ties": "max"})
    assert res.possible_strict[0] is True and res.decided_by[0] in ("greedy completion", "integer program")


def test_a_scoring_vector_must_stay_non_increasing_once_padded():
    """Review: (-1, -2, -5) on four systems is padded with a 0 for position 4, which earns more than
    position 3: refused, by the rule and by possible_winners alike."""
    frame = pd.DataFrame({"t0": [1, 2, 1, 3], "t1": [3, None, None, 0]}, index=list("abcd"))
    lb = cs.Leaderboard.from_frame(frame, infer=False)
    for call in (lambda: cs.rank(lb, "scoring", vector=(-1, -2, -5), missing="median", min_coverage=0),
                 lambda: possible_winners(lb, "scoring", rule_options={"vector": (-1, -2, -5)})):
        with pytest.raises(InvalidOptionError, match=r"position 4 gets 0\.0 > -5\.0 \(the positions past the vector earn 0\)"):
            call()
    assert possible_winners(lb, "scoring", rule_options={"vector": (-1, -2, -5, -6)}).possible_winners


def _class_of(column: np.ndarray, value: float) -> tuple[str, int]:
    """The position class of a value among a task's scores: tied with the j-th best, or in the j-th gap."""
    scored = np.unique(column[~np.isnan(column)])[::-1]
    tied = np.flatnonzero(scored == value)
    return ("tie", int(tied[0])) if tied.size else ("gap", int((scored > value).sum()))


@examples(1)  # brute force over every position with ties (up to 23**3 completions each)
@given(score_tables(max_systems=5, max_tasks=4, missing=True, weighted=True),
       st.sampled_from([("borda", None), ("copeland", None), ("minimax", "winning_votes"), ("minimax", "margins"),
                        ("minimax", "pairwise_opposition"), *POSITIONAL_CASES]))
def test_searched_pivotal_cells_match_every_position(lb, rule_variant):
    """A cell is pivotal iff, fixed in some position class (tied with a score, or in a gap, the
    task's other missing cells free around it), the completions left lose a possible winner."""
    rule, variant = rule_variant
    holes = _holes(lb)
    assume(1 <= len(holes) <= 3)
    options = variant if isinstance(variant, dict) else {} if variant is None else {"variant": variant}
    res = possible_winners(lb, rule, rule_options=options)
    boards = _all_completions(lb, holes)
    w = lb.weight_array
    if isinstance(variant, dict):
        scores = _positional_scores(boards, w, rule, options.get("ties", "average"), options.get("vector"))
        tol = 1e-9 * max(1.0, float(w.sum()) * 12.0 * lb.n_systems)
    elif rule == "borda":
        scores, tol = _borda_scores(boards, w), 1e-9 * max(1.0, float(w.sum()) * lb.n_systems)
    else:
        scores = _copeland_scores(boards, w) if rule == "copeland" else _minimax_scores(boards, w, variant)
        tol = 1e-9
    first = scores >= scores.max(axis=1, keepdims=True) - tol
    possible = first.any(axis=0)
    truth = {}
    for h, (i, k) in enumerate(holes):
        keys = [_class_of(lb.values[:, k], b[i, k]) for b in boards]
        lost = set()
        for key in set(keys):
            kept = first[[c == key for c in keys]].any(axis=0)
            lost |= set(np.flatnonzero(possible & ~kept).tolist())
        if lost:
            truth[f"{lb.systems[i]}|{lb.tasks[k]}"] = tuple(lb.systems[s] for s in sorted(lost))
    assert dict(res.pivotal) == truth
    assert not res.pivotal_undecided  # no time limit: every search decides


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_a_moved_cell_rescored_by_ranges_matches_borda_recomputed(n, n_tasks, seed):
    """The pivotal search's closed form for one moved cell (sorted ranges) against Borda recomputed
    on the whole moved board, with ties, every class of the cell and every winner asked."""
    from consensus.missing._pivotal_search import _BordaTask, classes

    rng = np.random.default_rng(seed)
    complete = rng.integers(0, 4, size=(n, n_tasks)).astype(float)
    weights = rng.integers(1, 4, size=n_tasks).astype(float)

    def borda(board):
        below = (board[None, :, :] < board[:, None, :]) + 0.5 * (board[None, :, :] == board[:, None, :])
        return ((below.sum(axis=1) - 0.5) * weights).sum(axis=1)

    scores = borda(complete)
    x, t = int(rng.integers(n)), int(rng.integers(n_tasks))
    column = complete[:, t].copy()
    column[x] = np.nan
    options = classes(column)
    task = _BordaTask(complete, scores, t, float(weights[t]))
    movers = rng.integers(n, size=len(options))  # many cells of the task at once, as the witness pass asks
    for winner in range(n):
        for xs in (np.full(len(options), x), movers):
            got = task.first(xs, options, winner, 1e-9)
            for j, (y, v) in enumerate(zip(xs.tolist(), options)):
                moved = complete.copy()
                moved[y, t] = v
                s = borda(moved)
                assert got[j] == (s[winner] >= s.max() - 1e-9), (winner, y, v)
