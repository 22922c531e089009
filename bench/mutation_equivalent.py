"""Equivalent mutants: mutants that no program, test or user could tell from the real code.

mutation_report.py scores a module twice: the raw share of mutants killed, and the goal figure of
standard mutation-testing practice, killed / (mutants - equivalent). A mutant counts as equivalent
only if it is recognised here mechanically or declared in ``DECLARED`` with a written reason.

The mechanical rule: mutmut upper- or lower-cases string literals, and the store writes its SQL as
string literals. SQL keywords and unquoted names are read without regard to case by SQLite and
PostgreSQL, so a mutant whose only change is the case of an SQL string is the same program. The rule
is strict, as a wrong "equivalent" hides a real survivor:

- the original string must read as SQL: an SQL keyword written in upper case as the project writes
  them (SELECT, WHERE, AND, ...), or a placeholder after an operator (``= ?``, ``IN (%s``);
- everything whose case is seen must be unchanged: quoted text and quoted names ('active' is not
  'ACTIVE'), format fields ``{among}``, named parameters (``:name``, ``%(name)s``), ``%s`` and the
  alias after AS (a result column's name is read back by the code);
- nothing else in the function may differ (the mutated function is compared with the original,
  syntax tree against syntax tree, after putting the original's case back).

A mutant that matches the rule but was killed stays killed: the rule is only applied to survivors.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

# Upper-case keywords, as the project writes SQL; prose does not shout them.
_SQL_WORDS = re.compile(
    r"\b(?:SELECT|FROM|WHERE|INSERT INTO|UPDATE|DELETE FROM|VALUES|JOIN|ORDER BY|GROUP BY|LIMIT|OFFSET|"
    r"RETURNING|ON CONFLICT|DO NOTHING|AND|OR|NOT|IN|IS NULL|COUNT|COALESCE|DESC|ASC|SET|AS|CASE|WHEN)\b"
)
_PLACEHOLDER = re.compile(r"(?:[=<>(,]|\bIN)\s*(?:\?|%s)|\?\s*[,)]", re.IGNORECASE)
# The parts of a statement whose case someone sees.
_KEPT = re.compile(r"'[^']*'|\"[^\"]*\"|\{[^{}]*\}|%\(\w+\)s|%s|::?\w+|\$\d+|\bAS\s+\w+", re.IGNORECASE)

# Mutants that are equivalent for a reason no rule can see, by module: mutant name (its ending after
# the module's dotted path) -> (the hash mutmut gave its function's source when it was declared, why
# no program could tell it from the real code). mutmut numbers a function's mutants anew when its
# source changes, so a declaration holds only while the hash is the same.
DECLARED: dict[str, dict[str, tuple[str, str]]] = {
    "core/parts.py": {
        "xǁCorePartsǁ_guard__mutmut_1": (
            "d135acf098c4",
            "the default of a stub that only raises NotImplementedError: MemoryCore, the one class "
            "that mixes the parts in, defines _guard itself, so the stub never runs",
        ),
    },
}


def is_sql(text: str) -> bool:
    """Whether a string literal reads as (part of) an SQL statement."""
    return bool(_SQL_WORDS.search(text) or _PLACEHOLDER.search(text))


def _kept(text: str) -> list[str]:
    """The parts of a statement whose case matters; of ``AS alias`` only the alias."""
    parts = []
    for found in _KEPT.finditer(text):
        part = found.group(0)
        parts.append(part.split()[-1] if part[:2].upper() == "AS" and part[2:3].isspace() else part)
    return parts


def sql_case_only(original: str, mutant: str) -> bool:
    """Whether ``mutant`` is ``original``, an SQL string, with only the case of its SQL changed."""
    return (
        original != mutant
        and original.lower() == mutant.lower()
        and is_sql(original)
        and _kept(original) == _kept(mutant)
    )


def _functions(path: Path) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name
    }


def _shape(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    return ast.dump(ast.Module(body=function.body, type_ignores=[])) + ast.dump(function.args)


def _only_sql_case(
    original: ast.FunctionDef | ast.AsyncFunctionDef, mutant: ast.FunctionDef | ast.AsyncFunctionDef
) -> bool:
    """Whether the mutant function differs from the original only in the case of SQL strings."""
    before, after = list(ast.walk(original)), list(ast.walk(mutant))
    if len(before) != len(after):
        return False
    changed = []
    for old, new in zip(before, after, strict=True):
        if isinstance(old, ast.Constant) and isinstance(new, ast.Constant) and old.value != new.value:
            if not (isinstance(old.value, str) and isinstance(new.value, str)):
                return False
            if not sql_case_only(old.value, new.value):
                return False
            changed.append((new, new.value, old.value))
    if not changed:
        return False
    for node, _, value in changed:
        node.value = value
    same = _shape(original) == _shape(mutant)
    for node, value, _ in changed:
        node.value = value
    return same


def sql_case_mutants(mutated_source: Path, names: list[str]) -> list[str]:
    """Those of ``names`` (mutmut's keys, e.g. ``reverie.store.x.xǁAǁf__mutmut_3``) whose only change
    is the case of an SQL string, read from mutmut's mutated copy of the module."""
    if not mutated_source.exists():
        return []
    functions = _functions(mutated_source)
    found = []
    for name in names:
        function = name.rsplit(".", 1)[-1]
        original = functions.get(function.split("__mutmut_")[0] + "__mutmut_orig")
        mutant = functions.get(function)
        if original is not None and mutant is not None and _only_sql_case(original, mutant):
            found.append(name)
    return found


def declared(module: str, names: list[str], hashes: dict[str, str]) -> dict[str, str]:
    """Those of ``names`` declared equivalent for ``module``, with the reason, while their function's
    source hash (``hashes``, from mutmut's results) is the one declared."""
    found = {}
    for name in names:
        mutant = name.rsplit(".", 1)[-1]
        entry = DECLARED.get(module, {}).get(mutant)
        if entry is not None and hashes.get(mutant.split("__mutmut_")[0]) == entry[0]:
            found[name] = entry[1]
    return found


__all__ = ["DECLARED", "declared", "is_sql", "sql_case_mutants", "sql_case_only"]
