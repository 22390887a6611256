"""The style sheet and script inlined in every HTML report (:mod:`consensus.report.html`).

Nothing here is fetched: the report is one self-contained file, readable offline. The script
makes every ``table.sortable`` sortable by a click on a column header (numbers as numbers,
text as text, ``-`` and empty cells last, the order of equal cells kept), records any script
error in ``body[data-errors]`` and sets ``body[data-ready]`` once the tables are ready. Opened
with ``#selftest`` in the address, it sorts every table by each of its first three columns,
both ways, checks the order, and writes ``ok N`` or the first failure to
``body[data-selftest]``: the browser test reads these attributes from the rendered page.
"""

from __future__ import annotations

__all__ = ["STYLE", "SCRIPT"]

#: The report's style sheet: readable on screen and on paper, no web fonts.
STYLE = """
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa; --accent: #0b5cad;
        --warn-bg: #fff8c5; --warn-line: #d4a72c; --bad: #b42318; --good: #1a7f37; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       color: var(--fg); margin: 0 auto; padding: 1.5rem 2rem 4rem; max-width: 1200px; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
p.meta { color: var(--muted); margin: 0 0 1rem; }
nav.toc { font-size: .9rem; columns: 2; margin: .5rem 0 1rem; }
nav.toc a { color: var(--accent); text-decoration: none; }
ul.lines { margin: .3rem 0 .8rem; padding-left: 1.3rem; }
ul.lines li { margin: .12rem 0; overflow-wrap: anywhere; }
section.summary { background: var(--head); border: 1px solid var(--line); border-radius: 6px; padding: .2rem 1rem .6rem; }
li.warn { background: var(--warn-bg); border-left: 3px solid var(--warn-line); padding-left: .4rem; }
.mismatch { color: var(--bad); font-weight: 600; }
.ok { color: var(--good); }
div.table-wrap { overflow-x: auto; margin: .4rem 0 1rem; max-width: 100%; }
table { border-collapse: collapse; font-size: .88rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: .22rem .5rem; vertical-align: top; }
th { background: var(--head); position: sticky; top: 0; white-space: nowrap; }
td.l { text-align: left; } td.r { text-align: right; white-space: nowrap; }
thead tr.pinned td { background: #fbfbfc; color: var(--muted); font-style: italic; }
table.sortable thead tr:first-child th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: .7em; }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; font-size: .7em; }
tbody tr:nth-child(even) td { background: #fcfcfd; }
details > summary { cursor: pointer; color: var(--accent); margin: .3rem 0; }
figure { margin: 1rem 0; }
figure img, figure svg { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: .9rem; margin-top: .3rem; }
footer { color: var(--muted); font-size: .85rem; margin-top: 3rem; border-top: 1px solid var(--line); padding-top: .6rem; }
@media print { nav.toc, details > summary { display: none; } details { display: block; } }
"""

#: The report's script: sortable tables, error capture and the self-test.
SCRIPT = r"""
(function () {
  "use strict";
  var body = document.body;
  window.addEventListener("error", function (e) {
    body.setAttribute("data-errors", (body.getAttribute("data-errors") || "") + (e.message || "error") + "; ");
  });
  function key(cell) {
    var text = (cell.getAttribute("data-sort") || cell.textContent || "").trim();
    if (text === "" || text === "-" || text === "\u2014") { return { blank: true, num: 0, text: "" }; }
    var plain = text.replace(/,/g, "");
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?%?$/i.test(plain)) {
      return { blank: false, num: parseFloat(plain), text: "" };
    }
    if (/^[+-]?inf(inity)?$/i.test(plain)) {
      return { blank: false, num: plain.charAt(0) === "-" ? -Infinity : Infinity, text: "" };
    }
    return { blank: false, num: NaN, text: text.toLowerCase() };
  }
  function compare(a, b) {
    if (a.blank || b.blank) { return (a.blank ? 1 : 0) - (b.blank ? 1 : 0); }
    var an = !isNaN(a.num), bn = !isNaN(b.num);
    if (an && bn) { return a.num < b.num ? -1 : a.num > b.num ? 1 : 0; }
    if (an !== bn) { return an ? -1 : 1; }
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
  function sortBy(table, col, descending) {
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    var keyed = rows.map(function (row, i) { return { row: row, i: i, k: key(row.cells[col]) }; });
    keyed.sort(function (x, y) {
      var c = compare(x.k, y.k);
      if (c !== 0 && !(x.k.blank || y.k.blank)) { c = descending ? -c : c; }
      return c !== 0 ? c : x.i - y.i;
    });
    keyed.forEach(function (x) { tbody.appendChild(x.row); });
    var heads = table.tHead.rows[0].cells;
    for (var j = 0; j < heads.length; j++) {
      heads[j].setAttribute("aria-sort", j === col ? (descending ? "descending" : "ascending") : "none");
    }
  }
  function column(table, col) {
    return Array.prototype.map.call(table.tBodies[0].rows, function (row) { return key(row.cells[col]); });
  }
  function sorted(keys, descending) {
    var seen = false;
    for (var i = 0; i < keys.length; i++) {
      if (keys[i].blank) { seen = true; continue; }
      if (seen) { return false; }
      if (i > 0 && !keys[i - 1].blank) {
        var c = compare(keys[i - 1], keys[i]);
        if (descending ? c < 0 : c > 0) { return false; }
      }
    }
    return true;
  }
  function unpack(script) {  // a table written as gzip'd JSON rows (thousands of rows): fill its body once
    if (script.getAttribute("data-done")) { return Promise.resolve(); }
    script.setAttribute("data-done", "1");
    var table = document.getElementById(script.getAttribute("data-table"));
    var align = script.getAttribute("data-align");
    var raw = atob(script.textContent.trim());
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(function (text) {
      var frag = document.createDocumentFragment();
      JSON.parse(text).forEach(function (row) {
        var tr = document.createElement("tr");
        row.forEach(function (value, j) {
          var td = document.createElement("td");
          td.className = align.charAt(j);
          td.textContent = value;
          tr.appendChild(td);
        });
        frag.appendChild(tr);
      });
      table.tBodies[0].appendChild(frag);
    });
  }
  var packed = document.querySelectorAll("script.packed-rows");
  Array.prototype.forEach.call(packed, function (script) {
    var holder = script.parentNode;
    holder.addEventListener("toggle", function () { if (holder.open) { unpack(script); } });
  });
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.setAttribute("tabindex", "0");
      th.setAttribute("aria-sort", "none");
      var go = function () { sortBy(table, col, th.getAttribute("aria-sort") === "ascending"); };
      th.addEventListener("click", go);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
  });
  function selftest() {
    var checked = 0, failure = "";
    Array.prototype.forEach.call(tables, function (table, t) {
      var heads = table.tHead.rows[0].cells;
      for (var col = 0; col < Math.min(3, heads.length) && !failure; col++) {
        [false, true].forEach(function (descending) {
          if (failure) { return; }
          heads[col].setAttribute("aria-sort", descending ? "ascending" : "none");
          heads[col].click();
          if (!sorted(column(table, col), descending)) {
            failure = "table " + t + " column " + col + (descending ? " descending" : " ascending") + " not sorted";
          }
          checked++;
        });
      }
    });
    body.setAttribute("data-selftest", failure ? "fail: " + failure : "ok " + checked);
  }
  if (window.location.hash === "#selftest") {  // every packed table unpacked first, then every table sorted
    Promise.all(Array.prototype.map.call(packed, unpack)).then(function () {
      selftest();
      body.setAttribute("data-ready", String(tables.length));
    }, function (e) {
      body.setAttribute("data-errors", (body.getAttribute("data-errors") || "") + String(e) + "; ");
    });
  } else {
    body.setAttribute("data-ready", String(tables.length));
  }
})();
"""
