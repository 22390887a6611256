"""The reading step: what each column of a leaderboard file is, decided once and stated.

Exports carry more than task scores: the leaderboard's own average, a rank, the same
benchmark on two scales, model sizes and dates, standard errors, and metrics where lower is
better. :meth:`consensus.Leaderboard.from_frame` (and so every reader and importer) runs
this step on the columns it reads and records each decision in a :class:`ReadingSummary`
(:attr:`consensus.Leaderboard.reading`; ``consensus inspect FILE`` on the command line).
Every decision names the option that reverses it. ``infer=False`` (``--no-infer``) reads the
table exactly as given: every column a task, every task higher-is-better unless named in
``lower_is_better``.

The rules, in the order they apply (a column named in ``tasks=``, ``lower_is_better=``,
``higher_is_better=``, ``weights=``, ``groups=`` or ``keep_columns=`` is always a task):

1. **By name** (the name lower-cased, parenthesized qualifiers and everything but letters,
   digits and ``#`` removed, compared whole, so that a task called ``date_understanding``
   is not a date):

   - *rank or aggregate*: :data:`consensus.io._bookkeeping.BOOKKEEPING_NAMES` and
     :data:`AGGREGATE_NAMES` (``Average (56 datasets)``, ``Mean win rate``, ``Rank
     (Borda)``); AlpacaEval's ``win rate`` and ``LC win rate`` are tasks;
   - *not performance* (:data:`METADATA_NAMES`): sizes and parameter counts, dates,
     licences, likes and downloads, precision, type and architecture, links, counts of
     evaluated items (HELM's ``# eval``, ``# train``, ...), output-length statistics;
   - *standard error*: ``<task>_stderr``, ``<task> stderr``, ``Std. error``, ``<task> (standard error)``:
     kept as the standard error of the task it names (or of the column to its left) in
     :attr:`ReadingSummary.stderr`, never a task.

2. **By type**: a column with no numeric cell (names, URLs, dates, booleans as text) is
   not performance.
3. **By values** (only columns that parse as numbers; skipped beyond
   :data:`MAX_FIT_COLUMNS` columns for the fit, see below):

   - *rank*: integer ranks 1, 2, 3, ... in row order (:mod:`consensus.io._bookkeeping`);
   - *duplicate*: two columns that order the systems alike (no pair of systems in opposite
     order on the rows both score, at least 5 such rows with 3 distinct values) and are
     affinely related within the print rounding, or, on at least 10 rows, with a correlation
     of at least 0.99 (a 0-100 score clipped at the random baseline beside its raw 0-1 twin):
     the first in column order is kept;
   - *aggregate*: a column equal, within the file's print rounding, to the mean or sum of
     two or more other columns (after duplicates are set aside, so a benchmark on two
     scales does not hide the average), on every row where they are all scored; or to their
     non-negative weighted sum (a non-negative least-squares fit on the complete rows) when
     there are at least three times as many rows as columns in the fit. A fit with fewer
     rows is weak evidence (a genuine task often fits a mix of many others on few rows): the
     column is kept and the summary says that it looks like an aggregate, with the option
     that drops it.

4. **Directions** (:func:`consensus.formats.metrics.column_direction`): a column named
   like a lower-is-better metric (time, latency, memory, cost, error, loss, perplexity,
   ECE, WER, MAE, toxicity, ...) is read as lower-is-better, stated with the word that
   decided it; anything else stays higher-is-better.

The fit is quadratic in the columns it uses; beyond :data:`MAX_FIT_COLUMNS` numeric columns
only the row-mean test (linear) and the duplicate test (one correlation matrix) run, and beyond
:data:`MAX_DUPLICATE_COLUMNS` only the row-mean test; the summary says what was skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..formats.metrics import column_direction
from ..hints import Hinted, cli_of, hinted, option
from ._bookkeeping import BOOKKEEPING_NAMES, bookkeeping_key
from ._cells import MISSING_MARKERS

__all__ = [
    "AGGREGATE_NAMES",
    "METADATA_NAMES",
    "MAX_FIT_COLUMNS",
    "MAX_DUPLICATE_COLUMNS",
    "excluded_note",
    "ColumnReading",
    "ReadingSummary",
    "column_key",
    "role_by_name",
    "stderr_target",
    "is_text_column",
    "fit_names",
]

Role = Literal["task", "aggregate", "rank", "duplicate", "metadata", "stderr", "excluded"]

#: Aggregate names (as :func:`column_key` reduces them) besides the bookkeeping ones.
AGGREGATE_NAMES: frozenset[str] = frozenset(
    {
        "meanwinrate", "avgwinrate", "averagewinrate", "winratemean", "overallwinrate",
        "averageaccuracy", "avgaccuracy", "meanaccuracy", "overallaccuracy", "averageperformance",
        "overallperformance", "globalaverage", "globalscore", "compositescore", "normalizedaverage",
        "averagenormalized", "weightedaverage", "weightedscore", "leaderboardscore", "finalrank",
        "bordarank", "borda", "elo", "eloscore", "arenaelo", "averagerankscore",
    }
)

#: Names of columns that describe a system rather than score it (as :func:`column_key` reduces them).
METADATA_NAMES: frozenset[str] = frozenset(
    {
        # size
        "params", "param", "parameters", "#params", "#param", "#parameters", "numparams", "nparams",
        "paramcount", "parametercount", "numberofparameters", "nparameters", "size", "modelsize",
        "sizeb", "paramsb", "parametersb", "activeparams", "activeparameters", "totalparams",
        "embeddingdimensions", "embeddingdimension", "dimensions", "dim", "maxtokens",
        "contextlength", "contextwindow", "maxcontext", "sequencelength",
        # dates and versions
        "date", "submissiondate", "uploaddate", "releasedate", "release", "created", "createdat",
        "lastmodified", "updated", "updatedat", "timestamp", "year", "version", "revision", "sha",
        "modelsha", "commit",
        # provenance, licence, popularity
        "license", "licence", "hublicense", "likes", "hublikes", "hub", "downloads", "stars",
        "organization", "organisation", "org", "team", "author", "authors", "submitter", "creator",
        "url", "link", "links", "modellink", "modelurl", "paper", "paperurl", "website",
        "co2cost", "co2costkg", "co2", "carbon",
        # kind of model
        "type", "modeltype", "architecture", "weighttype", "basemodel", "family",
        "availableonthehub", "flagged", "merged", "moe", "official", "openweights", "opensource",
        "chattemplate", "finetuned", "trainingdata",
        # counts of what was evaluated (HELM's general information columns)
        "#eval", "#train", "#trials", "#prompttokens", "#outputtokens", "#instances", "#samples",
        "truncated", "numinstances", "numsamples", "numexamples",
        # descriptive statistics of outputs (GEM-like exports)
        "length", "avglength", "meanlength", "outputlength", "averagelength", "vocabsize",
        "vocabularysize", "msttr", "ttr",
    }
)

#: Beyond this many numeric columns the aggregate fit is skipped (only the row-mean test runs).
MAX_FIT_COLUMNS = 60
#: Beyond this many numeric columns the duplicate screen is skipped: it holds one correlation
#: matrix of the columns (5,000 columns: 200 MB; 50,000 would be 20 GB).
MAX_DUPLICATE_COLUMNS = 5000

_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_STDERR_WORDS = re.compile(
    r"(?:^|[\s_\-.(\[,])(?:stderr|std[\s_.\-]*err(?:or)?|standard[\s_\-]+error)(?:$|[\s_\-.)\],])",
    re.IGNORECASE,
)


def column_key(name: str) -> str:
    """A column name reduced for matching: lower case, parenthesized parts and all but letters, digits and ``#`` removed.

    Parameters
    ----------
    name : str

    Returns
    -------
    str
        The key; when the name is only a parenthesized part, the key of its inside.

    Examples
    --------
    >>> column_key("Average (56 datasets)"), column_key("#Params (B)"), column_key("Hub ❤️")
    ('average', '#params', 'hub')
    """
    text = str(name).lower()
    key = bookkeeping_key(_PARENS.sub(" ", text))
    return key if key else bookkeeping_key(text)


def role_by_name(name: str) -> tuple[Role, str] | None:
    """The role a column's name gives it (``rank``/``aggregate``, ``metadata``, ``stderr``), or None for a task.

    Parameters
    ----------
    name : str

    Returns
    -------
    (role, reason) or None

    Examples
    --------
    >>> role_by_name("Mean win rate"), role_by_name("qa_stderr"), role_by_name("date_understanding")
    (('aggregate', 'named like an aggregate'), ('stderr', 'named like a standard error'), None)
    >>> role_by_name("#Params (B)"), role_by_name("win rate")
    (('metadata', 'named like model information'), None)
    """
    key = column_key(name)
    if key in BOOKKEEPING_NAMES or key in AGGREGATE_NAMES:
        rank = key in {"#", "rank", "ranking", "rankings", "position", "pos", "place", "standing", "overallrank",
                       "averagerank", "avgrank", "meanrank", "medianrank", "finalrank", "bordarank"}
        return ("rank", "named like a rank") if rank else ("aggregate", "named like an aggregate")
    if _STDERR_WORDS.search(str(name)):
        return "stderr", "named like a standard error"
    if key in METADATA_NAMES or (key.startswith("#") and len(key) > 1):
        return "metadata", "named like model information"
    return None


def stderr_target(name: str, tasks: Sequence[str], left: str | None) -> str | None:
    """The task a standard-error column belongs to: the task its name is left with once the
    standard-error words are removed, else the column to its left (``Std. error`` after ``qa``).

    Parameters
    ----------
    name : str
        The standard-error column.
    tasks : sequence of str
        The task columns.
    left : str or None
        The task column just left of it in the file.

    Returns
    -------
    str or None

    Examples
    --------
    >>> stderr_target("qa_stderr", ["qa", "nli"], None), stderr_target("Std. error", ["qa", "nli"], "nli")
    ('qa', 'nli')
    """
    rest = _STDERR_WORDS.sub(" ", " " + str(name) + " ")
    key = column_key(rest)
    if key:
        matches = [t for t in tasks if column_key(t) == key]
        if len(matches) == 1:
            return matches[0]
        return None
    return left


def is_text_column(column: pd.Series) -> bool:
    """Whether a raw column holds text and no number at all (names, URLs, dates, ``True``/``False``).

    Parameters
    ----------
    column : pandas.Series
        Raw cells as read (text or numbers).

    Returns
    -------
    bool
        True when at least one cell is not a missing marker and no cell reads as a number.

    Examples
    --------
    >>> is_text_column(pd.Series(["bf16", "float16", "-"])), is_text_column(pd.Series(["0.5", "x"]))
    (True, False)
    """
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
        return False
    seen = False
    for cell in column.to_numpy(dtype=object):  # plain values: no pandas string ops (they copy the frame's attrs)
        if cell is None or (isinstance(cell, float) and cell != cell):
            continue
        if isinstance(cell, (bool, np.bool_)):
            seen = True
            continue
        if isinstance(cell, (int, float, np.integer, np.floating)):
            return False
        text = str(cell).strip()
        if text.lower() in _MISSING:
            continue
        if _NUMBERISH.fullmatch(text):
            return False
        seen = True
    return seen


_MISSING = frozenset(MISSING_MARKERS)
_NUMBERISH = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?|(?i:[-+]?inf(?:inity)?)|\s*[-+\d.eE]*\s*/\s*[-+\d.eE]*\s*")


@dataclass(frozen=True)
class ColumnReading:
    """How one column of the file was read.

    Attributes
    ----------
    column : str
        The column (as normalized).
    role : str
        ``task``, ``aggregate``, ``rank``, ``duplicate``, ``metadata`` (not performance),
        ``stderr`` (a task's standard error) or ``excluded`` (by ``exclude=``).
    reason : str
        Why, in words ("named like an aggregate", "the mean of a, b, c within print rounding").
    direction : {"higher", "lower"} or None
        For tasks: which way is better.
    direction_source : str
        ``"given"``, ``"default"``, or the inference ("named like a time: 'time'").
    of : tuple of str
        The columns an aggregate combines, the column a duplicate repeats, the task of a
        standard error.
    override : (str, str) or None
        The option and value that reverse the decision, e.g. ``("keep_columns", "avg")``.
    note : str
        For tasks kept despite a suspicion (a weak aggregate fit): what was suspected.
    """

    column: str
    role: Role
    reason: str = ""
    direction: str | None = None
    direction_source: str = ""
    of: tuple[str, ...] = ()
    override: tuple[str, str] | None = None
    note: str = ""


def _option(name: str, value: str) -> Hinted:
    """The option that reverses a decision, in both wordings: ``keep_columns=['x']`` (``--keep-columns x``),
    ``infer=False`` (``--no-infer``); see :func:`consensus.hints.option`."""
    return option("infer", False) if name == "infer" else option(name, [value])


def fit_names(names: Sequence[str], width: int) -> str:
    """Names joined by commas, cut to about `width` characters with "... and N more".

    Parameters
    ----------
    names : sequence of str
    width : int
        Characters of names shown (the first name is always shown).

    Returns
    -------
    str

    Examples
    --------
    >>> fit_names(["alpha", "beta", "gamma", "delta"], 14)
    'alpha, beta, ... and 2 more'
    """
    shown: list[str] = []
    used = 0
    for k, name in enumerate(names):
        if shown and used + len(name) + 2 > width:
            return ", ".join(shown) + f", ... and {len(names) - k} more"
        shown.append(name)
        used += len(name) + 2
    return ", ".join(shown)


#: The longest note of :func:`excluded_note` with every reason; a longer one lists roles only.
_NOTE_WIDTH = 180
_ROLE_WORDS = {"aggregate": "aggregate", "duplicate": "duplicate", "rank": "rank", "metadata": "not a score"}


def excluded_note(excluded: Mapping[str, tuple[str, str]]) -> str:
    """The note of the columns set aside, with their reasons and the option that keeps them; past
    :data:`_NOTE_WIDTH` characters, their roles only (aggregates and duplicates first), cut to fit.

    Parameters
    ----------
    excluded : Mapping
        Column -> (role, reason), in column order.

    Returns
    -------
    Hinted
        ``--keep-columns`` on the command line (:func:`consensus.hints.cli_of`).

    Examples
    --------
    >>> note = excluded_note({"Rank": ("rank", "named like a rank")})
    >>> note
    "excluded column(s), not tasks: 'Rank' (named like a rank); pass keep_columns=['Rank'] to keep them"
    >>> note.cli
    "excluded column(s), not tasks: 'Rank' (named like a rank); pass --keep-columns Rank to keep them"
    >>> excluded_note({f"info {k}": ("metadata", "named like model information") for k in range(9)})[31:]
    "'info 0' (not a score), 'info 1' (not a score), ... and 7 more (reasons: the reading summary); pass keep_columns=... to keep them"
    """
    listed = ", ".join(f"{c!r} ({why})" for c, (_, why) in excluded.items())
    note = hinted("excluded column(s), not tasks: {}; pass {} to keep them", listed, option("keep_columns", list(excluded)))
    if len(note) <= _NOTE_WIDTH:
        return note
    roles = list(_ROLE_WORDS)
    order = sorted(excluded.items(), key=lambda item: roles.index(item[1][0]) if item[1][0] in roles else len(roles))
    short = fit_names([f"{c!r} ({_ROLE_WORDS.get(role, role)})" for c, (role, _) in order], 64)
    return hinted("excluded column(s), not tasks: {} (reasons: the reading summary); pass {} to keep them", short,
                  option("keep_columns"))


@dataclass(frozen=True)
class ReadingSummary:
    """How a file's columns were read: one :class:`ColumnReading` per column, in file order.

    Attributes
    ----------
    columns : tuple of ColumnReading
    inferred : bool
        False when read with ``infer=False`` (every column a task as given).
    stderr : pandas.DataFrame or None
        Standard errors of the tasks that have a standard-error column (systems x those
        tasks, NaN where missing), as read.
    skipped : tuple of str
        Checks that did not run, and why (e.g. the aggregate fit on a very wide file).
    stderr_source : str
        Where :attr:`stderr` came from when not from the file's columns
        (:meth:`~consensus.Leaderboard.with_stderr`: an importer's records, ...); empty otherwise.

    Examples
    --------
    >>> import consensus as cs, pandas as pd
    >>> frame = pd.DataFrame({"Average": [3.0, 2.0, 1.0], "qa": [4.0, 2.0, 1.0], "Time (s)": [2.0, 1.0, 3.0]},
    ...                      index=["a", "b", "c"])
    >>> print(cs.Leaderboard.from_frame(frame).reading)
    read 3 columns: 2 tasks, 1 excluded
      Average: excluded, aggregate: named like an aggregate (keep it: keep_columns=['Average'])
      Time (s): lower is better, named like a time: 'time' (reverse: higher_is_better=['Time (s)'])
    """

    columns: tuple[ColumnReading, ...] = ()
    inferred: bool = True
    stderr: pd.DataFrame | None = field(default=None, compare=False)
    skipped: tuple[str, ...] = ()
    stderr_source: str = ""

    @property
    def tasks(self) -> tuple[str, ...]:
        """The columns read as tasks."""
        return tuple(c.column for c in self.columns if c.role == "task")

    @property
    def excluded(self) -> dict[str, ColumnReading]:
        """Column -> its reading, for every column that is not a task."""
        return {c.column: c for c in self.columns if c.role != "task"}

    def decisions(self) -> list[ColumnReading]:
        """The readings worth stating: every column not read as a task, inferred directions, suspicions.

        Returns
        -------
        list of ColumnReading
            In column order; tasks read as given (or higher-is-better by default) are left out.
        """
        return [c for c in self.columns if c.role != "task" or c.direction_source not in ("", "default", "given") or c.note]

    def lines(self, *, cli: bool = False, limit: int | None = None) -> list[str]:
        """The summary as text lines: a headline, then one line per decision.

        Parameters
        ----------
        cli : bool, default False
            Name command-line flags (``--keep-columns X``) instead of API options
            (``keep_columns=['X']``).
        limit : int, optional
            At most this many decision lines, then "... and N more".

        Returns
        -------
        list of str
            A line naming an option is a :class:`~consensus.hints.Hinted` (when `cli` is False).
        """
        n_tasks = len(self.tasks)
        n_out = len(self.columns) - n_tasks
        head = f"read {len(self.columns)} columns: {n_tasks} task{'s' if n_tasks != 1 else ''}"
        if n_out:
            head += f", {n_out} excluded"
        if not self.inferred:
            head += " (as given: every column a task, no direction inferred)"
        out = [head]
        shown = self._grouped()
        for text in shown[: limit if limit is not None else len(shown)]:
            out.append("  " + text)
        if limit is not None and len(shown) > limit:
            out.append(f"  ... and {len(shown) - limit} more")
        out += [f"  note: {s}" for s in self.skipped]
        return [cli_of(line) for line in out] if cli else out

    def _grouped(self) -> list[str]:
        """One line per decision; columns set aside as not scores, excluded as asked, or given the
        same inferred direction for the same reason share one line (names cut to fit)."""
        groups: dict[tuple[str, str], list[ColumnReading]] = {}
        order: list[tuple[str, str] | str] = []  # a group's key, or a line of its own
        for c in self.decisions():
            if c.role in ("metadata", "excluded") or (c.role == "task" and not c.note):
                key = (c.role, c.reason if c.role != "task" else f"{c.direction}|{c.direction_source}")
                if key not in groups:
                    groups[key] = []
                    order.append(key)
                groups[key].append(c)
            else:
                order.append(self.line(c))
        lines = []
        for item in order:
            if isinstance(item, str):
                lines.append(item)
                continue
            role, _ = item
            members = groups[item]
            if len(members) == 1:
                lines.append(self.line(members[0]))
                continue
            first = members[0]  # names cut so that the line, "... and N more" and the flags included, stays under 200
            if role == "task":
                undo = hinted(" (reverse one: {})", option(first.override[0])) if first.override else ""
                head = f"{len(members)} tasks {first.direction} is better, {first.direction_source}: "
            else:
                undo = "" if role == "excluded" else hinted(" (keep one: {})", option("keep_columns"))
                head = "excluded as asked: " if role == "excluded" else f"excluded, not scores: {first.reason}: "
            names = fit_names([c.column for c in members], max(40, min(100, 170 - len(head) - len(undo))))
            lines.append(head + names + undo)
        return lines

    def line(self, c: ColumnReading) -> str:
        """One decision in words, with the option that reverses it.

        Parameters
        ----------
        c : ColumnReading

        Returns
        -------
        str
            E.g. ``"Avg: excluded, aggregate: named like an aggregate (keep it: keep_columns=['Avg'])"``, a
            :class:`~consensus.hints.Hinted` when it names an option (``--keep-columns Avg``).
        """
        undo = ""
        if c.override:
            verb = "keep it" if c.role != "task" else ("drop it" if c.override[0] == "exclude" else "reverse")
            undo = hinted(" ({}: {})", verb, _option(*c.override))
        if c.role == "task":
            text = f"{c.column}: {c.direction} is better, {c.direction_source}" if c.direction_source not in (
                "", "default", "given") else f"{c.column}: task"
            if c.note:
                text += f"; {c.note}"
            return text + undo
        what = {"aggregate": "aggregate", "rank": "rank", "duplicate": "duplicate", "metadata": "not a score"}
        if c.role == "excluded":
            return f"{c.column}: excluded as asked (" + c.reason + ")" if c.reason else f"{c.column}: excluded as asked"
        if c.role == "stderr":
            target = f" of {c.of[0]}" if c.of else " of no task found (ignored)"
            keep = hinted(" (read it as a task: {})", _option(*c.override)) if c.override else ""
            return f"{c.column}: standard error{target}, kept beside the scores, not a task" + keep
        return f"{c.column}: excluded, {what[c.role]}: " + c.reason + undo

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON values.

        Returns
        -------
        dict
            ``inferred``, ``columns`` (one object per column: ``column``, ``role``,
            ``reason``, ``direction``, ``direction_source``, ``of``, ``override`` with its
            ``api`` and ``cli`` wording, ``note``), ``stderr_of`` (task -> its
            standard-error column) and ``skipped``.
        """
        return {
            "inferred": self.inferred,
            "columns": [
                {
                    "column": c.column,
                    "role": c.role,
                    "reason": c.reason,
                    "direction": c.direction,
                    "direction_source": c.direction_source,
                    "of": list(c.of),
                    "override": None if c.override is None else {
                        "option": c.override[0], "value": c.override[1],
                        "api": str(_option(*c.override)), "cli": _option(*c.override).cli},
                    "note": c.note,
                }
                for c in self.columns
            ],
            "stderr_of": {c.of[0]: c.column for c in self.columns if c.role == "stderr" and c.of},
            "skipped": list(self.skipped),
        }


def direction_reading(task: str, *, lower: bool, given: bool, infer: bool) -> tuple[str, str, tuple[str, str] | None, bool]:
    """The direction of a task column: given by the user, inferred from its name, or the default.

    Parameters
    ----------
    task : str
        The column.
    lower : bool
        Whether the user named it lower-is-better.
    given : bool
        Whether the user named its direction at all (``lower_is_better`` / ``higher_is_better``).
    infer : bool
        Whether directions may be inferred from names.

    Returns
    -------
    (str, str, (str, str) or None, bool)
        The direction (``"higher"``/``"lower"``), where it comes from (``"given"``,
        ``"default"`` or the inference in words), the option that reverses an inference,
        and whether the task is lower-is-better.

    Examples
    --------
    >>> direction_reading("Latency (ms)", lower=False, given=False, infer=True)
    ('lower', "named like a time: 'latency'", ('higher_is_better', 'Latency (ms)'), True)
    """
    if given:
        return ("lower" if lower else "higher"), "given", None, lower
    if infer:
        way, why = column_direction(task)
        if way == "lower":
            return "lower", why, ("higher_is_better", task), True
    return "higher", "default", None, False
