"""Importers for the result files other evaluation tools write.

Each importer reads one tool's files as they are written and returns a
:class:`~consensus.Leaderboard` (or :class:`~consensus.InstanceScores`), with the package's
rule: nothing is dropped or coerced silently. Every choice (the metric, the split, averaged
subsets, skipped standard errors and perturbations, where a model name comes from) is stated in
the leaderboard's :attr:`~consensus.Leaderboard.notes`, and an error names the file, line,
field, system, task or metric at fault. Directions come from the files where they declare them,
from :func:`~consensus.formats.metrics.metric_direction` for well-known metrics, and otherwise
from the user (``higher_is_better=[...]`` / ``lower_is_better=[...]``); an unknown direction is
an error, never a guess.

=================================  ===========================================================
module                             reads
=================================  ===========================================================
:mod:`.metrics`                    directions of well-known metric names
                                   (:func:`~consensus.formats.metrics.metric_direction`)
:mod:`.harness`                    lm-evaluation-harness: ``results_*.json``
                                   (:func:`read_harness_results`) and ``--log_samples``
                                   ``samples_<task>_<timestamp>.jsonl``
                                   (:func:`read_harness_samples`, instance level)
:mod:`.helm`                       HELM ``benchmark_output/runs/<suite>/`` run directories
                                   (``run_spec.json`` + ``stats.json``, :func:`read_helm`)
:mod:`.helm_summary`               HELM's leaderboard tables, ``groups/<group>.json`` of
                                   ``helm-summarize`` (:func:`read_helm_summary`)
:mod:`.mteb`                       MTEB ``results/<model>/<revision>/<Task>.json``
                                   (:func:`read_mteb`)
:mod:`.model_dir`                  one file per model, ``{task: score}`` JSON or a task,score
                                   CSV (:func:`read_model_dir`)
:mod:`.preflib`                    PrefLib ``.soc/.soi/.toc/.toi`` elections, read and written
                                   (:func:`read_preflib`, :func:`write_preflib`)
:mod:`.pref_voting`                pref_voting ``Profile`` / ``ProfileWithTies`` both ways
                                   (:func:`to_pref_voting`, :func:`from_pref_voting`; the
                                   optional ``prefvoting`` extra)
:mod:`.records`, :mod:`.files`,    shared: metric choice and leaderboard building, JSON
:mod:`.errors`                     reading, the importers' errors
=================================  ===========================================================

:func:`read_format` dispatches on a format name (what the command line's ``--from`` takes).
Importing this package is cheap: the importers (and pandas) load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and doc tools see behind the lazy names (equal to _EXPORTS: a test)
    from .errors import DuplicateResultError, FormatError, MetricDirectionError
    from .harness import read_harness_results, read_harness_samples
    from .helm import read_helm
    from .helm_summary import read_helm_summary
    from .metrics import metric_direction
    from .model_dir import read_model_dir
    from .mteb import read_mteb
    from .pref_voting import from_pref_voting, to_pref_voting
    from .preflib import read_preflib, write_preflib

__all__ = [
    "FORMATS",
    "read_format",
    "format_options",
    "read_harness_results",
    "read_harness_samples",
    "read_helm",
    "read_helm_summary",
    "read_mteb",
    "read_model_dir",
    "metric_direction",
    "read_preflib",
    "write_preflib",
    "to_pref_voting",
    "from_pref_voting",
    "FormatError",
    "MetricDirectionError",
    "DuplicateResultError",
]

#: Format name -> ``"module:function"`` of its importer (modules of this package). Importers of
#: rankings (PrefLib, pref_voting) add their entries here.
FORMATS: dict[str, str] = {
    "harness": "harness:read_harness_results",
    "harness-samples": "harness:read_harness_samples",
    "helm": "helm:read_helm",
    "helm-summary": "helm_summary:read_helm_summary",
    "mteb": "mteb:read_mteb",
    "model-dir": "model_dir:read_model_dir",
    "preflib": "preflib:read_preflib",
}

_EXPORTS: dict[str, str] = {
    "read_harness_results": "harness",
    "read_harness_samples": "harness",
    "read_helm": "helm",
    "read_helm_summary": "helm_summary",
    "read_mteb": "mteb",
    "read_model_dir": "model_dir",
    "metric_direction": "metrics",
    "read_preflib": "preflib",
    "write_preflib": "preflib",
    "to_pref_voting": "pref_voting",
    "from_pref_voting": "pref_voting",
    "FormatError": "errors",
    "MetricDirectionError": "errors",
    "DuplicateResultError": "errors",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'consensus.formats' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def format_options(kind: str) -> list[str]:
    """The keyword options the importer of format `kind` takes.

    Parameters
    ----------
    kind : str
        A key of :data:`FORMATS` (underscores and case are accepted).

    Returns
    -------
    list of str
        In the importer's order.

    Raises
    ------
    InvalidOptionError
        `kind` is not a known format (the message lists them).

    Examples
    --------
    >>> format_options("helm-summary")
    ['group', 'table', 'tasks', 'exclude', 'keep_columns', 'higher_is_better', 'lower_is_better']
    """
    import inspect

    from ..errors import InvalidOptionError

    key = str(kind).strip().lower().replace("_", "-")
    if key not in FORMATS:
        raise InvalidOptionError(f"unknown format {kind!r}; known formats: {', '.join(FORMATS)}")
    module, function = FORMATS[key].split(":")
    reader = getattr(importlib.import_module(f".{module}", __name__), function)
    return [p.name for p in inspect.signature(reader).parameters.values() if p.kind is p.KEYWORD_ONLY]


def read_format(path: Any, kind: str, **options: Any) -> Any:
    """Read another tool's result files with the importer of format `kind`.

    Parameters
    ----------
    path : str, Path or list of them
        What the importer reads (a directory, a file, a glob or a list of files).
    kind : str
        A key of :data:`FORMATS`: ``"harness"``, ``"harness-samples"``, ``"helm"``,
        ``"helm-summary"``, ``"mteb"``, ``"model-dir"`` (underscores and case are accepted: ``"model_dir"``).
    **options
        The importer's keyword options (``metric=``, ``split=``, ``higher_is_better=``, ...).

    Returns
    -------
    Leaderboard or InstanceScores
        What the importer returns (``"harness-samples"`` gives instance-level scores).

    Raises
    ------
    InvalidOptionError
        `kind` is not a known format (the message lists them), or an option is not one the
        importer takes (naming it and the importer's options).
    LeaderboardError
        Whatever the importer raises (:class:`FormatError`, ...).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for model, score in (("a", 0.5), ("b", 0.7)):
    ...     _ = open(os.path.join(folder, model + ".json"), "w").write('{"qa": %s}' % score)
    >>> read_format(folder, "model-dir", metric="accuracy").scores
        qa
    a  0.5
    b  0.7
    """
    from ..errors import InvalidOptionError

    key = str(kind).strip().lower().replace("_", "-")
    accepted = format_options(key)
    module, function = FORMATS[key].split(":")
    reader = getattr(importlib.import_module(f".{module}", __name__), function)
    unknown = [name for name in options if name not in accepted]
    if unknown:
        raise InvalidOptionError(
            f"format {key!r} takes no option {unknown[0]!r}; its options are {', '.join(accepted)}"
        )
    return reader(path, **options)
