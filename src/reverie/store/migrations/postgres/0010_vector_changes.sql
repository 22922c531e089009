-- A per-user log of what changed in the searchable vectors, so that an in-process vector index
-- fetches only the items that changed instead of reloading the user's whole matrix.
--
-- Every change of an item's vector (insert, update, delete) or of its loadability (a memory's
-- status, a conversation's privacy: one row per turn and kind) writes (kind, id) with no version
-- yet. At commit the deferred bump (reverie_bump_vectors, once per user and transaction, under
-- the version row's lock) stamps the transaction's rows with the new version, so versions are
-- in commit order (sequence numbers are not). A reader at version m reads the rows with
-- version > m (plus its own transaction's unstamped rows), fetches the current loadable vectors
-- of those ids and masks the rest. Nightly maintenance deletes old rows and raises pruned_to;
-- a reader whose mark is below it reloads everything.

-- No foreign key: a user's deletion cascades to vectors whose triggers would log rows for a
-- user already gone; the inserts check that the user exists and the user's rows go with it.
CREATE TABLE vector_changes (
    user_id   bigint NOT NULL,
    version   bigint,
    item_kind text NOT NULL,
    item_id   bigint NOT NULL
);
CREATE INDEX idx_vector_changes ON vector_changes(user_id, item_kind, version);
CREATE INDEX idx_vector_changes_unstamped ON vector_changes(user_id) WHERE version IS NULL;

ALTER TABLE vector_versions ADD COLUMN pruned_to bigint NOT NULL DEFAULT 0;
-- Nothing was logged before this migration: a cache must not resume from an older version.
UPDATE vector_versions SET pruned_to = version;

CREATE OR REPLACE FUNCTION reverie_bump_vectors(uid bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    flag text := 'reverie.vv' || uid;
    stamped bigint;
BEGIN
    IF COALESCE(current_setting(flag, true), '') = '' THEN
        INSERT INTO vector_versions AS v (user_id, version)
            SELECT uid, 1 WHERE EXISTS (SELECT 1 FROM users WHERE id = uid)
            ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1
            RETURNING v.version INTO stamped;
        IF stamped IS NOT NULL THEN
            UPDATE vector_changes SET version = stamped WHERE user_id = uid AND version IS NULL;
        END IF;
        PERFORM set_config(flag, '1', true);
    END IF;
END $$;

CREATE FUNCTION reverie_log_vectors_fresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_changes (user_id, item_kind, item_id)
        SELECT f.user_id, f.item_kind, f.item_id FROM fresh f;
    RETURN NULL;
END $$;
CREATE TRIGGER vectors_log_insert AFTER INSERT ON vectors
    REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION reverie_log_vectors_fresh();
CREATE TRIGGER vectors_log_update AFTER UPDATE ON vectors
    REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION reverie_log_vectors_fresh();

CREATE FUNCTION reverie_log_vectors_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_changes (user_id, item_kind, item_id)
        SELECT g.user_id, g.item_kind, g.item_id FROM gone g
        WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = g.user_id);
    RETURN NULL;
END $$;
CREATE TRIGGER vectors_log_delete AFTER DELETE ON vectors
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION reverie_log_vectors_gone();

CREATE FUNCTION reverie_log_memory_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_changes (user_id, item_kind, item_id) VALUES (NEW.user_id, 'memory', NEW.id);
    RETURN NULL;
END $$;
CREATE TRIGGER memories_log_status AFTER UPDATE OF status ON memories FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION reverie_log_memory_status();

CREATE FUNCTION reverie_log_conversation_privacy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_changes (user_id, item_kind, item_id)
        SELECT NEW.user_id, k.kind, m.id
        FROM messages m CROSS JOIN (VALUES ('message'), ('message_window')) AS k(kind)
        WHERE m.conversation_id = NEW.id AND m.user_id = NEW.user_id;
    RETURN NULL;
END $$;
CREATE TRIGGER conversations_log_private AFTER UPDATE OF is_private ON conversations FOR EACH ROW
    WHEN (OLD.is_private IS DISTINCT FROM NEW.is_private)
    EXECUTE FUNCTION reverie_log_conversation_privacy();

CREATE FUNCTION reverie_forget_vector_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vector_changes WHERE user_id = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER users_vector_changes AFTER DELETE ON users FOR EACH ROW
    EXECUTE FUNCTION reverie_forget_vector_changes();
