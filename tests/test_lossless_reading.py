"""Readers change nothing silently: headers, fields, numbers, names and types are read exactly
as the file says them, or refused with an error naming the column or line.

Each test reproduces one reported defect first (the file pandas would misread), through the
API and, where the defect was seen there, the CLI (in-process, ``tests/cli_runner``).
"""

from __future__ import annotations

import contextlib
import datetime
import gzip
import io
import json
import math
import string
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.cli import main
from consensus.errors import LeaderboardError, NonNumericScoreError
from consensus.io._file_tables import read_delimited
from consensus.io._instance_files import ragged_lines
from consensus.io._readers import read_table
from tests.cli_runner import run_cli_many


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _cli_json(capsys, *argv: str) -> dict:
    """The JSON document of ``consensus rank FILE --rule copeland`` run in-process (it takes
    missing scores as they are)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["rank", *argv, "--rule", "copeland", "--format", "json", "--keep-columns", "all", "--quiet"])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


# ------------------------------------------------------------------ 1. pandas' default writers


def test_cli_reads_pandas_default_json_and_parquet_like_the_api(tmp_path):
    frame = pd.DataFrame({"qa": [0.3, 0.5, 0.7], "nli": [0.1, 0.2, 0.3], "mt": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    frame.to_json(tmp_path / "lb.json")
    frame.to_parquet(tmp_path / "lb.parquet")
    results = run_cli_many([
        ["rank", str(tmp_path / name), "--rule", "mean", "--format", "json"] for name in ("lb.json", "lb.parquet")
    ])
    for name, res in zip(("lb.json", "lb.parquet"), results):
        assert res.returncode == 0, res.stderr
        doc = json.loads(res.stdout)
        assert doc["input"]["systems"] == ["a", "b", "c"], name
        assert doc["input"]["tasks"] == ["qa", "nli", "mt"], name
        api = cs.read_leaderboard(tmp_path / name)
        assert api.systems == ("a", "b", "c") and api.tasks == ("qa", "nli", "mt")


def test_records_without_a_name_column_are_refused_not_named_by_scores(tmp_path):
    frame = pd.DataFrame({"qa": [0.3, 0.5, 0.7], "nli": [0.1, 0.2, 0.3]}, index=["a", "b", "c"])
    frame.to_json(tmp_path / "records.json", orient="records")  # the index (names) is not written
    with pytest.raises(LeaderboardError, match=r"no column of system names.*'qa' holds numbers"):
        cs.read_leaderboard(tmp_path / "records.json")
    frame.reset_index(names="model").to_json(tmp_path / "named.json", orient="records")
    assert cs.read_leaderboard(tmp_path / "named.json").systems == ("a", "b", "c")


# ------------------------------------------------------------------ 2. JSON numbers


def test_json_numbers_are_parsed_as_python_parses_them(tmp_path, capsys):
    path = _write(tmp_path / "lb.json", '{"qa": {"a": 0.3, "b": 3e-1, "c": 0.30, "d": 30e-2, "e": 0.7}, '
                                        '"nli": {"a": 0.7, "b": 0.1, "c": 0.2, "d": 0.5, "e": 0.6}}')
    lb = cs.read_leaderboard(path)
    assert lb.scores["qa"].tolist()[:4] == [0.3] * 4  # one float, so a tie
    assert lb.scores.loc["e", "qa"] == 0.7 and lb.scores.loc["a", "nli"] == 0.7
    doc = _cli_json(capsys, str(path))
    assert [doc["input"]["scores"][s]["qa"] for s in "abcde"] == [0.3, 0.3, 0.3, 0.3, 0.7]


# ------------------------------------------------------------------ 3-5. headers


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("system,qa,qa,mt\na,1,2,3\nb,2,3,1\nc,3,1,2\n", r"repeats column name\(s\): 'qa' at columns 2 and 3"),
        ("system,qa,,mt\na,1,2,3\nb,2,3,1\nc,3,1,2\n", r"column\(s\) 3 of the header \(line 1\) have no name"),
    ],
)
def test_repeated_or_blank_headers_are_errors_naming_the_position(tmp_path, capsys, text, message):
    path = _write(tmp_path / "lb.csv", text)
    with pytest.raises(LeaderboardError, match=message):
        cs.read_leaderboard(path)
    assert main(["rank", str(path), "--rule", "mean"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "qa.1" not in err and "Unnamed" not in err


def test_pandas_to_csv_index_header_and_trailing_delimiter_are_read(tmp_path):
    frame = pd.DataFrame({"qa": [0.3, 0.5], "nli": [0.1, 0.2]}, index=["a", "b"])
    frame.to_csv(tmp_path / "lb.csv")  # header ",qa,nli": the index column has no name
    assert cs.read_leaderboard(tmp_path / "lb.csv").systems == ("a", "b")
    path = _write(tmp_path / "trailing.csv", "model,qa,nli,\na,0.3,0.1,\nb,0.5,0.2,\n")
    lb = cs.read_leaderboard(path)
    assert lb.tasks == ("qa", "nli")
    assert any("column(s) 4" in n and "trailing delimiter" in n for n in lb.notes)


def test_a_comment_line_above_the_header_is_skipped_and_said(tmp_path, capsys):
    path = _write(tmp_path / "lb.csv", "# exported 2024-05-01\nmodel,qa,nli\na,1,2\nb,2,1\nc,3,3\n")
    lb = cs.read_leaderboard(path)
    assert lb.systems == ("a", "b", "c") and lb.tasks == ("qa", "nli")
    assert any("skipped 1 comment line" in n and "line(s) 1" in n for n in lb.notes)
    assert main(["rank", str(path), "--rule", "mean"]) == 0
    assert "comment line" in capsys.readouterr().err
    # a header whose first name starts with '#' (a rank column) is a header, not a comment
    ranked = _write(tmp_path / "ranked.csv", "#,model,qa,nli\n1,a,1,2\n2,b,2,1\n3,c,3,3\n")
    assert read_table(ranked).columns.tolist() == ["#", "model", "qa", "nli"]


# ------------------------------------------------------------------ 6. ragged rows


@pytest.mark.parametrize(
    ("text", "line", "fields"),
    [
        ("system,t1,t2,t3\na,1,2,3\nb,2,3,1,5\nc,3,1,2\n", 3, 5),  # one extra field would shift the row
        ("system,t1,t2,t3\na,1,2,3\nb,2,3\nc,3,1,2\n", 3, 3),  # one missing field would become a missing score
        ('system,t1,t2\n"multi\nline",1,2\nb,2\nc,3,1\n', 4, 2),  # the line counts the quoted newline
    ],
)
def test_ragged_rows_are_errors_with_their_line(tmp_path, capsys, text, line, fields):
    path = _write(tmp_path / "lb.csv", text)
    with pytest.raises(LeaderboardError, match=rf"line {line} has {fields}\b"):
        cs.read_leaderboard(path)
    assert main(["rank", str(path), "--rule", "mean"]) == 2
    assert f"line {line} has {fields}" in capsys.readouterr().err


# ------------------------------------------------------------------ 7. types that are not scores


@pytest.mark.parametrize(
    ("column", "kind"),
    [
        ([True, False, True], "booleans"),
        (pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"]), "dates"),
        (pd.to_timedelta([1, 2, 3], unit="s"), "durations"),
        ([1 + 2j, 2 + 0j, 3 + 0j], "complex numbers"),
        (np.array([0.5, True, 0.7], dtype=object), "booleans"),
        (np.array([0.5, datetime.date(2020, 1, 1), 0.7], dtype=object), "dates"),
    ],
)
def test_values_pandas_would_convert_are_not_scores(column, kind):
    frame = pd.DataFrame({"qa": column, "nli": [0.1, 0.2, 0.3]}, index=["a", "b", "c"])
    with pytest.raises(NonNumericScoreError, match=rf"task 'qa'.*has {kind}, not scores"):
        cs.Leaderboard.from_frame(frame, infer=False)
    mixed = any(isinstance(v, float) for v in np.asarray(column, dtype=object))
    if mixed or kind == "complex numbers":  # numbers among them: a broken column of scores, always an error
        with pytest.raises(NonNumericScoreError, match=rf"task 'qa'.*has {kind}, not scores"):
            cs.Leaderboard.from_frame(frame)
    else:  # a whole column of booleans, dates or durations describes the systems: set aside, said
        read = cs.Leaderboard.from_frame(frame)
        assert read.tasks == ("nli",) and read.reading.excluded["qa"].role == "metadata"


def test_json_true_among_numbers_is_an_error(tmp_path, capsys):
    path = _write(tmp_path / "lb.json", '{"qa": {"a": 0.3, "b": true, "c": 0.5}, "nli": {"a": 0.7, "b": 0.1, "c": 0.2}}')
    with pytest.raises(NonNumericScoreError, match=r"booleans.*'b'"):
        cs.read_leaderboard(path)
    assert main(["rank", str(path), "--rule", "mean"]) == 2
    assert "booleans" in capsys.readouterr().err


# ------------------------------------------------------------------ 8. JSON names and orientation


def test_json_names_stay_strings(tmp_path, capsys):
    names = ["007", "7.0", "1e3", "7"]
    data = {"qa": dict(zip(names, [0.3, 0.4, 0.5, 0.1])), "nli": dict(zip(names, [0.7, 0.1, 0.2, 0.3]))}
    path = _write(tmp_path / "lb.json", json.dumps(data))
    assert cs.read_leaderboard(path).systems == tuple(names)
    assert _cli_json(capsys, str(path))["input"]["systems"] == names


def test_json_orientation_is_stated_and_can_be_given(tmp_path, capsys):
    by_system = {"a": {"qa": 0.3, "nli": 0.7}, "b": {"qa": 0.5, "nli": 0.1}, "c": {"qa": 0.4, "nli": 0.2}}
    path = _write(tmp_path / "lb.json", json.dumps(by_system))
    default = cs.read_leaderboard(path)  # read the pandas way round, and said
    assert default.tasks == ("a", "b", "c")
    assert any("as {task: {system: score}}" in n and "orient='index'" in n and "more outer keys" in n
               for n in default.notes)
    lb = cs.read_leaderboard(path, orient="index")
    assert lb.systems == ("a", "b", "c") and lb.tasks == ("qa", "nli")
    assert lb.scores.loc["b", "qa"] == 0.5
    assert main(["rank", str(path), "--rule", "mean"]) == 0
    assert "--orient index" in capsys.readouterr().err
    doc = _cli_json(capsys, str(path), "--orient", "index")
    assert doc["input"]["systems"] == ["a", "b", "c"]


def test_other_json_layouts(tmp_path):
    frame = pd.DataFrame({"qa": [0.3, 0.5], "nli": [0.1, 0.2]}, index=["a", "b"])
    for orient in ("split", "table", "index"):
        frame.to_json(tmp_path / f"{orient}.json", orient=orient)
    assert cs.read_leaderboard(tmp_path / "split.json").systems == ("a", "b")
    assert cs.read_leaderboard(tmp_path / "table.json").systems == ("a", "b")
    assert cs.read_leaderboard(tmp_path / "index.json", orient="index").tasks == ("qa", "nli")
    frame.to_json(tmp_path / "values.json", orient="values")
    with pytest.raises(LeaderboardError, match="list of lists"):
        cs.read_leaderboard(tmp_path / "values.json")
    _write(tmp_path / "bad.json", '{"qa": {"a": 0.3,}}')
    with pytest.raises(LeaderboardError, match=r"line 1, column"):
        cs.read_leaderboard(tmp_path / "bad.json")


# ------------------------------------------------------------------ encodings and compression


def test_gzip_and_encoding(tmp_path):
    text = "model,qa,nli\na,1,2\nb,2,1\n"
    (tmp_path / "lb.csv.gz").write_bytes(gzip.compress(text.encode()))
    assert cs.read_leaderboard(tmp_path / "lb.csv.gz").systems == ("a", "b")
    (tmp_path / "hidden.csv").write_bytes(gzip.compress(text.encode()))
    with pytest.raises(LeaderboardError, match=r"gzip-compressed: name it hidden\.csv\.gz"):
        cs.read_leaderboard(tmp_path / "hidden.csv")
    (tmp_path / "latin.csv").write_bytes("model,qa,nli\nJosé,1,2\nb,2,1\n".encode("latin-1"))
    with pytest.raises(LeaderboardError, match=r"not UTF-8 text \(line 2"):
        cs.read_leaderboard(tmp_path / "latin.csv")
    (tmp_path / "bom.csv").write_bytes("\ufeffmodel,qa,nli\na,1,2\nb,2,1\n".encode())
    assert read_table(tmp_path / "bom.csv").columns[0] == "model"


# ------------------------------------------------------------------ 13. the instance reader's rules


def test_instance_reader_keeps_names_and_ids_as_written(tmp_path):
    path = _write(tmp_path / "inst.csv", "system,task,instance,score\n"
                  "NA,qa,01,1\nNA,qa,1,0\nnull,qa,01,0\nnull,qa,1,1\nNA,qa,a,1\nnull,qa,a ,0\n")
    inst = cs.read_instances(path)
    assert inst.systems == ("NA", "null")  # names, not missing values
    assert list(inst.instances("qa")) == ["01", "1", "a", "a "]  # never merged
    frame = inst.task_frame("qa")
    assert frame.loc["NA", "01"] == 1 and frame.loc["NA", "1"] == 0 and math.isnan(frame.loc["null", "a"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("system,task,instance,score\na,qa,1,1\nb,qa,1\n", r"line 3 has 3"),
        ("system,task,instance,score\na,qa,1,1,0.5\nb,qa,1,0\n", r"line 2 has 5"),
        ('system,task,instance,score\n"a,b",qa,1,1\nb,qa,1,0,7\n', r"line 3 has 5"),  # the quoted path
        ("system,task,instance,score,score\na,qa,1,1,0\nb,qa,1,0,1\n", r"'score' at columns 4 and 5"),
    ],
)
def test_instance_reader_refuses_ragged_rows_and_repeated_headers(tmp_path, text, message):
    path = _write(tmp_path / "inst.csv", text)
    with pytest.raises(LeaderboardError, match=message):
        cs.read_instances(path)


def test_ragged_line_scan_matches_the_csv_module_across_blocks(tmp_path):
    rows = ["system,task,instance,score"] + [f"m{i % 7},qa,{i},{i % 2}" for i in range(3000)]
    rows[1234] += ",9"
    rows[2500] = "m1,qa,2500"
    path = _write(tmp_path / "inst.csv", "\r\n".join(rows) + "\r\n\r\n")
    assert ragged_lines(path, ",", 4) == [(1235, 5), (2501, 3)]


def test_instance_reader_errors_through_the_cli(tmp_path):
    (tmp_path / "gz.csv").write_bytes(gzip.compress(b"system,task,instance,score\na,qa,1,1\n"))
    (tmp_path / "latin.csv").write_bytes("system,task,instance,scoré\na,qa,1,1\n".encode("latin-1"))
    results = run_cli_many([
        ["impute", "--instances", "system,task,instance,score", str(tmp_path / name)] for name in ("gz.csv", "latin.csv")
    ])
    for res, expected in zip(results, ("gzip-compressed", "not UTF-8")):
        assert res.returncode == 2
        assert expected in res.stderr and "Traceback" not in res.stderr and res.stderr.count("\n") == 1


# ------------------------------------------------------------------ round trip (hypothesis)


_NAME_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"))
_WORD = st.text(_NAME_CHARS, min_size=1, max_size=6)
_NAME = st.one_of(
    st.lists(_WORD, min_size=1, max_size=3).map(" ".join),
    st.sampled_from(["007", "7.0", "1e3", "7", "-1", "NA", "null", "nan", "True", "0x1F"]),
    st.text(string.digits, min_size=1, max_size=4),
)
_SCORE = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0.1, 0.3, 0.7, 1.0, 0.0]),  # ties
    st.just(math.nan),  # missing
)


@st.composite
def _frames(draw):
    n_sys = draw(st.integers(2, 5))
    n_tasks = draw(st.integers(1, 4))
    names = draw(st.lists(_NAME, min_size=n_sys + n_tasks, max_size=n_sys + n_tasks, unique=True))
    systems, tasks = names[:n_sys], names[n_sys:]
    values = np.array(draw(st.lists(_SCORE, min_size=n_sys * n_tasks, max_size=n_sys * n_tasks)), dtype=float)
    values = values.reshape(n_sys, n_tasks)
    for i in range(n_sys):  # every system and every task has a score
        values[i, i % n_tasks] = draw(st.floats(-1e300, 1e300, allow_nan=False)) if np.isnan(values[i, i % n_tasks]) else values[i, i % n_tasks]
    for j in range(n_tasks):
        if np.isnan(values[:, j]).all():
            values[0, j] = 0.5
    return pd.DataFrame(values, index=pd.Index(systems, dtype=object), columns=pd.Index(tasks, dtype=object))


def _same(read: pd.DataFrame, expected: pd.DataFrame) -> None:
    assert list(read.index) == list(expected.index)
    assert list(read.columns) == list(expected.columns)
    a, b = read.to_numpy(dtype=float), expected.to_numpy(dtype=float)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.array_equal(a[~np.isnan(a)], b[~np.isnan(b)])  # bit-for-bit: == on floats


@given(frame=_frames(), writer=st.sampled_from(["csv", "json", "records", "parquet"]))
def test_round_trip_of_pandas_writers(tmp_path_factory, frame, writer):
    folder = tmp_path_factory.mktemp("rt")
    if writer == "csv":
        path = folder / "lb.csv"
        frame.to_csv(path)
        expected = frame
    elif writer == "parquet":
        path = folder / "lb.parquet"
        frame.to_parquet(path)
        expected = frame
    else:
        # pandas writes 10 significant digits: 1.7976931348623157e308 becomes 1.797693135e+308,
        # beyond the largest float (read as inf, refused); keep clear of that edge
        frame = frame.where(~(frame.abs() > 1e307), 1e307 * np.sign(frame))
        path = folder / "lb.json"
        if writer == "json":
            frame.to_json(path)
        else:
            named = frame.reset_index(names="__system__") if "__system__" not in frame.columns else None
            named.to_json(path, orient="records")
        # pandas writes 10 significant digits by default: compare with what the file says
        with path.open(encoding="utf-8") as fh:
            raw = json.load(fh)
        if writer == "json":
            expected = pd.DataFrame(
                {t: [raw[t][s] for s in frame.index] for t in frame.columns}, index=frame.index, dtype=float
            )
        else:
            expected = pd.DataFrame([[r[t] for t in frame.columns] for r in raw], index=frame.index,
                                    columns=frame.columns, dtype=float)
        expected.columns = pd.Index(list(frame.columns), dtype=object)
    lb = cs.read_leaderboard(path, keep_columns=True)
    _same(lb.scores, expected)
    doc = _cli_json(None, str(path))
    scores = doc["input"]["scores"]
    cli = pd.DataFrame(
        [[math.nan if scores[s][t] is None else scores[s][t] for t in doc["input"]["tasks"]] for s in doc["input"]["systems"]],
        index=doc["input"]["systems"], columns=doc["input"]["tasks"],
    )
    _same(cli, expected)


def test_read_delimited_is_exact_text(tmp_path):
    path = _write(tmp_path / "lb.csv", 'model,qa\n" a  b ",0.30\n007,3e-1\n')
    table = read_delimited(path, ",")
    assert table.frame["model"].tolist() == [" a  b ", "007"]
    assert table.frame["qa"].tolist() == ["0.30", "3e-1"]
    assert table.lines == (2, 3)


def test_csv_numbers_are_parsed_as_python_parses_them(tmp_path):
    """pandas' own text-to-float parser is not correctly rounded on every version: every cell
    must be the float Python's ``float`` gives for its text."""
    rng = np.random.default_rng(7)
    texts = [repr(float(x)) for x in rng.standard_normal(200) * 10.0 ** rng.integers(-300, 300, 200)]
    texts += ["0.30", "3e-1", "30e-2", "1.157920892373162e+77", "2.2250738585072014e-308", "4.9e-324"]
    rows = "".join(f"s{i},{t},{i}\n" for i, t in enumerate(texts))
    path = _write(tmp_path / "lb.csv", "model,qa,nli\n" + rows)
    lb = cs.read_leaderboard(path, keep_columns=True)
    assert lb.scores["qa"].tolist() == [float(t) for t in texts]
    inst = "system,task,instance,score\n" + "".join(f"m{i % 2},qa,{i // 2},{t}\n" for i, t in enumerate(texts))
    scores = cs.read_instances(_write(tmp_path / "inst.csv", inst))
    frame = scores.task_frame("qa")
    assert [frame.loc[f"m{i % 2}", str(i // 2)] for i in range(len(texts))] == [float(t) for t in texts]
