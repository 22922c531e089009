-- Structured preferences (Saga): a preference is category + key + value + scope, one active row
-- per (user, category, key), so "lights: color" and "lights: brightness" are two preferences
-- and not one overwriting the other. The memory's key column holds the preference's key; a
-- fact's category is NULL. Until now a preference's key was its category (one per category):
-- the ways of answering (verbosity, formality, ...) become keys of the "global" category, the
-- others keep their category with the key "default".
ALTER TABLE memories ADD COLUMN category TEXT;
ALTER TABLE memories ADD COLUMN scope TEXT NOT NULL DEFAULT 'default';
UPDATE memories
SET category = CASE
        WHEN key IN ('verbosity', 'formality', 'humor', 'tone', 'language', 'units',
                     'technical_level', 'detail_level') THEN 'global'
        ELSE key
    END,
    key = CASE
        WHEN key IN ('verbosity', 'formality', 'humor', 'tone', 'language', 'units',
                     'technical_level', 'detail_level') THEN key
        ELSE 'default'
    END
WHERE kind = 'preference' AND key IS NOT NULL;
DROP INDEX idx_memories_active_key;
CREATE UNIQUE INDEX idx_memories_active_key ON memories(user_id, kind, COALESCE(category, ''), key)
    WHERE status = 'active' AND key IS NOT NULL;
-- The context reads one category's preferences (plus "global") every turn.
CREATE INDEX idx_memories_category ON memories(user_id, category, key)
    WHERE kind = 'preference' AND status = 'active';
