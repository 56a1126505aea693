//! The event's own certificate authority and the TLS every secret crosses the hall in
//! (`spec/server.md`, "Encryption").
//!
//! `ggdesk host` makes one authority per event (rcgen) and signs with it the certificates of
//! PostgreSQL and of the stations' API. Clients do not trust the system's roots for it: they
//! pin the authority by the SHA-256 fingerprint of its certificate (a station's card carries
//! its first 16 hex digits; `ggdesk_ca=sha256:HEX` in a director's URL), and check the
//! server's certificate against that one root. A certificate that does not check is refused
//! during the handshake, before any request or password is sent, in words naming the
//! fingerprint seen and the one expected.
//!
//! The crypto provider is rustls' `ring`, which builds with the C compiler already used.

use std::net::IpAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, SanType,
};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};
use sha2::{Digest, Sha256};

/// A fault of the event's certificates, named.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: {reason}")]
    File { path: String, reason: String },
    #[error("the certificate could not be made: {0}")]
    Make(String),
    #[error("TLS settings: {0}")]
    Config(String),
}

type Result<T> = std::result::Result<T, TlsError>;

/// The one crypto provider (rustls' `ring`).
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The SHA-256 fingerprint of a certificate (DER), 64 lowercase hex digits.
pub fn fingerprint(der: &[u8]) -> String {
    Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The first 16 hex digits of a fingerprint, as a card prints it.
pub fn short(fingerprint: &str) -> &str {
    &fingerprint[..fingerprint.len().min(16)]
}

/// The event's certificate authority: its certificate, its key and its name.
pub struct Authority {
    name: String,
    key: KeyPair,
    cert_der: Vec<u8>,
    cert_pem: String,
}

/// A server's certificate signed by the authority, with the chain a server presents
/// (its own certificate, then the authority's).
pub struct ServerCert {
    pub cert_pem: String,
    pub key_pem: String,
    pub chain: Vec<CertificateDer<'static>>,
}

const CA_CERT: &str = "ca.crt";
const CA_KEY: &str = "ca.key";
const CA_NAME: &str = "ca.name";

fn ca_params(name: &str) -> Result<CertificateParams> {
    let mut params =
        CertificateParams::new(Vec::<String>::new()).map_err(|e| TlsError::Make(e.to_string()))?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, name);
    dn.push(DnType::OrganizationName, "ggdesk");
    params.distinguished_name = dn;
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    params.not_before = rcgen::date_time_ymd(2024, 1, 1);
    params.not_after = rcgen::date_time_ymd(2124, 1, 1);
    Ok(params)
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| TlsError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

fn write(path: &Path, text: &str, private: bool) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    if private {
        options.mode(0o600);
    }
    let fault = |e: std::io::Error| TlsError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut file = options.open(path).map_err(fault)?;
    file.write_all(text.as_bytes()).map_err(fault)?;
    file.sync_all().map_err(fault)
}

impl Authority {
    /// A new authority named `name` (its certificate's common name).
    pub fn create(name: &str) -> Result<Authority> {
        let key = KeyPair::generate().map_err(|e| TlsError::Make(e.to_string()))?;
        let cert = ca_params(name)?
            .self_signed(&key)
            .map_err(|e| TlsError::Make(e.to_string()))?;
        Ok(Authority {
            name: name.to_string(),
            key,
            cert_der: cert.der().to_vec(),
            cert_pem: cert.pem(),
        })
    }

    /// Writes `DIR/ca.crt`, `DIR/ca.key` (mode 0600) and `DIR/ca.name`.
    pub fn save(&self, dir: &Path) -> Result<()> {
        write(&dir.join(CA_KEY), &self.key.serialize_pem(), true)?;
        write(&dir.join(CA_NAME), &self.name, false)?;
        write(&dir.join(CA_CERT), &self.cert_pem, false)
    }

    /// The authority kept in DIR by `save`.
    pub fn load(dir: &Path) -> Result<Authority> {
        let cert_path = dir.join(CA_CERT);
        let cert_pem = read(&cert_path)?;
        let key_path = dir.join(CA_KEY);
        let key = KeyPair::from_pem(&read(&key_path)?).map_err(|e| TlsError::File {
            path: key_path.display().to_string(),
            reason: e.to_string(),
        })?;
        let name = read(&dir.join(CA_NAME))?.trim().to_string();
        let cert_der = CertificateDer::from_pem_slice(cert_pem.as_bytes())
            .map_err(|e| TlsError::File {
                path: cert_path.display().to_string(),
                reason: e.to_string(),
            })?
            .to_vec();
        Ok(Authority {
            name,
            key,
            cert_der,
            cert_pem,
        })
    }

    pub fn cert_pem(&self) -> &str {
        &self.cert_pem
    }

    pub fn cert_der(&self) -> CertificateDer<'static> {
        CertificateDer::from(self.cert_der.clone())
    }

    /// The authority's SHA-256 fingerprint, 64 hex digits.
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.cert_der)
    }

    /// A server certificate for these host names and addresses, signed by the authority.
    pub fn issue(&self, names: &[String]) -> Result<ServerCert> {
        let mut params = CertificateParams::new(Vec::<String>::new())
            .map_err(|e| TlsError::Make(e.to_string()))?;
        let mut dn = DistinguishedName::new();
        dn.push(
            DnType::CommonName,
            names.first().map(String::as_str).unwrap_or("ggdesk"),
        );
        params.distinguished_name = dn;
        for name in names {
            let san = match name.parse::<IpAddr>() {
                Ok(ip) => SanType::IpAddress(ip),
                Err(_) => SanType::DnsName(
                    name.clone()
                        .try_into()
                        .map_err(|e: rcgen::Error| TlsError::Make(format!("{name}: {e}")))?,
                ),
            };
            if !params.subject_alt_names.contains(&san) {
                params.subject_alt_names.push(san);
            }
        }
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.not_before = rcgen::date_time_ymd(2024, 1, 1);
        params.not_after = rcgen::date_time_ymd(2124, 1, 1);
        let key = KeyPair::generate().map_err(|e| TlsError::Make(e.to_string()))?;
        let issuer = Issuer::new(ca_params(&self.name)?, &self.key);
        let cert = params
            .signed_by(&key, &issuer)
            .map_err(|e| TlsError::Make(e.to_string()))?;
        Ok(ServerCert {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
            chain: vec![cert.der().clone(), self.cert_der()],
        })
    }
}

impl ServerCert {
    /// A rustls server configuration presenting this certificate and the authority's.
    pub fn server_config(&self) -> Result<rustls::ServerConfig> {
        let key = PrivateKeyDer::from_pem_slice(self.key_pem.as_bytes())
            .map_err(|e| TlsError::Config(e.to_string()))?;
        let mut config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Config(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(self.chain.clone(), key)
            .map_err(|e| TlsError::Config(e.to_string()))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(config)
    }
}

/// Which authority a client accepts: a whole fingerprint, or (on first use, from a card)
/// the first hex digits of one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin(String);

impl Pin {
    /// A pin from hex digits (at least 16; `sha256:` may lead), or why not.
    pub fn parse(text: &str) -> std::result::Result<Pin, String> {
        let hex = text
            .trim()
            .strip_prefix("sha256:")
            .unwrap_or(text.trim())
            .replace(':', "")
            .to_ascii_lowercase();
        if hex.len() < 16 || hex.len() > 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "\"{text}\" is not an authority's fingerprint (16 to 64 hex digits)"
            ));
        }
        Ok(Pin(hex))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn accepts(&self, fingerprint: &str) -> bool {
        fingerprint.starts_with(&self.0)
    }
}

/// The client's check: the server's chain must lead to the pinned authority, and the server's
/// certificate must be valid for the name or address the client dialled. The fingerprint seen
/// is kept, for the desk to remember after a first use.
#[derive(Debug)]
pub struct PinnedAuthority {
    pin: Pin,
    seen: Mutex<Option<String>>,
    /// The pinned authority's certificate (DER), once a server presented it in its chain.
    authority: Mutex<Option<Vec<u8>>>,
    provider: Arc<CryptoProvider>,
}

impl PinnedAuthority {
    pub fn new(pin: Pin) -> Arc<PinnedAuthority> {
        Arc::new(PinnedAuthority {
            pin,
            seen: Mutex::new(None),
            authority: Mutex::new(None),
            provider: provider(),
        })
    }

    /// The authority's whole fingerprint as the last handshake presented it.
    pub fn seen(&self) -> Option<String> {
        self.seen.lock().map(|s| s.clone()).unwrap_or(None)
    }

    /// The pinned authority's certificate as a server presented it (PEM), after a handshake
    /// that checked: what a standby keeps to check its primary with.
    pub fn authority_pem(&self) -> Option<String> {
        let der = self.authority.lock().ok()?.clone()?;
        Some(pem::encode(&pem::Pem::new("CERTIFICATE", der)))
    }

    /// A client configuration that checks servers with this pin.
    pub fn client_config(self: &Arc<Self>) -> Result<rustls::ClientConfig> {
        Ok(
            rustls::ClientConfig::builder_with_provider(self.provider.clone())
                .with_safe_default_protocol_versions()
                .map_err(|e| TlsError::Config(e.to_string()))?
                .dangerous()
                .with_custom_certificate_verifier(self.clone())
                .with_no_client_auth(),
        )
    }
}

/// The words of a refused authority (both fingerprints named).
pub fn wrong_authority(seen: &str, expected: &str) -> String {
    format!(
        "the server's certificate is signed by authority sha256:{seen}, not by this event's \
         authority sha256:{expected}: refused before anything was sent"
    )
}

/// The words of a certificate whose authority is not among several accepted (a CA file's, or
/// the system's): the fingerprint seen, and which authorities were expected.
pub fn not_among(seen: &str, expected: &str) -> String {
    format!(
        "the server's certificate is signed by authority sha256:{seen}, which is not among \
         {expected}: refused before anything was sent"
    )
}

/// The fingerprint of the authority a server presented: the last certificate of its chain (the
/// server's own when it sent no other).
fn top_of_chain(end_entity: &CertificateDer<'_>, intermediates: &[CertificateDer<'_>]) -> String {
    intermediates
        .last()
        .map(|c| fingerprint(c))
        .unwrap_or_else(|| fingerprint(end_entity))
}

/// The certificates of a PEM text (a CA file), in order; other PEM sections are skipped.
pub fn pem_certificates(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>> {
    CertificateDer::pem_slice_iter(pem)
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| TlsError::Config(e.to_string()))
}

/// The client's check against a set of authorities (a CA file's, or the system's): webpki's,
/// server name included, with a refusal of an unknown authority put in words that name the
/// fingerprint seen and the one (or the set) expected.
#[derive(Debug)]
pub struct KnownAuthorities {
    inner: Arc<rustls::client::WebPkiServerVerifier>,
    /// The one authority's fingerprint, or the set's description.
    expected: Expected,
    provider: Arc<CryptoProvider>,
}

#[derive(Debug)]
enum Expected {
    One(String),
    Set(String),
}

impl KnownAuthorities {
    /// A check against these authorities' certificates; `described` names the set in a
    /// refusal when there is more than one ("the 140 authorities of /etc/ssl/...").
    pub fn new(certs: Vec<CertificateDer<'static>>, described: &str) -> Result<Arc<Self>> {
        let expected = match certs.as_slice() {
            [one] => Expected::One(fingerprint(one)),
            _ => Expected::Set(described.to_string()),
        };
        let mut roots = RootCertStore::empty();
        let (added, _) = roots.add_parsable_certificates(certs);
        if added == 0 {
            return Err(TlsError::Config(format!(
                "{described}: no authority's certificate"
            )));
        }
        let provider = provider();
        let inner = rustls::client::WebPkiServerVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .build()
        .map_err(|e| TlsError::Config(e.to_string()))?;
        Ok(Arc::new(KnownAuthorities {
            inner,
            expected,
            provider,
        }))
    }

    /// A client configuration that checks servers against these authorities.
    pub fn client_config(self: &Arc<Self>) -> Result<rustls::ClientConfig> {
        Ok(
            rustls::ClientConfig::builder_with_provider(self.provider.clone())
                .with_safe_default_protocol_versions()
                .map_err(|e| TlsError::Config(e.to_string()))?
                .dangerous()
                .with_custom_certificate_verifier(self.clone())
                .with_no_client_auth(),
        )
    }
}

impl ServerCertVerifier for KnownAuthorities {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        use rustls::CertificateError::{BadSignature, UnknownIssuer};
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
            .map_err(|e| match e {
                rustls::Error::InvalidCertificate(UnknownIssuer | BadSignature) => {
                    let seen = top_of_chain(end_entity, intermediates);
                    rustls::Error::General(match &self.expected {
                        Expected::One(fp) => wrong_authority(&seen, fp),
                        Expected::Set(described) => not_among(&seen, described),
                    })
                }
                other => other,
            })
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// No check of the certificate at all, only of the handshake's signatures: what libpq's
/// `sslmode=require` (and `prefer`) mean without an authority. ggdesk uses it only to this
/// computer (a loopback address), where nobody stands between the two ends; a URL to another
/// host always names an authority or uses the system's.
#[derive(Debug)]
pub struct LoopbackUnchecked {
    provider: Arc<CryptoProvider>,
}

impl LoopbackUnchecked {
    pub fn client_config() -> Result<rustls::ClientConfig> {
        let provider = provider();
        Ok(
            rustls::ClientConfig::builder_with_provider(provider.clone())
                .with_safe_default_protocol_versions()
                .map_err(|e| TlsError::Config(e.to_string()))?
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(LoopbackUnchecked { provider }))
                .with_no_client_auth(),
        )
    }
}

impl ServerCertVerifier for LoopbackUnchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

impl ServerCertVerifier for PinnedAuthority {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        let root = intermediates
            .iter()
            .find(|c| self.pin.accepts(&fingerprint(c)));
        let Some(root) = root else {
            let seen = top_of_chain(end_entity, intermediates);
            if let Ok(mut s) = self.seen.lock() {
                *s = Some(seen.clone());
            }
            return Err(rustls::Error::General(wrong_authority(
                &seen,
                self.pin.as_str(),
            )));
        };
        let mut roots = RootCertStore::empty();
        roots
            .add(root.clone().into_owned())
            .map_err(|e| rustls::Error::General(format!("the authority's certificate: {e}")))?;
        let verifier = rustls::client::WebPkiServerVerifier::builder_with_provider(
            Arc::new(roots),
            self.provider.clone(),
        )
        .build()
        .map_err(|e| rustls::Error::General(e.to_string()))?;
        let others: Vec<CertificateDer<'_>> = intermediates
            .iter()
            .filter(|c| *c != root)
            .cloned()
            .collect();
        let verified =
            verifier.verify_server_cert(end_entity, &others, server_name, ocsp_response, now)?;
        if let Ok(mut s) = self.seen.lock() {
            *s = Some(fingerprint(root));
        }
        if let Ok(mut a) = self.authority.lock() {
            *a = Some(root.to_vec());
        }
        Ok(verified)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_certificate_checks_against_its_authority_and_not_another() {
        let ca = Authority::create("ggdesk event authority test").expect("authority");
        let cert = ca
            .issue(&["localhost".into(), "127.0.0.1".into()])
            .expect("cert");
        let name = ServerName::try_from("127.0.0.1").expect("name");
        let ok = PinnedAuthority::new(Pin::parse(short(&ca.fingerprint())).expect("pin"));
        ok.verify_server_cert(
            &cert.chain[0],
            &cert.chain[1..],
            &name,
            &[],
            UnixTime::now(),
        )
        .expect("checks");
        assert_eq!(ok.seen(), Some(ca.fingerprint()));

        let other = Authority::create("another").expect("authority");
        let pinned_other = PinnedAuthority::new(Pin::parse(&other.fingerprint()).expect("pin"));
        let err = pinned_other
            .verify_server_cert(
                &cert.chain[0],
                &cert.chain[1..],
                &name,
                &[],
                UnixTime::now(),
            )
            .expect_err("another authority");
        assert_eq!(
            err.to_string(),
            rustls::Error::General(wrong_authority(&ca.fingerprint(), &other.fingerprint()))
                .to_string()
        );
    }

    #[test]
    fn a_certificate_for_another_address_is_refused() {
        let ca = Authority::create("t").expect("authority");
        let cert = ca.issue(&["127.0.0.1".into()]).expect("cert");
        let pinned = PinnedAuthority::new(Pin::parse(&ca.fingerprint()).expect("pin"));
        let name = ServerName::try_from("127.0.0.2").expect("name");
        let err = pinned
            .verify_server_cert(
                &cert.chain[0],
                &cert.chain[1..],
                &name,
                &[],
                UnixTime::now(),
            )
            .expect_err("wrong address");
        assert!(
            matches!(
                err,
                rustls::Error::InvalidCertificate(
                    rustls::CertificateError::NotValidForNameContext { .. }
                )
            ),
            "{err:?}"
        );
    }

    #[test]
    fn a_saved_authority_loads_and_still_signs_what_its_pin_accepts() {
        let dir = tempfile::tempdir().expect("dir");
        let ca = Authority::create("saved").expect("authority");
        ca.save(dir.path()).expect("save");
        let loaded = Authority::load(dir.path()).expect("load");
        assert_eq!(loaded.fingerprint(), ca.fingerprint());
        let cert = loaded.issue(&["127.0.0.1".into()]).expect("cert");
        let pinned = PinnedAuthority::new(Pin::parse(&ca.fingerprint()).expect("pin"));
        let name = ServerName::try_from("127.0.0.1").expect("name");
        pinned
            .verify_server_cert(
                &cert.chain[0],
                &cert.chain[1..],
                &name,
                &[],
                UnixTime::now(),
            )
            .expect("a certificate issued after loading checks");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("ca.key"))
            .expect("key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_ca_file_checks_its_authoritys_certificates_and_names_what_it_expected() {
        let ca = Authority::create("file").expect("authority");
        let cert = ca.issue(&["127.0.0.1".into()]).expect("cert");
        let name = ServerName::try_from("127.0.0.1").expect("name");
        let check = |pem: &str, described: &str| {
            let certs = pem_certificates(pem.as_bytes()).expect("pem");
            KnownAuthorities::new(certs, described)
                .expect("authorities")
                .verify_server_cert(
                    &cert.chain[0],
                    &cert.chain[1..],
                    &name,
                    &[],
                    UnixTime::now(),
                )
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        check(ca.cert_pem(), "one").expect("its own authority checks");
        let other = Authority::create("other").expect("authority");
        assert_eq!(
            check(other.cert_pem(), "one"),
            Err(
                rustls::Error::General(wrong_authority(&ca.fingerprint(), &other.fingerprint()))
                    .to_string()
            )
        );
        let third = Authority::create("third").expect("authority");
        let two = format!("{}{}", other.cert_pem(), third.cert_pem());
        assert_eq!(
            check(&two, "the 2 authorities of two.pem"),
            Err(rustls::Error::General(not_among(
                &ca.fingerprint(),
                "the 2 authorities of two.pem"
            ))
            .to_string())
        );
        let both = format!("{}{}", other.cert_pem(), ca.cert_pem());
        check(&both, "both").expect("one of several checks");
        assert!(
            KnownAuthorities::new(Vec::new(), "nothing.pem").is_err(),
            "no authority at all"
        );
    }

    #[test]
    fn a_pin_needs_sixteen_hex_digits() {
        assert_eq!(
            Pin::parse("abc"),
            Err("\"abc\" is not an authority's fingerprint (16 to 64 hex digits)".into())
        );
        assert_eq!(
            Pin::parse("sha256:0123456789ABCDEF").map(|p| p.as_str().to_string()),
            Ok("0123456789abcdef".into())
        );
    }
}
