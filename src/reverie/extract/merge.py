"""Merging a new fact or preference into what is already kept: the merge policy.

What the user said is what is kept, in the memory's voice: a fact the user says of themself in
the first person ("I moved to Lisbon", "Lately my favourite cuisine is ...") is kept in the third
person ("User moved to Lisbon"), as extraction and the power phrases keep it (``Memory.remember``,
``reverie.extract.third_person.said_by_user``); the words are the user's, only the pronouns change.
The reader reads "I / me / my" as the user in any text, and "we / our" as the user's too (the
user with others: "We moved to Rotterdam" moves the user, "Our cat Mochi" is the user's cat);
"we" is kept as said, and it names nobody else, so "User's partner Jonas works at Philips" /
"We both work at Philips" stay two facts. A new fact is compared with the active facts it could be
about: the one holding its key (the claim's key, the same for every wording of an attribute:
"lives in", "moved to", "User's home is"; and the older inferred key), those sharing nearly all
its content words, and its nearest neighbours by meaning. Each comparison reads both facts into
subject, predicate, value, time and polarity (``reverie.extract.claims``) and gives one verdict:

- **same** (a paraphrase, or the new fact says less; another verb or voice for the same thing:
  "drives a Volvo" / "car is a Volvo", "Siemens employs User" / "is employed by Siemens", "a
  keen gardener" / "enjoys gardening", "favourite X is V" / "likes V best"; an inverted or
  provider shape, "Dr. Haddad is User's GP" / "User's family doctor is Dr. Haddad", "Bruno is
  the name of User's dog", "Rabobank holds User's mortgage" / "mortgage is with Rabobank" /
  "banks with"; an apposition or relative clause, "Mei, who is married to User, ..."; the
  first person, "I'm teetotal" = "User does not drink alcohol"; one unit, "1.82 m" = "182 cm",
  "three quarters of an hour" = "45 minutes"; a diet said by what it leaves out, "vegan" =
  "does not eat animal products"; "won't eat X" = "avoids X"): the old fact is reinforced;
- **refines** (the same fact with more detail, "has a cat" -> "has a cat named Tofu"),
  **update** (a new value of a single-valued attribute of the same subject: home, job, age,
  employer, a favourite, a named person's attribute; a new quantity of the same thing; a change
  announced by "now", "these days", "lately", "switched to", "moved to", "a new ...", "sold X and now ...";
  what was given up named, "cancelled NordVPN and uses Mullvad now", "migrated from Jira to
  Linear", "... instead of falafel", "broke up with Marco"; a time moved, "moved tennis to
  Fridays", "rescheduled to 16 May"; a quantity, "is down to 76 kg", "X raised the dose to 100
  mg"; a correction, "Sven isn't Norwegian, he's Danish"; a person named by name alone, "Kofi
  turned 3" after "User's youngest, Kofi, is 2"; the old sentence with its name or number
  replaced after a change word, "... is now a 2022 Tesla") and **contradiction** (a negation flip, "no
  longer / stopped / quit / not anymore / used to / has never", an opposite verb or trait:
  "likes" / "avoids" / "is terrified of", "shy" / "outgoing", "alive" / "deceased", "smoker" /
  "has never smoked", "User's son is named Tomas" / "User doesn't have a son", an ending,
  "deleted their account", "left the union", "dropped out of"; a state said to be over in
  other words, "gave the chickens away", at a cosine of at least ``ended_similarity``): the new
  fact is stored and
  supersedes the old one, which is kept with its history and an audit entry. A contradiction
  is never answered ``reinforced``;
- **distinct** (another person, pet, place, object or date; an old and a new thing, "User's old
  laptop" / "User's new laptop"; another time of the week or day, "on weekdays" / "at weekends";
  two past episodes, "studied history at Durham" / "studied law at Leeds"; another attribute; a
  second value of a many-valued one: languages, instruments, pets, likings; something given up
  that the old fact does not say the subject has, "User's sister lives with Rafa" / "User broke
  up with Rafa"; a name alone that the old fact does not name): both are kept.

A fact the rules cannot read is merged only on strong evidence: nearly the same content words
with the same names and numbers (``duplicate_similarity``), a bare negation flip, or a cosine
of at least ``paraphrase_similarity`` with the same names and numbers; two facts read about one
subject with other words for the predicate ("is afraid of flying" / "gets anxious on planes"), with
the same names and numbers, at a cosine of at least ``same_subject_similarity`` unless the new one
says it is a second value ("also", "as well", "another", "too"); one said of a thing of its
owner and the other of the owner ("User's hobby is pottery" / "User makes pottery"), at a cosine
of at least ``moved_thing_similarity``; one said again in other words, read or not ("User's
daughter Zoe is shy" / "Zoe, User's daughter, is very timid around strangers"), at a cosine of at
least ``reworded_similarity``, sharing at most ``reworded_overlap`` of the content words, with the
same persons and polarity, every name, number and date of the old fact in the new one (a name
opening a sentence counts as a word; the new one may add some only at ``paraphrase_similarity``),
and in another frame of words: two facts in one frame
with a slot filled otherwise ("User's savings account is with Monzo" / "User's mortgage is with
Monzo") are two facts, however close their vectors, unless every run filled otherwise is a
phrase (two words or more on both sides: "software engineer" / "computer programmer") at
``paraphrase_similarity``; a
change announced ("now", "new", "changed
to") of the thing a fact is about, said of that thing or of a thing of it ("User's laptop runs
Windows" -> "User's laptop operating system is now Linux"), no person, pet or name added, at a
cosine of at least ``changed_thing_similarity``, is an update. A fact about a thing of what the
other is about ("User's car" / "User's car insurance is now with Admiral") is not a value replaced
after a change word, and a fact that says it is one more ("also", "too", "another") updates
nothing. The verdict is given in
``reverie.extract.merge_verdict``. "Switched to X", which
does not name what it replaces, supersedes a fact of the same subject only at a cosine of at
least 0.5, and so does "prefers X now" after "favourite <kind> is Y". Candidates are also
found by the words of the new fact in the one wording the reader compares ("I'm teetotal" finds
"I never drink alcohol"). In other words than the reader's (``reverie.extract.claims_over``):
a state said to be over ("User is a heavy gamer" -> "User doesn't play video games anymore", "...
has been sober for six months", "User's driving licence was revoked") is a contradiction when the
two facts have one owner and share a topic by stem, nobody else is named, no other doing, kind or
thing is denied ("User speaks French" / "User doesn't speak German" stay two), at a cosine of at
least 0.45; the thing a fact is said of, named again with a change and a name, number or date
replaced ("User's thesis deadline is 30 April" -> "... was extended to 31 May", "Wingspan has become
User's favourite board game"), is an update at the same cosine, unless the thing only says which
other thing ("car insurance"). Updates read on a change word alone are held back: a new object of a
verb one may have many of ("User rents a flat" / "User now rents a garage for the car") only at a
cosine of at least 0.6, a value for some times only ("User studies law" / "User now studies Spanish
in the evenings") never; a doing named by the subject is another doing ("User runs 5 km every day" /
"User's daily walk is 5 km"). Otherwise both are kept (**unsure**): losing a fact is worse than a
duplicate. A close undecided pair is noted in the audit trail, and consolidation with an LLM settles
it later (``reverie.extract.llm_merge``). A key given by the caller is the caller's decision: the
same key with other words supersedes. The vector of a new or changed text is written in the same
transaction as the row.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from reverie.embed.index import VectorIndex
from reverie.embed.service import EmbeddingService, PendingVectors
from reverie.errors import GuardRejected
from reverie.extract.claims import Verdict, normal_wording, parse_claim
from reverie.extract.fact_vectors import (
    embed_ahead,
    embed_or_none,
    store_vector,
    vector_of,
)
from reverie.extract.guard import ensure_memory_text, find_personal_sensitive
from reverie.extract.keys import infer_key
from reverie.extract.llm_merge import note_unsure
from reverie.extract.merge_verdict import MergePolicy, judge, read_claim
from reverie.store.base import MemoryFilter, MemoryRow, NewMemory, Source, UserStore
from reverie.text import keyword_terms, token_similarity

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RememberResult:
    """What ``remember`` or ``prefer`` did: stored anew, reinforced, or replaced older rows."""

    status: Literal["stored", "reinforced", "updated", "superseded"]
    memory: MemoryRow
    replaced: list[MemoryRow] = field(default_factory=list)


_NEGATION_TERMS = frozenset({"not", "never", "longer", "anymore", "stopped", "quit", "no"})


def _candidates(
    scope: UserStore,
    text: str,
    key: str | None,
    policy: MergePolicy,
    service: EmbeddingService | None,
    index: VectorIndex | None,
    vector: npt.NDArray[np.float32] | None,
) -> list[tuple[MemoryRow, float | None]]:
    """Active facts the new one could be about: by key, by shared words, by meaning (cosine)."""
    return _near(scope, _by_words(scope, text, key), policy, service, index, vector)


def _by_words(
    scope: UserStore, text: str, key: str | None, also: str | None = None
) -> dict[int, tuple[MemoryRow, float | None]]:
    """The candidates holding the key (or ``also``, a key the same fact had in older wordings) or
    sharing nearly all content words, in that order."""
    found: dict[int, tuple[MemoryRow, float | None]] = {}
    for each in dict.fromkeys(k for k in (key, also) if k):
        row = scope.find_active_by_key("fact", each)
        if row is not None:
            found.setdefault(row.id, (row, None))
    terms = [t for t in keyword_terms(text) if t not in _NEGATION_TERMS]
    if terms:
        needed = len(terms) - 1 if len(terms) > 2 else None
        for row, _ in scope.search_memories(terms, kinds=("fact",), limit=8, min_match=needed):
            found.setdefault(row.id, (row, None))
    # The fact in one wording ("I'm teetotal" reads "user does not drink alcohol"): its words find
    # the old fact said in those words, which neither the new words nor meaning may reach.
    worded = [t for t in keyword_terms(normal_wording(text)) if t not in _NEGATION_TERMS and t != "user"]
    if worded and set(worded) != set(terms):
        needed = len(worded) - 1 if len(worded) > 2 else len(worded)
        for row, _ in scope.search_memories(worded, kinds=("fact",), limit=8, min_match=needed):
            found.setdefault(row.id, (row, None))
    return found


def _near(
    scope: UserStore,
    found: dict[int, tuple[MemoryRow, float | None]],
    policy: MergePolicy,
    service: EmbeddingService | None,
    index: VectorIndex | None,
    vector: npt.NDArray[np.float32] | None,
) -> list[tuple[MemoryRow, float | None]]:
    """``found`` plus the nearest neighbours by meaning, active facts only."""
    if service is not None and index is not None and vector is not None:
        floor = policy.neighbour_similarity
        near = dict(index.search(scope, "memory", service.model_id, vector, k=8, min_similarity=floor))
        for row in scope.get_memories(list(near)):
            found[row.id] = (row, near[row.id])
    return [(row, sim) for row, sim in found.values() if row.kind == "fact" and row.status == "active"]


_NOTE_SIMILARITY = 0.6  # an undecided pair this close is noted for the LLM to settle
_REASONS = {
    "refines": "a more detailed version of the same fact",
    "update": "a newer value of the same attribute",
    "contradiction": "contradicted by a newer fact",
}


def remember_fact(
    scope: UserStore,
    text: str,
    now: float,
    *,
    key: str | None,
    type_: str,
    source: Source,
    confidence: float,
    conversation_id: int | None,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
    pending: PendingVectors | None = None,
    source_message_id: int | None = None,
) -> RememberResult:
    """Merge one (already guarded) fact into the user's memory; see the module docstring.

    ``source_message_id``: the user turn the fact was learnt from, kept on a new row (mem.db).

    ``pending`` is the text's vector already on its way (:func:`embed_ahead`); otherwise it is
    started here, and computed while the fact is read and searched by keywords.
    """
    if pending is None:
        pending = embed_ahead(service, text)
    claim = read_claim(text)
    given = key
    # The claim's key first: it is the same for every wording of the attribute ("works at",
    # "works for", "is employed by", "User's employer is", "These days User works at").
    key = key or claim.key or infer_key(text)
    sensitive = find_personal_sensitive(text) is not None  # read while the vector is on its way
    with scope.transaction():
        by_words = _by_words(scope, text, key, None if given else infer_key(text))
        if index is not None and service is not None:
            index.prepare(scope, "memory", service.model_id)  # while the vector is on its way
        vector = vector_of(pending)
        verdicts: list[tuple[MemoryRow, Verdict, float | None]] = []
        for row, similarity in _near(scope, by_words, policy, service, index, vector):
            verdict = judge(row.text, claim, policy, similarity)
            if given and row.key == given and verdict not in ("same", "contradiction"):
                verdict = "update"  # the caller's key says: one value
            verdicts.append((row, verdict, similarity))
        if pending is not None and vector is not None:
            pending.result()  # into the embedding cache, now that the vector search is over
        same = [(row, sim) for row, verdict, sim in verdicts if verdict == "same"]
        replace = [(row, verdict) for row, verdict, _ in verdicts if verdict in _REASONS]
        if same:
            best = max(same, key=lambda pair: (pair[0].key == key and key is not None, pair[1] or 0.0))[0]
            result = _reinforce(scope, best, now, confidence)
            for row, verdict in replace:
                supersede_fact(scope, row, result.memory, now, _REASONS[verdict])
            return RememberResult(result.status, result.memory, [row for row, _ in replace])
        key_taken = key is not None and any(
            row.key == key for row, verdict, _ in verdicts if verdict not in _REASONS
        )
        new = scope.insert_memory(
            NewMemory(
                kind="fact",
                text=text,
                source=source,
                confidence=confidence,
                type=type_,
                key=None if key_taken or any(row.key == key for row, _ in replace) else key,
                conversation_id=conversation_id,
                sensitive=sensitive,
                source_message_id=source_message_id,
            ),
            now,
        )
        store_vector(scope, service, "memory", new.id, vector)
        unsure = [
            row
            for row, verdict, similarity in verdicts
            if verdict == "unsure"
            and ((similarity or 0.0) >= _NOTE_SIMILARITY or token_similarity(row.text, text) >= 0.5)
        ]
        for row in unsure[:3]:
            note_unsure(scope, new, row, now)
        if not replace:
            return RememberResult("stored", new)
        for row, verdict in replace:
            reason = f"key '{key}' set again" if given and row.key == given else _REASONS[verdict]
            supersede_fact(scope, row, new, now, reason)
        if key and not key_taken and new.key != key:
            new = scope.update_memory(new.id, now, key=key) or new
        reworded = [row for row, verdict in replace if verdict == "refines"]
        if reworded:  # the same fact in newer words: it carries the old one's reinforcement on
            new = (
                scope.update_memory(
                    new.id,
                    now,
                    reinforcement_count=max(row.reinforcement_count for row in reworded) + 1,
                    confidence=max(confidence, *(row.confidence for row in reworded)),
                )
                or new
            )
        return RememberResult("superseded", new, [row for row, _ in replace])


def supersede_fact(scope: UserStore, old: MemoryRow, new: MemoryRow, now: float, reason: str) -> None:
    """``new`` replaces ``old``, which is kept with a link to it and an audit entry saying why."""
    scope.supersede(old.id, new.id, now)
    scope.audit(
        "supersede",
        now,
        target_kind="fact",
        target_id=old.id,
        reason=reason,
        detail={"superseded_by": new.id, "text": old.text, "by": new.text},
    )


def correct_fact(
    scope: UserStore,
    old_text: str,
    new_text: str,
    now: float,
    *,
    conversation_id: int | None,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
    reason: str = "",
) -> RememberResult:
    """The user corrected ``old_text``: the closest active fact is superseded by ``new_text``."""
    new_text = ensure_memory_text(new_text, max_bytes=4096)  # a correction is a way in like any other
    terms = keyword_terms(old_text)
    candidates = [row for row, _ in scope.search_memories(terms, kinds=("fact",), limit=10)]
    old = max(candidates, key=lambda row: token_similarity(row.text, old_text), default=None)
    if old is not None and token_similarity(old.text, old_text) < 0.5:
        old = None
    if old is None and service is not None and index is not None:
        vector = embed_or_none(service, old_text)
        if vector is not None:
            near = index.search(scope, "memory", service.model_id, vector, k=1, min_similarity=0.75)
            rows = scope.get_memories([item_id for item_id, _ in near])
            old = next((row for row in rows if row.kind == "fact" and row.status == "active"), None)
    with scope.transaction():
        result = remember_fact(
            scope,
            new_text,
            now,
            key=old.key if old else None,
            type_=old.type if old else "general",
            source="explicit",
            confidence=1.0,
            conversation_id=conversation_id,
            policy=policy,
            service=service,
            index=index,
        )
        if old is None or old.id == result.memory.id or any(r.id == old.id for r in result.replaced):
            return result
        current = scope.get_memory(old.id)
        if current is None or current.status != "active":
            return result
        scope.supersede(old.id, result.memory.id, now)
        scope.audit(
            "supersede",
            now,
            target_kind="fact",
            target_id=old.id,
            reason=f"corrected by the user{': ' + reason if reason else ''}",
            detail={"superseded_by": result.memory.id},
        )
        return RememberResult("superseded", result.memory, [*result.replaced, old])


def _reinforce(scope: UserStore, row: MemoryRow, now: float, confidence: float) -> RememberResult:
    updated = scope.reinforce(row.id, now, confidence)
    assert updated is not None
    return RememberResult("reinforced", updated)


def set_preference(
    scope: UserStore,
    category: str,
    key: str,
    value: str,
    now: float,
    *,
    source: Source,
    confidence: float,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    pref_scope: str = "default",
) -> RememberResult:
    """One active preference per (category, key): stored, reinforced when said again, or replaced.

    A replaced value stays, superseded by the new one: the preference's history.
    """
    vector = embed_or_none(service, value)
    with scope.transaction():
        current = scope.find_preference(category, key)
        if current is not None and token_similarity(current.text, value) >= policy.duplicate_similarity:
            changed = scope.update_memory(
                current.id,
                now,
                source="explicit" if "explicit" in (source, current.source) else "inferred",
                confidence=max(confidence, current.confidence),
                reinforcement_count=current.reinforcement_count + 1,
            )
            assert changed is not None
            return RememberResult("reinforced", changed)
        if current is not None:  # the key moves to the new value once the old one is superseded
            scope.update_memory(current.id, now, status="superseded")
        row = scope.insert_memory(
            NewMemory(
                kind="preference",
                text=value,
                source=source,
                confidence=confidence,
                key=key,
                category=category,
                scope=pref_scope,
            ),
            now,
        )
        store_vector(scope, service, "memory", row.id, vector)
        if current is None:
            return RememberResult("stored", row)
        scope.supersede(current.id, row.id, now)
        scope.audit(
            "supersede",
            now,
            target_kind="preference",
            target_id=current.id,
            reason=f"preference {category}: {key} set again",
            detail={"superseded_by": row.id, "text": current.text, "kept": value},
        )
        return RememberResult("updated", row, [current])


def _twin(
    target: UserStore,
    row: MemoryRow,
    policy: MergePolicy,
    service: EmbeddingService | None,
    index: VectorIndex | None,
    vector: npt.NDArray[np.float32] | None,
) -> MemoryRow | None:
    """The target's active fact that ``row`` repeats, updates or contradicts (the merge policy)."""
    found = find_twin(target, row.text, policy, service, index, vector)
    return found[0] if found is not None else None


def find_twin(
    target: UserStore,
    text: str,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
    vector: npt.NDArray[np.float32] | None = None,
    *,
    key: str | None = None,
) -> tuple[MemoryRow, Verdict] | None:
    """The active fact that ``text`` repeats, updates or contradicts, with the verdict; None if none."""
    claim = parse_claim(text)
    for other, similarity in _candidates(target, text, key, policy, service, index, vector):
        verdict = judge(other.text, claim, policy, similarity)
        if verdict in ("same", *_REASONS):
            return other, verdict
    return None


@dataclass(frozen=True)
class ScopeMerge:
    """What merging one owner's memories into another's did."""

    moved: int = 0
    superseded: int = 0
    ids: tuple[int, ...] = ()  # the new ids of the moved memories, in order


def merge_memories(
    source: UserStore,
    target: UserStore,
    now: float,
    *,
    reason: str,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
) -> ScopeMerge:
    """Move every active memory of ``source`` to ``target`` (mem.db §7), in the caller's transaction.

    A memory with the same key, or a near-duplicate (content words, or meaning), of one the
    target has is a duplicate: the newer of the two (by last update) stays active and the other
    is kept as superseded by it, with an audit entry. The source's copies are deleted.
    """
    rows = source.list_memories(MemoryFilter(statuses=("active",), limit=1_000_000, order="id"))
    moved = superseded = 0
    ids: list[int] = []
    for row in rows:
        try:  # the thread's memories become the person's: the guard checks them on the way
            ensure_memory_text(row.text, allow_sensitive=row.sensitive, max_bytes=4096)
        except GuardRejected as exc:
            why = f"Thread memory #{row.id}: {exc}; edit or delete it first"
            raise GuardRejected(why, exc.reason) from exc
        vector = embed_or_none(service, row.text)
        if row.kind == "preference":
            twin = target.find_preference(row.category or "general", row.key) if row.key else None
        else:
            twin = target.find_active_by_key(row.kind, row.key) if row.key else None
        if twin is None and row.kind == "fact":
            twin = _twin(target, row, policy, service, index, vector)
        newer = twin is None or row.updated_at > twin.updated_at
        copy = target.insert_memory(
            NewMemory(
                kind=row.kind,
                text=row.text,
                source=row.source,
                confidence=row.confidence,
                type=row.type,
                key=row.key if twin is None else None,  # the key moves once the twin is superseded
                created_at=row.created_at,
                updated_at=row.updated_at,
                last_accessed=row.last_accessed,
                access_count=row.access_count,
                reinforcement_count=row.reinforcement_count,
                status="active" if newer else "superseded",
                sensitive=row.sensitive,
                category=row.category,
                scope=row.scope,
            ),
            now,
        )
        if newer:
            store_vector(target, service, "memory", copy.id, vector)
        ids.append(copy.id)
        if twin is not None:
            old, new = (twin, copy) if newer else (copy, twin)
            if newer:
                target.supersede(twin.id, copy.id, now)
                if row.key:
                    target.update_memory(copy.id, now, key=row.key)
            else:
                target.update_memory(copy.id, now, superseded_by=twin.id)
            target.audit(
                "supersede",
                now,
                target_kind=old.kind,
                target_id=old.id,
                reason=f"{reason}: a newer duplicate (#{new.id}) wins",
                detail={"text": old.text, "kept": new.text},
            )
            superseded += 1
        moved += 1
    source.delete_memories([row.id for row in rows])
    return ScopeMerge(moved, superseded, tuple(ids))


__all__ = [
    "MergePolicy",
    "correct_fact",
    "RememberResult",
    "ScopeMerge",
    "merge_memories",
    "find_twin",
    "judge",
    "remember_fact",
    "set_preference",
    "supersede_fact",
]
