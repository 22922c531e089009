-- The twin of SQLite's 0015 (FTS5 merges its segments two at a level). With fastupdate on, new
-- rows' lexemes wait in the GIN index's pending list, which every keyword query reads row by row
-- until a vacuum flushes it (up to gin_pending_list_limit, 4 MB): with 10k facts written one at a
-- time, a remember's all-but-one lookup took 19.3 ms, and 5.8 ms with fastupdate off, for 0.3 ms
-- more a write.
ALTER INDEX idx_memories_tsv SET (fastupdate = off);
