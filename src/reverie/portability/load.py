"""Import: an export document loaded into a user's memory in one transaction."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from reverie.errors import InvalidInput, TooLarge
from reverie.extract.guard import ensure_memory_text
from reverie.extract.merge import find_twin, supersede_fact
from reverie.portability.document import (
    MAX_BASE_BYTES,
    check_conversation,
    check_index_line,
    check_list,
    check_memory,
    check_summary,
    check_time,
    check_topic,
)
from reverie.portability.documents import (
    check_documents,
    documents_held,
    documents_to_add,
    restore_documents,
)
from reverie.portability.export import FORMAT
from reverie.retrieve.episodes import turn_line, window_keyword_text
from reverie.store.base import STATUSES, MemoryFilter, MemoryRow, MessageRow, NewMemory, NewSummary, UserStore
from reverie.topics import TopicBook, write_atomic

if TYPE_CHECKING:
    from reverie.core import MemoryCore

READS = (1, 2)
_MAX_INDEX = 1_000_000
# A document with more items than this is refused as a whole (413) before anything is read.
MAX_ITEMS = 100_000


def import_user(memory: MemoryCore, document: Any) -> dict[str, int]:
    """Validate a whole export document, then load it in one transaction (nothing on error).

    The user's uploads wait meanwhile: the quota check of its documents and their restoring
    are one step (see :mod:`reverie.docs.quota`). The rest is :func:`_import_user`'s.
    """
    with documents_held(memory):
        return _import_user(memory, document)


def _import_user(memory: MemoryCore, document: Any) -> dict[str, int]:
    """Validate a whole export document, then load it in one transaction (nothing on error).

    Memories already present with the same kind, key, text and status are skipped, so
    importing the same document twice adds nothing. An imported active memory whose key is
    already active is kept, but as superseded by the current one. An imported active fact that
    the merge policy finds repeated by a kept fact is skipped; one that updates or contradicts a
    kept fact is kept too, the newer of the two (by last update) active and the other superseded.
    A conversation already present (same interface and start) is skipped with its turns, and
    so are a topic whose slug exists, an index line already there and a document of the user's
    own whose file name they already hold. The user's documents are checked against
    ``rag.max_document_size_mb`` and ``rag.user_quota_mb`` before anything is written (TooLarge:
    nothing imported), then kept and indexed as uploads once the rest is committed. Interfaces in the
    settings are mapped to this user when no one else has them. Text that reaches a prompt
    (memories, summaries, base memory, topic lines and titles, working state, index lines)
    passes the guard a remembered fact passes; turns are checked as a recorded turn is.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f'Not a Reverie export: expected an object with "format": "{FORMAT}"')
    if document.get("version") not in READS:
        raise InvalidInput(
            f"Unsupported export version {document.get('version')!r}; this Reverie reads "
            + " and ".join(str(v) for v in READS)
        )
    raw_memories, raw_summaries = document.get("memories", []), document.get("summaries", [])
    if not isinstance(raw_memories, list) or not isinstance(raw_summaries, list):
        raise InvalidInput("memories and summaries must be lists")
    raw_conversations, raw_topics = check_list(document, "conversations"), check_list(document, "topics")
    raw_index, raw_documents = check_list(document, "topic_index"), check_list(document, "documents")
    items = len(raw_memories) + len(raw_summaries) + len(raw_topics) + len(raw_index) + len(raw_documents)
    items += sum(len(c.get("messages", [])) + 1 for c in raw_conversations if isinstance(c, dict))
    if items > MAX_ITEMS:
        raise TooLarge(f"The document holds more than {MAX_ITEMS} items; import it in parts")
    memories = [check_memory(item, i) for i, item in enumerate(raw_memories)]
    links = [item.get("superseded_by") for item in raw_memories]
    local_ids = [item.get("id", i + 1) for i, item in enumerate(raw_memories)]
    memory_convs = [item.get("conversation") for item in raw_memories]
    memory_sources = [item.get("source_message") for item in raw_memories]
    summaries = [check_summary(item, i) for i, item in enumerate(raw_summaries)]
    summary_extra = [
        (item.get("conversation"), item.get("incorporated") is True, item.get("duration_seconds", 0.0))
        for item in raw_summaries
    ]
    conversations = [check_conversation(item, i) for i, item in enumerate(raw_conversations)]
    topics = [check_topic(item, i) for i, item in enumerate(raw_topics)]
    index_lines = [check_index_line(item, i) for i, item in enumerate(raw_index)]
    settings = document.get("settings") or {}
    interfaces = settings.get("interfaces", []) if isinstance(settings, dict) else None
    if not isinstance(interfaces, list) or not all(isinstance(i, str) and i.strip() for i in interfaces):
        raise InvalidInput("settings.interfaces must be a list of interface names")
    base = document.get("base_memory")
    if base is not None and (not isinstance(base, dict) or not isinstance(base.get("text"), str)):
        raise InvalidInput("base_memory must be null or an object with a text")
    if base is not None and base["text"].strip():
        try:
            base = {**base, "text": ensure_memory_text(base["text"], max_bytes=MAX_BASE_BYTES)}
        except InvalidInput as exc:
            raise InvalidInput(f"base_memory: {exc}") from exc
    # Checked before anything is written: a file too large, or past the user's quota, refuses it all.
    documents = documents_to_add(memory, check_documents(memory, raw_documents))
    scope, now = memory.scope, memory.clock()
    counts = {
        "memories": 0,
        "skipped": 0,
        "summaries": 0,
        "base_memory": 0,
        "conversations": 0,
        "messages": 0,
        "topics": 0,
        "documents": len(documents),
    }
    files: list[tuple[str, str]] = []
    with scope.transaction():
        conv_ids, msg_ids = _import_conversations(memory, conversations, counts, now)
        existing = scope.list_memories(MemoryFilter(statuses=STATUSES, limit=1_000_000, order="id"))
        seen = {(m.kind, m.category, m.key, m.text, m.status) for m in existing}
        new_ids: dict[Any, int] = {}
        for local_id, new, conv, source in zip(
            local_ids, memories, memory_convs, memory_sources, strict=True
        ):
            if conv in conv_ids:
                new = NewMemory(**{**new.__dict__, "conversation_id": conv_ids[conv]})
            if _hashable(source) and source in msg_ids:
                new = NewMemory(**{**new.__dict__, "source_message_id": msg_ids[source]})
            if (new.kind, new.category, new.key, new.text, new.status) in seen:
                counts["skipped"] += 1
                continue
            clash = _clash(scope, new)
            twin = None
            if new.kind == "fact" and new.status == "active" and existing:
                # The merge policy, as for a remember: a repeat is not added again; an update or a
                # contradiction of a kept fact is resolved by time, the newer one staying active.
                found = find_twin(scope, new.text, memory.policy, key=new.key)
                if found is not None and found[1] == "same":
                    new_ids[local_id] = found[0].id
                    counts["skipped"] += 1
                    continue
                twin = found[0] if found is not None else None
            if clash is not None:
                twin = None  # the key decides, as it always did: the current one stays active
            newer = twin is not None and (new.updated_at or now) > twin.updated_at
            keep_active = clash is None and (twin is None or newer)
            row = scope.insert_memory(new if keep_active else _as_superseded(new), now)
            if clash is not None:
                scope.supersede(row.id, clash.id, now)
            elif twin is not None:
                old, kept = (twin, row) if newer else (row, twin)
                supersede_fact(scope, old, kept, now, "import: the newer of two versions of a fact stays")
            new_ids[local_id] = row.id
            counts["memories"] += 1
        for local_id, link in zip(local_ids, links, strict=True):
            if link is not None and local_id in new_ids and link in new_ids:
                scope.update_memory(
                    new_ids[local_id], _updated_at(memories, local_ids, local_id), superseded_by=new_ids[link]
                )
        known_summaries = {(s.text, s.created_at) for s in scope.list_summaries(limit=1_000_000)}
        for summary, (conv, incorporated, duration) in zip(summaries, summary_extra, strict=True):
            if (summary.text, summary.created_at) in known_summaries:
                continue
            seconds = float(duration) if isinstance(duration, int | float) and duration >= 0 else 0.0
            row_s = scope.insert_summary(
                NewSummary(
                    **{**summary.__dict__, "conversation_id": conv_ids.get(conv), "duration_seconds": seconds}
                ),
                now,
            )
            if incorporated:
                scope.mark_incorporated([row_s.id])
            counts["summaries"] += 1
        if base is not None and not scope.get_base_memory():
            scope.set_base_memory(
                base["text"], check_time(base.get("updated_at"), "base_memory.updated_at") or now
            )
            counts["base_memory"] = 1
        folder = TopicBook(memory).folder if memory.user is not None else None
        for topic in topics:
            if folder is None:
                break
            if scope.get_topic(topic["slug"]) is not None and (folder / f"{topic['slug']}.md").exists():
                continue  # a row without its file (a person deleted it) is restored from the document
            saved = scope.save_topic(
                topic["slug"],
                topic["title"],
                now,
                line_count=topic["lines"],
                file_hash=hashlib.sha256(topic["markdown"].encode("utf-8")).hexdigest(),
            )
            scope.tag_topic(saved.id, sorted({new_ids[i] for i in topic["memories"] if i in new_ids}))
            files.append((topic["slug"], topic["markdown"]))
            counts["topics"] += 1
        known_index = {(r.at, r.topic, r.summary) for r in scope.list_topic_index(_MAX_INDEX)}
        fresh = [
            line for line in index_lines if (line["at"], line["topic"], line["summary"]) not in known_index
        ]
        keep = max(memory.settings.memory.topics.index_max_entries, len(known_index) + len(fresh))
        for line in fresh:
            scope.add_topic_index(
                conv_ids.get(line["conversation"]), line["at"], line["topic"], line["summary"], keep=keep
            )
        if memory.user is not None:
            for interface in interfaces:
                if memory.store.interface_user(interface) is None:
                    memory.store.map_interface(interface, memory.user.id, now)
        scope.audit("import", now, reason="import of an export document", detail=counts)
    if files and memory.user is not None:
        book = TopicBook(memory)
        with book.lock:
            for slug, markdown in files:
                write_atomic(book.folder / f"{slug}.md", markdown)
    restore_documents(memory, documents)  # indexed as uploads are, outside the transaction
    if counts["messages"]:
        memory.recover_index()  # the imported turns are indexed by meaning in the background
    return counts


def _import_conversations(
    memory: MemoryCore, conversations: list[dict[str, Any]], counts: dict[str, int], now: float
) -> tuple[dict[Any, int], dict[Any, int]]:
    """Create the document's conversations with their turns; document id -> store id, of both."""
    scope = memory.scope
    present = {(row["interface"], row["started_at"]): row["id"] for row in scope.conversation_rows()}
    ids: dict[Any, int] = {}
    msg_ids: dict[Any, int] = {}
    for conv in conversations:
        key = (conv["interface"], conv["started_at"])
        if key in present:
            ids[conv["id"]] = present[key]
            kept = scope.list_messages(present[key], limit=100_000)
            if len(kept) == len(conv["messages"]):  # the same turns: a memory's source is found again
                msg_ids.update(
                    (t["id"], m.id) for t, m in zip(conv["messages"], kept, strict=True) if _hashable(t["id"])
                )
            continue
        row = scope.start_conversation(conv["interface"], conv["started_at"], is_private=conv["is_private"])
        before: MessageRow | None = None
        summarized = []
        for turn in conv["messages"]:
            draft = MessageRow(
                0, row.id, turn["role"], turn["content"], turn["speaker"], turn["ref"], turn["created_at"]
            )
            before = scope.add_message(
                row.id,
                draft.role,
                draft.content,
                draft.created_at,
                speaker=draft.speaker,
                ref=draft.ref,
                index_text=turn_line(draft.content, draft.speaker, draft.role),
                window_text=window_keyword_text(before, draft),
            )
            if turn["summarized"]:
                summarized.append(before.id)
            if turn["intent"] is not None or turn["memory_created"]:
                scope.note_turn(
                    before.id, intent=turn["intent"], memory_created=turn["memory_created"] or None
                )
            if _hashable(turn["id"]):
                msg_ids[turn["id"]] = before.id
        if summarized:
            scope.mark_summarized(summarized)
        scope.restore_conversation(row.id, conv)
        if conv["working_state"] is not None:
            scope.put_working_state(row.id, json.dumps(conv["working_state"], ensure_ascii=False), now)
        ids[conv["id"]] = row.id
        present[key] = row.id
        counts["conversations"] += 1
        counts["messages"] += len(conv["messages"])
    return ids, msg_ids


def _hashable(value: Any) -> bool:
    """A document id usable as a reference: a whole number or a string."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def _as_superseded(new: NewMemory) -> NewMemory:
    return NewMemory(**{**new.__dict__, "status": "superseded"})


def _updated_at(memories: list[NewMemory], local_ids: list[Any], local_id: Any) -> float:
    stamp = memories[local_ids.index(local_id)].updated_at
    assert stamp is not None
    return stamp


def _clash(scope: UserStore, new: NewMemory) -> MemoryRow | None:
    """The active memory an imported one replaces: a preference by category and key, else by key."""
    if not new.key or new.status != "active":
        return None
    if new.kind == "preference" and new.category:
        return scope.find_preference(new.category, new.key)
    return scope.find_active_by_key(new.kind, new.key)


__all__ = ["MAX_ITEMS", "READS", "import_user"]
