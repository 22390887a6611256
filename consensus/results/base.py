"""What every result object shares: read-only storage, tie groups, JSON conversion.

Conventions (STYLE.md section 5): ``@dataclass(frozen=True, slots=True)``; tuples,
``MappingProxyType`` and read-only numpy arrays instead of lists, dicts and writable arrays;
a result's own numbers are stored as read-only arrays and handed out as pandas objects built
afresh on each access (a caller cannot change a result by editing the Series it was given);
pandas objects inside ``details`` or ``options`` are stored by :func:`freeze` as copies with
read-only values; ``to_dict()`` returns plain JSON-able values and ``to_frame()`` a table.

A *ranking* here is a tuple of tie groups, best first: ``(("b",), ("a", "c"))`` ranks ``b``
first and ties ``a`` with ``c`` for second place. :func:`walk_tiers` is the one walk over tie
groups every result uses (positions, tiers, tables).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from .._docstrings import COMMON, fill_doc
from ..errors import UnknownSystemError
from ..hints import visible
from .json_values import collect_infinities, detail_value, jsonable

__all__ = [
    "flagged",
    "provided_by",
    "Displayed",
    "RankedResult",
    "FirstTierWinners",
    "display_html",
    "display_text",
    "one_line",
    "ranked_facts",
    "Tiers",
    "detail_value",
    "freeze_mapping",
    "jsonable",
    "collect_infinities",
    "ranking_table",
    "scored_table",
    "readonly_array",
    "tier_positions",
    "tiers_from_scores",
    "walk_tiers",
]

Tiers = tuple[tuple[str, ...], ...]


def provided_by(target: str) -> Any:
    """The function ``"package.module:name"`` names, imported when first called.

    A result names the code that renders or re-checks it (``Analysis.to_html`` ->
    :func:`consensus.report.html.render_html`, a ``winning_weights`` result's ``verify`` ->
    :func:`consensus.exact._winning.verify_winning_result`) without importing it at module level:
    results never import what produces them (no cycle), and no registry has to be filled first,
    so the method works in any process, an unpickled result included.

    Parameters
    ----------
    target : str
        ``"module:function"``.

    Returns
    -------
    callable

    Examples
    --------
    >>> provided_by("consensus.hints:visible")("a\u202eb")
    'a\\\\u202eb'
    """
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def freeze_mapping(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only deep copy of `mapping` (see :func:`freeze`).

    Parameters
    ----------
    mapping : Mapping
        Any mapping; it is copied, so later changes to it do not show through.

    Returns
    -------
    types.MappingProxyType
        A read-only view of the copy; nested values are frozen too.

    Examples
    --------
    >>> m = freeze_mapping({"a": [1, 2], "b": {"c": 3}})
    >>> m["a"], m["b"]["c"]
    ((1, 2), 3)
    """
    return MappingProxyType({k: freeze(v) for k, v in mapping.items()})


_SCALARS = frozenset({str, int, float, bool, complex, bytes})


def freeze(value: Any) -> Any:
    """A read-only copy of `value`, deeply: what a frozen result stores.

    Mappings become ``MappingProxyType``, lists and tuples tuples, sets frozensets, numpy
    arrays read-only copies, and pandas objects copies whose numeric values are read-only
    (assigning into them raises ``ValueError``). Frozen dataclasses and scalars are kept.

    Parameters
    ----------
    value : Any
        A value to store in a frozen result (nested containers are frozen recursively).

    Returns
    -------
    Any
        The frozen copy (or `value` itself when it is a scalar or another object).

    Examples
    --------
    >>> frame = freeze(pd.DataFrame({"a": [1.0, 2.0]}))
    >>> try:
    ...     frame.iloc[0, 0] = 5.0
    ... except ValueError:
    ...     print("read-only")
    read-only
    """
    if value is None or type(value) in _SCALARS:  # the common case, before the slower ABC checks
        return value
    if type(value) is dict or isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, np.ndarray):
        return readonly_array(value)
    if isinstance(value, pd.DataFrame):
        if len(value.columns) and all(pd.api.types.is_numeric_dtype(t) for t in value.dtypes):
            values = readonly_array(value.to_numpy(dtype=np.float64))
            return pd.DataFrame(values, index=value.index.copy(), columns=value.columns.copy(), copy=False)
        return value.copy()
    if isinstance(value, pd.Series):
        if pd.api.types.is_numeric_dtype(value.dtype):
            values = readonly_array(value.to_numpy(dtype=np.float64))
            return pd.Series(values, index=value.index.copy(), name=value.name, copy=False)
        return value.copy()
    return value


def readonly_array(values: Any, dtype: Any = None) -> np.ndarray:
    """A read-only numpy copy of `values` (``-0.0`` stored as ``0.0``).

    Parameters
    ----------
    values : array_like
        The data.
    dtype : numpy dtype, optional
        The dtype of the copy.

    Returns
    -------
    numpy.ndarray
        A copy with ``flags.writeable`` False.

    Examples
    --------
    >>> a = readonly_array([-0.0, 1.0])
    >>> a.tolist(), a.flags.writeable
    ([0.0, 1.0], False)
    """
    out = np.array(values, dtype=dtype, copy=True)
    if out.dtype.kind == "f":
        out[out == 0] = 0.0  # no -0.0
    out.flags.writeable = False
    return out


def tiers_from_scores(
    labels: Sequence[str], scores: Sequence[float], *, higher_is_better: bool = True, tol: float = 1e-12
) -> Tiers:
    """Group labels into tie groups by score, best group first; labels within a group keep input order.

    Parameters
    ----------
    labels : sequence of str
        One label per score.
    scores : sequence of float
        The scores.
    higher_is_better : bool, default=True
        Direction of the scores.
    tol : float, default=1e-12
        Two scores within `tol` (relative to the larger magnitude, floor 1) are tied.

    Returns
    -------
    tuple of tuple of str
        Tie groups, best first.

    Examples
    --------
    >>> tiers_from_scores(["a", "b", "c", "d"], [1.0, 3.0, 1.0, 2.0])
    (('b',), ('d',), ('a', 'c'))
    """
    order = sorted(range(len(labels)), key=lambda i: (-scores[i] if higher_is_better else scores[i], i))
    tiers: list[list[int]] = []
    for i in order:
        if tiers:
            ref = scores[tiers[-1][0]]
            if abs(scores[i] - ref) <= tol * max(1.0, abs(ref), abs(scores[i])):
                tiers[-1].append(i)
                continue
        tiers.append([i])
    return tuple(tuple(labels[i] for i in sorted(t)) for t in tiers)


@fill_doc(COMMON)
def walk_tiers(ranking: Sequence[Sequence[str]]) -> Iterator[tuple[str, int, int]]:
    """Every system of a tiered ranking with its competition position and tier number.

    The position is 1 + the number of systems in better tie groups (tied systems share it);
    the tier is the 1-based index of the tie group.

    Parameters
    ----------
    {ranking}

    Yields
    ------
    (system, position, tier)

    Examples
    --------
    >>> list(walk_tiers([("b",), ("a", "c"), ("d",)]))
    [('b', 1, 1), ('a', 2, 2), ('c', 2, 2), ('d', 4, 3)]
    """
    above = 0
    for tier, group in enumerate(ranking, start=1):
        for system in group:
            yield system, above + 1, tier
        above += len(group)


@fill_doc(COMMON)
def tier_positions(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Competition position (1 + systems in better tie groups) of every system.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    dict of str to int

    Examples
    --------
    >>> tier_positions([("b",), ("a", "c"), ("d",)])
    {'b': 1, 'a': 2, 'c': 2, 'd': 4}
    """
    return {system: position for system, position, _ in walk_tiers(ranking)}


@fill_doc(COMMON)
def ranking_table(ranking: Sequence[Sequence[str]], scores: Mapping[str, float] | pd.Series) -> pd.DataFrame:
    """Rows in ranking order: ``score``, ``position`` (1 + systems above) and ``tier``.

    Parameters
    ----------
    {ranking}
    scores : Mapping or pandas.Series
        A score per system.

    Returns
    -------
    pandas.DataFrame
        Indexed by system, in ranking order.

    Examples
    --------
    >>> ranking_table([("b",), ("a", "c")], {"a": 1.0, "b": 2.0, "c": 1.0})
       score  position  tier
    b    2.0         1     1
    a    1.0         2     2
    c    1.0         2     2
    """
    rows = list(walk_tiers(ranking))
    return pd.DataFrame(
        {
            "score": [float(scores[s]) for s, _, _ in rows],
            "position": [p for _, p, _ in rows],
            "tier": [t for _, _, t in rows],
        },
        index=pd.Index([s for s, _, _ in rows], dtype=object),
    )


def scored_table(result: Any) -> pd.DataFrame:
    """:func:`ranking_table` of a result with ``ranking``, ``systems`` and ``score_values``.

    Parameters
    ----------
    result : object
        A ranking result scoring each system (``RuleResult``, ``ImputationResult``, ...).

    Returns
    -------
    pandas.DataFrame
        ``score``, ``position`` and ``tier`` in ranking order.
    """
    return ranking_table(result.ranking, dict(zip(result.systems, result.score_values.tolist())))


def series(values: Any, index: Sequence[str], name: str | None = None) -> pd.Series:
    """A fresh float Series over `index` (the way results hand out their stored arrays).

    Parameters
    ----------
    values : array_like
        One number per label (copied as float64).
    index : sequence of str
        The labels (an object-dtype index).
    name : str, optional
        Name of the Series.

    Returns
    -------
    pandas.Series

    Examples
    --------
    >>> series([1, 2], ["a", "b"], "score").to_dict()
    {'a': 1.0, 'b': 2.0}
    """
    return pd.Series(np.array(values, dtype=np.float64), index=pd.Index(list(index), dtype=object), name=name)


#: Line breaks, tabs and the other whitespace controls (with the blanks around them).
_BREAKS = re.compile(r"[ ]*[\t\n\r\v\f\x1c-\x1f\x85]+[ ]*")  # U+2028/U+2029: escaped by visible()


def one_line(text: Any) -> str:
    """`text` on one line: line breaks and tabs (with the spaces around them) become one space.

    Other control characters are shown as ``\\xNN`` escapes, and the bidirectional formatting
    characters (U+202E, ...), the other invisible ones (U+200B, U+00AD, U+FEFF) and the line and
    paragraph separators U+2028/U+2029 as escapes (:func:`~consensus.hints.visible`), so a name
    never breaks a table's alignment, a report's lines or the direction of the text after it, nor
    passes for another name. Runs of ordinary spaces are kept.

    Parameters
    ----------
    text : Any
        A name, a cell or a line (converted with ``str``).

    Returns
    -------
    str

    Examples
    --------
    >>> one_line("gpt-4\\n(2023)\\tbase"), one_line("bell\\x07")
    ('gpt-4 (2023) base', 'bell\\\\x07')
    """
    return visible(_BREAKS.sub(" ", str(text)))


#: What a result shows in ``repr`` and in a notebook: title, (label, value) facts, a table.
Display = tuple[str, Sequence[tuple[str, Any]], "pd.DataFrame | None"]

#: Rows of the table a notebook shows (``_repr_html_``).
HTML_ROWS = 10


def _ranking_text(tiers: Sequence[Sequence[str]], top: int = 5) -> str:
    """The first `top` systems of tie groups: ``A > B = C ... (N more)``."""
    total = sum(len(g) for g in tiers)
    parts: list[str] = []
    count = 0
    for group in tiers:
        if count >= top:
            break
        kept = [one_line(s) for s in list(group)[: top - count]]
        count += len(kept)
        parts.append(" = ".join(kept))
    text = " > ".join(parts)
    return text if count == total else f"{text} ... ({total - count} more)"


def display_text(title: str, facts: Sequence[tuple[str, Any]], frame: pd.DataFrame | None = None) -> str:
    """A short ``repr``: the title, then one indented ``label: value`` line per fact.

    Parameters
    ----------
    title : str
        What the result is, e.g. ``"RuleResult(borda): 4 systems"``.
    facts : sequence of (str, Any)
        A few facts (winners, top 5, status); values are made one-line.
    frame : pandas.DataFrame, optional
        Not shown (the notebook's table, see :func:`display_html`).

    Returns
    -------
    str

    Examples
    --------
    >>> print(display_text("RuleResult(borda): 4 systems", [("winners", "B"), ("top 5", "B > C > D > A")]))
    RuleResult(borda): 4 systems
      winners: B
      top 5: B > C > D > A
    """
    return "\n".join([one_line(title)] + [f"  {label}: {one_line(value)}" for label, value in facts])


def display_html(title: str, facts: Sequence[tuple[str, Any]], frame: pd.DataFrame | None = None) -> str:
    """A small HTML block for notebooks: the title, the facts, the first rows of `frame`.

    Every name and value is escaped with :func:`html.escape`; the table shows at most
    :data:`HTML_ROWS` rows and says how many more there are.

    Parameters
    ----------
    title : str
        What the result is.
    facts : sequence of (str, Any)
        ``label: value`` lines.
    frame : pandas.DataFrame, optional
        The result's table (``to_frame()``); its index is shown as the first column.

    Returns
    -------
    str

    Examples
    --------
    >>> import pandas as pd
    >>> out = display_html("x", [("winners", "<b>")], pd.DataFrame({"score": [1.0]}, index=["a&b"]))
    >>> "&lt;b&gt;" in out and "a&amp;b" in out
    True
    """
    def esc(value: object) -> str:
        return html.escape(one_line(value))

    out = [f"<div><strong>{esc(title)}</strong>"]
    if facts:
        out.append("<ul>" + "".join(f"<li>{esc(label)}: {esc(value)}</li>" for label, value in facts) + "</ul>")
    if frame is not None and len(frame.columns):
        shown = frame.iloc[:HTML_ROWS]
        head = "".join(f"<th>{esc(c)}</th>" for c in [frame.index.name or ""] + list(frame.columns))
        rows = []
        for key, row in shown.iterrows():
            cells = [key] + [_html_cell(v) for v in row.tolist()]
            rows.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
        out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
        if len(frame) > HTML_ROWS:
            out.append(f"<p>... and {len(frame) - HTML_ROWS} more rows (to_frame() has all)</p>")
    out.append("</div>")
    return "".join(out)


def _html_cell(value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        return "-" if math.isnan(value) else f"{float(value):.4g}"
    return str(value)


class Displayed:
    """Mixin: a short ``repr`` and a notebook display, both built from ``_display()``.

    A subclass defines ``_display()`` returning ``(title, facts, frame)`` (see
    :func:`display_text` and :func:`display_html`); dataclass subclasses pass
    ``repr=False`` so the dataclass does not write its own ``__repr__``.
    """

    __slots__ = ()

    #: The CLI command whose JSON document holds this result (``"command"`` of
    #: :func:`consensus.report.document`; empty when no command prints it alone).
    json_command: ClassVar[str] = ""
    #: Its key in the ``result`` object when several results are rendered together (empty:
    #: the class name).
    json_key: ClassVar[str] = ""

    def _display(self) -> Display:
        return type(self).__name__, [], None

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs (none by default;
        each result type that names winners says which): what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
        """
        return []

    def __repr__(self) -> str:
        return display_text(*self._display())

    def _repr_html_(self) -> str:
        return display_html(*self._display())


def ranked_facts(ranking: Sequence[Sequence[str]], *, status: str | None = None) -> list[tuple[str, Any]]:
    """The facts a ranking shows in ``repr``: winners, the top 5 and a status.

    Parameters
    ----------
    ranking : sequence of sequence of str
        Tie groups, best first (a plain ranking: one system per group).
    status : str, optional
        A last fact (``"optimal"``, ``"missing scores: impute"``).

    Returns
    -------
    list of (str, Any)

    Examples
    --------
    >>> ranked_facts([("b",), ("a", "c")])
    [('winners', 'b'), ('top 5', 'b > a = c')]
    """
    tiers = tuple(tuple(g) for g in ranking)
    facts: list[tuple[str, Any]] = [("winners", ", ".join(tiers[0]) if tiers and tiers[0] else "none"),
                                    ("top 5", _ranking_text(tiers))]
    if status:
        facts.append(("status", status))
    return facts


def flagged(systems: Iterable[str], mask: Iterable[bool | None]) -> tuple[str, ...]:
    """The systems whose flag is set, in order.

    Parameters
    ----------
    systems : iterable of str
    mask : iterable of bool or None
        One flag per system (None, undecided, counts as not set).

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> flagged(("a", "b", "c"), (True, False, True))
    ('a', 'c')
    """
    return tuple(s for s, f in zip(systems, mask) if f)


class RankedResult(Displayed):
    """Mixin for results that rank systems in tie groups.

    Subclasses are frozen dataclasses with a ``ranking`` field (tie groups, best first); the
    mixin derives :attr:`order` and :meth:`position` from it (it defines no ``winners``: a
    dataclass would take an inherited property for a field default), with one walk over the tie groups (:func:`walk_tiers`).
    """

    __slots__ = ()
    ranking: Tiers

    @property
    def order(self) -> tuple[str, ...]:
        """The ranking flattened, best first (tied systems in input order)."""
        return tuple(s for group in self.ranking for s in group)

    def position(self, system: str) -> int:
        """Competition position of `system`: 1 + the number of systems ranked strictly above it.

        Parameters
        ----------
        system : str
            A ranked system.

        Returns
        -------
        int

        Raises
        ------
        UnknownSystemError
            If `system` is not ranked.

        Examples
        --------
        >>> import consensus as cs
        >>> res = cs.rank(cs.load_example("votenrank-toy"), "dowdall")  # A and B tie first
        >>> res.position("B"), res.position("C")
        (1, 3)
        """
        positions = tier_positions(self.ranking)
        if system not in positions:
            raise UnknownSystemError(system, self.order, f"the {getattr(self, 'rule', 'result')} ranking")
        return positions[system]


class FirstTierWinners(RankedResult):
    """Mixin for ranking results whose winners are their first tie group (not a field of their own)."""

    __slots__ = ()

    @property
    def winners(self) -> tuple[str, ...]:
        """The first tie group."""
        return self.ranking[0]
