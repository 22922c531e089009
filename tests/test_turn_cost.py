"""What a chat turn costs: one query embedding, reused by every search of the turn; no text embedded twice."""

from __future__ import annotations

from reverie import Memory
from reverie.embed.service import content_hash

WAIT = 60.0  # a deadline, not a delay: every wait returns as soon as the batch landed


class _Counting:
    """Wraps an embedder's embed_batch and keeps every text it was given."""

    def __init__(self, embedder: object) -> None:
        self.embedder = embedder
        self.texts: list[str] = []
        self._embed = embedder.embed_batch  # type: ignore[attr-defined]
        embedder.embed_batch = self  # type: ignore[attr-defined]

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return self._embed(texts)  # type: ignore[no-any-return]


def test_a_turn_embeds_its_query_once_for_every_search(memory: Memory) -> None:
    """Facts and documents search the same vector; it stays in memory, not in the database cache."""
    memory.remember("User's sister Mia loves jazz records")
    conv = memory.start_conversation("chat")
    service = memory.embeddings
    assert service is not None
    counting = _Counting(service.embedder)
    query = "What does my sister like?"  # a question: the documents are searched too
    memory.add_message(conv, "user", query)
    block = memory.context(query, conversation_id=conv.id)
    assert "Mia loves jazz" in block.text
    assert counting.texts.count(query) == 1
    memory.context(query, conversation_id=conv.id)  # a retried turn: no inference at all
    assert counting.texts.count(query) == 1
    assert memory.store.cache_get(service.model_id, [content_hash(query)]) == {}
    hits = memory.search(query).facts  # a search of the same words reuses it as well
    assert hits and counting.texts.count(query) == 1


def test_a_reply_said_again_is_not_embedded_again(memory: Memory) -> None:
    """The same short reply on the same day has the same dated turn text: one inference, every turn found."""
    assert memory.indexer is not None
    counting = _Counting(memory.indexer.service.embedder)
    conv = memory.start_conversation("chat")
    replies = []
    for question in ("Turn on the kitchen lights", "And the hallway lights", "Now the porch light"):
        memory.add_message(conv, "user", question)
        replies.append(memory.add_message(conv, "assistant", "Okay."))
        assert memory.indexer.wait(WAIT, windows=False)  # each turn in a batch of its own
    turns = [text for text in counting.texts if "\n" not in text]  # a window is several lines
    assert sum(text.endswith("assistant: Okay.") for text in turns) == 1
    service = memory.embeddings
    assert service is not None
    rows, _ = memory.scope.load_vectors("message", service.model_id)
    found = dict(rows)
    assert all(reply.id in found for reply in replies)
    assert len({found[reply.id] for reply in replies}) == 1
