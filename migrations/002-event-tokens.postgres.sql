-- ggdesk migration 2 (PostgreSQL): every event may carry its writer's token (as in SQLite's
-- migration 2), and what only a server has: arbiter stations, what the database lets them
-- do, and the notifications desks listen to.

-- A desk or `feed` that lost its connection while a commit was under way does not know
-- whether its event was stored. It sends the event again with the same token: the store
-- finds the token and answers with the event already stored, so an event is never stored
-- twice.
ALTER TABLE game_events ADD COLUMN token TEXT;
CREATE UNIQUE INDEX game_events_token ON game_events (token) WHERE token IS NOT NULL;
-- The same for a game created by a writer that may have to try again (`feed`).
ALTER TABLE games ADD COLUMN token TEXT;
CREATE UNIQUE INDEX games_token ON games (token) WHERE token IS NOT NULL;

-- Arbiter stations: one login each (a PostgreSQL role, its password kept by the server as a
-- SCRAM verifier only), and the table numbers it runs in every round in play.
CREATE TABLE stations (
    name       TEXT   PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9_-]+$'),
    role       TEXT   NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);
CREATE TABLE station_tables (
    station  TEXT   NOT NULL REFERENCES stations (name) ON DELETE CASCADE,
    table_no BIGINT NOT NULL CHECK (table_no > 0),
    PRIMARY KEY (station, table_no)
);

-- Whether the login running the statement is a station that runs table `t`. The director's
-- login owns the tables, so row-level security does not apply to it; every other login is
-- held to the policies below. An arbiter station gets its privileges from `station add`
-- (SELECT on everything; INSERT of games, events, reading sheets and audit rows; UPDATE of
-- the columns a game and a board's result need), and these policies limit the rows it may
-- write to the games and boards of its own tables. An UPDATE policy sees every row
-- (USING true) and checks the row as changed (WITH CHECK): a station cannot change the
-- table number, so the check refuses, with an error, a change at another table, where a
-- USING clause would only skip the row without a word.
CREATE FUNCTION ggdesk_runs_table(t BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM station_tables st JOIN stations s ON s.name = st.station
        WHERE s.role = current_user AND st.table_no = t)
$$;

CREATE FUNCTION ggdesk_runs_game(g BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
    SELECT ggdesk_runs_table((SELECT table_no FROM games WHERE id = g))
$$;

ALTER TABLE games ENABLE ROW LEVEL SECURITY;
CREATE POLICY games_read ON games FOR SELECT USING (true);
CREATE POLICY games_insert ON games FOR INSERT WITH CHECK (ggdesk_runs_table(table_no));
CREATE POLICY games_update ON games FOR UPDATE
    USING (true) WITH CHECK (ggdesk_runs_table(table_no));

ALTER TABLE game_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY game_events_read ON game_events FOR SELECT USING (true);
CREATE POLICY game_events_insert ON game_events FOR INSERT WITH CHECK (ggdesk_runs_game(game_id));

ALTER TABLE adjudication_sheets ENABLE ROW LEVEL SECURITY;
CREATE POLICY adjudication_sheets_read ON adjudication_sheets FOR SELECT USING (true);
CREATE POLICY adjudication_sheets_insert ON adjudication_sheets FOR INSERT
    WITH CHECK (ggdesk_runs_game(game_id));
CREATE POLICY adjudication_sheets_update ON adjudication_sheets FOR UPDATE
    USING (true) WITH CHECK (ggdesk_runs_game(game_id));

ALTER TABLE pairings ENABLE ROW LEVEL SECURITY;
CREATE POLICY pairings_read ON pairings FOR SELECT USING (true);
CREATE POLICY pairings_result ON pairings FOR UPDATE
    USING (true) WITH CHECK (ggdesk_runs_table(table_no));

-- A station's last result completes its round, and an undo at its table reopens it (one
-- rule for every path a result takes): it may set a round's state only to what the boards
-- say, complete when no board is pending, published when one is.
CREATE FUNCTION ggdesk_round_state_agrees(t BIGINT, n BIGINT, s TEXT) RETURNS BOOLEAN
LANGUAGE sql STABLE AS $$
    SELECT CASE s
        WHEN 'complete' THEN NOT EXISTS (
            SELECT 1 FROM pairings WHERE tournament_id = t AND round = n AND result = 'pending')
        WHEN 'published' THEN EXISTS (
            SELECT 1 FROM pairings WHERE tournament_id = t AND round = n AND result = 'pending')
        ELSE false
    END
$$;

ALTER TABLE rounds ENABLE ROW LEVEL SECURITY;
CREATE POLICY rounds_read ON rounds FOR SELECT USING (true);
CREATE POLICY rounds_completion ON rounds FOR UPDATE
    USING (true) WITH CHECK (ggdesk_round_state_agrees(tournament_id, number, state));

-- Every change writes an audit row: its insertion tells every listening desk what changed
-- (delivered at commit, never for a change rolled back), so desks reload only that.
CREATE FUNCTION ggdesk_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ggdesk', json_build_object(
        'audit', NEW.id, 'tournament', NEW.tournament_id, 'game', NEW.game_id)::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER audit_log_notify AFTER INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION ggdesk_notify();
