-- Memories listed by confidence (the context's candidate facts and preferences, every turn) are
-- ordered by confidence, then updated_at, then id. idx_memories_user covered the confidence
-- alone, so SQLite sorted every memory of a kind sharing the top confidence (2,000 facts: 5 ms
-- per context); this index gives the whole order, read backwards, and replaces it.
CREATE INDEX idx_memories_rank ON memories(user_id, status, kind, confidence, updated_at, id);
DROP INDEX idx_memories_user;
