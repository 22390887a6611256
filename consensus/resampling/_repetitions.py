"""Repetitions of a random experiment: one seed each, run here or on a Dask cluster, same table.

Every resampling study and experiment of the package (:mod:`consensus.resampling._stability`,
:mod:`consensus.experiments`) is a list of independent repetitions. This module gives each
repetition its own seed, ``numpy.random.SeedSequence(seed).spawn(n)[r]``, so that repetition
``r`` draws the same numbers wherever it runs, and runs them:

- ``scheduler=None``: one after another in this process (no extra dependency);
- ``scheduler="processes"``: on a local Dask cluster (``n_jobs`` worker processes, all cores
  by default, one thread each; the ``dask`` extra), started and closed by the call;
- a ``distributed.Client``, or the address of a running scheduler (``"tcp://host:port"``): on
  that cluster (the workers need this package installed).

Results come back in repetition order, so a table built from them is the same value for value
whichever scheduler ran it (the solvers run single-threaded inside a repetition, see
:data:`SOLVER_THREADS`, so their choices do not depend on the machine's cores either).

Examples
--------
>>> seeds = spawn_seeds(0, 3)
>>> [int(s.generate_state(1)[0]) for s in seeds] == [int(s.generate_state(1)[0]) for s in spawn_seeds(0, 3)]
True
>>> run_repetitions(abs, [-1, 2, -3])
[1, 2, 3]
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from .._docstrings import fill_doc
from ..arguments import check_count, check_seed
from ..errors import InvalidOptionError

__all__ = ["SOLVER_THREADS", "check_progress", "check_scheduler", "run_repetitions", "spawn_seeds"]

T = TypeVar("T")

#: Solver threads inside one repetition: 1, so that repetitions running side by side on a
#: cluster do not oversubscribe the cores, and a repetition gives the same answer everywhere.
SOLVER_THREADS = 1

#: Batches per worker: repetitions are sent in batches (fewer round trips than one task per
#: repetition), enough of them for the progress bar to move and the load to balance.
_BATCHES_PER_WORKER = 8

#: Docstring entries of the options every repeated study passes on to :func:`run_repetitions`
#: (:func:`consensus._docstrings.fill_doc`), one per parameter, and ``repetition_options``, the
#: three in a row: :mod:`consensus.experiments` and
#: :func:`consensus.resampling._stability.rank_stability` document them with these texts.
REPETITION_DOCS: dict[str, str] = {
    "scheduler": (
        'scheduler : None, "processes", str or distributed.Client, default=None\n'
        "    Where to run: in this process, on a local Dask cluster, or on a cluster given by client or\n"
        "    address (:mod:`consensus.resampling._repetitions`); the results are the same."
    ),
    "n_jobs": 'n_jobs : int, optional\n    Worker processes for ``scheduler="processes"`` (default: all cores).',
    "progress": (
        "progress : callable, optional\n"
        "    Called as ``progress(done, total)`` as repetitions finish (after each one in this\n"
        "    process, after each batch on a cluster)."
    ),
}
REPETITION_DOCS["repetition_options"] = "\n".join(REPETITION_DOCS[k] for k in ("scheduler", "n_jobs", "progress"))


def spawn_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """One independent seed per repetition: ``SeedSequence(seed).spawn(n)``.

    Parameters
    ----------
    seed : int
        The master seed (an integer >= 0).
    n : int
        Number of repetitions (>= 1).

    Returns
    -------
    list of numpy.random.SeedSequence
        Repetition ``r`` gets the ``r``-th child, whatever runs it.

    Raises
    ------
    InvalidOptionError
        If `seed` is not an integer >= 0 or `n` not an integer >= 1.

    Examples
    --------
    >>> rng = np.random.default_rng(spawn_seeds(0, 2)[1])
    >>> round(float(rng.random()), 6) == round(float(np.random.default_rng(spawn_seeds(0, 5)[1]).random()), 6)
    True
    """
    master = check_seed(seed, "seed", allow_none=False)
    count = check_count(n, "repetitions", 1)
    return np.random.SeedSequence(master).spawn(count)


@fill_doc(REPETITION_DOCS)
def check_scheduler(scheduler: object, n_jobs: object = None) -> None:
    """Refuse a scheduler or worker count this module cannot run, before any work starts.

    Parameters
    ----------
    scheduler : None, "processes", str or distributed.Client
        As in :func:`run_repetitions`.
    {n_jobs}

    Raises
    ------
    InvalidOptionError
        If `scheduler` is none of the accepted kinds, or `n_jobs` is given with another
        scheduler or is not an integer >= 1.

    Examples
    --------
    >>> check_scheduler(None)
    >>> check_scheduler("threads")
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: scheduler must be None (in this process), 'processes' (a local Dask cluster), a scheduler address 'tcp://host:port' or a distributed.Client, got 'threads'
    """
    if n_jobs is not None:
        check_count(n_jobs, "n_jobs", 1)
        if scheduler != "processes":
            raise InvalidOptionError(f"n_jobs sets the worker processes of scheduler='processes', got scheduler={scheduler!r}")
    if scheduler is None or scheduler == "processes":
        return
    if isinstance(scheduler, str) and "://" in scheduler:
        return
    if type(scheduler).__name__ == "Client" and hasattr(scheduler, "map"):
        return
    raise InvalidOptionError(
        "scheduler must be None (in this process), 'processes' (a local Dask cluster), a scheduler address "
        f"'tcp://host:port' or a distributed.Client, got {scheduler!r}"
    )


def check_progress(progress: object) -> None:
    """Refuse a `progress` that is neither None nor callable.

    Parameters
    ----------
    progress : callable or None
        Called as ``progress(done, total)``.

    Raises
    ------
    InvalidOptionError
        If `progress` is not callable.

    Examples
    --------
    >>> check_progress(print)
    """
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress must be None or a callable progress(done, total), got {progress!r}")


def _run_batch(fn: Callable[[Any], T], batch: list[Any]) -> list[T]:
    return [fn(p) for p in batch]


def _client(scheduler: object, n_jobs: int | None) -> tuple[Any, list[Any]]:
    """The Dask client to use and what to close afterwards."""
    try:
        import distributed
    except ImportError as exc:
        raise InvalidOptionError(
            f"scheduler={scheduler!r} needs Dask's distributed: pip install 'leaderboard-consensus[dask]'"
        ) from exc
    if scheduler == "processes":
        workers = n_jobs or os.cpu_count() or 1
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=SOLVER_THREADS, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,  # a free port: never clash with a running dashboard
        )
        client = distributed.Client(cluster)
        return client, [client, cluster]
    if isinstance(scheduler, str):
        try:
            client = distributed.Client(scheduler, timeout="10s")
        except OSError as exc:
            raise InvalidOptionError(f"no Dask scheduler answered at {scheduler!r}: {exc}") from exc
        return client, [client]
    return scheduler, []


@fill_doc(REPETITION_DOCS)
def run_repetitions(
    fn: Callable[[Any], T],
    payloads: Sequence[Any],
    *,
    scheduler: object = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[T]:
    """Apply `fn` to every payload, here or on a Dask cluster; results in payload order.

    Parameters
    ----------
    fn : callable
        A module-level function (a cluster pickles it by name) of one payload.
    payloads : sequence
        One per repetition (picklable for a cluster), each carrying its own seed.
    {repetition_options}

    Returns
    -------
    list
        ``[fn(p) for p in payloads]``.

    Raises
    ------
    InvalidOptionError
        If the scheduler is not accepted (:func:`check_scheduler`), Dask's distributed is
        not installed for a cluster, or no scheduler answers at the address.

    Examples
    --------
    >>> seen = []
    >>> run_repetitions(str, [1, 2], progress=lambda done, total: seen.append((done, total)))
    ['1', '2']
    >>> seen
    [(1, 2), (2, 2)]
    """
    check_scheduler(scheduler, n_jobs)
    check_progress(progress)
    items = list(payloads)
    total = len(items)
    if scheduler is None:
        out = []
        for k, p in enumerate(items):
            out.append(fn(p))
            if progress is not None:
                progress(k + 1, total)
        return out
    client, to_close = _client(scheduler, n_jobs)
    try:
        import distributed

        workers = max(1, len(client.scheduler_info().get("workers", {})) or (n_jobs or 1))
        size = max(1, -(-total // (workers * _BATCHES_PER_WORKER)))
        batches = [items[i : i + size] for i in range(0, total, size)]
        futures = client.map(_run_batch, [fn] * len(batches), batches, pure=False)
        index = {f.key: k for k, f in enumerate(futures)}
        results: list[list[T] | None] = [None] * len(batches)
        done = 0
        for future in distributed.as_completed(futures):
            k = index[future.key]
            results[k] = future.result()
            done += len(batches[k])
            if progress is not None:
                progress(done, total)
        return [r for batch in results for r in batch]  # type: ignore[union-attr]
    finally:
        for thing in to_close:
            thing.close()
