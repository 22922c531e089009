"""``reverie docs``: scan, re-index, list, search and remove the household's documents.

Without ``--user`` (the command's, or reverie's own before ``docs``) a command sees the shared
documents only (the household's folder). With ``--user NAME`` it sees what that user sees in the
web UI: the shared documents and their own uploads, never another user's; ``docs add`` keeps a
file as that user's own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import tzinfo
from pathlib import Path
from typing import Any, TypeVar

import click

from reverie.cli.main import _emit, _json_option, _state, cli, plural
from reverie.docs.library import DocumentLibrary, megabytes
from reverie.docs.progress import ScanProgress
from reverie.errors import NotFound
from reverie.retrieve.timeutil import humanize_ago, to_iso
from reverie.store.base import DocumentRow, User

F = TypeVar("F", bound=Callable[..., Any])


def _user_option(func: F) -> F:
    return click.option(
        "--user",
        "owner",
        metavar="NAME",
        help="See as this user: the shared documents and their own uploads (default: the shared ones).",
    )(func)


def _owner(name: str | None) -> User | None:
    """The user named by the command's --user, else by reverie's own --user (NotFound when there is none)."""
    name = name or _state().user_name
    if name is None:
        return None
    user = _state().memory.store.get_user(name)
    if user is None:
        raise NotFound(f"No user named '{name}'; `reverie users list` shows who there is")
    return user


def _viewer(owner: User | None) -> int | None:
    return owner.id if owner is not None else None


def _document_dict(doc: DocumentRow, tz: tzinfo) -> dict[str, Any]:
    return {
        "shared": doc.owner_id is None,
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


def _document_line(doc: DocumentRow, now: float, owner: User | None = None) -> str:
    """One document; seen as a user (--user), labelled (shared) or (NAME's) as the web UI labels them."""
    label = ""
    if owner is not None:
        label = " (shared)" if doc.owner_id is None else f" ({owner.name}'s)"
    if doc.status == "indexed":
        when = humanize_ago(doc.indexed_at, now) if doc.indexed_at else ""
        note = f"  ({doc.reason})" if doc.reason else ""
        return f"#{doc.id} {doc.file_name}{label}  indexed, {plural(doc.chunk_count, 'chunk')}, {when}{note}"
    return f"#{doc.id} {doc.file_name}{label}  {doc.status}: {doc.reason}"


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
@_user_option
@_json_option
def reindex(document: str | None, owner: str | None, as_json: bool) -> None:
    """Re-index one document (id, path or file name; also a removed one) or all of them."""
    library = _state().memory.documents
    user = _owner(owner)
    if document is None:
        _run_scan(library, True, as_json)
        return
    library.reindex(document, _viewer(user))
    doc = library.find(document, _viewer(user))
    if as_json:
        _emit(_document_dict(doc, _state().memory.tz))
    else:
        click.echo(_document_line(doc, _state().memory.clock(), user))


@docs.command(name="list")
@_user_option
@_json_option
def list_documents(owner: str | None, as_json: bool) -> None:
    """Every document with its status: indexed (chunks), skipped (why) or removed."""
    memory = _state().memory
    user = _owner(owner)
    documents = memory.documents.documents(_viewer(user))
    if as_json:
        _emit([_document_dict(doc, memory.tz) for doc in documents])
        return
    if not documents:
        click.echo(f"No documents yet; put files in {memory.documents.directory} and run `reverie docs scan`")
    for doc in documents:
        click.echo(_document_line(doc, memory.clock(), user))


@docs.command(name="add")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--user", "owner", metavar="NAME", required=True, help="Whose own document it becomes.")
@click.option("--name", help="The document's file name (default: the file's).")
@_json_option
def add_document(path: Path, owner: str, name: str | None, as_json: bool) -> None:
    """Keep a file as a user's own document and index it now (as an upload on the Knowledge Base page).

    It counts against rag.user_quota_mb; adding a name again replaces that document.
    """
    memory = _state().memory
    user = _owner(owner)
    assert user is not None
    doc = memory.documents.upload(user.id, name or path.name, path.read_bytes())
    if as_json:
        _emit(_document_dict(doc, memory.tz))
        return
    click.echo(_document_line(doc, memory.clock(), user))
    used, quota = memory.store.owned_bytes(user.id), memory.settings.rag.user_quota_mb
    click.echo(f"{user.name}'s own documents: {megabytes(used)} of rag.user_quota_mb = {quota:g} MB")


@docs.command(name="search")
@click.argument("query")
@click.option("--limit", type=click.IntRange(1, 100), help="How many excerpts (default rag.max_results).")
@_user_option
@_json_option
def search_documents(query: str, limit: int | None, owner: str | None, as_json: bool) -> None:
    """Find the excerpts of the documents that answer a question."""
    hits = _state().memory.documents.search(query, limit=limit, user_id=_viewer(_owner(owner)))
    if as_json:
        _emit([hit.to_dict() for hit in hits])
        return
    if not hits:
        click.echo("No document matches.")
    for hit in hits:
        where = f", {hit.location}" if hit.location else ""
        click.echo(f"[{hit.file_name}{where}] ({hit.score:.2f})\n  {hit.text}\n")


@docs.command()
@_user_option
@_json_option
def status(owner: str | None, as_json: bool) -> None:
    """Totals of the index and the progress of the last scan."""
    memory = _state().memory
    user = _owner(owner)
    data = memory.documents.status(_viewer(user))
    if user is not None:
        data["used_bytes"] = memory.store.owned_bytes(user.id)
        data["quota_bytes"] = int(memory.settings.rag.user_quota_mb * 1024 * 1024)
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
    if user is not None:
        click.echo(
            f"{user.name}'s own documents: {megabytes(data['used_bytes'])} of "
            f"rag.user_quota_mb = {memory.settings.rag.user_quota_mb:g} MB"
        )
    scan_state = data["scan"]
    if scan_state["state"] == "running":
        click.echo(
            f"Scanning: {scan_state['files_done']}/{scan_state['files_total']} {scan_state['current']}"
        )


@docs.command()
@click.argument("document")
@_user_option
def remove(document: str, owner: str | None) -> None:
    """Take a shared document out of the index (the file stays; `docs reindex` brings it back).

    With --user, that user's own document is deleted instead, its file too.
    """
    user = _owner(owner)
    doc = _state().memory.documents.remove(document, _viewer(user))
    if doc.owner_id is not None and user is not None:
        click.echo(f"Deleted #{doc.id} {doc.file_name}, {user.name}'s own document, and its file")
    else:
        click.echo(f"Removed #{doc.id} {doc.file_name} from the index")


__all__ = ["docs"]
