"""A hostile-input fuzzer: generated files through the command line and the readers.

Hypothesis writes files a careless or hostile user could pass (random bytes, truncated gzip,
JSON with repeated keys or deep nesting, names with control characters, bidi overrides and
math text, ragged rows, huge fields; and boards that read, with hostile names and edge cells,
so that the commands run past the reading step) and runs them through the CLI's main function
(rank, analyze, inspect, kemeny, report, prospective, possible, compare, impute) and the public
readers (read_leaderboard, read_instances, the model-dir importer). Whatever the file, the
answer is a result (exit 0) or exactly one error line (exit 2, a ``ConsensusError`` in the API):
never an internal error (exit 3), never a raw Python exception, never a file written outside the
named outputs; an ``--output`` that is a FIFO, a symlink or standard output is never replaced by
a regular file. The example count follows the profile (a fraction of ``ci``: each example runs
several commands); ``thorough`` runs ten times as many.
"""

from __future__ import annotations

import bz2
import contextlib
import csv
import gzip
import io
import json
import lzma
import os
import subprocess
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import consensus as cs
from consensus.cli import main
from tests.cli_runner import command as installed_command
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


def _pack(kind: str, data: bytes) -> tuple[str, bytes]:
    """`data` compressed as `kind`, with the file name the package reads it by."""
    if kind == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("scores.csv", data)
        return "scores.csv.zip", buffer.getvalue()
    pack = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind]
    return f"scores.csv.{kind}", pack(data)


@st.composite
def readable_boards(draw) -> bytes:
    """A CSV the reader accepts more often than not (quoted properly, mostly numbers), with hostile
    names and edge cells: the commands then run past the reading step, on what they compute."""
    def key(name: str) -> str:
        return " ".join(name.split())

    tasks = draw(st.lists(NAMES, min_size=1, max_size=4, unique_by=key))
    systems = draw(st.lists(NAMES, min_size=2, max_size=5, unique_by=key))
    cell = st.one_of(st.integers(0, 4).map(str), st.sampled_from(["NA", "", "0.5", "1e300", "-1e300", "1e-320", "-0"]))
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([["model", *tasks]] + [[s, *(draw(cell) for _ in tasks)]
                                                                               for s in systems])
    return buffer.getvalue().encode("utf-8", "surrogatepass")


@st.composite
def hostile_files(draw) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["board", "csv", "json", "packed", "bytes", "board"]))
    if kind == "board":
        return "scores.csv", draw(readable_boards())
    if kind == "csv":
        return "scores.csv", draw(csv_files())
    if kind == "json":
        return "scores.json", draw(json_files())
    if kind == "packed":
        name, data = _pack(draw(st.sampled_from(["gz", "bz2", "xz", "zip"])), draw(csv_files()))
        cut = draw(st.integers(0, len(data)))
        return name, data[:cut] if draw(st.booleans()) else data  # truncated or whole
    return "scores.csv", draw(st.binary(max_size=200))


#: Each command with the options it runs with (FILE goes after the command's name). ``inspect``
#: takes no --quiet: given one it refused every file as a usage error, so the fuzzer never read a
#: file through it; :func:`test_every_fuzzed_command_runs_on_a_valid_board` keeps these valid.
COMMANDS = [["rank", "--rule", "borda", "--quiet"], ["analyze", "--no-prospective", "--quiet"], ["inspect"],
            ["kemeny", "--format", "json", "--quiet"]]
#: The other commands that read a leaderboard (``report`` to stdout, without its figure: the
#: figure's names are tests/test_hostile_input.py's).
MORE_COMMANDS = [["report", "--no-figure", "--no-prospective", "--quiet"], ["prospective", "--quiet"],
                 ["possible", "--quiet"], ["compare", "--quiet"], ["impute", "--quiet"]]
VALID = "model,t1,t2,t3\na,1,2,3\nb,2,3,1\nc,3,1,2\nd,4,4,4\n"


def _run(command: list[str], path: Path, capsys) -> None:
    """`command` on `path` in-process: a result, or exactly one visible error line (exit 2)."""
    code = main([command[0], str(path), *command[1:]])
    _, err = capsys.readouterr()
    assert code in (0, 2), (command, code, err)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("consensus: error: "), (command, err)
        assert "\x1b" not in err and "\u202e" not in err and "\u200b" not in err, (command, err)
        assert "unrecognized arguments" not in err, (command, err)  # a usage error would hide the file


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> None:
    """Every fuzzed command once on a valid board: its imports paid before a hypothesis deadline."""
    board = tmp_path_factory.mktemp("warm") / "board.csv"
    board.write_text(VALID)
    for command in COMMANDS + MORE_COMMANDS:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main([command[0], str(board), *command[1:]])


@pytest.mark.slow
def test_every_fuzzed_command_runs_on_a_valid_board(tmp_path, capsys):
    board = tmp_path / "board.csv"
    board.write_text(VALID)
    for command in COMMANDS + MORE_COMMANDS:
        assert main([command[0], str(board), *command[1:]]) == 0, (command, capsys.readouterr().err)
        assert capsys.readouterr().out


@pytest.mark.slow
@given(hostile_files())
@examples(0.4, suppress_health_check=[HealthCheck.function_scoped_fixture])  # four commands each
def test_any_file_gives_a_result_or_one_error_line_never_a_crash(tmp_path_factory, capsys, warm, hostile):
    folder = tmp_path_factory.mktemp("fuzz")
    name, data = hostile
    path = folder / name
    path.write_bytes(data)
    before = sorted(os.listdir(folder))
    for command in COMMANDS:
        _run(command, path, capsys)
    assert sorted(os.listdir(folder)) == before  # nothing written beside the input
    try:
        cs.read_leaderboard(path)
    except cs.ConsensusError:
        pass  # a refusal is the package's own error; anything else fails the test


@st.composite
def instance_files(draw) -> bytes:
    """Long instance-level rows (system, task, instance, score): hostile names, ids and cells, ragged rows."""
    header = draw(st.sampled_from([["system", "task", "instance", "score"], ["system", "task", "score"],
                                   ["system", "task", "instance", "score", "system"]]))
    field = st.one_of(NAMES, CELLS, st.integers(0, 3).map(str))
    rows = draw(st.lists(st.lists(field, min_size=3, max_size=5), max_size=8))
    lines = [",".join(header)] + [",".join(r) for r in rows]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


@pytest.mark.slow
@given(hostile_files(), instance_files(), json_files())
@examples(0.3, suppress_health_check=[HealthCheck.function_scoped_fixture])  # five commands and three readers each
def test_every_other_command_and_reader_gives_a_result_or_one_error(tmp_path_factory, capsys, warm, hostile,
                                                                   instances, model_json):
    """report, prospective, possible, compare and impute through the CLI's main function, and
    the instance reader and the model-dir importer through the API: a result or the package's
    own error (exit 2, one line), never a crash, never a file written beside the inputs."""
    folder = tmp_path_factory.mktemp("more")
    name, data = hostile
    path = folder / name
    path.write_bytes(data)
    logs = folder / "logs.csv"
    logs.write_bytes(instances)
    models = folder / "models"
    models.mkdir()
    (models / "m1.json").write_bytes(model_json)
    (models / "m2.json").write_text('{"qa": 0.5, "nli": 0.25}')
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    for command in MORE_COMMANDS:
        _run(command, path, capsys)
    for read in (lambda: cs.read_instances(logs), lambda: cs.read_instances(path),
                 lambda: cs.formats.read_format(models, "model-dir", metric="accuracy")):
        try:
            read()
        except cs.ConsensusError:
            pass  # a refusal is the package's own error; anything else fails the test
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before


@pytest.mark.slow
def test_outputs_that_are_not_regular_files_are_never_replaced(tmp_path, capsys, monkeypatch):
    """--output as a FIFO, a symlink, '-' and the names of standard output, through every command
    that writes one: a FIFO stays a FIFO (written through), a symlink stays a link (its target
    replaced), the stdout names go to standard output; no regular file appears in their place."""
    import stat
    import threading

    board = tmp_path / "board.csv"
    board.write_text(VALID)
    real = tmp_path / "real.out"
    real.write_text("old")
    link = tmp_path / "link.out"
    link.symlink_to(real)
    fifo = tmp_path / "pipe.out"
    os.mkfifo(fifo)
    monkeypatch.chdir(tmp_path)  # '-' taken for a file name would appear here
    for command in [COMMANDS[0], COMMANDS[3], *MORE_COMMANDS]:
        argv = [command[0], str(board), *command[1:]]
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
        reader.start()
        code = main([*argv, "--output", str(fifo)])
        reader.join(5)  # the writer closed the pipe: the reader sees its end
        if reader.is_alive():  # a command that failed before writing: release the reader
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # ENXIO: no reader left to release (it ended meanwhile)
                pass
            reader.join(10)
        assert code == 0 and got and got[0], (command, capsys.readouterr().err)
        assert stat.S_ISFIFO(fifo.lstat().st_mode), command
        real.write_text("old")
        assert main([*argv, "--output", str(link)]) == 0, command
        assert link.is_symlink() and link.resolve() == real and real.read_text() not in ("", "old"), command
        capsys.readouterr()
        for name in ("-", "/dev/stdout"):
            assert main([*argv, "--output", name]) == 0, (command, name)
            assert capsys.readouterr().out, (command, name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.csv", "link.out", "pipe.out", "real.out"]


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


def _bomb(path: Path, row: bytes, size: int) -> Path:
    """`size` bytes of `row` repeated, deflated into a gzip file a few hundred KB long."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
    chunk = row * (1 << 20 // len(row))
    with path.open("wb") as fh:
        fh.write(packer.compress(b"model,qa\n"))
        for _ in range(size // len(chunk)):
            fh.write(packer.compress(chunk))
        fh.write(packer.flush())
    return path


def test_hostile_files_in_real_processes_exit_2_under_a_memory_cap(tmp_path):
    """Real processes, for what main() in-process cannot show: the installed command's exit code
    under a memory cap (an address space of 2.5 GiB, ulimit -v; about 1.5 GiB of it is the
    interpreter with numpy, pandas and the solvers mapped). A 64 MB gzip bomb of rows, a 64 MB
    bomb of one line, 100,000 nested brackets and a 70 MB line each end in the package's own
    refusal, one line, exit 2: not 'out of memory', which unbounded reading would reach."""
    import resource

    files = [
        _bomb(tmp_path / "rows.csv.gz", b"a,1\n", 64 << 20),
        _bomb(tmp_path / "line.csv.gz", b"9", 64 << 20),
        tmp_path / "deep.json",
        tmp_path / "long.csv",
    ]
    files[2].write_text("[" * 100_000 + "]" * 100_000)
    files[3].write_bytes(b"model,qa\na," + b"7" * (70 << 20) + b"\n")
    refusals = ["looks like a compression bomb", "looks like a compression bomb", "nested more than 200 levels deep",
                "is longer than"]

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (5 << 29, 5 << 29))

    env = dict(os.environ, MPLBACKEND="Agg")
    procs = [subprocess.Popen(installed_command() + ["rank", str(f), "--rule", "borda"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, preexec_fn=cap) for f in files]
    for path, proc, refusal in zip(files, procs, refusals):
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, (path.name, err)
        assert err.count("\n") == 1 and err.startswith("consensus: error: ") and refusal in err, (path.name, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f.name for f in files)
