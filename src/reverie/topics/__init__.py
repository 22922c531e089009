"""Topics (Rostro): one Markdown file per topic of conclusions, kept in step with the database.

A topic file lives at ``<topics dir>/<user>/<slug>.md`` and reads::

    # Cooking

    - User prefers bomba rice for paella (2026-02-12)
    - User uses homemade chicken broth, never stock cubes (2026-02-12)

Each line is also a memory (with its embedding) tagged with the topic, so search finds it.
A person may edit the file: the next read notices the new hash and brings the memories in
line (new lines remembered, removed lines deleted, with audit). A file that no longer parses
is reported on the topic and left exactly as it is; its memories stay until it is fixed.
Files are written atomically (a temporary file, then a rename), under a per-folder lock.
"""

from reverie.topics.book import TopicBook
from reverie.topics.files import (
    MalformedTopic,
    TopicFile,
    TopicLine,
    parse_topic,
    render_topic,
    slugify,
    write_atomic,
)

__all__ = [
    "MalformedTopic",
    "TopicBook",
    "TopicFile",
    "TopicLine",
    "parse_topic",
    "render_topic",
    "slugify",
    "write_atomic",
]
