"""The knowledge base end to end: real files scanned, indexed or skipped, kept fresh, searched."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from reverie import Memory, Settings, load_settings
from reverie.cli import cli
from reverie.docs.library import looks_like_question
from reverie.tools.memory_tool import FUNCTION_SCHEMAS, run_function, run_tool
from tests.conftest import Clock
from tests.docfiles import GARAGE_MANUAL, write_docx, write_encrypted_pdf, write_pdf

QUESTION = "What frequency does my garage door use?"

PDF_PAGES = [
    "Sourdough starter care.\n\nFeed the starter every twelve hours with equal weights of flour and water.",
    "Baking day.\n\nPreheat the oven to 250 degrees Celsius with the Dutch oven inside for forty minutes.",
    "Troubleshooting.\n\nA dense crumb usually means the dough was underproofed; give it another hour.",
]


def _settings(tmp_path: Path, **rag: str) -> Settings:
    environ = {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
        **{f"REVERIE_RAG__{key.upper()}": value for key, value in rag.items()},
    }
    return load_settings(home=tmp_path / "home", environ=environ)


def _library_files(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "garage_door_manual.md").write_text(GARAGE_MANUAL, encoding="utf-8")
    write_pdf(folder / "bread.pdf", PDF_PAGES)
    write_docx(
        folder / "network.docx",
        [
            ("heading1", "Home network"),
            ("para", "The router sits in the hallway cupboard next to the fuse box."),
            ("heading2", "Wi-Fi"),
            ("table", [["Network", "Password hint"], ["Attic-5G", "the dog's birthday"]]),
            ("para", "Guests use the Attic-Guest network, which resets every Sunday."),
        ],
    )
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00garbage\xff" * 200)
    write_encrypted_pdf(folder / "locked.pdf", ["The safe code is written here."])
    (folder / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "huge.txt").write_text("word " * 400_000, encoding="utf-8")
    (folder / "notes.jpg").write_bytes(b"\xff\xd8not a document")


@pytest.fixture
def docs_memory(tmp_path: Path, clock: Clock) -> Iterator[Memory]:
    settings = _settings(tmp_path, max_document_size_mb="1")
    _library_files(tmp_path / "documents")
    mem = Memory(settings, clock=clock)
    yield mem
    mem.close()


def _by_name(memory: Memory) -> dict[str, object]:
    return {doc.file_name: doc for doc in memory.documents.documents()}


def test_scan_indexes_readable_files_and_records_why_others_were_skipped(docs_memory: Memory) -> None:
    report = docs_memory.documents.scan()
    docs = _by_name(docs_memory)
    assert set(docs) == {
        "garage_door_manual.md",
        "bread.pdf",
        "network.docx",
        "broken.pdf",
        "locked.pdf",
        "old.doc",
        "empty.txt",
        "huge.txt",
    }, "unsupported files (notes.jpg) are not documents"
    indexed = {name for name, doc in docs.items() if doc.status == "indexed"}  # type: ignore[attr-defined]
    assert indexed == {"garage_door_manual.md", "bread.pdf", "network.docx"}
    reasons = {name: doc.reason for name, doc in docs.items()}  # type: ignore[attr-defined]
    assert "corrupt pdf" in reasons["broken.pdf"].lower()
    assert "password" in reasons["locked.pdf"].lower()
    assert ".docx" in reasons["old.doc"]
    assert "empty" in reasons["empty.txt"].lower()
    assert "limit" in reasons["huge.txt"].lower() and "max_document_size_mb" in reasons["huge.txt"]
    assert report.indexed == 3 and report.skipped == 5 and report.state == "done"
    assert report.percent == 100
    bread = docs["bread.pdf"]
    assert bread.pages == 3 and bread.chunk_count >= 3  # type: ignore[attr-defined]
    assert len(bread.file_hash) == 64  # type: ignore[attr-defined]


def test_a_question_finds_the_chunk_that_answers_it(docs_memory: Memory) -> None:
    docs_memory.documents.scan()
    hits = docs_memory.search_documents(QUESTION)
    assert hits, "the garage question found nothing"
    assert "315 MHz" in hits[0].text
    assert hits[0].file_name == "garage_door_manual.md"
    assert hits[0].heading == "Garage door opener manual > Remote controls"
    assert hits[0].similarity is not None and hits[0].similarity >= 0.5

    page = docs_memory.search_documents("How hot should the oven be for bread?")[0]
    assert page.file_name == "bread.pdf" and page.page == 2 and page.location == "page 2"
    table = docs_memory.search_documents("What is the wifi network called?")[0]
    assert table.file_name == "network.docx" and "Attic-5G" in table.text


def test_a_changed_file_is_reindexed_and_a_missing_one_removed(docs_memory: Memory, tmp_path: Path) -> None:
    library = docs_memory.documents
    library.scan()
    manual = tmp_path / "documents" / "garage_door_manual.md"
    before = _by_name(docs_memory)["garage_door_manual.md"]
    manual.write_text(GARAGE_MANUAL.replace("315 MHz", "433 MHz"), encoding="utf-8")
    report = library.scan()
    assert report.indexed == 1 and report.unchanged == 7, "only the edited file is re-read"
    after = _by_name(docs_memory)["garage_door_manual.md"]
    assert after.id == before.id and after.file_hash != before.file_hash  # type: ignore[attr-defined]
    hit = docs_memory.search_documents(QUESTION)[0]
    assert "433 MHz" in hit.text and "315" not in hit.text

    (tmp_path / "documents" / "bread.pdf").unlink()
    report = library.scan()
    assert report.removed == 1
    assert "bread.pdf" not in _by_name(docs_memory)
    assert all(hit.file_name != "bread.pdf" for hit in docs_memory.search_documents("sourdough starter"))
    assert docs_memory.store.document_totals()["chunks"] == sum(d.chunk_count for d in library.documents())


def test_a_fixed_file_that_was_skipped_is_indexed_on_the_next_scan(
    docs_memory: Memory, tmp_path: Path
) -> None:
    docs_memory.documents.scan()
    write_pdf(tmp_path / "documents" / "broken.pdf", ["Now a real PDF about the boiler service in March."])
    docs_memory.documents.scan()
    fixed = _by_name(docs_memory)["broken.pdf"]
    assert fixed.status == "indexed" and fixed.reason == ""  # type: ignore[attr-defined]
    assert docs_memory.search_documents("boiler service")[0].file_name == "broken.pdf"


def test_replacing_chunks_is_atomic_for_a_concurrent_reader(tmp_path: Path, clock: Clock) -> None:
    settings = _settings(tmp_path)
    settings.embeddings.enabled = False  # atomicity is the store's; vectors would only slow this down
    folder = tmp_path / "documents"
    folder.mkdir()
    note = folder / "versions.txt"

    def version(number: int) -> str:
        return "\n\n".join(f"Paragraph {i} of version {number}. " + "filler words " * 60 for i in range(12))

    note.write_text(version(0), encoding="utf-8")
    with Memory(settings, clock=clock) as memory:
        memory.documents.scan()
        doc = memory.documents.documents()[0]
        assert doc.chunk_count > 1
        seen: list[set[str]] = []
        stop = threading.Event()

        def read() -> None:
            while not stop.is_set():
                chunks = memory.store.get_chunks(range(1, 500))
                seen.append(
                    {c.text.split("version ")[1].split(".")[0] for c in chunks if c.document_id == doc.id}
                )

        reader = threading.Thread(target=read)
        reader.start()
        try:
            for number in range(1, 21):
                note.write_text(version(number), encoding="utf-8")
                memory.documents.scan()
        finally:
            stop.set()
            reader.join()
        assert len(seen) > 5 and all(len(versions) == 1 for versions in seen), (
            "a reader saw two versions mixed"
        )


def test_remove_keeps_a_document_out_until_it_is_reindexed(docs_memory: Memory) -> None:
    library = docs_memory.documents
    library.scan()
    removed = library.remove("garage_door_manual.md")
    assert removed.status == "excluded" and removed.chunk_count == 0
    assert all(hit.file_name != "garage_door_manual.md" for hit in docs_memory.search_documents(QUESTION))
    assert library.scan().excluded == 1
    assert _by_name(docs_memory)["garage_door_manual.md"].status == "excluded"  # type: ignore[attr-defined]
    library.reindex("garage_door_manual.md")
    assert "315 MHz" in docs_memory.search_documents(QUESTION)[0].text


def test_background_scan_reports_progress_until_done(docs_memory: Memory) -> None:
    first = docs_memory.documents.start_scan()
    assert first.state == "running"
    final = docs_memory.documents.wait(timeout=120)
    assert final.state == "done" and final.files_done == final.files_total == 8
    assert final.chunks_indexed > 0
    status = docs_memory.documents.status()
    assert status["indexed"] == 3 and status["scan"]["percent"] == 100


def test_the_index_warns_when_max_chunks_is_near_and_skips_files_when_full(
    tmp_path: Path, clock: Clock
) -> None:
    settings = _settings(tmp_path, max_chunks="3", chunk_size_tokens="40", chunk_overlap_tokens="5")
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "a.txt").write_text("First note about the hallway lamp and its bulbs.", encoding="utf-8")
    (folder / "b.txt").write_text("\n\n".join(f"Paragraph {i} " + "lamp words " * 12 for i in range(6)))
    with Memory(settings, clock=clock) as memory:
        report = memory.documents.scan()
        docs = _by_name(memory)
        assert docs["a.txt"].status == "indexed"  # type: ignore[attr-defined]
        assert docs["b.txt"].status == "skipped" and "max_chunks" in docs["b.txt"].reason  # type: ignore[attr-defined]
        assert memory.store.document_totals()["chunks"] <= 3
        assert report.skipped == 1


def test_embedding_failure_indexes_for_keyword_search_and_retries_later(tmp_path: Path, clock: Clock) -> None:
    settings = _settings(tmp_path)
    settings.embeddings.provider = "ollama"
    settings.embeddings.endpoint = "http://127.0.0.1:9"  # nothing listens on the discard port
    settings.embeddings.max_attempts = 1
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "garage.md").write_text(GARAGE_MANUAL, encoding="utf-8")
    with Memory(settings, clock=clock) as memory:
        report = memory.documents.scan()
        doc = memory.documents.documents()[0]
        assert doc.status == "indexed" and "keyword" in doc.reason and doc.model_id == ""
        assert report.warnings
        assert "315 MHz" in memory.search_documents("garage door frequency")[0].text
        # The next scan tries the vectors again (the file is unchanged but has none).
        assert memory.documents.scan().unchanged == 0


def test_the_memory_tool_and_functions_search_documents(docs_memory: Memory) -> None:
    docs_memory.documents.scan()
    reply = run_tool(docs_memory, json.dumps({"device": "documents", "action": "search", "value": QUESTION}))
    assert reply.ok and reply.data is not None
    assert reply.data["status"] == "ok" and "315 MHz" in reply.data["results"][0]["text"]
    assert reply.data["results"][0]["file"] == "garage_door_manual.md"
    assert "documents_search" in {schema["function"]["name"] for schema in FUNCTION_SCHEMAS}
    call = run_function(docs_memory, "documents_search", {"value": "sourdough starter feeding"})
    assert call.ok and call.data is not None and call.data["results"][0]["file"] == "bread.pdf"
    wrong = run_tool(docs_memory, {"device": "documents", "action": "remember", "value": "x"})
    assert not wrong.ok and wrong.data is not None and wrong.data["error"] == "unknown_action"
    guest = run_tool(
        docs_memory.for_interface("unmapped_speaker"),
        {"device": "documents", "action": "search", "value": QUESTION},
    )
    assert not guest.ok


def test_the_context_adds_document_excerpts_to_questions_within_the_budget(docs_memory: Memory) -> None:
    docs_memory.documents.scan()
    docs_memory.remember("User's garage is detached from the house")
    block = docs_memory.context(QUESTION)
    assert (
        "315 MHz" in block.text
        and "[garage_door_manual.md, Garage door opener manual > Remote controls]" in block.text
    )
    assert block.chunk_ids and block.tokens <= block.budget
    assert block.text.index("Known facts:") < block.text.index("household's documents")
    statement = docs_memory.context("I repainted the garage door yesterday")
    assert "315 MHz" not in statement.text and not statement.chunk_ids


def test_a_context_before_any_document_finds_the_documents_indexed_after(docs_memory: Memory) -> None:
    """A viewer without documents skips the search; the next context after a scan searches them."""
    assert not docs_memory.context(QUESTION).chunk_ids
    assert docs_memory.documents.search(QUESTION, user_id=docs_memory.user.id) == []  # type: ignore[union-attr]
    docs_memory.documents.scan()
    block = docs_memory.context(QUESTION)
    assert block.chunk_ids and "315 MHz" in block.text


def test_question_heuristics() -> None:
    assert looks_like_question("What does the manual say about the filter")
    assert looks_like_question("how do I reset the router")
    assert looks_like_question("Is the oven preheated?")
    assert looks_like_question("According to the recipe, how much flour")
    assert not looks_like_question("I bought a new router today.")
    assert not looks_like_question("")
    # a model number, an error code or a file name is what a manual is read for
    assert looks_like_question("My DW-450 shows E24 again")
    assert looks_like_question("the printer log mentions spooler.cfg")
    assert not looks_like_question("I walked 5 km with 2 friends today.")


def test_a_message_naming_an_identifier_gets_the_document_that_holds_it(docs_memory: Memory) -> None:
    docs_memory.documents.scan()
    block = docs_memory.context("Guests cannot see Attic-5G from the garden")
    assert "Attic-5G" in block.text and "[network.docx" in block.text


def test_cli_docs_commands(tmp_path: Path) -> None:
    _library_files(tmp_path / "documents")
    runner = CliRunner()
    env = {
        "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
        "REVERIE_RAG__MAX_DOCUMENT_SIZE_MB": "1",
    }
    scan = runner.invoke(cli, ["docs", "scan"], env=env)
    assert scan.exit_code == 0, scan.output
    assert "3 indexed" in scan.output and "5 skipped" in scan.output
    listing = runner.invoke(cli, ["docs", "list"], env=env)
    assert "garage_door_manual.md  indexed" in listing.output
    assert "locked.pdf  skipped: encrypted PDF" in listing.output
    found = runner.invoke(cli, ["docs", "search", QUESTION], env=env)
    assert found.exit_code == 0 and "315 MHz" in found.output and "[garage_door_manual.md" in found.output
    status = runner.invoke(cli, ["docs", "status", "--json"], env=env)
    assert json.loads(status.output)["indexed"] == 3
    removed = runner.invoke(cli, ["docs", "remove", "bread.pdf"], env=env)
    assert removed.exit_code == 0 and "Removed" in removed.output
    back = runner.invoke(cli, ["docs", "reindex", "bread.pdf", "--json"], env=env)
    assert json.loads(back.output)["status"] == "indexed"
    missing = runner.invoke(cli, ["docs", "remove", "nope.pdf"], env=env)
    assert missing.exit_code == 1 and "No document" in missing.output


def test_the_watcher_indexes_a_file_dropped_into_the_folder(tmp_path: Path, clock: Clock) -> None:
    from reverie.docs.watcher import DocumentWatcher

    settings = _settings(tmp_path, watch_debounce_ms="100")
    with Memory(settings, clock=clock) as memory:
        watcher = DocumentWatcher(memory.documents)
        watcher.start()
        try:
            time.sleep(0.3)
            (tmp_path / "documents" / "garage.md").write_text(GARAGE_MANUAL, encoding="utf-8")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not memory.documents.documents():
                time.sleep(0.1)
            assert [doc.file_name for doc in memory.documents.documents()] == ["garage.md"]
        finally:
            watcher.stop()
        assert watcher.scans >= 1
