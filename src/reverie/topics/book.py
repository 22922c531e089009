"""A user's topic files kept in step with their memories (the format is told in the package)."""

from __future__ import annotations

import functools
import logging
import math
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from reverie.errors import Conflict, InvalidInput, NotFound, ProviderError, ReverieError
from reverie.extract import prompts
from reverie.extract.conclusions import everyday_word, name_topic, topic_domain
from reverie.llm import ChatMessage, parse_json_reply
from reverie.retrieve.timeutil import humanize_ago
from reverie.store.base import MemoryRow, TopicRow
from reverie.text import keyword_terms, normalize_key
from reverie.topics.clusters import kmeans, silhouette
from reverie.topics.files import (
    MalformedTopic,
    TopicFile,
    TopicLine,
    file_digest,
    folder_lock,
    parse_topic,
    render_topic,
    slugify,
    write_atomic,
)
from reverie.topics.filing import WEIGHTS, rank_topics

if TYPE_CHECKING:
    from reverie.core import MemoryCore

log = logging.getLogger(__name__)
# Filing a conclusion (topics/filing.py): how well it fits a topic is the mean of its best few
# similarities to the topic's title and latest lines (below detect_min_similarity everywhere: it
# fits none); which topic it goes to weighs meaning and shared words against the other topics,
# with a prior for the session's topic and the LLM's suggestion (a session often settles
# something else: a garage door in a talk about cooking).
_TOPIC_SAMPLE = 30


class TopicBook:
    """One user's topic files and their memories."""

    def __init__(self, memory: MemoryCore) -> None:
        if memory.user is None:
            raise Conflict("A guest session has no topics")
        self.memory = memory
        self.conf = memory.settings.memory.topics
        base = Path(self.conf.dir).expanduser() if self.conf.dir else memory.settings.home / "topics"
        name = memory.user.name
        # "." or ".." (names from before they were refused) would be the topics folder or its parent.
        self.folder = base / (name if name.strip(".") else f"user-{memory.user.id}")
        self.lock = folder_lock(self.folder)

    def _path(self, slug: str) -> Path:
        return self.folder / f"{slug}.md"

    def _day(self, ts: float) -> str:
        return datetime.fromtimestamp(ts, self.memory.tz).date().isoformat()

    # keeping files and database in step ----------------------------------------------------
    def sync(self) -> list[TopicRow]:
        """Read files that changed since the last look; return the topics (errors on them)."""
        scope = self.memory.scope
        with self.lock:
            rows = {row.slug: row for row in scope.list_topics()}
            files = sorted(self.folder.glob("*.md")) if self.folder.is_dir() else []
            for path in files:
                slug = path.stem
                try:
                    text = path.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    self._record_error(rows.get(slug), slug, f"cannot read the file: {exc}")
                    continue
                digest = file_digest(text)
                row = rows.get(slug)
                if row is not None and row.file_hash == digest:
                    continue
                try:
                    title, lines = parse_topic(text)
                except MalformedTopic as exc:
                    log.warning("Topic file %s is malformed: %s", path, exc)
                    self._record_error(row, slug, str(exc))
                    continue
                saved = scope.save_topic(
                    slug, title, self.memory.clock(), line_count=len(lines), file_hash=digest
                )
                self._reconcile(saved, lines)
            present = {path.stem for path in files}
            for slug in set(rows) - present:
                scope.delete_topic(slug)
            return scope.list_topics()

    def _record_error(self, row: TopicRow | None, slug: str, error: str) -> None:
        scope = self.memory.scope
        title = row.title if row else slug
        scope.save_topic(
            slug,
            title,
            self.memory.clock(),
            line_count=row.line_count if row else 0,
            file_hash=row.file_hash if row else "",
            error=error,
        )

    def _reconcile(self, topic: TopicRow, lines: Sequence[TopicLine]) -> None:
        """Make the topic's tagged memories exactly its lines (a person's edit wins)."""
        memory, scope = self.memory, self.memory.scope
        tagged = {row.id: row for row in scope.get_memories(scope.topic_memory_ids(topic.id))}
        by_text = {normalize_key(row.text): row for row in tagged.values() if row.status == "active"}
        keep: set[int] = set()
        for line in lines:
            found = by_text.get(normalize_key(line.text))
            if found is None:
                try:
                    found = memory.remember(line.text, type="conclusion").memory
                except ReverieError as exc:  # a line the guardrails refuse stays in the file only
                    log.warning("Topic %s line not remembered: %s", topic.slug, exc)
                    continue
                scope.tag_topic(topic.id, [found.id])
            keep.add(found.id)
        for memory_id, row in tagged.items():
            if memory_id not in keep:
                scope.untag_topic(topic.id, [memory_id])
                if row.status == "active" and row.type == "conclusion":
                    memory.delete(memory_id)

    # reading -----------------------------------------------------------------------------
    def topics(self) -> list[TopicRow]:
        """The user's topics, after picking up any edits."""
        return self.sync() if self.conf.enabled else []

    def read(self, slug: str) -> TopicFile:
        """One topic file, parsed (MalformedTopic if a person broke it; NotFound if absent)."""
        self.sync()
        path = self._path(slugify(slug))
        if not path.is_file():
            raise NotFound(f"No topic {slug!r}; `reverie topics list` shows them")
        title, lines = parse_topic(path.read_text(encoding="utf-8"))
        return TopicFile(path.stem, title, lines)

    def delete_files(self) -> None:
        """Delete the user's topic files and recent-topics index (all forgotten, or the user removed)."""
        with self.lock:
            for path in self.folder.glob("*") if self.folder.is_dir() else []:
                if path.is_file() and (path.suffix == ".md" or path.name == "index.txt"):
                    path.unlink()

    def recent(self, limit: int | None = None) -> list[str]:
        """The recent-topics index as lines with relative times, newest first."""
        now = self.memory.clock()
        rows = self.memory.scope.list_topic_index(limit or self.conf.index_max_entries)
        return [
            f"{humanize_ago(row.at, now)}: {row.topic or '(no topic)'}"
            + (f" — {row.summary}" if row.summary else "")
            for row in rows
        ]

    def write_index_file(self) -> None:
        """Rostro's index.txt beside the topic files (the database is the source of truth)."""
        rows = self.memory.scope.list_topic_index(self.conf.index_max_entries)
        text = "".join(
            f"{datetime.fromtimestamp(r.at, self.memory.tz).isoformat(timespec='seconds')}|{r.topic}|"
            f"{r.summary.replace('|', '/').replace(chr(10), ' ')}\n"
            for r in rows
        )
        write_atomic(self.folder / "index.txt", text)

    # writing -----------------------------------------------------------------------------
    def _append_lines(self, slug: str, title: str, rows: Sequence[MemoryRow]) -> TopicRow:
        """Add memories as lines (skipping ones already there) and tag them; caller holds the lock."""
        scope = self.memory.scope
        path = self._path(slug)
        if path.is_file():
            title, lines = parse_topic(path.read_text(encoding="utf-8"))
        else:
            lines = []
        present = {normalize_key(line.text) for line in lines}
        for row in rows:
            if normalize_key(row.text) not in present:
                lines.append(TopicLine(row.text, self._day(row.created_at)))
                present.add(normalize_key(row.text))
        text = render_topic(title, lines)
        write_atomic(path, text)
        topic = scope.save_topic(
            slug, title, self.memory.clock(), line_count=len(lines), file_hash=file_digest(text)
        )
        scope.tag_topic(topic.id, [row.id for row in rows])
        return topic

    def digest(
        self,
        conversation_id: int,
        conclusions: Sequence[MemoryRow],
        *,
        suggested: str,
        summary: str,
        at: float,
    ) -> str:
        """Digestion (Rostro): add conclusions to the conversation's topic, or open a new topic.

        Returns the topic the session is indexed under ('' when it has none).
        """
        if not self.conf.enabled:
            return ""
        scope = self.memory.scope
        known = self.sync()
        slug = scope.conversation_topic(conversation_id) or ""
        if slug and not self._path(slug).is_file():
            slug = ""
        homes = self._homes(conclusions, known, slug, slugify(suggested) if suggested.strip() else "")
        with self.lock:
            homeless = homes.pop("", [])
            row = None
            for home, rows in homes.items():
                row = self._append_lines(home, "", rows)
                if row.line_count > self.conf.split_threshold_lines:
                    self.memory.background.submit(functools.partial(self._split_quietly, home))
            if homeless and len(homeless) >= self.conf.min_conclusions_for_new_topic:
                name = suggested.strip() or name_topic([c.text for c in homeless])
                new = slugify(name)
                existing = self._path(new).is_file()
                row = self._append_lines(new, name.strip().capitalize() if not existing else "", homeless)
                slug = slug or new
                scope.set_conversation_topic(conversation_id, slug)
            elif homeless and slug:  # too few to open a topic: the session's own topic keeps them
                row = self._append_lines(slug, "", homeless)
            if row is not None and not slug:
                slug = row.slug
        line = (summary.split(". ")[0].strip().rstrip(".") if summary else "")[:160]
        scope.add_topic_index(conversation_id, at, slug, line, keep=self.conf.index_max_entries)
        self.write_index_file()
        if row is not None and row.slug == slug and row.line_count > self.conf.split_threshold_lines:
            self.memory.background.submit(lambda: self._split_quietly(row.slug))
        return slug

    def _homes(
        self, conclusions: Sequence[MemoryRow], known: Sequence[TopicRow], session: str, suggested: str
    ) -> dict[str, list[MemoryRow]]:
        """Each conclusion filed under the existing topic it is about ("" for none that fits).

        A conclusion fits a topic by the mean of its best few similarities to the topic's title
        and lines; it goes to the topic it fits best counting also its similarity to the topic's
        name, measured against how well the other topics' lines fit that topic (a z-score), nudged
        toward the session's topic and the LLM's suggestion. Too few that fit
        nowhere to open a topic of their own go, in a session held under a topic, to the topic
        nearest them all the same (not simply the session's). With no embeddings: by the
        everyday domain its words name, else the session's topic.
        """
        homes: dict[str, list[MemoryRow]] = {}
        topics = {}
        for topic in known:
            if topic.error:
                continue
            try:
                title, lines = parse_topic(self._path(topic.slug).read_text(encoding="utf-8"))
            except (OSError, MalformedTopic):
                continue
            topics[topic.slug] = [title, *(line.text for line in lines[-_TOPIC_SAMPLE:])]
        if not conclusions:
            return homes
        if not topics:
            homes[""] = list(conclusions)
            return homes
        slugs = list(topics)
        prior = np.array(
            [WEIGHTS.session * ((slug == session) + (slug == suggested)) for slug in slugs],
            dtype=np.float32,
        )
        scores = self._affinity([c.text for c in conclusions], topics)
        if scores is None:  # no meaning to go by: the words' domain, else the session's topic
            for conclusion in conclusions:
                domain = topic_domain([conclusion.text])
                named = [
                    slug
                    for slug in slugs
                    if domain is not None and slugify(domain) in (slug, slugify(topics[slug][0]))
                ]
                home = named[0] if named else (session if session in topics else "")
                homes.setdefault(home, []).append(conclusion)
            return homes
        fit, rank = scores
        nearest = [slugs[int(np.argmax(row + prior))] for row in rank]
        fits = fit.max(axis=1) >= self.conf.detect_min_similarity
        few = int((~fits).sum()) < self.conf.min_conclusions_for_new_topic
        for index, conclusion in enumerate(conclusions):
            home = nearest[index] if fits[index] or (few and session in topics) else ""
            homes.setdefault(home, []).append(conclusion)
        return homes

    def _affinity(
        self, texts: Sequence[str], topics: dict[str, list[str]]
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """texts x topics: how well each text fits a topic, and its evidence for it (filing.rank_topics)."""
        service = self.memory.embeddings
        if service is None:
            return None
        try:
            return rank_topics(texts, topics, service.embed, WEIGHTS)
        except ProviderError:
            return None

    def _split_quietly(self, slug: str) -> None:
        try:
            self.split(slug)
        except ReverieError as exc:
            log.warning("Topic %s was not split: %s", slug, exc)

    # detection ---------------------------------------------------------------------------
    def detect(self, message: str) -> str | None:
        """Which existing topic a message is about: the LLM when there is one, else meaning."""
        topics = [row for row in self.topics() if not row.error]
        if not topics or not message.strip():
            return None
        model = self.memory.extraction_model
        if model is not None:
            try:
                reply = model.chat(
                    [
                        ChatMessage("system", prompts.TOPIC_DETECT_PROMPT),
                        ChatMessage(
                            "user", prompts.topic_detect_input(message, [(t.slug, t.title) for t in topics])
                        ),
                    ],
                    temperature=0.0,
                    json_mode=True,
                )
                data = parse_json_reply(reply.content)
                name = data.get("topic") if isinstance(data, dict) else None
                if not name:
                    return None
                wanted = slugify(str(name))
                return next((t.slug for t in topics if t.slug == wanted or slugify(t.title) == wanted), None)
            except ProviderError as exc:
                log.warning("Topic detection by LLM failed, using embeddings: %s", exc)
        return self._detect_by_meaning(message, topics)

    def _detect_by_meaning(self, message: str, topics: Sequence[TopicRow]) -> str | None:
        service = self.memory.embeddings
        if service is None:
            return None
        texts = []
        for topic in topics:
            try:
                title, lines = parse_topic(self._path(topic.slug).read_text(encoding="utf-8"))
            except (OSError, MalformedTopic):
                continue
            texts.append((topic.slug, f"{title}: " + "; ".join(line.text for line in lines[:40])))
        if not texts:
            return None
        try:
            vectors = service.embed([message, *(text for _, text in texts)])
        except ProviderError:
            return None
        scores = vectors[1:] @ vectors[0]
        best = int(np.argmax(scores))
        return texts[best][0] if float(scores[best]) >= self.conf.detect_min_similarity else None

    # splitting ---------------------------------------------------------------------------
    def split(self, slug: str) -> list[str]:
        """Split a topic into subtopics (LLM proposal, else clusters of meaning); every line kept once."""
        scope = self.memory.scope
        with self.lock:
            path = self._path(slugify(slug))
            if not path.is_file():
                raise NotFound(f"No topic {slug!r}")
            title, lines = parse_topic(path.read_text(encoding="utf-8"))
            if len(lines) < 4:
                raise InvalidInput(f"Topic {slug!r} has {len(lines)} lines; too few to split")
            groups = self._propose(title, lines) or self._cluster(lines)
            parent = path.stem
            old = scope.get_topic(parent)
            tagged = {
                normalize_key(row.text): row.id
                for row in scope.get_memories(scope.topic_memory_ids(old.id) if old else [])
            }
            made: list[tuple[str, int]] = []
            used = {p.stem for p in self.folder.glob("*.md")} - {parent}
            for name, members in groups:
                child = slugify(f"{parent}-{name}")
                while child in used:
                    child = f"{child}-2"
                used.add(child)
                child_lines = [lines[i] for i in members]
                text = render_topic(f"{title} — {name}", child_lines)
                write_atomic(self._path(child), text)
                row = scope.save_topic(
                    child,
                    f"{title} — {name}",
                    self.memory.clock(),
                    line_count=len(child_lines),
                    file_hash=file_digest(text),
                )
                ids = [tagged[k] for k in (normalize_key(line.text) for line in child_lines) if k in tagged]
                scope.tag_topic(row.id, ids)
                made.append((child, len(child_lines)))
            path.unlink()
            scope.delete_topic(parent)
            biggest = max(made, key=lambda pair: pair[1])[0]
            scope.rename_topic_in_index(parent, biggest)
        self.write_index_file()
        log.info("Topic %s split into %s", parent, ", ".join(name for name, _ in made))
        return [name for name, _ in made]

    def _propose(self, title: str, lines: Sequence[TopicLine]) -> list[tuple[str, list[int]]] | None:
        """The LLM's grouping, repaired so every line is in exactly one group; None without a usable one."""
        model = self.memory.extraction_model
        if model is None:
            return None
        try:
            reply = model.chat(
                [
                    ChatMessage("system", prompts.TOPIC_SPLIT_PROMPT),
                    ChatMessage("user", prompts.topic_split_input(title, [line.text for line in lines])),
                ],
                temperature=0.0,
                json_mode=True,
            )
            data = parse_json_reply(reply.content)
        except ProviderError as exc:
            log.warning("Topic split by LLM failed, clustering instead: %s", exc)
            return None
        subtopics = data.get("subtopics") if isinstance(data, dict) else None
        if not isinstance(subtopics, list):
            return None
        seen: set[int] = set()
        groups: list[tuple[str, list[int]]] = []
        for item in subtopics:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                continue
            members = []
            for number in item.get("lines") or []:
                index = number - 1 if isinstance(number, int) else -1
                if 0 <= index < len(lines) and index not in seen:
                    seen.add(index)
                    members.append(index)
            if members:
                groups.append((item["name"], members))
        missing = [i for i in range(len(lines)) if i not in seen]
        if missing:
            groups.append(("general", missing))
        return groups if len(groups) >= 2 else None

    def _cluster(self, lines: Sequence[TopicLine]) -> list[tuple[str, list[int]]]:
        """k-means over the lines' embeddings, k (2-5) chosen by silhouette, groups named by keyword.

        Without embeddings the lines are cut into consecutive groups of about half the threshold.
        """
        service = self.memory.embeddings
        if service is None:
            k = max(2, math.ceil(len(lines) / max(2, self.conf.split_threshold_lines // 2)))
            size = math.ceil(len(lines) / k)
            assignment = [i // size for i in range(len(lines))]
        else:
            vectors = service.embed([line.text for line in lines])
            options = [kmeans(vectors, k) for k in range(2, min(5, len(lines) // 2) + 1)]
            assignment = max(options, key=lambda labels: silhouette(vectors, labels))
        groups: dict[int, list[int]] = {}
        for index, label in enumerate(assignment):
            groups.setdefault(label, []).append(index)
        named: list[tuple[str, list[int]]] = []
        taken: set[str] = set()
        for members in groups.values():
            words: Counter[str] = Counter()
            for i in members:
                words.update(t for t in keyword_terms(lines[i].text) if t not in ("user", "concluded"))
            ranked = sorted(words, key=lambda w: (-words[w], not everyday_word(w), len(w), w))
            name = next((w for w in ranked if w not in taken and not w.isdigit()), f"part-{len(named) + 1}")
            taken.add(name)
            named.append((name, members))
        return named


__all__ = ["TopicBook"]
