"""The README's interactive examples (``>>>`` lines in python blocks) print what the README shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pandas as pd

import consensus as cs

README = Path(__file__).resolve().parent.parent / "README.md"


def _interactive_blocks(text: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    return "\n\n".join(b for b in blocks if ">>>" in b)


def test_readme_examples_print_what_they_show(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples may write files
    monkeypatch.setenv("MPLBACKEND", "Agg")
    source = _interactive_blocks(README.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {"cs": cs, "pd": pd, "np": np}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} README example(s) print something else than shown"
