"""``reverie docs``: scan, re-index, list, search and remove the household's documents."""

from __future__ import annotations

import sys
from datetime import tzinfo
from typing import Any

import click

from reverie.cli.main import _emit, _json_option, _state, cli, plural
from reverie.docs.library import DocumentLibrary, ScanProgress
from reverie.retrieve.timeutil import humanize_ago, to_iso
from reverie.store.base import DocumentRow


def _document_dict(doc: DocumentRow, tz: tzinfo) -> dict[str, Any]:
    return {
        "id": doc.id,
        "file_name": doc.file_name,
        "path": doc.path,
        "file_type": doc.file_type,
        "status": doc.status,
        "reason": doc.reason,
        "chunks": doc.chunk_count,
        "tokens": doc.token_count,
        "pages": doc.pages,
        "size_bytes": doc.size_bytes,
        "indexed_at": to_iso(doc.indexed_at, tz) if doc.indexed_at else None,
    }


def _document_line(doc: DocumentRow, now: float) -> str:
    if doc.status == "indexed":
        when = humanize_ago(doc.indexed_at, now) if doc.indexed_at else ""
        note = f"  ({doc.reason})" if doc.reason else ""
        return f"#{doc.id} {doc.file_name}  indexed, {plural(doc.chunk_count, 'chunk')}, {when}{note}"
    return f"#{doc.id} {doc.file_name}  {doc.status}: {doc.reason}"


def _run_scan(library: DocumentLibrary, force: bool, as_json: bool) -> None:
    if as_json or not sys.stderr.isatty():
        report = library.scan(force=force)
    else:
        with click.progressbar(
            length=1, label="Scanning", file=sys.stderr, show_percent=True, show_pos=True
        ) as bar:

            def show(progress: ScanProgress) -> None:
                bar.length = max(progress.files_total, 1)
                bar.label = f"Scanning {progress.current}"[:40].ljust(40)
                bar.update(progress.files_done - bar.pos)

            report = library.scan(force=force, on_progress=show)
    _report(report, as_json)


def _report(report: ScanProgress, as_json: bool) -> None:
    if as_json:
        _emit(report.to_dict())
        return
    click.echo(
        f"{report.indexed} indexed, {report.unchanged} unchanged, {report.skipped} skipped, "
        f"{report.removed} removed ({plural(report.chunks_indexed, 'chunk')} embedded)"
    )
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


@cli.group()
def docs() -> None:
    """The document knowledge base (txt, md, pdf, docx in rag.documents_dir)."""


@docs.command()
@_json_option
def scan(as_json: bool) -> None:
    """Index new and changed files, drop the ones that went away."""
    _run_scan(_state().memory.documents, False, as_json)


@docs.command()
@click.argument("document", required=False)
@_json_option
def reindex(document: str | None, as_json: bool) -> None:
    """Re-index one document (id, path or file name; also a removed one) or all of them."""
    library = _state().memory.documents
    if document is None:
        _run_scan(library, True, as_json)
        return
    library.reindex(document)
    doc = library.find(document)
    if as_json:
        _emit(_document_dict(doc, _state().memory.tz))
    else:
        click.echo(_document_line(doc, _state().memory.clock()))


@docs.command(name="list")
@_json_option
def list_documents(as_json: bool) -> None:
    """Every document with its status: indexed (chunks), skipped (why) or removed."""
    memory = _state().memory
    documents = memory.documents.documents()
    if as_json:
        _emit([_document_dict(doc, memory.tz) for doc in documents])
        return
    if not documents:
        click.echo(f"No documents yet; put files in {memory.documents.directory} and run `reverie docs scan`")
    for doc in documents:
        click.echo(_document_line(doc, memory.clock()))


@docs.command(name="search")
@click.argument("query")
@click.option("--limit", type=click.IntRange(1, 100), help="How many excerpts (default rag.max_results).")
@_json_option
def search_documents(query: str, limit: int | None, as_json: bool) -> None:
    """Find the excerpts of the documents that answer a question."""
    hits = _state().memory.search_documents(query, limit=limit)
    if as_json:
        _emit([hit.to_dict() for hit in hits])
        return
    if not hits:
        click.echo("No document matches.")
    for hit in hits:
        where = f", {hit.location}" if hit.location else ""
        click.echo(f"[{hit.file_name}{where}] ({hit.score:.2f})\n  {hit.text}\n")


@docs.command()
@_json_option
def status(as_json: bool) -> None:
    """Totals of the index and the progress of the last scan."""
    memory = _state().memory
    data = memory.documents.status()
    if as_json:
        _emit(data)
        return
    last = humanize_ago(data["last_indexed"], memory.clock()) if data["last_indexed"] else "never"
    click.echo(
        f"Documents: {data['documents']} ({data['indexed']} indexed, {data['skipped']} skipped, "
        f"{data['excluded']} removed) | Chunks: {data['chunks']} of {data['max_chunks']} | "
        f"Last indexed: {last}"
    )
    click.echo(f"Directory: {data['directory']} (shared by every user)")
    scan_state = data["scan"]
    if scan_state["state"] == "running":
        click.echo(
            f"Scanning: {scan_state['files_done']}/{scan_state['files_total']} {scan_state['current']}"
        )


@docs.command()
@click.argument("document")
def remove(document: str) -> None:
    """Take a document out of the index (the file stays; `docs reindex` brings it back)."""
    doc = _state().memory.documents.remove(document)
    click.echo(f"Removed #{doc.id} {doc.file_name} from the index")


__all__ = ["docs"]
