-- Per-exchange learning (mem.db): a turn records what it was understood as (its intent: a power
-- phrase's action, or statement, question, command, greeting, chat) and whether it created a
-- memory; a memory records the user turn it came from. Retention may delete that turn: the
-- memory stays, without its source.
ALTER TABLE messages ADD COLUMN intent TEXT;
ALTER TABLE messages ADD COLUMN memory_created INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memories ADD COLUMN source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL;
CREATE INDEX idx_memories_source_message ON memories(source_message_id) WHERE source_message_id IS NOT NULL;
