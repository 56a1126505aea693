-- ggdesk database schema, migration 3 (PRAGMA user_version = 3): what the arbiter desk
-- keeps besides the events (its timers, the lots drawn for the first move, the arbiter's
-- ruling when setup time ran out) and the tournament's details printed on every page.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- Unix ms at which the setup timer started (the table was first opened for its setups),
-- so that reopening the table or restarting the desk does not restart it.
ALTER TABLE games ADD COLUMN setup_started_at INTEGER;
-- Unix ms at which the arbiter recorded a ruling after setup time ran out.
ALTER TABLE games ADD COLUMN setup_overrun_at INTEGER;
-- Unix ms at which the reading timer of the adjudication started: the moment game time ran
-- out for a game played at the desk, or the moment an imported record's adjudication was
-- first opened.
ALTER TABLE games ADD COLUMN reading_started_at INTEGER;
-- Unix ms at which lots decided who moves first (NULL: not drawn at the desk).
ALTER TABLE games ADD COLUMN lots_drawn_at INTEGER;

-- The tournament's details, as every printout's header shows them (free text).
ALTER TABLE tournaments ADD COLUMN dates TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN venue TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN organiser TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN chief_arbiter TEXT NOT NULL DEFAULT '';
