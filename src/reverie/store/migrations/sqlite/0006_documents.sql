-- The document knowledge base (DAWN §6.4-§6.5). Documents are household-wide in v1: owner_id
-- is NULL for them; a user id there will mean a per-user document later (DAWN phase 13).
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    file_hash TEXT NOT NULL DEFAULT '',
    size_bytes INTEGER NOT NULL DEFAULT 0,
    pages INTEGER,
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'indexed', 'skipped', 'excluded')),
    reason TEXT NOT NULL DEFAULT '',
    chunk_count INTEGER NOT NULL DEFAULT 0,
    token_count INTEGER NOT NULL DEFAULT 0,
    model_id TEXT NOT NULL DEFAULT '',
    indexed_at REAL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX idx_documents_path ON documents(COALESCE(owner_id, 0), path);
CREATE INDEX idx_documents_owner ON documents(owner_id);

CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    text TEXT NOT NULL,
    heading TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    page INTEGER,
    token_count INTEGER NOT NULL DEFAULT 0,
    embedding BLOB,
    model_id TEXT
);
CREATE INDEX idx_chunks_document ON chunks(document_id, chunk_index);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
    text, heading, title,
    content = 'chunks', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text, heading, title) VALUES (new.id, new.text, new.heading, new.title);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text, heading, title)
    VALUES ('delete', old.id, old.text, old.heading, old.title);
END;

-- Bumped in the transaction of every change to chunks, so cached vector matrices reload.
CREATE TABLE documents_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO documents_version VALUES (1, 0);
