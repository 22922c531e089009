-- FTS5 writes each commit's rows as a new b-tree segment and merges segments four at a level
-- (automerge 4); a query seeks every segment for every term, and BM25 counts each term's rows
-- through all of them. Memories are committed one at a time, so after 3,000 remembers into 90k
-- facts the index held 10 to 22 segments and the all-but-one lookup of a remember took 3.5-4.0 ms
-- (5.2 ms for facts already stored), against 3.0 ms in one segment. Merging two at a level
-- keeps about half as many: 2.9-3.3 ms, for under 0.1 ms more a write.
INSERT INTO memories_fts(memories_fts, rank) VALUES ('automerge', 2);
