"""Dependencies point inward: a module imports only modules of its own layer or below (STYLE.md, Layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import reverie

SRC = Path(reverie.__file__).parent
# Lower rank = more basic. A module may import reverie modules of its own rank or lower, and
# that holds for every import: TYPE_CHECKING blocks and imports inside functions included.
CORE = 8  # the memory core: remember, search, recent, forget, context
FEATURES = 9  # built on the core, which they take as an argument
ROOT = 10  # reverie.memory: the composition root every door builds from
RANKS = {
    "errors": 0,
    "text": 0,
    "net": 0,
    "registry": 0,
    "config": 1,
    "store": 2,
    "embed": 3,
    "llm": 4,
    "extract": 5,
    "retrieve": 6,
    "sensors": 7,
    "accounts": 7,
    "serialize": 7,
    "conversations": CORE,
    "core": CORE,
    "consolidation": FEATURES,
    "docs": FEATURES,
    "maintain": FEATURES,
    "observe": FEATURES,
    "portability": FEATURES,
    "tools": FEATURES,
    "topics": FEATURES,
    "working": FEATURES,
    "memory": ROOT,
    "__init__": ROOT + 1,
    "assistant": ROOT + 1,
    "mcp_server": ROOT + 1,
    "server": ROOT + 2,
    "cli": ROOT + 3,
    "__main__": ROOT + 4,
}


def _rank(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else "__init__"
    return RANKS[head]


def test_every_package_is_ranked() -> None:
    for path in SRC.iterdir():
        name = path.stem if path.suffix == ".py" else path.name
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            assert name in RANKS, f"{name} is not placed in the dependency order"


def test_dependencies_point_inward() -> None:
    problems = [
        f"{module} imports {imported}"
        for module, imports in _modules("").items()
        for imported in sorted(imports)
        if imported != "reverie" and _rank(imported) > _rank(module)
    ]
    assert problems == []


def test_the_core_imports_no_feature() -> None:
    """The memory core knows nothing of what is built on it: no feature, not the root, not a door."""
    core = {name for name, rank in RANKS.items() if rank == CORE}
    problems = [
        f"{module} imports {imported}"
        for module, imports in _modules("").items()
        if module != "reverie" and module.split(".")[1] in core
        for imported in sorted(imports)
        if imported != "reverie" and _rank(imported) >= FEATURES
    ]
    assert core == {"core", "conversations"}
    assert problems == []


def test_no_import_circles_between_top_level_modules() -> None:
    """Top-level modules and packages import each other in no circle, TYPE_CHECKING imports included."""
    graph: dict[str, set[str]] = {}
    for module, imports in _modules("").items():
        head = ".".join(module.split(".")[:2])
        graph.setdefault(head, set()).update(".".join(name.split(".")[:2]) for name in imports)
    assert "reverie.memory" in graph and "reverie.core" in graph["reverie.memory"]
    assert _cycle(graph) == []


def test_no_sqlite_above_store() -> None:
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative.parts[0] == "store":
            continue
        text = path.read_text(encoding="utf-8")
        assert "import sqlite3" not in text, f"{relative} talks to SQLite directly"
        assert "MATCH ?" not in text and "fts5" not in text.lower(), f"{relative} builds FTS queries"


def test_no_module_is_over_600_lines() -> None:
    """No file in src/reverie passes 600 lines (issue 18): split a coherent piece out into its own module."""
    long = {
        str(path.relative_to(SRC)): lines
        for path in sorted(SRC.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}


def _all_imports(tree: ast.Module, module: str) -> set[str]:
    """Every reverie module named by an import anywhere in the file, ``TYPE_CHECKING`` blocks included.

    ``from reverie.x import y`` names ``reverie.x.y`` when that is a module of its own, else ``reverie.x``;
    relative imports are resolved against ``module``.
    """
    found: set[str] = set()
    package = (
        module if (SRC / Path(*module.split(".")[1:]) / "__init__.py").exists() else module.rpartition(".")[0]
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("reverie"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if not base.startswith("reverie"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                relative = Path(*candidate.split(".")[1:])
                is_module = (SRC / relative).with_suffix(".py").exists() or (
                    SRC / relative / "__init__.py"
                ).exists()
                found.add(candidate if is_module else base)
    return found


def _modules(under: str) -> dict[str, set[str]]:
    """The modules of one package ('': all of them) and the reverie modules each imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted((SRC / under).rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        module = ".".join(["reverie", *(parts[:-1] if parts[-1] == "__init__" else parts)])
        graph[module] = _all_imports(ast.parse(path.read_text(encoding="utf-8")), module)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle among the graph's own modules, or [] (depth-first search)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in graph or target == node:
                continue
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_store_imports_nothing_above_it() -> None:
    """The store sees only itself, errors and config: TYPE_CHECKING and function-level imports included."""
    allowed = ("reverie.store", "reverie.errors", "reverie.config")
    problems = [
        f"{module} imports {imported}"
        for module, imports in _modules("store").items()
        for imported in sorted(imports)
        if not imported.startswith(allowed)
    ]
    assert problems == []


def test_no_import_circles_in_the_store() -> None:
    """Each store module is written over the ones below it; engines and dialects import nothing back."""
    graph = _modules("store")
    assert graph["reverie.store.base"], "the walk found the store's imports"
    assert _cycle(graph) == []


def test_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", ["embed", "llm"])
def test_provider_base_does_not_import_its_providers(package: str) -> None:
    """The base module defines the protocol and the registry; providers register themselves into it."""
    graph = _modules(package)
    base = f"reverie.{package}.base"
    providers = {module for module in graph if module not in (base, f"reverie.{package}")}
    assert not graph[base] & providers, f"{base} imports {sorted(graph[base] & providers)}"
