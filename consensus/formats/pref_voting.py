"""Leaderboards to and from `pref_voting <https://pref-voting.readthedocs.io>`_ profiles.

The correspondence is the one of :mod:`consensus.formats.preflib`: candidates = systems,
each distinct ranking = one task weighted by its number of voters, scores ``n - position``
(ties equal, unranked missing). :func:`to_pref_voting` gives a ``Profile`` when every task
is a strict complete order and a ``ProfileWithTies`` otherwise; :func:`from_pref_voting`
reads either back.

pref_voting is an optional dependency (``pip install 'leaderboard-consensus[prefvoting]'``),
imported inside the functions, so ``import consensus`` never loads it (nor ortools and numba,
which it imports).

Notes
-----
pref_voting and HiGHS in one process. pref_voting imports ortools (whose native library
bundles its own HiGHS, abseil and protobuf) and numba; highspy, which the package's exact
solvers use, ships HiGHS too. We looked for a clash (a crash at import, a symbol or protobuf
conflict, a wrong solve) with highspy imported before and after pref_voting, then solving
Kemeny by integer programming (``consensus.kemeny(..., method="ilp")``), an ortools solve
(GLOP, HiGHS) and pref_voting rules in the same process. None showed up with: pref_voting
1.18.2 + ortools 9.15.6755 + numba 0.62.1 + protobuf 6.33.6 + highspy 1.16.0; pref_voting
1.18.2 + ortools 9.11.4210 + highspy 1.8.0; pref_voting 1.18.2 + ortools 9.8.3296 +
highspy 1.7.1; pref_voting 1.16.32 + ortools 9.15 + highspy 1.11.0; pref_voting 1.14.30 +
numba 0.60.0 + highspy 1.7.1 (Python 3.11, Linux x86-64). The conversions therefore do not
guard against it; ``tests/test_pref_voting.py`` imports both, in both orders, and solves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..board._leaderboard import Leaderboard
from ..errors import DuplicateLabelError, InvalidOptionError
from .preflib import from_orders, order_kind, to_orders

__all__ = ["to_pref_voting", "from_pref_voting", "PREF_VOTING_HINT"]

#: How to install the optional dependency.
PREF_VOTING_HINT = "pip install 'leaderboard-consensus[prefvoting]'"


def _profile_classes() -> tuple[Any, Any]:
    """pref_voting's ``Profile`` and ``ProfileWithTies``, or an ImportError with the install hint."""
    try:
        from pref_voting.profiles import Profile
        from pref_voting.profiles_with_ties import ProfileWithTies
    except ModuleNotFoundError as exc:
        if (exc.name or "pref_voting").split(".")[0] == "pref_voting":
            raise ImportError(
                f"converting to or from pref_voting profiles needs the optional dependency pref_voting: {PREF_VOTING_HINT}"
            ) from None
        raise ImportError(
            f"pref_voting is installed but cannot be imported: its dependency {exc.name!r} is missing; "
            f"reinstall it with {PREF_VOTING_HINT}"
        ) from exc
    return Profile, ProfileWithTies


def to_pref_voting(data: Leaderboard) -> Any:
    """The leaderboard as a pref_voting profile: candidates = systems, one ranking per distinct task order.

    Each task becomes the order its scores induce (``lower_is_better`` respected; equal
    scores tie, missing scores leave the system unranked); identical orders are merged,
    their weights (which must be positive integers: numbers of voters) added.

    Parameters
    ----------
    data : Leaderboard
        The scores; task weights are voter counts.

    Returns
    -------
    pref_voting.profiles.Profile or pref_voting.profiles_with_ties.ProfileWithTies
        A ``Profile`` when every order is strict and complete, else a ``ProfileWithTies``
        (ties and unranked candidates allowed; pairs are compared only when both are
        ranked, pref_voting's default, as the leaderboard's rules do). Candidates are
        ``0..n-1`` in system order; ``cmap`` maps them to the system names.

    Raises
    ------
    ImportError
        pref_voting is not installed (the message gives the ``pip install`` line).
    InvalidWeightError
        A task weight is not a positive integer (naming the task).
    InvalidOptionError
        `data` is not a Leaderboard.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, 0.7], "nli": [0.6, 0.8, 0.7]}, index=["a", "b", "c"])
    >>> prof = to_pref_voting(Leaderboard.from_frame(frame))  # doctest: +SKIP
    >>> [[int(c) for c in r] for r in prof.rankings], prof.cmap  # doctest: +SKIP
    ([[0, 2, 1], [1, 2, 0]], {0: 'a', 1: 'b', 2: 'c'})
    """
    Profile, ProfileWithTies = _profile_classes()
    orders = to_orders(data)
    index = {s: i for i, s in enumerate(data.systems)}
    cmap = dict(enumerate(data.systems))
    counts = [count for _, count in orders]
    if order_kind(orders, data.n_systems) == "soc":
        rankings = [[index[s] for tier in tiers for s in tier] for tiers, _ in orders]
        return Profile(rankings, rcounts=counts, cmap=cmap)
    position = cast("Callable[[str], int]", index.get)  # every system of a tier is in index
    rmaps = [{index[s]: k for k, tier in enumerate(tiers, 1) for s in sorted(tier, key=position)} for tiers, _ in orders]
    return ProfileWithTies(rmaps, rcounts=counts, candidates=list(range(data.n_systems)), cmap=cmap)


def from_pref_voting(profile: Any, *, drop_empty: bool = False) -> Leaderboard:
    """A leaderboard from a pref_voting ``Profile`` or ``ProfileWithTies``.

    Systems are the candidates (in the profile's candidate order, named by ``cmap``);
    each distinct ranking is a task ``order k`` (in the profile's order) weighted by its
    count; scores are ``n - position`` (higher is better, ties equal, unranked missing).
    Rankings listed twice are one task with the counts added; rankings with a count of 0
    or that rank nobody are left out, with a note.

    Parameters
    ----------
    profile : pref_voting.profiles.Profile or pref_voting.profiles_with_ties.ProfileWithTies
        The election. A ``ProfileWithTies`` that uses extended strict preference
        (``use_extended_strict_preference()``: a ranked candidate beats an unranked one)
        gets its unranked candidates as a tied last tier of each ranking, which keeps its
        margins; otherwise unranked candidates are missing scores.
    drop_empty : bool, default=False
        Leave out the candidates that no ranking ranks (with a note) instead of raising
        :class:`EmptySystemError`.

    Returns
    -------
    Leaderboard
        Candidates x distinct rankings, weights = counts. ``to_pref_voting`` of it gives the
        same profile back (the same rankings with the same counts, candidates and names).

    Raises
    ------
    ImportError
        pref_voting is not installed (the message gives the ``pip install`` line).
    InvalidOptionError
        `profile` is neither a ``Profile`` nor a ``ProfileWithTies``.
    DuplicateLabelError
        Two candidates have the same name in ``cmap``.
    EmptySystemError
        A candidate is in no ranking (without `drop_empty`).
    InvalidWeightError
        A count is not a whole number.

    Examples
    --------
    >>> from pref_voting.profiles import Profile  # doctest: +SKIP
    >>> lb = from_pref_voting(Profile([[0, 1, 2], [2, 1, 0]], rcounts=[3, 2], cmap={0: "a", 1: "b", 2: "c"}))  # doctest: +SKIP
    >>> lb.scores  # doctest: +SKIP
       order 1  order 2
    a      2.0      0.0
    b      1.0      1.0
    c      0.0      2.0
    """
    Profile, ProfileWithTies = _profile_classes()
    if isinstance(profile, Profile):
        arrays, counts = profile.rankings_counts
        rankings = [[[int(c)] for c in ranking] for ranking in arrays]
    elif isinstance(profile, ProfileWithTies):
        rmaps, counts = profile.rankings_as_dicts_counts
        rankings = []
        for rmap in rmaps:
            ranks = sorted(set(rmap.values()))
            tiers = [[c for c in profile.candidates if rmap.get(c) == r] for r in ranks]
            unranked = [c for c in profile.candidates if c not in rmap]
            if profile.using_extended_strict_preference and unranked and tiers:
                tiers.append(unranked)
            rankings.append(tiers)
    else:
        raise InvalidOptionError(
            f"from_pref_voting expects a pref_voting Profile or ProfileWithTies, got {type(profile).__name__}"
        )
    names = [str(profile.cmap.get(c, c)) for c in profile.candidates]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise DuplicateLabelError("system", twice, detail="two candidates share a name in the profile's cmap")
    name = dict(zip(profile.candidates, names))
    orders, notes = [], []
    for tiers, count in zip(rankings, counts):
        if not tiers or int(count) == 0:
            notes.append(f"left out a ranking with {int(count)} voter(s) that ranks {len(tiers)} candidate(s)")
            continue
        orders.append(([[name[c] for c in tier] for tier in tiers], count))
    return from_orders(orders, systems=names, drop_empty=drop_empty, notes=notes)
