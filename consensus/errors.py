"""Exception and warning classes of the package.

Every error is a subclass of :class:`ConsensusError` and also of the builtin
``ValueError`` (bad input) or ``RuntimeError`` (a solve that failed), and
carries the offending labels as attributes, so callers can react precisely and
the command line can print one clear line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from .hints import Hinted, cli_of, hinted, named, option
from .io._problems import grouped_problems, one_line

__all__ = [
    "ConsensusError", "LeaderboardError", "DuplicateLabelError", "EmptyLabelError", "NonNumericScoreError",
    "CompositeScoreError", "NonFiniteScoreError", "InvalidWeightError", "UnknownSystemError", "UnknownTaskError",
    "EmptySystemError", "TooFewSystemsError", "NoTaskError", "MissingScoreError", "InvalidOptionError",
    "SolveFailedError", "SolverNotAvailableError", "UnknownSolverError", "DegenerateTaskWarning",
    "NonPositiveScoreError", "ScoreOverflowError", "DuplicateInstanceError", "EmptyTaskError", "LeaderboardErrors",
    "LongFormatError", "InputTooLargeError", "MissingStandardErrorError", "MAX_PROBLEMS", "raise_problems",
]


def _shown(labels: Sequence[object], limit: int = 3) -> str:
    """``'a', 'b', 'c', ...`` for the first `limit` labels."""
    text = ", ".join(repr(x) for x in labels[:limit])
    return text + (", ..." if len(labels) > limit else "")


class ConsensusError(Exception):
    """Root of every error raised by the package.

    The message names API options (``pass drop_empty=True``); :meth:`cli_message` gives the
    same text with each option replaced by its command-line flag (``pass --drop-empty``).

    Examples
    --------
    >>> err = ConsensusError(hinted("2 systems have no score; pass {} or {}", option("drop_empty", True),
    ...                              option("missing", "impute")))
    >>> print(err)
    2 systems have no score; pass drop_empty=True or missing='impute'
    >>> err.cli_message()
    '2 systems have no score; pass --drop-empty or --missing impute'
    """

    def cli_message(self) -> str:
        """The message in the command line's wording: every option it names as its flag.

        Returns
        -------
        str
            The command-line wording the message was built with (a
            :class:`~consensus.hints.Hinted`: ``split_composite=True`` -> ``--split-composite``,
            ``index_col=...`` -> ``--index-col COL``), else ``str(self)``.

        Examples
        --------
        >>> CompositeScoreError("glue", ["a"], "93.9/91.8").cli_message()  # doctest: +ELLIPSIS
        "task 'glue' has composite cell(s) ... pass --split-composite to split the task ..."
        """
        message = self.args[0] if len(self.args) == 1 else None
        return message.cli if isinstance(message, Hinted) else str(self)


class LeaderboardError(ConsensusError, ValueError):
    """The scores cannot form a valid Leaderboard."""


class InvalidOptionError(ConsensusError, ValueError):
    """An option value is not allowed (unknown rule, negative delta, ...)."""


class DuplicateLabelError(LeaderboardError):
    """The same system or task name appears more than once.

    Parameters
    ----------
    kind : str
        ``"system"`` or ``"task"`` (the hint differs).
    labels : sequence of str
        The duplicated names (kept as the attribute ``labels``; up to 10 shown).
    detail : str, default=""
        Appended after the names, e.g. which original names collided after whitespace
        normalization.

    Examples
    --------
    >>> str(DuplicateLabelError("task", ["qa"]))
    "duplicate task name(s): 'qa'; rename the columns"
    """

    def __init__(self, kind: str, labels: Sequence[str], *, detail: str = "") -> None:
        self.kind, self.labels = kind, tuple(labels)
        hint = (
            hinted("; rename them or pass {} (renames them NAME_1, NAME_2, ...)", option("dedupe", True))
            if kind == "system"
            else "; rename the columns"
        )
        super().__init__(f"duplicate {kind} name(s): {_shown(self.labels, 10)}" + detail + hint)


class EmptyLabelError(LeaderboardError):
    """A system or task name is empty (or NaN).

    Parameters
    ----------
    kind : str
        ``"system"`` or ``"task"``.
    position : int
        Where the empty name is, 0-based (attribute ``position``); the message shows it
        1-based.
    where : str, default=""
        Shown after the position, e.g. ``" (line 67 of 'glue.csv')"``.
    hint : str, default=""
        How to fix it; default ``"give every system a name"``. A :class:`~consensus.hints.Hinted`
        hint keeps its command-line wording.

    Examples
    --------
    >>> str(EmptyLabelError("system", 1))
    'system at position 2 has an empty name; give every system a name'
    """

    def __init__(self, kind: str, position: int, *, where: str = "", hint: str = "") -> None:
        self.kind, self.position, self.where = kind, position, where
        self.hint = hint or f"give every {kind} a name"
        self.group_key = ("empty name", kind, self.hint)  # grouped with its like (consensus.io._problems)
        super().__init__(f"{kind} at position {position + 1}{where} has an empty name; " + self.hint)


class NonNumericScoreError(LeaderboardError):
    """A cell holds text that is not a number (and is not a missing marker).

    Parameters
    ----------
    task : str
        The column (attribute ``task``).
    systems : sequence of str
        The systems with non-numeric cells (attribute ``systems``; up to 3 shown).
    sample : object
        One offending cell value (attribute ``sample``).
    where : str, default=""
        Shown after the task, e.g. ``" (column 3; lines 4, 9)"``.
    text_column : bool, default=False
        No cell of the column is a number: the message says it holds text.
    kind : str, optional
        What the cells are instead of numbers (``"booleans"``, ``"dates"``, ...), for
        values pandas would otherwise convert to numbers (True -> 1.0).

    Examples
    --------
    >>> str(NonNumericScoreError("nli", ["b"], "81%"))  # doctest: +ELLIPSIS
    "task 'nli' has non-numeric scores for system(s) 'b' (e.g. '81%'); fix the cells, ..."
    >>> str(NonNumericScoreError("nli", ["b"], True, kind="booleans"))  # doctest: +ELLIPSIS
    "task 'nli' has booleans, not scores, for system(s) 'b' (e.g. True); ..."
    """

    def __init__(
        self,
        task: str,
        systems: Sequence[str],
        sample: object,
        *,
        where: str = "",
        text_column: bool = False,
        kind: str | None = None,
    ) -> None:
        self.task, self.systems, self.sample = task, tuple(systems), sample
        if kind is not None:
            text = (
                f"task {task!r}{where} has {kind}, not scores, for system(s) {_shown(self.systems)} "
                f"(e.g. {sample!r}); convert them to numbers explicitly if they are scores, or "
            )
        elif text_column:
            text = f"task {task!r}{where} holds text, not scores (e.g. {sample!r}); "
        else:
            text = (
                f"task {task!r}{where} has non-numeric scores for system(s) {_shown(self.systems)} "
                f"(e.g. {sample!r}); fix the cells, convert the column with pd.to_numeric, or "
            )
        super().__init__(text + hinted("pass {} if it is not a task", option("exclude", [task])))


class CompositeScoreError(NonNumericScoreError):
    """A cell holds two metrics such as ``"93.9/91.8"``.

    The message suggests ``split_composite=True``.

    Parameters
    ----------
    task : str
        The column (attribute ``task``).
    systems : sequence of str
        The systems with composite cells (attribute ``systems``; up to 3 shown).
    sample : object
        One composite cell (attribute ``sample``).
    where : str, default=""
        Shown after the task, e.g. ``" (column 3; lines 4, 9)"``.
    """

    def __init__(self, task: str, systems: Sequence[str], sample: object, *, where: str = "") -> None:
        self.task, self.systems, self.sample = task, tuple(systems), sample
        LeaderboardError.__init__(
            self,
            hinted(
                "task {!r}{} has composite cell(s) for system(s) {} (e.g. {!r}); pass {} to split the task into "
                "{!r} and {!r}", task, where, _shown(self.systems), sample, option("split_composite", True),
                task + "[1]", task + "[2]",
            ),
        )


class NonFiniteScoreError(LeaderboardError):
    """A score is +inf or -inf.

    Parameters
    ----------
    task : str
        The column (attribute ``task``).
    systems : sequence of str
        The systems with infinite scores (attribute ``systems``; up to 3 shown).
    value : float
        One infinite value (attribute ``value``).
    """

    def __init__(self, task: str, systems: Sequence[str], value: float) -> None:
        self.task, self.systems, self.value = task, tuple(systems), value
        super().__init__(
            f"task {task!r} has infinite score(s) ({value}) for system(s) {_shown(self.systems)}; "
            "use NaN for a missing score"
        )


class InvalidWeightError(LeaderboardError):
    """A task weight is negative, non-finite or all weights are zero.

    Parameters
    ----------
    message : str
        The full message.
    task : str, optional
        The task whose weight is bad (attribute ``task``); None when no single task is
        to blame.
    """

    def __init__(self, message: str, task: str | None = None) -> None:
        self.task = task
        super().__init__(message)


#: Options an unknown name may have been given in, named as such: ``unknown task 'x' in index_col``
#: (``in --index-col`` on the command line).
_NAMED_IN = frozenset({"index_col", "tasks", "exclude", "keep_columns", "lower_is_better", "higher_is_better", "metric"})


def _context(context: str) -> str:
    """Where a name was given, as a hint when it is an option of :data:`_NAMED_IN` (``"tasks="`` ->
    ``tasks=``, ``--tasks``); other text (or a :class:`~consensus.hints.Hinted`) as it is."""
    if isinstance(context, Hinted):
        return context
    context = str(context)
    name = context[:-1] if context.endswith("=") else context
    return named(name, equals=name != context) if name in _NAMED_IN else context


class _UnknownLabelError(ConsensusError, ValueError):
    kind = "label"

    def __init__(self, label: object, valid: Iterable[str], context: str = "") -> None:
        valid = list(valid)
        self.label, self.valid = label, tuple(valid)
        close = difflib.get_close_matches(str(label), valid, n=3, cutoff=0.5)
        hint = f"; did you mean {_shown(close)}?" if close else f"; known {self.kind}s: {_shown(valid, 8)}"
        where = " in " + _context(context) if context else ""
        super().__init__(f"unknown {self.kind} {label!r}" + where + hint)


class UnknownSystemError(_UnknownLabelError):
    """A system name that is not a row of the leaderboard.

    The message suggests up to three close names, or lists up to eight known ones.

    Parameters
    ----------
    label : object
        The unknown name (attribute ``label``).
    valid : iterable of str
        The known systems (attribute ``valid``, a tuple).
    context : str, default=""
        Where the name was given (``"the ranking"``, ...), shown after ``in``.

    Examples
    --------
    >>> str(UnknownSystemError("sys-x", ["sys-a", "sys-b"], "the ranking"))
    "unknown system 'sys-x' in the ranking; did you mean 'sys-b', 'sys-a'?"
    """

    kind = "system"


class UnknownTaskError(_UnknownLabelError):
    """A task name that is not a column of the leaderboard.

    The message suggests up to three close names, or lists up to eight known ones.

    Parameters
    ----------
    label : object
        The unknown name (attribute ``label``).
    valid : iterable of str
        The known tasks (attribute ``valid``, a tuple).
    context : str, default=""
        The option where the name was given (``"gamma"``, ``"fixed"``, ``"tasks="``, ...): a
        reading option (``index_col``, ``tasks``, ``exclude``, ``keep_columns``,
        ``lower_is_better``, ``higher_is_better``, ``metric``, with or without ``=``) is named
        by its flag on the command line (``in --tasks``); a :class:`~consensus.hints.Hinted`
        keeps its own wordings.

    Examples
    --------
    >>> str(UnknownTaskError("zz", ["qa", "nli"]))
    "unknown task 'zz'; known tasks: 'qa', 'nli'"
    >>> UnknownTaskError("nl", ["qa", "nli"], "tasks=").cli_message()
    "unknown task 'nl' in --tasks; did you mean 'nli'?"
    """

    kind = "task"


class EmptySystemError(LeaderboardError):
    """A system has no score at all.

    Parameters
    ----------
    systems : sequence of str
        The systems without scores (attribute ``systems``; up to 10 shown).
    """

    def __init__(self, systems: Sequence[str]) -> None:
        self.systems = tuple(systems)
        super().__init__(
            hinted("system(s) {} have no score on any task; remove them or pass {}", _shown(self.systems, 10),
                   option("drop_empty", True))
        )


class TooFewSystemsError(LeaderboardError):
    """Fewer than two systems: nothing to rank.

    Parameters
    ----------
    n_systems : int
        How many systems there are (attribute ``n_systems``).
    """

    def __init__(self, n_systems: int) -> None:
        self.n_systems = n_systems
        super().__init__(f"a leaderboard needs at least 2 systems, got {n_systems}")


class NoTaskError(LeaderboardError):
    """No task column at all.

    Parameters
    ----------
    detail : str, default=""
        Why, appended to the message in parentheses.
    """

    def __init__(self, detail: str = "") -> None:
        super().__init__("a leaderboard needs at least 1 task" + (" (" + detail + ")" if detail else ""))


class MissingScoreError(ConsensusError, ValueError):
    """A rule that cannot use missing scores got some, and no policy was given.

    Parameters
    ----------
    rule : str
        The rule (attribute ``rule``).
    cells : sequence of (str, str)
        The missing (system, task) cells (attribute ``cells``; up to 3 shown).
    policies : sequence of str, default=("impute", "drop_tasks", "drop_systems")
        The ``missing=`` policies the rule accepts, suggested in the message (attribute
        ``policies``).

    Examples
    --------
    >>> str(MissingScoreError("mean", [("a", "qa")], ("drop_tasks", "drop_systems")))
    "rule 'mean' needs complete scores but 1 cell(s) are missing: ('a', 'qa'); pass missing='drop_tasks' or 'drop_systems'"
    """

    def __init__(
        self,
        rule: str,
        cells: Sequence[tuple[str, str]],
        policies: Sequence[str] = ("impute", "drop_tasks", "drop_systems"),
    ) -> None:
        self.rule, self.cells, self.policies = rule, tuple(cells), tuple(policies)
        shown = ", ".join(f"({s!r}, {t!r})" for s, t in self.cells[:3])
        more = ", ..." if len(self.cells) > 3 else ""
        super().__init__(
            f"rule {rule!r} needs complete scores but {len(self.cells)} cell(s) are missing: {shown}{more}; pass "
            + option("missing", *self.policies)
        )


class SolverNotAvailableError(ConsensusError, RuntimeError):
    """The solver named by ``solver=`` cannot run here; the message says how to get it and lists
    the solvers available here (attributes ``solver`` and ``available``, a tuple)."""

    def __init__(self, message: str, *, solver: object = None, available: Sequence[str] = ()) -> None:
        self.solver, self.available = solver, tuple(available)
        super().__init__(message)


class UnknownSolverError(SolverNotAvailableError, InvalidOptionError):
    """The ``solver=`` value names no solver at all (a typo, or not a string)."""


class SolveFailedError(ConsensusError, RuntimeError):
    """An optimization solver stopped without a usable answer."""


class InputTooLargeError(ConsensusError, MemoryError):
    """The input needs more memory than this machine has; the message says how much it needs,
    how much is available and what size would fit (checked before allocating)."""


class DegenerateTaskWarning(UserWarning):
    """Every scored system ties on a task, so the task cannot discriminate."""


class NonPositiveScoreError(ConsensusError, ValueError):
    """A rule that needs positive scores (the geometric mean) got a zero or negative one.

    Parameters
    ----------
    rule : str
        The rule (attribute ``rule``).
    task : str
        The task (attribute ``task``).
    systems : sequence of str
        The systems with a score <= 0 on it (attribute ``systems``; up to 3 shown).
    value : float
        One such score (attribute ``value``).
    """

    def __init__(self, rule: str, task: str, systems: Sequence[str], value: float) -> None:
        self.rule, self.task, self.systems, self.value = rule, task, tuple(systems), value
        super().__init__(
            f"rule {rule!r} needs positive scores but task {task!r} has {value!r} for system(s) "
            f"{_shown(self.systems)}; shift or rescale the task, or use rule 'mean'"
        )


class ScoreOverflowError(ConsensusError, ValueError):
    """A rule's scores do not fit in float64 (beyond about 1.8e308), so it cannot rank.

    Weights are rescaled internally (every rule is scale-free in them) and means are taken
    on rescaled scores, so this is raised only when a score itself is out of range, e.g. an
    optimality gap of 3.4e308 on a task spanning -1.7e308 to 1.7e308.

    Parameters
    ----------
    rule : str
        The rule (attribute ``rule``).
    systems : sequence of str
        The systems whose scores overflow (attribute ``systems``; up to 3 shown).
    task : str, optional
        The task to blame, when one is (attribute ``task``).
    """

    def __init__(self, rule: str, systems: Sequence[str], task: str | None = None) -> None:
        self.rule, self.systems, self.task = rule, tuple(systems), task
        where = f" (task {task!r} spans nearly the whole float64 range)" if task is not None else ""
        fix = f"divide task {task!r} by a power of ten" if task is not None else "rescale the scores"
        super().__init__(
            f"rule {rule!r}: the score(s) of system(s) {_shown(self.systems)} overflow float64{where}; "
            f"{fix} (rankings are unchanged by rescaling a task)"
        )


class DuplicateInstanceError(LeaderboardError):
    """The same instance id appears twice for one system on one task (instance-level scores).

    Parameters
    ----------
    system : str or None
        The system (attribute ``system``); None when the task's own list of instance ids
        repeats an id.
    task : str
        The task (attribute ``task``).
    instances : sequence
        The repeated instance ids (attribute ``instances``; up to 5 shown).
    files : sequence of str, default=()
        The file(s) holding the repeated rows, when read from files (attribute ``files``):
        two files, or one file holding both rows.
    """

    def __init__(self, system: str | None, task: str, instances: Sequence[object], files: Sequence[str] = ()) -> None:
        self.system, self.task, self.instances = system, task, tuple(instances)
        self.files = tuple(files)
        if system is None:
            message = f"task {task!r} lists instance id(s) {_shown(self.instances, 5)} more than once; ids must be unique"
        else:
            where = ""
            if len(set(self.files)) == 1:
                where = f" (twice in file {self.files[0]!r})"
            elif self.files:
                where = f" (in files {self.files[0]!r} and {self.files[1]!r})"
            message = (
                f"system {system!r} has more than one score for instance(s) {_shown(self.instances, 5)} "
                f"of task {task!r}{where}; keep one row per (system, task, instance)"
            )
        super().__init__(message)


class EmptyTaskError(LeaderboardError):
    """A task (or one of its instances) has no score for any system.

    Parameters
    ----------
    task : str
        The task (attribute ``task``).
    instances : sequence, default=()
        The instances without any score (attribute ``instances``); empty when the whole
        task has none.
    """

    def __init__(self, task: str, instances: Sequence[object] = ()) -> None:
        self.task, self.instances = task, tuple(instances)
        if self.instances:
            message = (
                f"task {task!r}: instance(s) {_shown(self.instances, 5)} have no score for any system; "
                "drop those instances"
            )
        else:
            message = f"task {task!r} has no score for any system; drop the task"
        super().__init__(message)


class MissingStandardErrorError(LeaderboardError):
    """A significance test needs a standard error where none was given.

    Parameters
    ----------
    cells : sequence of (str, str)
        The scored (system, task) cells without a standard error (attribute ``cells``; empty
        when the leaderboard has none at all).
    message : str
    """

    def __init__(self, cells: Sequence[tuple[str, str]], message: str) -> None:
        self.cells = tuple(cells)
        super().__init__(message)


class LongFormatError(LeaderboardError):
    """A long table (one row per system-task pair) was read as wide.

    Parameters
    ----------
    system, task, score : str
        The likely columns (attributes of the same names).

    Examples
    --------
    >>> LongFormatError("model", "dataset", "value").cli_message()  # doctest: +ELLIPSIS
    "this looks like long format ... pass --long model,dataset,value"
    """

    def __init__(self, system: str, task: str, score: str) -> None:
        self.system, self.task, self.score = system, task, score
        super().__init__(
            f"this looks like long format (one row per system and task: systems repeat in column "
            f"{system!r}, task names in {task!r}, scores in {score!r}); pass " + option("long", (system, task, score))
        )


#: At most this many problems are listed by :class:`LeaderboardErrors`.
MAX_PROBLEMS = 20


class LeaderboardErrors(LeaderboardError):
    """Several problems found in one pass over a table, reported together (so one run tells
    the user everything to fix), identical ones grouped (:func:`consensus.io._problems.grouped_problems`):
    a line per kind, up to :data:`MAX_PROBLEMS`; one kind of problem is its line alone.

    Parameters
    ----------
    problems : sequence of ConsensusError
        The problems (attribute ``problems``, a tuple, at most :data:`MAX_PROBLEMS`).
    n_found : int, optional
        How many were found in all (attribute ``n_found``; default ``len(problems)``).

    Examples
    --------
    >>> err = LeaderboardErrors([EmptyLabelError("system", 0), DuplicateLabelError("task", ["qa"])])
    >>> print(err)
    2 problems in the scores:
      1. system at position 1 has an empty name; give every system a name
      2. duplicate task name(s): 'qa'; rename the columns
    """

    def __init__(self, problems: Sequence[ConsensusError], n_found: int | None = None) -> None:
        self.problems = tuple(problems)[:MAX_PROBLEMS]
        self.n_found = len(problems) if n_found is None else n_found
        grouped = grouped_problems(problems)
        self.summary = grouped[:MAX_PROBLEMS]
        self._one_kind = len(grouped) == 1 and self.n_found == len(problems)
        if self._one_kind:  # one kind of problem: its grouped line
            super().__init__(self.summary[0])
            return
        lines = [f"{self.n_found} problems in the scores:"] + [f"  {k}. {t}" for k, t in enumerate(self.summary, 1)]
        more = len(grouped) - len(self.summary) + self.n_found - len(problems)
        super().__init__("\n".join(lines + ([f"  ... and {more} more"] if more else [])))

    def cli_message(self) -> str:
        """One CLI line of at most 300 characters.

        Returns
        -------
        str
            The grouped line of one kind of problem, else :func:`consensus.io._problems.one_line`.
        """
        return cli_of(self.summary[0]) if self._one_kind else one_line(self.summary, self.n_found)


def raise_problems(problems: Sequence[ConsensusError]) -> None:
    """Raise the problems found: nothing if none, the problem itself if one, else :class:`LeaderboardErrors`.

    Parameters
    ----------
    problems : sequence of ConsensusError
        In the order found.

    Raises
    ------
    ConsensusError
        The single problem, or a :class:`LeaderboardErrors` of them all.

    Examples
    --------
    >>> raise_problems([])
    >>> try:
    ...     raise_problems([TooFewSystemsError(1)])
    ... except TooFewSystemsError as err:
    ...     print(err)
    a leaderboard needs at least 2 systems, got 1
    """
    if not problems:
        return
    if len(problems) == 1:
        raise problems[0]
    raise LeaderboardErrors(problems, len(problems))
