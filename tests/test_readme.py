"""The interactive examples (``>>>`` lines in python blocks) of README.md and docs/*.md print what they show."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import consensus as cs

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _interactive_blocks(text: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    return "\n\n".join(b for b in blocks if ">>>" in b)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_examples_print_what_they_show(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples may write files
    monkeypatch.setenv("MPLBACKEND", "Agg")
    source = _interactive_blocks(page.read_text(encoding="utf-8"))
    if not source:
        pytest.skip(f"{page.name} has no interactive example")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {"cs": cs, "pd": pd, "np": np}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) in {page.name} print something else than shown"
