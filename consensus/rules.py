"""Voting rules over tasks: scoring, iterative, majority-relation rules and score baselines.

Each task is a voter ranking the systems; a rule aggregates those rankings (Rofin et al.
2023, sec. 2.2 and appendix A). Every function here takes a :class:`Leaderboard` (majority
rules and ``kemeny`` also a :class:`PairwiseMatrix`), its own options, and the options
shared by all rules (``missing``, ``weighting``, ``group_weights``, ``two_step``,
``tie_break``; see :func:`consensus.rank`), and returns a :class:`RuleResult`.

- Scoring rules: a system at position ``p`` on a task gets ``c[p]`` points times the
  task's weight; tied systems share the positions they occupy and get the average of
  their points (``ties="average"``), or the points of the best (``"min"``) or worst
  (``"max"``) shared position. :func:`plurality`, :func:`borda`, :func:`dowdall`,
  :func:`scoring`, and the point schemes of Pinter's "Apres toi": :func:`rank_complement`,
  :func:`top_ten`, :func:`eurovision`.
- Iterative rules: :func:`threshold`, :func:`baldwin`.
- Majority-relation rules, computed from the weighted :class:`PairwiseMatrix` (a tied task
  is neither a win nor a loss; with missing scores a pair is compared on the tasks both
  are scored on): :func:`condorcet`, :func:`copeland`, :func:`minimax`.
- Score baselines on the oriented scores: :func:`mean`, :func:`geometric_mean`,
  :func:`optimality_gap`.
- :func:`kemeny`: the exact consensus of :mod:`consensus.kemeny`, wrapped as a RuleResult.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, sections 2.2-2.4 and appendix A.
.. [2] Pinter, "Apres toi: scoring systems based on dataset votes", section 2.
.. [3] Himmi et al., "Towards more robust NLP system evaluation: handling missing scores
   in benchmarks", 2023 (Borda on the imputed pairwise matrix).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from .errors import InvalidOptionError, NonPositiveScoreError, UnknownTaskError
from .leaderboard import Leaderboard
from .pairwise import PairwiseMatrix
from .rank import SCORE_TOL, SHARED_OPTION_NAMES, CoreOutput, RuleSpec, SharedOptions, check_choice, pairwise_of, run_rule
from .results import RuleResult

__all__ = [
    "plurality",
    "borda",
    "dowdall",
    "scoring",
    "rank_complement",
    "top_ten",
    "eurovision",
    "threshold",
    "baldwin",
    "condorcet",
    "copeland",
    "minimax",
    "mean",
    "geometric_mean",
    "optimality_gap",
    "kemeny",
    "scoring_vector",
    "RULES",
    "RULE_NAMES",
]

Ties = Literal["average", "min", "max"]
CopelandVariant = Literal["wins_minus_losses", "wins_plus_half_ties"]
MinimaxVariant = Literal["winning_votes", "margins", "pairwise_opposition"]

_TIES = ("average", "min", "max")
_EUROVISION = (12.0, 10.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)


# ====================================================================== positional machinery
def scoring_vector(rule: str, n_systems: int, vector: Sequence[float] | None = None) -> np.ndarray:
    """Points for positions 1..n of the named scoring rule.

    Examples
    --------
    >>> scoring_vector("borda", 4).tolist()
    [3.0, 2.0, 1.0, 0.0]
    >>> scoring_vector("eurovision", 12).tolist()
    [12.0, 10.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, 0.0]
    >>> scoring_vector("top_ten", 3).tolist()
    [10.0, 9.0, 8.0]
    """
    n = int(n_systems)
    p = np.arange(n, dtype=np.float64)  # 0-based position
    if rule == "plurality":
        return (p == 0).astype(np.float64)
    if rule == "borda":
        return n - 1 - p
    if rule == "dowdall":
        return 1.0 / (p + 1.0)
    if rule == "rank_complement":
        return n - p
    if rule == "top_ten":
        return np.maximum(10.0 - p, 0.0)
    if rule == "eurovision":
        c = np.zeros(n)
        k = min(n, len(_EUROVISION))
        c[:k] = _EUROVISION[:k]
        return c
    if rule == "scoring":
        return _user_vector(vector, n)
    raise InvalidOptionError(f"no scoring vector for rule {rule!r}")


def _user_vector(vector: Sequence[float] | None, n: int) -> np.ndarray:
    if vector is None:
        raise InvalidOptionError("rule 'scoring' needs vector=(c1, c2, ...): points for positions 1, 2, ...")
    try:
        c = np.asarray(vector, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"rule 'scoring': vector must hold numbers, got {vector!r}") from None
    if c.ndim != 1 or len(c) == 0:
        raise InvalidOptionError(f"rule 'scoring': vector must be a non-empty sequence of numbers, got {vector!r}")
    if not np.all(np.isfinite(c)):
        raise InvalidOptionError(f"rule 'scoring': vector must be finite, got {vector!r}")
    if len(c) > n:
        raise InvalidOptionError(
            f"rule 'scoring': vector has {len(c)} entries but there are only {n} systems (positions)"
        )
    if np.any(np.diff(c) > 0):
        k = int(np.nonzero(np.diff(c) > 0)[0][0])
        raise InvalidOptionError(
            f"rule 'scoring': vector must be non-increasing (a better position never earns fewer points), "
            f"but position {k + 2} gets {c[k + 1]!r} > {c[k]!r}"
        )
    return np.concatenate([c, np.zeros(n - len(c))])


def _tie_ranges(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per task, the best and worst 1-based positions each system's tie group occupies."""
    neg = -values
    return rankdata(neg, method="min", axis=0).astype(np.int64), rankdata(neg, method="max", axis=0).astype(np.int64)


def _position_points(c: np.ndarray, values: np.ndarray, ties: str) -> np.ndarray:
    """Points (systems x tasks) of vector `c` for complete oriented scores `values`."""
    first, last = _tie_ranges(values)
    if ties == "min":
        return c[first - 1]
    if ties == "max":
        return c[last - 1]
    cum = np.concatenate([[0.0], np.cumsum(c)])
    shared = (cum[last] - cum[first - 1]) / (last - first + 1)
    return np.where(first == last, c[first - 1], shared)  # untied positions: exact points


def _complete_values(lb: Leaderboard) -> np.ndarray:
    values = lb.values
    if np.isnan(values).any():  # the pipeline refuses or drops missing scores before this
        raise InvalidOptionError("internal: a positional rule received missing scores")
    return values


def _positional_core(rule: str) -> Callable[[Any, Mapping[str, Any], bool], CoreOutput]:
    def core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
        ties = opts["ties"]
        if impute:  # only borda gets here (spec.impute): sigma_l of Himmi et al.
            if ties != "average":
                raise InvalidOptionError(
                    f"rule {rule!r}: missing='impute' needs ties='average': the imputed pairwise "
                    "matrix already splits every tied or unscored pair half and half"
                )
            p = pairwise_of(lb, True)
            return CoreOutput((p.wins + p.ties / 2.0).sum(axis=1), {"vector": "sum of the imputed pairwise matrix"})
        values = _complete_values(lb)
        c = scoring_vector(rule, lb.n_systems, opts.get("vector"))
        points = _position_points(c, values, ties)
        scores = points @ lb.weights.to_numpy()
        return CoreOutput(scores, {"vector": tuple(float(x) for x in c)})

    return core


def _check_ties(ties: Any, rule: str) -> str:
    return str(check_choice("ties", ties, _TIES, rule))


# ====================================================================== iterative rules
def _threshold_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    values = _complete_values(lb)
    n, m = values.shape
    w = lb.weights.to_numpy()
    ties = opts["ties"]
    first, last = _tie_ranges(values)
    rows = np.repeat(np.arange(n), m)
    wt = np.tile(w, n)
    density = np.zeros((n, n + 1))
    if ties == "average":  # a tie group spreads its weight evenly over its positions
        share = wt / (last - first + 1).ravel()
        np.add.at(density, (rows, first.ravel() - 1), share)
        np.add.at(density, (rows, last.ravel()), -share)
        density = np.cumsum(density, axis=1)
    else:
        np.add.at(density, (rows, (first if ties == "min" else last).ravel() - 1), wt)
    upto = np.cumsum(density[:, :n], axis=1)  # upto[i, L-1]: weight placing i in positions 1..L
    # Vector k (k = 1..n-1) has n-k ones: (1,...,1,0), (1,...,1,0,0), ..., (1,0,...,0).
    table = upto[:, n - 2 :: -1] if n >= 2 else np.zeros((n, 0))
    scale = max(float(w.sum()), 1.0)
    key = np.round(table / (scale * SCORE_TOL))  # equal within the tolerance -> equal keys
    order = np.lexsort((-key[:, ::-1]).T) if key.shape[1] else np.arange(n)
    systems = lb.systems
    groups: list[list[int]] = []
    used = 1
    for pos, i in enumerate(order.tolist()):
        if pos and np.array_equal(key[i], key[order[pos - 1]]):
            groups[-1].append(i)
            continue
        if pos:
            diff = np.nonzero(key[i] != key[order[pos - 1]])[0]
            used = max(used, int(diff[0]) + 1)
        groups.append([i])
    ranking = tuple(tuple(systems[i] for i in sorted(g)) for g in groups)
    used = min(used, table.shape[1])
    labels = [_vector_label(n, n - k) for k in range(1, used + 1)]
    frame = pd.DataFrame(table[:, :used], index=pd.Index(systems, dtype=object), columns=labels)
    return CoreOutput(table[:, 0], {"vector_scores": frame, "vectors_used": used}, ranking=ranking)


def _vector_label(n: int, ones: int) -> str:
    if n <= 10:
        return "(" + ", ".join(["1"] * ones + ["0"] * (n - ones)) + ")"
    return f"(1 x {ones}, 0 x {n - ones})"


def _baldwin_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    _complete_values(lb)
    p = pairwise_of(lb, False)
    ties = opts["ties"]
    pref = {"average": p.wins + p.ties / 2.0, "min": p.wins + p.ties, "max": p.wins}[ties]
    n = p.n_systems
    systems = lb.systems
    alive = np.ones(n, dtype=bool)
    score = pref.sum(axis=1)  # Borda among the survivors: sum of preferences over survivors
    tol = SCORE_TOL * max(1.0, float(lb.weights.sum()) * (n - 1))
    out_round = np.zeros(n)
    rounds: list[dict[str, Any]] = []
    r = 0
    while alive.sum() > 1:
        r += 1
        live = np.nonzero(alive)[0]
        s = score[live]
        scores_r = {systems[i]: float(v) + 0.0 for i, v in zip(live.tolist(), s.tolist())}
        lo = float(s.min())
        if float(s.max()) - lo <= tol:  # every survivor ties: they all win
            rounds.append({"round": r, "scores": scores_r, "eliminated": ()})
            r -= 1
            break
        out = live[s <= lo + tol]
        out_round[out] = r
        rounds.append({"round": r, "scores": scores_r, "eliminated": tuple(systems[i] for i in out)})
        alive[out] = False
        score = score - pref[:, out].sum(axis=1)
    out_round[alive] = r + 1
    order = tuple(systems[i] for i in np.nonzero(alive)[0])
    return CoreOutput(out_round, {"rounds": tuple(rounds), "survivors": order})


# ====================================================================== majority rules
def _beats(p: PairwiseMatrix) -> tuple[np.ndarray, np.ndarray]:
    margins = p.margins
    beats = margins > p.tol
    tied = np.abs(margins) <= p.tol
    np.fill_diagonal(tied, False)
    return beats, tied


def _condorcet_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    beats, tied = _beats(p)
    n = p.n_systems
    hits = np.nonzero(beats.sum(axis=1) == n - 1)[0]
    unbeaten = ~beats.any(axis=0)
    weak = tuple(s for s, ok in zip(p.systems, unbeaten.tolist()) if ok)
    scores = np.zeros(n)
    details: dict[str, Any] = {"weak_condorcet_winners": weak}
    if len(hits):
        scores[hits[0]] = 1.0
        winner = p.systems[int(hits[0])]
        details["condorcet_winner"] = winner
        return CoreOutput(scores, details, winners=(winner,))
    details["condorcet_winner"] = None
    return CoreOutput(scores, details, winners=())


def _copeland_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    beats, tied = _beats(p)
    wins = beats.sum(axis=1).astype(np.float64)
    losses = beats.sum(axis=0).astype(np.float64)
    draws = tied.sum(axis=1).astype(np.float64)
    scores = wins - losses if opts["variant"] == "wins_minus_losses" else wins + draws / 2.0
    idx = pd.Index(p.systems, dtype=object)
    frame = pd.DataFrame({"beats": wins, "beaten_by": losses, "majority_ties": draws}, index=idx)
    return CoreOutput(scores, {"counts": frame})


def _minimax_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    n = p.n_systems
    variant = opts["variant"]
    if variant == "winning_votes":  # weight of b's wins over m, only when b beats m
        beats, _ = _beats(p)
        against = np.where(beats, p.wins, 0.0)
    else:
        against = np.array(p.margins if variant == "margins" else p.wins, dtype=np.float64)
        np.fill_diagonal(against, -np.inf)
    worst = against.max(axis=0) if n > 1 else np.zeros(n)
    worst = np.where(np.isfinite(worst), worst, 0.0)
    scores = -worst
    return CoreOutput(scores, {"worst_defeat": pd.Series(worst + 0.0, index=pd.Index(p.systems, dtype=object))})


# ====================================================================== score baselines
def _mean_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    values = _complete_values(lb)
    w = lb.weights.to_numpy()
    return CoreOutput(values @ w / float(w.sum()))


def _geometric_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    _complete_values(lb)
    raw = lb.scores.to_numpy(dtype=np.float64)
    w = lb.weights.to_numpy()
    used = w > 0
    for j in np.nonzero(used)[0]:
        bad = np.nonzero(raw[:, j] <= 0)[0]
        if len(bad):
            raise NonPositiveScoreError(
                "geometric_mean", lb.tasks[j], [lb.systems[i] for i in bad], float(raw[bad[0], j])
            )
    sign = np.array([-1.0 if t in lb.lower_is_better else 1.0 for t in lb.tasks])
    logs = np.log(raw[:, used]) * sign[used]  # a lower-is-better task enters as 1/x
    return CoreOutput(np.exp(logs @ w[used] / float(w[used].sum())))


def _gap_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    values = _complete_values(lb)
    w = lb.weights.to_numpy()
    gamma = opts["gamma"]
    if gamma is None:
        target = values.max(axis=0)  # the best oriented score on each task
    else:
        raw = np.array([float(gamma[t]) if isinstance(gamma, Mapping) else float(gamma) for t in lb.tasks])
        target = np.where([t in lb.lower_is_better for t in lb.tasks], -raw, raw)
    gaps = np.minimum(values, target) - target
    lower = np.array([t in lb.lower_is_better for t in lb.tasks], dtype=bool)
    gamma_used = pd.Series(np.where(lower, -target, target) + 0.0, index=pd.Index(lb.tasks, dtype=object))
    return CoreOutput(gaps @ w / float(w.sum()), {"gamma": gamma_used})


def _check_gamma(gamma: Any) -> float | dict[str, float] | None:
    if gamma is None:
        return None
    if isinstance(gamma, Mapping):
        out = {}
        for t, g in gamma.items():
            out[str(t)] = _finite(g, f"gamma of task {t!r}")
        return out
    return _finite(gamma, "gamma")


def _finite(value: Any, what: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"rule 'optimality_gap': {what} must be a number, got {value!r}") from None
    if not np.isfinite(v):
        raise InvalidOptionError(f"rule 'optimality_gap': {what} must be finite, got {value!r}")
    return v


# ====================================================================== kemeny
def _kemeny_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    try:
        from .kemeny import kemeny as _kemeny
    except ImportError as exc:  # pragma: no cover - the module ships with the package
        raise InvalidOptionError(f"rule 'kemeny' needs consensus.kemeny, which cannot be imported: {exc}") from exc
    target = pairwise_of(data, True) if impute else data
    res = _kemeny(target, **opts)
    order = tuple(res.ranking)
    systems = data.systems if isinstance(data, (Leaderboard, PairwiseMatrix)) else tuple(order)
    below = {s: float(len(order) - 1 - k) for k, s in enumerate(order)}
    scores = np.array([below[s] for s in systems])
    return CoreOutput(scores, {"kemeny": res}, ranking=tuple((s,) for s in order))


# ====================================================================== specs
_MEAN_SPEC = RuleSpec("mean", "score", _mean_core)
_SPECS: dict[str, RuleSpec] = {
    name: RuleSpec(name, "positional", _positional_core(name), impute=(name == "borda"))
    for name in ("plurality", "borda", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision")
}
_SPECS.update(
    {
        "threshold": RuleSpec("threshold", "iterative", _threshold_core),
        "baldwin": RuleSpec("baldwin", "iterative", _baldwin_core),
        "condorcet": RuleSpec("condorcet", "majority", _condorcet_core, True, True, True),
        "copeland": RuleSpec("copeland", "majority", _copeland_core, True, True, True),
        "minimax": RuleSpec("minimax", "majority", _minimax_core, True, True, True),
        "mean": _MEAN_SPEC,
        "geometric_mean": RuleSpec("geometric_mean", "score", _geometric_core),
        "optimality_gap": RuleSpec("optimality_gap", "score", _gap_core, second_step=_MEAN_SPEC),
        "kemeny": RuleSpec("kemeny", "exact", _kemeny_core, True, True, True),
    }
)


def _positional(rule: str, data: Any, ties: Any, options: Mapping[str, Any], **extra: Any) -> RuleResult:
    return run_rule(_SPECS[rule], data, {"ties": _check_ties(ties, rule), **extra}, options)


# ====================================================================== public rules
def plurality(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Plurality: one point for first place on each task, c = (1, 0, ..., 0).

    Score: the (weighted) number of tasks a system wins; systems tied for first place share
    the point (``ties="average"``), each get it (``"min"``) or none get it (``"max"``).

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.1.

    Examples
    --------
    >>> import consensus as cs
    >>> plurality(cs.load_example("votenrank-toy")).scores.tolist()
    [2.0, 1.0, 1.0, 1.0]
    """
    return _positional("plurality", data, ties, options)


def borda(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Borda: c = (|M|-1, |M|-2, ..., 1, 0) points by position on each task.

    With ``ties="average"`` a system's Borda score equals the weight of the (system, task,
    rival) triples it beats plus half the ties, so ``missing="impute"`` scores
    ``sum_j wins[i, j] + ties[i, j] / 2`` of the imputed pairwise matrix (sigma_l of
    Himmi et al.), which is the same number when no score is missing.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.1 and appendix A.1.
    .. [2] Himmi et al. 2023, sec. 2.2 (Borda on the pairwise matrix).

    Examples
    --------
    >>> import consensus as cs
    >>> res = borda(cs.load_example("votenrank-toy"))
    >>> res.scores.to_dict(), res.winners
    ({'A': 6.0, 'B': 9.0, 'C': 8.0, 'D': 7.0}, ('B',))
    """
    return _positional("borda", data, ties, options)


def dowdall(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Dowdall: c = (1, 1/2, ..., 1/|M|).

    Examples
    --------
    >>> import consensus as cs
    >>> res = dowdall(cs.load_example("votenrank-toy"))
    >>> [round(x, 4) for x in res.scores], res.winners
    ([2.75, 2.75, 2.5, 2.4167], ('A', 'B'))
    """
    return _positional("dowdall", data, ties, options)


def scoring(
    data: Leaderboard, *, vector: Sequence[float] | None = None, ties: Ties = "average", **options: Unpack[SharedOptions]
) -> RuleResult:
    """A scoring rule with any non-increasing vector of points for positions 1, 2, ...

    A vector shorter than the number of systems is padded with zeros (``(1, 1, 1)`` is
    "approve the top three").

    Examples
    --------
    >>> import consensus as cs
    >>> scoring(cs.load_example("votenrank-toy"), vector=(1, 1)).scores.tolist()
    [2.0, 4.0, 2.0, 2.0]
    """
    if vector is not None and isinstance(vector, (Sequence, np.ndarray)) and not isinstance(vector, str):
        vector = tuple(vector)  # recorded in result.options; checked against the number of systems later
    return _positional("scoring", data, ties, options, vector=vector)


def rank_complement(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Rank complement (Pinter, "Apres toi"): |M| + 1 - rank points, c = (|M|, ..., 1).

    Borda plus one point per task, so it ranks exactly as Borda.

    Examples
    --------
    >>> import consensus as cs
    >>> rank_complement(cs.load_example("votenrank-toy")).scores.tolist()
    [11.0, 14.0, 13.0, 12.0]
    """
    return _positional("rank_complement", data, ties, options)


def top_ten(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Top ten (Pinter, "Apres toi"): 11 - rank points for the top ten, 0 below.

    c = (10, 9, ..., 1, 0, ...); with fewer than ten systems the vector is cut, not rescaled.

    Examples
    --------
    >>> import consensus as cs
    >>> top_ten(cs.load_example("votenrank-toy")).scores.tolist()
    [41.0, 44.0, 43.0, 42.0]
    """
    return _positional("top_ten", data, ties, options)


def eurovision(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Eurovision (Pinter, "Apres toi"): c = (12, 10, 8, 7, 6, 5, 4, 3, 2, 1, 0, ...).

    Examples
    --------
    >>> import consensus as cs
    >>> eurovision(cs.load_example("votenrank-toy")).scores.tolist()
    [45.0, 49.0, 46.0, 45.0]
    """
    return _positional("eurovision", data, ties, options)


def threshold(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Threshold: fewest (weighted) last places wins; ties broken by the last-k places.

    Vector k = 1, ..., |M|-1 gives one point for each of the first |M|-k positions:
    (1, ..., 1, 0), (1, ..., 1, 0, 0), ..., (1, 0, ..., 0). The paper applies vector k+1
    only to the systems tied at the top under vectors 1..k. This function ranks *all*
    systems by the same lexicographic comparison: by their score vector under
    (1, ..., 1, 0), then (1, ..., 1, 0, 0), ...; so the winners are the paper's, and the
    rest of the ranking follows the same principle. Systems equal under every vector stay
    tied.

    ``scores`` is the score under the first vector (1, ..., 1, 0): the weight of the tasks
    where the system is not last. ``details["vector_scores"]`` holds the scores under the
    vectors the ranking needed (``details["vectors_used"]`` of them).

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.2 and appendix A.1.
    .. [2] Aleskerov, Chistyakov and Kalyagin, "The threshold aggregation", Economics
       Letters 107(2), 2010.

    Examples
    --------
    >>> import consensus as cs
    >>> res = threshold(cs.load_example("votenrank-toy"))
    >>> res.scores.tolist(), res.winners
    ([2.0, 4.0, 5.0, 4.0], ('C',))
    >>> res.ranking
    (('C',), ('B',), ('D',), ('A',))
    """
    return _positional("threshold", data, ties, options)


def baldwin(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Baldwin: repeatedly eliminate the lowest Borda score, recomputed among the survivors.

    Every round computes Borda scores with the vector (k-1, ..., 1, 0) over the k surviving
    systems and eliminates the system(s) with the lowest score; systems tied at the lowest
    score are eliminated together. The procedure stops when one system is left or all
    survivors tie (they are all winners). The ranking is the reverse elimination order:
    systems eliminated in the same round are tied.

    ``scores`` is the elimination round (1 = eliminated first); the survivors get one more
    than the last elimination round. ``details["rounds"]`` records each round's Borda
    scores and eliminated systems (Table 7 of the paper). Missing scores need a
    ``missing="drop_*"`` policy: Borda among survivors needs each task's full ranking.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.2 and appendix A.1, Table 7.

    Examples
    --------
    >>> import consensus as cs
    >>> res = baldwin(cs.load_example("votenrank-toy"))
    >>> res.winners, [r["eliminated"] for r in res.details["rounds"]]
    (('B',), [('A',), ('D',), ('C',)])
    >>> dict(res.details["rounds"][1]["scores"])
    {'B': 6.0, 'C': 5.0, 'D': 4.0}
    """
    return _positional("baldwin", data, ties, options)


def condorcet(data: Leaderboard | PairwiseMatrix, *, tie_tol: float = 0.0, **options: Unpack[SharedOptions]) -> RuleResult:
    """Condorcet: the system that beats every other by weighted majority, if any.

    ``scores`` is 1 for the Condorcet winner and 0 otherwise, so the ranking is the winner
    then everyone else tied; without a Condorcet winner every system is tied and
    ``winners`` is empty (the rule declares no winner). ``details`` lists the weak
    Condorcet winners (beaten by nobody).

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3.

    Examples
    --------
    >>> import consensus as cs
    >>> condorcet(cs.load_example("votenrank-toy")).winners
    ('B',)
    """
    return run_rule(_SPECS["condorcet"], data, {"tie_tol": _check_tol(tie_tol)}, options)


def copeland(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: CopelandVariant = "wins_minus_losses",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Copeland: u(m) = |systems m beats| - |systems that beat m| by weighted majority.

    ``variant="wins_plus_half_ties"`` scores |beaten| + |majority ties| / 2 instead.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3 and appendix A.1.

    Examples
    --------
    >>> import consensus as cs
    >>> copeland(cs.load_example("votenrank-toy")).scores.tolist()
    [-3.0, 3.0, 1.0, -1.0]
    """
    variant = check_choice("variant", variant, ("wins_minus_losses", "wins_plus_half_ties"), "copeland")
    return run_rule(_SPECS["copeland"], data, {"variant": variant, "tie_tol": _check_tol(tie_tol)}, options)


def minimax(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: MinimaxVariant = "winning_votes",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Minimax: the system whose worst pairwise defeat is smallest.

    - ``"winning_votes"`` (default, the paper's formula): score(m) = -max over systems b
      that beat m by majority of the weight of tasks where b beats m; 0 if nobody beats m.
    - ``"margins"``: -max over b != m of (wins[b, m] - wins[m, b]); positive for a
      system that beats everyone (its narrowest win).
    - ``"pairwise_opposition"``: -max over b != m of wins[b, m], beaten or not.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3 and appendix A.1.

    Examples
    --------
    >>> import consensus as cs
    >>> minimax(cs.load_example("votenrank-toy")).scores.tolist()
    [-3.0, 0.0, -3.0, -3.0]
    """
    variant = check_choice("variant", variant, ("winning_votes", "margins", "pairwise_opposition"), "minimax")
    return run_rule(_SPECS["minimax"], data, {"variant": variant, "tie_tol": _check_tol(tie_tol)}, options)


def _check_tol(tie_tol: Any) -> float:
    try:
        v = float(tie_tol)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"tie_tol must be a number, got {tie_tol!r}") from None
    if not np.isfinite(v) or v < 0:
        raise InvalidOptionError(f"tie_tol must be finite and >= 0, got {tie_tol!r}")
    return v


def mean(data: Leaderboard, **options: Unpack[SharedOptions]) -> RuleResult:
    """Weighted arithmetic mean of the oriented scores (a lower-is-better task enters negated).

    Examples
    --------
    >>> import consensus as cs
    >>> mean(cs.load_example("colombo-table1")).ranking
    (('A',), ('B',), ('C',))
    """
    return run_rule(_SPECS["mean"], data, {}, options)


def geometric_mean(data: Leaderboard, **options: Unpack[SharedOptions]) -> RuleResult:
    """Weighted geometric mean of the scores; a lower-is-better task enters as 1/score.

    Every score of a task with positive weight must be > 0 (else
    :class:`NonPositiveScoreError`).

    Examples
    --------
    >>> import consensus as cs
    >>> round(float(geometric_mean(cs.load_example("votenrank-toy")).scores["B"]), 4)
    2.5508
    """
    return run_rule(_SPECS["geometric_mean"], data, {}, options)


def optimality_gap(
    data: Leaderboard, *, gamma: float | Mapping[str, float] | None = None, **options: Unpack[SharedOptions]
) -> RuleResult:
    """Weighted mean over tasks of min(s, gamma) - gamma (Vote'n'Rank sec. 3.1).

    The score is <= 0 and higher is better (0: at least gamma everywhere); the paper
    reports its negation, the gap, where lower is better. `gamma` is one number, a mapping
    task -> number, or None (default): the best score observed on each task, so the score
    is the mean shortfall from the per-task best. On a lower-is-better task the gap is
    max(s, gamma) - gamma, counted negatively. In two-step aggregation the second step
    averages the group gaps.

    Examples
    --------
    >>> import consensus as cs
    >>> optimality_gap(cs.load_example("votenrank-toy"), gamma=3).scores.tolist()
    [-1.2, -0.4, -0.6, -0.8]
    """
    g = _check_gamma(gamma)
    if isinstance(g, dict) and isinstance(data, Leaderboard):
        for t in g:
            if t not in data.tasks:
                raise UnknownTaskError(t, data.tasks, "gamma")
        loose = [t for t in data.tasks if t not in g]
        if loose:
            raise InvalidOptionError(f"rule 'optimality_gap': gamma has no value for task(s) {', '.join(map(repr, loose))}")
    return run_rule(_SPECS["optimality_gap"], data, {"gamma": g}, options)


def kemeny(data: Leaderboard | PairwiseMatrix, **kemeny_options: Any) -> RuleResult:
    """The exact Kemeny consensus (:func:`consensus.kemeny.kemeny`) as a RuleResult.

    Options of :func:`rank` (``missing``, ``weighting``, ``group_weights``, ``two_step``,
    ``tie_break``) are handled here; every other option goes to
    :func:`consensus.kemeny.kemeny`. The ranking is one system per group (the consensus
    order), ``scores`` the number of systems ranked below each system, and
    ``details["kemeny"]`` the KemenyResult (objective, bound, status).
    """
    shared = {k: kemeny_options.pop(k) for k in list(kemeny_options) if k in SHARED_OPTION_NAMES}
    return run_rule(_SPECS["kemeny"], data, kemeny_options, shared)

#: Rule name -> function, in documentation order.
RULES: dict[str, Callable[..., RuleResult]] = {
    "plurality": plurality,
    "borda": borda,
    "dowdall": dowdall,
    "scoring": scoring,
    "rank_complement": rank_complement,
    "top_ten": top_ten,
    "eurovision": eurovision,
    "threshold": threshold,
    "baldwin": baldwin,
    "condorcet": condorcet,
    "copeland": copeland,
    "minimax": minimax,
    "mean": mean,
    "geometric_mean": geometric_mean,
    "optimality_gap": optimality_gap,
    "kemeny": kemeny,
}
RULE_NAMES: tuple[str, ...] = tuple(RULES)
