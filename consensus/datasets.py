"""Built-in example leaderboards and the seeded synthetic generator.

- ``votenrank-toy``: the 4-system, 5-task toy leaderboard of Rofin et al. 2023
  (Vote'n'Rank), appendix A.1, Table 6. The paper gives per-task rankings only; the
  scores 4, 3, 2, 1 (higher is better) reproduce them.
- ``colombo-table1``: the 3-system, 6-task example of Colombo et al. 2022, Table 1.
  The ranks printed in parentheses give rank 1 to the *smallest* score, and only with
  lower-is-better on every task do the paper's statements hold together: the mean
  ranks A > B > C (A has the smallest sum), Borda ranks C > B > A (rank sums 11 < 12 <
  13), and the pairwise comparisons give B > A, C > B and A = C (3 tasks each). So this
  example is loaded with ``lower_is_better`` = all tasks.
- ``gumbel``: the synthetic model of Colombo et al. 2022, sec. 4.1: the score of system
  ``n`` (1-based) on every task is an independent Gumbel(loc = phi * n, scale = 1) draw,
  so the ground truth ranks ``s{N}`` first and ``s1`` last; phi = 0 is pure noise.

Published leaderboards, as Vote'n'Rank (Rofin et al., EACL 2023, sec. 3.1, Table 2 and the
case studies) defines them (``list_examples(leaderboards=True)``):

- ``votenrank-glue``, ``votenrank-superglue``, ``votenrank-value``: the GLUE, SuperGLUE
  and VALUE leaderboards as the authors captured them (gluebenchmark.com/leaderboard,
  super.gluebenchmark.com/leaderboard, value-benchmark.github.io), shipped unmodified
  (byte for byte: ``consensus/data/votenrank_{glue,superglue,value}.csv`` are the files
  ``tables/leaderboards - GLUE.csv`` etc. of github.com/PragmaticsLab/vote_and_rank,
  commit 74e3d97; ``votenrank_sources.csv`` records the origin and git blob hash of each).
  The loaders apply the authors' preprocessing (``votenrank/data_processing.py``), each
  step recorded in :attr:`Leaderboard.notes`:

  - the bookkeeping columns (GLUE/SuperGLUE: ``Rank``, ``Name``, ``URL``, ``Score``; VALUE:
    ``Mean-Rank``, ``Meta-Ave``) are not tasks; ``"-"`` is a missing score;
  - composite cells ``"a/b"`` (GLUE: MRPC, STS-B, QQP; SuperGLUE: CB, MultiRC, ReCoRD,
    AX-g) become two tasks ``X_n1``, ``X_n2`` of weight 0.5 each (the authors' names);
  - the diagnostic sets do not count: weight 0 for GLUE's ``AX`` and SuperGLUE's ``AX-b``,
    ``AX-g_n1``, ``AX-g_n2`` (every rule of the package ignores a task of weight 0: the
    rankings equal those without the task, which the tests check for every rule);
  - repeated system names get the suffixes ``_1``, ``_2``, ... in row order (GLUE:
    RefBERT, force_SEM), over the whole table, before the head is taken;
  - GLUE keeps the first 30 rows (``head=30``), SuperGLUE all 24; both then drop the
    systems with a missing score (``dropna``, as the paper's rankings and Table 2 do:
    SuperGLUE loses "Outside Best" and "Snorkel [SuperGLUE v1.9]", leaving 22);
  - VALUE keeps its 7 systems with their missing scores, renamed as the authors do
    (``Human``, ``craig.starr``, ``DuKG``, ``HERO 1`` .. ``HERO 4``).
"""

from __future__ import annotations

import numbers
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd

from .arguments import check_count, check_flag, check_rng_seed
from .board._leaderboard import Leaderboard
from .errors import DegenerateTaskWarning, InvalidOptionError

__all__ = [
    "Example",
    "list_examples",
    "load_example",
    "votenrank_toy",
    "colombo_table1",
    "gumbel_leaderboard",
    "votenrank_glue",
    "votenrank_superglue",
    "votenrank_value",
]


def _read_csv(name: str) -> pd.DataFrame:
    with resources.files("consensus").joinpath("data", name).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, index_col=0)


def _read_text_csv(name: str) -> pd.DataFrame:
    """A published table as text cells (``"93.9/91.8"``, ``"-"`` and ``""`` kept as written)."""
    with resources.files("consensus").joinpath("data", name).open(  # type: ignore[call-overload]  # stub gap: Traversable.open passes newline on to open()
        "r", encoding="utf-8", newline=""
    ) as fh:
        return pd.read_csv(fh, dtype=str, keep_default_na=False)


def votenrank_toy() -> Leaderboard:
    """Rofin et al. 2023, appendix A.1, Table 6 (higher is better).

    Returns
    -------
    Leaderboard
        Systems A-D x tasks t1-t5, scores 4, 3, 2, 1 reproducing the paper's per-task
        rankings; B is the Condorcet winner.

    Examples
    --------
    >>> votenrank_toy().scores
        t1   t2   t3   t4   t5
    A  4.0  4.0  1.0  1.0  1.0
    B  3.0  1.0  4.0  3.0  3.0
    C  2.0  3.0  2.0  4.0  2.0
    D  1.0  2.0  3.0  2.0  4.0
    """
    frame = _read_csv("votenrank_toy.csv")
    frame.index.name = None
    return Leaderboard.from_frame(frame, infer=False)


def colombo_table1() -> Leaderboard:
    """Colombo et al. 2022, Table 1 (lower is better on every task, see the module notes).

    Returns
    -------
    Leaderboard
        Systems A, B, C x tasks Task1-Task6, every task lower-is-better.

    Examples
    --------
    >>> lb = colombo_table1()
    >>> lb.systems, lb.n_tasks
    (('A', 'B', 'C'), 6)
    """
    frame = _read_csv("colombo_table1.csv")
    frame.index.name = None
    return Leaderboard.from_frame(frame, lower_is_better=list(frame.columns), infer=False)


def gumbel_leaderboard(
    n_systems: int = 20, n_tasks: int = 20, *, phi: float = 0.05, seed: int | None = 0
) -> Leaderboard:
    """A synthetic leaderboard from the Gumbel model of Colombo et al. 2022, sec. 4.1.

    System ``s{n}`` (n = 1..N) scores Gumbel(phi * n, 1) on each task, independently.
    The ground-truth ranking is ``s{N}, ..., s1``.

    Parameters
    ----------
    n_systems : int, default=20
        Number of systems N (at least 2), labelled ``s1`` .. ``s{N}``.
    n_tasks : int, default=20
        Number of tasks (at least 1), labelled ``t1`` .. ``t{T}``.
    phi : float, default=0.05
        Dispersion: the location step between consecutive systems (finite, >= 0; 0 is
        pure noise).
    seed : int or None, default=0
        Seed of ``numpy.random.default_rng``; the same seed gives the same scores.

    Returns
    -------
    Leaderboard
        Complete scores, higher is better, every task weight 1.

    Raises
    ------
    InvalidOptionError
        If `n_systems` < 2, `n_tasks` < 1 (or either is not an integer: ``5.0`` is
        refused), `phi` is not a number, negative or not finite, or `seed` is neither an
        integer >= 0 nor None.

    Examples
    --------
    >>> lb = gumbel_leaderboard(5, 3, phi=1.0, seed=1)
    >>> lb.systems, lb.n_tasks
    (('s1', 's2', 's3', 's4', 's5'), 3)
    """
    n_systems = check_count(n_systems, "n_systems", 2)
    n_tasks = check_count(n_tasks, "n_tasks", 1)
    if isinstance(phi, bool) or not isinstance(phi, numbers.Real) or not np.isfinite(phi) or phi < 0:
        raise InvalidOptionError(f"phi must be a finite number >= 0, got {phi!r}")
    rng = np.random.default_rng(check_rng_seed(seed))
    loc = phi * np.arange(1, n_systems + 1)[:, None]
    scores = rng.gumbel(loc=loc, scale=1.0, size=(int(n_systems), int(n_tasks)))
    frame = pd.DataFrame(
        scores, index=[f"s{i}" for i in range(1, n_systems + 1)], columns=[f"t{j}" for j in range(1, n_tasks + 1)]
    )
    return Leaderboard.from_frame(frame, infer=False)  # generated tasks: nothing to detect


_VOTENRANK_REFERENCE = "Rofin et al. 2023 (Vote'n'Rank, EACL), sec. 3.1 and github.com/PragmaticsLab/vote_and_rank"

#: The authors' short names of the VALUE systems (``votenrank/data_processing.py``), by the
#: start of the published name.
_VALUE_NAMES = (
    ("Human VALUE baseline", "Human"),
    ("craig.starr", "craig.starr"),
    ("DuKG", "DuKG"),
    ("HERO (AT->ST, PT+FT)", "HERO 1"),
    ("HERO (AT->ST, FT-only)", "HERO 2"),
    ("HERO (ST, PT+FT)", "HERO 3"),
    ("HERO (ST, FT-only)", "HERO 4"),
)


def _split_name(task: str) -> str:
    """The authors' name of a split composite task: ``MRPC[1]`` -> ``MRPC_n1``."""
    match = re.fullmatch(r"(.+)\[(\d+)\]", task)
    return f"{match.group(1)}_n{match.group(2)}" if match else task


def _published_board(
    file: str, *, bookkeeping: Sequence[str], zero_weight: Sequence[str], names: str, dropna: bool,
    head: int | None = None, renames: Sequence[tuple[str, str]] = (),
) -> Leaderboard:
    """One of the Vote'n'Rank tables, preprocessed as the authors do (module docstring)."""
    raw = _read_text_csv(file).set_index("Model")
    raw.index.name = None
    notes = [f"source: {file} ({names}), as published by {_VOTENRANK_REFERENCE}"]
    if renames:
        short = []
        for label in raw.index:
            flat = " ".join(str(label).split())
            short.append(next((new for old, new in renames if flat.startswith(old)), flat))
        raw.index = pd.Index(short, dtype=object)
        notes.append("systems renamed as in the Vote'n'Rank code: " + ", ".join(short))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        parsed = Leaderboard.from_frame(
            raw, exclude=list(bookkeeping), split_composite=True, dedupe=True,
            weights=dict.fromkeys(zero_weight, 0.0),
        )
    rename = {t: _split_name(t) for t in parsed.tasks}
    split = list(dict.fromkeys(new.rsplit("_n", 1)[0] for t, new in rename.items() if new != t))
    frame = parsed.scores.rename(columns=rename)
    weights = {rename[t]: float(w) for t, w in parsed.weights.items()}
    zero = [t for t, w in weights.items() if w == 0]
    published = {" ".join(str(label).split()) for label in raw.index}
    deduped = [s for s in parsed.systems if s not in published]  # NAME_1, NAME_2, ...
    notes.append(f"excluded bookkeeping columns {', '.join(bookkeeping)}")
    if split:
        notes.append(f"composite tasks {', '.join(split)} split into X_n1, X_n2 of weight 0.5 each, as in Vote'n'Rank")
    if zero:
        notes.append(f"{', '.join(zero)} weight 0 (diagnostic sets do not count), as in Vote'n'Rank")
    systems = list(frame.index)
    if head is not None:
        systems = systems[:head]
        notes.append(f"kept the first {head} rows (head={head}), as in Vote'n'Rank")
    if dropna:
        dropped = [s for s in systems if frame.loc[s].isna().any()]
        systems = [s for s in systems if s not in dropped]
        if dropped:
            notes.append(f"dropped the systems with a missing score (dropna), as in Vote'n'Rank: {', '.join(dropped)}")
    kept = set(systems)
    notes[1:1] = [  # what from_frame did, unless it only concerned systems left out
        n for n in parsed.notes
        if not n.startswith("split composite") and not (n.startswith("--dedupe") and not kept.intersection(deduped))
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return Leaderboard(frame.loc[systems], weights=weights, notes=notes)


def votenrank_glue(*, head: int | None = 30, dropna: bool = True) -> Leaderboard:
    """The GLUE leaderboard as Vote'n'Rank defines it (Rofin et al. 2023, sec. 3.1, Table 2).

    The first `head` rows of the authors' capture of gluebenchmark.com/leaderboard;
    MRPC, STS-B and QQP split into ``X_n1``, ``X_n2`` (weight 0.5 each), AX weight 0
    (see the module docstring and :attr:`Leaderboard.notes`).

    Parameters
    ----------
    head : int or None, default=30
        Keep the first `head` rows (the paper's 30); None keeps all 100 (97 after `dropna`).
    dropna : bool, default=True
        Drop the systems with a missing score (none among the first 30).

    Returns
    -------
    Leaderboard
        30 systems x 14 tasks by default, scores in percent, higher is better.

    Raises
    ------
    InvalidOptionError
        If `head` is not an integer >= 2 or None, or `dropna` is not a bool.

    Examples
    --------
    >>> lb = votenrank_glue()
    >>> lb.n_systems, lb.tasks[:4], float(lb.weights["MRPC_n1"]), float(lb.weights["AX"])
    (30, ('CoLA', 'SST-2', 'MRPC_n1', 'MRPC_n2'), 0.5, 0.0)
    >>> votenrank_glue(head=None, dropna=False)
    Leaderboard(100 systems x 14 tasks, missing=3)
    """
    if head is not None:
        head = check_count(head, "head", 2)
    return _published_board(
        "votenrank_glue.csv", bookkeeping=("Rank", "Name", "URL", "Score"), zero_weight=("AX",),
        names="GLUE, gluebenchmark.com/leaderboard", head=head, dropna=check_flag(dropna, "dropna"),
    )


def votenrank_superglue(*, dropna: bool = True) -> Leaderboard:
    """The SuperGLUE leaderboard as Vote'n'Rank defines it (Rofin et al. 2023, sec. 3.1, Table 2).

    All rows of the authors' capture of super.gluebenchmark.com/leaderboard; CB, MultiRC,
    ReCoRD and AX-g split into ``X_n1``, ``X_n2`` (weight 0.5 each), AX-b and AX-g weight
    0; the systems with a missing score dropped (see the module docstring).

    Parameters
    ----------
    dropna : bool, default=True
        Drop the systems with a missing score ("Outside Best", "Snorkel [SuperGLUE v1.9]"),
        as the paper's rankings do; False keeps all 24 with their missing scores.

    Returns
    -------
    Leaderboard
        22 systems x 14 tasks by default, scores in percent, higher is better.

    Raises
    ------
    InvalidOptionError
        If `dropna` is not a bool.

    Examples
    --------
    >>> lb = votenrank_superglue()
    >>> lb.n_systems, [t for t in lb.tasks if lb.weights[t] == 0]
    (22, ['AX-b', 'AX-g_n1', 'AX-g_n2'])
    >>> votenrank_superglue(dropna=False).n_systems
    24
    """
    return _published_board(
        "votenrank_superglue.csv", bookkeeping=("Rank", "Name", "URL", "Score"),
        zero_weight=("AX-b", "AX-g"), names="SuperGLUE, super.gluebenchmark.com/leaderboard",
        dropna=check_flag(dropna, "dropna"),
    )


def votenrank_value(*, dropna: bool = False) -> Leaderboard:
    """The VALUE leaderboard as Vote'n'Rank uses it (Rofin et al. 2023, case study 1).

    The 7 systems of the authors' capture of value-benchmark.github.io/leaderboard (11
    tasks; the human baseline has no score on 5 of them), renamed as the authors do.

    Parameters
    ----------
    dropna : bool, default=False
        Drop the systems with a missing score (the human baseline).

    Returns
    -------
    Leaderboard
        7 systems x 11 tasks by default, higher is better.

    Raises
    ------
    InvalidOptionError
        If `dropna` is not a bool.

    Examples
    --------
    >>> lb = votenrank_value()
    >>> lb.systems
    ('Human', 'craig.starr', 'DuKG', 'HERO 1', 'HERO 2', 'HERO 3', 'HERO 4')
    >>> lb
    Leaderboard(7 systems x 11 tasks, missing=5)
    """
    return _published_board(
        "votenrank_value.csv", bookkeeping=("Mean-Rank", "Meta-Ave"), zero_weight=(),
        names="VALUE, value-benchmark.github.io/leaderboard", dropna=check_flag(dropna, "dropna"),
        renames=_VALUE_NAMES,
    )


@dataclass(frozen=True, slots=True)
class Example:
    """A built-in example: its name, where it comes from, and how to load it.

    Attributes
    ----------
    name : str
        The name :func:`load_example` takes (``"votenrank-toy"``, ...).
    description : str
        The source and size, one line.
    loader : callable
        Returns the :class:`Leaderboard`; takes `parameters` as keywords.
    parameters : tuple of str
        Keyword arguments the loader accepts (empty for fixed tables).
    kind : {"example", "leaderboard"}, default="example"
        ``"leaderboard"`` for the published benchmark leaderboards (``votenrank-glue``,
        ...), listed by ``list_examples(leaderboards=True)``.
    """

    name: str
    description: str
    loader: Callable[..., Leaderboard]
    parameters: tuple[str, ...] = ()
    kind: str = "example"


_EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in (
        Example("votenrank-toy", "Rofin et al. 2023 (Vote'n'Rank), appendix A.1, Table 6: 4 systems x 5 tasks", votenrank_toy),
        Example("colombo-table1", "Colombo et al. 2022, Table 1: 3 systems x 6 tasks, lower is better", colombo_table1),
        Example(
            "gumbel",
            "synthetic Gumbel model of Colombo et al. 2022, sec. 4.1 (n, tasks, phi, seed)",
            gumbel_leaderboard,
            ("n_systems", "n_tasks", "phi", "seed"),
        ),
        Example(
            "votenrank-glue",
            "GLUE as in Rofin et al. 2023 (Vote'n'Rank), Table 2: first 30 rows, 30 systems x 14 tasks (head, dropna)",
            votenrank_glue, ("head", "dropna"), "leaderboard",
        ),
        Example(
            "votenrank-superglue",
            "SuperGLUE as in Rofin et al. 2023 (Vote'n'Rank), Table 2: 22 systems x 14 tasks (dropna)",
            votenrank_superglue, ("dropna",), "leaderboard",
        ),
        Example(
            "votenrank-value",
            "VALUE as in Rofin et al. 2023 (Vote'n'Rank), case study 1: 7 systems x 11 tasks, 5 missing (dropna)",
            votenrank_value, ("dropna",), "leaderboard",
        ),
    )
}


def list_examples(*, leaderboards: bool = False) -> list[Example]:
    """The built-in examples, in a fixed order.

    Parameters
    ----------
    leaderboards : bool, default=False
        Also list the published benchmark leaderboards (``votenrank-glue``,
        ``votenrank-superglue``, ``votenrank-value``), after the examples.

    Returns
    -------
    list of Example
        ``votenrank-toy``, ``colombo-table1``, ``gumbel`` (then the leaderboards).

    Raises
    ------
    InvalidOptionError
        If `leaderboards` is not a bool.

    Examples
    --------
    >>> [e.name for e in list_examples()]
    ['votenrank-toy', 'colombo-table1', 'gumbel']
    >>> [e.name for e in list_examples(leaderboards=True)][3:]
    ['votenrank-glue', 'votenrank-superglue', 'votenrank-value']
    """
    everything = check_flag(leaderboards, "leaderboards")
    return [e for e in _EXAMPLES.values() if everything or e.kind == "example"]


def load_example(name: str = "votenrank-toy", **params: Any) -> Leaderboard:
    """Load a built-in example by name; `params` go to the generator (``gumbel`` only).

    Parameters
    ----------
    name : str, default="votenrank-toy"
        One of the names of :func:`list_examples`.
    **params
        Keyword arguments of the example's loader: ``n_systems``, ``n_tasks``, ``phi``,
        ``seed`` for ``gumbel`` (:func:`gumbel_leaderboard`); ``head`` and ``dropna`` for
        ``votenrank-glue`` (:func:`votenrank_glue`), ``dropna`` for ``votenrank-superglue``
        and ``votenrank-value``; the others take none.

    Returns
    -------
    Leaderboard

    Raises
    ------
    InvalidOptionError
        If `name` is unknown, a parameter is not one the example takes, or the generator
        rejects a value.

    Examples
    --------
    >>> load_example("colombo-table1").lower_is_better == frozenset(f"Task{i}" for i in range(1, 7))
    True
    >>> load_example("gumbel", n_systems=3, n_tasks=2, seed=1)
    Leaderboard(3 systems x 2 tasks, missing=0)
    >>> load_example("votenrank-superglue")
    Leaderboard(22 systems x 14 tasks, missing=0)
    """
    try:
        example = _EXAMPLES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise InvalidOptionError(
            f"unknown example {name!r}; choose one of {', '.join(repr(k) for k in _EXAMPLES)}"
        ) from None
    unknown = set(params) - set(example.parameters)
    if unknown:
        raise InvalidOptionError(
            f"example {name!r} takes no parameter(s) {', '.join(sorted(unknown))}"
            + (f"; it takes {', '.join(example.parameters)}" if example.parameters else "")
        )
    return example.loader(**params)
