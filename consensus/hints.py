"""Error hints in two wordings: API options (``pass drop_empty=True``) and CLI flags (``--drop-empty``).

Every :class:`~consensus.errors.ConsensusError` message names API options;
:meth:`~consensus.errors.ConsensusError.cli_message` rewrites them with :func:`cli_text`,
using one table, :data:`CLI_FLAGS`.
"""

from __future__ import annotations

import ast
import re
import shlex
import unicodedata

__all__ = ["CLI_FLAGS", "cli_text", "visible"]


def _csv(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


#: API option -> (CLI flag, metavar shown for a placeholder value such as ``index_col=...``).
#: ``name=True`` becomes the bare flag, ``name='x'`` / ``name=['a', 'b']`` / ``name=('a', 'b')``
#: become ``--flag x`` / ``--flag a,b``, ``name='a' or 'b'`` becomes ``--flag a or b``.
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

_QUOTED = r"'[^']*'"
_VALUE = (
    rf"True|False|\.\.\.|{_QUOTED}(?:\s*(?:,|\bor\b|\|)\s*{_QUOTED})*|\[[^\]]*\]|\([^)]*\)"
    r"|-?\d+(?:\.\d+)?(?:e-?\d+)?|[A-Z][A-Z_]*"
)
_HINT = re.compile(rf"(?<![\w.-])({'|'.join(CLI_FLAGS)})=({_VALUE})")
#: "unknown task 'x' in index_col; ...", "unknown task 'x' in tasks=; ..." (the readers' checks of the
#: names an option gives, shared by the CLI)
_CONTEXT = re.compile(r"\bin (index_col|tasks|exclude|keep_columns|lower_is_better|higher_is_better|metric)=?(?=[;,.:)]|$)")
#: "(metric=)": where a choice came from, an option named alone
_OPTION = re.compile(rf"\(({'|'.join(CLI_FLAGS)})=\)")
#: Calls an API message names whose command-line form is another command or ``--from``:
#: ``cs.kemeny(..., determine=True)`` -> ``consensus kemeny --determined`` (never longer than the API
#: wording: a report wraps its lines at 200 characters before the rewrite), ``cs.read_format(FILE, 'harness')``
#: (or ``FOLDER``) -> ``--from harness``, ``cs.read_format(FOLDER, KIND)`` -> ``--from TOOL``.
_CALLS = (
    (re.compile(r"\bcs\.kemeny\(\.\.\., determine=True\)"), "consensus kemeny --determined"),
    (re.compile(r"\bcs\.read_format\((?:FILE|FOLDER), '([\w-]+)'\)"), r"--from \1"),
    (re.compile(r"\bcs\.read_format\((?:FILE|FOLDER), KIND\)"), "--from TOOL"),
)


def _flag_text(name: str, raw: str) -> str | None:
    flag, metavar = CLI_FLAGS[name]
    if name in ("scored_tasks_only", "infer"):
        return flag if raw == "False" else None
    if raw == "True":
        return flag + (" all" if name == "keep_columns" else "")
    if raw == "False":
        return None
    if raw == "..." or re.fullmatch(r"[A-Z][A-Z_]*|\((?:[A-Z_]+(?:,\s*)?)+\)", raw):
        return f"{flag} {metavar}" if metavar else flag
    pieces = re.split(r"(\s*(?:\bor\b|\|)\s*)", raw)
    if len(pieces) > 1 and raw.startswith("'"):  # 'a', 'b' or 'c'  /  'csv'|'tsv'
        return flag + " " + "".join(p.replace("'", "") for p in pieces)
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return None
    return flag + " " + shlex.quote(_csv(value))


def cli_text(message: str) -> str:
    """`message` with its API option hints as CLI flags (see :meth:`~consensus.errors.ConsensusError.cli_message`).

    Parameters
    ----------
    message : str
        An error message in API wording.

    Returns
    -------
    str
        The message with each ``name=value`` of :data:`CLI_FLAGS` replaced by the flag.

    Examples
    --------
    >>> cli_text("pass long=('system', 'task', 'score') or index_col=...; pass keep_columns=True")
    'pass --long system,task,score or --index-col COL; pass --keep-columns all'
    >>> cli_text("unknown task 'Modle' in index_col; did you mean 'Model'?")
    "unknown task 'Modle' in --index-col; did you mean 'Model'?"
    >>> cli_text("lm-evaluation-harness output: read it with cs.read_format(FILE, 'harness')")
    'lm-evaluation-harness output: read it with --from harness'
    """

    def replace(match: re.Match[str]) -> str:
        text = _flag_text(match.group(1), match.group(2))
        return match.group(0) if text is None else text

    for call, flags in _CALLS:
        message = call.sub(flags, message)
    message = _CONTEXT.sub(lambda m: f"in {CLI_FLAGS[m.group(1)][0]}", message)
    message = _OPTION.sub(lambda m: f"({CLI_FLAGS[m.group(1)][0]})", message)
    return _HINT.sub(replace, message)


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
