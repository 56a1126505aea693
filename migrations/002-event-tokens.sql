-- ggdesk migration 2 (SQLite): every event may carry its writer's token.
--
-- A desk or `feed` that lost its connection while a commit was under way does not know
-- whether its event was stored. It sends the event again with the same token: the store
-- finds the token and answers with the event already stored, so an event is never stored
-- twice. Events written before this migration have no token.
ALTER TABLE game_events ADD COLUMN token TEXT;
CREATE UNIQUE INDEX game_events_token ON game_events (token) WHERE token IS NOT NULL;
-- The same for a game created by a writer that may have to try again (`feed`).
ALTER TABLE games ADD COLUMN token TEXT;
CREATE UNIQUE INDEX games_token ON games (token) WHERE token IS NOT NULL;
