"""Questions that name an exact identifier find the chunk holding it, among many close in meaning."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie import Memory, Settings, load_settings
from reverie.retrieve.identifiers import identifiers, phrases, promote

FAULTS = [
    "the door is not closed properly; press it shut until it clicks",
    "the water tap is turned off or the supply pressure is too low",
    "the drain pump is blocked by debris; clean the pump cover",
    "the heater has failed; call customer service",
    "the water level sensor reports an error; check the pressure switch hose",
    "the drain hose is blocked or kinked; check the hose behind the machine",
]

VERSIONS = ["2.9.0", "2.0.9", "9.2.0", "9.0.2", "0.9.2", "0.2.9", "1.2.9", "1.9.2", "9.1.2", "9.2.1"]
CHANGES = [
    "shows the remaining time of the program on the phone",
    "fixes the remaining time shown on the phone after a power cut",
    "adds a notification when the program has finished",
    "fixes notifications arriving twice when the program finishes",
    "shows how much salt and rinse aid are left",
]


def _settings(tmp_path: Path) -> Settings:
    environ = {"REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents")}
    return load_settings(home=tmp_path / "home", environ=environ)


def _manuals(folder: Path) -> None:
    """Twelve dishwasher manuals whose error sections read alike and share their codes."""
    folder.mkdir(parents=True)
    for model in range(410, 530, 10):
        lines = [f"# Aqualine DW-{model} dishwasher manual", ""]
        for index, code in enumerate(("E09", "E15", "E22", "E24", "E25", "E27")):
            fault = FAULTS[(index + model // 10) % len(FAULTS)]
            lines += [f"## Error {code}", "", f"{code}: {fault}.", ""]
        lines += ["## Firmware", ""]
        lines += [
            f"Firmware {major}.{model // 10 % 10}.{minor}: improves drying."
            for major, minor in ((1, 2), (2, 0))
        ]
        (folder / f"dw{model}_manual.md").write_text("\n".join(lines), encoding="utf-8")
    # Release notes whose versions are made of the same three digits: keywords alone see them alike.
    notes = ["# Dishwasher app release notes", ""]
    for index, version in enumerate(VERSIONS):
        notes += [f"## Release {version}", "", f"Version {version} {CHANGES[index % len(CHANGES)]}.", ""]
    (folder / "app_release_notes.md").write_text("\n".join(notes), encoding="utf-8")


def test_identifier_questions_find_their_chunk_among_many_alike(tmp_path: Path) -> None:
    _manuals(tmp_path / "documents")
    with Memory(_settings(tmp_path)) as memory:
        memory.documents.scan()
        # An error code and a model number: that model's section first, then chunks naming one of them.
        hits = memory.search_documents("What does error E24 mean on my DW-470?")
        assert hits[0].file_name == "dw470_manual.md"
        assert "E24:" in hits[0].text
        assert all("E24" in hit.text or hit.file_name == "dw470_manual.md" for hit in hits)
        # Versions of the same digits: keywords and meaning rank them alike (before this, 2.0.9 and
        # 9.2.1 were not among the first five); the exact version comes first.
        for question, version in [
            ("what changed in 2.0.9", "2.0.9"),
            ("what is new in 9.0.2?", "9.0.2"),
            ("notes for version 1.9.2", "1.9.2"),
            ("0.2.9 release", "0.2.9"),
            ("what does 9.2.1 fix", "9.2.1"),
        ]:
            hits = memory.search_documents(question)
            assert hits[0].text.startswith(f"Version {version} "), question
        # Written with a v, found without.
        hits = memory.search_documents("is firmware v1.5.2 any good")
        assert hits[0].file_name == "dw450_manual.md"
        # Without an identifier the fused ranking stands.
        assert memory.search_documents("my dishwasher will not empty its water")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What does E24 mean on the DW-450?", ["e24", "dw-450"]),
        ("Boiler shows F.22, what now?", ["f.22"]),
        ("What is in /etc/nginx/sites-available/photos.conf?", ["/etc/nginx/sites-available/photos.conf"]),
        ("When does backup_nightly.sh run", ["backup_nightly.sh"]),
        ("printer error 0x61011BED", ["0x61011bed"]),
        ("MAC 3C:52:82:1A:9F:04's address", ["3c:52:82:1a:9f:04"]),
        ("upgrade to PostgreSQL 16.2", ["16.2"]),
        ("the 3rd floor at 5pm on Wi-Fi 6", []),
        ("e.g. the U.S. router", []),
        ("a b c d e f 1a 2b 3c 4d 5e", ["1a", "2b", "3c", "4d"]),
    ],
)
def test_identifiers_of_a_query(query: str, expected: list[str]) -> None:
    assert identifiers(query) == expected


def test_phrases_try_the_other_spellings_after_the_exact_one() -> None:
    assert phrases("DW-450") == ["dw-450", "dw 450", "dw450"]
    assert phrases("DW450") == ["dw450", "dw 450"]
    assert phrases("v1.2.4") == ["v1.2.4", "v1 2 4", "1.2.4", "1 2 4"]
    assert phrases("1.2.4") == ["1.2.4", "1 2 4", "v1.2.4", "v1 2 4"]
    assert phrases("backup_nightly.sh") == ["backup_nightly.sh", "backup nightly sh"]
    assert phrases("E24") == ["e24", "e 24"]
    assert phrases("--") == []


def test_promote_puts_more_identifiers_first_and_keeps_the_fused_order_within() -> None:
    ranking = [(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)]
    assert promote(ranking, {}) == ranking
    promoted = promote(ranking, {3: 1, 4: 2, 9: 1}, extra=[(9, 0.75)])
    assert [item for item, _ in promoted] == [4, 9, 3, 1, 2]
    assert dict(promoted)[4] == pytest.approx(2.6)
