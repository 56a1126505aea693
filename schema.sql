-- ggdesk database schema, migration 1 (PRAGMA user_version = 1).
--
-- Applied once, in one transaction, to a new database. Never edit it once released: later
-- changes are new numbered migrations in src/store/migrations/. Plain SQL that a server
-- database would also take, so a multi-desk server can be added later.
--
-- Times are Unix milliseconds (INTEGER) unless named `t`: a game event's `t` is seconds
-- since the game started, as the record format writes it.
-- Scores and points are integer half-points.

-- The players registry, shared by all tournaments.
CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL CHECK (length(name) > 0),
    federation_id TEXT    NOT NULL DEFAULT '',
    club          TEXT    NOT NULL DEFAULT '',
    rating        INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'banned')),
    created_at    INTEGER NOT NULL
);
CREATE INDEX players_name ON players (name);
CREATE INDEX players_federation_id ON players (federation_id);

-- A ban (collusion): the player cannot be registered or paired again while it stands.
CREATE TABLE bans (
    id            INTEGER PRIMARY KEY,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    tournament_id INTEGER REFERENCES tournaments (id),
    reason        TEXT    NOT NULL CHECK (length(reason) > 0),
    banned_at     INTEGER NOT NULL,
    lifted_at     INTEGER,
    lift_reason   TEXT
);
CREATE INDEX bans_player ON bans (player_id);

-- A tournament with its settings (spec/tournament.md) and the GGF rule settings of its games.
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL CHECK (length(name) > 0),
    system        TEXT    NOT NULL CHECK (system IN ('swiss', 'round_robin')),
    rounds        INTEGER CHECK (rounds IS NULL OR rounds > 0),
    -- points of each outcome, in half-points
    win_points          INTEGER NOT NULL DEFAULT 4,
    draw_points         INTEGER NOT NULL DEFAULT 2,
    loss_points         INTEGER NOT NULL DEFAULT 0,
    bye_points          INTEGER NOT NULL DEFAULT 4,
    forfeit_win_points  INTEGER NOT NULL DEFAULT 4,
    forfeit_loss_points INTEGER NOT NULL DEFAULT 0,
    absent_points       INTEGER NOT NULL DEFAULT 0,
    -- tie-break codes in order, comma separated (e.g. 'direct_encounter,buchholz')
    tiebreaks     TEXT    NOT NULL,
    -- GGF rule settings (the record's "rules" object, as JSON)
    rules         TEXT    NOT NULL,
    -- keys of the tournament file this desk does not use, kept for export (JSON object)
    extra         TEXT    NOT NULL DEFAULT '{}',
    created_at    INTEGER NOT NULL
);

-- Pairs of tournament players who must never be paired (relatives, teammates).
CREATE TABLE forbidden_pairs (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a      INTEGER NOT NULL,
    player_b      INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_a, player_b),
    CHECK (player_a < player_b)
);

-- A player in a tournament. `player_no` is the id the tournament file and the pairing use;
-- name, rating and club are as they stood for this tournament.
CREATE TABLE registrations (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_no     INTEGER NOT NULL CHECK (player_no > 0),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    name          TEXT    NOT NULL,
    rating        INTEGER NOT NULL DEFAULT 0,
    club          TEXT    NOT NULL DEFAULT '',
    federation_id TEXT    NOT NULL DEFAULT '',
    -- the first round the player can be paired in (a late entry is absent before it)
    entry_round   INTEGER NOT NULL DEFAULT 1 CHECK (entry_round > 0),
    withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    extra         TEXT    NOT NULL DEFAULT '{}',
    registered_at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_no),
    UNIQUE (tournament_id, player_id)
);

-- A round: drafted (proposed pairing), published (being played), complete.
CREATE TABLE rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL CHECK (number > 0),
    state          TEXT    NOT NULL CHECK (state IN ('draft', 'published', 'complete')),
    -- official start (Unix ms), from which the grace period runs
    starts_at      INTEGER,
    published_at   INTEGER,
    PRIMARY KEY (tournament_id, number)
);

-- The boards of a round and their results (spec/tournament.md result codes).
CREATE TABLE pairings (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL CHECK (table_no > 0),
    white         INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    result        TEXT    NOT NULL DEFAULT 'pending' CHECK (result IN
                  ('white', 'black', 'draw', 'white_forfeit', 'black_forfeit',
                   'double_forfeit', 'pending')),
    -- the explanation the pairing gave for this board
    explanation   TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, white) REFERENCES registrations (tournament_id, player_no),
    FOREIGN KEY (tournament_id, black) REFERENCES registrations (tournament_id, player_no),
    CHECK (white <> black)
);

-- Byes given by the pairing, and absences (requested, late entry, unpaired).
CREATE TABLE round_byes (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    player_no     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, player_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, player_no) REFERENCES registrations (tournament_id, player_no)
);

CREATE TABLE absences (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL CHECK (round > 0),
    player_no     INTEGER NOT NULL,
    reason        TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, player_no),
    FOREIGN KEY (tournament_id, player_no) REFERENCES registrations (tournament_id, player_no)
        ON DELETE CASCADE
);

-- Point deductions decided by the director (half-points).
CREATE TABLE penalties (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_no     INTEGER NOT NULL,
    points        INTEGER NOT NULL CHECK (points >= 0),
    reason        TEXT    NOT NULL,
    decided_at    INTEGER NOT NULL,
    FOREIGN KEY (tournament_id, player_no) REFERENCES registrations (tournament_id, player_no)
);

-- A game arbitrated (or logged) by the desk. Its board, clocks and result are derived by
-- replaying its events through the rules engine; nothing derived is stored here except
-- `result`, a cache written in the same transaction as the event that decided it.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    round         INTEGER,
    table_no      INTEGER,
    white_no      INTEGER,
    black_no      INTEGER,
    mode          TEXT    NOT NULL DEFAULT 'arbitrated' CHECK (mode IN ('arbitrated', 'physical')),
    first         TEXT    NOT NULL DEFAULT 'white' CHECK (first IN ('white', 'black')),
    white_rating  REAL,
    black_rating  REAL,
    -- the record's "rules" object (JSON)
    rules         TEXT    NOT NULL,
    -- each side's setup, square -> piece code (JSON object), NULL until entered
    setup_white   TEXT,
    setup_black   TEXT,
    -- Unix ms at which the game's clock time t = 0
    started_at    INTEGER,
    -- the last t at which the desk saw the clocks running (restores clocks after a crash)
    clock_seen_t  REAL,
    -- the result once decided: the verdict's status/winner/reason (cache of the replay)
    result        TEXT,
    -- an arbiter's mistake confirmed by the director: kept, but replaced by a new game
    void          INTEGER NOT NULL DEFAULT 0 CHECK (void IN (0, 1)),
    void_reason   TEXT,
    replaces      INTEGER REFERENCES games (id),
    -- unknown top-level keys of an imported record (JSON object)
    extra         TEXT    NOT NULL DEFAULT '{}',
    -- where the game came from: played at the desk, or imported from a record
    origin        TEXT    NOT NULL DEFAULT 'desk' CHECK (origin IN ('desk', 'import')),
    created_at    INTEGER NOT NULL
);
CREATE INDEX games_round ON games (tournament_id, round, table_no);

-- The arbiter's events of a game, in order (spec/record.md event objects, as JSON). An
-- arbiter's correction is a new event (kind 'undo', naming the sequence number it cancels),
-- never an update: rows are only ever inserted.
CREATE TABLE game_events (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    t         REAL    NOT NULL CHECK (t >= 0),
    kind      TEXT    NOT NULL,
    payload   TEXT    NOT NULL,
    wall_time INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Reading sheets for adjudication: enemy square -> piece code (JSON object).
CREATE TABLE adjudication_sheets (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    side       TEXT    NOT NULL CHECK (side IN ('white', 'black')),
    sheet      TEXT    NOT NULL,
    -- 0 while the reading is being entered, 1 once the sheet is handed in
    complete   INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
    entered_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, side)
);

-- Who did what, when and why: one row for every change a director or arbiter makes.
-- Append-only.
CREATE TABLE audit_log (
    id            INTEGER PRIMARY KEY,
    at            INTEGER NOT NULL,
    actor         TEXT    NOT NULL,
    action        TEXT    NOT NULL,
    tournament_id INTEGER,
    game_id       INTEGER,
    reason        TEXT    NOT NULL DEFAULT '',
    details       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX audit_tournament ON audit_log (tournament_id, id);
CREATE INDEX audit_game ON audit_log (game_id, id);

-- Append-only tables refuse updates and deletes.
CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END;
CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
