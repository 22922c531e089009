-- Topics (Rostro): the text lives in Markdown files; the database keeps which topics a user
-- has, the file's hash (to notice a person's edits), the memories each topic's lines are, the
-- topic a conversation was detected to be about, and the recent-topics index.
CREATE TABLE topics (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    slug TEXT NOT NULL,
    title TEXT NOT NULL,
    line_count INTEGER NOT NULL DEFAULT 0,
    file_hash TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    UNIQUE (user_id, slug)
);

CREATE TABLE topic_memories (
    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
    memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    PRIMARY KEY (topic_id, memory_id)
);
CREATE INDEX idx_topic_memories_memory ON topic_memories(memory_id);

ALTER TABLE conversations ADD COLUMN topic TEXT;

CREATE TABLE topic_index (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
    at REAL NOT NULL,
    topic TEXT NOT NULL DEFAULT '',
    summary TEXT NOT NULL DEFAULT ''
);
CREATE INDEX idx_topic_index_user ON topic_index(user_id, at);
