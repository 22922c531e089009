-- Memories listed by confidence (the context's candidate facts and preferences, every turn) are
-- ordered by confidence, then updated_at, then id. idx_memories_user covered the confidence
-- alone, so every memory of a kind sharing the top confidence was sorted; this index gives the
-- whole order, read backwards, and replaces it.
CREATE INDEX idx_memories_rank ON memories(user_id, status, kind, confidence, updated_at, id);
DROP INDEX idx_memories_user;
