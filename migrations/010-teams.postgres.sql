-- ggdesk database schema for PostgreSQL, migration 10 (as SQLite's migration 10): team events
-- (spec/teams.md). A tournament of format 2 with a `team_events` row is a team event. It keeps everything an event of stages keeps
-- where an event of stages keeps it: its players are its registrations; its rounds are the
-- tournament's rounds, numbered on across the stages, each with its `stage` and `kind`
-- (a stage's playoff games are a round of kind 'playoff'); and every game over a board is a
-- `pairings` row like any other, so that the tables, the stations and the Tables page can
-- run it. Beside them are what only a team event has: its `team` settings, its stages (the
-- team systems and team tie-breaks, which the `stages` table of migration 6 does not hold),
-- its teams with their rosters, and each match with its line-up (a board the team left
-- empty is no game: it is a line-up row without a pairing).
--
-- What a station or the public pages may read of a team event is only that it is one (a
-- view of `team_events` each): the desk does not run team events at its tables yet, and
-- refuses to open one in words rather than with a missing privilege.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- The file's `team` settings: B boards, match points and what a team bye scores (in
-- half-points), and the score that orders the teams.
CREATE TABLE team_events (
    tournament_id     BIGINT  PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    boards            BIGINT  NOT NULL CHECK (boards > 0),
    match_win_points  BIGINT  NOT NULL CHECK (match_win_points >= 0),
    match_draw_points BIGINT  NOT NULL CHECK (match_draw_points >= 0),
    match_loss_points BIGINT  NOT NULL CHECK (match_loss_points >= 0),
    bye_match_points  BIGINT  NOT NULL CHECK (bye_match_points >= 0),
    bye_game_points   BIGINT  NOT NULL CHECK (bye_game_points >= 0),
    primary_score     TEXT    NOT NULL CHECK (primary_score IN ('match_points', 'game_points'))
);

-- The stages of a team event, in order (`stage_no` from 1, the number its rounds name).
-- `advance` counts teams; `tiebreaks` are team tie-break codes in order, comma separated.
CREATE TABLE team_stages (
    tournament_id BIGINT  NOT NULL REFERENCES team_events (tournament_id) ON DELETE CASCADE,
    stage_no      BIGINT  NOT NULL CHECK (stage_no > 0),
    name          TEXT    NOT NULL,
    system        TEXT    NOT NULL CHECK (system IN ('swiss', 'round_robin', 'board_groups', 'scheveningen')),
    round_count   BIGINT  CHECK (round_count IS NULL OR round_count > 0),
    advance       BIGINT  CHECK (advance IS NULL OR advance > 0),
    tiebreaks     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, stage_no)
);

-- The teams (`team_no`: the file's team id), in the order of the file's list (`seq`), and
-- their captains.
CREATE TABLE teams (
    tournament_id BIGINT  NOT NULL REFERENCES team_events (tournament_id) ON DELETE CASCADE,
    team_no       BIGINT  NOT NULL CHECK (team_no > 0),
    name          TEXT    NOT NULL,
    captain       BIGINT,
    seq           BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, team_no),
    FOREIGN KEY (tournament_id, captain) REFERENCES registrations (tournament_id, player_no)
);

-- A team's roster in board order (`position` from 1; the players after the first B are
-- reserves). A player is in one team at most.
CREATE TABLE team_players (
    tournament_id BIGINT  NOT NULL,
    team_no       BIGINT  NOT NULL,
    position      BIGINT  NOT NULL CHECK (position > 0),
    player_no     BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, team_no, position),
    UNIQUE (tournament_id, player_no),
    FOREIGN KEY (tournament_id, team_no) REFERENCES teams (tournament_id, team_no) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, player_no) REFERENCES registrations (tournament_id, player_no)
);

-- The matches of a round of a team Swiss or round robin, in the round's order
-- (`match_no` from 1); `table_no` the match's table as the file gives it (NULL: none). Its
-- board games are played at tables (t−1)×B + 1 … t×B.
CREATE TABLE team_matches (
    tournament_id BIGINT  NOT NULL,
    round         BIGINT  NOT NULL,
    match_no      BIGINT  NOT NULL CHECK (match_no > 0),
    table_no      BIGINT  CHECK (table_no IS NULL OR table_no > 0),
    home          BIGINT  NOT NULL,
    away          BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, round, match_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, home) REFERENCES teams (tournament_id, team_no),
    FOREIGN KEY (tournament_id, away) REFERENCES teams (tournament_id, team_no),
    CHECK (home <> away)
);

-- A match's line-up, board by board (`board` from 1; white is the home team's on odd
-- boards). A side NULL: the team left that board empty, and the board has the forfeit result
-- that says so; both sides filled: the board is the game `board_no` of the round's pairings.
CREATE TABLE team_boards (
    tournament_id BIGINT  NOT NULL,
    round         BIGINT  NOT NULL,
    match_no      BIGINT  NOT NULL,
    board         BIGINT  NOT NULL CHECK (board > 0),
    white         BIGINT,
    black         BIGINT,
    board_no      BIGINT,
    PRIMARY KEY (tournament_id, round, match_no, board),
    UNIQUE (tournament_id, round, board_no),
    FOREIGN KEY (tournament_id, round, match_no)
        REFERENCES team_matches (tournament_id, round, match_no) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, round, board_no)
        REFERENCES pairings (tournament_id, round, board_no) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, white) REFERENCES registrations (tournament_id, player_no),
    FOREIGN KEY (tournament_id, black) REFERENCES registrations (tournament_id, player_no),
    CHECK ((board_no IS NULL) = (white IS NULL OR black IS NULL))
);

-- A team's bye in a round, in the order of the round's list.
CREATE TABLE team_byes (
    tournament_id BIGINT  NOT NULL,
    round         BIGINT  NOT NULL,
    team_no       BIGINT  NOT NULL,
    seq           BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, team_no),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, team_no) REFERENCES teams (tournament_id, team_no)
);

-- The board group of a game of a `board_groups` stage (`B1` is 1): the `group_letter` of
-- migration 6 holds one letter only.
ALTER TABLE pairings ADD COLUMN board_group BIGINT  CHECK (board_group IS NULL OR board_group > 0);

-- As the other tables: no role but the owner reads them, even were a privilege granted by
-- mistake.
ALTER TABLE team_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE team_stages ENABLE ROW LEVEL SECURITY;
ALTER TABLE teams ENABLE ROW LEVEL SECURITY;
ALTER TABLE team_players ENABLE ROW LEVEL SECURITY;
ALTER TABLE team_matches ENABLE ROW LEVEL SECURITY;
ALTER TABLE team_boards ENABLE ROW LEVEL SECURITY;
ALTER TABLE team_byes ENABLE ROW LEVEL SECURITY;

-- Which tournaments are team events, for a station's desk and for the public pages.
CREATE VIEW ggdesk_station.team_events AS
    SELECT tournament_id, boards, match_win_points, match_draw_points, match_loss_points,
           bye_match_points, bye_game_points, primary_score
    FROM public.team_events;
CREATE VIEW ggdesk_public.team_events AS
    SELECT tournament_id, boards, match_win_points, match_draw_points, match_loss_points,
           bye_match_points, bye_game_points, primary_score
    FROM public.team_events;

-- Stations made before this migration read the new view too (a station made later gets it
-- from ggdesk_station_grants); the public role is granted its schema's views again each time
-- the public pages connect.
DO $$
DECLARE
    r RECORD;
BEGIN
    FOR r IN SELECT s.role FROM public.stations s
             WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = s.role) LOOP
        EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA ggdesk_station TO %I', r.role);
    END LOOP;
END
$$;
