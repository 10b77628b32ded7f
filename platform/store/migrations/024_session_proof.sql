-- When the session's person last proved who they are (a log-in, its second step, a passkey, or
-- a proof asked again before an irreversible action). Sessions made before this count as proved
-- when they started. The default is for a process of the previous build still running beside
-- the new one during a rolling upgrade: its log-ins insert no proved_at, and a log-in is a proof.
ALTER TABLE sessions ADD COLUMN proved_at timestamptz NOT NULL DEFAULT now();
UPDATE sessions SET proved_at = created_at;
