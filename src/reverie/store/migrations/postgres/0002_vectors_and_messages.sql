-- Semantic memory: pgvector vectors for memories, summaries and messages (one model identity
-- each), the embedding cache, keyword search over messages, per-conversation relevant memories.

CREATE EXTENSION IF NOT EXISTS vector;

-- xid is the writing transaction's id: load_vectors hands out the oldest transaction still
-- running as its mark, so a reader never skips a row that was committed late.
CREATE TABLE vectors (
    item_kind  text NOT NULL CHECK (item_kind IN ('memory', 'summary', 'message', 'message_window')),
    item_id    bigint NOT NULL,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    model_id   text NOT NULL,
    dimensions integer NOT NULL,
    embedding  vector NOT NULL,
    xid        bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
    PRIMARY KEY (item_kind, item_id)
);
CREATE INDEX idx_vectors_user ON vectors(user_id, item_kind, model_id);
-- Nearest-neighbour index for the default model's 384 dimensions (cosine distance).
CREATE INDEX idx_vectors_hnsw_384 ON vectors
    USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE dimensions = 384;

-- Bumped whenever a user's vectors or the status of a vectorised item change, so in-process
-- vector matrices know when to reload. The bump runs at commit (deferred), once per user and
-- transaction, so it is the last lock a transaction takes and writers never deadlock on it.
CREATE TABLE vector_versions (
    user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    version bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION reverie_bump_vectors(uid bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    flag text := 'reverie.vv' || uid;
BEGIN
    IF COALESCE(current_setting(flag, true), '') = '' THEN
        INSERT INTO vector_versions AS v (user_id, version)
            SELECT uid, 1 WHERE EXISTS (SELECT 1 FROM users WHERE id = uid)
            ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
        PERFORM set_config(flag, '1', true);
    END IF;
END $$;

CREATE FUNCTION reverie_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM reverie_bump_vectors(OLD.user_id);
    ELSE
        PERFORM reverie_bump_vectors(NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER vectors_bump AFTER INSERT OR UPDATE OR DELETE ON vectors
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION reverie_row_changed();
CREATE CONSTRAINT TRIGGER memories_vector_status AFTER UPDATE OF status ON memories
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION reverie_row_changed();

-- A vector always describes the current text: rows that change text or go away take theirs along.
CREATE FUNCTION reverie_memories_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vectors v USING gone g WHERE v.item_kind = 'memory' AND v.item_id = g.id;
    RETURN NULL;
END $$;
CREATE TRIGGER memories_vector_delete AFTER DELETE ON memories
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION reverie_memories_gone();

CREATE FUNCTION reverie_summaries_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vectors v USING gone g WHERE v.item_kind = 'summary' AND v.item_id = g.id;
    RETURN NULL;
END $$;
CREATE TRIGGER summaries_vector_delete AFTER DELETE ON summaries
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION reverie_summaries_gone();

CREATE FUNCTION reverie_messages_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vectors v USING gone g
        WHERE v.item_kind IN ('message', 'message_window') AND v.item_id = g.id;
    RETURN NULL;
END $$;
CREATE TRIGGER messages_vector_delete AFTER DELETE ON messages
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION reverie_messages_gone();

CREATE FUNCTION reverie_text_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vectors WHERE item_kind = TG_ARGV[0] AND item_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER memories_vector_text AFTER UPDATE OF text ON memories FOR EACH ROW
    WHEN (OLD.text IS DISTINCT FROM NEW.text) EXECUTE FUNCTION reverie_text_changed('memory');
CREATE TRIGGER summaries_vector_text AFTER UPDATE OF text ON summaries FOR EACH ROW
    WHEN (OLD.text IS DISTINCT FROM NEW.text) EXECUTE FUNCTION reverie_text_changed('summary');

CREATE TABLE embedding_cache (
    content_hash text NOT NULL,
    model_id     text NOT NULL,
    dimensions   integer NOT NULL,
    vector       bytea NOT NULL,
    created_at   double precision NOT NULL,
    PRIMARY KEY (content_hash, model_id)
);
CREATE INDEX idx_embedding_cache_age ON embedding_cache(created_at);

CREATE TABLE embedding_cache_stats (
    model_id text PRIMARY KEY,
    hits     bigint NOT NULL DEFAULT 0,
    misses   bigint NOT NULL DEFAULT 0
);

-- Messages get keyword search like memories, twice: the turn itself ("speaker: text") and its
-- window (the previous turn of the same conversation and this one). The indexed texts are not
-- the raw content, so they are kept beside it (NULL: same as the content / the turn's text).
ALTER TABLE messages ADD COLUMN search_text text;
ALTER TABLE messages ADD COLUMN window_text text;
ALTER TABLE messages ADD COLUMN search_tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('reverie', COALESCE(search_text, content))) STORED;
ALTER TABLE messages ADD COLUMN search_len integer
    GENERATED ALWAYS AS (reverie_tsv_len(to_tsvector('reverie', COALESCE(search_text, content)))) STORED;
ALTER TABLE messages ADD COLUMN window_tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('reverie', COALESCE(window_text, search_text, content))) STORED;
ALTER TABLE messages ADD COLUMN window_len integer
    GENERATED ALWAYS AS (
        reverie_tsv_len(to_tsvector('reverie', COALESCE(window_text, search_text, content)))
    ) STORED;
CREATE INDEX idx_messages_search_tsv ON messages USING gin (user_id, search_tsv);
CREATE INDEX idx_messages_window_tsv ON messages USING gin (user_id, window_tsv);

-- Memories found relevant during one conversation stay in its context (Rostro).
CREATE TABLE conversation_relevant (
    conversation_id bigint NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    memory_id       bigint NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    added_at        double precision NOT NULL,
    PRIMARY KEY (conversation_id, memory_id)
);
