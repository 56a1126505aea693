-- ggdesk migration 8 (PostgreSQL): the stations' HTTPS API (issue 32, `docs/station-api.md`).
--
-- A station's desk talks to the event server (`ggdesk host`) over HTTPS instead of logging
-- into the database: the server checks the station's secret, its tournament, its tables
-- and every command, and writes on the director's connection with the station as the audit
-- line's actor. From this migration on a station has:
--
-- * `tournament_id`: the tournament whose round in play it runs (its tables are table
--   numbers of that tournament only; a station of tournament 1 never reaches tournament 2's
--   table of the same number). NULL for a station made before this migration until the
--   director issues it a secret.
-- * `secret_hash`: `sha256$SALT$HASH`, HASH the SHA-256 (hex) of SALT followed by the
--   station's secret, SALT 16 random bytes (hex) of its own. A secret is 128 random bits
--   made by the server and shown once: nobody can guess it or search a dictionary for it,
--   so one salted SHA-256 is enough (a slow password hash protects what people choose, which
--   a secret is not). NULL: the station has no secret (the API refuses it).
--
-- Neither column is shown to a station's login: the view `ggdesk_station.stations` gains
-- the tournament (a station's desk shows it) and never the hash.
--
-- Applied once, in the same transaction as any migration before it. Never edit it once
-- released: later changes are new numbered migrations.

ALTER TABLE public.stations
    ADD COLUMN tournament_id BIGINT REFERENCES public.tournaments (id) ON DELETE CASCADE,
    ADD COLUMN secret_hash TEXT CHECK (secret_hash ~ '^sha256\$[0-9a-f]{32}\$[0-9a-f]{64}$');

CREATE OR REPLACE VIEW ggdesk_station.stations AS
    SELECT name, role, created_at, tournament_id FROM public.stations;

-- The event server that runs on this database (`ggdesk host`), as every start writes it: the
-- stations' address (`https://HOST:PORT/`) and the SHA-256 fingerprint of the event's
-- authority, which a station's card prints. Nothing secret. No row: no event server
-- (stations cannot be given cards).
CREATE TABLE public.event_server (
    singleton        BIGINT NOT NULL DEFAULT 1 PRIMARY KEY CHECK (singleton = 1),
    stations_address TEXT   NOT NULL CHECK (stations_address LIKE 'https://%/'),
    authority        TEXT   NOT NULL CHECK (authority ~ '^[0-9a-f]{64}$'),
    started_at       BIGINT NOT NULL
);
