-- ggdesk database schema, migration 1 (PRAGMA user_version = 1).
--
-- Applied once, in one transaction, to a new database. Never edit it once released: later
-- changes are new numbered migrations in src/store/migrations/. Plain SQL that a server
-- database would also take, so a multi-desk server can be added later.
--
-- Times are Unix milliseconds (INTEGER) unless named `t`: a game event's `t` is seconds
-- since the game started, as the record format writes it.
-- Scores and points are integer half-points.

-- The players registry, shared by all tournaments. A federation id, when given, names one
-- player only.
CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    federation_id TEXT    NOT NULL DEFAULT '',
    club          TEXT    NOT NULL DEFAULT '',
    rating        INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'banned')),
    created_at    INTEGER NOT NULL
);
CREATE INDEX players_name ON players (name);
CREATE UNIQUE INDEX players_federation_id ON players (federation_id) WHERE federation_id <> '';

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
    -- may be empty: a tournament file need not name its event
    name          TEXT    NOT NULL,
    system        TEXT    NOT NULL CHECK (system IN ('swiss', 'round_robin')),
    -- NULL: a round robin of one full cycle
    rounds        INTEGER CHECK (rounds IS NULL OR rounds > 0),
    -- points of each outcome, in half-points
    win_points          INTEGER NOT NULL DEFAULT 4 CHECK (win_points >= 0),
    draw_points         INTEGER NOT NULL DEFAULT 2 CHECK (draw_points >= 0),
    loss_points         INTEGER NOT NULL DEFAULT 0 CHECK (loss_points >= 0),
    bye_points          INTEGER NOT NULL DEFAULT 4 CHECK (bye_points >= 0),
    forfeit_win_points  INTEGER NOT NULL DEFAULT 4 CHECK (forfeit_win_points >= 0),
    forfeit_loss_points INTEGER NOT NULL DEFAULT 0 CHECK (forfeit_loss_points >= 0),
    absent_points       INTEGER NOT NULL DEFAULT 0 CHECK (absent_points >= 0),
    -- tie-break codes in order, comma separated (e.g. 'direct_encounter,buchholz')
    tiebreaks     TEXT    NOT NULL,
    -- GGF rule settings of the games (the record's "rules" object, as JSON)
    rules         TEXT    NOT NULL,
    -- the desk's timers, in seconds: setup, adjudication reading, grace before a default
    setup_s       INTEGER NOT NULL DEFAULT 300 CHECK (setup_s > 0),
    reading_s     INTEGER NOT NULL DEFAULT 900 CHECK (reading_s > 0),
    grace_s       INTEGER NOT NULL DEFAULT 1800 CHECK (grace_s >= 0),
    -- top-level keys of an imported tournament file this desk does not use (JSON object)
    extra         TEXT    NOT NULL DEFAULT '{}',
    created_at    INTEGER NOT NULL
);

-- Pairs of tournament players who must never be paired (relatives, teammates).
CREATE TABLE forbidden_pairs (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a      INTEGER NOT NULL,
    player_b      INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_a, player_b),
    FOREIGN KEY (tournament_id, player_a) REFERENCES registrations (tournament_id, player_no),
    FOREIGN KEY (tournament_id, player_b) REFERENCES registrations (tournament_id, player_no),
    CHECK (player_a < player_b)
);

-- A player in a tournament. `player_no` is the id the tournament file and the pairing use;
-- name, rating, club and federation id are as they stood for this tournament (NULL club or
-- federation id: not given).
CREATE TABLE registrations (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_no     INTEGER NOT NULL CHECK (player_no > 0),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    name          TEXT    NOT NULL,
    rating        INTEGER NOT NULL DEFAULT 0,
    club          TEXT,
    federation_id TEXT,
    -- the first round the player can be paired in (a late entry is absent before it)
    entry_round   INTEGER NOT NULL DEFAULT 1 CHECK (entry_round > 0),
    withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    -- keys of the file's player object this desk does not use (JSON object)
    extra         TEXT    NOT NULL DEFAULT '{}',
    -- the order of the players list (a tournament file's order; else the player number)
    seq           INTEGER NOT NULL DEFAULT 0,
    registered_at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_no),
    UNIQUE (tournament_id, player_id)
);
CREATE INDEX registrations_player ON registrations (player_id);

-- A round: drafted (proposed pairing, not yet shown to the players), published (being
-- played), complete (every result in).
CREATE TABLE rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL CHECK (number > 0),
    state          TEXT    NOT NULL CHECK (state IN ('draft', 'published', 'complete')),
    -- official start (Unix ms), from which the grace period runs
    starts_at      INTEGER,
    published_at   INTEGER,
    completed_at   INTEGER,
    -- what the pairing said about the round as a whole (score groups, who was not paired)
    explanation    TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, number)
);

-- The boards of a round and their results (spec/tournament.md result codes). `board_no`
-- is the board's place in the round (from 1); `table_no` the table it is played at, which
-- a tournament file may leave out (`table_given` = 0) or even repeat.
CREATE TABLE pairings (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    board_no      INTEGER NOT NULL CHECK (board_no > 0),
    table_no      INTEGER NOT NULL CHECK (table_no > 0),
    table_given   INTEGER NOT NULL DEFAULT 1 CHECK (table_given IN (0, 1)),
    white         INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    result        TEXT    NOT NULL DEFAULT 'pending' CHECK (result IN
                  ('white', 'black', 'draw', 'white_forfeit', 'black_forfeit',
                   'double_forfeit', 'pending')),
    -- why the board is what it is: the pairing's explanation, or the manual change
    explanation   TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, white) REFERENCES registrations (tournament_id, player_no),
    FOREIGN KEY (tournament_id, black) REFERENCES registrations (tournament_id, player_no),
    CHECK (white <> black)
);
CREATE INDEX pairings_table ON pairings (tournament_id, round, table_no);

-- Byes given by the pairing, with the pairing's reason.
CREATE TABLE round_byes (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    player_no     INTEGER NOT NULL,
    explanation   TEXT    NOT NULL DEFAULT '',
    -- the order of the round's byes list
    seq           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, player_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, player_no) REFERENCES registrations (tournament_id, player_no)
);

-- Absences: asked for a round (before it is paired), a late entry's earlier rounds, or as a
-- tournament file lists them. A round may not exist yet.
CREATE TABLE absences (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL CHECK (round > 0),
    player_no     INTEGER NOT NULL,
    reason        TEXT    NOT NULL DEFAULT '',
    -- the order of the round's absent list
    seq           INTEGER NOT NULL DEFAULT 0,
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
CREATE INDEX penalties_tournament ON penalties (tournament_id, player_no);

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
