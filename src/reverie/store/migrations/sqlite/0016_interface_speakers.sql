-- Who said "This is ..." on a shared voice interface, and when the interface was last heard:
-- kept with the interface, so the switch survives a restart and holds for every process that
-- serves the database (it was kept in one process's memory).
CREATE TABLE interface_speakers (
    interface TEXT PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    heard_at  REAL NOT NULL
);
CREATE INDEX idx_interface_speakers_user ON interface_speakers(user_id);
