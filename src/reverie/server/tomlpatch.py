"""Change a few keys of a TOML config file in place, keeping its comments, and write it atomically.

Each changed key is rewritten on its own line inside its table (or added at the end of the
table, or in a new table at the end of the file). The result is parsed back and must read as
the old file plus the changes; when the file uses shapes this line editor does not follow
(dotted keys, inline tables, multi-line values), the whole document is written out afresh
instead, which keeps every value but drops the comments.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reverie.errors import ConfigError

_HEADER = re.compile(r"^\s*\[(?!\[)([^\[\]]+)\]\s*(#.*)?$")
_ARRAY_HEADER = re.compile(r"^\s*\[\[")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_value(value: Any) -> str:
    """One TOML value: a bool, number, string, date or time, a list of those, or an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ConfigError(f"{value!r} cannot be written to a config file")
        return repr(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, str):
        # JSON's escapes are valid in TOML basic strings; DEL is the one control JSON leaves raw.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise ConfigError(f"A {type(value).__name__} cannot be written to a config file")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else json.dumps(name)


def _table_name(header: str) -> str:
    return ".".join(part.strip().strip('"') for part in header.split("."))


def dump_toml(data: Mapping[str, Any]) -> str:
    """A whole TOML document for nested dicts of plain values."""
    lines: list[str] = []
    _dump_table(data, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _dump_table(data: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    scalars = {k: v for k, v in data.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in data.items() if isinstance(v, Mapping)}
    if path and (scalars or not tables):
        lines += ["", f"[{'.'.join(_key(p) for p in path)}]"]
    lines += [f"{_key(k)} = {toml_value(v)}" for k, v in scalars.items()]
    for name, table in tables.items():
        _dump_table(table, [*path, name], lines)


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    *tables, name = dotted.split(".")
    target = data
    for table in tables:
        target = target.setdefault(table, {})
    target[name] = value


def _patch_lines(text: str, changes: Mapping[str, Any]) -> str:
    lines = text.splitlines()
    for dotted, value in changes.items():
        table, _, name = dotted.rpartition(".")
        _patch_one(lines, table, name, toml_value(value))
    return "\n".join(lines) + "\n"


def _patch_one(lines: list[str], table: str, name: str, value: str) -> None:
    """Set ``name = value`` in ``[table]``: replace its line, or add it to the table or the file."""
    assignment = re.compile(rf"^(\s*){re.escape(name)}\s*=")
    current: str | None = ""  # "" is the top level, None an array of tables
    start: int | None = 0 if table == "" else None
    end: int | None = None
    for index, line in enumerate(lines):
        header = _HEADER.match(line)
        if header or _ARRAY_HEADER.match(line):
            if current == table and start is not None and end is None:
                end = index
            current = _table_name(header.group(1)) if header else None
            if current == table and start is None:
                start = index + 1
        elif current == table and (found := assignment.match(line)):
            lines[index] = f"{found.group(1)}{name} = {value}{_comment(line)}"
            return
    if start is None:
        lines += ["", f"[{table}]", f"{name} = {value}"]
        return
    insert_at = len(lines) if end is None else end
    while insert_at > start and not lines[insert_at - 1].strip():
        insert_at -= 1
    lines.insert(insert_at, f"{name} = {value}")


def _comment(line: str) -> str:
    """The trailing comment of a one-line assignment, with the spaces before it ('' if none)."""
    for at in [i for i, char in enumerate(line) if char == "#"]:
        try:
            tomllib.loads(line[:at])
        except tomllib.TOMLDecodeError:
            continue
        head = line[:at].rstrip()
        return line[len(head) :]
    return ""


def patched_toml(text: str, changes: Mapping[str, Any]) -> str:
    """``text`` with the dotted keys of ``changes`` set, comments kept when the layout allows."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"The config file is not valid TOML, so it was left alone: {exc}") from exc
    expected = copy.deepcopy(before)
    for dotted, value in changes.items():
        _set(expected, dotted, value)
    patched = _patch_lines(text, changes) if text.strip() else ""
    try:
        if patched and tomllib.loads(patched) == expected:
            return patched
    except tomllib.TOMLDecodeError:
        pass
    return dump_toml(expected)


def write_config(path: Path, changes: Mapping[str, Any]) -> None:
    """Apply ``changes`` (dotted keys) to the TOML file at ``path`` atomically, creating it if needed."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    new_text = patched_toml(text, changes)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600  # it may hold API keys
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(new_text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["dump_toml", "patched_toml", "toml_value", "write_config"]
