"""The declared dependency floors are the versions CI tests at (.ci/floors.txt)."""

from __future__ import annotations

import re
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.11+ has tomllib
    tomllib = None

ROOT = Path(__file__).resolve().parent.parent


def _declared() -> dict[str, str]:
    """Runtime dependencies and the optional extras the tests use (plot, parquet, dask, zstd)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    deps = project["dependencies"] + extras["plot"] + extras["parquet"] + extras["dask"] + extras["zstd"]
    out = {}
    for dep in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[a-z,]+\])?\s*>=\s*([0-9.]+)", dep.strip())
        assert m, f"runtime dependency {dep!r} must be declared as 'name>=floor'"
        out[m.group(1).lower()] = m.group(2)
    return out


def _pinned() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".ci" / "floors.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            out[name.strip().lower()] = version.strip()
    return out


def test_floors_file_pins_exactly_the_declared_floors():
    assert _pinned() == _declared()


#: Advisories of code execution or memory safety in the dependencies the package declares:
#: package -> (the first release without them, the advisories). A declared floor below the
#: fixed release would let users install a vulnerable version that CI calls supported.
ADVISORIES = {
    "pyarrow": ("14.0.1", "CVE-2023-47248: deserialisation of untrusted IPC/Parquet data runs code (12.0.0-14.0.0)"),
    "tqdm": ("4.66.3", "CVE-2024-34062: CLI arguments passed to eval (4.4.0-4.66.2)"),
    "numpy": ("1.22.0", "CVE-2021-41496: buffer overflow in array_from_pyobj (f2py)"),
    "scipy": ("1.10.0", "CVE-2023-25399: reference-count leak in Py_FindObjects; CVE-2023-29824: use after free"),
    "distributed": ("2021.10.0", "CVE-2021-42343: the local cluster listened on every interface"),
}


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_no_declared_floor_is_below_a_release_with_a_known_advisory():
    declared = _declared()
    below = {name: (declared[name], fixed, why) for name, (fixed, why) in ADVISORIES.items()
             if name in declared and _version(declared[name]) < _version(fixed)}
    assert not below, f"raise these floors past their advisories: {below}"
    assert set(ADVISORIES) <= set(declared)  # the table speaks of what the package declares


def test_no_upper_caps_on_runtime_dependencies():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not [d for d in deps if "<" in d]


def test_every_subpackage_is_installed():
    """A regular (non-editable) install ships every package directory of the checkout.

    setuptools' ``packages.find`` keeps the packages matching an ``include`` pattern
    (fnmatch); the check applies the same patterns (setuptools itself is not installed in
    every venv, e.g. Python 3.13's).
    """
    from fnmatch import fnmatchcase

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("consensus", "solvers")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert {"consensus", "consensus.results", "consensus.rules", "consensus.report", "solvers"} <= on_disk
    left_out = sorted(name for name in on_disk if not any(fnmatchcase(name, pat) for pat in config["include"]))
    assert not left_out


def test_version_has_one_source():
    import consensus

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "consensus._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", consensus.__version__)


def test_citation_file_names_the_version_and_every_paper():
    yaml = __import__("pytest").importorskip("yaml")  # PyYAML comes with dask, in the test extra
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    version = re.search(r'__version__ = "([^"]+)"', (ROOT / "consensus" / "_version.py").read_text()).group(1)
    assert cff["cff-version"] == "1.2.0" and cff["version"] == version
    titles = " | ".join(ref["title"] for ref in cff["references"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for paper in ("best systems", "Missing Scores", "Vote'n'Rank", "Dataset Votes"):
        assert paper.lower() in titles.lower()
    assert "## How to cite" in readme and "CITATION.cff" in readme
