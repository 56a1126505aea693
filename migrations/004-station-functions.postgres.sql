-- ggdesk migration 4 (PostgreSQL): the database is the guard of an event server.
--
-- Migration 2 let an arbiter station read every table and write games, events, sheets,
-- audit rows, results and round states, held to its tables by row-level policies whose
-- functions named tables without a schema: a station that created temporary tables of the
-- same names talked them out of it, and even without a trick it could publish a draft,
-- reopen or change a completed round, forge the audit log's actor and read every setup.
-- From this migration on:
--
-- * The tables belong to the event's owner (the director's login) alone. No other role
--   holds any privilege on them: every grant made before (stations', the public role's) is
--   revoked below.
-- * An arbiter station reads through the views of schema `ggdesk_station`, which has the
--   same names as the tables and comes first on the station's search_path (the store's SQL
--   stays the same). Those views show every game's facts but a game's setups, events,
--   reading sheets and audit details only at the station's own tables; they bind the
--   tables by schema-qualified names when created, so no temporary table can stand in.
-- * A station writes only by calling the SECURITY DEFINER functions `ggdesk_station_*`
--   below, owned by the event's owner, each with a fixed search_path and every name
--   schema-qualified. Each checks that the caller (session_user) is a station that runs the
--   game's table, that the game's round is published and not complete, that the game is in
--   play (not decided, not void), and what the change itself must be (the next event, JSON
--   of a known kind, nothing after the end; setups and start written once); the audit row's
--   actor is the station, taken from session_user, never from the caller. A refusal is
--   SQLSTATE 42501 (insufficient_privilege) with what was refused; an event that is no
--   longer the next is 40001, which the store answers by reading the game again.
-- * The public pages' role reads the views of schema `ggdesk_public`: what the pages show,
--   nothing else (no federation id, registration extra, penalty reason, forbidden pair,
--   absence reason, pairing explanation, setup, event, sheet or audit detail; no draft).
-- * No login may create temporary tables or objects in schema public; a station's login may
--   hold 4 connections (CONNECTION LIMIT), and drops a dead connection within seconds.

-- The policies of migration 2 and their functions go. Row-level security stays enabled on
-- the tables it covered: with no policy left it shows no row to any role but the owner,
-- should a privilege ever be granted by mistake.
DROP POLICY games_read ON games;
DROP POLICY games_insert ON games;
DROP POLICY games_update ON games;
DROP POLICY game_events_read ON game_events;
DROP POLICY game_events_insert ON game_events;
DROP POLICY adjudication_sheets_read ON adjudication_sheets;
DROP POLICY adjudication_sheets_insert ON adjudication_sheets;
DROP POLICY adjudication_sheets_update ON adjudication_sheets;
DROP POLICY pairings_read ON pairings;
DROP POLICY pairings_result ON pairings;
DROP POLICY rounds_read ON rounds;
DROP POLICY rounds_completion ON rounds;
DROP FUNCTION ggdesk_runs_game(BIGINT);
DROP FUNCTION ggdesk_runs_table(BIGINT);
DROP FUNCTION ggdesk_round_state_agrees(BIGINT, BIGINT, TEXT);

-- The trigger functions of migrations 1 and 2 run with a fixed search_path too.
ALTER FUNCTION public.ggdesk_append_only() SET search_path = pg_catalog, public;
ALTER FUNCTION public.ggdesk_notify() SET search_path = pg_catalog, public;

-- Nobody but the owner creates objects in schema public or temporary tables in this
-- database; functions the owner creates from now on are not executable by everyone.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION public.ggdesk_append_only() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION public.ggdesk_notify() FROM PUBLIC;

-- Every privilege any other role held on the tables, their columns and sequences, and the
-- schema usage granted with them, is revoked (the stations' of migration 2, the public
-- role's): the grants below are then the only ones.
DO $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN
        SELECT DISTINCT a.grantee
        FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
        WHERE n.nspname = 'public' AND a.grantee <> c.relowner
        UNION
        SELECT DISTINCT a.grantee
        FROM pg_catalog.pg_attribute att
        JOIN pg_catalog.pg_class c ON c.oid = att.attrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL pg_catalog.aclexplode(att.attacl) a
        WHERE n.nspname = 'public' AND a.grantee <> c.relowner
    LOOP
        IF r.grantee = 0 THEN
            REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
            REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC;
        ELSE
            EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I',
                           pg_catalog.pg_get_userbyid(r.grantee));
            EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM %I',
                           pg_catalog.pg_get_userbyid(r.grantee));
            EXECUTE format('REVOKE ALL ON SCHEMA public FROM %I',
                           pg_catalog.pg_get_userbyid(r.grantee));
        END IF;
    END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------
-- What an arbiter station reads: the views of schema ggdesk_station, first on its
-- search_path. A station sees every game's facts, but a game's setups, events, reading
-- sheets and the details of its audit rows only at its own tables; players' federation ids
-- and registration extras (contact details from a tournament file) not at all.
-- ---------------------------------------------------------------------------------------
CREATE SCHEMA ggdesk_station;
REVOKE ALL ON SCHEMA ggdesk_station FROM PUBLIC;

CREATE VIEW ggdesk_station.ggdesk_meta AS
    SELECT application, schema_version, singleton FROM public.ggdesk_meta;
CREATE VIEW ggdesk_station.players AS
    SELECT id, name, ''::TEXT AS federation_id, club, rating, status, created_at
    FROM public.players;
CREATE VIEW ggdesk_station.tournaments AS
    SELECT id, name, system, rounds, win_points, draw_points, loss_points, bye_points,
           forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules,
           setup_s, reading_s, grace_s, extra, created_at, dates, venue, organiser,
           chief_arbiter
    FROM public.tournaments;
CREATE VIEW ggdesk_station.bans AS
    SELECT id, player_id, tournament_id, reason, banned_at, lifted_at, lift_reason
    FROM public.bans;
CREATE VIEW ggdesk_station.registrations AS
    SELECT tournament_id, player_no, player_id, name, rating, club, NULL::TEXT AS federation_id,
           entry_round, withdrawn, '{}'::TEXT AS extra, seq, registered_at
    FROM public.registrations;
CREATE VIEW ggdesk_station.forbidden_pairs AS
    SELECT tournament_id, player_a, player_b FROM public.forbidden_pairs;
CREATE VIEW ggdesk_station.rounds AS
    SELECT tournament_id, number, state, starts_at, published_at, completed_at, explanation
    FROM public.rounds;
CREATE VIEW ggdesk_station.pairings AS
    SELECT tournament_id, round, board_no, table_no, table_given, white, black, result,
           explanation
    FROM public.pairings;
CREATE VIEW ggdesk_station.round_byes AS
    SELECT tournament_id, round, player_no, explanation, seq FROM public.round_byes;
CREATE VIEW ggdesk_station.absences AS
    SELECT tournament_id, round, player_no, reason, seq FROM public.absences;
CREATE VIEW ggdesk_station.penalties AS
    SELECT id, tournament_id, player_no, points, reason, decided_at FROM public.penalties;
CREATE VIEW ggdesk_station.stations AS
    SELECT name, role, created_at FROM public.stations;
CREATE VIEW ggdesk_station.station_tables AS
    SELECT station, table_no FROM public.station_tables;
CREATE VIEW ggdesk_station.games WITH (security_barrier) AS
    SELECT g.id, g.tournament_id, g.round, g.table_no, g.white_no, g.black_no, g.mode, g.first,
           g.white_rating, g.black_rating, g.rules,
           CASE WHEN m.mine THEN g.setup_white END AS setup_white,
           CASE WHEN m.mine THEN g.setup_black END AS setup_black,
           g.started_at, g.clock_seen_t, g.result, g.void, g.void_reason, g.replaces,
           CASE WHEN m.mine THEN g.extra ELSE '{}' END AS extra,
           g.origin, g.created_at, g.token, g.setup_started_at, g.setup_overrun_at,
           g.reading_started_at, g.lots_drawn_at
    FROM public.games g
    CROSS JOIN LATERAL (
        SELECT EXISTS (
            SELECT 1 FROM public.station_tables st JOIN public.stations s ON s.name = st.station
            WHERE s.role = session_user AND st.table_no = g.table_no) AS mine) m;
CREATE VIEW ggdesk_station.game_events WITH (security_barrier) AS
    SELECT e.game_id, e.seq, e.t, e.kind, e.payload, e.wall_time, e.token
    FROM public.game_events e
    JOIN public.games g ON g.id = e.game_id
    WHERE EXISTS (
        SELECT 1 FROM public.station_tables st JOIN public.stations s ON s.name = st.station
        WHERE s.role = session_user AND st.table_no = g.table_no);
CREATE VIEW ggdesk_station.adjudication_sheets WITH (security_barrier) AS
    SELECT a.game_id, a.side, a.sheet, a.complete, a.entered_at
    FROM public.adjudication_sheets a
    JOIN public.games g ON g.id = a.game_id
    WHERE EXISTS (
        SELECT 1 FROM public.station_tables st JOIN public.stations s ON s.name = st.station
        WHERE s.role = session_user AND st.table_no = g.table_no);
CREATE VIEW ggdesk_station.audit_log WITH (security_barrier) AS
    SELECT l.id, l.at, l.actor, l.action, l.tournament_id, l.game_id,
           CASE WHEN m.mine THEN l.reason ELSE '' END AS reason,
           CASE WHEN m.mine THEN l.details ELSE '' END AS details
    FROM public.audit_log l
    CROSS JOIN LATERAL (
        SELECT EXISTS (
            SELECT 1 FROM public.games g
            JOIN public.station_tables st ON st.table_no = g.table_no
            JOIN public.stations s ON s.name = st.station
            WHERE g.id = l.game_id AND s.role = session_user) AS mine) m;

-- ---------------------------------------------------------------------------------------
-- What the public pages read: the views of schema ggdesk_public, the only ones the public
-- role may read (its connection puts the schema alone on its search_path). Published and
-- complete rounds only; names, numbers, ratings, clubs, results, states and points.
-- ---------------------------------------------------------------------------------------
CREATE SCHEMA ggdesk_public;
REVOKE ALL ON SCHEMA ggdesk_public FROM PUBLIC;

CREATE VIEW ggdesk_public.audit_log AS
    SELECT id FROM public.audit_log;
CREATE VIEW ggdesk_public.tournaments AS
    SELECT id, name, system, rounds, win_points, draw_points, loss_points, bye_points,
           forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules,
           setup_s, reading_s, grace_s, created_at
    FROM public.tournaments;
CREATE VIEW ggdesk_public.registrations AS
    SELECT tournament_id, player_no, name, rating, club, withdrawn, seq
    FROM public.registrations;
CREATE VIEW ggdesk_public.rounds AS
    SELECT tournament_id, number, state FROM public.rounds WHERE state <> 'draft';
CREATE VIEW ggdesk_public.pairings AS
    SELECT p.tournament_id, p.round, p.board_no, p.table_no, p.table_given, p.white, p.black,
           p.result
    FROM public.pairings p
    JOIN public.rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
    WHERE r.state <> 'draft';
CREATE VIEW ggdesk_public.round_byes AS
    SELECT b.tournament_id, b.round, b.player_no, b.seq
    FROM public.round_byes b
    JOIN public.rounds r ON r.tournament_id = b.tournament_id AND r.number = b.round
    WHERE r.state <> 'draft';
CREATE VIEW ggdesk_public.absences AS
    SELECT a.tournament_id, a.round, a.player_no, a.seq
    FROM public.absences a
    JOIN public.rounds r ON r.tournament_id = a.tournament_id AND r.number = a.round
    WHERE r.state <> 'draft';
CREATE VIEW ggdesk_public.penalties AS
    SELECT id, tournament_id, player_no, points FROM public.penalties;
CREATE VIEW ggdesk_public.games AS
    SELECT g.id, g.tournament_id, g.round, g.table_no, g.started_at, g.result, g.void
    FROM public.games g
    JOIN public.rounds r ON r.tournament_id = g.tournament_id AND r.number = g.round
    WHERE r.state <> 'draft';

-- ---------------------------------------------------------------------------------------
-- The grants: one function each for a station's login and for the public role, used by
-- `station add` and by the public pages as by this migration, so a database upgraded here
-- ends in the state a new one has. Only the owner may run them.
-- ---------------------------------------------------------------------------------------

-- The station functions a station's login may call (kept in one place: the grants below).
CREATE FUNCTION public.ggdesk_station_functions() RETURNS TEXT[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public AS $$
    SELECT ARRAY[
        'public.ggdesk_station_create_game(BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, BIGINT)',
        'public.ggdesk_station_setup(BIGINT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_start(BIGINT, BIGINT, TEXT, BIGINT)',
        'public.ggdesk_station_event(BIGINT, BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_sheet(BIGINT, TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_clock_seen(BIGINT, DOUBLE PRECISION)',
        'public.ggdesk_station_confirm(BIGINT, BIGINT)',
        'public.ggdesk_station_setup_timer(BIGINT, BIGINT)',
        'public.ggdesk_station_setup_ruling(BIGINT, BIGINT, TEXT)',
        'public.ggdesk_station_reading_timer(BIGINT, BIGINT)',
        'public.ggdesk_station_lots(BIGINT, TEXT, BIGINT)'
    ]
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_functions() FROM PUBLIC;

-- Everything a station's login may do, and nothing else: read its views, call its
-- functions, at most 4 connections (its desk holds 2: the store's and the listener's; one
-- spare for a command run beside it and one for a reconnection while the server has not yet
-- dropped the lost one). Dead connections are dropped within seconds (keepalives), and a
-- transaction left open is ended after 30 s, so a lost laptop holds no lock for long.
CREATE FUNCTION public.ggdesk_station_grants(p_role TEXT) RETURNS VOID
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
    f TEXT;
BEGIN
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', p_role);
    EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM %I', p_role);
    EXECUTE format('GRANT USAGE ON SCHEMA ggdesk_station TO %I', p_role);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA ggdesk_station TO %I', p_role);
    FOREACH f IN ARRAY public.ggdesk_station_functions() LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, p_role);
    END LOOP;
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 4', p_role);
    EXECUTE format('ALTER ROLE %I IN DATABASE %I SET search_path = ggdesk_station, public',
                   p_role, current_database());
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_idle = 5', p_role);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_interval = 1', p_role);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_count = 3', p_role);
    EXECUTE format('ALTER ROLE %I SET tcp_user_timeout = 6000', p_role);
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = 30000', p_role);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_grants(TEXT) FROM PUBLIC;

-- What the public pages' role may read: the views of ggdesk_public, nothing else.
CREATE FUNCTION public.ggdesk_public_grants(p_role TEXT) RETURNS VOID
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', p_role);
    EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM %I', p_role);
    EXECUTE format('GRANT USAGE ON SCHEMA ggdesk_public TO %I', p_role);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA ggdesk_public TO %I', p_role);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_public_grants(TEXT) FROM PUBLIC;

-- ---------------------------------------------------------------------------------------
-- The station functions. The helpers (station of the session, a game checked and locked,
-- an audit row, a result settled) run only inside them: no login may call them itself.
-- ---------------------------------------------------------------------------------------

-- The station whose login this session is, or NULL: every login may ask (the desk opens as
-- a station's desk when it is one).
CREATE FUNCTION public.ggdesk_station_name() RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT s.name FROM public.stations s WHERE s.role = session_user
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_name() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.ggdesk_station_name() TO PUBLIC;

-- The station of this session; any other login is refused.
CREATE FUNCTION public.ggdesk_station_session() RETURNS TEXT
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT;
BEGIN
    SELECT s.name INTO v_station FROM public.stations s WHERE s.role = session_user;
    IF v_station IS NULL THEN
        RAISE EXCEPTION 'the login % is not an arbiter station of this event', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN v_station;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_session() FROM PUBLIC;

-- Whether station `p_station` runs table `p_table`.
CREATE FUNCTION public.ggdesk_station_runs(p_station TEXT, p_table BIGINT) RETURNS BOOLEAN
LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
    SELECT p_table IS NOT NULL AND EXISTS (
        SELECT 1 FROM public.station_tables st
        WHERE st.station = p_station AND st.table_no = p_table)
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_runs(TEXT, BIGINT) FROM PUBLIC;

-- A game a station may change, locked until the transaction ends: at one of its tables, in
-- a round published and not complete (with `p_complete_ok`, also complete: confirming a
-- result only writes an audit row), not void.
CREATE FUNCTION public.ggdesk_station_game(p_game BIGINT, p_station TEXT, p_complete_ok BOOLEAN)
RETURNS public.games
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
    g public.games;
    v_state TEXT;
BEGIN
    SELECT * INTO g FROM public.games WHERE id = p_game FOR UPDATE;
    IF NOT FOUND OR NOT public.ggdesk_station_runs(p_station, g.table_no) THEN
        RAISE EXCEPTION 'game % is not at a table of station %', p_game, p_station
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT r.state INTO v_state FROM public.rounds r
    WHERE r.tournament_id = g.tournament_id AND r.number = g.round;
    IF v_state IS DISTINCT FROM 'published'
       AND NOT (p_complete_ok AND v_state IS NOT DISTINCT FROM 'complete') THEN
        RAISE EXCEPTION 'game % is not in a round in play (round % is %)', p_game, g.round,
            coalesce(v_state, 'not paired') USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF g.void <> 0 THEN
        RAISE EXCEPTION 'game % is void', p_game USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN g;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_game(BIGINT, TEXT, BOOLEAN) FROM PUBLIC;

-- Refuses a game that is not in play: not started, or decided (only the director changes a
-- decided game; a game waiting for its adjudication is not decided).
CREATE FUNCTION public.ggdesk_station_in_play(g public.games) RETURNS VOID
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
    IF g.started_at IS NULL THEN
        RAISE EXCEPTION 'game % has not started', g.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF g.result IS NOT NULL AND g.result <> 'adjudication_pending' THEN
        RAISE EXCEPTION 'game % is decided (%): only the director may change it', g.id, g.result
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_in_play(public.games) FROM PUBLIC;

-- One audit row, its actor the station.
CREATE FUNCTION public.ggdesk_station_audit(p_station TEXT, p_action TEXT, p_tournament BIGINT,
    p_game BIGINT, p_reason TEXT, p_details TEXT, p_at BIGINT) RETURNS VOID
LANGUAGE sql SET search_path = pg_catalog, public AS $$
    INSERT INTO public.audit_log (at, actor, action, tournament_id, game_id, reason, details)
    VALUES (p_at, 'station ' || p_station, p_action, p_tournament, p_game,
            coalesce(p_reason, ''), coalesce(p_details, ''))
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_audit(TEXT, TEXT, BIGINT, BIGINT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- Refuses a game result and board result that do not go together: the result the desk's
-- rules engine reached (`NULL` undecided, `adjudication_pending`, or the winner or `draw`
-- and the reason) and what it gives the board.
CREATE FUNCTION public.ggdesk_station_check_result(p_game BIGINT, p_result TEXT, p_board TEXT)
RETURNS VOID
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
    IF (CASE
        WHEN p_result IS NULL OR p_result = 'adjudication_pending' THEN p_board = 'pending'
        WHEN p_result ~ '^white [a-z0-9_]+$' THEN p_board = 'white'
        WHEN p_result ~ '^black [a-z0-9_]+$' THEN p_board = 'black'
        WHEN p_result ~ '^draw [a-z0-9_]+$' THEN p_board = 'draw'
        ELSE false
    END) IS NOT TRUE THEN
        RAISE EXCEPTION 'game %: % is not a result a game gives (board %)', p_game,
            coalesce(p_result, 'undecided'), coalesce(p_board, 'none')
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_check_result(BIGINT, TEXT, TEXT) FROM PUBLIC;

-- The game's result as the desk's replay reached it, into the game and its board of the
-- round in the same transaction as the event or sheet that decided it; the round's last
-- result completes it (as the director's store does: games::settle, complete_if_done).
-- True when the round became complete.
CREATE FUNCTION public.ggdesk_station_settle(g public.games, p_station TEXT, p_result TEXT,
    p_board TEXT, p_at BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
    v_changed BIGINT;
    v_state TEXT;
BEGIN
    IF p_result IS NOT DISTINCT FROM g.result THEN
        RETURN false;
    END IF;
    UPDATE public.games SET result = p_result WHERE id = g.id;
    UPDATE public.pairings SET result = p_board
    WHERE tournament_id = g.tournament_id AND round = g.round AND table_no = g.table_no
      AND (g.white_no IS NULL OR white = g.white_no) AND (g.black_no IS NULL OR black = g.black_no)
      AND result <> p_board;
    GET DIAGNOSTICS v_changed = ROW_COUNT;
    IF v_changed = 0 THEN
        RETURN false;
    END IF;
    PERFORM public.ggdesk_station_audit(p_station, 'result from the arbiter desk', g.tournament_id,
        g.id, '', format('round %s, table %s: %s', g.round, g.table_no, p_board), p_at);
    SELECT r.state INTO v_state FROM public.rounds r
    WHERE r.tournament_id = g.tournament_id AND r.number = g.round FOR UPDATE;
    IF v_state <> 'published' OR EXISTS (
        SELECT 1 FROM public.pairings p
        WHERE p.tournament_id = g.tournament_id AND p.round = g.round AND p.result = 'pending') THEN
        RETURN false;
    END IF;
    UPDATE public.rounds SET state = 'complete', completed_at = p_at
    WHERE tournament_id = g.tournament_id AND number = g.round;
    PERFORM public.ggdesk_station_audit(p_station, 'round complete', g.tournament_id, NULL, '',
        format('round %s: every result is in', g.round), p_at);
    RETURN true;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_settle(public.games, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- A game for a board of the round in play at one of the station's tables: the players of
-- that board (in either colour: a series alternates them) with their registered ratings,
-- and only when no other game of that table in that round is in play.
CREATE FUNCTION public.ggdesk_station_create_game(p_tournament BIGINT, p_round BIGINT,
    p_table BIGINT, p_white BIGINT, p_black BIGINT, p_mode TEXT, p_first TEXT,
    p_white_rating DOUBLE PRECISION, p_black_rating DOUBLE PRECISION, p_rules TEXT,
    p_at BIGINT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    v_state TEXT;
    v_other BIGINT;
    v_rules JSONB;
    v_id BIGINT;
BEGIN
    IF NOT public.ggdesk_station_runs(v_station, p_table) THEN
        RAISE EXCEPTION 'table % is not a table of station %', coalesce(p_table::TEXT, 'none'),
            v_station USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT r.state INTO v_state FROM public.rounds r
    WHERE r.tournament_id = p_tournament AND r.number = p_round;
    IF v_state IS DISTINCT FROM 'published' THEN
        RAISE EXCEPTION 'round % of tournament % is not in play (%)', p_round, p_tournament,
            coalesce(v_state, 'not paired') USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The board, locked: two desks creating its game follow one another.
    PERFORM 1 FROM public.pairings p
    WHERE p.tournament_id = p_tournament AND p.round = p_round AND p.table_no = p_table
      AND ((p.white = p_white AND p.black = p_black) OR (p.white = p_black AND p.black = p_white))
    FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no board of round % at table % seats players % and %', p_round, p_table,
            coalesce(p_white::TEXT, 'none'), coalesce(p_black::TEXT, 'none')
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_white_rating IS DISTINCT FROM (
           SELECT rg.rating::DOUBLE PRECISION FROM public.registrations rg
           WHERE rg.tournament_id = p_tournament AND rg.player_no = p_white)
       OR p_black_rating IS DISTINCT FROM (
           SELECT rg.rating::DOUBLE PRECISION FROM public.registrations rg
           WHERE rg.tournament_id = p_tournament AND rg.player_no = p_black) THEN
        RAISE EXCEPTION 'the ratings of a game at table % must be the players'' registered ones',
            p_table USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT g.id INTO v_other FROM public.games g
    WHERE g.tournament_id = p_tournament AND g.round = p_round AND g.table_no = p_table
      AND g.void = 0 AND (g.result IS NULL OR g.result = 'adjudication_pending')
    LIMIT 1;
    IF v_other IS NOT NULL THEN
        RAISE EXCEPTION 'table % has a game in play already (game %)', p_table, v_other
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_mode IS NULL OR p_mode NOT IN ('arbitrated', 'physical')
       OR p_first IS NULL OR p_first NOT IN ('white', 'black') THEN
        RAISE EXCEPTION 'a game is arbitrated or physical, and white or black moves first'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    BEGIN
        v_rules := p_rules::JSONB;
    EXCEPTION WHEN others THEN
        v_rules := NULL;
    END;
    IF v_rules IS NULL OR jsonb_typeof(v_rules) <> 'object' THEN
        RAISE EXCEPTION 'the rules of a game must be a JSON object'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO public.games (tournament_id, round, table_no, white_no, black_no, mode, first,
                              white_rating, black_rating, rules, extra, created_at)
    VALUES (p_tournament, p_round, p_table, p_white, p_black, p_mode, p_first,
            p_white_rating, p_black_rating, p_rules, '{}', p_at)
    RETURNING id INTO v_id;
    PERFORM public.ggdesk_station_audit(v_station, 'game created', p_tournament, v_id, '',
        format('round %s, table %s, %s', p_round, p_table, p_mode), p_at);
    RETURN v_id;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_create_game(BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, BIGINT) FROM PUBLIC;

-- One side's setup as entered so far: until the game starts, never after.
CREATE FUNCTION public.ggdesk_station_setup(p_game BIGINT, p_side TEXT, p_setup TEXT, p_at BIGINT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    v_setup JSONB;
BEGIN
    IF g.started_at IS NOT NULL THEN
        RAISE EXCEPTION 'game % has started: its setups are fixed', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_side IS NULL OR p_side NOT IN ('white', 'black') THEN
        RAISE EXCEPTION 'a setup is white''s or black''s' USING ERRCODE = 'insufficient_privilege';
    END IF;
    BEGIN
        v_setup := p_setup::JSONB;
    EXCEPTION WHEN others THEN
        v_setup := NULL;
    END;
    IF v_setup IS NULL OR jsonb_typeof(v_setup) <> 'object' THEN
        RAISE EXCEPTION 'game %: a setup must be a JSON object of squares', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_side = 'white' THEN
        UPDATE public.games SET setup_white = p_setup WHERE id = p_game;
    ELSE
        UPDATE public.games SET setup_black = p_setup WHERE id = p_game;
    END IF;
    PERFORM public.ggdesk_station_audit(v_station, 'setup entered', g.tournament_id, p_game, '',
        format('%s: %s pieces placed', p_side,
               (SELECT count(*) FROM jsonb_object_keys(v_setup))), p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_setup(BIGINT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- Starts the clocks, once, with both setups in (a game on a physical board has none).
CREATE FUNCTION public.ggdesk_station_start(p_game BIGINT, p_started_at BIGINT, p_first TEXT,
    p_at BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    IF g.started_at IS NOT NULL THEN
        RAISE EXCEPTION 'game % has already started', p_game USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF g.mode = 'arbitrated' AND (g.setup_white IS NULL OR g.setup_black IS NULL) THEN
        RAISE EXCEPTION 'game %: both setups must be entered before the game starts', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_started_at IS NULL OR p_first IS NULL OR p_first NOT IN ('white', 'black') THEN
        RAISE EXCEPTION 'game %: a start needs its time and who moves first', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET started_at = p_started_at, first = p_first WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'game started', g.tournament_id, p_game, '',
        format('%s moves first', p_first), p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_start(BIGINT, BIGINT, TEXT, BIGINT) FROM PUBLIC;

-- One event of a game in play (an undo included), then the result it gives (see
-- ggdesk_station_settle). The event must be the next (else 40001: the desk reads the game
-- again), of a kind its game takes, its payload the JSON object the record writes for that
-- kind at its own `t`, never before the event in force before it and never after an `end`
-- in force; an undo must cancel the last event in force. The rules themselves are the
-- desk's rules engine's: it checked the event before sending it. True when the round
-- became complete.
CREATE FUNCTION public.ggdesk_station_event(p_game BIGINT, p_seq BIGINT, p_t DOUBLE PRECISION,
    p_kind TEXT, p_payload TEXT, p_token TEXT, p_reason TEXT, p_result TEXT, p_board TEXT,
    p_at BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    v_next BIGINT;
    v_payload JSONB;
    v_kinds TEXT[];
    v_seqs BIGINT[] := '{}';
    v_ts DOUBLE PRECISION[] := '{}';
    v_kinds_in_force TEXT[] := '{}';
    v_n INT;
    e RECORD;
BEGIN
    PERFORM public.ggdesk_station_in_play(g);
    SELECT coalesce(max(ev.seq) + 1, 0) INTO v_next FROM public.game_events ev
    WHERE ev.game_id = p_game;
    IF p_seq IS DISTINCT FROM v_next THEN
        RAISE EXCEPTION 'game % changed at another desk: its next event is %', p_game, v_next
            USING ERRCODE = 'serialization_failure';
    END IF;
    v_kinds := CASE g.mode
        WHEN 'physical' THEN ARRAY['move', 'challenge', 'penalty', 'resign', 'draw_for_respect',
            'pause', 'resume', 'thirty_count', 'perpetual', 'flag_through', 'end', 'undo']
        ELSE ARRAY['move', 'penalty', 'resign', 'draw_for_respect', 'pause', 'resume', 'end',
            'undo']
    END;
    IF p_kind IS NULL OR NOT (p_kind = ANY (v_kinds)) THEN
        RAISE EXCEPTION 'game %: % is not an event of a % game', p_game,
            coalesce(p_kind, 'NULL'), g.mode USING ERRCODE = 'insufficient_privilege';
    END IF;
    BEGIN
        v_payload := p_payload::JSONB;
    EXCEPTION WHEN others THEN
        v_payload := NULL;
    END;
    IF v_payload IS NULL OR jsonb_typeof(v_payload) <> 'object'
       OR jsonb_typeof(v_payload -> 't') IS DISTINCT FROM 'number'
       OR (v_payload ->> 't')::DOUBLE PRECISION IS DISTINCT FROM p_t
       OR NOT (v_payload ? p_kind)
       OR p_t < 0 OR p_t > 1125899906842624 THEN
        RAISE EXCEPTION 'game %: event % is not the JSON of a % event at its time', p_game,
            p_seq, p_kind USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The events in force: an undo cancels the last one still in force when it names it.
    FOR e IN SELECT ev.seq, ev.t, ev.kind, ev.payload FROM public.game_events ev
             WHERE ev.game_id = p_game ORDER BY ev.seq LOOP
        v_n := cardinality(v_seqs);
        IF e.kind = 'undo' THEN
            IF v_n > 0 AND v_seqs[v_n] = (e.payload::JSONB ->> 'undo')::BIGINT THEN
                v_seqs := v_seqs[1:v_n - 1];
                v_ts := v_ts[1:v_n - 1];
                v_kinds_in_force := v_kinds_in_force[1:v_n - 1];
            END IF;
        ELSE
            v_seqs := v_seqs || e.seq;
            v_ts := v_ts || e.t;
            v_kinds_in_force := v_kinds_in_force || e.kind;
        END IF;
    END LOOP;
    v_n := cardinality(v_seqs);
    IF p_kind = 'undo' THEN
        IF v_n = 0 OR jsonb_typeof(v_payload -> 'undo') IS DISTINCT FROM 'number'
           OR (v_payload ->> 'undo') IS DISTINCT FROM v_seqs[v_n]::TEXT THEN
            RAISE EXCEPTION 'game %: an undo cancels the last event in force (%)', p_game,
                coalesce(v_seqs[v_n]::TEXT, 'none') USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSE
        IF v_n > 0 AND v_kinds_in_force[v_n] = 'end' THEN
            RAISE EXCEPTION 'game %: nothing may follow "end" (event %)', p_game, v_seqs[v_n]
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF v_n > 0 AND p_t < v_ts[v_n] THEN
            RAISE EXCEPTION 'game %: event % at t = % is before the event in force before it',
                p_game, p_seq, p_t USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    PERFORM public.ggdesk_station_check_result(p_game, p_result, p_board);
    INSERT INTO public.game_events (game_id, seq, t, kind, payload, wall_time, token)
    VALUES (p_game, p_seq, p_t, p_kind, p_payload, p_at, p_token);
    PERFORM public.ggdesk_station_audit(v_station, p_kind, g.tournament_id, p_game, p_reason,
        p_payload, p_at);
    RETURN public.ggdesk_station_settle(g, v_station, p_result, p_board, p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_event(BIGINT, BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- One side's reading sheet, as entered so far or handed in, while the game waits for its
-- adjudication; then the result it gives. True when the round became complete.
CREATE FUNCTION public.ggdesk_station_sheet(p_game BIGINT, p_side TEXT, p_sheet TEXT,
    p_complete BIGINT, p_result TEXT, p_board TEXT, p_at BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    v_sheet JSONB;
BEGIN
    IF g.result IS DISTINCT FROM 'adjudication_pending' THEN
        RAISE EXCEPTION 'game % is not waiting for an adjudication', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_side IS NULL OR p_side NOT IN ('white', 'black') OR p_complete IS NULL
       OR p_complete NOT IN (0, 1) THEN
        RAISE EXCEPTION 'game %: a sheet is white''s or black''s, handed in or not', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    BEGIN
        v_sheet := p_sheet::JSONB;
    EXCEPTION WHEN others THEN
        v_sheet := NULL;
    END;
    IF v_sheet IS NULL OR jsonb_typeof(v_sheet) NOT IN ('object', 'array') THEN
        RAISE EXCEPTION 'game %: a reading sheet must be JSON', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM public.ggdesk_station_check_result(p_game, p_result, p_board);
    INSERT INTO public.adjudication_sheets (game_id, side, sheet, complete, entered_at)
    VALUES (p_game, p_side, p_sheet, p_complete, p_at)
    ON CONFLICT (game_id, side) DO UPDATE SET sheet = excluded.sheet,
        complete = excluded.complete, entered_at = excluded.entered_at;
    IF p_complete = 1 THEN
        PERFORM public.ggdesk_station_audit(v_station, 'reading sheet handed in', g.tournament_id,
            p_game, '', format('%s: %s', p_side, p_sheet), p_at);
    END IF;
    RETURN public.ggdesk_station_settle(g, v_station, p_result, p_board, p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_sheet(BIGINT, TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- The last t at which the station's desk saw a running game's clocks (its heartbeat).
CREATE FUNCTION public.ggdesk_station_clock_seen(p_game BIGINT, p_t DOUBLE PRECISION)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    PERFORM public.ggdesk_station_in_play(g);
    IF p_t IS NULL OR NOT (p_t >= 0 AND p_t <= 1125899906842624) THEN
        RAISE EXCEPTION 'game %: the clocks cannot have been seen at t = %', p_game, p_t
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET clock_seen_t = p_t WHERE id = p_game;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_clock_seen(BIGINT, DOUBLE PRECISION) FROM PUBLIC;

-- The arbiter confirms the result the rules reached: an audit row only, also once the
-- result completed the round.
CREATE FUNCTION public.ggdesk_station_confirm(p_game BIGINT, p_at BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, true);
BEGIN
    IF g.result IS NULL OR g.result = 'adjudication_pending' THEN
        RAISE EXCEPTION 'game % has no result to confirm', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM public.ggdesk_station_audit(v_station, 'result confirmed', g.tournament_id, p_game, '',
        g.result, p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_confirm(BIGINT, BIGINT) FROM PUBLIC;

-- The setup timer's start, once, before the game starts; its start.
CREATE FUNCTION public.ggdesk_station_setup_timer(p_game BIGINT, p_at BIGINT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    IF g.setup_started_at IS NOT NULL THEN
        RETURN g.setup_started_at;
    END IF;
    IF g.started_at IS NOT NULL OR p_at IS NULL THEN
        RAISE EXCEPTION 'game % is past its setups: no setup timer', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET setup_started_at = p_at WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'setup timer started', g.tournament_id, p_game,
        '', '', p_at);
    RETURN p_at;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_setup_timer(BIGINT, BIGINT) FROM PUBLIC;

-- The arbiter's ruling after setup time ran out, once, with a reason, before the start.
CREATE FUNCTION public.ggdesk_station_setup_ruling(p_game BIGINT, p_at BIGINT, p_reason TEXT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    IF g.started_at IS NOT NULL OR g.setup_overrun_at IS NOT NULL OR g.setup_started_at IS NULL
       OR p_at IS NULL OR coalesce(btrim(p_reason), '') = '' THEN
        RAISE EXCEPTION 'game %: a ruling on the setup time is recorded once, with a reason, after the setup timer started and before the game starts', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET setup_overrun_at = p_at WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'setup time exceeded', g.tournament_id, p_game,
        p_reason, format('ruling %s s after the setup timer started',
                         (p_at - g.setup_started_at) / 1000), p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_setup_ruling(BIGINT, BIGINT, TEXT) FROM PUBLIC;

-- The reading timer's start, once, while the game waits for its adjudication; its start.
CREATE FUNCTION public.ggdesk_station_reading_timer(p_game BIGINT, p_at BIGINT) RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    IF g.reading_started_at IS NOT NULL THEN
        RETURN g.reading_started_at;
    END IF;
    IF g.result IS DISTINCT FROM 'adjudication_pending' OR p_at IS NULL THEN
        RAISE EXCEPTION 'game % is not waiting for an adjudication', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET reading_started_at = p_at WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'reading timer started', g.tournament_id,
        p_game, '', '', p_at);
    RETURN p_at;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_reading_timer(BIGINT, BIGINT) FROM PUBLIC;

-- The lots drawn for the first move, once, before the clocks start.
CREATE FUNCTION public.ggdesk_station_lots(p_game BIGINT, p_first TEXT, p_at BIGINT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
BEGIN
    IF g.started_at IS NOT NULL OR g.lots_drawn_at IS NOT NULL OR p_at IS NULL
       OR p_first IS NULL OR p_first NOT IN ('white', 'black') THEN
        RAISE EXCEPTION 'game %: lots are drawn once, before the clocks start', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET first = p_first, lots_drawn_at = p_at WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'lots drawn', g.tournament_id, p_game, '',
        format('%s moves first', p_first), p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_lots(BIGINT, TEXT, BIGINT) FROM PUBLIC;

-- The stations of migration 2 get the privileges of this migration, and nothing more.
DO $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN SELECT s.role FROM public.stations s
             WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = s.role) LOOP
        PERFORM public.ggdesk_station_grants(r.role);
    END LOOP;
END
$$;
