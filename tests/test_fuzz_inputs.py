"""A hostile-input fuzzer: generated files through the command line and the readers.

Hypothesis writes files a careless or hostile user could pass (random bytes, truncated gzip,
JSON with repeated keys or deep nesting, names with control characters, bidi overrides and
math text, ragged rows, huge fields) and runs them through the CLI's main function and the
public readers. Whatever the file, the answer is a result (exit 0) or exactly one error line
(exit 2, a ``ConsensusError`` in the API): never an internal error (exit 3), never a raw Python
exception, never a file written outside the named outputs. The example count follows the
profile (a fraction of ``ci``: each example runs several commands); ``thorough`` runs ten times
as many.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import consensus as cs
from consensus.cli import main
from tests.strategies import examples

NAMES = st.one_of(
    st.text(min_size=1, max_size=12),
    st.sampled_from(["$\\foo$", "cost $5 and $10", "a\u202eb", "\x1b[2J", "=cmd()", "  ", "a,b", 'q"uote', "NaN"]),
)
CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**30, 10**30).map(str),
    st.sampled_from(["", "NA", "-", "1_0", "٣", "１", "0x10", "93.9/91.8", "1e400", "81%", "True"]),
    st.text(max_size=6),
)


@st.composite
def csv_files(draw) -> bytes:
    n_cols = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(CELLS, min_size=max(n_cols - 1, 0), max_size=n_cols + 1), min_size=0, max_size=6))
    header = ["model", *draw(st.lists(NAMES, min_size=n_cols, max_size=n_cols))]
    lines = [",".join(header)] + [",".join([draw(NAMES), *r]) for r in rows]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


@st.composite
def json_files(draw) -> bytes:
    kind = draw(st.sampled_from(["repeated", "deep", "object", "records", "garbage"]))
    if kind == "repeated":
        task = '{"a": 1, "b": 2, "c": 3}'
        return f'{{"qa": {task}, "nli": {task}, "qa": {task}}}'.encode()
    if kind == "deep":
        depth = draw(st.integers(150, 3000))
        return ("[" * depth + "]" * depth).encode()
    if kind == "object":
        tasks = draw(st.dictionaries(NAMES, st.dictionaries(NAMES, st.floats(allow_nan=True), max_size=4), max_size=4))
        return json.dumps(tasks).encode()
    if kind == "records":
        return json.dumps(draw(st.lists(st.dictionaries(NAMES, st.one_of(st.floats(), NAMES), max_size=4),
                                        max_size=4))).encode()
    return draw(st.binary(max_size=64))


@st.composite
def hostile_files(draw) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["csv", "json", "gz", "bytes"]))
    if kind == "csv":
        return "scores.csv", draw(csv_files())
    if kind == "json":
        return "scores.json", draw(json_files())
    if kind == "gz":
        data = gzip.compress(draw(csv_files()))
        cut = draw(st.integers(0, len(data)))
        return "scores.csv.gz", data[:cut] if draw(st.booleans()) else data  # truncated or whole
    return "scores.csv", draw(st.binary(max_size=200))


COMMANDS = [["rank", "--rule", "borda"], ["analyze", "--no-prospective"], ["inspect"], ["kemeny", "--format", "json"]]


@pytest.mark.slow
@given(hostile_files())
@examples(0.4, suppress_health_check=[HealthCheck.function_scoped_fixture])  # four commands each
def test_any_file_gives_a_result_or_one_error_line_never_a_crash(tmp_path_factory, capsys, hostile):
    folder = tmp_path_factory.mktemp("fuzz")
    name, data = hostile
    path = folder / name
    path.write_bytes(data)
    before = sorted(os.listdir(folder))
    for command in COMMANDS:
        code = main([command[0], str(path), *command[1:], "--quiet"])
        out, err = capsys.readouterr()
        assert code in (0, 2), (command, code, err)
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("consensus: error: "), err
            assert "\x1b" not in err and "\u202e" not in err
    assert sorted(os.listdir(folder)) == before  # nothing written beside the input
    try:
        cs.read_leaderboard(path)
    except cs.ConsensusError:
        pass  # a refusal is the package's own error; anything else fails the test


@pytest.mark.slow
@given(st.lists(st.tuples(NAMES, st.floats(-1e6, 1e6)), min_size=1, max_size=4))
@examples(0.4, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_weight_and_group_options_are_parsed_or_refused_in_one_line(tmp_path_factory, capsys, pairs):
    folder = tmp_path_factory.mktemp("opts")
    board = folder / "board.csv"
    board.write_text("model,qa,nli\na,0.7,0.5\nb,0.6,0.9\nc,0.5,0.4\n")
    weights = ",".join(f"{k}={v!r}" for k, v in pairs)
    groups = ";".join(f"{k}=qa" for k, _ in pairs)
    for extra in (["--weights", weights], ["--groups", groups], ["--option", f"{pairs[0][0]}={pairs[0][1]!r}"]):
        code = main(["rank", str(board), "--rule", "borda", "--quiet", *extra])
        err = capsys.readouterr().err
        assert code in (0, 2), (extra, err)
        assert code == 0 or err.count("\n") == 1, err
    assert sorted(p.name for p in Path(folder).iterdir()) == ["board.csv"]
