#!/usr/bin/env bash
# A synchronous standby for a ggdesk event server, with PostgreSQL's own tools only
# (pg_basebackup -R, synchronous_standby_names, synchronous_commit, pg_ctl promote).
# docs/standby.md explains when to run each step. Run it as the user that owns the clusters
# (usually postgres); it never stores a password in a file it writes.
#
#   standby.sh prepare-primary PGDATA STANDBY_ADDRESS
#       On the server laptop: a replication login (password from $REPLICATION_PASSWORD),
#       replication allowed from the standby's address, commits wait for the standby.
#       Returns once the server has read its new settings.
#   standby.sh clone PRIMARY_HOST PRIMARY_PORT PGDATA [NAME]
#       On the second laptop: copy the primary into the empty folder PGDATA as a standby
#       called NAME (default "standby1"), streaming from the primary.
#   standby.sh start PGDATA PORT
#       Start a cluster (the standby after clone) on PORT. Returns once it accepts
#       connections and, for a standby, once it streams from the primary.
#   standby.sh sync PGDATA NAME
#       On the server laptop, once the standby streams: every commit waits until NAME holds
#       it. (Set before the standby is up, every commit would wait.) Returns once the
#       primary treats NAME as synchronous.
#   standby.sh promote PGDATA
#       On the second laptop, when the server laptop is lost: the standby becomes the
#       primary. Returns once it takes writes. Desks and feeds connected with both hosts in
#       their URL reconnect by themselves.
#   standby.sh status URL
#       One line per server: primary or standby, synchronous or not, how far behind.
#
# Every step that needs something to happen first (a server accepting connections, new
# settings read, a standby streaming, a promotion finished) waits for it, checking again
# and again, and gives up only after WAIT_SECONDS (120 by default), saying what it waited
# for: a laptop busy with the event is slow, not wrong.
#
# Environment: PGBIN (the server's bin folder; the newest /usr/lib/postgresql/*/bin by
# default), SOCKETDIR (the Unix socket folder of the local cluster; PGDATA's parent by
# default), REPLICATION_PASSWORD (prepare-primary and clone), LISTEN and EXTRA_OPTIONS
# (start: the addresses to listen on, more server options), GGDESK (the ggdesk binary),
# WAIT_SECONDS (how long a step waits for what it needs).
set -euo pipefail

die() { echo "standby.sh: $*" >&2; exit 2; }

WAIT_SECONDS=${WAIT_SECONDS:-120}
case "$WAIT_SECONDS" in ''|*[!0-9]*) die "WAIT_SECONDS must be a whole number of seconds";; esac

# wait_for WHAT COMMAND...: runs COMMAND until it succeeds, for at most WAIT_SECONDS;
# otherwise stops, saying WHAT it waited for.
wait_for() {
    local what=$1; shift
    local until=$((SECONDS + WAIT_SECONDS))
    until "$@" >/dev/null 2>&1; do
        if [ "$SECONDS" -ge "$until" ]; then
            die "waited ${WAIT_SECONDS} s for $what, in vain"
        fi
        sleep 0.2
    done
}

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

# The local cluster of PGDATA accepts connections (its socket answers a query).
accepts() { [ "$(local_psql "$1" -c "SELECT 1")" = 1 ]; }

# The local cluster of PGDATA answers QUERY with exactly EXPECTED.
answers() {
    local pgdata=$1 query=$2 expected=$3
    [ "$(local_psql "$pgdata" -c "$query")" = "$expected" ]
}

# The configuration the local cluster of PGDATA has read last (its load time) differs
# from BEFORE.
reloaded_since() {
    local now
    now=$(local_psql "$1" -c "SELECT pg_conf_load_time()") || return 1
    [ "$now" != "$2" ]
}

cmd=${1:-}
[ -n "$cmd" ] || die "usage: standby.sh prepare-primary|clone|start|sync|promote|status ..."
shift
case "$cmd" in
prepare-primary)
    [ $# -eq 2 ] || die "usage: standby.sh prepare-primary PGDATA STANDBY_ADDRESS"
    pgdata=$1; address=$2
    [ -n "${REPLICATION_PASSWORD:-}" ] || die "set REPLICATION_PASSWORD"
    wait_for "the primary in $pgdata to accept connections" accepts "$pgdata"
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
    # The server reads its files again in its own time: the standby's first connection
    # must not come before the rule is in force. A new connection sees the load time of
    # the configuration (pg_hba.conf included) the server has read.
    before=$(local_psql "$pgdata" -c "SELECT pg_conf_load_time()")
    local_psql "$pgdata" -c "SELECT pg_reload_conf()" >/dev/null
    wait_for "the primary in $pgdata to read its new settings" reloaded_since "$pgdata" "$before"
    echo "primary prepared: replication allowed from $address (restart it if wal_level was not 'replica')"
    ;;
clone)
    [ $# -ge 3 ] || die "usage: standby.sh clone PRIMARY_HOST PRIMARY_PORT PGDATA [NAME]"
    host=$1; port=$2; pgdata=$3; name=${4:-standby1}
    [ -n "${REPLICATION_PASSWORD:-}" ] || die "set REPLICATION_PASSWORD"
    if [ -e "$pgdata" ] && [ -n "$(ls -A "$pgdata" 2>/dev/null)" ]; then
        die "$pgdata is not empty"
    fi
    wait_for "the primary at $host:$port to accept connections" \
        "$(pgbin)/pg_isready" -q -h "$host" -p "$port"
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
    "$(pgbin)/pg_ctl" -D "$pgdata" -w -t "$WAIT_SECONDS" -l "$pgdata/../$(basename "$pgdata").log" \
        -o "-p $port -k $sock ${LISTEN:+-c listen_addresses=$LISTEN} ${EXTRA_OPTIONS:-}" start
    wait_for "the cluster in $pgdata to accept connections" accepts "$pgdata"
    if [ -e "$pgdata/standby.signal" ]; then
        wait_for "the standby in $pgdata to stream from the primary" \
            answers "$pgdata" "SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming'" 1
        echo "standby in $pgdata streaming from the primary"
    fi
    ;;
sync)
    [ $# -eq 2 ] || die "usage: standby.sh sync PGDATA NAME"
    pgdata=$1; name=$2
    # Until the standby streams, a synchronous standby named would hold every commit: wait
    # for it (started just now, it may still be catching up).
    wait_for "standby $name to stream to the primary in $pgdata (start it first)" \
        answers "$pgdata" "SELECT count(*) FROM pg_stat_replication WHERE application_name = $(quote_literal "$name") AND state = 'streaming'" 1
    # pg_reload_conf() answers "t": not for the operator's screen.
    local_psql "$pgdata" >/dev/null <<SQL
ALTER SYSTEM SET synchronous_standby_names = $(quote_literal "$name");
ALTER SYSTEM SET synchronous_commit = 'on';
SELECT pg_reload_conf();
SQL
    # The primary takes a moment to treat the standby as synchronous: wait for it.
    wait_for "the primary in $pgdata to treat standby $name as synchronous" \
        answers "$pgdata" "SELECT sync_state FROM pg_stat_replication WHERE application_name = $(quote_literal "$name")" sync
    echo "commits now wait for standby $name"
    ;;
promote)
    [ $# -eq 1 ] || die "usage: standby.sh promote PGDATA"
    "$(pgbin)/pg_ctl" -D "$1" -w -t "$WAIT_SECONDS" promote
    wait_for "the promoted server in $1 to take writes" \
        answers "$1" "SELECT pg_is_in_recovery()" f
    echo "the server in $1 is the primary now"
    ;;
status)
    [ $# -eq 1 ] || die "usage: standby.sh status URL"
    "${GGDESK:-ggdesk}" --db "$1" status
    ;;
*)
    die "unknown step $cmd"
    ;;
esac
