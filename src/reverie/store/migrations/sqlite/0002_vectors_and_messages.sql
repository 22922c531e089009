-- Semantic memory: vectors for memories, summaries and messages (one model identity each),
-- the embedding cache, keyword search over messages, and per-conversation relevant memories.

CREATE TABLE vectors (
    item_kind  TEXT NOT NULL CHECK (item_kind IN ('memory', 'summary', 'message', 'message_window')),
    item_id    INTEGER NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    model_id   TEXT NOT NULL,
    dimensions INTEGER NOT NULL,
    vector     BLOB NOT NULL,
    PRIMARY KEY (item_kind, item_id)
);
CREATE INDEX idx_vectors_user ON vectors(user_id, item_kind, model_id);

-- Bumped whenever a user's vectors or the status of a vectorised memory change, so that
-- in-process vector matrices know when to reload.
CREATE TABLE vector_versions (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    version INTEGER NOT NULL DEFAULT 0
);

CREATE TRIGGER vectors_bump_insert AFTER INSERT ON vectors BEGIN
    INSERT INTO vector_versions (user_id, version) VALUES (new.user_id, 1)
    ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER vectors_bump_delete AFTER DELETE ON vectors BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
END;

-- A vector always describes the current text: rows that change text or go away take theirs along.
CREATE TRIGGER memories_vector_delete AFTER DELETE ON memories BEGIN
    DELETE FROM vectors WHERE item_kind = 'memory' AND item_id = old.id;
END;
CREATE TRIGGER memories_vector_text AFTER UPDATE OF text ON memories
WHEN old.text IS NOT new.text BEGIN
    DELETE FROM vectors WHERE item_kind = 'memory' AND item_id = old.id;
END;
CREATE TRIGGER memories_vector_status AFTER UPDATE OF status ON memories
WHEN old.status IS NOT new.status BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
END;
CREATE TRIGGER summaries_vector_delete AFTER DELETE ON summaries BEGIN
    DELETE FROM vectors WHERE item_kind = 'summary' AND item_id = old.id;
END;
CREATE TRIGGER summaries_vector_text AFTER UPDATE OF text ON summaries
WHEN old.text IS NOT new.text BEGIN
    DELETE FROM vectors WHERE item_kind = 'summary' AND item_id = old.id;
END;
CREATE TRIGGER messages_vector_delete AFTER DELETE ON messages BEGIN
    DELETE FROM vectors WHERE item_kind IN ('message', 'message_window') AND item_id = old.id;
END;

CREATE TABLE embedding_cache (
    content_hash TEXT NOT NULL,
    model_id     TEXT NOT NULL,
    dimensions   INTEGER NOT NULL,
    vector       BLOB NOT NULL,
    created_at   REAL NOT NULL,
    PRIMARY KEY (content_hash, model_id)
);
CREATE INDEX idx_embedding_cache_age ON embedding_cache(created_at);

CREATE TABLE embedding_cache_stats (
    model_id TEXT PRIMARY KEY,
    hits     INTEGER NOT NULL DEFAULT 0,
    misses   INTEGER NOT NULL DEFAULT 0
);

-- Messages get keyword search like memories, twice: the turn itself ("speaker: text") and
-- its window (the previous turn of the same conversation and this one), because an answer is
-- often about the question just before it. The indexed texts are not the raw content, so
-- these indexes keep their own copies; rowid = messages.id.
CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, owner,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE message_windows_fts USING fts5(
    text, owner,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    DELETE FROM message_windows_fts WHERE rowid = old.id;
END;

-- Memories found relevant during one conversation stay in its context (Rostro).
CREATE TABLE conversation_relevant (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    memory_id       INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    added_at        REAL NOT NULL,
    PRIMARY KEY (conversation_id, memory_id)
);
