"""Every script in examples/ runs and prints something (examples are tests)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path, capsys, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) >= 3, f"{path.name} printed too little"


def test_there_are_examples():
    assert len(EXAMPLES) >= 1
