"""Reports: render any finished result as text, markdown, JSON or CSV, without computing anything.

- :func:`render` is the one entry point. Text and markdown come from the result's sections
  (:func:`consensus.report.sections.sections`, one registration per result type); CSV from
  its main table (:func:`~consensus.report.sections.csv_text`); JSON is the result's own
  ``to_dict()`` inside a small envelope (:func:`document`), so the Python API and the CLI
  share one schema (``docs/cli.md``).
- The analysis behind ``consensus analyze`` is computed by :func:`consensus.analyze`
  (:mod:`consensus.comparison._analysis`); this package only renders it.
"""

from __future__ import annotations

import json
from typing import Any

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..results import Analysis, collect_infinities, jsonable
from . import comparison as _comparison  # noqa: F401  (registers the RuleComparison report)
from . import html as _html  # noqa: F401  (registers Analysis.to_html)
from . import noise as _noise  # noqa: F401  (registers the SignificanceResult report)
from . import resampling as _resampling  # noqa: F401  (registers ExperimentResult and StabilityResult reports)
from . import sensitivity as _sensitivity  # noqa: F401  (registers the SensitivityResult report)
from . import summary as _summary  # noqa: F401  (registers the Analysis report)
from .blocks import DEFAULT_TOP, cli_blocks, render_markdown, render_text
from .coverage import coverage_warnings
from .sections import csv_text, leaderboard_sections, sections

__all__ = ["DEFAULT_TOP", "FORMATS", "SCHEMA_VERSION", "render", "document", "sections", "csv_text"]

#: Output formats of :func:`render`.
FORMATS: tuple[str, ...] = ("table", "markdown", "json", "csv")

#: Version of the JSON documents (``"schema_version"``); bumped on incompatible changes.
#: 2: ``result`` is the result's ``to_dict()`` (one schema for the API and the CLI).
SCHEMA_VERSION = 3

#: The ``command`` of a JSON document when the caller names none.
def _result_dict(obj: Any) -> Any:
    if obj is None:
        return None
    if isinstance(obj, tuple):
        return {getattr(item, "json_key", "") or type(item).__name__: _result_dict(item) for item in obj}
    if not hasattr(obj, "to_dict"):
        raise InvalidOptionError(f"cannot render a {type(obj).__name__}")
    return obj.to_dict()


def document(
    obj: Any, *, command: str | None = None, table: Leaderboard | None = None, source: str = ""
) -> dict[str, Any]:
    """The JSON document of `obj`: ``schema_version``, ``command``, ``input`` and ``result``.

    Parameters
    ----------
    obj : result object, tuple of results, Leaderboard or None
        ``result`` is ``obj.to_dict()`` (a tuple: one key per element, e.g. ``imputation``
        and ``confidence``); a Leaderboard alone, or None, gives ``result: null``.
    command : str, optional
        The command that produced it; by default derived from the result type (of the
        first element of a tuple; ``"read"`` for a Leaderboard, ``""`` for an unknown type).
    table : Leaderboard, optional
        Fills ``input`` (:meth:`Leaderboard.to_dict`); an :class:`Analysis` brings its own.
    source : str, default=""
        Where the scores came from (a path or ``example:NAME``); an :class:`Analysis`
        uses its own ``source`` when this is empty.

    Returns
    -------
    dict
        Plain JSON-able values (:func:`~consensus.results.jsonable`); ``input`` only when a
        leaderboard is known.

    Examples
    --------
    >>> import consensus as cs
    >>> doc = document(cs.kemeny(cs.load_example("votenrank-toy")))
    >>> doc["schema_version"], doc["command"], doc["result"]["order"]
    (3, 'kemeny', ['B', 'C', 'D', 'A'])
    """
    if isinstance(obj, Analysis):
        table, source = obj.leaderboard, source or obj.source
    if isinstance(obj, Leaderboard):
        table, obj = obj, None
        command = command or "read"
    first = obj[0] if isinstance(obj, tuple) else obj
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "command": command or getattr(first, "json_command", "")}
    if table is not None:
        doc["input"] = table.to_dict(source=source)
    with collect_infinities() as infinite:
        doc["result"] = _result_dict(obj)
        doc = jsonable(doc)
    if infinite:  # JSON has no infinity: written as null, and said where
        doc["non_finite"] = {f"result.{path}" if path else "result": text for path, text in infinite}
    return doc


def render(
    obj: Any,
    *,
    format: str = "table",
    table: Leaderboard | None = None,
    source: str = "",
    command: str | None = None,
    top: int | None = DEFAULT_TOP,
) -> str:
    """Render any result of the package in `format` (``table``, ``markdown``, ``json``, ``csv``).

    Parameters
    ----------
    obj : result object, Leaderboard, or tuple of results
        :class:`Analysis`, :class:`RuleComparison`, :class:`MajoritySummary`,
        :class:`RuleResult`, :class:`KemenyResult`, :class:`CondorcetWeightsResult`,
        :class:`ProspectiveResult`, :class:`ImputationResult`, :class:`PairwiseConfidence`
        or a :class:`Leaderboard`; a tuple renders its elements in turn (CSV: the last).
    format : {"table", "markdown", "json", "csv"}, default="table"
        ``table``: aligned plain text; ``markdown``; ``json``: the :func:`document`,
        indented, NaN as null; ``csv``: the main table (:func:`csv_text`).
    table : Leaderboard, optional
        The scores `obj` was computed on. JSON: fills the ``input`` object; ``table`` and
        ``markdown``: winners, a Kemeny top or prospective systems scored on less than half
        of the task weight are named in warnings first (:mod:`consensus.report.coverage`).
    source : str, default=""
        Where the scores came from; titles the scores section and fills ``input.source``.
    command : str, optional
        The command line's subcommand: JSON's ``command`` field (default: derived from the
        result type); for ``table`` and ``markdown``, option hints as flags and no coverage
        warnings in the text (the command line prints them on stderr).
    top : int or None, default=10
        ``table`` and ``markdown``: rows of each table (systems, edges, pairs), then
        ``... and N more``; 0 or None shows every row. JSON and CSV keep every row.

    Returns
    -------
    str
        Ends with a newline.

    Raises
    ------
    InvalidOptionError
        If `format` is unknown, `table` is not a Leaderboard, or (``table``, ``markdown``,
        ``csv``) no sections or CSV table are registered for the type of `obj`.

    Examples
    --------
    >>> import consensus as cs
    >>> print(render(cs.rank(cs.load_example("votenrank-toy"), "borda"), format="csv"), end="")
    position,tier,system,score
    1,1,B,9.0
    2,2,C,8.0
    3,3,D,7.0
    4,4,A,6.0
    """
    if format not in FORMATS:
        raise InvalidOptionError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    if table is not None and not isinstance(table, Leaderboard):
        raise InvalidOptionError(f"table must be the Leaderboard `obj` was computed on, got {type(table).__name__}")
    if format == "json":
        doc = document(obj, command=command, table=table, source=source)
        return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if format == "csv":
        return csv_text(obj)
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 0):
        raise InvalidOptionError(f"top must be an integer >= 0 (0: every row), got {top!r}")
    if isinstance(obj, Leaderboard):
        blocks = leaderboard_sections(obj, source, top)
    elif command is None:  # a winner resting on a barely evaluated system is said first
        blocks = [*coverage_warnings(obj, table), *sections(obj, top=top)]
    else:  # the command line prints those warnings on stderr (consensus.cli.output.warn_coverage)
        blocks = list(sections(obj, top=top))
    blocks = _with_reading(blocks, obj, table)
    if command is not None:  # the command line's reports name its flags (min_coverage=0 -> --min-coverage 0)
        blocks = cli_blocks(blocks)
    return render_text(blocks) if format == "table" else render_markdown(blocks)


def _with_reading(blocks: list[Any], obj: Any, table: Leaderboard | None) -> list[Any]:
    """`blocks` with how the scores were read first (after a title), when the reading step decided
    anything (a column set aside, a direction inferred, a check skipped)."""
    from .blocks import Heading, Lines

    lb = obj if isinstance(obj, Leaderboard) else obj.leaderboard if isinstance(obj, Analysis) else table
    if lb is None:
        return blocks
    reading = lb.reading
    if not reading.decisions() and not reading.skipped:
        return blocks
    block = [Heading("How the scores were read"), Lines(tuple(reading.lines(limit=20)))]  # render() shows hints as flags for the CLI
    title = 1 if blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1 else 0
    return [*blocks[:title], *block, *blocks[title:]]
