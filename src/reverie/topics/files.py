"""A topic file's Markdown (``# Title``, then ``- line (YYYY-MM-DD)``): parsed, rendered, written."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reverie.errors import InvalidInput

_TITLE = re.compile(r"^#\s+(?P<title>.+?)\s*#*\s*$")
_LINE = re.compile(r"^\s*[-*]\s+(?P<text>.+?)(?:\s+\((?P<date>\d{4}-\d{2}-\d{2})\))?\s*$")
_SLUG = re.compile(r"[^a-z0-9]+")
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


class MalformedTopic(InvalidInput):
    """A topic file that does not parse; the message names the line."""

    code = "malformed_topic"


@dataclass(frozen=True)
class TopicLine:
    """One conclusion: its text and the day it was reached (YYYY-MM-DD, or '')."""

    text: str
    date: str = ""


@dataclass(frozen=True)
class TopicFile:
    """A parsed topic file."""

    slug: str
    title: str
    lines: list[TopicLine]

    def render(self) -> str:
        """The file's text."""
        return render_topic(self.title, self.lines)


def slugify(name: str) -> str:
    """A file-name-safe slug: lowercase words joined by '-' (at most 40 characters)."""
    slug = _SLUG.sub("-", name.lower()).strip("-")[:40].strip("-")
    return slug or "topic"


def parse_topic(text: str) -> tuple[str, list[TopicLine]]:
    """Title and lines of a topic file (MalformedTopic naming the first bad line)."""
    title = ""
    lines: list[TopicLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if not title:
            heading = _TITLE.match(raw.strip())
            if heading is None:
                raise MalformedTopic(
                    f"line {number}: a topic file starts with '# Title', found {raw.strip()!r}"
                )
            title = heading.group("title")
            continue
        line = _LINE.match(raw)
        if line is None:
            raise MalformedTopic(f"line {number}: expected '- text (YYYY-MM-DD)', found {raw.strip()[:80]!r}")
        lines.append(TopicLine(line.group("text").strip(), line.group("date") or ""))
    if not title:
        raise MalformedTopic("the file is empty: a topic file starts with '# Title'")
    return title, lines


def render_topic(title: str, lines: Sequence[TopicLine]) -> str:
    """A topic file's text in Rostro's format."""
    body = [f"- {line.text} ({line.date})" if line.date else f"- {line.text}" for line in lines]
    return "\n".join([f"# {title}", "", *body]) + "\n"


def file_digest(text: str) -> str:
    """The SHA-256 of a file's text, to notice a person's edit."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def folder_lock(folder: Path) -> threading.Lock:
    """The one lock of a topics folder in this process."""
    with _locks_guard:
        return _locks.setdefault(str(folder), threading.Lock())


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a reader sees the old text or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


__all__ = [
    "MalformedTopic",
    "TopicFile",
    "TopicLine",
    "file_digest",
    "folder_lock",
    "parse_topic",
    "render_topic",
    "slugify",
    "write_atomic",
]
