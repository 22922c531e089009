"""Files become text blocks, and every file that cannot be indexed says why."""

from __future__ import annotations

import logging
import zipfile
from pathlib import Path

import docx
import pytest
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

from reverie.docs.parsers import REFUSED, Block, Unreadable, file_type_of, parse_file
from reverie.errors import InvalidInput


def _write_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A real PDF with one page per list of paragraphs."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for paragraphs in pages:
        pdf.add_page()
        for paragraph in paragraphs:
            pdf.multi_cell(0, 8, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
    pdf.output(str(path))
    return path


def _reason(path: Path, **kwargs: int) -> str:
    with pytest.raises(Unreadable) as caught:
        parse_file(path, **kwargs)
    return str(caught.value)


# -- Markdown and plain text -------------------------------------------------------------------


def test_markdown_blocks_carry_their_heading_path(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text(
        "# Garden Guide #\n\n"
        "Intro with **bold**, a [link](https://example.org) and `code`\nwrapped onto two lines.\n\n"
        "## Watering\n\n"
        "- water at dawn\n- use *rain* water\n\n"
        "### Pots\n\n"
        "Pots dry out fast.\n\n"
        "```sh\n# this is a shell comment, not a heading\n\necho 'water'\n```\n\n"
        "## Pruning\n\n"
        "Prune in March.\n\n"
        "Compost\n=======\n\n"
        "Turn it weekly.\n",
        encoding="utf-8",
    )

    parsed = parse_file(path)

    assert parsed.file_type == "md"
    assert parsed.pages is None
    assert [(block.heading, block.text) for block in parsed.blocks] == [
        ("Garden Guide", "Intro with bold, a link and code wrapped onto two lines."),
        ("Garden Guide > Watering", "- water at dawn\n- use rain water"),
        ("Garden Guide > Watering > Pots", "Pots dry out fast."),
        (
            "Garden Guide > Watering > Pots",
            "```sh\n# this is a shell comment, not a heading\n\necho 'water'\n```",
        ),
        ("Garden Guide > Pruning", "Prune in March."),
        ("Compost", "Turn it weekly."),
    ]


def test_markdown_unclosed_fence_runs_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "notes.markdown"
    path.write_text("# Notes\n\n~~~\n## not a heading\ncode\n", encoding="utf-8")

    blocks = parse_file(path).blocks

    assert blocks == [Block("~~~\n## not a heading\ncode", "Notes")]


def test_text_paragraphs_are_rejoined_and_lists_kept(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(
        "The boiler was serviced\n  in   March\nby Alex.\n\n\nShopping:\n- milk\n- eggs\n\n   \nLast line.",
        encoding="utf-8",
    )

    parsed = parse_file(path)

    assert parsed.file_type == "txt"
    assert [block.text for block in parsed.blocks] == [
        "The boiler was serviced in March by Alex.",
        "Shopping:\n- milk\n- eggs",
        "Last line.",
    ]
    assert all(block.heading == "" and block.page is None for block in parsed.blocks)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"caf\xe9 au lait", "café au lait"),  # Windows-1252, not valid UTF-8
        (b"\xef\xbb\xbfna\xc3\xafve", "naïve"),  # UTF-8 with a byte-order mark
        ("\ufeffcrème brûlée".encode("utf-16-le"), "crème brûlée"),
        ("\ufeffcrème brûlée".encode("utf-16-be"), "crème brûlée"),
    ],
)
def test_text_encodings(tmp_path: Path, data: bytes, expected: str) -> None:
    path = tmp_path / "note.txt"
    path.write_bytes(data)

    assert parse_file(path).blocks == [Block(expected)]


# -- PDF ----------------------------------------------------------------------------------------


def test_pdf_blocks_know_their_page(tmp_path: Path) -> None:
    long = "It wraps across several lines of the page because it is long enough to need it, {}."
    path = _write_pdf(
        tmp_path / "manual.pdf",
        [
            ["Chapter one covers the aardvark.", long.format("aardvark")],
            ["Chapter two covers the badger.", long.format("badger")],
            ["Chapter three covers the cheetah.", long.format("cheetah")],
        ],
    )

    parsed = parse_file(path)

    assert parsed.file_type == "pdf"
    assert parsed.pages == 3
    assert {block.page for block in parsed.blocks} == {1, 2, 3}
    for page, animal in ((1, "aardvark"), (2, "badger"), (3, "cheetah")):
        texts = [block.text for block in parsed.blocks if block.page == page]
        assert any(animal in text for text in texts)
        assert all(other not in " ".join(texts) for other in {"aardvark", "badger", "cheetah"} - {animal})
    wrapped = [block.text for block in parsed.blocks if block.text.startswith("It wraps")]
    assert wrapped[0] == long.format("aardvark")  # wrapped lines rejoined into one paragraph


def test_pdf_without_text(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 50)
    pdf.output(str(tmp_path / "scan.pdf"))

    assert _reason(tmp_path / "scan.pdf") == "no extractable text (scanned images?)"


def test_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    plain = _write_pdf(tmp_path / "plain.pdf", [["Salary review notes."]])
    writer = PdfWriter()
    writer.append(PdfReader(plain))
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as handle:
        writer.write(handle)
    assert PdfReader(locked).is_encrypted

    assert _reason(locked) == "encrypted PDF (needs a password)"


def test_pdf_encrypted_with_an_empty_password_opens(tmp_path: Path) -> None:
    plain = _write_pdf(tmp_path / "plain.pdf", [["Printing is restricted, reading is not."]])
    writer = PdfWriter()
    writer.append(PdfReader(plain))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    restricted = tmp_path / "restricted.pdf"
    with restricted.open("wb") as handle:
        writer.write(handle)
    assert PdfReader(restricted).is_encrypted

    parsed = parse_file(restricted)

    assert parsed.blocks == [Block("Printing is restricted, reading is not.", page=1)]


def test_corrupt_pdfs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    real = _write_pdf(tmp_path / "real.pdf", [["Some text."], ["More text."]]).read_bytes()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(real[: len(real) // 2])

    with caplog.at_level(logging.WARNING):
        for path in (garbage, truncated):
            assert _reason(path).startswith("corrupt PDF: ")

    assert [record for record in caplog.records if record.name.startswith("pypdf")] == []
    assert logging.getLogger("pypdf").level == logging.NOTSET  # the silencing was undone


# -- Word ---------------------------------------------------------------------------------------


def test_docx_keeps_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Boiler Manual", level=0)
    document.add_heading("Installation", level=1)
    document.add_paragraph("Mount the unit on a solid wall.")
    table = document.add_table(rows=3, cols=3)
    for column, text in enumerate(("Part", "Size", "Count")):
        table.cell(0, column).text = text
    for column, text in enumerate(("Bolt", "M8", "4")):
        table.cell(1, column).text = text
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "Washers, any size"
    table.cell(2, 2).text = "8"
    document.add_paragraph("")
    document.add_heading("Wiring", level=2)
    document.add_paragraph("Switch off the mains first.")
    document.add_heading("Servicing", level=1)
    document.add_paragraph("Once a year.")
    path = tmp_path / "manual.docx"
    document.save(str(path))

    parsed = parse_file(path)

    assert parsed.file_type == "docx"
    assert [(block.heading, block.text) for block in parsed.blocks] == [
        ("Boiler Manual > Installation", "Mount the unit on a solid wall."),
        ("Boiler Manual > Installation", "Part | Size | Count\nBolt | M8 | 4\nWashers, any size | 8"),
        ("Boiler Manual > Installation > Wiring", "Switch off the mains first."),
        ("Boiler Manual > Servicing", "Once a year."),
    ]


def test_docx_without_text(tmp_path: Path) -> None:
    path = tmp_path / "blank.docx"
    docx.Document().save(str(path))

    assert _reason(path) == "no text"


def test_corrupt_docx(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.docx"
    garbage.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 8)
    not_word = tmp_path / "not-word.docx"
    with zipfile.ZipFile(not_word, "w") as archive:
        archive.writestr("hello.txt", "a zip, but no Word document inside")

    assert _reason(garbage).startswith("corrupt DOCX: ")
    assert _reason(not_word).startswith("corrupt DOCX: ")


# -- files that are refused ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["empty.txt", "empty.md", "empty.pdf", "empty.docx"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.touch()

    assert _reason(path) == "empty file"


def test_whitespace_only_text(tmp_path: Path) -> None:
    path = tmp_path / "blank.md"
    path.write_text("\n   \n\t\n", encoding="utf-8")

    assert _reason(path) == "no text"


def test_legacy_word_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "letter.DOC"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64)

    assert _reason(path) == REFUSED[".doc"] == "Legacy Word .doc files are not supported; save it as .docx"


def test_unsupported_file_type(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0")

    assert _reason(path).startswith("unsupported file type '.jpg'; supported: .docx, ")


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"word " * 480_000)  # 2.3 MB

    assert _reason(path, max_bytes=1024 * 1024) == "2.3 MB is over the 1 MB limit (rag.max_document_size_mb)"
    assert _reason(path, max_bytes=2000).endswith("is over the 2 KB limit (rag.max_document_size_mb)")
    assert parse_file(path, max_bytes=3 * 1024 * 1024).blocks[0].text.startswith("word word")


def test_text_with_nul_bytes_is_binary(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_bytes(b"header\x00\x01\x02\x00binary payload")

    assert _reason(path) == "binary content, not text"


def test_unreadable_path(tmp_path: Path) -> None:
    folder = tmp_path / "folder.txt"
    folder.mkdir()

    assert _reason(folder).startswith("cannot read: ")


def test_unreadable_is_invalid_input() -> None:
    assert issubclass(Unreadable, InvalidInput)


def test_file_type_of() -> None:
    assert file_type_of(Path("a/Notes.MD")) == "md"
    assert file_type_of(Path("report.pdf")) == "pdf"
    assert file_type_of(Path("letter.docx")) == "docx"
    assert file_type_of(Path("todo.text")) == "txt"
    assert file_type_of(Path("letter.doc")) is None
    assert file_type_of(Path("README")) is None
