"""The HTML report: structure and escaping in Python, then rendered in a real headless browser.

The browser tests open each page in Debian's Chromium (``.ci/run`` installs it): the page's
own script must run without an error, make every table sortable and pass its self-test
(``#selftest``: every table sorted by each of its first three columns, both ways, checked),
and the DOM must hold the expected sections and tables. A screenshot is taken of each page.
Without Chromium they are skipped, unless ``CONSENSUS_REQUIRE_BROWSER=1`` (set by
``.ci/run``), where a missing browser fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import consensus as cs
from consensus.report.blocks import Heading, Table, lines
from consensus.report.html import FOLD_ROWS, blocks_html, render_html

from .cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
GLUE = ROOT / "tests" / "data" / "messy" / "glue_like.csv"
GLUE_READ = ["--index-col", "Model", "--exclude", "Name,URL", "--split-composite", "--dedupe"]


class Dom(HTMLParser):
    """The parts of a page the tests look at: body attributes, h2 ids, tables, resources."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.body: dict[str, str] = {}
        self.h2: list[str] = []
        self.tables: list[dict[str, object]] = []
        self.resources: list[str] = []
        self.scripts = 0
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "body":
            self.body = a
        elif tag == "h2":
            self.h2.append(a.get("id", ""))
        elif tag == "table":
            self.tables.append({"class": a.get("class", ""), "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "script":
            self.scripts += 1
        for key in ("src", "href"):
            if key in a:
                self.resources.append(a[key])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1]["rows"].append(self._row)  # type: ignore[union-attr]
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def toy_analysis() -> cs.results.Analysis:
    return cs.analyze(cs.load_example("votenrank-toy"), source="example:votenrank-toy", example="votenrank-toy")


def test_page_is_self_contained_and_holds_every_section(toy_analysis: cs.results.Analysis) -> None:
    page = render_html(toy_analysis)
    dom = Dom(page)
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    # summary first, then the figure, then the sections of `consensus analyze`
    assert dom.h2[:2] == ["summary", "figure-heading"]
    for ident in ("scores-as-read", "majority-graph", "exact-kemeny-ranking", "rankings-side-by-side",
                  "checks-against-published-values"):
        assert ident in dom.h2
    assert any(i.startswith("prospective-systems") for i in dom.h2)
    # nothing is loaded from elsewhere: every link is an anchor on the page, every image inline
    assert dom.resources and all(r.startswith("#") or r.startswith("data:") for r in dom.resources)
    assert "<svg" in page and dom.scripts == 1
    # the published checks are on the page, all ok
    assert page.count('<li class="ok">check ') == len(toy_analysis.checks) == 11


def test_tables_hold_the_numbers_of_the_analysis(toy_analysis: cs.results.Analysis) -> None:
    dom = Dom(render_html(toy_analysis, figure=False))
    scores = next(t for t in dom.tables if t["rows"][0][:2] == ["system", "t1"])
    rows = scores["rows"]
    assert rows[1][0] == "better:"  # the direction row is pinned in the head
    assert rows[2:] == [["A", "4", "4", "1", "1", "1"], ["B", "3", "1", "4", "3", "3"],
                        ["C", "2", "3", "2", "4", "2"], ["D", "1", "2", "3", "2", "4"]]
    comparison = next(t for t in dom.tables if t["rows"][0][:3] == ["rule", "winner", "tau"])
    by_rule = {r[0]: r for r in comparison["rows"][1:]}
    assert by_rule["kemeny"][4] == "12" and by_rule["plurality"][1] == "A"
    assert "sortable" in comparison["class"]


def test_every_row_is_shown_and_long_tables_are_folded() -> None:
    lb = cs.datasets.gumbel_leaderboard(40, 6, phi=0.1, seed=3)
    analysis = cs.analyze(lb, prospective=False)
    page = render_html(analysis, figure=False)
    dom = Dom(page)
    scores = next(t for t in dom.tables if t["rows"][0][0] == "system" and len(t["rows"][0]) == 7)
    assert len(scores["rows"]) == 2 + 40  # header, direction row, every system: no "... and N more"
    assert "more</li>" not in page
    assert "show the table (40 rows)" in page and 40 > FOLD_ROWS


def test_names_are_escaped_and_the_page_is_reproducible() -> None:
    evil = cs.Leaderboard.from_frame(
        __import__("pandas").DataFrame({"t1": [3.0, 2.0, 1.0], "t2": [1.0, 3.0, 2.0], "t3": [2.0, 1.0, 3.0]},
                                       index=["<script>alert(1)</script>", 'a "b" & c', "line\nbreak"])
    )
    analysis = cs.analyze(evil, prospective=False)
    page = render_html(analysis, figure=False)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert render_html(analysis, figure=False) == page  # no timestamps or random ids
    assert Dom(page).scripts == 1


def test_blocks_html_escapes_and_folds() -> None:
    out = blocks_html([Heading("A & B"), lines("x" * 1000), Table(("s", "v"), tuple((f"s{i}", str(i)) for i in range(31)))])
    assert '<h2 id="a-b">A &amp; B</h2>' in out
    assert "<details><summary>" in out and "show the table (31 rows)" in out


def test_to_html_and_wrong_input(toy_analysis: cs.results.Analysis) -> None:
    assert toy_analysis.to_html(figure=False, title="T") == render_html(toy_analysis, figure=False, title="T")
    with pytest.raises(cs.InvalidOptionError, match="takes an Analysis"):
        render_html(cs.load_example("votenrank-toy"))  # type: ignore[arg-type]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd)


def test_cli_report_writes_one_page(tmp_path: Path) -> None:
    res = _cli("report", "-o", "page.html", "--quiet", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<title>consensus report: example:votenrank-toy</title>" in page
    bad = _cli("report", "-o", str(tmp_path), cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "is a directory" in bad.stderr
    missing = _cli("report", "nope.csv", "-o", "x.html", cwd=tmp_path)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


# ---------------------------------------------------------------------------------------------
# in a real browser


def _chromium() -> str | None:
    for name in (os.environ.get("CONSENSUS_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


CHROMIUM = _chromium()
if CHROMIUM is None and os.environ.get("CONSENSUS_REQUIRE_BROWSER") == "1":
    raise RuntimeError("CONSENSUS_REQUIRE_BROWSER=1 but no chromium on the PATH (apt-get install chromium)")
browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium here (CI installs Debian's chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]


def _open(page: Path, tmp_path: Path, *extra: str, hash: str = "") -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000", *extra, page.resolve().as_uri() + hash],
        capture_output=True, text=True, timeout=120,
    )


CASES = {
    "votenrank-toy": ["report", "--quiet"],
    "colombo-table1": ["report", "--example", "colombo-table1", "--quiet"],
    "gumbel-20": ["report", "--example", "gumbel", "--n", "20", "--quiet"],
    "glue-like-100": ["report", str(GLUE), *GLUE_READ, "--quiet", "--time-limit", "60"],
}


@browser
@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_report_renders_in_a_browser_without_errors(case: str, tmp_path: Path) -> None:
    page = tmp_path / f"{case}.html"
    res = _cli(*CASES[case], "-o", str(page), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    source = Dom(page.read_text(encoding="utf-8"))
    n_sortable = sum("sortable" in str(t["class"]) for t in source.tables)
    shot = tmp_path / f"{case}.png"  # one browser run: the DOM after the self-test, and a screenshot
    run = _open(page, tmp_path, "--dump-dom", "--window-size=1280,2000", f"--screenshot={shot}", hash="#selftest")
    assert run.returncode == 0, run.stderr[-2000:]
    dom = Dom(run.stdout)
    assert "data-errors" not in dom.body, dom.body
    assert not re.search(r"Uncaught|SyntaxError|TypeError|ReferenceError", run.stderr), run.stderr[-2000:]
    assert dom.body.get("data-ready") == str(n_sortable) and n_sortable >= 4
    assert dom.body.get("data-selftest", "").startswith("ok "), dom.body
    assert int(dom.body["data-selftest"].split()[1]) >= 2 * n_sortable  # every table, both ways
    assert dom.h2[0] == "summary" and "majority-graph" in dom.h2
    assert len(dom.tables) == len(source.tables)
    # tables of thousands of rows (the majority edges from 40 systems up) are packed in the page and unpacked
    # whole by its script: the same header, every row back
    page_text = page.read_text(encoding="utf-8")
    counts = [int(n) for n in re.findall(r"show the table \((\d+) rows, unpacked in the browser\)", page_text)]
    assert (case == "glue-like-100") == bool(counts)
    unpacked_counts = [len(after["rows"]) - 1 for before, after in zip(source.tables, dom.tables)
                       if len(before["rows"]) == 1 and "sortable" in str(before["class"])
                       and after["rows"][0] == before["rows"][0]]
    assert sorted(unpacked_counts) == sorted(counts)
    assert shot.stat().st_size > 20_000  # a page drawn, not a blank
    if os.environ.get("CONSENSUS_KEEP_SCREENSHOTS"):
        shutil.copy(shot, Path(os.environ["CONSENSUS_KEEP_SCREENSHOTS"]) / shot.name)


@browser
def test_sorting_a_column_in_the_browser_orders_numbers_as_numbers(tmp_path: Path) -> None:
    lb = cs.Leaderboard.from_frame(__import__("pandas").DataFrame(
        {"t1": [1.0, 2.0, 3.0, 4.0], "t2": [9.0, 10.0, 100.0, 2.0], "t3": [4.0, 3.0, 2.0, 1.0]}, index=list("abcd")))
    page = tmp_path / "p.html"
    page.write_text(render_html(cs.analyze(lb, prospective=False), figure=False), encoding="utf-8")
    dom = Dom(_open(page, tmp_path, "--dump-dom", hash="#selftest").stdout)
    assert dom.body.get("data-selftest", "").startswith("ok ")
    scores = next(t for t in dom.tables if t["rows"][0][:2] == ["system", "t1"])
    # the self-test ended on the third column (t2) sorted descending: as numbers c, b, a, d
    # (as text it would be a, d, c, b: "9" > "2" > "100" > "10")
    assert [r[0] for r in scores["rows"][2:]] == ["c", "b", "a", "d"]


def test_the_page_says_how_the_scores_were_read_escaped_and_compact() -> None:
    """The reading summary (columns set aside, inferred directions, each with the option that
    reverses it) follows the summary, escaped; past 20 decisions the rest are one click away."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    scores = np.round(rng.uniform(0, 1, (20, 22)), 3)  # 20 systems: no task looks like a mix of the others
    frame = pd.DataFrame(scores, columns=[f"t{k}" for k in range(22)], index=[f"s{i}" for i in range(20)])
    frame["Average"] = frame.mean(axis=1).round(3)
    frame["<i>Latency</i> (ms)"] = np.round(rng.uniform(10, 90, 20), 1)
    for k in range(22):  # 22 standard-error columns: a decision each
        frame[f"t{k}_stderr"] = 0.01
    analysis = cs.analyze(cs.Leaderboard.from_frame(frame), prospective=False)
    page = render_html(analysis, figure=False)
    dom = Dom(page)
    assert dom.h2[:2] == ["summary", "how-the-scores-were-read"] and '<a href="#how-the-scores-were-read">' in page
    section = page[page.index('<section class="reading">'):page.index("</section>", page.index('<section class="reading">'))]
    assert "<li>read 46 columns: 23 tasks, 23 excluded</li>" in section
    assert "Average: excluded, aggregate: named like an aggregate (keep it: keep_columns=[&#x27;Average&#x27;])" in section
    assert "&lt;i&gt;Latency&lt;/i&gt; (ms): lower is better" in section and "<i>" not in section
    assert "t0_stderr: standard error of t0, kept beside the scores, not a task (read it as a task: " in section
    assert section.count("<li>") == 25 and "<details><summary>4 more</summary>" in section  # 24 decisions: 20 shown
    plain = render_html(cs.analyze(cs.load_example("votenrank-toy"), prospective=False), figure=False)
    assert "How the scores were read" not in plain  # nothing decided: nothing said


def test_the_report_command_speaks_flags(tmp_path: Path) -> None:
    """``consensus report`` names flags (--min-coverage 0, --keep-columns X), Analysis.to_html options."""
    from . import real_shapes as shapes

    path = shapes.write_csv(shapes.gem_like(), tmp_path / "gem.csv")
    res = _cli("report", str(path), "-o", "page.html", "--no-figure", "--quiet", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "--min-coverage 0" in page and "min_coverage=0" not in page
    assert "(keep it: --keep-columns &#x27;Avg length&#x27;)" in page and "keep_columns=" not in page
    api = cs.analyze(cs.read_leaderboard(path), prospective=False).to_html(figure=False)
    assert "min_coverage=0" in api and "keep_columns=[&#x27;Avg length&#x27;]" in api
