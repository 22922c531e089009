-- The memories found relevant in a conversation are read most recent first, a bounded number:
-- by this index, a long conversation's turn reads those rows only, not every row it gathered.
CREATE INDEX idx_conversation_relevant_recent ON conversation_relevant(conversation_id, added_at);
