-- Consolidation jobs are claimed from the database with a lease, so a dead worker's job is
-- taken over once its lease expires; failed jobs wait until their retry time. Messages carry
-- a summarized flag for the short-term cascade.
ALTER TABLE conversations ADD COLUMN lease_until REAL;
ALTER TABLE conversations ADD COLUMN worker TEXT;
ALTER TABLE conversations ADD COLUMN next_attempt_at REAL;
ALTER TABLE conversations ADD COLUMN consolidated_at REAL;
CREATE INDEX idx_conversations_queue ON conversations(consolidation_state, ended_at)
    WHERE consolidation_state IN ('pending', 'running', 'failed');

ALTER TABLE messages ADD COLUMN summarized INTEGER NOT NULL DEFAULT 0;
CREATE INDEX idx_messages_unsummarized ON messages(user_id, id) WHERE summarized = 0;

CREATE INDEX idx_summaries_unincorporated ON summaries(user_id, id) WHERE incorporated = 0;

-- Making a conversation private takes its turns out of episodic search at once.
CREATE TRIGGER conversations_private AFTER UPDATE OF is_private ON conversations
WHEN old.is_private IS NOT new.is_private BEGIN
    UPDATE vector_versions SET version = version + 1 WHERE user_id = old.user_id;
END;

ALTER TABLE summaries ADD COLUMN duration_seconds REAL NOT NULL DEFAULT 0;
