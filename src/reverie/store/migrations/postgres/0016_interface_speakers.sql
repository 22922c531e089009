-- The twin of SQLite's 0016: who said "This is ..." on a shared voice interface, and when the
-- interface was last heard, kept with the interface (a restart or another process keeps it).
CREATE TABLE interface_speakers (
    interface text PRIMARY KEY,
    user_id   bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    heard_at  double precision NOT NULL
);
CREATE INDEX idx_interface_speakers_user ON interface_speakers(user_id);
