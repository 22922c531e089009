-- Deleting a memory or a conversation must not scan every memory: index the columns that
-- foreign keys point from.
CREATE INDEX idx_memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX idx_memories_conversation ON memories(conversation_id) WHERE conversation_id IS NOT NULL;
CREATE INDEX idx_summaries_conversation ON summaries(conversation_id) WHERE conversation_id IS NOT NULL;
CREATE INDEX idx_conversation_relevant_memory ON conversation_relevant(memory_id);
