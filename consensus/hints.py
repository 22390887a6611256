"""Hints in two wordings: API options (``pass drop_empty=True``) and CLI flags (``--drop-empty``).

A message that names an option is built from structured pieces, never parsed afterwards:
:func:`option` gives one option with its value, :func:`named` an option's name alone,
:func:`call` a call whose command-line form is another command, and :func:`hinted` joins them
into a message (``str.format`` with each piece in either wording). The result, a
:class:`Hinted`, is the API wording as a ``str`` and carries its command-line wording as
``.cli``; :func:`cli_of` gives it for any text (a plain ``str`` has one wording). Every
:class:`~consensus.errors.ConsensusError` message, reading note and report line is made this
way; the command line prints :func:`cli_of` of it. The flags come from one table,
:data:`CLI_FLAGS`.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["CLI_FLAGS", "Hinted", "call", "cli_of", "hinted", "join", "named", "option", "visible"]


#: API option -> (CLI flag, metavar shown for a placeholder value such as ``index_col=...``).
CLI_FLAGS: dict[str, tuple[str, str]] = {
    "drop_empty": ("--drop-empty", ""),
    "split_composite": ("--split-composite", ""),
    "dedupe": ("--dedupe", ""),
    "index_col": ("--index-col", "COL"),
    "long": ("--long", "SYSTEM,TASK,SCORE"),
    "keep_columns": ("--keep-columns", "COL,..."),
    "missing": ("--missing", "POLICY"),
    "min_coverage": ("--min-coverage", "F"),
    "exclude": ("--exclude", "COL,..."),
    "tasks": ("--tasks", "COL,..."),
    "lower_is_better": ("--lower-is-better", "TASK"),
    "higher_is_better": ("--higher-is-better", "TASK"),
    "infer": ("--no-infer", ""),
    "sep": ("--sep", "SEP"),
    "orient": ("--orient", "ORIENT"),
    "format": ("--input-format", "FORMAT"),
    "time_limit": ("--time-limit", "S"),
    "scored_tasks_only": ("--all-tasks", ""),
    "top": ("--top", "N"),
    "metric": ("--metric", "M"),
    "split": ("--split", "NAME"),
    "subsets": ("--subsets", "NAME,..."),
    "revision": ("--revision", "MODEL=REV"),
    "include_groups": ("--include-groups", ""),
    "latest": ("--latest", ""),
    "group": ("--table", "GROUP"),
    "table": ("--table", "GROUP/TABLE"),
}

#: Options whose flag says False (``infer=False`` is ``--no-infer``).
_FLAG_MEANS_FALSE = frozenset({"scored_tasks_only", "infer"})


class Hinted(str):
    """Text in the API's wording (the ``str`` itself) that also knows its command-line wording.

    Made by :func:`option`, :func:`named`, :func:`call` and :func:`hinted`; ``+`` with
    another text keeps both wordings (other ``str`` methods give the API wording alone).

    Attributes
    ----------
    cli : str
        The same text with every option as its command-line flag.

    Examples
    --------
    >>> text = "2 systems have no score; " + hinted("pass {}", option("drop_empty", True))
    >>> str(text), text.cli
    ('2 systems have no score; pass drop_empty=True', '2 systems have no score; pass --drop-empty')
    """

    cli: str

    def __new__(cls, api: str, cli: str | None = None) -> Hinted:
        obj = super().__new__(cls, api)
        obj.cli = str(api) if cli is None else str(cli)
        return obj

    def __add__(self, other: str) -> Hinted:  # type: ignore[override]
        return Hinted(str.__add__(self, other), self.cli + cli_of(other))

    def __radd__(self, other: str) -> Hinted:
        return Hinted(str(other) + str.__str__(self), cli_of(other) + self.cli)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Hinted, (str.__str__(self), self.cli))


def cli_of(text: object) -> str:
    """The command-line wording of `text`: its ``.cli`` for a :class:`Hinted`, else ``str(text)``.

    Parameters
    ----------
    text : object

    Returns
    -------
    str

    Examples
    --------
    >>> cli_of(option("min_coverage", 0)), cli_of("no option here")
    ('--min-coverage 0', 'no option here')
    """
    return text.cli if isinstance(text, Hinted) else str(text)


def _csv(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def option(name: str, *values: object, placeholder: str | None = None) -> Hinted:
    """An option with its value, as ``name=value`` and as the flag (:data:`CLI_FLAGS`).

    Parameters
    ----------
    name : str
        The API option.
    *values : object
        Its value; none, or ``...``, for a placeholder (``index_col=...``, ``--index-col COL``);
        several for alternatives (``missing='drop_tasks' or 'drop_systems'``).
    placeholder : str, optional
        The placeholder's API text, e.g. ``"(SYSTEM, TASK, SCORE)"`` (default ``...``).

    Returns
    -------
    Hinted
        An option without a flag reads the same in both wordings.

    Examples
    --------
    >>> for hint in (option("drop_empty", True), option("index_col"), option("keep_columns", ["Rank", "Score"]),
    ...              option("keep_columns", True), option("missing", "drop_tasks", "drop_systems"),
    ...              option("infer", False), option("long", placeholder="(SYSTEM, TASK, SCORE)"),
    ...              option("rule_options", {"x": 1})):
    ...     print(f"{hint} -> {hint.cli}")
    drop_empty=True -> --drop-empty
    index_col=... -> --index-col COL
    keep_columns=['Rank', 'Score'] -> --keep-columns Rank,Score
    keep_columns=True -> --keep-columns all
    missing='drop_tasks' or 'drop_systems' -> --missing drop_tasks or drop_systems
    infer=False -> --no-infer
    long=(SYSTEM, TASK, SCORE) -> --long SYSTEM,TASK,SCORE
    rule_options={'x': 1} -> rule_options={'x': 1}
    """
    if not values or values == (...,):
        api = f"{name}={placeholder or '...'}"
        if name not in CLI_FLAGS:
            return Hinted(api)
        flag, metavar = CLI_FLAGS[name]
        return Hinted(api, f"{flag} {metavar}" if metavar else flag)
    shown = [repr(v) for v in values]
    api = f"{name}=" + (shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1])
    if name not in CLI_FLAGS:
        return Hinted(api)
    flag, _ = CLI_FLAGS[name]
    if len(values) > 1:
        words = [str(v) for v in values]
        return Hinted(api, f"{flag} " + ", ".join(words[:-1]) + " or " + words[-1])
    value = values[0]
    if name in _FLAG_MEANS_FALSE:
        return Hinted(api, flag if value is False else api)
    if value is True:
        return Hinted(api, flag + (" all" if name == "keep_columns" else ""))
    if value is False or value is None:
        return Hinted(api)
    if isinstance(value, dict):  # revision={model: rev}
        return Hinted(api, " ".join(f"{flag} {shlex.quote(f'{k}={v}')}" for k, v in value.items()))
    return Hinted(api, f"{flag} {shlex.quote(_csv(value))}")


def named(name: str, *, equals: bool = False) -> Hinted:
    """An option's name alone: ``index_col`` (or ``tasks=``) and its flag ``--index-col``.

    Parameters
    ----------
    name : str
    equals : bool, default=False
        Write the API name as ``name=``.

    Returns
    -------
    Hinted

    Examples
    --------
    >>> hinted("unknown task {!r} in {}", "Modle", named("index_col")).cli
    "unknown task 'Modle' in --index-col"
    """
    api = f"{name}=" if equals else name
    return Hinted(api, CLI_FLAGS[name][0] if name in CLI_FLAGS else api)


def call(api: str, cli: str) -> Hinted:
    """A call whose command-line form is another command or flag (``cs.read_format(FILE, 'harness')``
    is ``--from harness``).

    Parameters
    ----------
    api, cli : str
        The two wordings.

    Returns
    -------
    Hinted
    """
    return Hinted(api, cli)


def hinted(template: str, *args: object, **kwargs: object) -> Hinted:
    """``template.format(*args, **kwargs)`` in both wordings: each :class:`Hinted` argument in its own.

    Parameters
    ----------
    template : str
        A ``str.format`` template.
    *args, **kwargs : object
        Its fields; :class:`Hinted` ones are shown in the API wording in the ``str`` and in the
        command-line wording in ``.cli``.

    Returns
    -------
    Hinted

    Examples
    --------
    >>> text = hinted("pass {} or {}", option("long", ("system", "task", "score")), option("index_col"))
    >>> str(text), text.cli
    ("pass long=('system', 'task', 'score') or index_col=...", 'pass --long system,task,score or --index-col COL')
    """
    api = template.format(*(_api(a) for a in args), **{k: _api(v) for k, v in kwargs.items()})
    cli = template.format(*(_cli(a) for a in args), **{k: _cli(v) for k, v in kwargs.items()})
    return Hinted(api, cli)


def _api(value: object) -> object:
    return str.__str__(value) if isinstance(value, Hinted) else value


def _cli(value: object) -> object:
    return value.cli if isinstance(value, Hinted) else value


def join(separator: str, parts: Iterable[object]) -> Hinted:
    """``separator.join(parts)`` in both wordings.

    Parameters
    ----------
    separator : str
    parts : iterable of str or Hinted

    Returns
    -------
    Hinted

    Examples
    --------
    >>> join("; ", ["a", option("dedupe", True)]).cli
    'a; --dedupe'
    """
    parts = list(parts)
    return Hinted(separator.join(str(_api(p)) for p in parts), separator.join(cli_of(p) for p in parts))


#: Characters shown as escapes by :func:`visible`: C0 and C1 controls (a terminal escape sequence
#: starts with one) and the bidirectional formatting characters (U+202E reverses what follows).
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: Unicode categories also shown as escapes: the format characters (Cf: zero width space U+200B,
#: soft hyphen U+00AD, U+FEFF, word joiner U+2060, zero width joiners, tag characters, the bidi
#: ones) and the line and paragraph separators (Zl U+2028, Zp U+2029). Looked up in the running
#: Python's Unicode database, so characters a later Unicode version adds are covered too.
_INVISIBLE = frozenset({"Cf", "Zl", "Zp"})


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """`text` with control, bidirectional and other invisible formatting characters shown as escapes.

    For what a person reads (terminal tables, markdown, HTML, error lines, CSV on a terminal): a
    terminal escape sequence or a U+202E (which reverses the rest of a line) is shown, not
    obeyed, and a name holding a zero width space (U+200B), a soft hyphen (U+00AD), a U+FEFF or
    a line separator (U+2028) does not look like another name (every character of Unicode
    category Cf, Zl or Zp). Data files keep names byte for byte. Tabs and line breaks are
    :func:`one_line`'s.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        `text` itself when it holds none of them.

    Examples
    --------
    >>> print(visible("model-\u202eevil"), visible("\x1b[2Jclear"), visible("gpt\u200b-4\u00ad"))
    model-\\u202eevil \\x1b[2Jclear gpt\\u200b-4\\xad
    """
    if text.isprintable():  # C speed: no control, format or separator character at all
        return text
    text = _CONTROLS.sub(lambda m: _escape(m.group()), text)
    hidden = {ch for ch in set(text) if ch > "\x7f" and unicodedata.category(ch) in _INVISIBLE}
    if not hidden:
        return text
    return re.sub("[" + "".join(map(re.escape, sorted(hidden))) + "]", lambda m: _escape(m.group()), text)
