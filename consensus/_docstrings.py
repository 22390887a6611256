"""Docstring sections written once: a marker line ``{name}`` in a docstring becomes shared text.

Several functions document the same parameter, Returns or Raises entry (the rules' shared
options, the experiments' repetition options, the weight questions' constraints); the text is
written once in a table and :func:`fill_doc` puts it in each docstring at import, so the
docstrings the package shows (``help()``, the API reference, which reads the imported package)
never drift apart. A line whose only content is ``{name}`` (``name`` a key of the table) is
replaced at that line's indentation: a one-line text is wrapped at 100 characters, a text of
several lines is kept line by line (numpydoc entries with their descriptions). Other braces
in docstrings are left alone.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["COMMON", "fill_doc", "filled"]

F = TypeVar("F", bound=Callable[..., Any])

#: Entries that functions of several stages share (a stage's own sections live in its modules).
COMMON: dict[str, str] = {
    "ranking": "ranking : sequence of sequence of str\n    Tie groups, best first.",
    "tiers": "tiers : tuple of tuple of str\n    Tie groups, best first (see :func:`as_tiers`).",
    "user_value": "value : object\n    What the user passed.",
    "tie_penalty": "tie_penalty : float, default=0.5\n    See :func:`kendall_tau_distance`.",
    "parquet_import": "ImportError\n    A Parquet file is read without pyarrow installed.",
}


def filled(doc: str | None, sections: Mapping[str, str]) -> str | None:
    """`doc` with each marker line ``{name}`` of `sections` replaced by its text.

    Parameters
    ----------
    doc : str or None
    sections : mapping of str to str

    Returns
    -------
    str or None

    Examples
    --------
    >>> print(filled("Parameters\\n    seed : int\\n        {seed}\\n", {"seed": "The master seed."}))
    Parameters
        seed : int
            The master seed.
    <BLANKLINE>
    >>> print(filled("Raises\\n    {raises}", {"raises": "InvalidOptionError\\n    A bad option."}))
    Raises
        InvalidOptionError
            A bad option.
    """
    if doc is None or "{" not in doc:
        return doc
    out = []
    for line in doc.split("\n"):
        key = line.strip()
        if not (key.startswith("{") and key.endswith("}") and key[1:-1] in sections):
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        text = sections[key[1:-1]]
        if "\n" in text:
            out += [indent + part if part else "" for part in text.split("\n")]
        else:
            out.append(textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent,
                                     break_on_hyphens=False, break_long_words=False))
    return "\n".join(out)


def fill_doc(sections: Mapping[str, str]) -> Callable[[F], F]:
    """A decorator that fills the decorated function's docstring with `sections` (:func:`filled`).

    Parameters
    ----------
    sections : mapping of str to str

    Returns
    -------
    callable
        The decorator; it returns the function itself, its ``__doc__`` filled.

    Examples
    --------
    >>> @fill_doc({"seed": "The master seed."})
    ... def f(seed=0):
    ...     '''Parameters
    ...     ----------
    ...     seed : int
    ...         {seed}
    ...     '''
    >>> "The master seed." in f.__doc__
    True
    """

    def fill(function: F) -> F:
        function.__doc__ = filled(function.__doc__, sections)
        return function

    return fill
