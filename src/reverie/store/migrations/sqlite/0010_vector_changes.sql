-- A per-user log of what changed in the searchable vectors, so that an in-process vector index
-- fetches only the items that changed instead of reloading the user's whole matrix.
--
-- Every change of an item's vector (insert, replace, delete) or of its loadability (a memory's
-- status, a conversation's privacy: one row per turn and kind) writes (kind, id) stamped with
-- the user's vector version after the bump. SQLite writers are serialized, so versions are in
-- commit order: a reader at version m reads the rows with version > m, fetches the current
-- loadable vectors of those ids and masks the rest. Nightly maintenance deletes old rows and
-- raises pruned_to; a reader whose mark is below it reloads everything.

-- No foreign key: a user's deletion cascades to vectors whose triggers would log rows for a
-- user already gone; the inserts check that the user exists and the user's rows go with it.
CREATE TABLE vector_changes (
    user_id   INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    item_kind TEXT NOT NULL,
    item_id   INTEGER NOT NULL
);
CREATE INDEX idx_vector_changes ON vector_changes(user_id, item_kind, version);
CREATE TRIGGER users_vector_changes AFTER DELETE ON users BEGIN
    DELETE FROM vector_changes WHERE user_id = old.id;
END;

ALTER TABLE vector_versions ADD COLUMN pruned_to INTEGER NOT NULL DEFAULT 0;
-- Nothing was logged before this migration: a cache must not resume from an older version.
UPDATE vector_versions SET pruned_to = version;

-- The bump triggers of 0002 and 0004 become bump-and-log triggers (one trigger per event, so
-- the log row is always stamped after the bump, whatever order SQLite fires triggers in).
DROP TRIGGER vectors_bump_insert;
DROP TRIGGER vectors_bump_delete;
DROP TRIGGER memories_vector_status;
DROP TRIGGER conversations_private;

CREATE TRIGGER vectors_bump_insert AFTER INSERT ON vectors BEGIN
    INSERT INTO vector_versions (user_id, version) VALUES (new.user_id, 1)
    ON CONFLICT(user_id) DO UPDATE SET version = version + 1;
    INSERT INTO vector_changes (user_id, version, item_kind, item_id)
    SELECT new.user_id, version, new.item_kind, new.item_id FROM vector_versions
    WHERE user_id = new.user_id AND EXISTS (SELECT 1 FROM users WHERE id = new.user_id);
END;
CREATE TRIGGER vectors_bump_update AFTER UPDATE ON vectors BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = new.user_id;
    INSERT INTO vector_changes (user_id, version, item_kind, item_id)
    SELECT new.user_id, version, new.item_kind, new.item_id FROM vector_versions
    WHERE user_id = new.user_id AND EXISTS (SELECT 1 FROM users WHERE id = new.user_id);
END;
CREATE TRIGGER vectors_bump_delete AFTER DELETE ON vectors BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
    INSERT INTO vector_changes (user_id, version, item_kind, item_id)
    SELECT old.user_id, version, old.item_kind, old.item_id FROM vector_versions
    WHERE user_id = old.user_id AND EXISTS (SELECT 1 FROM users WHERE id = old.user_id);
END;
CREATE TRIGGER memories_vector_status AFTER UPDATE OF status ON memories
WHEN old.status IS NOT new.status BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
    INSERT INTO vector_changes (user_id, version, item_kind, item_id)
    SELECT old.user_id, version, 'memory', old.id FROM vector_versions
    WHERE user_id = old.user_id AND EXISTS (SELECT 1 FROM users WHERE id = old.user_id);
END;
CREATE TRIGGER conversations_private AFTER UPDATE OF is_private ON conversations
WHEN old.is_private IS NOT new.is_private BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
    INSERT INTO vector_changes (user_id, version, item_kind, item_id)
    SELECT old.user_id, vv.version, k.kind, m.id
    FROM vector_versions vv, messages m, (SELECT 'message' AS kind UNION ALL SELECT 'message_window') k
    WHERE vv.user_id = old.user_id AND m.conversation_id = old.id;
END;
