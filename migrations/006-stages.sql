-- ggdesk database schema, migration 6 (events in stages, spec/stages.md): a tournament may be
-- an event of stages (`ggdesk-tournament/2`): group round robins, Swiss stages, a knockout of
-- series, playoffs at a cut. Its rounds stay the tournament's rounds, numbered on across the
-- stages (the desk's tables, games and stations know no other number); each says the stage it
-- belongs to and whether it holds playoff games; each board names its group or its match.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

-- 1: one system over its rounds (`ggdesk-tournament/1`); 2: an event of stages, whose
-- `system`, `rounds` and `tiebreaks` columns are not read (the stages hold them).
ALTER TABLE tournaments ADD COLUMN format INTEGER NOT NULL DEFAULT 1 CHECK (format IN (1, 2));

-- The stages of an event, in order (`stage_no` from 1). `round_count` NULL: a round robin of
-- one full cycle of its largest group (a knockout plays as many rounds as it takes).
-- `advance`: how many players of each group go on (every stage but the last). A knockout has
-- its series: `best_of` K games (`series_value` = K), `race_to` P points (`series_value` = P
-- in half-points) or `twice_to_beat`; its seeding and whether a third-place match is played.
CREATE TABLE stages (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    stage_no      INTEGER NOT NULL CHECK (stage_no > 0),
    name          TEXT    NOT NULL,
    system        TEXT    NOT NULL CHECK (system IN ('swiss', 'round_robin', 'knockout')),
    round_count   INTEGER CHECK (round_count IS NULL OR round_count > 0),
    groups        INTEGER NOT NULL DEFAULT 1 CHECK (groups BETWEEN 1 AND 26),
    advance       INTEGER CHECK (advance IS NULL OR advance > 0),
    -- tie-break codes in order, comma separated ('' for none)
    tiebreaks     TEXT    NOT NULL,
    series        TEXT    CHECK (series IS NULL OR series IN ('best_of', 'race_to', 'twice_to_beat')),
    series_value  INTEGER CHECK (series_value IS NULL OR series_value > 0),
    seeding       TEXT    CHECK (seeding IS NULL OR seeding IN ('standard', 'cross_over')),
    third_place   INTEGER NOT NULL DEFAULT 0 CHECK (third_place IN (0, 1)),
    PRIMARY KEY (tournament_id, stage_no),
    CHECK ((system = 'knockout') = (series IS NOT NULL))
);

-- The stage a round belongs to (1 for a tournament of one system), and what it holds: a
-- round of the stage, or playoff games at the stage's cut.
ALTER TABLE rounds ADD COLUMN stage INTEGER NOT NULL DEFAULT 1 CHECK (stage > 0);
ALTER TABLE rounds ADD COLUMN kind TEXT NOT NULL DEFAULT 'round' CHECK (kind IN ('round', 'playoff'));

-- A board's group (`A` … `Z`, a grouped round robin and its playoffs) or match (`R.M` or
-- `3rd`, a knockout), as the file names them.
ALTER TABLE pairings ADD COLUMN group_letter TEXT CHECK (group_letter IS NULL OR length(group_letter) = 1);
ALTER TABLE pairings ADD COLUMN match_id TEXT;

-- The stage a penalty counts in (spec/stages.md: a penalty counts in the stage it was given).
ALTER TABLE penalties ADD COLUMN stage INTEGER NOT NULL DEFAULT 1 CHECK (stage > 0);
