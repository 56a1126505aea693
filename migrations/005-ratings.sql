-- ggdesk database schema, migration 5 (the rating list, spec/ratings.md): which tournaments
-- are rated and on which date, first ratings from an initial list, and the list itself with
-- each player's history, a cache recomputed from the rated events.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- A completed tournament marked rated by the director: the date of its last day of play
-- (YYYY-MM-DD; NULL: not rated), and when it was marked (Unix ms). Columns of the
-- tournament itself, so that whoever may read a tournament (a station entering a result)
-- can tell whether it is rated.
ALTER TABLE tournaments ADD COLUMN rated_date TEXT CHECK (rated_date IS NULL OR length(rated_date) = 10);
ALTER TABLE tournaments ADD COLUMN rated_at INTEGER;

-- A registry player's first rating (an initial list's rating, deviation, volatility).
CREATE TABLE rating_initial (
    player_id  INTEGER PRIMARY KEY REFERENCES players (id),
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation > 0 AND deviation <= 350),
    volatility REAL    NOT NULL CHECK (volatility > 0 AND volatility < 1)
);

-- What each rated event was for each player of its rating period (a cache: recomputed from
-- the rated events, never edited by hand). `score` in half-points.
CREATE TABLE rating_history (
    tournament_id     INTEGER NOT NULL REFERENCES tournaments (id),
    player_id         INTEGER NOT NULL REFERENCES players (id),
    name              TEXT    NOT NULL,
    before_rating     REAL    NOT NULL,
    before_deviation  REAL    NOT NULL,
    before_volatility REAL    NOT NULL,
    after_rating      REAL    NOT NULL,
    after_deviation   REAL    NOT NULL,
    after_volatility  REAL    NOT NULL,
    games             INTEGER NOT NULL CHECK (games > 0),
    score             INTEGER NOT NULL CHECK (score >= 0),
    expected          REAL    NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id);

-- The list (a cache of the rated events): one row per rated registry player, with the name
-- of their latest rated event; `last_event` NULL for an initial entry without a game.
CREATE TABLE rating_list (
    player_id  INTEGER PRIMARY KEY REFERENCES players (id),
    name       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    events     INTEGER NOT NULL CHECK (events >= 0),
    last_event TEXT
);

-- What the public pages may read of the list and the histories: names, federation ids and
-- numbers, nothing else. Ranked as `ggdesk ratings` ranks (highest rating, then federation
-- id in byte order).
CREATE VIEW public_rating_list AS
    SELECT ROW_NUMBER() OVER (ORDER BY l.rating DESC, p.federation_id) AS rank,
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
