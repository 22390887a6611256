"""The package's shape: no import cycles, solvers independent of consensus, results independent of producers.

The import graph is read from the source with :mod:`ast`: module-level and function-level
imports alike (an import inside a function is still a dependency); imports under
``if TYPE_CHECKING:`` are skipped (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import consensus as cs

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("consensus", "solvers")

#: Modules longer than this are listed at the end of a test run (tests/conftest.py): a review
#: signal, not a law; a module is split by concept, not by count.
REVIEW_LINES = 600


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                candidates = [target] + [f"{target}.{alias.name}" for alias in node.names]
            else:
                candidates = [alias.name for alias in node.names]
            for dep in candidates:
                # a module's own parent packages are initialized before it anyway: not a dependency
                if dep in modules and dep != name and not name.startswith(dep + "."):
                    graph.add_edge(name, dep)
    return graph


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    cycles = sorted(nx.simple_cycles(graph), key=len)[:5]
    assert not cycles, f"import cycles: {cycles}"


def test_solvers_never_import_consensus():
    graph = _graph()
    offenders = [(a, b) for a, b in graph.edges if a.startswith("solvers") and b.startswith("consensus")]
    assert not offenders


def test_no_result_module_imports_the_code_that_produces_it():
    graph = _graph()
    # consensus.hints, consensus._docstrings: text helpers with no package import (how a name is shown,
    # option hints in both wordings, docstring sections written once)
    allowed = {"consensus.errors", "consensus.exact._certificates", "consensus.majority._pairwise", "consensus.board._leaderboard",
               "consensus.hints", "consensus._docstrings"}
    for module in graph:
        if module.startswith("consensus.results"):
            outside = {d for d in graph.successors(module) if not d.startswith("consensus.results")} - allowed
            assert not outside, f"{module} imports {sorted(outside)}"


def test_only_the_solver_layer_imports_pulp_and_highspy():
    for name, path in _modules().items():
        if name.startswith("solvers"):
            continue
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            assert not any(n.split(".")[0] in ("pulp", "highspy") for n in names), name


def long_modules() -> list[tuple[str, int]]:
    """Modules over :data:`REVIEW_LINES` lines, longest first (printed after a test run)."""
    sizes = [(name, path.read_text(encoding="utf-8").count("\n")) for name, path in _modules().items()]
    return sorted(((n, k) for n, k in sizes if k > REVIEW_LINES), key=lambda item: -item[1])


def test_version_and_help_import_no_heavy_dependency():
    """``consensus --version`` / ``--help`` stay fast: nothing heavy is imported for them
    (the timing itself is in benchmarks/cli_startup.py)."""
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\n"
        "from consensus.cli import main\n"
        "for argv in (['--version'], ['--help'], ['rank', '--help'], ['analyze', '--help']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        try:\n"
        "            main(argv)\n"
        "        except SystemExit:\n"
        "            pass\n"
        "heavy = sorted(m for m in ('pandas', 'numpy', 'scipy', 'networkx', 'pulp', 'highspy', 'matplotlib')"
        " if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_type_checkers_see_every_lazy_name():
    """The lazy top level (PEP 562) hides its names from type checkers and IDEs: the
    ``TYPE_CHECKING`` block of ``consensus/__init__`` imports each one from the module
    ``_EXPORTS`` loads it from (so do the stage packages and ``formats``), and both packages
    ship ``py.typed``."""
    stages = ("io", "board", "majority", "missing", "exact", "comparison", "resampling")
    for package in ("consensus", "consensus/formats", *(f"consensus/{stage}" for stage in stages)):
        tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
        exports = next(ast.literal_eval(node.value) for node in tree.body
                       if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "_EXPORTS")
        block = next(node for node in tree.body
                     if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
        seen = {}
        for node in block.body:
            assert isinstance(node, ast.ImportFrom) and node.level == 1
            for alias in node.names:
                seen[alias.name] = node.module or alias.name
        assert seen == exports, package
        if package != "consensus":  # every public name of a stage lives in a private module
            assert all(module.startswith("_") for module in exports.values()) or package.endswith("formats"), package
    assert (ROOT / "consensus" / "py.typed").exists() and (ROOT / "solvers" / "py.typed").exists()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_folders_show_the_data_flow():
    """No flat module is left at the top of the package but the shared foundations; every stage
    is a package of private modules, and a public name the top level exports lives in one."""
    flat = sorted(p.stem for p in (ROOT / "consensus").glob("*.py"))
    assert flat == ["__init__", "__main__", "_docstrings", "_lazy", "_version", "arguments", "datasets", "errors", "hints"], flat
    import consensus as cs

    for name in cs.__all__:  # the stage modules are private: cs.kemeny is the function, there is no module of that name
        assert not (ROOT / "consensus" / f"{name}.py").exists() or name in ("datasets", "errors"), name


def test_the_top_level_is_small():
    """At most 60 names at the top (the everyday questions, the data types, the common errors and
    the stage packages); every other public name lives in its stage and is reachable from there."""
    assert len(cs.__all__) <= 60, len(cs.__all__)
    stages = [getattr(cs, name) for name in ("io", "board", "majority", "missing", "exact", "comparison", "resampling")]
    for stage in stages:
        for name in stage.__all__:
            assert getattr(stage, name) is not None, (stage.__name__, name)


def test_a_pairwise_comparison_loads_no_solver():
    """highspy loads with the first solve and pulp only for a pulp solver, not with numpy-only
    code of the solver layer (``solvers/__init__`` resolves its names on first use, and
    ``solvers.backends`` imports pulp when a pulp solver is named)."""
    import subprocess
    import sys

    code = (
        "import sys, consensus as cs, pandas as pd\n"
        "board = cs.Leaderboard.from_frame(pd.DataFrame({'qa': [1, 2, 3], 'nli': [3, 1, 2]}, index=list('abc')))\n"
        "cs.pairwise(board); cs.majority_summary(board); cs.rank(board, 'copeland')\n"
        "print(','.join(m for m in ('pulp', 'highspy') if m in sys.modules))\n"
        "cs.kemeny(board)\n"
        "print(','.join(m for m in ('pulp', 'highspy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["", "highspy"]  # HiGHS is driven directly: pulp only for its solvers


def test_the_package_exports_resolve_lazily_to_the_right_objects():
    import subprocess
    import sys

    code = (
        "import sys, types, consensus as cs\n"
        "assert 'pandas' not in sys.modules\n"
        "import consensus.io, consensus.board, consensus.majority, consensus.missing, consensus.exact\n"
        "import consensus.comparison, consensus.resampling\n"
        "assert 'pandas' not in sys.modules  # a stage package imports nothing until a name is used\n"
        "for name in cs.__all__:\n"
        "    value = getattr(cs, name)\n"
        "    is_module = isinstance(value, types.ModuleType)\n"
        "    assert is_module == (name in {'datasets', 'rules', 'experiments', 'plot', 'report', 'formats', 'errors',\n"
        "                                  'results', 'io', 'board', 'majority', 'missing', 'exact', 'comparison',\n"
        "                                  'resampling', 'noise'}), name\n"
        "print(cs.kemeny(cs.load_example('votenrank-toy')).order)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "('B', 'C', 'D', 'A')"


def _undocumented() -> list[str]:
    """Public functions, methods and classes without a numpydoc docstring (Parameters / Returns)."""
    missing = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.ClassDef)) or child.name.startswith("_"):
                continue
            doc = ast.get_docstring(child) or ""
            name = f"{where}.{child.name}"
            if isinstance(child, ast.ClassDef):
                if not doc:
                    missing.append(name)
                visit(child, name)
                continue
            decorators = {getattr(d, "id", getattr(d, "attr", "")) for d in child.decorator_list}
            if "overload" in decorators:  # a typing signature; the implementation carries the docstring
                continue
            if decorators & {"property", "setter", "register"}:
                if not doc and "register" not in decorators:
                    missing.append(name)
                continue
            args = [a.arg for a in child.args.posonlyargs + child.args.args + child.args.kwonlyargs]
            args = [a for a in args if a not in ("self", "cls")]
            returns = child.returns is not None and not (
                isinstance(child.returns, ast.Constant) and child.returns.value is None
            )
            ok = bool(doc) and (not args or "Parameters\n" in doc) and (
                not returns or "Returns\n" in doc or "Yields\n" in doc
            )
            if not ok:
                missing.append(name)

    for module, path in _modules().items():
        visit(ast.parse(path.read_text(encoding="utf-8")), module)
    return missing


def test_every_public_function_has_a_numpydoc_docstring():
    missing = _undocumented()
    assert not missing, f"{len(missing)} without Parameters/Returns sections: {missing[:20]}"


def test_a_result_verifies_in_a_process_that_never_loaded_its_producer():
    """No registry to fill first: a linear-rule weights result verifies in a process that has
    not imported consensus.exact._winning (with the former hook list, verify() raised IndexError there;
    the result names its checker and it is imported on use)."""
    import subprocess
    import sys

    code = (
        "import dataclasses, sys, consensus as cs\n"
        "toy = cs.load_example('votenrank-toy')\n"
        "found = cs.condorcet_weights(toy, 'B')\n"
        "assert 'consensus.exact._winning' not in sys.modules\n"
        "as_borda = dataclasses.replace(found, rule='borda')\n"
        "print(type(as_borda.verify(toy)).__name__, 'consensus.exact._winning' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["bool", "True"]


def test_rule_lists_are_derived_from_the_declarations():
    """Every list of rules the package shows or checks against follows the ``@rule`` declarations."""
    from consensus.cli.parser import LINEAR_RULE_NAMES, RULE_NAMES
    from consensus.rules import RULES
    from consensus.rules.declaration import DECLARED
    from consensus.rules.linear import LINEAR_RULES

    assert set(RULES) == set(DECLARED) and all(RULES[name] is DECLARED[name] for name in RULES)
    assert RULE_NAMES == tuple(RULES)  # the CLI's --rule help (kept import-light: no rule module loads)
    assert LINEAR_RULE_NAMES == LINEAR_RULES == tuple(name for name, r in RULES.items() if r.linear)
    for name, declared in RULES.items():
        assert declared.linear or declared.not_linear, name  # every rule says whether the weight questions solve it
        if declared.not_linear and name != "condorcet":  # winning_weights(rule="condorcet") is condorcet_weights
            with pytest.raises(cs.InvalidOptionError, match="not linear in the task weights"):
                cs.winning_weights(cs.load_example("votenrank-toy"), "A", rule=name)
    comparison = cs.compare_rules(cs.load_example("votenrank-toy"), rules=list(RULES))
    assert set(comparison.rules) == set(RULES)  # compare runs every declared rule


def test_a_new_rule_is_one_declaration(tmp_path, monkeypatch):
    """The worked example of docs/architecture.md: a rule in one new file, found by rank and compare."""
    module = tmp_path / "median_rule.py"
    module.write_text(
        "import numpy as np\n"
        "from consensus.rules.declaration import rule\n"
        "from consensus.rules.engine import run_rule\n"
        "from consensus.rules.spec import CoreOutput, RuleSpec\n"
        "\n"
        "def _core(lb, opts, impute):\n"
        "    return CoreOutput(np.nanmedian(lb.oriented().to_numpy(dtype=float), axis=1))\n"
        "\n"
        "SPEC = RuleSpec('median_score', 'score', _core)\n"
        "\n"
        "@rule(SPEC, linear='a median of the scores is not a weighted sum')\n"
        "def median_score(data, **options):\n"
        "    return run_rule(SPEC, data, {}, options)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from consensus.rules import declaration, registry

    monkeypatch.setattr(declaration, "DECLARED", dict(declaration.DECLARED))
    import importlib

    new = importlib.import_module("median_rule")
    assert declaration.DECLARED["median_score"].function is new.median_score
    monkeypatch.setattr(registry, "RULES", {**registry.RULES, "median_score": declaration.DECLARED["median_score"]})
    monkeypatch.setattr(registry, "RULE_NAMES", tuple(registry.RULES))
    toy = cs.load_example("votenrank-toy")
    res = cs.rank(toy, "median_score")
    assert res.rule == "median_score" and res.preparation.missing is None
    assert set(res.order) == set(toy.systems)


def test_results_carry_their_protocol():
    """A result says its JSON command, its key among several results and its claims itself; the
    report package holds no table of result types (a new result is its module, its export and
    its report section)."""
    import consensus.results as results
    from consensus.report import document, sections

    source = (ROOT / "consensus" / "report" / "__init__.py").read_text(encoding="utf-8")
    assert "_COMMANDS" not in source and "_KEYS" not in source
    toy = cs.load_example("votenrank-toy")
    for res in (cs.rank(toy, "borda"), cs.kemeny(toy), cs.compare_rules(toy, rules=["borda"]),
                cs.prospective(toy), cs.condorcet_weights(toy, "B"), cs.majority_summary(toy)):
        assert document(res)["command"] == type(res).json_command != "", type(res).__name__
    pair = (cs.impute_pairwise(toy), cs.pairwise_confidence(toy))
    assert set(document(pair)["result"]) == {"imputation", "confidence"}
    for name in results.__all__:
        cls = getattr(results, name)
        if isinstance(cls, type) and cls in sections.registry and cls.__module__.startswith("consensus.results"):
            assert isinstance(cls.json_command, str), name
