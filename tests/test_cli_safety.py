"""The command line never destroys input, never writes a broken file, and never answers a user
error with a traceback or a misleading exit code.

Each test reproduces a reported defect through the CLI's main function (``tests/cli_runner``),
and through the installed ``consensus`` in a subprocess where the process itself is the subject
(Ctrl-C, a solver's log written by C code, the memory refusal of a new interpreter).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest

import consensus as cs
from consensus.cli import main
from consensus.cli.args import UsageError
from consensus.cli.output import _replace_atomically
from consensus.report.csv_output import spreadsheet_safe
from tests.cli_runner import command as _command
from tests.cli_runner import installed_many, run_cli_many

SCORES = "system,t1,t2,t3\na,1,2,3\nb,2,3,1\nc,3,1,2\nd,4,4,4\n"


@pytest.fixture
def scores(tmp_path: Path) -> Path:
    path = tmp_path / "scores.csv"
    path.write_text(SCORES)
    return path


def _one_error_line(res: subprocess.CompletedProcess, code: int = 2) -> str:
    assert res.returncode == code, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr
    lines = [line for line in res.stderr.splitlines() if line.startswith("consensus: error:")]
    assert len(lines) == 1, res.stderr
    return lines[0]


# ------------------------------------------------------------------ 3. outputs


def test_outputs_never_overwrite_an_input_and_are_checked_before_writing(scores, tmp_path):
    weights = tmp_path / "weights.json"
    weights.write_text('{"t1": 2}')
    report = tmp_path / "report.txt"
    results = run_cli_many([
        ["rank", str(scores), "--rule", "mean", "--output", str(scores)],
        ["rank", str(scores), "--rule", "mean", "--output", str(tmp_path / "." / "scores.csv")],
        ["rank", str(scores), "--rule", "mean", "--output", str(report), "--plot", str(scores)],
        ["rank", str(scores), "--rule", "mean", "--weights", str(weights), "--output", str(weights)],
        ["rank", str(scores), "--rule", "mean", "--output", str(report), "--plot", str(tmp_path / "fig.xyz")],
        ["rank", str(scores), "--rule", "mean", "--output", str(tmp_path / "no" / "such" / "dir.txt")],
        ["rank", str(scores), "--rule", "mean", "--output", str(report), "--plot", str(report)],
    ])
    messages = [_one_error_line(res) for res in results]
    assert "is the input FILE" in messages[0] and "is the input FILE" in messages[1]
    assert "--plot" in messages[2] and "is the input FILE" in messages[2]
    assert "is the input --weights" in messages[3]
    assert "unknown figure format 'xyz'" in messages[4]
    assert "does not exist" in messages[5]
    assert "same file" in messages[6]
    assert scores.read_text() == SCORES and weights.read_text() == '{"t1": 2}'
    assert not report.exists()  # nothing written when an option is wrong


def test_outputs_are_written_atomically(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("previous report")
    os.chmod(target, 0o640)

    def failing(tmp: Path) -> None:
        tmp.write_text("half a rep")
        raise OSError(28, "No space left on device")

    with pytest.raises(UsageError, match="No space left on device"):
        _replace_atomically(target, failing, "--output")
    assert target.read_text() == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]  # no temporary file left
    _replace_atomically(target, lambda tmp: tmp.write_text("new report"), "--output")
    assert target.read_text() == "new report"
    assert (target.stat().st_mode & 0o777) == 0o640  # the replaced file's permissions are kept


def test_fifos_and_symlinks_are_written_through_never_replaced(scores, tmp_path, capsys):
    """A FIFO (like a device: /dev/null, /dev/stdout) is written through as the shell's > does; a
    symlink keeps pointing at its target, which is replaced atomically; '-' and /dev/stdout are stdout."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["rank", str(scores), "--rule", "borda", "--format", "csv", "--output", str(fifo)]) == 0
    reader.join(10)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and got[0].decode().startswith("position,tier,system,score")
    target = tmp_path / "real.csv"
    target.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert main(["rank", str(scores), "--rule", "borda", "--format", "csv", "--output", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("position,tier,system,score")
    capsys.readouterr()
    for name in ("-", "/dev/stdout"):
        assert main(["rank", str(scores), "--rule", "borda", "--format", "csv", "--output", name]) == 0
        assert capsys.readouterr().out.startswith("position,tier,system,score")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "pipe", "real.csv", "scores.csv"]
    assert main(["rank", str(scores), "--rule", "borda", "--plot", "-"]) == 2
    assert "--plot" in capsys.readouterr().err


def test_outputs_never_overwrite_a_file_of_an_input_folder_glob_or_link(tmp_path):
    folder = tmp_path / "per_model"
    folder.mkdir()
    for model, score in (("a", 0.5), ("b", 0.7), ("c", 0.6)):
        (folder / f"{model}.json").write_text(json.dumps({"qa": score, "nli": 1 - score}))
    logs = tmp_path / "logs"
    logs.mkdir()
    for system in ("s1", "s2"):
        (logs / f"{system}.csv").write_text("task,instance,score\nqa,1,0.5\nqa,2,1\n")
    hard = tmp_path / "hard.json"
    os.link(folder / "a.json", hard)
    results = run_cli_many([
        ["rank", str(folder), "--from", "model-dir", "--metric", "accuracy", "--rule", "borda", "--output", str(folder / "b.json")],
        ["rank", str(tmp_path / "logs" / "*.csv"), "--instances", "@file,task,instance,score", "--rule", "borda",
         "--output", str(logs / "s2.csv")],
        ["rank", str(folder), "--from", "model-dir", "--metric", "accuracy", "--rule", "borda", "--output", str(hard)],
    ])
    messages = [_one_error_line(res) for res in results]
    assert f"is the input FILE (file {str(folder / 'b.json')!r} of the folder)" in messages[0]
    assert f"is the input FILE (file {str(logs / 's2.csv')!r} of the glob)" in messages[1]
    assert "is the input FILE (file" in messages[2]  # a hard link to an input file is that file
    assert json.loads((folder / "b.json").read_text()) == {"qa": 0.7, "nli": 0.30000000000000004}
    assert (logs / "s2.csv").read_text().startswith("task,instance,score")


def test_interrupted_outputs_leave_the_old_pair_and_no_temporaries(scores, tmp_path, monkeypatch):
    """--output and --plot are committed together: Ctrl-C while the figure is drawn leaves the
    previous report and figure as they were, not a new report beside an old figure."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    report, figure = tmp_path / "report.txt", tmp_path / "figure.png"
    report.write_text("old report")
    figure.write_bytes(b"old figure")

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Figure, "savefig", interrupted)
    assert main(["rank", str(scores), "--rule", "borda", "--output", str(report), "--plot", str(figure)]) == 130
    assert report.read_text() == "old report" and figure.read_bytes() == b"old figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png", "report.txt", "scores.csv"]
    monkeypatch.undo()
    assert main(["rank", str(scores), "--rule", "borda", "--output", str(report), "--plot", str(figure)]) == 0
    assert report.read_text() != "old report" and figure.read_bytes()[:4] == b"\x89PNG"


def test_a_failing_second_rename_puts_the_first_output_back(scores, tmp_path, monkeypatch, capsys):
    """--output and --plot were renamed one after the other: when the second rename failed, the
    first output was already replaced (a new report beside the old figure). Each replaced file is
    now kept as a hard link until both renames are done, and put back if the second fails; a new
    file is removed. Only a file that cannot be put back is left replaced, and the error says so."""
    pytest.importorskip("matplotlib")
    report, figure = tmp_path / "report.txt", tmp_path / "figure.png"
    figure.write_bytes(b"old figure")
    real_replace = os.replace

    def failing(src, dst, *, fail_restore=False):
        if Path(dst) == figure and Path(src).name.startswith(".figure.png."):
            raise OSError(13, "Permission denied")
        if fail_restore and Path(src).name.endswith(".old"):
            raise OSError(30, "Read-only file system")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    command = ["rank", str(scores), "--rule", "borda", "--output", str(report), "--plot", str(figure)]
    for old in (None, "old report"):  # a new report is removed, an old one put back
        if old is not None:
            report.write_text(old)
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"cannot write --plot {str(figure)!r}: Permission denied" in err, err
        assert (report.read_text() if old else report.exists()) == (old or False)
        assert figure.read_bytes() == b"old figure"
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["figure.png", "scores.csv"] + (["report.txt"] if old else []))
    monkeypatch.setattr(os, "replace", lambda src, dst: failing(src, dst, fail_restore=True))
    assert main(command) == 2
    err = capsys.readouterr().err
    assert f"--output {str(report)!r} was already replaced and could not be put back" in err, err
    assert report.read_text() != "old report" and sorted(p.name for p in tmp_path.iterdir()) == ["figure.png", "report.txt", "scores.csv"]
    monkeypatch.setattr(os, "replace", real_replace)
    assert main(command) == 0
    assert report.read_text() != "old report" and figure.read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png", "report.txt", "scores.csv"]  # no link left


# ------------------------------------------------------------------ 4. JSON never holds inf or NaN


def test_json_output_with_an_infinite_gap_ratio_is_valid(tmp_path):
    single = tmp_path / "single.csv"
    single.write_text("system,t1\na,1\nb,2\nc,3\nd,4\n")  # Kemeny objective 0: a rule's gap ratio is inf
    results = run_cli_many([
        ["compare", str(single), "--rules", "plurality", "--format", "json"],
        ["analyze", str(single), "--rules", "plurality", "--format", "json", "--no-prospective"],
    ])
    for res in results:
        assert res.returncode == 0, res.stderr
        doc = json.loads(res.stdout, parse_constant=lambda c: pytest.fail(f"JSON holds {c}"))
        assert any(path.endswith("gap_ratio") and text == "inf" for path, text in doc["non_finite"].items())
    rows = json.loads(results[0].stdout)["result"]["rows"]
    assert [r["gap_ratio"] for r in rows if r["rule"] == "plurality"] == [None]
    frame = cs.compare(cs.read_leaderboard(single), rules=["plurality"])
    assert frame.loc["plurality", "gap_ratio"] == float("inf")  # the API keeps the number


# ------------------------------------------------------------------ 12. one line, never a traceback


def test_malformed_options_are_one_line_errors(scores):
    results = run_cli_many([
        ["compare", str(scores), "--k", "abc"],
        ["compare", str(scores), "--k", "1.5"],
        ["analyze", "--n", "3", "--seed", "-1"],
        ["rank", str(scores), "--rule", "kemeny", "--option", "foo=1"],
        ["analyze", "--example", "gumbel", "--n", "1"],
    ])
    messages = [_one_error_line(res) for res in results]
    assert "'abc' is not a whole number" in messages[0]
    assert "'1.5' is not a whole number" in messages[1]
    assert "--seed" in messages[2]
    assert "foo" in messages[3] and "time_limit" in messages[3]  # names the option and lists the valid ones
    assert "at least 2 systems" in messages[4]


def test_an_input_too_large_for_memory_is_refused_up_front():
    """The full analysis is checked as a whole before any of it (68 matrices of n x n, measured by
    benchmarks/limits.py), against the tightest bound: here the address-space limit of ulimit -v
    (3,000 systems fit this machine's memory but not 3 GiB of address space)."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))

    capped = subprocess.Popen(_command() + ["analyze", "--example", "gumbel", "--n", "3000", "--tasks", "3"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=cap,
                              env=dict(os.environ, MPLBACKEND="Agg"))
    (res,) = installed_many([["analyze", "--example", "gumbel", "--n", "100000", "--tasks", "3"]])
    message = _one_error_line(res)
    assert "the full analysis of 100000 systems" in message and "GiB" in message and "at most" in message
    out, err = capped.communicate(timeout=180)
    message = _one_error_line(subprocess.CompletedProcess([], capped.returncode, out, err))
    assert "the full analysis of 3000 systems needs about 4.6 GiB (68 matrices" in message
    assert "under the address-space limit (ulimit -v): at most about" in message


def test_max_memory_is_one_setting_for_every_memory_check(tmp_path, capsys):
    """--max-memory (CONSENSUS_MAX_MEMORY) bounds what the command may hold, counted from what the
    process holds now: 1,500 systems need about 172 MiB more for the pairwise comparison, refused
    with 20% less than that left, answered with 30% more."""
    from consensus.io._limits import _status_bytes

    board = tmp_path / "board.csv"
    board.write_text("model,t1,t2,t3\n" + "".join(f"m{i},{i % 97},{i % 89},{i % 83}\n" for i in range(1500)))
    need = 10 * 8 * 1500**2
    held = _status_bytes("VmRSS")
    assert main(["rank", str(board), "--rule", "copeland", "--max-memory", str(held + int(0.8 * need))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the pairwise comparison of 1500 systems needs about 0.2 GiB" in err
    assert "under --max-memory (CONSENSUS_MAX_MEMORY)" in err
    held = _status_bytes("VmRSS")
    assert main(["rank", str(board), "--rule", "copeland", "--max-memory", str(held + int(1.3 * need)), "--quiet"]) == 0
    assert main(["rank", str(board), "--rule", "copeland", "--max-memory", "lots"]) == 2
    assert "--max-memory: expected a size such as 4G" in capsys.readouterr().err


def test_resamples_and_repetitions_are_bounded_by_memory(scores, capsys, monkeypatch):
    """--resamples 10**11 would hold terabytes of positions: refused before any seed is drawn or
    progress is shown, with how many fit; a MemoryError the checks did not foresee names the bound
    hit, not the input."""
    import consensus.io._limits

    monkeypatch.setattr(consensus.io._limits, "available_memory", lambda: 8 * 1024**3)
    assert main(["stability", str(scores), "--resamples", str(10**11), "--rules", "mean,borda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "100000000000 resamples would hold about" in err
    fits = int(err.split("at most about ")[1].split()[0])
    assert 8 * 1024**3 // (1024 + 16 * 2 * 4) == fits  # 4 systems, 2 rules: what one resample keeps
    assert main(["experiment", "scaling", "--example", "votenrank-toy", "--repetitions", str(10**11)]) == 2
    assert "repetitions would hold about" in capsys.readouterr().err
    assert main(["experiment", "iia", "--example", "votenrank-toy", "--repetitions", str(10**11)]) == 2
    assert "repetitions would hold about" in capsys.readouterr().err

    def exhausted(*args, **kwargs):
        raise MemoryError("Unable to allocate 7.5 GiB for an array")

    monkeypatch.setattr("consensus.report.render", exhausted)
    assert main(["rank", str(scores), "--rule", "mean"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "out of memory (Unable to allocate 7.5 GiB for an array)" in err
    assert "input is too large" not in err and "fewer systems, resamples or repetitions" in err


def test_an_internal_error_is_one_line_with_exit_3(scores, capsys, monkeypatch):
    import consensus.cli.commands as commands

    def broken(*args, **kwargs):
        raise RuntimeError("something the package did not expect")

    monkeypatch.setattr(commands, "render", broken, raising=False)
    monkeypatch.setattr("consensus.report.render", broken)
    code = main(["rank", str(scores), "--rule", "mean"])
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and "internal error (RuntimeError: something the package did not expect)" in err
    assert "CONSENSUS_TRACEBACK=1" in err


@pytest.mark.xdist_group(name="serial")  # a wall-time assertion: see tests/conftest.py
def test_ctrl_c_during_a_solve_is_one_line_exit_130(tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.Popen(
        _command() + ["analyze", "--example", "gumbel", "--n", "150", "--phi", "0", "--tasks", "8", "--seed", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    time.sleep(4.0)  # imports done, inside the solve
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "consensus: error: interrupted"


# ------------------------------------------------------------------ 15. honest messages and exit codes


def test_a_modified_example_is_not_checked_against_its_published_values():
    (res,) = run_cli_many([["analyze", "--example", "votenrank-toy", "--weights", "t1=5"]])
    assert res.returncode == 0, res.stderr
    assert "--weights changed example 'votenrank-toy': its published values are not checked" in res.stderr
    assert "Checks against published values" not in res.stdout


def test_an_unknown_rule_in_compare_is_an_error(scores, capsys):
    assert main(["compare", str(scores), "--rules", "mean,bordaa"]) == 2
    err = capsys.readouterr().err
    assert "unknown rule(s) 'bordaa'" in err and "did you mean 'borda'" in err


def test_an_unavailable_solver_is_named_as_such(scores):
    (res,) = run_cli_many([["kemeny", str(scores), "--solver", "glpk", "--time-limit", "5"]])
    if res.returncode == 0:
        pytest.skip("GLPK is installed here")
    message = _one_error_line(res)
    assert "not available" in message and "time_limit" not in message and "--time-limit" not in message


def test_a_solver_log_goes_to_stderr_not_into_the_json(tmp_path):
    path = tmp_path / "g.csv"
    cs.datasets.gumbel_leaderboard(30, 8, phi=0.0, seed=1).scores.to_csv(path)
    (res,) = installed_many([["rank", str(path), "--rule", "kemeny", "--option", "verbose=true", "--format", "json"]])
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["result"]["rule"] == "kemeny"
    assert "HiGHS" in res.stderr  # the log was shown, on stderr


def test_csv_output_escapes_formulas(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("system,t1,t2\n=HYPERLINK(1),1,2\n+b,2,1\n-c,3,3\n@d,4,4\n-1e3,0,0\n")
    (res,) = run_cli_many([["rank", str(path), "--rule", "mean", "--format", "csv"]])
    assert res.returncode == 0, res.stderr
    rows = pd.read_csv(pd.io.common.StringIO(res.stdout), dtype=str)
    assert set(rows["system"]) == {"'=HYPERLINK(1)", "'+b", "'-c", "'@d", "-1e3"}  # a number is not a formula
    assert float(rows.loc[rows["system"] == "'-c", "score"].iloc[0]) == 3.0
    assert spreadsheet_safe("-0.5") == "-0.5" and spreadsheet_safe("\tx") == "'\tx"


def test_table_output_escapes_terminal_control_characters(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text('system,t1,t2\n"evil\x1b[2Jname",1,2\nb,2,1\nc,3,3\n')
    (res,) = run_cli_many([["rank", str(path), "--rule", "mean"]])
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stdout and "evil\\x1b[2Jname" in res.stdout


def test_a_library_deprecation_is_not_a_user_warning(capsys):
    """pyparsing 3.3 derives its deprecation warnings from UserWarning and DeprecationWarning: an
    older matplotlib's import printed one as ``consensus: warning`` before the real message."""
    import warnings

    from consensus.cli import _print_warnings

    class LibraryDeprecation(UserWarning, DeprecationWarning):
        pass

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("'enablePackrat' deprecated - use 'enable_packrat'", LibraryDeprecation)
        warnings.warn("every scored system ties on task 'qa'", UserWarning)
    _print_warnings(caught, quiet=False)
    err = capsys.readouterr().err
    assert "enablePackrat" not in err and err.count("consensus: warning:") == 1
