"""Dependencies point inward: a package imports only packages listed above it in DESIGN.md."""

from __future__ import annotations

import ast
from pathlib import Path

import reverie

SRC = Path(reverie.__file__).parent
# Lower rank = more basic. A module may import reverie modules of its own rank or lower.
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
    "maintain": 7,
    "sensors": 7,
    "docs": 8,
    "tools": 9,
    "memory": 10,
    "topics": 10,
    "working": 10,
    "accounts": 10,
    "assistant": 10,
    "conversations": 10,
    "consolidation": 10,
    "observe": 10,
    "portability": 10,
    "serialize": 10,
    "mcp_server": 10,
    "__init__": 10,
    "__main__": 13,
    "server": 11,
    "cli": 12,
}


def _rank(module: str) -> int:
    parts = module.split(".")
    head = parts[1] if len(parts) > 1 else "__init__"
    return RANKS[head]


def _runtime_imports(tree: ast.Module) -> list[str]:
    """reverie imports outside ``if TYPE_CHECKING:`` blocks."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("reverie"):
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names if alias.name.startswith("reverie"))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_every_package_is_ranked() -> None:
    for path in SRC.iterdir():
        name = path.stem if path.suffix == ".py" else path.name
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            assert name in RANKS, f"{name} is not placed in the dependency order"


def test_dependencies_point_inward() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        module = "reverie." + ".".join(path.relative_to(SRC).with_suffix("").parts)
        own = _rank(module)
        for imported in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if imported != "reverie" and _rank(imported) > own:
                problems.append(f"{module} imports {imported}")
    assert problems == []


def test_no_sqlite_above_store() -> None:
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative.parts[0] == "store":
            continue
        text = path.read_text(encoding="utf-8")
        assert "import sqlite3" not in text, f"{relative} talks to SQLite directly"
        assert "MATCH ?" not in text and "fts5" not in text.lower(), f"{relative} builds FTS queries"
