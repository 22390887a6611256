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
    """Runtime dependencies and the optional extras the tests use (plot, parquet)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    deps = project["dependencies"] + extras["plot"] + extras["parquet"]
    out = {}
    for dep in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", dep.strip())
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


def test_no_upper_caps_on_runtime_dependencies():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not [d for d in deps if "<" in d]


def test_every_subpackage_is_installed():
    """A regular (non-editable) install ships every package directory of the checkout."""
    from setuptools import find_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    shipped = set(find_packages(where=str(ROOT), include=config["include"]))
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("consensus", "solvers")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert on_disk and on_disk <= shipped, sorted(on_disk - shipped)


def test_version_has_one_source():
    import consensus

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "consensus._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", consensus.__version__)
