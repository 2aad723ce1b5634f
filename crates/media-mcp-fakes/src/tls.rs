//! HTTPS for the fakes: [`TestCa`] makes a certificate authority and a leaf certificate for
//! `127.0.0.1` and `localhost` with `rcgen`, in memory, so every test run has its own keys and
//! nothing secret is checked in. The CA certificate is what a harness is told to trust
//! (`OMBI_CA_FILE` / `MOVIEPILOT_CA_FILE`); the leaf and its key serve the fake.

use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A certificate authority made for one test, with a leaf certificate for loopback.
pub struct TestCa {
    ca_pem: String,
    leaf: CertificateDer<'static>,
    leaf_key_der: Vec<u8>,
}

impl std::fmt::Debug for TestCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestCa").finish_non_exhaustive()
    }
}

impl TestCa {
    /// A fresh CA named `name` and a leaf it signed for `127.0.0.1` and `localhost`.
    ///
    /// # Panics
    ///
    /// Key generation or signing fails (not expected with the ring provider).
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().expect("CA key"))
            .expect("self-signing the CA");
        let leaf_params =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
                .expect("leaf parameters");
        let leaf_key = KeyPair::generate().expect("leaf key");
        let leaf = leaf_params
            .signed_by(&leaf_key, &ca)
            .expect("signing the leaf");
        TestCa {
            ca_pem: ca.pem(),
            leaf: leaf.der().clone(),
            leaf_key_der: leaf_key.serialize_der(),
        }
    }

    /// The CA certificate, PEM: the file a client is told to trust.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// A TLS server configuration presenting the leaf certificate (HTTP/1.1 only).
    pub(crate) fn server_config(&self) -> Arc<rustls::ServerConfig> {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.leaf_key_der.clone()));
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![self.leaf.clone()], key)
        .expect("the leaf and its key match");
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Arc::new(config)
    }
}
