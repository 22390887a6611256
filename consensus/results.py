"""Frozen result objects returned by rules and solvers.

Each capability appends its result dataclasses below its own section marker.
Conventions (../STYLE.md section 5): ``@dataclass(frozen=True, slots=True)``, tuples and
``MappingProxyType`` instead of lists and dicts, solver noise cleaned before storing
(``-0.0`` -> ``0.0``), ``to_dict()`` returning plain JSON-able values and ``to_frame()``
where a table makes sense.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

__all__: list[str] = ["freeze_mapping", "tiers_from_scores", "jsonable"]


def freeze_mapping(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only copy of `mapping`."""
    return MappingProxyType(dict(mapping))


def tiers_from_scores(
    labels: Sequence[str], scores: Sequence[float], *, higher_is_better: bool = True, tol: float = 1e-12
) -> tuple[tuple[str, ...], ...]:
    """Group labels into tie groups by score, best group first; labels within a group keep input order.

    Two scores within `tol` (relative to the larger magnitude, floor 1) are tied.

    Examples
    --------
    >>> tiers_from_scores(["a", "b", "c", "d"], [1.0, 3.0, 1.0, 2.0])
    (('b',), ('d',), ('a', 'c'))
    """
    order = sorted(range(len(labels)), key=lambda i: (-scores[i] if higher_is_better else scores[i], i))
    tiers: list[list[int]] = []
    for i in order:
        if tiers:
            ref = scores[tiers[-1][0]]
            if abs(scores[i] - ref) <= tol * max(1.0, abs(ref), abs(scores[i])):
                tiers[-1].append(i)
                continue
        tiers.append([i])
    return tuple(tuple(labels[i] for i in sorted(t)) for t in tiers)


def jsonable(value: Any) -> Any:
    """Convert numpy scalars, tuples, mappings and enums to plain JSON values (NaN -> None)."""
    import enum

    import numpy as np

    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [jsonable(v) for v in items]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return None if math.isnan(v) else (0.0 if v == 0 else v)
    return value


# --- rules (issue 3): RuleResult ------------------------------------------------------

# --- kemeny (issue 4): KemenyResult ---------------------------------------------------

# --- condorcet weights (issue 5): CondorcetWeightsResult ------------------------------

# --- missing scores (issue 6): imputation results --------------------------------------

# --- comparison (issue 7) --------------------------------------------------------------
