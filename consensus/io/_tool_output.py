"""Other tools' output recognised where a score table is expected, for an error naming its importer.

A HELM ``groups/<group>.json`` read as a score table, or an lm-evaluation-harness output folder
given as FILE, is not a malformed table: it is a file the importers of :mod:`consensus.formats`
read. :func:`tool_output` says which, from the parsed JSON or from a directory's first levels
(a cheap look: a few names and the first bytes of a few files, never a walk of the whole tree).
Messages name the importer as ``cs.read_format(FILE, 'harness')``, whose command-line wording
is ``--from harness`` (:func:`consensus.hints.call`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..hints import call

__all__ = ["tool_output", "tool_hint"]

#: JSON files whose first bytes are read to recognise an MTEB results folder, and how many bytes.
_PEEK_FILES, _PEEK_BYTES = 5, 2048


def _first(paths: Iterator[Path], n: int = 1) -> list[Path]:
    return [p for p in itertools.islice(paths, n)]


def _json_kind(data: Any) -> tuple[str, str, str] | None:
    """(what it is, the format, FILE or FOLDER) of parsed JSON, or None for anything else."""
    if isinstance(data, dict) and isinstance(data.get("header"), list) and isinstance(data.get("rows"), list):
        return "a HELM leaderboard table (helm-summarize)", "helm-summary", "FILE"
    if (isinstance(data, list) and data and all(isinstance(t, dict) for t in data)
            and all(isinstance(t.get("header"), list) and isinstance(t.get("rows"), list) for t in data)):
        return "a HELM group file of leaderboard tables (helm-summarize)", "helm-summary", "FILE"
    if isinstance(data, dict) and isinstance(data.get("results"), dict) and (
            {"config", "versions", "n-shot", "model_name", "group_subtasks", "higher_is_better"} & set(data)):
        return "lm-evaluation-harness results", "harness", "FILE"
    if isinstance(data, dict) and ("mteb_version" in data or "mteb_dataset_name" in data):
        return "an MTEB task result", "mteb", "FOLDER"
    return None


def _folder_kind(root: Path) -> tuple[str, str, str] | None:
    """(what it is, the format, FOLDER) of a directory, from its first two levels."""
    if (root.name == "groups" and _first(root.glob("*.json"))) or _first(root.glob("groups/*.json")):
        return "HELM's helm-summarize output", "helm-summary", "FOLDER"
    if _first(root.glob("*/stats.json")) and _first(root.glob("*/run_spec.json")):
        return "a HELM suite of runs (helm-run)", "helm", "FOLDER"
    if _first(itertools.chain(root.glob("results_*.json"), root.glob("*/results_*.json"))):
        return "lm-evaluation-harness output", "harness", "FOLDER"
    if _first(itertools.chain(root.glob("*/model_meta.json"), root.glob("*/*/model_meta.json"))):
        return "MTEB results", "mteb", "FOLDER"
    for f in _first(itertools.chain(root.glob("*/*.json"), root.glob("*/*/*.json")), _PEEK_FILES):
        try:
            with open(f, "rb") as fh:
                head = fh.read(_PEEK_BYTES)
        except OSError:
            continue
        if b'"mteb_version"' in head or b'"mteb_dataset_name"' in head:
            return "MTEB results", "mteb", "FOLDER"
    return None


def tool_output(path: str | Path, data: Any = None) -> tuple[str, str, str] | None:
    """What other tool's output `path` is, if any: (what it is, the ``--from`` format, FILE or FOLDER).

    Parameters
    ----------
    path : str or Path
        A directory, or the file `data` was parsed from.
    data : object, optional
        The parsed JSON of a file (for a directory: ignored).

    Returns
    -------
    (str, str, str) or None
        None when it looks like none of them. FOLDER: the importer reads the folder the file
        is in (MTEB), not the file.

    Examples
    --------
    >>> tool_output("groups.json", [{"title": "Accuracy", "header": [], "rows": []}])
    ('a HELM group file of leaderboard tables (helm-summarize)', 'helm-summary', 'FILE')
    >>> tool_output("scores.json", {"qa": {"a": 0.5}}) is None
    True
    """
    root = Path(path)
    if root.is_dir():
        try:
            return _folder_kind(root)
        except OSError:  # an unreadable folder: no guess
            return None
    return _json_kind(data)


def tool_hint(path: str | Path, data: Any = None) -> str:
    """``"; it looks like X: read it with cs.read_format(FILE, 'kind')"``, or "" (see :func:`tool_output`).

    Parameters
    ----------
    path : str or Path
    data : object, optional

    Returns
    -------
    str
        A :class:`~consensus.hints.Hinted` (``--from harness`` on the command line), or "".

    Examples
    --------
    >>> hint = tool_hint("r.json", {"results": {"arc": {"acc,none": 0.5}}, "config": {}})
    >>> print(hint)
    ; it looks like lm-evaluation-harness results: read it with cs.read_format(FILE, 'harness')
    >>> print(hint.cli)
    ; it looks like lm-evaluation-harness results: read it with --from harness
    """
    found = tool_output(path, data)
    if found is None:
        return ""
    what, kind, where = found
    if where == "FILE" or Path(path).is_dir():
        return f"; it looks like {what}: read it with " + call(f"cs.read_format(FILE, {kind!r})", f"--from {kind}")
    return f"; it looks like {what}: read its results folder with " + call(f"cs.read_format(FOLDER, {kind!r})",
                                                                          f"--from {kind}")
