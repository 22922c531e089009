-- Consolidation jobs are claimed from the database (FOR UPDATE SKIP LOCKED) with a lease, so a
-- dead worker's job is taken over once its lease expires; failed jobs wait until their retry
-- time. Messages carry a summarized flag for the short-term cascade.
ALTER TABLE conversations ADD COLUMN lease_until double precision;
ALTER TABLE conversations ADD COLUMN worker text;
ALTER TABLE conversations ADD COLUMN next_attempt_at double precision;
ALTER TABLE conversations ADD COLUMN consolidated_at double precision;
CREATE INDEX idx_conversations_queue ON conversations(consolidation_state, ended_at)
    WHERE consolidation_state IN ('pending', 'running', 'failed');

ALTER TABLE messages ADD COLUMN summarized boolean NOT NULL DEFAULT false;
CREATE INDEX idx_messages_unsummarized ON messages(user_id, id) WHERE NOT summarized;

CREATE INDEX idx_summaries_unincorporated ON summaries(user_id, id) WHERE NOT incorporated;

-- Making a conversation private takes its turns out of episodic search at once.
CREATE CONSTRAINT TRIGGER conversations_private AFTER UPDATE OF is_private ON conversations
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.is_private IS DISTINCT FROM NEW.is_private) EXECUTE FUNCTION reverie_row_changed();

ALTER TABLE summaries ADD COLUMN duration_seconds double precision NOT NULL DEFAULT 0;
