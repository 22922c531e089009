-- Core tables: users, interfaces, conversations, messages, memories, summaries,
-- base memory, audit log. Timestamps are REAL seconds since the epoch (UTC).

CREATE TABLE users (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL DEFAULT '',
    is_admin     INTEGER NOT NULL DEFAULT 0,
    created_at   REAL NOT NULL
);

CREATE TABLE interface_mappings (
    interface  TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at REAL NOT NULL
);

CREATE TABLE conversations (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    interface           TEXT NOT NULL DEFAULT 'api',
    title               TEXT NOT NULL DEFAULT '',
    started_at          REAL NOT NULL,
    last_activity       REAL NOT NULL,
    ended_at            REAL,
    is_private          INTEGER NOT NULL DEFAULT 0,
    consolidation_state TEXT NOT NULL DEFAULT 'open'
        CHECK (consolidation_state IN ('open', 'pending', 'running', 'done', 'failed', 'skipped')),
    attempts            INTEGER NOT NULL DEFAULT 0,
    last_error          TEXT
);
CREATE INDEX idx_conversations_user ON conversations(user_id, last_activity DESC);
CREATE INDEX idx_conversations_state ON conversations(consolidation_state);

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content         TEXT NOT NULL,
    speaker         TEXT,
    ref             TEXT,
    created_at      REAL NOT NULL
);
CREATE INDEX idx_messages_conversation ON messages(conversation_id, id);
CREATE INDEX idx_messages_user ON messages(user_id, created_at);

CREATE TABLE memories (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind                TEXT NOT NULL CHECK (kind IN ('fact', 'preference')),
    type                TEXT NOT NULL DEFAULT 'general',
    key                 TEXT,
    text                TEXT NOT NULL,
    source              TEXT NOT NULL CHECK (source IN ('explicit', 'inferred')),
    confidence          REAL NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
    status              TEXT NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'superseded', 'deleted')),
    superseded_by       INTEGER REFERENCES memories(id) ON DELETE SET NULL,
    created_at          REAL NOT NULL,
    updated_at          REAL NOT NULL,
    last_accessed       REAL,
    access_count        INTEGER NOT NULL DEFAULT 0,
    reinforcement_count INTEGER NOT NULL DEFAULT 1,
    conversation_id     INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
    owner               TEXT GENERATED ALWAYS AS ('u' || user_id) VIRTUAL
);
CREATE INDEX idx_memories_user ON memories(user_id, status, kind, confidence DESC);
CREATE INDEX idx_memories_created ON memories(user_id, created_at);
CREATE UNIQUE INDEX idx_memories_active_key ON memories(user_id, kind, key)
    WHERE status = 'active' AND key IS NOT NULL;

-- The owner column ('u' || user_id) lets a keyword query start from one user's rows.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, key, owner,
    content = 'memories', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, key, owner)
    VALUES (new.id, new.text, new.key, new.owner);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, key, owner)
    VALUES ('delete', old.id, old.text, old.key, old.owner);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF text, key ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, key, owner)
    VALUES ('delete', old.id, old.text, old.key, old.owner);
    INSERT INTO memories_fts(rowid, text, key, owner)
    VALUES (new.id, new.text, new.key, new.owner);
END;

CREATE TABLE summaries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    conversation_id  INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
    text             TEXT NOT NULL,
    topics           TEXT NOT NULL DEFAULT '[]',
    sentiment        TEXT NOT NULL DEFAULT '',
    created_at       REAL NOT NULL,
    message_count    INTEGER NOT NULL DEFAULT 0,
    first_message_id INTEGER,
    last_message_id  INTEGER,
    incorporated     INTEGER NOT NULL DEFAULT 0,
    owner            TEXT GENERATED ALWAYS AS ('u' || user_id) VIRTUAL
);
CREATE INDEX idx_summaries_user ON summaries(user_id, created_at DESC);

CREATE VIRTUAL TABLE summaries_fts USING fts5(
    text, topics, owner,
    content = 'summaries', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
    INSERT INTO summaries_fts(rowid, text, topics, owner)
    VALUES (new.id, new.text, new.topics, new.owner);
END;
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
    INSERT INTO summaries_fts(summaries_fts, rowid, text, topics, owner)
    VALUES ('delete', old.id, old.text, old.topics, old.owner);
END;
CREATE TRIGGER summaries_fts_update AFTER UPDATE OF text, topics ON summaries BEGIN
    INSERT INTO summaries_fts(summaries_fts, rowid, text, topics, owner)
    VALUES ('delete', old.id, old.text, old.topics, old.owner);
    INSERT INTO summaries_fts(rowid, text, topics, owner)
    VALUES (new.id, new.text, new.topics, new.owner);
END;

CREATE TABLE base_memory (
    user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE pending_confirmations (
    user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    action     TEXT NOT NULL,
    expires_at REAL NOT NULL
);

CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER REFERENCES users(id) ON DELETE CASCADE,
    at          REAL NOT NULL,
    action      TEXT NOT NULL,
    target_kind TEXT NOT NULL DEFAULT '',
    target_id   INTEGER,
    reason      TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX idx_audit_user ON audit_log(user_id, at);
