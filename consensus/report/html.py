"""The HTML report: one self-contained page a maintainer can publish (``consensus report``).

:func:`render_html` turns an :class:`~consensus.results.Analysis` into a single HTML file: the summary
first (winners, the exact Kemeny ranking, warnings about sparsely scored winners), then the
figure, then every section of ``consensus analyze`` (the scores as read, the majority graph,
the rankings side by side, the comparison tables, the prospective systems with their
certificates, coverage and policy notes, checks). Nothing computes here: the page shows the
analysis as it is.

Decisions:

- **Self-contained**: the style sheet and the script are inlined
  (:mod:`consensus.report.html_assets`), figures are inline SVG (up to 30 systems) or a PNG
  data URI (larger boards, where an SVG of the margin heatmap runs to megabytes); the page
  loads nothing from the network and works from a file.
- **Every row**: tables are not cut at ``--top`` as in the text report; a table of more than
  :data:`FOLD_ROWS` rows is folded in a ``<details>`` element (one click opens it) and every
  table is sortable by a click on a column header. A table of more than :data:`PACK_ROWS`
  rows (the tens of thousands of majority edges of a 300-system board) is written as
  gzip-compressed JSON rows inside the page and unpacked by its script (the browser's
  ``DecompressionStream``) when opened: every row is still in the file, the page stays small
  (under 3 MB at 350 systems instead of 15 MB).
- **Long lines** (a list of hundreds of majority ties) show their start; the whole line is
  one click away (:data:`FOLD_CHARS`).
- **Pinned rows**: a row whose first cell ends with ``:`` (the ``better:`` row of the scores
  table) describes the columns; it is kept in the table head and never sorted.
- **How the scores were read** comes right after the summary when the reading step decided
  anything (columns set aside as aggregates, duplicates, model information or standard errors,
  inferred directions), each decision with the option that reverses it: the first
  :data:`READING_LINES` decisions shown, the rest one click away.
- **Command-line wording**: ``consensus report`` renders with ``cli=True``, so hints name flags
  (``--min-coverage 0``), as in the text report; the API's page names options.
- **Reproducible**: no timestamp, no random ids (a packed table's id is a hash of its rows);
  the same analysis gives the same bytes.
- Without matplotlib the page is complete but for the figure, and says so.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import io
import json
import re
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ..errors import InvalidOptionError
from ..hints import visible
from ..results import Analysis
from .blocks import Block, Heading, Lines, Table, cli_blocks
from .html_assets import SCRIPT, STYLE
from .sections import sections

__all__ = ["render_html", "blocks_html", "FOLD_ROWS", "FOLD_CHARS", "SVG_MAX_SYSTEMS", "PACK_ROWS", "READING_LINES"]

#: Tables with more rows than this are folded (``<details>``), one click away.
FOLD_ROWS = 30

#: Lines longer than this many characters show their start, the whole line one click away.
FOLD_CHARS = 400

#: Boards up to this many systems get an SVG figure; larger ones a PNG (smaller file).
SVG_MAX_SYSTEMS = 30

#: Tables with more rows are written as gzip-compressed JSON inside the page, unpacked by its
#: script when opened (the 58,000 majority edges of a 350-system board: 15 MB of HTML rows,
#: about 1 MB packed); JSON output (``--format json``) has them too.
PACK_ROWS = 1000

#: Decisions of the reading summary shown; the others are folded (``<details>``), one click away.
READING_LINES = 20

#: The longest side of the page's PNG figure, in pixels (the 350 x 350 margin heatmap at 100 dpi
#: alone was 2.9 MB).
FIGURE_PIXELS = 2000


def _slug(text: str, used: dict[str, str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, k = base, 2
    while slug in used:
        slug, k = f"{base}-{k}", k + 1
    used[slug] = text
    return slug


def _esc(text: Any) -> str:
    return html.escape(visible(str(text)), quote=True)  # a U+202E in a name never turns the page around


def _line_html(line: str) -> str:
    if "MISMATCH" in line:
        css = ' class="mismatch"'
    elif line.startswith("check "):
        css = ' class="ok"'
    else:  # a winner resting on a sparsely scored system is said in the summary: make it stand out
        css = ' class="warn"' if line.startswith("warning:") else ""
    if len(line) > FOLD_CHARS:  # a list of 276 majority ties: its start, and the rest one click away
        cut = line.rfind(" ", 0, FOLD_CHARS // 2)
        cut = cut if cut > 0 else FOLD_CHARS // 2
        return f"<li{css}><details><summary>{_esc(line[:cut])} ...</summary>{_esc(line)}</details></li>"
    return f"<li{css}>{_esc(line)}</li>"


def _table_html(table: Table) -> str:
    cols = len(table.headers)
    align = table.align or ("l" + "r" * (cols - 1))
    pinned = [row for row in table.rows if row and str(row[0]).endswith(":")]
    body = [row for row in table.rows if not (row and str(row[0]).endswith(":"))]
    sortable = len(body) > 1
    out = [f'<div class="table-wrap"><table{" class=sortable" if sortable else ""}>', "<thead><tr>"]
    out += [f'<th scope="col">{_esc(h)}</th>' for h in table.headers]
    out.append("</tr>")
    for row in pinned:
        out.append('<tr class="pinned">' + "".join(f'<td class="{a}">{_esc(c)}</td>' for a, c in zip(align, row)) + "</tr>")
    out.append("</thead><tbody>")
    if len(body) > PACK_ROWS:  # thousands of rows: gzip'd JSON, unpacked by the page's script when opened
        payload = base64.b64encode(gzip.compress(json.dumps([list(r) for r in body]).encode("utf-8"), mtime=0))
        ident = "rows-" + hashlib.sha1(payload).hexdigest()[:12]
        out[0] = out[0].replace("<table", f'<table id="{ident}"', 1)
        out.append("</tbody></table></div>")
        data = (f'<script type="application/octet-stream" class="packed-rows" data-table="{ident}" '
                f'data-align="{align}">{payload.decode("ascii")}</script>')
        return (f"<details><summary>show the table ({len(body)} rows, unpacked in the browser)</summary>"
                f"{''.join(out)}{data}</details>")
    for row in body:
        out.append("<tr>" + "".join(f'<td class="{a}">{_esc(c)}</td>' for a, c in zip(align, row)) + "</tr>")
    out.append("</tbody></table></div>")
    text = "".join(out)
    if len(body) > FOLD_ROWS:
        return f"<details><summary>show the table ({len(body)} rows)</summary>{text}</details>"
    return text


def blocks_html(blocks: Sequence[Block], *, anchors: dict[str, str] | None = None) -> str:
    """HTML for a list of report blocks: headings, bullet lists and sortable tables.

    Parameters
    ----------
    blocks : sequence of Heading, Lines and Table
        A report as :func:`consensus.report.sections` builds it.
    anchors : dict, optional
        Id -> text of the ``<h2>`` headings already on the page, in page order; each new
        ``<h2>`` gets a unique id and is added (the page's table of contents).

    Returns
    -------
    str
        HTML, every text escaped.

    Examples
    --------
    >>> from consensus.report.blocks import Heading, Table, lines
    >>> print(blocks_html([Heading("Scores"), lines("a < b"), Table(("system", "score"), (("a", "1"),))]))
    <h2 id="scores">Scores</h2>
    <ul class="lines"><li>a &lt; b</li></ul>
    <div class="table-wrap"><table><thead><tr><th scope="col">system</th><th scope="col">score</th></tr></thead><tbody><tr><td class="l">a</td><td class="r">1</td></tr></tbody></table></div>
    """
    used = anchors if anchors is not None else {}
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            level = min(max(block.level, 1), 4)
            ident = f' id="{_slug(block.text, used)}"' if level == 2 else ""
            out.append(f"<h{level}{ident}>{_esc(block.text)}</h{level}>")
        elif isinstance(block, Lines):
            items = [line for line in block.lines if line.strip()]
            if items:
                out.append('<ul class="lines">' + "".join(_line_html(x) for x in items) + "</ul>")
        elif isinstance(block, Table):
            out.append(_table_html(block))
    return "\n".join(out)


def _reading_html(analysis: Analysis, anchors: dict[str, str], *, cli: bool) -> str:
    """How the scores were read (the reading summary), when the reading step decided anything;
    "" otherwise. The first :data:`READING_LINES` decisions, the rest folded."""
    reading = analysis.leaderboard.reading
    if not reading.decisions() and not reading.skipped:
        return ""
    lines = [line.strip() for line in reading.lines(cli=cli)]
    head, decisions = lines[0], lines[1:]
    shown, rest = decisions[:READING_LINES], decisions[READING_LINES:]
    out = [blocks_html([Heading("How the scores were read")], anchors=anchors),
           '<ul class="lines">' + "".join(_line_html(x) for x in [head, *shown]) + "</ul>"]
    if rest:
        out.append(f"<details><summary>{len(rest)} more</summary><ul class=\"lines\">"
                   + "".join(_line_html(x) for x in rest) + "</ul></details>")
    return "\n".join(out)


def _figure_html(analysis: Analysis) -> tuple[str, str]:
    """The analysis figure as inline SVG or PNG, and a note when it cannot be drawn."""
    try:
        from ..plot import plot_analysis

        fig = plot_analysis(analysis)
    except ImportError:
        return "", "The figure needs matplotlib (pip install 'leaderboard-consensus[plot]'); the tables below have everything."
    n = analysis.leaderboard.n_systems
    buffer = io.BytesIO()
    if n <= SVG_MAX_SYSTEMS:
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        svg = buffer.getvalue().decode("utf-8")
        image = svg[svg.index("<svg"):]
        image = image.replace("<svg ", '<svg role="img" aria-label="majority relation and rank changes" ', 1)
    else:
        dpi = min(100.0, FIGURE_PIXELS / max(float(max(fig.get_size_inches())), 1e-9))  # a page, not a poster
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        image = f'<img alt="majority relation and rank changes" src="data:image/png;base64,{data}">'
    kind = "graph" if fig.consensus_kind == "graph" else "margin heatmap"  # type: ignore[attr-defined]  # set by plot_analysis
    caption = (
        f"Left: the majority relation ({kind}) in the order of the exact Kemeny ranking. "
        "Right: each rule's ranking of the Kemeny top 10 and of the systems entering a rule's top 10."
    )
    return f'<figure id="figure">{image}<figcaption>{_esc(caption)}</figcaption></figure>', ""


def render_html(analysis: Analysis, *, figure: bool = True, title: str | None = None, cli: bool = False) -> str:
    """The analysis as one self-contained HTML page: summary, figure, every table, certificates.

    Parameters
    ----------
    analysis : Analysis
        From :func:`consensus.analyze` (``consensus report`` computes it as ``consensus
        analyze`` does).
    figure : bool, default=True
        Include the ``analyze`` figure (majority relation and rank changes; needs
        matplotlib, else a note says it is missing).
    title : str, optional
        The page title; default ``consensus report: SOURCE``.
    cli : bool, default=False
        Name command-line flags in hints (``--min-coverage 0``, ``--keep-columns X``) instead
        of API options (``consensus report``).

    Returns
    -------
    str
        A complete HTML5 document (UTF-8), ending with a newline. Every table holds every
        row; the page needs no network. How the scores were read follows the summary when
        the reading step decided anything.

    Raises
    ------
    InvalidOptionError
        If `analysis` is not an :class:`~consensus.results.Analysis`.

    Examples
    --------
    >>> import consensus as cs
    >>> page = render_html(cs.analyze(cs.load_example("votenrank-toy"), prospective=False), figure=False)
    >>> page.startswith("<!DOCTYPE html>"), "<h2 id=\\"summary\\">Summary</h2>" in page, "http" in page
    (True, True, False)
    """
    if not isinstance(analysis, Analysis):
        raise InvalidOptionError(f"render_html takes an Analysis (from consensus.analyze), got {type(analysis).__name__}")
    blocks = sections(analysis, top=None)
    if cli:
        blocks = cli_blocks(blocks)
    heading = title or (f"consensus report: {analysis.source}" if analysis.source else "consensus report")
    if blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1:
        blocks = blocks[1:]
    summary_end = next((i for i, b in enumerate(blocks[1:], 1) if isinstance(b, Heading)), len(blocks))
    anchors: dict[str, str] = {}
    summary_html = blocks_html(blocks[:summary_end], anchors=anchors)
    reading_html = _reading_html(analysis, anchors, cli=cli)
    rest = blocks[summary_end:]
    fig_html, fig_note = _figure_html(analysis) if figure else ("", "")
    lb = analysis.leaderboard
    rest_html = blocks_html(rest, anchors=anchors)
    toc = list(anchors.items())
    if fig_html:  # the figure comes right after the summary (and how the scores were read)
        toc.insert(2 if reading_html else 1, ("figure", "Figure"))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="leaderboard-consensus {_esc(__version__)}">',
        f"<title>{_esc(heading)}</title><style>{STYLE}</style></head>",
        "<body>",
        f"<header><h1>{_esc(heading)}</h1>",
        f'<p class="meta">{lb.n_systems} systems x {lb.n_tasks} tasks; made by leaderboard-consensus '
        f"{_esc(__version__)}. Click a column header to sort a table.</p></header>",
    ]
    parts.append(f'<section class="summary">{summary_html}</section>')
    if reading_html:
        parts.append(f'<section class="reading">{reading_html}</section>')
    parts.append('<nav class="toc"><ul>' + "".join(f'<li><a href="#{a}">{_esc(t)}</a></li>' for a, t in toc) + "</ul></nav>")
    if fig_html:
        parts.append(f'<h2 id="figure-heading">Figure</h2>{fig_html}')
    elif fig_note:
        parts.append(f'<p class="meta">{_esc(fig_note)}</p>')
    parts.append(rest_html)
    parts.append(
        "<footer>Exact answers are certified: the Kemeny objective equals its proven lower bound when the status "
        "is optimal; a prospective 'never' comes with a rival mix that beats the system under every weighting, "
        "re-checked in exact arithmetic. Methods: Rofin et al. 2023 (Vote'n'Rank), Colombo et al. 2022, "
        "Himmi et al. 2023, Pinter (Apres toi).</footer>"
    )
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"

