"""bench/mutation_equivalent.py: which surviving mutants the mutation report counts as equivalent.

A wrong "equivalent" would hide a real survivor from the goal figure, so the rule is checked both
ways: a statement whose SQL only changes case is the same program on both engines; a changed quoted
value, format field, parameter name, result alias or message is not.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _rule() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation_equivalent", ROOT / "bench" / "mutation_equivalent.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_equivalent"] = module
    spec.loader.exec_module(module)
    return module


# A module as mutmut writes it: each function's original and its mutants side by side.
MUTATED = """
def x_count__mutmut_orig(db, user_id):
    return db.value("SELECT COUNT(*) FROM facts WHERE user_id = ? AND status = 'active'", (user_id,))

def x_count__mutmut_1(db, user_id):
    return db.value("select count(*) from facts where user_id = ? and status = 'active'", (user_id,))

def x_count__mutmut_2(db, user_id):
    return db.value("SELECT COUNT(*) FROM FACTS WHERE USER_ID = ? AND STATUS = 'ACTIVE'", (user_id,))

def x_count__mutmut_3(db, user_id):
    return db.rows("select count(*) from facts where user_id = ? and status = 'active'", (user_id,))

def x_among__mutmut_orig(db, ids):
    return db.among("DELETE FROM facts WHERE id = ? AND {among}", ids)

def x_among__mutmut_1(db, ids):
    return db.among("delete from facts where id = ? and {among}", ids)

def x_among__mutmut_2(db, ids):
    return db.among("DELETE FROM FACTS WHERE ID = ? AND {AMONG}", ids)

def x_named__mutmut_orig(db):
    return db.row("SELECT MAX(created_at) AS newest FROM facts WHERE user_id = %(user)s", {})

def x_named__mutmut_1(db):
    return db.row("SELECT MAX(CREATED_AT) AS NEWEST FROM FACTS WHERE USER_ID = %(USER)s", {})

def x_named__mutmut_2(db):
    return db.row("select max(created_at) as newest from facts where user_id = %(user)s", {})

def x_refuse__mutmut_orig(limit):
    raise ValueError(f"limit must be between 1 and 200, got {limit}")

def x_refuse__mutmut_1(limit):
    raise ValueError(f"LIMIT MUST BE BETWEEN 1 AND 200, GOT {limit}")

def x_column__mutmut_orig(db):
    return db.is_false("incorporated")

def x_column__mutmut_1(db):
    return db.is_false("INCORPORATED")
"""


def test_only_sql_case_changes_are_counted_equivalent(tmp_path: Path) -> None:
    rule = _rule()
    mutated = tmp_path / "facts.py"
    mutated.write_text(MUTATED, encoding="utf-8")
    names = [
        f"reverie.store.facts.x_{function}__mutmut_{n}"
        for function, count in (("count", 3), ("among", 2), ("named", 2), ("refuse", 1), ("column", 1))
        for n in range(1, count + 1)
    ]
    equivalent = [name.rsplit(".", 1)[-1] for name in rule.sql_case_mutants(mutated, names)]
    # Keywords and unquoted names in another case: the same statement on SQLite and PostgreSQL.
    # Not: the quoted value 'ACTIVE' (another value), another call beside the case (count_3),
    # the format field {AMONG} (a KeyError), the parameter %(USER)s and the alias NEWEST (names the
    # code reads), a message a user reads, and a bare name whose use as SQL the rule cannot see.
    assert equivalent == ["x_count__mutmut_1", "x_among__mutmut_1", "x_named__mutmut_2"]


def test_a_declared_mutant_is_equivalent_only_while_its_function_is_unchanged() -> None:
    rule = _rule()
    name = "reverie.core.parts.xǁCorePartsǁ_guard__mutmut_1"
    declared_hash = rule.DECLARED["core/parts.py"]["xǁCorePartsǁ_guard__mutmut_1"][0]
    assert list(rule.declared("core/parts.py", [name], {"xǁCorePartsǁ_guard": declared_hash})) == [name]
    assert rule.declared("core/parts.py", [name], {"xǁCorePartsǁ_guard": "another-hash"}) == {}
