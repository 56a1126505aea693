-- ggdesk migration 11 (PostgreSQL): a station is never a database login (issue 32, item 2).
--
-- An arbiter station's card was a PostgreSQL login, held to its tables by the views of
-- schema `ggdesk_station` and the checked functions `ggdesk_station_*` (migrations 4 and
-- 7). A database login is too much to hand out on a card left at a table: PostgreSQL has no
-- privilege that forbids NOTIFY, a transaction held open, settings the login gives itself.
-- From migration 8 on a station speaks to the event server's HTTPS API, which checks its
-- secret and every command, and writes on the director's connection. This migration takes
-- the rest away:
--
-- * Every login the `stations` table names is closed, its sessions are ended, everything
--   granted to it is revoked and it is dropped: an old card that was a login stops working
--   (the director issues a new card: `station add NAME --tournament TID`). Each dropped
--   login is one audit line.
-- * A station with a tournament and a secret (one of the API) keeps its row, its tables and
--   its secret: its card goes on working. A station without them was only a login: its row
--   goes too, with one audit line saying so.
-- * The views of schema `ggdesk_station`, the schema itself and every `ggdesk_station_*`
--   function go; so does the stations' `role` column. A station is from now on its name,
--   its tournament (required), its tables and the salted hash of its secret (required).
--
-- The public pages' role and schema (`ggdesk_public`) and the director's login are not
-- touched. Applied once, in the same transaction as any migration before it, by the
-- director's login (it created the stations' logins and may drop them). Never edit it once
-- released: later changes are new numbered migrations.

DO $$
DECLARE
    r RECORD;
    v_super BOOLEAN;
BEGIN
    SELECT rolsuper INTO v_super FROM pg_catalog.pg_roles WHERE rolname = current_user;
    FOR r IN SELECT s.name, s.role, s.tournament_id
             FROM public.stations s
             JOIN pg_catalog.pg_roles g ON g.rolname = s.role
             ORDER BY s.name LOOP
        -- A login may end only the sessions of roles it is a member of, and drop what they
        -- were granted only with their privileges.
        IF NOT v_super AND NOT pg_catalog.pg_has_role(current_user, r.role, 'MEMBER') THEN
            EXECUTE format('GRANT %I TO CURRENT_USER', r.role);
        END IF;
        EXECUTE format('ALTER ROLE %I NOLOGIN', r.role);
        PERFORM pg_catalog.pg_terminate_backend(a.pid, 5000)
        FROM pg_catalog.pg_stat_activity a
        WHERE a.usename = r.role AND a.pid <> pg_catalog.pg_backend_pid();
        EXECUTE format('DROP OWNED BY %I', r.role);
        EXECUTE format('DROP ROLE %I', r.role);
        INSERT INTO public.audit_log (at, actor, action, tournament_id, details)
        VALUES ((extract(epoch FROM pg_catalog.clock_timestamp()) * 1000)::BIGINT, 'ggdesk',
                'station login dropped', r.tournament_id,
                format('station %s: its database login %s is dropped (migration 11); a station '
                       'speaks only to the event server''s API', r.name, r.role));
    END LOOP;
    FOR r IN SELECT s.name FROM public.stations s
             WHERE s.tournament_id IS NULL OR s.secret_hash IS NULL
             ORDER BY s.name LOOP
        DELETE FROM public.stations WHERE name = r.name;
        INSERT INTO public.audit_log (at, actor, action, details)
        VALUES ((extract(epoch FROM pg_catalog.clock_timestamp()) * 1000)::BIGINT, 'ggdesk',
                'station removed',
                format('station %s: it was a database login with no secret of the stations'' '
                       'API (migration 11); add it again with its tournament for a card',
                       r.name));
    END LOOP;
END
$$;

-- What served the stations' logins alone: their views and their functions (the checks they
-- made are the event server's now, `src/station/commands.rs`).
DROP SCHEMA ggdesk_station CASCADE;
DO $$
DECLARE
    f RECORD;
BEGIN
    FOR f IN SELECT p.oid::regprocedure AS signature
             FROM pg_catalog.pg_proc p
             JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = 'public' AND p.proname LIKE 'ggdesk\_station\_%'
             ORDER BY p.oid::regprocedure::TEXT LOOP
        EXECUTE format('DROP FUNCTION %s', f.signature);
    END LOOP;
END
$$;

ALTER TABLE public.stations
    DROP COLUMN role,
    ALTER COLUMN tournament_id SET NOT NULL,
    ALTER COLUMN secret_hash SET NOT NULL;
