"""Turn a file into text blocks: paragraphs and tables with their heading path or page number.

Plain text and Markdown are parsed here line by line; PDF goes through pypdf and Word through
python-docx. Anything that cannot be indexed raises :class:`Unreadable` with a reason a user can
act on ("encrypted PDF (needs a password)"); no other exception leaves :func:`parse_file`.
"""

from __future__ import annotations

import codecs
import io
import logging
import re
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reverie.errors import InvalidInput

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # pypdf and python-docx load lazily: they add a quarter second to every start-up
    from docx.document import Document as DocxDocument
    from docx.oxml.table import CT_Tbl
    from docx.oxml.text.paragraph import CT_P
    from docx.oxml.xmlchemy import BaseOxmlElement
    from docx.table import Table

SUPPORTED: dict[str, str] = {
    ".txt": "txt",
    ".text": "txt",
    ".md": "md",
    ".markdown": "md",
    ".pdf": "pdf",
    ".docx": "docx",
}
REFUSED: dict[str, str] = {
    ".doc": "Legacy Word .doc files are not supported; save it as .docx",
    ".rtf": "RTF files are not supported; save it as .docx or .txt",
    ".odt": "OpenDocument .odt files are not supported; save it as .docx",
}


@dataclass(frozen=True)
class Block:
    """One paragraph or table of a document, with where it sits."""

    text: str
    heading: str = ""
    page: int | None = None


@dataclass(frozen=True)
class ParsedDocument:
    """The text blocks of one file, in reading order."""

    file_type: str
    blocks: list[Block]
    pages: int | None = None


class Unreadable(InvalidInput):
    """A file that cannot be indexed; the message says why (recorded on the document)."""

    code = "unreadable"


def file_type_of(path: Path) -> str | None:
    """The file type Reverie reads a path as ("txt", "md", "pdf", "docx"), None if unsupported."""
    return SUPPORTED.get(path.suffix.lower())


def parse_file(path: Path, *, max_bytes: int | None = None) -> ParsedDocument:
    """Read a file into blocks; raise Unreadable (and nothing else) when it cannot be indexed."""
    suffix = path.suffix.lower()
    if suffix in REFUSED:
        raise Unreadable(REFUSED[suffix])
    file_type = SUPPORTED.get(suffix)
    if file_type is None:
        supported = ", ".join(sorted(SUPPORTED))
        what = f"file type {suffix!r}" if suffix else "file without an extension"
        raise Unreadable(f"unsupported {what}; supported: {supported}")
    data = _read(path, max_bytes)
    if not data:
        raise Unreadable("empty file")
    if file_type == "pdf":
        return _parse_pdf(data, path.name)
    if file_type == "docx":
        return _parse_docx(data)
    text = _decode(data)
    blocks = _markdown_blocks(text) if file_type == "md" else _text_blocks(text)
    if not blocks:
        raise Unreadable("no text")
    return ParsedDocument(file_type, blocks)


# -- reading and decoding ---------------------------------------------------------------------


def _read(path: Path, max_bytes: int | None) -> bytes:
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise Unreadable(_too_big(size, max_bytes))
        with path.open("rb") as handle:
            # Read at most one byte past the limit: the file may have grown since stat().
            data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}") from exc
    if max_bytes is not None and len(data) > max_bytes:
        raise Unreadable(_too_big(len(data), max_bytes))
    return data


def _too_big(size: int, limit: int) -> str:
    return f"{_human_size(size)} is over the {_human_size(limit)} limit (rag.max_document_size_mb)"


def _human_size(size: int) -> str:
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"


def _decode(data: bytes) -> str:
    """Text of a .txt/.md file: UTF-8 or BOM-marked UTF-16/32, else Windows-1252; never fails."""
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            text = data.decode(encoding, errors="replace")
            break
    else:
        if b"\x00" in data:
            raise Unreadable("binary content, not text")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            # Older Windows editors save "café" as cp1252; a few odd characters beat a refusal.
            text = data.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise Unreadable("binary content, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# -- tidying ---------------------------------------------------------------------------------

_SPACES = re.compile(r"[^\S\n]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_LIST_ITEM = re.compile(r"^(?:[-*+\u2022\u25e6\u2023]|\d{1,3}[.)]|[a-zA-Z][.)])\s")
_BLANK_LINES = re.compile(r"\n[^\S\n]*\n\s*")


def _tidy_line(line: str) -> str:
    return _SPACES.sub(" ", _CONTROL.sub(" ", line)).strip()


def _join_lines(lines: list[str]) -> str:
    """One paragraph from its lines: hard-wrapped prose rejoined, list items and table rows kept apart."""
    text = ""
    for raw in lines:
        line = _tidy_line(raw)
        if not line:
            continue
        if not text:
            text = line
        elif _LIST_ITEM.match(line) or line.startswith("|"):
            text += "\n" + line
        else:
            text += " " + line
    return text


def _text_blocks(text: str) -> list[Block]:
    text = text.replace("\f", "\n\n")
    paragraphs = (_join_lines(part.split("\n")) for part in _BLANK_LINES.split(text))
    return [Block(paragraph) for paragraph in paragraphs if paragraph]


# -- Markdown ----------------------------------------------------------------------------------

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_QUOTE = re.compile(r"^ {0,3}(?:>[ \t]?)+")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
_INLINE = (
    (re.compile(r"`([^`\n]+)`"), r"\1"),
    (re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),
    (re.compile(r"\[([^\]\n]+)\]\([^)\n]*\)"), r"\1"),
    (re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]"), r"\1"),
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])"), r"\1"),
)


def _strip_inline(text: str) -> str:
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text


class _HeadingPath:
    """The stack of headings above the current line."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, title: str) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        if title:
            self._stack.append((level, title))

    def __str__(self) -> str:
        return " > ".join(title for _, title in self._stack)


def _markdown_blocks(text: str) -> list[Block]:
    lines = text.split("\n")
    blocks: list[Block] = []
    headings = _HeadingPath()
    paragraph: list[str] = []

    def flush() -> None:
        joined = _strip_inline(_join_lines(paragraph))
        if joined:
            blocks.append(Block(joined, str(headings)))
        paragraph.clear()

    index = _skip_front_matter(lines, blocks)
    while index < len(lines):
        line = lines[index]
        index += 1
        fence = _FENCE.match(line)
        if fence:
            flush()
            index = _read_fence(lines, index, fence.group(1), blocks, str(headings))
            continue
        if not line.strip():
            flush()
            continue
        atx = _ATX.match(line)
        if atx:
            flush()
            headings.enter(len(atx.group(1)), _tidy_line(_strip_inline(atx.group(2) or "")))
            continue
        setext = _SETEXT.match(line)
        if setext and len(paragraph) == 1 and not _LIST_ITEM.match(paragraph[0].strip()):
            title = _tidy_line(_strip_inline(paragraph.pop()))
            headings.enter(1 if setext.group(1).startswith("=") else 2, title)
            continue
        if _THEMATIC_BREAK.match(line):
            flush()
            continue
        line = _QUOTE.sub("", line)
        if _LINK_DEFINITION.match(line) or _TABLE_RULE.match(line):
            continue
        paragraph.append(line)
    flush()
    return blocks


def _skip_front_matter(lines: list[str], blocks: list[Block]) -> int:
    """Index of the first line after YAML front matter; its lines become one block (title, tags)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            body = "\n".join(filter(None, (_tidy_line(line) for line in lines[1:end])))
            if body:
                blocks.append(Block(body))
            return end + 1
    return 0


def _read_fence(lines: list[str], index: int, opener: str, blocks: list[Block], heading: str) -> int:
    """Keep a fenced code block verbatim as one block; return the index after its closing fence."""
    closing = re.compile(rf"^ {{0,3}}{re.escape(opener[0])}{{{len(opener)},}}[ \t]*$")
    body = [lines[index - 1].strip()]
    while index < len(lines):
        line = lines[index]
        index += 1
        body.append(line.rstrip())
        if closing.match(line):
            break
    code = "\n".join(body).strip("\n")
    if code:
        blocks.append(Block(_CONTROL.sub(" ", code), heading))
    return index


# -- PDF ----------------------------------------------------------------------------------------


class _QuietLogger:
    """Raise a logger's level while any thread is inside; restore it when the last one leaves."""

    def __init__(self, name: str) -> None:
        self._logger = logging.getLogger(name)
        self._lock = threading.Lock()
        self._depth = 0
        self._saved = logging.NOTSET

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._depth == 0:
                self._saved = self._logger.level
                self._logger.setLevel(logging.CRITICAL + 1)
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    self._logger.setLevel(self._saved)


# pypdf logs a warning for every flaw it works around; the user hears about a broken file once,
# through Unreadable, and a readable file with small flaws is not worth a log line.
_quiet_pypdf = _QuietLogger("pypdf")


def _parse_pdf(data: bytes, name: str) -> ParsedDocument:
    from pypdf import PasswordType, PdfReader
    from pypdf.errors import DependencyError

    with _quiet_pypdf(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                try:
                    opened = reader.decrypt("")
                except DependencyError as exc:
                    raise Unreadable(f"encrypted PDF that cannot be opened here: {exc}") from exc
                if opened == PasswordType.NOT_DECRYPTED:
                    raise Unreadable("encrypted PDF (needs a password)")
            page_count = len(reader.pages)
        except Unreadable:
            raise
        except Exception as exc:  # pypdf raises many types (PdfReadError, KeyError, ValueError, ...)
            raise Unreadable(f"corrupt PDF: {_detail(exc)}") from exc
        blocks: list[Block] = []
        failure: Exception | None = None
        for number in range(1, page_count + 1):
            try:
                text = reader.pages[number - 1].extract_text()
            except Exception as exc:  # one broken page should not cost the other pages
                log.warning("%s: page %d skipped, it cannot be read: %s", name, number, _detail(exc))
                failure = exc
                continue
            blocks.extend(Block(paragraph, page=number) for paragraph in _pdf_paragraphs(text))
    if not blocks:
        if failure is not None:
            raise Unreadable(f"corrupt PDF: {_detail(failure)}") from failure
        raise Unreadable("no extractable text (scanned images?)")
    return ParsedDocument("pdf", blocks, pages=page_count)


def _pdf_paragraphs(text: str) -> list[str]:
    """Paragraphs of one page's extracted text.

    Blank lines separate paragraphs when the PDF has them. Otherwise a line clearly shorter than
    the page's full lines ends a paragraph, since wrapped prose fills the width until its last line.
    """
    text = _CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n\n"))
    if _BLANK_LINES.search(text.strip()):
        return [p for p in (_join_wrapped(part.split("\n")) for part in _BLANK_LINES.split(text)) if p]
    lines = [line for line in (_tidy_line(raw) for raw in text.split("\n")) if line]
    if not lines:
        return []
    width = max(len(line) for line in lines)
    if width < 40:  # slides, forms, lists: nothing to rejoin
        return ["\n".join(lines)]
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        current.append(line)
        if len(line) < 0.75 * width:
            paragraphs.append(_join_wrapped(current))
            current = []
    if current:
        paragraphs.append(_join_wrapped(current))
    return [p for p in paragraphs if p]


def _join_wrapped(lines: list[str]) -> str:
    """Rejoin wrapped lines, mending words hyphenated across a line break ("exam-" + "ple")."""
    text = ""
    for raw in lines:
        line = _tidy_line(raw)
        if not line:
            continue
        if not text:
            text = line
        elif len(text) > 1 and text[-1] == "-" and text[-2].isalpha() and line[0].islower():
            text = text[:-1] + line
        else:
            text += " " + line
    return text


# -- Word ---------------------------------------------------------------------------------------


def _parse_docx(data: bytes) -> ParsedDocument:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(_docx_blocks(document))
    except Exception as exc:  # python-docx, zipfile and lxml raise many types on a damaged file
        raise Unreadable(f"corrupt DOCX: {_detail(exc)}") from exc
    if not blocks:
        raise Unreadable("no text")
    return ParsedDocument("docx", blocks)


_HEADING_STYLE = re.compile(r"^Heading ([1-9])$")


def _docx_blocks(document: DocxDocument) -> Iterator[Block]:
    from docx.oxml.table import CT_Tbl
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    headings = _HeadingPath()
    # Resolving a style walks every style of the document (each unstyled paragraph looks up the
    # default one anew): a quarter of the time of a long Word file, so each id is resolved once.
    style_names: dict[str | None, str] = {}
    for element in _docx_body_elements(document.element.body):
        if isinstance(element, CT_Tbl):
            text = _docx_table_text(Table(element, document))
            if text:
                yield Block(text, str(headings))
            continue
        paragraph = Paragraph(element, document)
        text = _join_lines(paragraph.text.split("\n"))
        style_id = element.style
        if style_id not in style_names:
            style = paragraph.style
            style_names[style_id] = (style.name if style is not None else None) or ""
        level = _docx_heading_level(style_names[style_id])
        if level is not None:
            headings.enter(level, text.replace("\n", " "))
        elif text:
            yield Block(text, str(headings))


def _docx_heading_level(style: str) -> int | None:
    if style == "Title":
        return 0
    match = _HEADING_STYLE.match(style)
    return int(match.group(1)) if match else None


def _docx_body_elements(container: BaseOxmlElement) -> Iterator[CT_P | CT_Tbl]:
    """Paragraphs and tables in document order, including those inside content controls."""
    from docx.oxml.ns import qn
    from docx.oxml.table import CT_Tbl
    from docx.oxml.text.paragraph import CT_P

    control, content = qn("w:sdt"), qn("w:sdtContent")
    for child in container.iterchildren():
        if isinstance(child, CT_P | CT_Tbl):
            yield child
        elif child.tag == control:
            for inner in child.iterchildren(content):
                yield from _docx_body_elements(inner)


def _docx_table_text(table: Table) -> str:
    """A table as lines of " | "-joined cells; a merged cell counts once per row."""
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        previous: object = None
        for cell in row.cells:
            if cell._tc is previous:
                continue
            previous = cell._tc
            cells.append(" ".join(_tidy_line(line) for line in cell.text.split("\n")).strip())
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def _detail(exc: BaseException) -> str:
    """A short, one-line description of a library exception."""
    # KeyError's str() is the repr of its key: "'word/document.xml'" with quotes.
    raw = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
    message = str(raw).strip().split("\n", 1)[0]
    if len(message) > 120:
        message = message[:117] + "..."
    return message or type(exc).__name__


__all__ = [
    "REFUSED",
    "SUPPORTED",
    "Block",
    "ParsedDocument",
    "Unreadable",
    "file_type_of",
    "parse_file",
]
