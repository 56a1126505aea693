//! PostgreSQL over TLS (`spec/server.md`, "Encryption"): a cluster that accepts only TLS with
//! a certificate signed by the event's authority lets in a URL that pins that authority
//! (`ggdesk_ca=sha256:HEX`) or names its file (`sslrootcert=PATH`); another authority's
//! certificate is refused during the handshake, before the login or a password is sent, in
//! words naming both fingerprints; plain text is refused to any other host before a
//! connection is tried (exit 2), and by the cluster's `pg_hba.conf` on loopback.

#[path = "support/pg.rs"]
mod pg;

use ggdesk::store::{Address, PlayerInput, ServerState, Store, StoreError, server_status};
use ggdesk::tls::{Authority, wrong_authority};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

const PASSWORD: &str = "tls-director-pw";

/// A cluster that speaks TLS with the event's certificate and refuses plain text.
struct TlsCluster {
    cluster: pg::Cluster,
    authority: Authority,
}

static TLS_CLUSTER: OnceLock<TlsCluster> = OnceLock::new();
static NEXT: AtomicU32 = AtomicU32::new(1);

/// Writes a file the server's user owns (mode 0600 for a key).
fn server_file(path: &Path, text: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).expect("write a server file");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    if pg::debian::is_root() {
        let ok = Command::new("chown")
            .arg("postgres:postgres")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "chown of {}", path.display());
    }
}

fn tls_cluster() -> &'static TlsCluster {
    TLS_CLUSTER.get_or_init(|| {
        let authority = Authority::create("test event").expect("authority");
        let cert = authority
            .issue(&["127.0.0.1".into(), "localhost".into()])
            .expect("server certificate");
        let bin = pg::bin_dir();
        let dir = pg::server_folder("pgtls");
        let port = pg::free_port();
        // The server presents its certificate and the authority's (the chain a pinned client
        // checks); its key is readable by the server's user only.
        server_file(
            &dir.join("server.crt"),
            &format!("{}{}", cert.cert_pem, authority.cert_pem()),
            0o644,
        );
        server_file(&dir.join("server.key"), &cert.key_pem, 0o600);
        server_file(
            &dir.join("pg_hba.conf"),
            "local all all trust\n\
             hostssl all all 127.0.0.1/32 scram-sha-256\n\
             hostnossl all all 0.0.0.0/0 reject\n",
            0o644,
        );
        let settings = [
            "ssl=on".to_string(),
            format!("ssl_cert_file={}", dir.join("server.crt").display()),
            format!("ssl_key_file={}", dir.join("server.key").display()),
            format!("hba_file={}", dir.join("pg_hba.conf").display()),
            "log_connections=on".to_string(),
        ];
        let settings: Vec<&str> = settings.iter().map(String::as_str).collect();
        pg::init_and_start(&bin, &dir, port, &settings);
        pg::stop_when_done(&bin, &dir);
        let cluster = pg::Cluster { dir, port, bin };
        cluster.psql(
            "postgres",
            &format!("CREATE ROLE director LOGIN CREATEDB PASSWORD '{PASSWORD}'"),
        );
        TlsCluster { cluster, authority }
    })
}

impl TlsCluster {
    /// A new database of the director's; its name.
    fn new_database(&self) -> String {
        let name = format!(
            "tls{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        self.cluster.psql(
            "postgres",
            &format!("CREATE DATABASE {name} OWNER director"),
        );
        name
    }

    /// The director's URL of database `db` on 127.0.0.1 with these parameters.
    fn url(&self, db: &str, params: &str) -> String {
        let url = format!(
            "postgres://director:{PASSWORD}@127.0.0.1:{}/{db}",
            self.cluster.port
        );
        if params.is_empty() {
            url
        } else {
            format!("{url}?{params}")
        }
    }

    fn pin(&self) -> String {
        format!("ggdesk_ca=sha256:{}", self.authority.fingerprint())
    }
}

fn connect(url: &str) -> Result<Store, StoreError> {
    Store::connect(&Address::Server(url.to_string()))
}

fn refusal(url: &str) -> StoreError {
    match connect(url) {
        Ok(_) => panic!("{url} was let in"),
        Err(e) => e,
    }
}

fn player(name: &str) -> PlayerInput {
    PlayerInput {
        name: name.into(),
        ..PlayerInput::default()
    }
}

/// A file of this test's own (an authority's certificate for `sslrootcert`).
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ggdesk-pgtls-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn the_events_authority_pinned_in_the_url_lets_the_desk_listener_and_status_in_over_tls() {
    let c = tls_cluster();
    let db = c.new_database();
    let url = c.url(&db, &c.pin());
    let mut store = connect(&url).expect("the pinned authority checks");
    let director = ggdesk::store::Actor::director();
    store
        .add_player(&player("Ana Reyes"), &director)
        .expect("a write over TLS");
    let names: Vec<String> = store
        .players()
        .expect("read back")
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["Ana Reyes"]);
    // The listener's connection goes the same way (plain text would be refused by pg_hba).
    let changes = store
        .listen(|| {})
        .expect("listen")
        .expect("a server listens");
    let mut up = changes.connected();
    for _ in 0..200 {
        if up {
            break;
        }
        let _ = changes.next(std::time::Duration::from_millis(50));
        up = changes.connected();
    }
    assert!(up, "the listener connected over TLS");
    assert_eq!(
        c.cluster.psql(
            &db,
            "SELECT bool_and(s.ssl)::text || ' ' || count(*) FROM pg_stat_ssl s \
             JOIN pg_stat_activity a USING (pid) \
             WHERE a.usename = 'director' AND a.datname = current_database()"
        ),
        "true 2",
        "the desk's and the listener's connections are both encrypted"
    );
    // `status` too: the director may not read the replication views, but is let in.
    assert_eq!(
        server_status(&Address::Server(url)).expect("status"),
        [ServerState::Unmonitored {
            host: format!("127.0.0.1:{}", c.cluster.port),
            standby: false,
        }]
    );
}

#[test]
fn another_authoritys_certificate_is_refused_naming_both_fingerprints() {
    let c = tls_cluster();
    let db = c.new_database();
    let other = Authority::create("test event").expect("another authority, same name");
    let url = c.url(&db, &format!("ggdesk_ca=sha256:{}", other.fingerprint()));
    let err = refusal(&url);
    let words = wrong_authority(&c.authority.fingerprint(), &other.fingerprint());
    assert!(matches!(&err, StoreError::Tls(m) if *m == words), "{err:?}");
    // `status` says the same of the host, and the command line exits 1 with it.
    assert_eq!(
        server_status(&Address::Server(url.clone())).expect("status"),
        [ServerState::Unreachable {
            host: format!("127.0.0.1:{}", c.cluster.port),
            detail: words.clone(),
        }]
    );
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "export", "tournament", "1", "-"])
        .output()
        .expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("ggdesk: {words}\n")
    );
    assert_eq!(out.status.code(), Some(1));
    // Nothing was created: the login never reached the database.
    assert_eq!(
        c.cluster.psql(
            &db,
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ),
        "0"
    );
}

/// What a fake server received: the bytes before its TLS handshake, and every byte the client
/// sent inside TLS (a startup message would carry the user's name; then a password).
struct Received {
    before_tls: Vec<u8>,
    inside_tls: Vec<u8>,
}

#[test]
fn nothing_but_the_handshake_reaches_a_server_whose_certificate_does_not_check() {
    let event = Authority::create("the event").expect("authority");
    let impostor = Authority::create("the event").expect("an impostor's authority");
    let cert = impostor
        .issue(&["127.0.0.1".into()])
        .expect("the impostor's certificate");
    let mut config = cert.server_config().expect("server config");
    config.alpn_protocols.clear();
    let config = std::sync::Arc::new(config);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("addr").port();
    let server = std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().expect("the client connects");
        // PostgreSQL's SSLRequest: length 8, code 80877103; the answer 'S' starts TLS.
        let mut before_tls = vec![0; 8];
        socket.read_exact(&mut before_tls).expect("SSLRequest");
        socket.write_all(b"S").expect("answer S");
        let conn = rustls::ServerConnection::new(config).expect("tls server");
        let mut tls = rustls::StreamOwned::new(conn, socket);
        let mut inside_tls = Vec::new();
        let mut buf = [0; 4096];
        // Until the client hangs up or the handshake fails.
        while let Ok(n) = tls.read(&mut buf) {
            if n == 0 {
                break;
            }
            inside_tls.extend_from_slice(&buf[..n]);
        }
        Received {
            before_tls,
            inside_tls,
        }
    });
    let url = format!(
        "postgres://director:{PASSWORD}@127.0.0.1:{port}/event?ggdesk_ca=sha256:{}",
        event.fingerprint()
    );
    let err = refusal(&url);
    assert_eq!(
        err.to_string(),
        wrong_authority(&impostor.fingerprint(), &event.fingerprint())
    );
    let received = server.join().expect("the fake server");
    assert_eq!(
        received.before_tls,
        [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f],
        "only the SSLRequest before TLS"
    );
    assert_eq!(
        String::from_utf8_lossy(&received.inside_tls),
        "",
        "no startup message, no user name, no password"
    );
}

#[test]
fn plain_text_to_another_host_exits_2_before_any_connection() {
    // Either host would fail otherwise, differently: no name resolves under .invalid, and
    // nothing answers at 10.255.255.1 (a connection attempt waits for its timeout).
    for host in ["example.invalid", "10.255.255.1"] {
        for mode in ["disable", "prefer", "require"] {
            let url = format!("postgres://director:{PASSWORD}@{host}:5432/event?sslmode={mode}");
            let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
                .args(["--db", &url, "export", "tournament", "1", "-"])
                .output()
                .expect("run");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!(
                    "ggdesk: sslmode={mode} is allowed only to this computer (localhost, \
                     127.0.0.0/8, ::1 or a socket), not to {host}: without it ggdesk checks \
                     the server's certificate (ggdesk_ca=sha256:HEX or sslrootcert=PATH in the \
                     URL, else the system's authorities); nothing was sent\n"
                )
            );
            assert_eq!(out.status.code(), Some(2), "{url}");
        }
    }
}

#[test]
fn the_authoritys_file_in_sslrootcert_checks_the_server() {
    let c = tls_cluster();
    let db = c.new_database();
    let file = temp_file("ca.crt", c.authority.cert_pem());
    let url = c.url(&db, &format!("sslrootcert={}", file.display()));
    let mut store = connect(&url).expect("the authority's file checks");
    store
        .add_player(&player("Ben Cruz"), &ggdesk::store::Actor::director())
        .expect("a write over TLS");
    assert_eq!(store.players().expect("read").len(), 1);

    // Another authority's file: refused, naming both.
    let other = Authority::create("another event").expect("authority");
    let wrong = temp_file("other.crt", other.cert_pem());
    let err = refusal(&c.url(&db, &format!("sslrootcert={}", wrong.display())));
    assert!(
        matches!(&err, StoreError::Tls(m)
            if *m == wrong_authority(&c.authority.fingerprint(), &other.fingerprint())),
        "{err:?}"
    );
    // A file of several authorities, none the server's: the set is named.
    let both = temp_file(
        "both.crt",
        &format!("{}{}", other.cert_pem(), third_authority_pem()),
    );
    let err = refusal(&c.url(&db, &format!("sslrootcert={}", both.display())));
    assert_eq!(
        err.to_string(),
        format!(
            "the server's certificate is signed by authority sha256:{}, which is not among \
             the 2 authorities of {}: refused before anything was sent",
            c.authority.fingerprint(),
            both.display()
        )
    );
    // A file that is not there.
    let missing = file.with_file_name("missing.crt");
    assert_eq!(
        refusal(&c.url(&db, &format!("sslrootcert={}", missing.display()))).to_string(),
        format!(
            "{}: No such file or directory (os error 2): the server's certificate cannot be \
             checked without it",
            missing.display()
        )
    );
}

/// One more authority's certificate, for a file of several.
fn third_authority_pem() -> String {
    Authority::create("a third event")
        .expect("authority")
        .cert_pem()
        .to_string()
}

#[test]
fn plain_text_on_loopback_is_refused_by_the_clusters_pg_hba() {
    let c = tls_cluster();
    let db = c.new_database();
    let words = format!(
        "not connected: nothing is being saved (pg_hba.conf rejects connection for host \
         \"127.0.0.1\", user \"director\", database \"{db}\", no encryption)"
    );
    // sslmode=disable, and no sslmode at all (plain text to this computer).
    for params in ["sslmode=disable", ""] {
        assert_eq!(refusal(&c.url(&db, params)).to_string(), words, "{params}");
    }
    // sslmode=require to loopback: TLS, its certificate unchecked (libpq's meaning).
    connect(&c.url(&db, "sslmode=require")).expect("require on loopback");
}

#[test]
fn a_server_without_tls_is_refused_when_the_url_names_an_authority() {
    let url = pg::new_database();
    let event = Authority::create("the event").expect("authority");
    let err = refusal(&format!("{url}?ggdesk_ca=sha256:{}", event.fingerprint()));
    assert_eq!(
        err.to_string(),
        "the server does not accept TLS, and ggdesk sends nothing to it in plain text (plain \
         text only to this computer: sslmode=disable)"
    );
}
