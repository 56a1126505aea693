-- ggdesk migration 7 (PostgreSQL): an arbiter station's audit says what the director's desk
-- says (issue 23).
--
-- Migration 4's station functions wrote a correction of the last move as one audit line per
-- entry (the raw undo JSON among them) and a clock start without how the first mover was
-- decided. From this migration on:
--
-- * `ggdesk_station_correct` writes a correction of the last move (the undo of the move and
--   of the pauses and resumes after it, the right move at the cancelled move's own time,
--   those pauses and resumes again at theirs) in one call, and ONE audit line, "move
--   corrected", whose details are the director's desk's (the move cancelled, its sequence
--   number, the move entered, when the correction was entered), checked against the entries
--   it writes. Each entry passes the checks of any event (`ggdesk_station_put`, shared with
--   `ggdesk_station_event`, so they stay in one place).
-- * `ggdesk_station_event` no longer takes what only a correction writes: an undo stamped
--   before an entry already in the log, or an event the arbiter enters (not a pause, resume
--   or end, which a restore writes at the time the clocks were last seen) before an undo in
--   the log. A move replaced at its own time therefore goes through `ggdesk_station_correct`
--   and its audit line, or not at all. Its undo's audit details name the event cancelled as
--   the director's desk does (`cancelled event N: {...}`).
-- * `ggdesk_station_start` takes how the first mover was decided (`lot` or `arbiter`),
--   checked against the lots drawn (by lot: lots were drawn and gave this side), and writes
--   "white moves first (by lot)" or "(chosen by the arbiter)" as the director's desk does.
--   Migration 4's start without it is dropped, with its grants: no station can start a game
--   without saying how.
-- * The stations made before this migration get the new functions' grants through
--   `ggdesk_station_grants`, as a station made after it does.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- ---------------------------------------------------------------------------------------
-- Helpers (no login may call them itself).
-- ---------------------------------------------------------------------------------------

-- A game's log as its entries in force (an undo cancels the last one still in force when it
-- names it), with the latest `t` of any entry and of any undo.
CREATE FUNCTION public.ggdesk_station_in_force(p_game BIGINT, OUT seqs BIGINT[],
    OUT ts DOUBLE PRECISION[], OUT kinds TEXT[], OUT payloads TEXT[],
    OUT last_t DOUBLE PRECISION, OUT last_undo_t DOUBLE PRECISION)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public AS $$
DECLARE
    e RECORD;
    v_n INT;
BEGIN
    seqs := '{}';
    ts := '{}';
    kinds := '{}';
    payloads := '{}';
    FOR e IN SELECT ev.seq, ev.t, ev.kind, ev.payload FROM public.game_events ev
             WHERE ev.game_id = p_game ORDER BY ev.seq LOOP
        last_t := greatest(last_t, e.t);
        v_n := cardinality(seqs);
        IF e.kind = 'undo' THEN
            last_undo_t := greatest(last_undo_t, e.t);
            IF v_n > 0 AND seqs[v_n] = (e.payload::JSONB ->> 'undo')::BIGINT THEN
                seqs := seqs[1:v_n - 1];
                ts := ts[1:v_n - 1];
                kinds := kinds[1:v_n - 1];
                payloads := payloads[1:v_n - 1];
            END IF;
        ELSE
            seqs := seqs || e.seq;
            ts := ts || e.t;
            kinds := kinds || e.kind;
            payloads := payloads || e.payload;
        END IF;
    END LOOP;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_in_force(BIGINT) FROM PUBLIC;

-- One entry of a game in play (checked, locked and in play by the caller) written after the
-- checks of migration 4's event function: the next `seq` (else 40001), a kind its game
-- takes, the JSON object of that kind at its own `t`, an undo only of the last event in
-- force and never stamped before an entry of the log, nothing after an `end` in force,
-- nothing before the event in force before it; and, unless `p_replacing` (the move a
-- correction enters at the cancelled move's time), an event the arbiter enters not before
-- an undo of the log. Returns the audit details the director's desk writes for it.
CREATE FUNCTION public.ggdesk_station_put(g public.games, p_seq BIGINT, p_t DOUBLE PRECISION,
    p_kind TEXT, p_payload TEXT, p_token TEXT, p_at BIGINT, p_replacing BOOLEAN)
RETURNS TEXT
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
    v_next BIGINT;
    v_payload JSONB;
    v_kinds TEXT[];
    f RECORD;
    v_n INT;
    v_details TEXT := p_payload;
BEGIN
    SELECT coalesce(max(ev.seq) + 1, 0) INTO v_next FROM public.game_events ev
    WHERE ev.game_id = g.id;
    IF p_seq IS DISTINCT FROM v_next THEN
        RAISE EXCEPTION 'game % changed at another desk: its next event is %', g.id, v_next
            USING ERRCODE = 'serialization_failure';
    END IF;
    v_kinds := CASE g.mode
        WHEN 'physical' THEN ARRAY['move', 'challenge', 'penalty', 'resign', 'draw_for_respect',
            'pause', 'resume', 'thirty_count', 'perpetual', 'flag_through', 'end', 'undo']
        ELSE ARRAY['move', 'penalty', 'resign', 'draw_for_respect', 'pause', 'resume', 'end',
            'undo']
    END;
    IF p_kind IS NULL OR NOT (p_kind = ANY (v_kinds)) THEN
        RAISE EXCEPTION 'game %: % is not an event of a % game', g.id,
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
        RAISE EXCEPTION 'game %: event % is not the JSON of a % event at its time', g.id,
            p_seq, p_kind USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT * INTO f FROM public.ggdesk_station_in_force(g.id);
    v_n := cardinality(f.seqs);
    IF p_kind = 'undo' THEN
        IF v_n = 0 OR jsonb_typeof(v_payload -> 'undo') IS DISTINCT FROM 'number'
           OR (v_payload ->> 'undo') IS DISTINCT FROM f.seqs[v_n]::TEXT THEN
            RAISE EXCEPTION 'game %: an undo cancels the last event in force (%)', g.id,
                coalesce(f.seqs[v_n]::TEXT, 'none') USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF p_t < f.last_t THEN
            RAISE EXCEPTION 'game %: an undo is entered when it is made: t = % is before t = %, the latest entry of the log',
                g.id, p_t, f.last_t USING ERRCODE = 'insufficient_privilege';
        END IF;
        v_details := format('cancelled event %s: %s', f.seqs[v_n], f.payloads[v_n]);
    ELSE
        IF v_n > 0 AND f.kinds[v_n] = 'end' THEN
            RAISE EXCEPTION 'game %: nothing may follow "end" (event %)', g.id, f.seqs[v_n]
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF v_n > 0 AND p_t < f.ts[v_n] THEN
            RAISE EXCEPTION 'game %: event % at t = % is before the event in force before it',
                g.id, p_seq, p_t USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NOT p_replacing AND p_kind NOT IN ('pause', 'resume', 'end')
           AND p_t < f.last_undo_t THEN
            RAISE EXCEPTION 'game %: % at t = % is before an undo at t = %: a move replaced at its own time is a correction (ggdesk_station_correct)',
                g.id, p_kind, p_t, f.last_undo_t USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    INSERT INTO public.game_events (game_id, seq, t, kind, payload, wall_time, token)
    VALUES (g.id, p_seq, p_t, p_kind, p_payload, p_at, p_token);
    RETURN v_details;
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_put(public.games, BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, BIGINT, BOOLEAN) FROM PUBLIC;

-- ---------------------------------------------------------------------------------------
-- The station functions that change.
-- ---------------------------------------------------------------------------------------

-- One event of a game in play (an undo included), then the result it gives (see
-- ggdesk_station_settle): the checks of ggdesk_station_put, one audit line in the director's
-- desk's words. True when the round became complete.
CREATE OR REPLACE FUNCTION public.ggdesk_station_event(p_game BIGINT, p_seq BIGINT,
    p_t DOUBLE PRECISION, p_kind TEXT, p_payload TEXT, p_token TEXT, p_reason TEXT,
    p_result TEXT, p_board TEXT, p_at BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    v_details TEXT;
BEGIN
    PERFORM public.ggdesk_station_in_play(g);
    PERFORM public.ggdesk_station_check_result(p_game, p_result, p_board);
    v_details := public.ggdesk_station_put(g, p_seq, p_t, p_kind, p_payload, p_token, p_at,
        false);
    PERFORM public.ggdesk_station_audit(v_station, p_kind, g.tournament_id, p_game, p_reason,
        v_details, p_at);
    RETURN public.ggdesk_station_settle(g, v_station, p_result, p_board, p_at);
END
$$;

-- The last move in force corrected at its time, with a reason: `p_entries` is the JSON array
-- of the entries the desk's core wrote for it (`LoggedGame::correction`: each `{"seq",
-- "t", "kind", "payload"}`, the payload as stored), which must be exactly: the undos of the
-- pauses and resumes after the move, latest first, then of the move, all at the time of the
-- correction; the right move at the cancelled move's own time; those pauses and resumes
-- again at their own times. Each is written through ggdesk_station_put (the checks of any
-- event; the token with the first), then ONE audit line "move corrected" whose details
-- (`p_details`, as the director's desk writes them) must name the move cancelled, its
-- sequence number, the time of the correction and the move entered, as written; then the
-- result it gives. True when the round became complete.
CREATE FUNCTION public.ggdesk_station_correct(p_game BIGINT, p_entries TEXT, p_token TEXT,
    p_reason TEXT, p_details TEXT, p_result TEXT, p_board TEXT, p_at BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    f RECORD;
    v_entries JSONB;
    v_details JSONB;
    v_n INT;
    v_k INT;
    v_m INT;
    v_at DOUBLE PRECISION;
    v_t DOUBLE PRECISION;
    v_kind TEXT;
    v_ok BOOLEAN;
    v_replacement TEXT;
    e JSONB;
    j INT;
BEGIN
    PERFORM public.ggdesk_station_in_play(g);
    IF coalesce(btrim(p_reason), '') = '' THEN
        RAISE EXCEPTION 'game %: a correction needs a reason', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM public.ggdesk_station_check_result(p_game, p_result, p_board);
    BEGIN
        v_entries := p_entries::JSONB;
    EXCEPTION WHEN others THEN
        v_entries := NULL;
    END;
    BEGIN
        v_details := p_details::JSONB;
    EXCEPTION WHEN others THEN
        v_details := NULL;
    END;
    IF v_entries IS NULL OR jsonb_typeof(v_entries) <> 'array' THEN
        RAISE EXCEPTION 'game %: a correction is the JSON array of its entries', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The move corrected (a physical board's move with a challenge is a `challenge`): the last
    -- in force, followed only by pauses and resumes.
    SELECT * INTO f FROM public.ggdesk_station_in_force(p_game);
    v_n := cardinality(f.seqs);
    FOR j IN REVERSE v_n..1 LOOP
        IF f.kinds[j] IN ('move', 'challenge') THEN
            v_k := j;
            EXIT;
        END IF;
        IF f.kinds[j] NOT IN ('pause', 'resume') THEN
            RAISE EXCEPTION 'game %: event % (%) came after the last move: only the last move can be corrected',
                p_game, f.seqs[j], f.kinds[j] USING ERRCODE = 'insufficient_privilege';
        END IF;
    END LOOP;
    IF v_k IS NULL THEN
        RAISE EXCEPTION 'game %: there is no move to correct', p_game
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The entries to undo (the move and what followed it), then as many to enter.
    v_m := v_n - v_k + 1;
    IF jsonb_array_length(v_entries) <> 2 * v_m THEN
        RAISE EXCEPTION 'game %: a correction of event % has % entries (the undos, the move, the pauses and resumes again), not %',
            p_game, f.seqs[v_k], 2 * v_m, jsonb_array_length(v_entries)
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOR j IN 0..2 * v_m - 1 LOOP
        e := v_entries -> j;
        v_ok := jsonb_typeof(e) = 'object'
            AND jsonb_typeof(e -> 'seq') = 'number' AND (e ->> 'seq') ~ '^[0-9]{1,18}$'
            AND jsonb_typeof(e -> 't') = 'number'
            AND jsonb_typeof(e -> 'kind') = 'string' AND jsonb_typeof(e -> 'payload') = 'string';
        IF v_ok THEN
            v_ok := (e -> 't')::NUMERIC BETWEEN 0 AND 1125899906842624;
        END IF;
        IF v_ok THEN
            v_t := (e ->> 't')::DOUBLE PRECISION;
            v_kind := e ->> 'kind';
            IF j = 0 THEN
                v_at := v_t;
            END IF;
            BEGIN
                v_ok := CASE
                    WHEN j < v_m THEN v_kind = 'undo' AND v_t = v_at
                    WHEN j = v_m THEN v_kind IN ('move', 'challenge') AND v_t = f.ts[v_k]
                    ELSE v_kind = f.kinds[v_k + j - v_m] AND v_t = f.ts[v_k + j - v_m]
                         AND (e ->> 'payload')::JSONB = f.payloads[v_k + j - v_m]::JSONB
                END;
            EXCEPTION WHEN others THEN
                v_ok := false;
            END;
        END IF;
        IF NOT v_ok THEN
            RAISE EXCEPTION 'game %: entry % of the correction is not what a correction of event % writes',
                p_game, j + 1, f.seqs[v_k] USING ERRCODE = 'insufficient_privilege';
        END IF;
        PERFORM public.ggdesk_station_put(g, (e ->> 'seq')::BIGINT, v_t, v_kind,
            e ->> 'payload', CASE WHEN j = 0 THEN p_token END, p_at, j = v_m);
        IF j = v_m THEN
            v_replacement := e ->> 'payload';
        END IF;
    END LOOP;
    IF v_details IS NULL OR v_details IS DISTINCT FROM jsonb_build_object(
           'cancelled', f.payloads[v_k]::JSONB, 'cancelled_seq', f.seqs[v_k],
           'corrected_at', v_at, 'entered', v_replacement::JSONB) THEN
        RAISE EXCEPTION 'game %: the details of a correction name the move cancelled (event %), when it was corrected and the move entered, as written',
            p_game, f.seqs[v_k] USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM public.ggdesk_station_audit(v_station, 'move corrected', g.tournament_id, p_game,
        p_reason, p_details, p_at);
    RETURN public.ggdesk_station_settle(g, v_station, p_result, p_board, p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_correct(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- Starts the clocks, once, with both setups in (a game on a physical board has none), saying
-- how the first mover was decided: `lot` when the lots drawn gave this side, else `arbiter`.
DROP FUNCTION public.ggdesk_station_start(BIGINT, BIGINT, TEXT, BIGINT);
CREATE FUNCTION public.ggdesk_station_start(p_game BIGINT, p_started_at BIGINT, p_first TEXT,
    p_how TEXT, p_at BIGINT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_station TEXT := public.ggdesk_station_session();
    g public.games := public.ggdesk_station_game(p_game, v_station, false);
    v_lot BOOLEAN;
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
    v_lot := g.lots_drawn_at IS NOT NULL AND g.first = p_first;
    IF p_how IS NULL OR p_how NOT IN ('lot', 'arbiter') THEN
        RAISE EXCEPTION 'game %: a start says how the first mover was decided (lot or arbiter)',
            p_game USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_how = 'lot' AND NOT v_lot THEN
        RAISE EXCEPTION 'game %: no lot drawn gave % the first move', p_game, p_first
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_how = 'arbiter' AND v_lot THEN
        RAISE EXCEPTION 'game %: the lots drawn gave % the first move: the start is by lot',
            p_game, p_first USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE public.games SET started_at = p_started_at, first = p_first WHERE id = p_game;
    PERFORM public.ggdesk_station_audit(v_station, 'game started', g.tournament_id, p_game, '',
        format('%s moves first (%s)', p_first,
               CASE WHEN v_lot THEN 'by lot' ELSE 'chosen by the arbiter' END), p_at);
END
$$;
REVOKE EXECUTE ON FUNCTION public.ggdesk_station_start(BIGINT, BIGINT, TEXT, TEXT, BIGINT) FROM PUBLIC;

-- The station functions a station's login may call, as migration 4 listed them with the
-- start's new signature and the correction.
CREATE OR REPLACE FUNCTION public.ggdesk_station_functions() RETURNS TEXT[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public AS $$
    SELECT ARRAY[
        'public.ggdesk_station_create_game(BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT, TEXT, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, BIGINT)',
        'public.ggdesk_station_setup(BIGINT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_start(BIGINT, BIGINT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_event(BIGINT, BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_correct(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_sheet(BIGINT, TEXT, TEXT, BIGINT, TEXT, TEXT, BIGINT)',
        'public.ggdesk_station_clock_seen(BIGINT, DOUBLE PRECISION)',
        'public.ggdesk_station_confirm(BIGINT, BIGINT)',
        'public.ggdesk_station_setup_timer(BIGINT, BIGINT)',
        'public.ggdesk_station_setup_ruling(BIGINT, BIGINT, TEXT)',
        'public.ggdesk_station_reading_timer(BIGINT, BIGINT)',
        'public.ggdesk_station_lots(BIGINT, TEXT, BIGINT)'
    ]
$$;

-- The stations made before this migration get the new functions, as a station made after it.
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
