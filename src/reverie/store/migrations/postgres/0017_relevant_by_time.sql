-- The twin of SQLite's 0017: the memories found relevant in a conversation are read most recent
-- first, a bounded number, by this index instead of sorting every row the conversation gathered.
CREATE INDEX idx_conversation_relevant_recent ON conversation_relevant(conversation_id, added_at);
