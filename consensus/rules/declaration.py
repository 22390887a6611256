"""A rule is declared in one place: the ``@rule`` decorator on its function.

The decorator records what every other part of the package needs to know about a rule, once:
its name and kind and how it treats missing scores (its :class:`~.spec.RuleSpec`), its own
options (read from the function's keyword-only parameters), and whether its score is linear in
the task weights (what :func:`consensus.winning_weights` and the other weight questions
accept) or why not. :data:`consensus.rules.RULES` (and so :func:`consensus.rank`,
``compare``, the CLI's rule lists, :data:`consensus.rules.linear.LINEAR_RULES`) is built from
these declarations; adding a rule is one decorated function in the module of its family.

Example (the whole declaration of Borda's count)::

    @rule(_SPECS["borda"], linear=True)
    def borda(data, *, ties="average", **options): ...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..results import RuleResult
from .spec import RuleSpec

__all__ = ["Rule", "rule", "keyword_options", "DECLARED"]

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


def rule(
    spec: RuleSpec,
    *,
    linear: bool | str,
    options: Sequence[str] | None = None,
    any_option: bool = False,
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

    Returns
    -------
    callable
        The decorator; it returns the function unchanged.

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
        return function

    return declare
