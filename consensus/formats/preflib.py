"""PrefLib ordinal election files (``.soc``, ``.soi``, ``.toc``, ``.toi``) as leaderboards.

An election and a leaderboard are the same data seen from two sides:

- alternative = system (``# ALTERNATIVE NAME k`` -> the k-th system, in number order);
- each distinct order = one task, named ``order 1``, ``order 2``, ... in the order the file
  lists them, with its number of voters as the task weight;
- the score of a system on a task is ``n - position``, where ``n`` is the number of
  alternatives and ``position`` is 1 + the number of alternatives ranked strictly above it
  (competition ranking ``1224``). Higher is better; on a strict complete order this is the
  Borda score (``n - 1`` for the top, 0 for the last). Tied alternatives get equal scores,
  an alternative an incomplete order leaves out has a missing score (NaN), which the
  pairwise rules and :func:`consensus.kemeny` treat as "not compared on this task", as
  PrefLib's incomplete orders mean.

The file format is PrefLib's since 2022 (``FORMAT_SPECIFICATION.md`` of PrefLib-Data; the
older format is refused with a hint): ``# KEY: value`` header lines (``DATA TYPE``,
``NUMBER ALTERNATIVES``, ``NUMBER VOTERS``, ``NUMBER UNIQUE ORDERS``, one ``ALTERNATIVE NAME
k: name`` per alternative, ...), then one line per distinct order, ``count: 1,2,{3,4},5``
(commas separate ranks, braces group tied alternatives).

:func:`to_orders` and :func:`from_orders` are the conversion itself, shared with
:mod:`consensus.formats.pref_voting`.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterable, Sequence
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import (
    EmptySystemError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
    UnknownSystemError,
)
from .errors import FormatError

__all__ = ["KINDS", "read_preflib", "write_preflib", "to_orders", "from_orders", "order_kind"]

#: The ordinal PrefLib data types, from the most to the least restrictive.
KINDS: dict[str, str] = {
    "soc": "strict complete orders",
    "soi": "strict incomplete orders",
    "toc": "orders with ties, complete",
    "toi": "orders with ties, incomplete",
}

Tiers = tuple[frozenset[str], ...]

_ORDER = re.compile(r"(\d+|\{\d+(,\d+)*\})(,(\d+|\{\d+(,\d+)*\}))*")
_ALTERNATIVE = re.compile(r"#\s*ALTERNATIVE NAME\s+(\d+)\s*:(.*)")
_KEY = re.compile(r"#\s*([A-Za-z][A-Za-z ]*?)\s*:(.*)")


# ---------------------------------------------------------------------- the conversion
def _task_orders(lb: Leaderboard) -> list[tuple[str, Tiers]]:
    """Each task with the weak order its oriented scores induce (missing scores left out)."""
    found = []
    for j, task in enumerate(lb.tasks):
        col = lb.values[:, j]
        levels = sorted({float(v) for v in col[~np.isnan(col)]}, reverse=True)
        found.append((task, tuple(frozenset(s for s, v in zip(lb.systems, col) if v == level) for level in levels)))
    return found


def to_orders(lb: Leaderboard) -> list[tuple[Tiers, int]]:
    """The election a leaderboard holds: each distinct task order with its number of voters.

    Each task becomes the weak order its scores induce (respecting ``lower_is_better``;
    equal scores tie, missing scores leave the system out of the order). Identical orders
    are merged, their weights added. The list is sorted by count, largest first, then by
    the first task giving the order.

    Parameters
    ----------
    lb : Leaderboard
        Any leaderboard; its task weights are the voter counts.

    Returns
    -------
    list of (tuple of frozenset of str, int)
        ``(tiers, count)`` pairs; tiers best first.

    Raises
    ------
    InvalidOptionError
        If `lb` is not a Leaderboard.
    InvalidWeightError
        If a task weight is not a positive integer (naming the task and the weight).

    Examples
    --------
    >>> frame = pd.DataFrame({"t1": [3.0, 2.0, 2.0], "t2": [0.9, 0.5, None], "t3": [5.0, 1.0, 1.0]},
    ...                      index=["a", "b", "c"])
    >>> for tiers, count in to_orders(Leaderboard.from_frame(frame)):
    ...     print([sorted(t) for t in tiers], count)
    [['a'], ['b', 'c']] 2
    [['a'], ['b']] 1
    """
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"expected a Leaderboard, got {type(lb).__name__}")
    counts: dict[Tiers, int] = {}
    for (task, tiers), weight in zip(_task_orders(lb), lb.weights.tolist()):
        w = float(weight)
        if not (w >= 1 and w == math.floor(w)):
            fix = (
                "drop it with lb.select(tasks=[...])"
                if w == 0
                else "rescale the weights to whole numbers with lb.with_weights({...})"
            )
            raise InvalidWeightError(
                f"task {task!r} has weight {w:g}; as an election every task weight is a number of "
                f"voters, a positive integer: {fix}",
                task=task,
            )
        counts[tiers] = counts.get(tiers, 0) + int(w)
    first = {tiers: k for k, tiers in enumerate(counts)}
    return sorted(counts.items(), key=lambda item: (-item[1], first[item[0]]))


def order_kind(orders: Iterable[tuple[Sequence[Iterable[str]], object]], n_systems: int) -> str:
    """The most restrictive PrefLib data type that holds these orders.

    Parameters
    ----------
    orders : iterable of (tiers, count)
        As returned by :func:`to_orders`.
    n_systems : int
        The number of alternatives (an order listing fewer is incomplete).

    Returns
    -------
    str
        ``"soc"``, ``"soi"``, ``"toc"`` or ``"toi"``.

    Examples
    --------
    >>> order_kind([((frozenset("a"), frozenset("bc")), 2)], 3), order_kind([((frozenset("a"),), 1)], 3)
    ('toc', 'soi')
    """
    tiers = [[frozenset(t) for t in ranking] for ranking, _ in orders]
    strict = all(len(t) == 1 for ranking in tiers for t in ranking)
    complete = all(sum(len(t) for t in ranking) == n_systems for ranking in tiers)
    return ("s" if strict else "t") + ("oc" if complete else "oi")


def _tier(tier: object) -> frozenset[str]:
    if isinstance(tier, str):
        return frozenset((tier,))
    if isinstance(tier, Iterable):
        return frozenset(tier)
    raise InvalidOptionError(f"a tier of an order must be a system name or a set of names, got {tier!r}")


def from_orders(
    orders: Iterable[tuple[Sequence[str | Iterable[str]], float]],
    *,
    systems: Sequence[str] | None = None,
    drop_empty: bool = False,
    notes: Iterable[str] = (),
) -> Leaderboard:
    """The leaderboard of an election: one task per distinct order, weighted by its count.

    Scores are ``n - position`` (position: 1 + the systems ranked strictly above; tied
    systems share it), missing where an order leaves a system out (see the module notes).

    Parameters
    ----------
    orders : iterable of (tiers, count)
        Each order best first; a tier is a system name or a collection of tied names. The
        same order given twice is one task with the counts added.
    systems : sequence of str, optional
        All alternatives, in order (default: in order of first appearance).
    drop_empty : bool, default=False
        Leave out the systems that appear in no order (named in a note and a
        ``UserWarning``) instead of raising :class:`EmptySystemError`.
    notes : iterable of str, optional
        Notes to keep on the leaderboard (what reading did).

    Returns
    -------
    Leaderboard
        Tasks ``order 1``, ``order 2``, ... in order of first appearance; weights = counts.

    Raises
    ------
    InvalidWeightError
        If a count is not a positive integer.
    UnknownSystemError
        If an order names a system that is not in `systems`.
    EmptySystemError
        If a system appears in no order (without `drop_empty`).
    LeaderboardError
        If there is no order, an order is empty, or names a system twice.

    Examples
    --------
    >>> lb = from_orders([(["a", {"b", "c"}], 2), (["c", "a"], 1)], systems=["a", "b", "c"])
    >>> lb.scores
       order 1  order 2
    a      2.0      1.0
    b      1.0      NaN
    c      1.0      2.0
    >>> lb.weights.tolist()
    [2.0, 1.0]
    """
    merged: dict[Tiers, int] = {}
    for k, (ranking, count) in enumerate(orders, 1):
        if isinstance(ranking, str) or not isinstance(ranking, Iterable):
            raise InvalidOptionError(f"order {k} must be a sequence of tiers, got {ranking!r}")
        tiers = tuple(_tier(t) for t in ranking)
        names = [s for t in tiers for s in t]
        if not names or any(not t for t in tiers):
            raise LeaderboardError(f"order {k} has an empty tier or ranks nobody; every tier names a system")
        if len(set(names)) < len(names):
            twice = sorted({s for s in names if names.count(s) > 1})
            raise LeaderboardError(f"order {k} ranks {', '.join(map(repr, twice))} more than once")
        c = float(count) if isinstance(count, (int, float, np.number)) else math.nan
        if not (c >= 1 and c == math.floor(c)):
            raise InvalidWeightError(f"order {k} has count {count!r}; a count is a positive whole number of voters")
        merged[tiers] = merged.get(tiers, 0) + int(c)
    if not merged:
        raise LeaderboardError("the election has no order; give at least one")
    seen = list(dict.fromkeys(s for tiers in merged for t in tiers for s in sorted(t)))
    known = list(systems) if systems is not None else seen
    for s in seen:
        if s not in set(known):
            raise UnknownSystemError(s, known, "an order")
    notes = list(notes)
    unranked = [s for s in known if s not in set(seen)]
    if unranked and not drop_empty:
        raise EmptySystemError(unranked)
    elif unranked:
        message = f"left out alternative(s) ranked by no voter: {', '.join(map(repr, unranked))}"
        warnings.warn(message, UserWarning, stacklevel=2)
        notes.append(message)
        known = [s for s in known if s not in set(unranked)]
    n, index = len(known), {s: i for i, s in enumerate(known)}
    scores = np.full((n, len(merged)), np.nan)
    for j, tiers in enumerate(merged):
        for k, t in enumerate(tiers):
            above = sum(len(u) for u in tiers[:k])
            scores[[index[s] for s in t], j] = n - (above + 1)
    tasks = [f"order {j}" for j in range(1, len(merged) + 1)]
    frame = pd.DataFrame(scores, index=pd.Index(known, dtype=object), columns=pd.Index(tasks, dtype=object))
    weights = dict(zip(tasks, (float(c) for c in merged.values())))
    return Leaderboard(frame, weights=weights, notes=notes)


# ---------------------------------------------------------------------- reading
def _read_lines(path: object) -> tuple[Path, list[str]]:
    from ..io._file_tables import decode_error, existing_file
    from ..io._opening import bounded_lines, open_text

    path = existing_file(path)  # type: ignore[arg-type]
    try:  # each line bounded before it is held whole, as in a score table
        with open_text(path) as fh:
            return path, [line.rstrip("\r\n") for line in bounded_lines(fh, path)]
    except UnicodeDecodeError as exc:
        raise decode_error(path, 1, exc) from None
    except OSError as exc:
        raise LeaderboardError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None


def _header_int(path: Path, number: int, key: str, value: str, low: int) -> int:
    if not re.fullmatch(r"\d+", value.strip()) or int(value) < low:
        raise FormatError(path, f"'# {key}:' must be a whole number >= {low}, got {value.strip()!r}", line=number)
    return int(value)


def _parse_header(path: Path, lines: list[str]) -> tuple[dict[str, tuple[int, str]], dict[int, tuple[int, str]], int]:
    """Header keys -> (line, value), alternative number -> (line, name), first data line index."""
    header: dict[str, tuple[int, str]] = {}
    names: dict[int, tuple[int, str]] = {}
    k = 0
    for k, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("#"):
            break
        number = k + 1
        alt = _ALTERNATIVE.fullmatch(line)
        if alt:
            a, name = int(alt.group(1)), raw.split(":", 1)[1].rstrip()
            name = name[1:] if name.startswith(" ") else name
            if a in names:
                raise FormatError(path, f"alternative {a} is named twice (also on line {names[a][0]})", line=number)
            if not name.strip():
                raise FormatError(path, f"alternative {a} has an empty name", line=number)
            names[a] = (number, name)
        elif key := _KEY.fullmatch(line):
            header.setdefault(key.group(1).upper(), (number, key.group(2).strip()))
    else:
        k = len(lines)
    return header, names, k


def _parse_order(path: Path, number: int, line: str, n: int, kind: str) -> tuple[tuple[tuple[int, ...], ...], int]:
    if ":" not in line:
        raise FormatError(path, f"expected 'count: order' (e.g. '3: 1,2,{{3,4}}'), got {line.strip()!r}", line=number)
    count_text, order_text = line.split(":", 1)
    if not re.fullmatch(r"\s*\d+\s*", count_text) or int(count_text) < 1:
        raise FormatError(path, f"the count {count_text.strip()!r} is not a positive whole number", line=number)
    text = "".join(order_text.split())
    if not text:
        raise FormatError(path, "the order is empty; every line ranks at least one alternative", line=number)
    if not _ORDER.fullmatch(text):
        message = f"cannot read the order {order_text.strip()!r}: write numbers separated by commas, tied ones in braces"
        raise FormatError(path, message + ", e.g. '1,{2,3},4'", line=number)
    tiers = tuple(tuple(int(a) for a in group.strip("{}").split(",")) for group in re.findall(r"\{[^}]*\}|\d+", text))
    flat = [a for t in tiers for a in t]
    bad = [a for a in flat if not 1 <= a <= n]
    if bad:
        raise FormatError(path, f"alternative {bad[0]} is not one of 1..{n} (NUMBER ALTERNATIVES)", line=number)
    twice = sorted({a for a in flat if flat.count(a) > 1})
    if twice:
        raise FormatError(path, f"alternative(s) {', '.join(map(str, twice))} appear more than once", line=number)
    absent, problem = sorted(set(range(1, n + 1)) - set(flat)), ""
    if kind[0] == "s" and (tied := next((t for t in tiers if len(t) > 1), None)):
        problem, fix = f"alternatives {', '.join(map(str, tied))} are tied", "t" + kind[1:]
    elif kind[2] == "c" and absent:
        problem, fix = f"alternative(s) {', '.join(map(str, absent[:10]))} are not ranked", kind[:2] + "i"
    if problem:
        message = f"{problem}, but the file is {kind} ({KINDS[kind]}); declare '# DATA TYPE: {fix}'"
        raise FormatError(path, message, line=number)
    return tiers, int(count_text)


def read_preflib(path: str | PathLike[str], *, drop_empty: bool = False) -> Leaderboard:
    """Read a PrefLib ordinal file (``.soc``, ``.soi``, ``.toc``, ``.toi``) as a leaderboard.

    Systems are the alternatives (in number order, named as in the header); each line is
    one task ``order k`` whose weight is its count; scores are ``n - position`` (higher is
    better, ties equal, unranked missing; see :mod:`consensus.formats.preflib`). The data
    type comes from ``# DATA TYPE`` (else the file extension) and every order is checked
    against it, as are ``# NUMBER VOTERS`` and ``# NUMBER UNIQUE ORDERS`` when given.

    Parameters
    ----------
    path : str or Path
        The PrefLib file (UTF-8, the 2022+ format).
    drop_empty : bool, default=False
        Leave out the alternatives that no order ranks (a note and a ``UserWarning`` name
        them); without it such an alternative raises :class:`EmptySystemError`.

    Returns
    -------
    Leaderboard
        Alternatives x orders. An order listed twice (PrefLib forbids it) becomes one task
        with the counts added, and a note says so.

    Raises
    ------
    FormatError
        A malformed file, naming the file and line: no ``NUMBER ALTERNATIVES``, a missing,
        repeated or empty alternative name, an unknown data type, a line that is not
        ``count: order``, an alternative out of range or ranked twice, an order the data type
        does not allow (ties in ``soc``/``soi``, a partial order in ``soc``/``toc``), counts
        that do not match the header; and the pre-2022 format, with a hint.
    LeaderboardError
        The file does not exist or is not UTF-8 text.
    EmptySystemError
        An alternative appears in no order (without `drop_empty`).
    TooFewSystemsError
        Fewer than two alternatives.
    InvalidOptionError
        `path` is not a path.

    Examples
    --------
    >>> import consensus as cs, pathlib
    >>> path = pathlib.Path(cs.__file__).parents[1] / "tests" / "data" / "preflib" / "films.soc"
    >>> lb = read_preflib(path)
    >>> lb.systems
    ('The Wedding Planner', 'Lost in Translation', 'Crouching Tiger, Hidden Dragon', 'The Exorcist')
    >>> lb.weights.tolist()
    [5.0, 4.0, 3.0, 2.0, 1.0]
    """
    path, lines = _read_lines(path)
    header, names, start = _parse_header(path, lines)
    if "NUMBER ALTERNATIVES" not in header:
        if not header and not names and start < len(lines) and re.fullmatch(r"\s*\d+\s*", lines[start]):
            raise FormatError(
                path,
                "this is the old PrefLib format (before 2022: a count of alternatives, then 'k,name' "
                "lines); convert it with preflibtools (OrdinalInstance.parse_old, then write)",
                line=start + 1,
            )
        raise FormatError(path, "no '# NUMBER ALTERNATIVES:' line in the header; is this a PrefLib file?")
    n_line, n_value = header["NUMBER ALTERNATIVES"]
    n = _header_int(path, n_line, "NUMBER ALTERNATIVES", n_value, 1)
    declared = header.get("DATA TYPE", (0, ""))[1].lower()
    kind = declared or path.suffix.lower().lstrip(".")
    if kind not in KINDS:
        where = f"'# DATA TYPE: {declared}'" if declared else f"the extension {path.suffix!r} and no '# DATA TYPE:'"
        raise FormatError(
            path,
            f"{where}: read_preflib reads ordinal PrefLib data ({', '.join(KINDS)}), not other types",
            line=header["DATA TYPE"][0] if declared else None,
        )
    beyond = sorted(a for a in names if not 1 <= a <= n)
    if beyond:
        raise FormatError(path, f"alternative {beyond[0]} is named, but NUMBER ALTERNATIVES is {n}", line=names[beyond[0]][0])
    unnamed = [a for a in range(1, n + 1) if a not in names]
    if unnamed:
        raise FormatError(
            path,
            f"no '# ALTERNATIVE NAME k:' line for alternative(s) {', '.join(map(str, unnamed[:10]))}",
            line=header["NUMBER ALTERNATIVES"][0],
        )
    by_name: dict[str, int] = {}
    for a in range(1, n + 1):
        number, name = names[a]
        if name in by_name:
            raise FormatError(path, f"alternatives {by_name[name]} and {a} have the same name {name!r}", line=number)
        by_name[name] = a
    systems = [names[a][1] for a in range(1, n + 1)]
    orders: list[tuple[list[set[str]], int]] = []
    lines_of: dict[tuple[tuple[int, ...], ...], int] = {}
    notes: list[str] = []
    for k in range(start, len(lines)):
        raw = lines[k]
        if not raw.strip():
            continue
        if raw.lstrip().startswith("#"):
            raise FormatError(path, "a '#' header line after the orders; the header comes first", line=k + 1)
        tiers, count = _parse_order(path, k + 1, raw, n, kind)
        key = tuple(tuple(sorted(t)) for t in tiers)
        if key in lines_of:
            notes.append(f"lines {lines_of[key]} and {k + 1} give the same order: merged into one task")
        lines_of.setdefault(key, k + 1)
        orders.append(([{systems[a - 1] for a in t} for t in tiers], count))
    if not orders:
        raise FormatError(path, "the file lists no order after its header")
    for field, actual in (("NUMBER VOTERS", sum(c for _, c in orders)), ("NUMBER UNIQUE ORDERS", len(orders))):
        if field in header:
            number, value = header[field]
            if _header_int(path, number, field, value, 0) != actual:
                raise FormatError(path, f"'# {field}: {value}' but the orders add up to {actual}", line=number)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "left out alternative", UserWarning)  # re-issued with the file's name
        lb = from_orders(orders, systems=systems, drop_empty=drop_empty, notes=notes)
    dropped = [s for s in systems if s not in lb.systems]
    if dropped:
        warnings.warn(f"{str(path)!r}: {lb.notes[-1]}", UserWarning, stacklevel=2)
    return lb


# ---------------------------------------------------------------------- writing
def _requested_kind(kind: object, path: Path) -> str | None:
    suffix = path.suffix.lower().lstrip(".")
    if kind is None:
        return suffix if suffix in KINDS else None
    if not isinstance(kind, str) or kind.lower() not in KINDS:
        raise InvalidOptionError(f"kind must be one of {', '.join(KINDS)} or None, got {kind!r}")
    if suffix in KINDS and suffix != kind.lower():
        raise InvalidOptionError(f"kind={kind!r} but the file name {path.name!r} says {suffix!r}; make them agree")
    return kind.lower()


def _check_fits(requested: str, lb: Leaderboard, asked_by: str) -> None:
    for task, tiers in _task_orders(lb):
        tied = next((t for t in tiers if len(t) > 1), None)
        if requested[0] == "s" and tied is not None:
            raise InvalidOptionError(
                f"{asked_by} asks for {requested} ({KINDS[requested]}), but task {task!r} ties "
                f"{', '.join(repr(s) for s in lb.systems if s in tied)}; write it as "
                f"t{requested[1:]} (or pass kind=None to infer the kind)"
            )
        unranked = [s for s in lb.systems if not any(s in t for t in tiers)]
        if requested[2] == "c" and unranked:
            raise InvalidOptionError(
                f"{asked_by} asks for {requested} ({KINDS[requested]}), but task {task!r} has no score "
                f"for {', '.join(map(repr, unranked[:5]))}; write it as {requested[:2]}i "
                "(or pass kind=None to infer the kind)"
            )


def write_preflib(data: Leaderboard, path: str | PathLike[str], *, kind: str | None = None, title: str = "") -> Path:
    """Write a leaderboard as a PrefLib ordinal election file.

    Each task becomes the order its scores induce (``lower_is_better`` respected; equal
    scores tie, missing scores leave the system unranked), its weight the number of voters.
    Identical orders are merged into one line with their total count. Lines are sorted by
    count, largest first, then by the first task giving the order; alternatives are the
    systems numbered 1..n in leaderboard order, tied alternatives listed by number.

    Parameters
    ----------
    data : Leaderboard
        The scores; every task weight must be a positive integer.
    path : str or Path
        Where to write (UTF-8). Without an extension, the kind's (``.soc``, ...) is added.
    kind : {"soc", "soi", "toc", "toi"}, optional
        The data type. Default: the file's extension when it is one of these, else the most
        restrictive one that holds the data (what PrefLib asks for).
    title : str, default=""
        The ``# TITLE:`` of the file.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    InvalidOptionError
        `kind` is unknown, disagrees with the extension, or cannot hold the data (ties in
        ``soc``/``soi``, a missing score in ``soc``/``toc``; the message names the task).
    InvalidWeightError
        A task weight is not a positive integer (naming the task and weight).
    LeaderboardError
        A system or `title` contains a line break, or a name ends with a space (PrefLib
        lines cannot keep them); the file cannot be written.

    Notes
    -----
    The header has every field of the specification; ``MODIFICATION TYPE`` is ``induced``
    (orders derived from scores) and the dates and other fields are left blank, so that
    the same leaderboard always writes the same bytes.

    Examples
    --------
    >>> import tempfile, os
    >>> frame = pd.DataFrame({"qa": [0.7, 0.6, 0.6], "latency": [12.0, 30.0, 8.0]}, index=["a", "b", "c"])
    >>> lb = Leaderboard.from_frame(frame, lower_is_better=["latency"])
    >>> out = write_preflib(lb, os.path.join(tempfile.mkdtemp(), "board"))
    >>> out.name
    'board.toc'
    >>> print(out.read_text().split("# ALTERNATIVE NAME 3: c\\n")[1], end="")
    1: 1,{2,3}
    1: 3,1,2
    """
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"write_preflib expects a Leaderboard, got {type(data).__name__}")
    if not isinstance(path, (str, PathLike)):
        raise InvalidOptionError(f"path must be a file path (str or pathlib.Path), got {type(path).__name__}")
    path = Path(path)
    if not isinstance(title, str) or "\n" in title or "\r" in title:
        raise LeaderboardError(f"title must be one line of text, got {title!r}")
    requested = _requested_kind(kind, path)
    orders = to_orders(data)
    for s in data.systems:
        if "\n" in s or "\r" in s or s != s.rstrip() or s.startswith(" "):
            raise LeaderboardError(
                f"system {s!r} cannot be a PrefLib alternative name: a name is one line without "
                "surrounding spaces; rename it"
            )
    needed = order_kind(orders, data.n_systems)
    if requested is None:
        requested = needed
    else:
        asked_by = f"the file name {path.name!r}" if kind is None else f"kind={kind!r}"
        _check_fits(requested, data, asked_by)
    if not path.suffix:
        path = path.with_name(f"{path.name}.{requested}")
    number = {s: k for k, s in enumerate(data.systems, 1)}
    head = [
        f"# FILE NAME: {path.name}",
        f"# TITLE: {title}".rstrip(),
        "# DESCRIPTION:",
        f"# DATA TYPE: {requested}",
        "# MODIFICATION TYPE: induced",
        "# RELATES TO:",
        "# RELATED FILES:",
        "# PUBLICATION DATE:",
        "# MODIFICATION DATE:",
        f"# NUMBER ALTERNATIVES: {data.n_systems}",
        f"# NUMBER VOTERS: {sum(c for _, c in orders)}",
        f"# NUMBER UNIQUE ORDERS: {len(orders)}",
    ]
    head += [f"# ALTERNATIVE NAME {k}: {s}" for s, k in number.items()]
    body = []
    for tiers, count in orders:
        groups = [sorted(number[s] for s in t) for t in tiers]
        text = ",".join(str(g[0]) if len(g) == 1 else "{" + ",".join(map(str, g)) + "}" for g in groups)
        body.append(f"{count}: {text}")
    try:
        path.write_text("\n".join(head + body) + "\n", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise LeaderboardError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return path
