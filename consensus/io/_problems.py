"""Several problems of a table reported together: identical ones grouped, one short CLI line.

Used by :class:`consensus.errors.LeaderboardErrors` (which imports this module: nothing here
imports :mod:`consensus.errors` at module level).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..hints import Hinted, cli_of

__all__ = ["MAX_LINE", "grouped_problems", "one_line"]

#: The length a one-line CLI error of several problems keeps to, the command line's
#: ``consensus: error: `` included (a single problem is shown whole).
MAX_LINE = 300

#: What the command line prints before the message.
_PREFIX = len("consensus: error: ")


def _message(problem: Any) -> str:
    """The message of `problem`: the :class:`~consensus.hints.Hinted` it was built with (both wordings), else its text."""
    args: tuple[Any, ...] = tuple(getattr(problem, "args", ()))
    return args[0] if len(args) == 1 and isinstance(args[0], Hinted) else str(problem)


def grouped_problems(problems: Sequence[Any]) -> list[str]:
    """The problems as lines, identical ones grouped: ``16 systems have an empty name (lines 4, 9, ...); hint``.

    Empty names of the same kind and hint make one line listing where they are (at most 8,
    then ``... and N more``); other problems with the same message make one line with a count.

    Parameters
    ----------
    problems : sequence of ConsensusError (an EmptyLabelError's ``group_key``, ``where`` and ``position`` place it)
        In the order found.

    Returns
    -------
    list of str
        One line per group, in the order each group was first found; a line with an option hint
        is a :class:`~consensus.hints.Hinted` (its command-line wording is :func:`one_line`'s).

    Examples
    --------
    >>> from consensus.errors import EmptyLabelError
    >>> grouped_problems([EmptyLabelError("system", k, where=f" (line {k + 2})") for k in (0, 3, 5)])
    ['3 systems have an empty name (lines 2, 5, 7); give every system a name']
    """
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for p in problems:
        key = getattr(p, "group_key", None) or ("same", str(p))  # an empty name: ("empty name", kind, hint)
        groups.setdefault(key, []).append(p)
    out = []
    for key, members in groups.items():
        if key[0] == "empty name" and len(members) > 1:
            spots = [m.where.strip(" ()") or f"position {m.position + 1}" for m in members]
            lines = [s[len("line "):] for s in spots if s.startswith("line ") and " " not in s[len("line "):]]
            shown = (["lines " + ", ".join(lines[:8])] if len(lines) == len(spots) else [", ".join(spots[:8])])
            more = f" ... and {len(spots) - 8} more" if len(spots) > 8 else ""
            out.append(f"{len(members)} {key[1]}s have an empty name ({shown[0]}{more}); " + key[2])
        elif key[0] == "same" and len(members) > 1:
            out.append(_message(members[0]) + f" ({len(members)} times)")
        else:
            out.append(_message(members[0]))
    return out


def one_line(summary: Sequence[str], n_found: int) -> str:
    """Grouped problems as one CLI line of at most :data:`MAX_LINE` characters: those that fit, then a count.

    Parameters
    ----------
    summary : sequence of str
        The lines of :func:`grouped_problems`.
    n_found : int
        How many problems were found in all.

    Returns
    -------
    str
        In the command line's wording (``index_col=...`` -> ``--index-col COL``: :func:`~consensus.hints.cli_of`), at most
        :data:`MAX_LINE` characters once the command line's prefix is added.
    """
    limit = MAX_LINE - _PREFIX
    head = f"{n_found} problems in the scores: "
    shown: list[str] = []
    for k, text in enumerate(summary, 1):
        item = f"{k}. {cli_of(text)}"
        if shown and len(head) + sum(len(x) + 1 for x in shown) + len(item) > limit - 40:
            break
        shown.append(item)
    rest = len(summary) - len(shown)
    more = f" ... and {rest} more kind(s) of problem" if rest else ""
    room = limit - len(head) - len(more) - len(shown) + 1
    if sum(len(x) for x in shown) > room:  # a long first problem: shortened, never past the line
        shown = [shown[0][: max(room, 40) - 3] + "..."]
        rest = len(summary) - 1
        more = f" ... and {rest} more kind(s) of problem" if rest else ""
    return head + " ".join(shown) + more
