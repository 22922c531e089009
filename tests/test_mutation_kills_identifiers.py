"""Exact identifiers in a question: which tokens count, and the other spellings tried for each.

Written for the mutants of retrieve/identifiers.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie import Memory, load_settings
from reverie.retrieve.identifiers import identifiers, phrases, promote
from reverie.text import keyword_terms


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("the DW-450\u2019s manual", ["dw-450"]),  # a curly possessive, as phones type it
        ("E24 again, then e24 and E24.", ["e24"]),  # one identifier named three times
        ("at 5PM or the 2ND floor", []),  # ordinals and clock times in capitals
        ("a spare TP-12X.", ["tp-12x"]),
        ("see Backup_Nightly and README.md", ["backup_nightly", "readme.md"]),
    ],
)
def test_which_tokens_of_a_question_are_identifiers(query: str, expected: list[str]) -> None:
    assert identifiers(query) == expected


def test_the_other_spellings_of_numbers_codes_and_versions() -> None:
    assert phrases("16.2") == ["16.2", "16 2", "v16.2", "v16 2"]
    assert phrases("02:30") == ["02:30", "02 30"]  # a clock time is no version
    assert phrases("HX-88213-B") == ["hx-88213-b", "hx 88213 b", "hx88213b"]
    assert phrases("A1-B2-C3-D4") == ["a1-b2-c3-d4", "a1 b2 c3 d4"]  # four pieces are not run together
    assert phrases("0x1F") == ["0x1f"]  # a hex code is not split into letters and digits
    assert phrases("/42._") == ["/42._", "42"]  # one number with a "." in a path is no version


def test_a_chunk_left_out_of_the_ranking_comes_back_only_when_it_names_an_identifier() -> None:
    ranking = [(1, 0.9)]
    extra = [(1, 0.9), (2, 0.8), (3, 0.5)]  # 2 and 3 were under the similarity threshold
    assert promote(ranking, {3: 1}, extra) == [(3, 1.5), (1, 0.9)]


def test_a_chunk_naming_both_identifiers_comes_first_and_each_adds_one_to_its_score(tmp_path: Path) -> None:
    folder = tmp_path / "documents"
    folder.mkdir()
    filler = " ".join(f"word{n}" for n in range(120))
    (folder / "both.md").write_text(f"# Both\n\nError E24 on the DW-470 means {filler}.\n", encoding="utf-8")
    (folder / "code.md").write_text("# Code\n\nE24 E24 E24: the drain is blocked.\n", encoding="utf-8")
    (folder / "model.md").write_text("# Model\n\nThe DW-470 DW-470 is quiet.\n", encoding="utf-8")
    environ = {"REVERIE_RAG__DOCUMENTS_DIR": str(folder), "REVERIE_EMBEDDINGS__ENABLED": "false"}
    with Memory(load_settings(home=tmp_path / "home", environ=environ)) as memory:
        memory.documents.scan()
        question = "what is E24 on a DW-470"
        hits = memory.search_documents(question)
        keyword = dict(memory.documents.store.search_chunks(keyword_terms(question), 40))
    # The keyword scores are all near 0 here (three short files): the identifiers decide the order.
    # The two files naming one identifier each are ordered by their keyword score, which differs
    # between the engines (SQLite's BM25, PostgreSQL's ts_rank).
    assert [hit.file_name for hit in hits][0] == "both.md"
    assert sorted(hit.file_name for hit in hits[1:]) == ["code.md", "model.md"]
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    named = {"both.md": 2, "code.md": 1, "model.md": 1}
    for hit in hits:
        assert hit.score == pytest.approx(keyword[hit.chunk_id] + named[hit.file_name], abs=1e-3)


def test_a_chunk_naming_an_identifier_ranks_first_whatever_its_score() -> None:
    assert promote([(1, 5.0)], {2: 1}, [(2, 0.2)]) == [(2, 1.2), (1, 5.0)]
    assert promote([(1, 0.9)], {5: 1}) == [(5, 1.0), (1, 0.9)]  # found by its identifier alone
    assert promote([(2, 0.5), (1, 0.5)], {3: 1}) == [(3, 1.0), (1, 0.5), (2, 0.5)]  # ties by id
