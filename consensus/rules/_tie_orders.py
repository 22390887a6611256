"""Ranked pairs over every order of its equal-strength pairs, without enumerating the orders.

Tideman's procedure locks the majority links from the strongest down, skipping a link that
would close a cycle with those already locked; links of equal strength must be taken in
*some* order, and the order can change the winner. A system *wins under some tie-break order*
(a "parallel universes" winner, Brill and Fischer 2012) when one order of the equal links
leaves it unbeaten. Deciding it is NP-complete, so :func:`tie_order_winners` searches, with
a time limit and a status, instead of trying the orders one by one:

- **States, not orders.** The outcome depends only on the locked relation (its transitive
  closure ``above``) and the strength level being processed, so the search walks states,
  each visited once (memoized).
- **Forced links.** At a level, a link whose ends are in different strongly connected
  components of ``above`` plus the level's undecided links can never be skipped (a skip
  needs a path back, which would put both ends in one component), and locking it changes
  no other link's fate at that level: all are locked at once. Only links inside a component
  are branched on, and only on which one is locked *first*, which covers every order (the
  first undecided link of any order is always locked).
- **Pruning.** Locking only adds to ``above``, so the final winners of a state are among
  its unbeaten systems: a state whose unbeaten systems are all already found (or can never
  win) is not explored.
- **Never winners.** ``c`` can never win when a link ``d -> c`` of level ``L`` has ``d``
  and ``c`` in different strongly connected components of the links of level ``>= L``: no
  path ``c -> ... -> d`` of links as strong could ever be locked to block it.

Every winner comes with a witness (the locked links in the order locked), replayed by the
classic procedure before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ..errors import ConsensusError

#: Memoized states are dropped beyond this many bytes of keys (the search stays exact, it
#: may then visit a state twice).
_MEMO_BYTES = 256 * 2**20


@dataclass(frozen=True)
class TieOrderWinners:
    """The systems (indices) that win under some tie-break order, and how sure that is.

    ``witnesses[i]``: the links locked, in order, by an order that elects ``i`` (verified by
    replaying the classic procedure). ``status``: ``"optimal"`` when the search finished
    (``winners`` is exact), ``"time_limit"`` when it stopped (``winners`` holds the systems
    found, ``undecided`` those neither found nor proven never to win). ``states``: the
    states visited.
    """

    winners: tuple[int, ...]
    undecided: tuple[int, ...]
    witnesses: dict[int, tuple[tuple[int, int], ...]]
    status: str
    states: int


def _components(graph: np.ndarray) -> np.ndarray:
    return connected_components(csr_matrix(graph), directed=True, connection="strong")[1]


def _forced(above: np.ndarray, fr: np.ndarray, fc: np.ndarray) -> np.ndarray:
    """Which open links ``fr[k] -> fc[k]`` lie on no cycle of `above` plus the open links.

    `above` is transitive and acyclic, so a cycle alternates open links and single `above`
    edges between their ends: the strongly connected components of the ends suffice.
    """
    ends, inverse = np.unique(np.concatenate([fr, fc]), return_inverse=True)
    graph = above[np.ix_(ends, ends)]
    a, b = inverse[: len(fr)], inverse[len(fr):]
    graph[a, b] = True
    comp = _components(graph)
    return comp[a] != comp[b]


def _lock(above: np.ndarray, i: int, j: int) -> None:
    """Lock ``i -> j`` into the closure `above`, in place: what reaches ``i`` now reaches what ``j`` reaches."""
    up, down = above[:, i].copy(), above[j, :].copy()
    up[i] = down[j] = True
    above[up] |= down


def never_winners(levels: np.ndarray) -> np.ndarray:
    """Systems no tie-break order can elect (the last rule of the module notes), as a mask.

    Parameters
    ----------
    levels : ndarray of int, shape (n, n)
        Link strength ranks (0: no link; higher: stronger).

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    n = levels.shape[0]
    never = np.zeros(n, dtype=bool)
    for level in sorted(set(levels[levels > 0].tolist()), reverse=True):
        comp = _components(levels >= level)
        rows, cols = np.nonzero(levels == level)
        never[cols[comp[rows] != comp[cols]]] = True
    return never


def replay(levels: np.ndarray, first: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The classic procedure's closure when each level takes the links of `first` first.

    Parameters
    ----------
    levels : ndarray of int, shape (n, n)
        Link strength ranks (0: no link).
    first : tuple of (int, int)
        Links, each taken (in this order) before the other links of its level.

    Returns
    -------
    ndarray of bool, shape (n, n)
        ``above[i, j]``: ``i`` ends ranked above ``j``.
    """
    n = levels.shape[0]
    above = np.zeros((n, n), dtype=bool)
    for level in sorted(set(levels[levels > 0].tolist()), reverse=True):
        rest = [(int(i), int(j)) for i, j in zip(*np.nonzero(levels == level))]
        ahead = [q for q in first if levels[q] == level]
        taken = set(ahead)
        for i, j in ahead + [q for q in rest if q not in taken]:
            if not above[j, i]:
                _lock(above, i, j)
    return above


def tie_order_winners(levels: np.ndarray, time_limit: float) -> TieOrderWinners:
    """Every system that wins ranked pairs under some order of its equal-strength links.

    Parameters
    ----------
    levels : ndarray of int, shape (n, n)
        Link strength ranks (0: no link; 1, 2, ...: weakest first), one link per majority.
    time_limit : float
        Seconds for the search; then ``status="time_limit"``.

    Returns
    -------
    TieOrderWinners

    Raises
    ------
    ConsensusError
        A witness failed its replay (a bug, never a silent wrong answer).
    """
    n = levels.shape[0]
    deadline = time.monotonic() + time_limit
    by_level = {int(lv): np.nonzero(levels == lv) for lv in set(levels[levels > 0].tolist())}
    order = sorted(by_level, reverse=True)
    never = never_winners(levels)
    found: dict[int, tuple[tuple[int, int], ...]] = {}
    done = never.copy()  # found or never: no need to look for them
    seen: set[tuple[int, bytes]] = set()
    memo_bytes = 0
    status = "optimal"
    def expand(k: int, above: np.ndarray, path: Any) -> list[Any] | None:
        """Lock forced links from level `k` on; the frame to branch on, or None (a leaf, pruned or seen)."""
        nonlocal memo_bytes, done
        branches = None
        while k < len(order):  # lock forced links until a level must branch
            rows, cols = by_level[order[k]]
            open_ = ~above[rows, cols] & ~above[cols, rows]
            if not open_.any():
                k += 1
                continue
            fr, fc = rows[open_], cols[open_]
            forced = _forced(above, fr, fc)
            for i, j in zip(fr[forced].tolist(), fc[forced].tolist()):
                _lock(above, i, j)
                path = ((i, j), path)
            if forced.all():
                k += 1
                continue
            branches = np.stack([fr[~forced], fc[~forced]], axis=1)
            break
        unbeaten = ~above.any(axis=0)
        if not (unbeaten & ~done).any():  # locking only adds: nothing left to find here
            return None
        if branches is None:  # every level done: the unbeaten systems win under this order
            locked: list[tuple[int, int]] = []
            while path is not None:
                locked.append(path[0])
                path = path[1]
            for s in np.nonzero(unbeaten)[0].tolist():
                found.setdefault(s, tuple(reversed(locked)))
            done |= unbeaten
            return None
        key = (k, np.packbits(above).tobytes())
        if key in seen:
            return None
        if memo_bytes < _MEMO_BYTES:
            seen.add(key)
            memo_bytes += len(key[1]) + 64
        # links out of a system still to find first, links into one last
        wanted = unbeaten & ~done
        first = np.lexsort((wanted[branches[:, 1]], ~wanted[branches[:, 0]]))
        return [k, above, path, branches[first], 0]

    # the search's stack: one frame per state being branched on, [level index, closure, locked
    # links as a linked list (link, parent), the links to lock first (best first), next one]
    root = expand(0, np.zeros((n, n), dtype=bool), None)
    stack = [] if root is None else [root]
    states = 1
    while stack and not done.all():
        if time.monotonic() > deadline:
            status = "time_limit"
            break
        frame = stack[-1]
        k, parent, path, links, at = frame
        if at >= len(links) or not (~parent.any(axis=0) & ~done).any():
            stack.pop()
            continue
        frame[4] = at + 1
        above = parent.copy()
        i, j = int(links[at, 0]), int(links[at, 1])
        _lock(above, i, j)
        states += 1
        child = expand(k, above, ((i, j), path))
        if child is not None:
            stack.append(child)
    for s, links in found.items():
        if replay(levels, links)[:, s].any():
            raise ConsensusError(f"ranked pairs: the tie-break order found for system {s} does not elect it")
    undecided = () if status == "optimal" else tuple(np.nonzero(~done)[0].tolist())
    return TieOrderWinners(
        winners=tuple(sorted(found)),
        undecided=undecided,
        witnesses={s: found[s] for s in sorted(found)},
        status=status,
        states=states,
    )
