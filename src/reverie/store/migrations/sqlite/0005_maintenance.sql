-- Nightly maintenance. Decay is a function of the time since a memory was last used, not a
-- nightly compounding: decay_base is the confidence right after its last access (facts) or
-- update (preferences), and decay sets confidence = max(floor, decay_base * rate ^ weeks).
ALTER TABLE memories ADD COLUMN decay_base REAL;
UPDATE memories SET decay_base = confidence;

-- One row per run; a run is claimed by inserting its row, so two processes never run twice.
CREATE TABLE maintenance_runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at  REAL NOT NULL,
    finished_at REAL,
    worker      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
    totals      TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX idx_maintenance_runs_started ON maintenance_runs(started_at);
CREATE INDEX idx_audit_at ON audit_log(at);
CREATE INDEX idx_memories_superseded ON memories(user_id, updated_at) WHERE status = 'superseded';
