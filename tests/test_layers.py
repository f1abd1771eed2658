"""The suite's layers point one way: `poker/` (shared ground) imports nothing from
`services/` or `clients/`, the project's modules import one another without a cycle,
and importing any of them changes no environment variable.

Read from the source with `ast`, every module of poker/, services/ and clients/:

* an import anywhere in a module of `poker/` counts (module level, in a function, or
  under `if TYPE_CHECKING:`): shared code must work without the services or the SDK;
* a cycle is looked for among the imports that run when a module is loaded: those at
  module level (in a class body, a `try` or an `if` too), but not under
  `if TYPE_CHECKING:` (never run) nor inside a function. An import in a function runs
  when the function is called, after both modules have loaded, so it cannot deadlock
  an import; it is allowed as a deliberate lazy load (a subcommand's dependencies, an
  optional backend), and `test_function_level_imports_are_listed` keeps the ones that
  close a loop in sight.

`poker/cli.py` names its subcommands' modules as strings for `importlib`: a dispatch
table, not an import, and not counted.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("poker", "services", "clients")


@dataclass(frozen=True)
class Import:
    """One import statement's target module, and when it runs."""

    target: str
    line: int
    at_load: bool  # runs when the importing module is loaded


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the layers, by dotted name."""
    found = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            found[module_name(path)] = path
    return found


ALL = modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str) -> list[Import]:
    """What module `name` imports: a project module named by `from X import Y` is X.Y
    when that is a module, else X."""
    path = ALL[name]
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, False)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    visit_stmt(stmt, False)
                for stmt in child.orelse:
                    visit_stmt(stmt, at_load)
            else:
                visit_stmt(child, at_load)

    def visit_stmt(node: ast.AST, at_load: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno, at_load) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(Import(sub if sub in ALL else base, node.lineno, at_load))
        else:
            visit(node, at_load)

    visit(tree, True)
    return found


IMPORTS = {name: imports_of(name) for name in ALL}


def _layer(target: str) -> str:
    return target.split(".", 1)[0]


def test_poker_imports_nothing_from_services_or_clients() -> None:
    wrong = [f"{ALL[name].relative_to(ROOT)}:{imp.line} imports {imp.target}"
             for name in ALL if _layer(name) == "poker"
             for imp in IMPORTS[name] if _layer(imp.target) in ("services", "clients")]
    assert not wrong, "\n".join(wrong)


def _graph(at_load_only: bool) -> dict[str, set[str]]:
    return {name: {imp.target for imp in IMPORTS[name]
                   if imp.target in ALL and imp.target != name
                   and (imp.at_load or not at_load_only)}
            for name in ALL}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_cycles_finds_a_loop_and_nothing_else() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_projects_modules() -> None:
    found = cycles(_graph(at_load_only=True))
    assert not found, "import cycles (modules loaded by one another):\n" + "\n".join(
        " <-> ".join(c) for c in found)


def _closing_lazy_imports() -> Iterator[str]:
    at_load = _graph(at_load_only=True)
    for name in ALL:
        for imp in IMPORTS[name]:
            if imp.at_load or imp.target not in ALL:
                continue
            # does the target reach back to `name` through imports run at load?
            seen, todo = set(), [imp.target]
            while todo:
                node = todo.pop()
                if node == name:
                    yield f"{name} -> {imp.target}"
                    break
                if node not in seen:
                    seen.add(node)
                    todo.extend(at_load[node])


#: Function-level imports of a module that the imported module loads in turn, so that
#: they close a loop: each one lazy on purpose. A new one is a design decision.
LAZY_LOOPS: set[str] = set()  # TableConfig.to_proto goes through poker.mapping itself now


def test_function_level_imports_are_listed() -> None:
    assert set(_closing_lazy_imports()) == LAZY_LOOPS


_SNAPSHOT = """
import importlib, json, os, sys
before = dict(os.environ)
failed = {}
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ImportError as err:  # an optional dependency not installed here
        failed[name] = str(err)
after = dict(os.environ)
changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
print(json.dumps({"changed": changed, "failed": failed}))
"""


def test_importing_every_module_changes_no_environment_variable() -> None:
    clean = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    done = subprocess.run([sys.executable, "-c", _SNAPSHOT, json.dumps(sorted(ALL))],
                          cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120,
                          check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["changed"] == [], report
    assert report["failed"] == {}, report["failed"]


def test_the_vocabulary_depends_on_the_standard_library_alone() -> None:
    # poker/vocab (issue "one source of truth"): cards, enums, actions, config, events,
    # declared once; it may lean on poker.errors and poker.limits (standard library
    # only themselves) and nothing else of the project or of PyPI.
    import ast
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    allowed_project = ("poker.vocab", "poker.errors", "poker.limits")
    files = [*(root / "poker" / "vocab").glob("*.py"), root / "poker" / "errors.py",
             root / "poker" / "limits.py"]
    bad = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom)
                     and node.level == 0 else [])
            for name in names:
                top = name.split(".")[0]
                if name.startswith(allowed_project) or top in sys.stdlib_module_names:
                    continue
                bad.append(f"{path.relative_to(root)}: {name}")
    assert len(files) > 4 and bad == []
