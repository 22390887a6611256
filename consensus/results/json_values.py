"""Results as JSON values: numpy scalars, frames, enums and nested results made plain, NaN and
infinities written as null (and, inside :func:`collect_infinities`, where the infinities were)."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import enum
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["jsonable", "detail_value", "collect_infinities", "json_path"]


#: While set (by :func:`collect_infinities`), :func:`jsonable` appends where it wrote an
#: infinity as null: ``(path, "inf" | "-inf")``.
_INFINITIES: contextvars.ContextVar[list[tuple[str, str]] | None] = contextvars.ContextVar(
    "consensus_infinities", default=None
)


@contextlib.contextmanager
def collect_infinities() -> Iterator[list[tuple[str, str]]]:
    """Collect where :func:`jsonable` turns an infinity into None, inside the block.

    Yields
    ------
    list of (str, str)
        Filled with ``(path, "inf" | "-inf")``: the path inside the value that
        :func:`jsonable` was converting (``rows[2].gap_ratio``).

    Examples
    --------
    >>> with collect_infinities() as found:
    ...     jsonable({"rows": [{"gap_ratio": 1.0}, {"gap_ratio": float("inf")}]})
    {'rows': [{'gap_ratio': 1.0}, {'gap_ratio': None}]}
    >>> found
    [('rows[1].gap_ratio', 'inf')]
    """
    found: list[tuple[str, str]] = []
    token = _INFINITIES.set(found)
    try:
        yield found
    finally:
        _INFINITIES.reset(token)


_PREFIX: contextvars.ContextVar[str] = contextvars.ContextVar("consensus_json_prefix", default="")


@contextlib.contextmanager
def json_path(prefix: str) -> Iterator[None]:
    """Inside the block, infinities that :func:`jsonable` records are placed under `prefix`.

    For a result whose ``to_dict()`` holds other results' ``to_dict()`` (``l1``, ``linf``):
    their infinities are then named ``l1.distance``, not ``distance``.

    Parameters
    ----------
    prefix : str
        The key of the nested value.

    Yields
    ------
    None

    Examples
    --------
    >>> with collect_infinities() as found:
    ...     with json_path("l1"):
    ...         _ = jsonable({"distance": float("inf")})
    >>> found
    [('l1.distance', 'inf')]
    """
    outer = _PREFIX.get()
    token = _PREFIX.set(f"{outer}.{prefix}" if outer else prefix)
    try:
        yield
    finally:
        _PREFIX.reset(token)


def jsonable(value: Any, _path: str = "") -> Any:
    """Convert numpy scalars, tuples, mappings and enums to plain JSON values (NaN, inf -> None).

    Parameters
    ----------
    value : Any
        A number, string, enum, mapping, sequence, set or numpy array (nested freely).

    Returns
    -------
    Any
        The same content made of ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``
        and ``None`` only; sets are sorted; ``-0.0`` becomes ``0.0``. NaN and infinities
        become None (JSON has neither); inside :func:`collect_infinities` the infinities
        are recorded with their path.

    Examples
    --------
    >>> jsonable({"a": (np.float64(1.5), float("nan")), "b": {2, 1}})
    {'a': [1.5, None], 'b': [1, 2]}
    """
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, f"{_path}.{k}" if _path else str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [jsonable(v, f"{_path}[{i}]") for i, v in enumerate(items)]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist(), _path)
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        if math.isinf(v):
            found = _INFINITIES.get()
            if found is not None:
                prefix = _PREFIX.get()
                found.append((f"{prefix}.{_path}" if prefix and _path else prefix or _path, "inf" if v > 0 else "-inf"))
            return None
        return None if math.isnan(v) else (0.0 if v == 0 else v)
    return value


def detail_value(value: Any) -> Any:
    """JSON-able form of a nested value: results (``to_dict()``), frames, series, mappings, numbers.

    Parameters
    ----------
    value : Any
        A result object, DataFrame, Series, mapping, sequence, dataclass or scalar.

    Returns
    -------
    Any
        Plain JSON values; a DataFrame becomes ``{"index", "columns", "data"}``.

    Examples
    --------
    >>> detail_value({"x": pd.Series({"a": 1.0})})
    {'x': {'a': 1.0}}
    """
    if hasattr(value, "to_dict") and not isinstance(value, (pd.DataFrame, pd.Series, Mapping)):
        return value.to_dict()
    if isinstance(value, pd.DataFrame):
        return {
            "index": [str(i) for i in value.index],
            "columns": [str(c) for c in value.columns],
            "data": jsonable(value.to_numpy().tolist()),
        }
    if isinstance(value, pd.Series):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Mapping):
        return {str(k): detail_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [detail_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: detail_value(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
    return jsonable(value)


