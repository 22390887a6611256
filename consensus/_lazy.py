"""Lazy names for the package and its stages (PEP 562): a name's module is imported on first use."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose public names live in its modules.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : Mapping[str, str]
        Public name -> the module (relative to `package`) that defines it.

    Returns
    -------
    (callable, callable)
        ``__getattr__(name)`` imports the name's module on first use and keeps the value;
        ``__dir__()`` lists the public names too.

    Examples
    --------
    >>> getattr_, dir_ = lazy_exports("consensus.board", {"comparability": "_coverage"})
    >>> getattr_("comparability").__name__, "comparability" in dir_()
    ('comparability', True)
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
