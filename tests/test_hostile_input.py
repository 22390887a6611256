"""Hostile files and odd names: one meaning per key, bounded JSON, names drawn and printed as
written (never as math text, terminal escapes or bidirectional overrides)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import consensus as cs
from consensus.cli import main
from consensus.formats import read_model_dir
from consensus.formats.errors import FormatError
from consensus.io._json_input import MAX_DEPTH, JsonDepthError, RepeatedKeyError

BOARD = {"qa": {"a": 0.7, "b": 0.5, "c": 0.6}, "nli": {"a": 0.4, "b": 0.9, "c": 0.5}}


def _json_text(pairs: list[tuple[str, str]]) -> str:
    """A JSON object written with the given (key, raw value) pairs, repeated keys included."""
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in pairs) + "}"


# ------------------------------------------------------------------ one meaning per key
def test_a_key_given_twice_is_an_error_naming_it_in_every_json_the_package_reads(tmp_path, capsys):
    board = tmp_path / "board.json"
    task = json.dumps(BOARD["qa"])
    board.write_text(_json_text([("qa", task), ("nli", json.dumps(BOARD["nli"])), ("qa", task)]))  # a task twice
    with pytest.raises(RepeatedKeyError, match=r"key 'qa' appears twice in one JSON object") as info:
        cs.read_leaderboard(board)
    assert info.value.key == "qa" and str(board) in str(info.value)
    board.write_text(json.dumps({"qa": {"a": 0.7, "b": 0.5}}).replace('"b": 0.5', '"b": 0.5, "a": 0.1'))  # a system twice
    with pytest.raises(RepeatedKeyError, match="key 'a'"):
        cs.read_leaderboard(board)
    folder = tmp_path / "per_model"
    folder.mkdir()
    (folder / "m1.json").write_text('{"qa": 0.5, "nli": 0.4, "qa": 0.9}')  # a record field twice
    (folder / "m2.json").write_text('{"qa": 0.6, "nli": 0.3}')
    with pytest.raises(FormatError, match=r"m1\.json': key 'qa' appears twice"):
        read_model_dir(folder, metric="accuracy")
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(BOARD))
    weights_json, weights_csv = tmp_path / "w.json", tmp_path / "w.csv"
    weights_json.write_text('{"qa": 1, "qa": 2}')
    weights_csv.write_text("task,weight\nqa,1\nnli,1\nqa,2\n")
    cases = [
        (["--weights", "qa=2,qa=3"], "--weights: task 'qa' is given twice"),
        (["--weights", str(weights_json)], "key 'qa' appears twice in one JSON object"),
        (["--weights", str(weights_csv)], f"--weights: task 'qa' is given twice in {str(weights_csv)!r} (line 4)"),
        (["--groups", "g1=qa;g1=nli"], "--groups: group 'g1' is given twice"),
        (["--option", "ties=max", "--option", "ties=min"], "--option 'ties' is given twice"),
        (["--option", 'vector={"x": 1, "x": 2}'], "--option: key 'x' appears twice"),
    ]
    for extra, message in cases:
        assert main(["rank", str(ok), "--rule", "borda", "--quiet", *extra]) == 2, extra
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, (extra, err)


def test_deeply_nested_json_is_a_clear_error_not_a_recursion_error(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(JsonDepthError, match=f"nested more than {MAX_DEPTH} levels deep"):
        cs.read_leaderboard(deep)
    assert main(["kemeny", str(deep)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"JSON nested more than {MAX_DEPTH} levels deep" in err
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "m.json").write_text('{"qa": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(FormatError, match="nested more than"):
        read_model_dir(folder, metric="accuracy")
    nested = '{"a": {"b": ["[", "{", "\\"]"]}}'  # brackets inside strings are not nesting
    path = tmp_path / "strings.json"
    path.write_text('{"qa": {"x": 1, "y": 2}, "note": ' + nested + "}")
    with pytest.raises(cs.ConsensusError) as info:  # read past the depth check, refused for its shape
        cs.read_leaderboard(path)
    assert not isinstance(info.value, JsonDepthError)


# ------------------------------------------------------------------ names as written
HOSTILE = ["$\\foo$", "cost $5 and $10", "evil\u202eslatot", "clear\x1b[2Jscreen"]


@pytest.fixture
def hostile_board(tmp_path: Path) -> Path:
    path = tmp_path / "names.csv"
    rows = ["system,t1,t2,t3"] + [f"{name},{k},{(k + 1) % 4},{(k + 2) % 4}" for k, name in enumerate(HOSTILE)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_names_are_never_math_text_in_figures_or_pages(hostile_board, tmp_path):
    pytest.importorskip("matplotlib")
    lb = cs.read_leaderboard(hostile_board)
    assert lb.systems == tuple(HOSTILE)  # data keeps names byte for byte
    page = cs.analyze(lb).to_html()  # drew the figures: '$\foo$' used to raise a raw ValueError
    assert "\u202e" not in page.split("<svg")[0] and "evil\\u202eslatot" in page
    for command in (["report", str(hostile_board), "-o", str(tmp_path / "r.html")],
                    ["analyze", str(hostile_board), "--plot", str(tmp_path / "p.png")]):
        assert main([*command, "--quiet"]) == 0, command
    from consensus.plot import plot_bars
    from consensus.plot._base import short

    fig = plot_bars(lb.scores["t1"])
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels() + fig.axes[0].get_xticklabels()]
    drawn = [t for t in labels if "foo" in t or "cost" in t]
    assert drawn and all(short(name) in labels for name in HOSTILE[:2])
    fig.canvas.draw()  # math text would fail here ('$\foo$') or draw '5 and ' in italics
    assert short("cost $5 and $10") == "cost \\$5 and \\$10"


def test_control_and_bidi_characters_are_shown_where_a_person_reads(hostile_board, tmp_path, capsys, monkeypatch):
    for fmt in ("table", "markdown"):
        assert main(["rank", str(hostile_board), "--rule", "borda", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "\u202e" not in out and "\x1b" not in out  # shown as escapes (markdown escapes their backslash)
        assert ("evil\\u202eslatot" if fmt == "table" else "evil\\\\u202eslatot") in out
    # CSV and JSON written to a file keep names byte for byte; CSV to a terminal shows them
    target = tmp_path / "ranking.csv"
    assert main(["rank", str(hostile_board), "--rule", "borda", "--format", "csv", "-o", str(target)]) == 0
    assert "evil\u202eslatot" in target.read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["rank", str(hostile_board), "--rule", "borda", "--format", "csv"]) == 0
    shown = capsys.readouterr().out
    assert "\u202e" not in shown and "evil\\u202eslatot" in shown
    # an unknown option key is echoed visibly, never as a terminal command
    assert main(["prospective", str(hostile_board), "--option", "\x1b[2Jkey=1"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "'\\x1b[2Jkey'" in err



#: Invisible characters a name can hold, as visible() shows them: zero width space, soft hyphen,
#: byte-order mark, word joiner, a tag character (outside the BMP), line and paragraph separators.
INVISIBLE = {"\u200b": "\\u200b", "\u00ad": "\\xad", "\ufeff": "\\ufeff", "\u2060": "\\u2060",
             "\U000e0041": "\\U000e0041", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def test_invisible_characters_are_shown_where_a_person_reads(tmp_path, capsys, monkeypatch):
    """'gpt\u200b-4' printed as 'gpt-4': a zero width space, a soft hyphen, a U+FEFF and the other
    format characters (Unicode Cf) and the line/paragraph separators passed through visible()
    unchanged (only C0/C1 controls and the bidi ones were escaped), so two names could look
    alike. Tables, markdown, HTML, error lines and CSV on a terminal show them now; data files
    keep them byte for byte. (A reader splits names at U+2028/U+2029, which are whitespace:
    those two are checked in an error line and in the rendering functions.)"""
    from consensus.hints import visible
    from consensus.report.blocks import md_escape
    from consensus.report.html import _esc
    from consensus.results.base import one_line

    for char, shown in INVISIBLE.items():
        name = f"gpt{char}-4"
        assert visible(name) == one_line(name) == f"gpt{shown}-4", char
        assert char not in md_escape(name) and char not in _esc(name), char
    inside = [c for c in INVISIBLE if not c.isspace()]
    names = [f"m{char}x" for char in inside]
    board = tmp_path / "invisible.csv"
    board.write_text("system,t1,t2\n" + "".join(f"{n},{k},{(k + 2) % 5}\n" for k, n in enumerate(names)), encoding="utf-8")
    assert cs.read_leaderboard(board).systems == tuple(names)  # data keeps them
    for fmt in ("table", "markdown"):
        assert main(["rank", str(board), "--rule", "borda", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert not any(c in out for c in INVISIBLE), (fmt, out)
        assert all(f"m{INVISIBLE[c] if fmt == 'table' else INVISIBLE[c].replace(chr(92), chr(92) * 2)}x" in out
                   for c in inside), out
    page = tmp_path / "report.html"
    assert main(["report", str(board), "-o", str(page), "--quiet"]) == 0
    text = page.read_text(encoding="utf-8").split("<svg")[0]
    assert not any(c in text for c in INVISIBLE) and "m\\u200bx" in text
    target = tmp_path / "ranking.csv"
    assert main(["rank", str(board), "--rule", "borda", "--format", "csv", "-o", str(target)]) == 0
    assert all(n in target.read_text(encoding="utf-8") for n in names)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["rank", str(board), "--rule", "borda", "--format", "csv"]) == 0
    shown = capsys.readouterr().out
    assert not any(c in shown for c in INVISIBLE) and "m\\u200bx" in shown
    assert main(["prospective", str(board), "--option", "k\u2028e\u200by=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "k\\u2028e\\u200by" in err, err


# ------------------------------------------------------------------ odd inputs and early errors
def test_fifos_and_devices_as_input_are_named_as_such(tmp_path, capsys):
    import os

    fifo = tmp_path / "scores.csv"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO (named pipe)"), (Path("/dev/zero"), "a character device")):
        with pytest.raises(cs.LeaderboardError, match=re.escape(f"is {kind}, not a regular file: save the scores to a file")):
            cs.read_leaderboard(path)  # used to be 'file is empty' (and /dev/zero would never end)
        assert main(["rank", str(path), "--rule", "borda"]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_options_refused_up_front_print_their_error_alone(hostile_board, capsys):
    for extra in (["--resamples", "0"], ["--n-jobs", "-5", "--resamples", "5"]):
        assert main(["stability", str(hostile_board), *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("consensus: error: ") and err.count("\n") == 1 and "rep" not in err, err


def test_json_names_where_each_infinity_was(tmp_path, capsys):
    """A target no weighting can change has infinite distances: JSON writes null and names each
    place (result.l1.distance), not just 'result'."""
    path = tmp_path / "dominant.csv"
    path.write_text("system,t1,t2,t3\na,1,2,3\nb,2,3,1\nc,3,1,2\nd,4,4,4\n")
    assert main(["sensitivity", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["result"]["l1"]["distance"] is None and doc["result"]["linf"]["distance"] is None
    assert {"result.l1.distance", "result.linf.distance"} <= set(doc["non_finite"]) and "result" not in doc["non_finite"]


@pytest.mark.parametrize(("weight", "message"), [
    (True, "is not a number: True"),
    ("2", "is not a number: '2'"),
    (10**400, "is too large for a float: 100000000000... (401 digits)"),
    (5e-324, "is subnormal"),
])
def test_weights_are_numbers_and_subnormal_ones_are_refused(weight, message):
    """The API refuses what the command line refuses (True, "2"), a weight beyond float64 with a
    package error, and a subnormal weight that margins would have counted as zero (Kemeny then
    listed 8 optimal rankings where brute force finds 2)."""
    frame = json.loads(json.dumps(BOARD))
    import pandas as pd

    with pytest.raises(cs.errors.InvalidWeightError, match=re.escape(message)):
        cs.Leaderboard.from_frame(pd.DataFrame(frame), weights={"qa": weight})


# ------------------------------------------------------------------ bounded reading
def _compressed(kind: str, path, data: bytes):
    """`data` written to `path` compressed as `kind` (the package's own suffix added)."""
    import bz2
    import gzip
    import lzma
    import zipfile

    from consensus.io._opening import COMPRESSIONS

    target = path.with_name(path.name + COMPRESSIONS[kind][1][0])
    if kind == "zip":
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(path.name, data)
    elif kind == "zstd":
        zstandard = pytest.importorskip("zstandard")
        target.write_bytes(zstandard.ZstdCompressor(level=19).compress(data))
    else:
        target.write_bytes({"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](data))
    return target


KINDS = ["gzip", "bz2", "xz", "zstd", "zip"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_compression_bomb_is_refused_early_with_one_line(kind, tmp_path, capsys, monkeypatch):
    """Every compression the package decompresses is bounded: a bomb stops at the ratio check,
    a large file at the size limit, each with one line naming the file and the flag."""
    from consensus.io._limits import BOMB_AFTER

    monkeypatch.setattr("consensus.io._opening.BOMB_AFTER", BOMB_AFTER // 16)  # the same check, sooner (CI time)
    bomb = _compressed(kind, tmp_path / "bomb.csv", b"model,qa\n" + b"a,1\n" * (1 << 20))  # 4 MB of rows
    with pytest.raises(cs.errors.InputTooLargeError, match="it looks like a compression bomb"):
        cs.read_leaderboard(bomb)
    assert main(["rank", str(bomb), "--rule", "borda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expands more than 100 times" in err
    rows = "".join(f"m{i},{(i * 37) % 101},{(i * 53) % 97}\n" for i in range(40))
    board = _compressed(kind, tmp_path / "board.csv", ("model,t1,t2\n" + rows).encode())
    assert cs.read_leaderboard(board).n_systems == 40
    assert main(["rank", str(board), "--rule", "borda", "--max-input-size", "100", "--quiet"]) == 2
    assert "decompresses to more than 100 bytes (the input limit)" in capsys.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_a_compressed_file_is_named_so_and_read_whole(kind, tmp_path, capsys):
    """A compressed file not named so is refused with the name to give it (not 'not UTF-8');
    cut short it is 'truncated or damaged', never an internal error."""
    from consensus.io._opening import COMPRESSIONS

    board = _compressed(kind, tmp_path / "board.csv", b"model,qa,nli\na,1,2\nb,2,1\nc,3,3\n")
    assert cs.read_leaderboard(board).systems == ("a", "b", "c")
    hidden = tmp_path / "hidden.csv"
    hidden.write_bytes(board.read_bytes())
    assert main(["rank", str(hidden), "--rule", "borda"]) == 2
    assert f"is {kind}-compressed: name it hidden.csv{COMPRESSIONS[kind][1][0]}" in capsys.readouterr().err
    cut = tmp_path / board.name.replace("board", "cut")
    cut.write_bytes(board.read_bytes()[: len(board.read_bytes()) * 2 // 3])
    assert main(["rank", str(cut), "--rule", "borda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("damaged" in err or "truncated" in err), err


def test_a_zip_input_holds_one_file(tmp_path):
    import zipfile

    archive = tmp_path / "two.csv.zip"
    with zipfile.ZipFile(archive, "w") as fh:
        fh.writestr("a.csv", "model,qa\na,1\nb,2\n")
        fh.writestr("b.csv", "model,qa\na,1\nb,2\n")
    with pytest.raises(cs.LeaderboardError, match=r"a zip archive of 2 files \('a.csv', 'b.csv'\)"):
        cs.read_leaderboard(archive)


def test_input_limits_name_the_flag_that_raises_them(tmp_path, capsys, monkeypatch):
    import gzip

    board = tmp_path / "board.csv.gz"
    with gzip.open(board, "wt") as fh:  # 40 systems x 3 tasks of random-looking scores: no bomb
        fh.write("model,t1,t2,t3\n" + "".join(f"m{i},{(i * 37) % 101},{(i * 53) % 97},{(i * 71) % 89}\n" for i in range(40)))
    assert cs.read_leaderboard(board).n_systems == 40
    assert main(["rank", str(board), "--rule", "borda", "--max-input-size", "100", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "decompresses to more than 100 bytes (the input limit)" in err and "--max-input-size" in err
    assert main(["rank", str(board), "--rule", "borda", "--max-input-size", "lots"]) == 2
    assert "--max-input-size: expected a size such as 4G" in capsys.readouterr().err
    plain = tmp_path / "board.csv"
    plain.write_text("model,t1,t2,t3\n" + "".join(f"m{i},1,2,3\n" for i in range(40)))
    monkeypatch.setenv("CONSENSUS_MAX_INPUT_BYTES", "20000")  # 100 cells
    with pytest.raises(cs.errors.InputTooLargeError, match=r"holds more than 100 cells \(a blank line counts as one\) by line 26"):
        cs.read_leaderboard(plain)
    plain.write_text("model,t1,t2,t3\na,1,2,3\n" + "\n" * 200 + "b,3,2,1\n")  # 1.2 GB of newlines took minutes
    with pytest.raises(cs.errors.InputTooLargeError, match=r"holds more than 100 cells \(a blank line counts as one\) by line 95"):
        cs.read_leaderboard(plain)
    monkeypatch.delenv("CONSENSUS_MAX_INPUT_BYTES")
    monkeypatch.setattr("consensus.io._limits.MAX_LINE_CHARS", 1000)
    plain.write_text("model,t1\na," + "9" * 5000 + "\nb,1\n")
    with pytest.raises(cs.errors.InputTooLargeError, match="line 2 is longer than 1,000 characters"):
        cs.read_leaderboard(plain)


def test_every_reading_limit_says_how_to_get_through(tmp_path, capsys, monkeypatch):
    """A real file that compresses more than 100 times (a long repeated notes column) past the
    bomb threshold could not be read at all ('decompress it yourself'): --max-input-size set by
    hand replaces the ratio check (the size limit still holds) and the refusal names it. The
    line bound names the same flag and yields to it; the csv field limit and the JSON depth
    name a concrete way through."""
    import gzip

    from consensus.io._limits import BOMB_AFTER

    monkeypatch.setattr("consensus.io._opening.BOMB_AFTER", BOMB_AFTER // 16)  # the same check, sooner (CI time)
    rows = "".join(f"m{i},{(i * 37) % 101},{(i * 53) % 97},{'same note ' * 1000}\n" for i in range(40))
    board = tmp_path / "board.csv.gz"
    board.write_bytes(gzip.compress(("model,t1,t2,notes\n" + rows).encode()))  # 400 KB in about 1 KB
    with pytest.raises(cs.errors.InputTooLargeError, match=r"looks like a compression bomb; if you trust the file, "
                       r"set --max-input-size \(CONSENSUS_MAX_INPUT_BYTES\)"):
        cs.read_leaderboard(board)
    assert main(["rank", str(board), "--rule", "borda", "--quiet", "--max-input-size", "1M"]) == 0
    assert main(["rank", str(board), "--rule", "borda", "--quiet", "--max-input-size", "100k"]) == 2
    assert "decompresses to more than 102,400 bytes (the input limit)" in capsys.readouterr().err
    monkeypatch.setenv("CONSENSUS_MAX_INPUT_BYTES", "8M")
    assert cs.read_leaderboard(board).n_systems == 40
    monkeypatch.delenv("CONSENSUS_MAX_INPUT_BYTES")

    field = tmp_path / "field.csv"
    field.write_text('model,t1,notes\na,1,"' + "x" * 200_000 + '"\nb,2,y\n')
    with pytest.raises(cs.LeaderboardError, match=r"near line 2: a field longer than 131,072 characters .*drop that column"):
        cs.read_leaderboard(field)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 300 + "]" * 300)
    assert main(["rank", str(deep), "--rule", "borda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested more than 200 levels deep" in err and "json_normalize" in err

    monkeypatch.setattr("consensus.io._limits.MAX_LINE_CHARS", 1000)
    long_name = tmp_path / "long.csv"
    long_name.write_text("model,t1\n" + "a" * 5000 + ",1\nb,2\n")
    assert main(["rank", str(long_name), "--rule", "borda", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2 is longer than 1,000 characters" in err and "--max-input-size" in err
    assert main(["rank", str(long_name), "--rule", "borda", "--quiet", "--max-input-size", "1M"]) == 0


def test_a_parquet_table_is_bounded_like_a_csv_one(tmp_path, monkeypatch):
    """pd.read_parquet decoded any Parquet file whole: its pages are compressed and run-length
    encoded, so a few KB can hold a billion rows. Its own metadata's cell count is checked first,
    against the cell limit of a CSV table."""
    pytest.importorskip("pyarrow")
    import pandas as pd

    path = tmp_path / "board.parquet"
    pd.DataFrame({"qa": [0.5] * 40, "nli": [0.25] * 40}, index=[f"m{i}" for i in range(40)]).to_parquet(path)
    assert cs.read_leaderboard(path).n_systems == 40
    monkeypatch.setenv("CONSENSUS_MAX_INPUT_BYTES", "20000")  # 100 cells
    with pytest.raises(cs.errors.InputTooLargeError, match=r"holds 120 cells by its own metadata, more than 100: .*--max-input-size"):
        cs.read_leaderboard(path)


@pytest.mark.parametrize("columns", [600, 2000])  # below and above column_getter's threshold (1,000 columns)
def test_reading_a_wide_file_never_deep_copies_the_source_record(columns, tmp_path, monkeypatch):
    """Reading 20 x 10,000 took 31 s: pandas deep-copies a frame's attrs on every column access,
    and the Source kept there (a tuple of every column's file position) was copied whole each
    time, n^2 integers for n columns. Source.__deepcopy__ returns itself (it is immutable); a
    real copy goes through __reduce_ex__, counted here: none while reading, at either size."""
    import numpy as np
    import pandas as pd

    from consensus.io._labels import Source

    rng = np.random.default_rng(0)
    path = tmp_path / "wide.csv"
    pd.DataFrame(rng.random((20, columns)).round(4), columns=[f"task-{j}" for j in range(columns)],
                 index=pd.Index([f"s{i}" for i in range(20)], name="system")).to_csv(path)
    copies = []

    def counted(self, protocol):
        copies.append(1)
        return object.__reduce_ex__(self, protocol)

    monkeypatch.setattr(Source, "__reduce_ex__", counted, raising=False)
    assert cs.read_leaderboard(path).n_tasks == columns
    assert sum(copies) == 0, f"the Source was deep-copied {sum(copies)} times reading {columns} columns"


def test_a_truncated_gzip_and_a_header_alone_are_errors_not_crashes(tmp_path, capsys):
    """Found by tests/test_fuzz_inputs.py: two gzip magic bytes alone ended in an internal error
    (EOFError), and a header without rows warned 'Mean of empty slice' from the column analysis."""
    import gzip
    import warnings

    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(gzip.compress(b"model,qa\na,1\nb,2\n")[:12])
    with pytest.raises(cs.LeaderboardError, match="a truncated or damaged gzip file"):
        cs.read_leaderboard(cut)
    assert main(["rank", str(cut), "--rule", "borda"]) == 2
    assert "truncated or damaged gzip" in capsys.readouterr().err
    header = tmp_path / "header.csv"
    header.write_text("model,0,1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(cs.errors.LeaderboardErrors, match="at least 2 systems, got 0"):
            cs.read_leaderboard(header)


def test_one_number_rule_for_cells_weights_and_files(tmp_path, capsys):
    """'1_0' and non-ASCII digits are numbers to Python's float, not to the package: refused the
    same way in a cell and in --weights; a weights file gives JSON numbers, not strings."""
    from consensus.io._cells import parse_number

    assert [parse_number(t) for t in ("10", " 1e1 ", "1_0", "\uff11\uff10", "\u0661\u0660", "ten")] == [10.0, 10.0, None, None, None, None]
    board = tmp_path / "board.csv"
    board.write_text("model,qa,nli\na,0.7,0.5\nb,0.6,0.9\nc,0.5,0.4\n")
    for weights in ("qa=1_0", "qa=\uff12"):
        assert main(["rank", str(board), "--rule", "borda", "--weights", weights]) == 2
        assert "is not a number" in capsys.readouterr().err
    cells = tmp_path / "cells.csv"
    cells.write_text("model,qa,nli\na,1_0,0.5\nb,\uff11,0.9\nc,0.5,0.4\n", encoding="utf-8")
    with pytest.raises(cs.LeaderboardError, match=r"non-numeric scores for system\(s\) 'a', 'b' \(e.g. '1_0'\)"):
        cs.read_leaderboard(cells)
    as_text = tmp_path / "w.json"
    as_text.write_text('{"qa": "2"}')
    assert main(["rank", str(board), "--rule", "borda", "--weights", str(as_text)]) == 2
    assert "gives task 'qa' the weight '2', not a JSON number" in capsys.readouterr().err


def test_zip_and_bz2_edge_cases_are_named_not_crashes(tmp_path, monkeypatch):
    """A zip whose directory lies about the compressed size is still a bomb (the file's own size
    bounds the ratio); an encrypted member is refused in one line (was an internal error); a CSV
    whose first bytes read 'BZh' is text, not bz2; a gzip named .bz2 is told its right name."""
    import gzip
    import struct
    import zipfile

    from consensus.io._limits import BOMB_AFTER

    monkeypatch.setattr("consensus.io._opening.BOMB_AFTER", BOMB_AFTER // 16)
    bomb = _compressed("zip", tmp_path / "liar.csv", b"model,qa\n" + b"a,1\n" * (1 << 20))
    data = bytearray(bomb.read_bytes())
    central = data.index(b"PK\x01\x02")
    data[central + 20 : central + 24] = struct.pack("<I", 0xFFFFFFF0)  # the directory's compressed size
    bomb.write_bytes(bytes(data))
    assert zipfile.ZipFile(bomb).infolist()[0].compress_size == 0xFFFFFFF0
    from consensus.io._opening import _open_zip

    try:
        member, compressed = _open_zip(bomb)
    except cs.LeaderboardError as exc:  # Python 3.12+'s zipfile sees the overlapping sizes itself
        assert "possible zip bomb" in str(exc)
    else:
        member.close()
        assert compressed == bomb.stat().st_size  # the ratio is taken against the bytes there are
    with pytest.raises(cs.ConsensusError, match="looks like a compression bomb|truncated or damaged zip|possible zip bomb"):
        cs.read_leaderboard(bomb)
    locked = _compressed("zip", tmp_path / "locked.csv", b"model,qa\na,1\nb,2\n")
    data = bytearray(locked.read_bytes())
    for header, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general-purpose flag bit 0: encrypted
        at = data.index(header) + offset
        data[at] |= 1
    locked.write_bytes(bytes(data))
    with pytest.raises(cs.LeaderboardError, match="encrypted"):
        cs.read_leaderboard(locked)
    text = tmp_path / "bzh.csv"
    text.write_text("BZh,qa\na,1\nb,2\n")
    assert cs.read_leaderboard(text, index_col="BZh").systems == ("a", "b")
    wrong = tmp_path / "w.csv.bz2"
    wrong.write_bytes(gzip.compress(b"model,qa\na,1\nb,2\n"))
    with pytest.raises(cs.LeaderboardError, match=r"is gzip-compressed: name it w\.csv\.gz "):
        cs.read_leaderboard(wrong)


def test_instance_files_are_decompressed_with_the_same_bounds(tmp_path, monkeypatch):
    """--instances folders, globs and single files were handed to pandas, which decompressed
    them without the size limit or the bomb check."""
    from consensus.io._limits import BOMB_AFTER

    monkeypatch.setattr("consensus.io._opening.BOMB_AFTER", BOMB_AFTER // 16)
    folder = tmp_path / "logs"
    folder.mkdir()
    for kind, system in (("gzip", "a"), ("xz", "b")):  # one file per model
        rows = "".join(f"{system},qa,{i},{(i * 7 + len(kind)) % 2}\n" for i in range(20))
        _compressed(kind, folder / f"{kind}.csv", ("system,task,instance,score\n" + rows).encode())
    assert cs.read_instances(folder).n_systems == 2
    _compressed("gzip", folder / "zbomb.csv", b"system,task,instance,score\n" + b"a,qa,1,1\n" * (1 << 20))
    with pytest.raises(cs.errors.InputTooLargeError, match="it looks like a compression bomb"):
        cs.read_instances(folder)
    with pytest.raises(cs.errors.InputTooLargeError, match="it looks like a compression bomb"):
        cs.read_instances(folder / "zbomb.csv.gz")


def test_json_lines_and_preflib_lines_are_bounded_before_they_are_held(tmp_path, monkeypatch):
    """A JSON-lines sample file and a PrefLib file read each line with the same bound as a score
    table (lowered here to 100 characters so that the test stays small): a longer line is refused
    with the flag that raises it, before the line is held whole."""
    import consensus.io._opening as opening
    from consensus.errors import InputTooLargeError
    from consensus.formats.files import json_lines
    from consensus.formats.preflib import read_preflib

    monkeypatch.setattr(opening, "max_line_chars", lambda: 100)
    samples = tmp_path / "samples_qa.jsonl"
    samples.write_text('{"doc_id": 0}\n{"doc_id": 1, "pad": "' + "x" * 500 + '"}\n', encoding="utf-8")
    with pytest.raises(InputTooLargeError, match="line 2 is longer than 100 characters.*--max-input-size"):
        list(json_lines(samples))
    votes = tmp_path / "e.soc"
    votes.write_text("# FILE NAME: e.soc\n# ALTERNATIVE NAME 1: " + "a" * 500 + "\n1: 1\n", encoding="utf-8")
    with pytest.raises(InputTooLargeError, match="line 2 is longer than 100 characters"):
        read_preflib(votes)
    short = tmp_path / "ok.jsonl"
    short.write_text('{"doc_id": 0}\n\n{"doc_id": 1}\n', encoding="utf-8")
    assert [n for n, _ in json_lines(short)] == [1, 3]  # line numbers as before
