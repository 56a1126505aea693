-- ggdesk database schema for PostgreSQL, migration 12 (as SQLite's migration 12): team
-- events on the public pages (issue 33 item 5, issue 34 item 5).
--
-- The public pages read as the database's public role, whose only privileges are the views
-- of schema `ggdesk_public` (migration 4). Migration 10 gave it only which tournaments are
-- team events; to show a team event's standings, matches, teams and board prizes the pages
-- read its stages, its teams with their rosters in board order, and each published round's
-- matches, line-ups and team byes, as the views below. What they hold is what the pages
-- show: names, numbers, board orders and results. A draft round's matches, line-ups and
-- byes are not in them, as a draft round's pairings are not.
--
-- The public role is granted its schema's views again each time the public pages connect
-- (`ggdesk_public_grants`), so it reads these views from then on.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- A board group's game names its group (`board_group`, migration 10), as a staged game its
-- group letter or match.
CREATE OR REPLACE VIEW ggdesk_public.pairings AS
    SELECT p.tournament_id, p.round, p.board_no, p.table_no, p.table_given, p.white, p.black,
           p.result, p.group_letter, p.match_id, p.board_group
    FROM public.pairings p
    JOIN public.rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
    WHERE r.state <> 'draft';

CREATE VIEW ggdesk_public.team_stages AS
    SELECT tournament_id, stage_no, name, system, round_count, advance, tiebreaks
    FROM public.team_stages;
CREATE VIEW ggdesk_public.teams AS
    SELECT tournament_id, team_no, name, captain, seq FROM public.teams;
CREATE VIEW ggdesk_public.team_players AS
    SELECT tournament_id, team_no, position, player_no FROM public.team_players;
CREATE VIEW ggdesk_public.team_matches AS
    SELECT m.tournament_id, m.round, m.match_no, m.table_no, m.home, m.away
    FROM public.team_matches m
    JOIN public.rounds r ON r.tournament_id = m.tournament_id AND r.number = m.round
    WHERE r.state <> 'draft';
CREATE VIEW ggdesk_public.team_boards AS
    SELECT b.tournament_id, b.round, b.match_no, b.board, b.white, b.black, b.board_no
    FROM public.team_boards b
    JOIN public.rounds r ON r.tournament_id = b.tournament_id AND r.number = b.round
    WHERE r.state <> 'draft';
CREATE VIEW ggdesk_public.team_byes AS
    SELECT y.tournament_id, y.round, y.team_no, y.seq
    FROM public.team_byes y
    JOIN public.rounds r ON r.tournament_id = y.tournament_id AND r.number = y.round
    WHERE r.state <> 'draft';
