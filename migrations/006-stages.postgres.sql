-- ggdesk database schema for PostgreSQL, migration 6 (as SQLite's migration 6): events in
-- stages (spec/stages.md). A tournament may be an event of stages (`ggdesk-tournament/2`):
-- group round robins, Swiss stages, a knockout of series, playoffs at a cut. Its rounds stay
-- the tournament's rounds, numbered on across the stages (the desk's tables, games and
-- stations know no other number); each says the stage it belongs to and whether it holds
-- playoff games; each board names its group or its match.
--
-- A series game or a playoff game is a board of a published round at a table, like any
-- other: an arbiter station runs it through the functions of migration 4 unchanged (they
-- check the table, the round in play and the board's players, whatever the stage).
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- 1: one system over its rounds (`ggdesk-tournament/1`); 2: an event of stages, whose
-- `system`, `rounds` and `tiebreaks` columns are not read (the stages hold them).
ALTER TABLE tournaments ADD COLUMN format BIGINT NOT NULL DEFAULT 1 CHECK (format IN (1, 2));

-- The stages of an event, in order (`stage_no` from 1). `round_count` NULL: a round robin of
-- one full cycle of its largest group (a knockout plays as many rounds as it takes).
-- `advance`: how many players of each group go on (every stage but the last). A knockout has
-- its series: `best_of` K games (`series_value` = K), `race_to` P points (`series_value` = P
-- in half-points) or `twice_to_beat`; its seeding and whether a third-place match is played.
CREATE TABLE stages (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    stage_no      BIGINT  NOT NULL CHECK (stage_no > 0),
    name          TEXT    NOT NULL,
    system        TEXT    NOT NULL CHECK (system IN ('swiss', 'round_robin', 'knockout')),
    round_count   BIGINT  CHECK (round_count IS NULL OR round_count > 0),
    groups        BIGINT  NOT NULL DEFAULT 1 CHECK (groups BETWEEN 1 AND 26),
    advance       BIGINT  CHECK (advance IS NULL OR advance > 0),
    -- tie-break codes in order, comma separated ('' for none)
    tiebreaks     TEXT    NOT NULL,
    series        TEXT    CHECK (series IS NULL OR series IN ('best_of', 'race_to', 'twice_to_beat')),
    series_value  BIGINT  CHECK (series_value IS NULL OR series_value > 0),
    seeding       TEXT    CHECK (seeding IS NULL OR seeding IN ('standard', 'cross_over')),
    third_place   BIGINT  NOT NULL DEFAULT 0 CHECK (third_place IN (0, 1)),
    PRIMARY KEY (tournament_id, stage_no),
    CHECK ((system = 'knockout') = (series IS NOT NULL))
);
-- As the other tables: no role but the owner reads it, even were a privilege granted by
-- mistake (stations and the public pages read the views below).
ALTER TABLE stages ENABLE ROW LEVEL SECURITY;

-- The stage a round belongs to (1 for a tournament of one system), and what it holds: a
-- round of the stage, or playoff games at the stage's cut.
ALTER TABLE rounds ADD COLUMN stage BIGINT NOT NULL DEFAULT 1 CHECK (stage > 0);
ALTER TABLE rounds ADD COLUMN kind TEXT NOT NULL DEFAULT 'round' CHECK (kind IN ('round', 'playoff'));

-- A board's group (`A` … `Z`, a grouped round robin and its playoffs) or match (`R.M` or
-- `3rd`, a knockout), as the file names them.
ALTER TABLE pairings ADD COLUMN group_letter TEXT CHECK (group_letter IS NULL OR length(group_letter) = 1);
ALTER TABLE pairings ADD COLUMN match_id TEXT;

-- The stage a penalty counts in (spec/stages.md: a penalty counts in the stage it was given).
ALTER TABLE penalties ADD COLUMN stage BIGINT NOT NULL DEFAULT 1 CHECK (stage > 0);

-- ---------------------------------------------------------------------------------------
-- What an arbiter station reads (migration 4): the stages, and the new columns, which a
-- station's desk needs to show and run its tables (which stage, group or match a game is,
-- the bracket, the cut). Nothing in them is secret.
-- ---------------------------------------------------------------------------------------
CREATE OR REPLACE VIEW ggdesk_station.tournaments AS
    SELECT id, name, system, rounds, win_points, draw_points, loss_points, bye_points,
           forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules,
           setup_s, reading_s, grace_s, extra, created_at, dates, venue, organiser,
           chief_arbiter, rated_date, rated_at, format
    FROM public.tournaments;
CREATE OR REPLACE VIEW ggdesk_station.rounds AS
    SELECT tournament_id, number, state, starts_at, published_at, completed_at, explanation,
           stage, kind
    FROM public.rounds;
CREATE OR REPLACE VIEW ggdesk_station.pairings AS
    SELECT tournament_id, round, board_no, table_no, table_given, white, black, result,
           explanation, group_letter, match_id
    FROM public.pairings;
CREATE OR REPLACE VIEW ggdesk_station.penalties AS
    SELECT id, tournament_id, player_no, points, reason, decided_at, stage FROM public.penalties;
CREATE VIEW ggdesk_station.stages AS
    SELECT tournament_id, stage_no, name, system, round_count, groups, advance, tiebreaks,
           series, series_value, seeding, third_place
    FROM public.stages;

-- ---------------------------------------------------------------------------------------
-- What the public pages read (migration 4): the stages (their names, systems, groups, cuts,
-- series: what the pages show of an event's shape), which stage each published round
-- belongs to, each board's group or match, and the stage of each penalty's points.
-- ---------------------------------------------------------------------------------------
CREATE OR REPLACE VIEW ggdesk_public.tournaments AS
    SELECT id, name, system, rounds, win_points, draw_points, loss_points, bye_points,
           forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules,
           setup_s, reading_s, grace_s, created_at, format
    FROM public.tournaments;
CREATE OR REPLACE VIEW ggdesk_public.rounds AS
    SELECT tournament_id, number, state, stage, kind FROM public.rounds WHERE state <> 'draft';
CREATE OR REPLACE VIEW ggdesk_public.pairings AS
    SELECT p.tournament_id, p.round, p.board_no, p.table_no, p.table_given, p.white, p.black,
           p.result, p.group_letter, p.match_id
    FROM public.pairings p
    JOIN public.rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
    WHERE r.state <> 'draft';
CREATE OR REPLACE VIEW ggdesk_public.penalties AS
    SELECT id, tournament_id, player_no, points, stage FROM public.penalties;
CREATE VIEW ggdesk_public.stages AS
    SELECT tournament_id, stage_no, name, system, round_count, groups, advance, tiebreaks,
           series, series_value, seeding, third_place
    FROM public.stages;

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
