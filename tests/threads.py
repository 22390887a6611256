"""Helpers for tests of HiGHS's per-thread scheduler: a fresh thread, and a bare highspy run."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from solvers.model import new_highs


def on_fresh_thread(fn: Callable[[], Any]) -> Any:
    """Run `fn` on a new thread (which starts with no HiGHS scheduler); return or re-raise."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            out["error"] = exc

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


def bare_highs_run(threads: int | None) -> bool:
    """What user code does: a highspy model run with its own `threads` (None: HiGHS's default)."""
    import highspy

    h = new_highs()
    if threads is not None:
        h.setOptionValue("threads", threads)
    h.addCols(2, np.array([1.0, 1.0]), np.zeros(2), np.ones(2), 0, np.zeros(2, np.int32), np.zeros(0, np.int32), np.zeros(0))
    return h.run() == highspy.HighsStatus.kOk
