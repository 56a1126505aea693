-- ggdesk migration 9 (PostgreSQL): the stations' addresses of the event's standbys (issue 32;
-- `spec/server.md`: "With a standby, a station's card names both addresses").
--
-- A standby made with `ggdesk host DIR --standby-of URL` writes here, through the primary,
-- the address its own event server takes over at (`https://HOST:PORT/`); a station's card
-- then names the primary's address (`event_server`) and these. Nothing secret; only the
-- director's login reads or writes it.
CREATE TABLE public.event_server_standbys (
    stations_address TEXT   NOT NULL PRIMARY KEY CHECK (stations_address LIKE 'https://%/'),
    started_at       BIGINT NOT NULL
);
