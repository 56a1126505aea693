-- ggdesk database schema for PostgreSQL, migration 5 (as SQLite's migration 5): the rating
-- list (spec/ratings.md): which tournaments are rated and on which date, first ratings from
-- an initial list, and the list itself with each player's history, a cache recomputed from
-- the rated events.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- A completed tournament marked rated by the director: the date of its last day of play
-- (YYYY-MM-DD; NULL: not rated), and when it was marked (Unix ms). Columns of the
-- tournament itself, so that whoever may read a tournament (a station entering a result)
-- can tell whether it is rated.
ALTER TABLE tournaments ADD COLUMN rated_date TEXT CHECK (rated_date IS NULL OR length(rated_date) = 10);
ALTER TABLE tournaments ADD COLUMN rated_at BIGINT;

-- A registry player's first rating (an initial list's rating, deviation, volatility).
CREATE TABLE rating_initial (
    player_id  BIGINT PRIMARY KEY REFERENCES players (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL CHECK (deviation > 0 AND deviation <= 350),
    volatility DOUBLE PRECISION NOT NULL CHECK (volatility > 0 AND volatility < 1)
);

-- What each rated event was for each player of its rating period (a cache: recomputed from
-- the rated events, never edited by hand). `score` in half-points.
CREATE TABLE rating_history (
    tournament_id     BIGINT NOT NULL REFERENCES tournaments (id),
    player_id         BIGINT NOT NULL REFERENCES players (id),
    name              TEXT    NOT NULL,
    before_rating     DOUBLE PRECISION NOT NULL,
    before_deviation  DOUBLE PRECISION NOT NULL,
    before_volatility DOUBLE PRECISION NOT NULL,
    after_rating      DOUBLE PRECISION NOT NULL,
    after_deviation   DOUBLE PRECISION NOT NULL,
    after_volatility  DOUBLE PRECISION NOT NULL,
    games             BIGINT NOT NULL CHECK (games > 0),
    score             BIGINT NOT NULL CHECK (score >= 0),
    expected          DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id);

-- The list (a cache of the rated events): one row per rated registry player, with the name
-- of their latest rated event; `last_event` NULL for an initial entry without a game.
CREATE TABLE rating_list (
    player_id  BIGINT PRIMARY KEY REFERENCES players (id),
    name       TEXT    NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 0),
    events     BIGINT NOT NULL CHECK (events >= 0),
    last_event TEXT
);

-- What the public pages may read of the list and the histories: names, federation ids (the
-- list's key, printed on it as on any federation's list) and numbers, nothing else. Ranked
-- as `ggdesk ratings` ranks (highest rating, then federation id in byte order). The views
-- are named alike in schema public (the director's desk) and in ggdesk_public (the public
-- role's only schema, migration 4).
CREATE VIEW public_rating_list AS
    SELECT ROW_NUMBER() OVER (ORDER BY l.rating DESC, p.federation_id COLLATE "C") AS rank,
           p.federation_id, l.name, l.rating, l.deviation, l.volatility, l.games, l.events,
           l.last_event
    FROM rating_list l JOIN players p ON p.id = l.player_id;

CREATE VIEW public_rating_history AS
    SELECT p.federation_id, h.tournament_id, t.name AS event, t.rated_date AS date, h.name,
           h.before_rating, h.before_deviation, h.after_rating, h.after_deviation, h.games,
           h.score AS score_halves, h.expected
    FROM rating_history h
    JOIN players p ON p.id = h.player_id
    JOIN tournaments t ON t.id = h.tournament_id;

CREATE VIEW ggdesk_public.public_rating_list AS
    SELECT rank, federation_id, name, rating, deviation, volatility, games, events, last_event
    FROM public.public_rating_list;
CREATE VIEW ggdesk_public.public_rating_history AS
    SELECT federation_id, tournament_id, event, date, name, before_rating, before_deviation,
           after_rating, after_deviation, games, score_halves, expected
    FROM public.public_rating_history;

-- What an arbiter station reads (migration 4): the tournaments' new columns (whether an
-- event is rated) and the rating tables, which hold nothing secret (the station's views of
-- players carry no federation id).
CREATE OR REPLACE VIEW ggdesk_station.tournaments AS
    SELECT id, name, system, rounds, win_points, draw_points, loss_points, bye_points,
           forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules,
           setup_s, reading_s, grace_s, extra, created_at, dates, venue, organiser,
           chief_arbiter, rated_date, rated_at
    FROM public.tournaments;
CREATE VIEW ggdesk_station.rating_initial AS
    SELECT player_id, rating, deviation, volatility FROM public.rating_initial;
CREATE VIEW ggdesk_station.rating_history AS
    SELECT tournament_id, player_id, name, before_rating, before_deviation, before_volatility,
           after_rating, after_deviation, after_volatility, games, score, expected
    FROM public.rating_history;
CREATE VIEW ggdesk_station.rating_list AS
    SELECT player_id, name, rating, deviation, volatility, games, events, last_event
    FROM public.rating_list;

-- Stations made before this migration read the new views too (a station made later gets
-- them from ggdesk_station_grants); the public role is granted its schema's views again
-- each time the public pages connect.
DO $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN SELECT role FROM public.stations LOOP
        EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA ggdesk_station TO %I', r.role);
    END LOOP;
END
$$;
