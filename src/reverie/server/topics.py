"""Topics over HTTP: the user's topic files, one topic, a split, and the recent-topics index."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from reverie.server.deps import MemoryDep
from reverie.server.schemas import ErrorOut

topics_router = APIRouter(
    prefix="/api/v1",
    tags=["topics"],
    responses={
        400: {"model": ErrorOut, "description": "Invalid input, or a malformed topic file"},
        404: {"model": ErrorOut, "description": "No such topic"},
        409: {"model": ErrorOut, "description": "A guest session has no topics"},
    },
)


class TopicOut(BaseModel):
    """A topic: its file's slug, title, line count, and a problem reading it ('' if none)."""

    slug: str
    title: str
    lines: int
    error: str


class TopicListOut(BaseModel):
    """The user's topics and the recent-topics index (relative times, newest first)."""

    topics: list[TopicOut]
    recent: list[str]
    folder: str = Field(description="where this user's topic files are (edit them there)")


class TopicLineOut(BaseModel):
    """One conclusion of a topic."""

    text: str
    date: str


class TopicDetailOut(BaseModel):
    """A topic file, parsed, and its text."""

    slug: str
    title: str
    lines: list[TopicLineOut]
    markdown: str


class SplitOut(BaseModel):
    """The subtopics a topic was split into."""

    topic: str
    subtopics: list[str] = Field(description="slugs of the new topic files")


@topics_router.get("/topics", response_model=TopicListOut)
def list_topics(memory: MemoryDep) -> TopicListOut:
    """The user's topics (edits to the files are picked up first) and the recent-topics index."""
    book = memory.topics
    rows = book.topics()
    return TopicListOut(
        topics=[TopicOut(slug=r.slug, title=r.title, lines=r.line_count, error=r.error) for r in rows],
        recent=book.recent(),
        folder=str(book.folder),
    )


@topics_router.get("/topics/{slug}", response_model=TopicDetailOut)
def get_topic(memory: MemoryDep, slug: str) -> TopicDetailOut:
    """One topic file: title, dated lines and the Markdown text."""
    found = memory.topics.read(slug)
    return TopicDetailOut(
        slug=found.slug,
        title=found.title,
        lines=[TopicLineOut(text=line.text, date=line.date) for line in found.lines],
        markdown=found.render(),
    )


@topics_router.post("/topics/{slug}/split", response_model=SplitOut)
def split_topic(memory: MemoryDep, slug: str) -> SplitOut:
    """Split a topic into subtopics now (LLM proposal, else clusters of meaning)."""
    return SplitOut(topic=slug, subtopics=memory.topics.split(slug))


__all__ = ["topics_router"]
