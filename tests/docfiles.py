"""Real sample documents for the knowledge-base tests: PDFs (fpdf2, pypdf), Word files (python-docx)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docx import Document
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter


def write_pdf(path: Path, pages: Sequence[str]) -> Path:
    """A PDF with one page per text (core Helvetica font)."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        for paragraph in text.split("\n\n"):
            pdf.multi_cell(0, 6, paragraph)
            pdf.ln(6)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def write_encrypted_pdf(path: Path, pages: Sequence[str], password: str = "secret") -> Path:
    """A real PDF that opens only with a password (RC4-128, which needs no crypto library)."""
    plain = write_pdf(path.with_suffix(".plain.pdf"), pages)
    writer = PdfWriter(clone_from=PdfReader(plain))
    writer.encrypt(user_password=password, algorithm="RC4-128")
    with path.open("wb") as handle:
        writer.write(handle)
    plain.unlink()
    return path


def write_docx(path: Path, parts: Sequence[tuple[str, object]]) -> Path:
    """A Word file from ("heading1"|"heading2"|"para", text) and ("table", rows) parts, in order."""
    document = Document()
    for kind, value in parts:
        if kind == "table":
            rows = list(value)  # type: ignore[call-overload]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = str(cell)
        elif kind.startswith("heading"):
            document.add_heading(str(value), level=int(kind[-1]))
        else:
            document.add_paragraph(str(value))
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path


GARAGE_MANUAL = """# Garage door opener manual

Thank you for buying the LiftMaster 8500 wall-mount garage door opener.

## Remote controls

The garage door opener uses a 315 MHz frequency for its remote controls. Remotes bought
for 390 MHz systems will not pair with it.

To pair a new remote, press the learn button on the motor unit once, then hold the remote
button until the light blinks.

## Safety sensors

The safety sensors sit six inches above the floor on both sides of the door. If the door
reverses on its own, clean the sensor lenses and check that the green lights are steady.

## Maintenance

Lubricate the rollers and hinges twice a year with a silicone spray. Do not grease the track.
"""


__all__ = ["GARAGE_MANUAL", "write_docx", "write_encrypted_pdf", "write_pdf"]
