#!/usr/bin/env bash
# A synchronous standby for a ggdesk event server, with PostgreSQL's own tools only
# (pg_basebackup -R, synchronous_standby_names, synchronous_commit, pg_ctl promote).
# docs/standby.md explains when to run each step. Run it as the user that owns the clusters
# (usually postgres); it never stores a password in a file it writes.
#
#   standby.sh prepare-primary PGDATA STANDBY_ADDRESS
#       On the server laptop: a replication login (password from $REPLICATION_PASSWORD),
#       replication allowed from the standby's address, commits wait for the standby.
#   standby.sh clone PRIMARY_HOST PRIMARY_PORT PGDATA [NAME]
#       On the second laptop: copy the primary into the empty folder PGDATA as a standby
#       called NAME (default "standby1"), streaming from the primary.
#   standby.sh start PGDATA PORT
#       Start a cluster (the standby after clone) on PORT.
#   standby.sh sync PGDATA NAME
#       On the server laptop, once the standby streams: every commit waits until NAME holds
#       it. (Set before the standby is up, every commit would wait.)
#   standby.sh promote PGDATA
#       On the second laptop, when the server laptop is lost: the standby becomes the
#       primary. Desks and feeds connected with both hosts in their URL reconnect by
#       themselves.
#   standby.sh status URL
#       One line per server: primary or standby, synchronous or not, how far behind.
#
# Environment: PGBIN (the server's bin folder; the newest /usr/lib/postgresql/*/bin by
# default), SOCKETDIR (the Unix socket folder of the local cluster; PGDATA's parent by
# default), REPLICATION_PASSWORD (prepare-primary and clone), LISTEN and EXTRA_OPTIONS
# (start: the addresses to listen on, more server options), GGDESK (the ggdesk binary).
set -euo pipefail

die() { echo "standby.sh: $*" >&2; exit 2; }

pgbin() {
    if [ -n "${PGBIN:-}" ]; then echo "$PGBIN"; return; fi
    local newest
    newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$newest" ] || die "no PostgreSQL server found: install the postgresql package"
    echo "$newest"
}

# psql on the local cluster of PGDATA, through its Unix socket.
local_psql() {
    local pgdata=$1; shift
    local port
    port=$(sed -n '4p' "$pgdata/postmaster.pid")
    "$(pgbin)/psql" -h "${SOCKETDIR:-$(dirname "$pgdata")}" -p "$port" -U postgres -d postgres \
        -v ON_ERROR_STOP=1 -qtA "$@"
}

quote_literal() { printf "'%s'" "${1//\'/\'\'}"; }

cmd=${1:-}
[ -n "$cmd" ] || die "usage: standby.sh prepare-primary|clone|start|sync|promote|status ..."
shift
case "$cmd" in
prepare-primary)
    [ $# -eq 2 ] || die "usage: standby.sh prepare-primary PGDATA STANDBY_ADDRESS"
    pgdata=$1; address=$2
    [ -n "${REPLICATION_PASSWORD:-}" ] || die "set REPLICATION_PASSWORD"
    exists=$(local_psql "$pgdata" -c "SELECT count(*) FROM pg_roles WHERE rolname = 'ggdesk_replication'")
    if [ "$exists" = 0 ]; then
        local_psql "$pgdata" <<SQL
SET password_encryption = 'scram-sha-256';
CREATE ROLE ggdesk_replication REPLICATION LOGIN PASSWORD $(quote_literal "$REPLICATION_PASSWORD");
SQL
    fi
    local_psql "$pgdata" <<'SQL'
ALTER SYSTEM SET wal_level = 'replica';
ALTER SYSTEM SET max_wal_senders = 10;
ALTER SYSTEM SET synchronous_commit = 'on';
ALTER SYSTEM SET wal_sender_timeout = '5s';
SQL
    rule="host replication ggdesk_replication $address/32 scram-sha-256"
    grep -qxF "$rule" "$pgdata/pg_hba.conf" || echo "$rule" >> "$pgdata/pg_hba.conf"
    local_psql "$pgdata" -c "SELECT pg_reload_conf()" >/dev/null
    echo "primary prepared: replication allowed from $address (restart it if wal_level was not 'replica')"
    ;;
clone)
    [ $# -ge 3 ] || die "usage: standby.sh clone PRIMARY_HOST PRIMARY_PORT PGDATA [NAME]"
    host=$1; port=$2; pgdata=$3; name=${4:-standby1}
    [ -n "${REPLICATION_PASSWORD:-}" ] || die "set REPLICATION_PASSWORD"
    if [ -e "$pgdata" ] && [ -n "$(ls -A "$pgdata" 2>/dev/null)" ]; then
        die "$pgdata is not empty"
    fi
    # The password goes through the environment, never into a file: the standby's
    # primary_conninfo gets it too, so the standby asks for it from a password file the
    # administrator keeps (docs/standby.md), and -R writes the rest.
    PGPASSWORD=$REPLICATION_PASSWORD "$(pgbin)/pg_basebackup" \
        -d "host=$host port=$port user=ggdesk_replication application_name=$name" \
        -D "$pgdata" -R -X stream --checkpoint=fast
    chmod 700 "$pgdata"
    # pg_basebackup -R writes the password it used into primary_conninfo: take it out and
    # keep it in the standby's own password file (mode 600) instead.
    sed -i -E "s/ password=('[^']*'|[^ ']*)//" "$pgdata/postgresql.auto.conf"
    passfile="$pgdata/../.pgpass-$name"
    printf '%s:%s:*:ggdesk_replication:%s\n' "$host" "$port" "$REPLICATION_PASSWORD" > "$passfile"
    chmod 600 "$passfile"
    echo "primary_conninfo = 'host=$host port=$port user=ggdesk_replication application_name=$name passfile=$(cd "$(dirname "$passfile")" && pwd)/$(basename "$passfile")'" \
        >> "$pgdata/postgresql.auto.conf"
    echo "standby $name cloned into $pgdata from $host:$port"
    ;;
start)
    [ $# -eq 2 ] || die "usage: standby.sh start PGDATA PORT"
    pgdata=$1; port=$2
    sock=${SOCKETDIR:-$(dirname "$pgdata")}
    "$(pgbin)/pg_ctl" -D "$pgdata" -w -t 60 -l "$pgdata/../$(basename "$pgdata").log" \
        -o "-p $port -k $sock ${LISTEN:+-c listen_addresses=$LISTEN} ${EXTRA_OPTIONS:-}" start
    ;;
sync)
    [ $# -eq 2 ] || die "usage: standby.sh sync PGDATA NAME"
    pgdata=$1; name=$2
    streaming=$(local_psql "$pgdata" -c "SELECT count(*) FROM pg_stat_replication WHERE application_name = $(quote_literal "$name") AND state = 'streaming'")
    [ "$streaming" != 0 ] || die "standby $name is not streaming yet: start it first, then run sync"
    # pg_reload_conf() answers "t": not for the operator's screen.
    local_psql "$pgdata" >/dev/null <<SQL
ALTER SYSTEM SET synchronous_standby_names = $(quote_literal "$name");
ALTER SYSTEM SET synchronous_commit = 'on';
SELECT pg_reload_conf();
SQL
    # The primary takes a moment to treat the standby as synchronous: wait for it.
    for _ in $(seq 1 300); do
        state=$(local_psql "$pgdata" -c "SELECT sync_state FROM pg_stat_replication WHERE application_name = $(quote_literal "$name")")
        [ "$state" = sync ] && break
        sleep 0.1
    done
    [ "$state" = sync ] || die "standby $name did not become synchronous (it is '$state')"
    echo "commits now wait for standby $name"
    ;;
promote)
    [ $# -eq 1 ] || die "usage: standby.sh promote PGDATA"
    "$(pgbin)/pg_ctl" -D "$1" -w -t 60 promote
    ;;
status)
    [ $# -eq 1 ] || die "usage: standby.sh status URL"
    "${GGDESK:-ggdesk}" --db "$1" status
    ;;
*)
    die "unknown step $cmd"
    ;;
esac
