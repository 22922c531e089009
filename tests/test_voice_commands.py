"""Voice commands about the documents (DAWN §5.4): "re-index the documents" and the nightly re-scan."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie import Memory, Settings, load_settings


def _settings(tmp_path: Path, **extra: str) -> Settings:
    environ = {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
        **{f"REVERIE_{key.upper()}": value for key, value in extra.items()},
    }
    return load_settings(home=tmp_path / "home", environ=environ)


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def _names(memory: Memory) -> set[str]:
    return {Path(doc.path).name for doc in memory.documents.documents()}


def _wait_for_scan(memory: Memory) -> None:
    assert memory.documents.wait(60).state == "done"


@pytest.mark.parametrize(
    "said",
    ["Re-index the documents", "rescan the knowledge base", "Please reindex all the documents.",
     "scan my documents again"],
)
def test_saying_reindex_scans_the_documents_folder(tmp_path: Path, said: str) -> None:
    folder = tmp_path / "documents"
    _write(folder, "bees.md", "# Bees\n\nThe hive sits on the roof by the chimney.")
    with Memory(_settings(tmp_path)) as memory:
        assert _names(memory) == set()
        seen = memory.observe(said)
        assert seen.action == "reindex" and "Scanning the documents folder" in seen.reply
        _wait_for_scan(memory)
        assert _names(memory) == {"bees.md"}
        (folder / "bees.md").unlink()
        assert memory.observe("rescan the documents").action == "reindex"
        _wait_for_scan(memory)
        assert _names(memory) == set()


def test_reindex_is_not_for_guests_nor_ordinary_talk(tmp_path: Path) -> None:
    _write(tmp_path / "documents", "bees.md", "# Bees\n\nThe hive sits on the roof.")
    with Memory(_settings(tmp_path)) as root:
        guest = root.for_interface("hall")
        assert guest.observe("re-index the documents").action == "guest"
        assert root.observe("I need to update the documents for my tax return").action != "reindex"
        assert _names(root) == set()


def test_reindex_says_when_the_knowledge_base_is_off(tmp_path: Path) -> None:
    with Memory(_settings(tmp_path, rag__enabled="false")) as memory:
        seen = memory.observe("rescan the knowledge base")
        assert seen.action == "reindex" and "turned off" in seen.reply


def test_nightly_maintenance_rescans_the_folder_and_drops_deleted_files(tmp_path: Path) -> None:
    folder = tmp_path / "documents"
    _write(folder, "bees.md", "# Bees\n\nThe hive sits on the roof by the chimney.")
    _write(folder, "boat.md", "# Boat\n\nThe kayak is red and hangs in the garage.")
    with Memory(_settings(tmp_path)) as memory:
        memory.documents.scan()
        assert _names(memory) == {"bees.md", "boat.md"}
        (folder / "boat.md").unlink()
        _write(folder, "bread.md", "# Bread\n\nThe starter lives in the fridge.")
        report = memory.maintainer().run(force=True)
        assert report.documents_removed == 1 and report.totals()["documents_removed"] == 1
        assert _names(memory) == {"bees.md", "bread.md"}
        assert all("kayak" not in hit.text for hit in memory.search_documents("kayak garage"))


def test_nightly_maintenance_goes_on_without_a_documents_folder(tmp_path: Path) -> None:
    with Memory(_settings(tmp_path)) as memory:
        report = memory.maintainer().run(force=True)
        assert report.ran and report.documents_removed == 0
