-- Working state (Saga's active context) per conversation; thread owners (mem.db scopes) as a
-- kind of user, so a thread's memories are scoped exactly like a person's; and the flag on
-- memories that hold personal-sensitive details (health, finances, identity numbers).
ALTER TABLE users ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'thread'));
ALTER TABLE users ADD COLUMN label text NOT NULL DEFAULT '';

ALTER TABLE memories ADD COLUMN sensitive boolean NOT NULL DEFAULT false;

CREATE TABLE working_state (
    conversation_id bigint PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
    user_id         bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    state           text NOT NULL,
    updated_at      double precision NOT NULL
);
CREATE INDEX idx_working_state_user ON working_state(user_id);
