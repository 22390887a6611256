"""A rule is declared in one place: the ``@rule`` decorator on its function.

The decorator records what every other part of the package needs to know about a rule, once:
its name and kind and how it treats missing scores (its :class:`~.spec.RuleSpec`), its own
options (read from the function's keyword-only parameters), and whether its score is linear in
the task weights (what :func:`consensus.winning_weights` and the other weight questions
accept) or why not. :data:`consensus.rules.RULES` (and so :func:`consensus.rank`,
``compare``, the CLI's rule lists, :data:`consensus.rules.linear.LINEAR_RULES`) is built from
these declarations; adding a rule is one decorated function in the module of its family.

The decorator also writes the part of the rule's docstring every rule shares: the line
``{shared_options}`` in its ``**options`` entry becomes the list of the shared options of
:func:`consensus.rules.rank` and what ``missing=None``, ``missing="impute"`` and
``significance=`` do for this rule, from its spec (:func:`shared_options_doc`), so that text is
written once and cannot drift from what the pipeline does. The sections several rules share
(a family's parameters, Returns and Raises entries) are written once in :data:`SECTIONS` and
used the same way (a line ``{ties}``); ``@rule(..., doc=...)`` adds a rule's own.

Example (the whole declaration of Borda's count)::

    @rule(_SPECS["borda"], linear=True)
    def borda(data, *, ties="average", **options): ...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .._docstrings import filled
from ..results import RuleResult
from .spec import SHARED_OPTION_NAMES, RuleSpec

__all__ = ["Rule", "rule", "keyword_options", "shared_options_doc", "DECLARED", "SECTIONS", "SHARED_OPTIONS_MARK"]

F = TypeVar("F", bound=Callable[..., RuleResult])


@dataclass(frozen=True)
class Rule:
    """One declared rule.

    Attributes
    ----------
    name : str
        The name :func:`rank`, ``compare`` and the CLI know it by.
    function : callable
        ``function(data, **options) -> RuleResult``.
    options : tuple of str
        The rule's own keyword options (besides the shared ones of :func:`rank`); any other
        name is an :class:`InvalidOptionError` listing these.
    spec : RuleSpec
        How the pipeline treats it (kind, missing scores, pairwise matrices).
    linear : bool
        Its score is a weighted sum of per-task points fixed by the scores, so the task-weight
        questions (``winning_weights``, ``prospective(rule=)``, ``weight_sensitivity``) solve
        it as a linear program.
    not_linear : str
        Why it is not linear (the message those questions give), empty when `linear`.
    any_option : bool
        The options are passed on to another function (``kemeny`` hands them to
        :func:`consensus.kemeny`, whose keyword options are `options`).
    """

    name: str
    function: Callable[..., RuleResult]
    options: tuple[str, ...]
    spec: RuleSpec
    linear: bool = False
    not_linear: str = ""
    any_option: bool = False

    @property
    def accepts_missing(self) -> bool:
        """With ``missing=None``, missing scores are fine: pairs are compared where both are scored."""
        return self.spec.pairwise_missing

    @property
    def imputable(self) -> bool:
        """``missing="impute"`` applies (every rule but the score baselines)."""
        return self.spec.impute

    @property
    def accepts_matrix(self) -> bool:
        """A :class:`PairwiseMatrix` may be passed instead of a leaderboard."""
        return self.spec.accepts_matrix


#: Rule name -> :class:`Rule`, in the order the rule modules declared them (the registry orders them).
DECLARED: dict[str, Rule] = {}


def keyword_options(function: Callable[..., Any]) -> tuple[str, ...]:
    """The keyword-only parameters of `function`: a rule's own options.

    Parameters
    ----------
    function : callable

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> def f(data, *, ties="average", vector=None, **options): ...
    >>> keyword_options(f)
    ('ties', 'vector')
    """
    return tuple(p.name for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY)


#: The line of a rule's docstring that :func:`rule` replaces with :func:`shared_options_doc`.
SHARED_OPTIONS_MARK = "{shared_options}"

_SIGNIFICANCE = {
    "relation": "``significance=`` counts a task for a pair only where the pair differs significantly",
    "groups": "``significance=`` ties, on each task, the systems whose scores differ within noise",
    "unchanged": "``significance=`` leaves the scores as they are and reports which differences are within noise",
}


#: Docstring sections several rules share, by the name of their marker line (``{ties}``): the
#: parameters of a family, its Returns and Raises entries. Every rule may use them.
SECTIONS: dict[str, str] = {
    "ties": ("Points of systems tied on a task: the mean of the points of the positions they occupy, the points "
             "of the best of them, or of the worst."),
    "tie_tol": ("Scores within `tie_tol` of each other count as a tied task (used on a Leaderboard; a pairwise "
                "matrix is taken as it is)."),
    "matrix_data": "Scores, systems x tasks, or their weighted pairwise matrix (used as it is).",
    "score_data": "Scores, systems x tasks.",
    "points": "``scores``: the (weighted) points; ``details[\"vector\"]``: the points by position.",
    "positional_raises": ("InvalidOptionError\n    A bad `ties` or shared option, or `data` not a Leaderboard.\n"
                          "MissingScoreError\n    Missing scores with ``missing=None``."),
    "majority_raises": ("InvalidOptionError\n    `variant` is unknown; `tie_tol` is negative, not finite, not a "
                        "number, or\n    nonzero with ``missing=\"impute\"`` on a Leaderboard; a shared option "
                        "is invalid\n    or cannot apply to `data` (a pairwise matrix takes only\n"
                        "    ``tie_break=\"lexicographic\"``); or `data` has an unsupported type."),
    "score_raises": ("InvalidOptionError\n    A shared option is invalid or cannot apply (e.g. "
                     "``weighting=\"groups\"`` without\n    task groups, a drop policy that leaves nothing to rank); "
                     "``missing=\"impute\"`` is\n    asked for (score baselines cannot use it: use "
                     "``missing=\"median\"``); or `data` is\n    not a Leaderboard.\nMissingScoreError\n"
                     "    `data` has missing scores and ``missing`` is None."),
}


def shared_options_doc(spec: RuleSpec) -> str:
    """The docstring text on the shared options of a rule, from its spec.

    Parameters
    ----------
    spec : RuleSpec

    Returns
    -------
    str
        One paragraph (unwrapped): the shared options, and what ``missing=None``,
        ``missing="impute"`` and ``significance=`` do for this rule.

    Examples
    --------
    >>> from consensus.rules.majority_rules import _SPECS
    >>> print(shared_options_doc(_SPECS["copeland"]))  # doctest: +NORMALIZE_WHITESPACE
    The options shared by every rule (``missing``, ``min_coverage``, ``weighting``, ``group_weights``,
    ``two_step``, ``tie_break``, ``significance``), as documented in :func:`consensus.rules.rank`. With
    ``missing=None`` missing scores are allowed: each pair is compared on the tasks both are scored on;
    ``missing="impute"`` uses the pairwise matrix imputed by compatible permutations;
    ``significance=`` counts a task for a pair only where the pair differs significantly.
    """
    names = ", ".join(f"``{n}``" for n in SHARED_OPTION_NAMES)
    if spec.pairwise_missing:
        missing = "With ``missing=None`` missing scores are allowed: each pair is compared on the tasks both are scored on"
    else:
        missing = "With ``missing=None`` a missing score is an error (:class:`MissingScoreError`)"
    if not spec.impute:
        impute = ("``missing=\"impute\"`` does not apply (compatible rankings give positions, not the numbers a score "
                  "baseline averages)")
    elif spec.kind in ("positional", "iterative"):
        impute = "``missing=\"impute\"`` scores the expected points over the complete rankings compatible with each task"
    else:
        impute = "``missing=\"impute\"`` uses the pairwise matrix imputed by compatible permutations"
    return (f"The options shared by every rule ({names}), as documented in :func:`consensus.rules.rank`. "
            f"{missing}; {impute}; {_SIGNIFICANCE[spec.noise]}.")


def rule(
    spec: RuleSpec,
    *,
    linear: bool | str,
    options: Sequence[str] | None = None,
    any_option: bool = False,
    doc: Mapping[str, str] | None = None,
) -> Callable[[F], F]:
    """Declare the decorated function as the rule ``spec.name`` (see the module docstring).

    Parameters
    ----------
    spec : RuleSpec
        Its name, kind, core and missing-score support.
    linear : True or str
        True when its score is linear in the task weights; else the reason it is not.
    options : sequence of str, optional
        Its own options; default the function's keyword-only parameters.
    any_option : bool, default False
        The options are handed on to another function (``kemeny``).
    doc : mapping of str to str, optional
        Docstring sections the rules of a family share: a line ``{name}`` of the docstring
        becomes the text of `name` (one line is wrapped; several lines are kept, each indented
        as the marker). ``shared_options`` is always given (:func:`shared_options_doc`).

    Returns
    -------
    callable
        The decorator; it returns the function, its docstring's :data:`SHARED_OPTIONS_MARK`
        line replaced by :func:`shared_options_doc`.

    Raises
    ------
    ValueError
        A rule declared twice, or a `linear` that is neither True nor a reason (a mistake
        in the package, found at import).
    """
    if linear is not True and not (isinstance(linear, str) and linear):
        raise ValueError(f"rule {spec.name!r}: linear must be True or the reason it is not linear")

    def declare(function: F) -> F:
        if spec.name in DECLARED:
            raise ValueError(f"rule {spec.name!r} is declared twice")
        DECLARED[spec.name] = Rule(
            name=spec.name,
            function=function,
            options=tuple(options) if options is not None else keyword_options(function),
            spec=spec,
            linear=linear is True,
            not_linear="" if linear is True else str(linear),
            any_option=any_option,
        )
        sections = {**SECTIONS, **(doc or {}), "shared_options": shared_options_doc(spec)}
        function.__doc__ = filled(function.__doc__, sections)
        return function

    return declare
