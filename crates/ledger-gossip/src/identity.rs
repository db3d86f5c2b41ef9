//! The node's p2p identity in Hornet's formats (gossip.md §1, §2): an Ed25519 key whose
//! peer id is the identity multihash of its protobuf-encoded public key (`12D3KooW…`).
//!
//! * configured (`p2p.identityPrivateKey`): hex of the 64-byte private key (32-byte seed ‖
//!   32-byte public key, Hornet's and Go's format; the public half must match the seed) or
//!   of the 32-byte seed alone;
//! * persisted (`p2p.identityFile`): a PEM `PRIVATE KEY` block holding PKCS#8 DER, as
//!   Hornet writes `p2pstore/identity.key` (hive.go `crypto/pem`), so the file can move
//!   between the two nodes.
//!
//! On start a persisted key wins; a configured key that differs from it is an error, as in
//! Hornet, so a node never changes its peer id behind its peers' backs.

use data_encoding::BASE64;
use libp2p::identity::{ed25519, Keypair};
use libp2p::PeerId;
use rand::RngCore;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// PKCS#8 v1 DER of an Ed25519 private key, up to the 32-byte seed (RFC 8410 §7):
/// SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING seed } }.
const PKCS8_ED25519_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];
const PEM_BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
const PEM_END: &str = "-----END PRIVATE KEY-----";

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error("p2p.identityPrivateKey: {0}")]
    InvalidConfiguredKey(String),
    #[error("identity file {path}: {detail}")]
    InvalidFile { path: PathBuf, detail: String },
    #[error("identity file {path} holds the key of peer {stored}, but p2p.identityPrivateKey is the key of peer {configured}; remove one of them")]
    Mismatch { path: PathBuf, stored: String, configured: String },
    #[error("identity file {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// The identity the node runs with, and whether it was created on this start.
pub struct LoadedIdentity {
    pub keypair: Keypair,
    pub created: bool,
}

impl LoadedIdentity {
    pub fn peer_id(&self) -> PeerId {
        self.keypair.public().to_peer_id()
    }
}

/// The key of `p2p.identityPrivateKey`: hex (an optional `0x` allowed) of the 64-byte private
/// key or of the 32-byte seed.
pub fn keypair_from_hex(text: &str) -> Result<Keypair, IdentityError> {
    let text = text.trim();
    let hex_digits = text.strip_prefix("0x").unwrap_or(text);
    let mut bytes = hex::decode(hex_digits)
        .map_err(|e| IdentityError::InvalidConfiguredKey(format!("not hex ({e})")))?;
    match bytes.len() {
        64 => ed25519::Keypair::try_from_bytes(&mut bytes).map(Keypair::from).map_err(|_| {
            IdentityError::InvalidConfiguredKey(
                "the last 32 bytes are not the public key of the first 32".into(),
            )
        }),
        32 => Ok(keypair_from_seed(&mut bytes)),
        n => Err(IdentityError::InvalidConfiguredKey(format!(
            "expected 64 bytes (seed ‖ public key) or a 32-byte seed, got {n} bytes"
        ))),
    }
}

/// Load the persisted identity, or create and persist one (the configured key if any, else
/// a random one).
pub fn load_or_create(
    path: &Path,
    configured: Option<&str>,
) -> Result<LoadedIdentity, IdentityError> {
    let configured =
        configured.filter(|k| !k.trim().is_empty()).map(keypair_from_hex).transpose()?;
    match fs::read_to_string(path) {
        Ok(text) => {
            let keypair = keypair_from_pem(&text)
                .map_err(|detail| IdentityError::InvalidFile { path: path.into(), detail })?;
            if let Some(configured) = configured {
                let (stored, configured) =
                    (keypair.public().to_peer_id(), configured.public().to_peer_id());
                if stored != configured {
                    let (stored, configured) = (stored.to_string(), configured.to_string());
                    return Err(IdentityError::Mismatch { path: path.into(), stored, configured });
                }
            }
            Ok(LoadedIdentity { keypair, created: false })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let keypair = match configured {
                Some(keypair) => keypair,
                None => {
                    let mut seed = [0u8; 32];
                    rand::rngs::OsRng.fill_bytes(&mut seed);
                    keypair_from_seed(&mut seed)
                }
            };
            write_private_file(path, keypair_to_pem(&keypair).as_bytes())
                .map_err(|source| IdentityError::Io { path: path.into(), source })?;
            Ok(LoadedIdentity { keypair, created: true })
        }
        Err(source) => Err(IdentityError::Io { path: path.into(), source }),
    }
}

fn keypair_from_seed(seed: &mut [u8]) -> Keypair {
    // A 32-byte slice is always a valid Ed25519 secret key.
    Keypair::ed25519_from_bytes(seed).expect("32-byte seed")
}

fn seed_of(keypair: &Keypair) -> [u8; 32] {
    // The node only ever builds Ed25519 identities (all constructors above).
    let ed = keypair.clone().try_into_ed25519().expect("an Ed25519 identity");
    let mut seed = [0u8; 32];
    seed.copy_from_slice(&ed.to_bytes()[..32]);
    seed
}

/// PEM text of the key as Hornet writes it: PKCS#8 DER, base64 in lines of 64 characters.
pub fn keypair_to_pem(keypair: &Keypair) -> String {
    let mut der = PKCS8_ED25519_PREFIX.to_vec();
    der.extend_from_slice(&seed_of(keypair));
    let base64 = BASE64.encode(&der);
    let mut pem = format!("{PEM_BEGIN}\n");
    for line in base64.as_bytes().chunks(64) {
        pem.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        pem.push('\n');
    }
    pem.push_str(PEM_END);
    pem.push('\n');
    pem
}

/// The key of a PEM `PRIVATE KEY` block holding an Ed25519 PKCS#8 (v1) structure.
pub fn keypair_from_pem(text: &str) -> Result<Keypair, String> {
    let start = text.find(PEM_BEGIN).ok_or("no PEM \"PRIVATE KEY\" block")? + PEM_BEGIN.len();
    let end = text[start..].find(PEM_END).ok_or("PEM block without its END line")? + start;
    let base64: String = text[start..end].chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let der =
        BASE64.decode(base64.as_bytes()).map_err(|e| format!("PEM body is not base64 ({e})"))?;
    match der.strip_prefix(&PKCS8_ED25519_PREFIX[..]) {
        Some(seed) if seed.len() == 32 => Ok(keypair_from_seed(&mut seed.to_vec())),
        _ => Err("not an Ed25519 PKCS#8 private key".into()),
    }
}

/// Write a secret: readable by the owner only, in full or not at all (temporary file, rename).
fn write_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp)?;
    file.write_all(contents)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hornet's public private-tangle p2p test keys (shared/interop/common.sh) and their peer ids.
    const KEYS: [(&str, &str); 3] = [
        (
            "1f46fad4f538a031d4f87f490f6bca4319dfd0307636a5759a22b5e8874bd608f9156ba976a12918c16a481c38c88a7b5351b769adc30390e93b6c0a63b09b79",
            "12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY",
        ),
        (
            "a06b288ce7fc3b6f1e716f6f7d72050b53417aae4b305a68883550a3bb28597f254b082515a79391a7f13009b4133851a0c4d48e0e948809c3b46ff3e2500b4f",
            "12D3KooWCKwcTWevoRKa2kEBputeGASvEBuDfRDSbe8t1DWugUmL",
        ),
        (
            "5126767a84e1ced849dbbf2be809fd40f90bcfb81bd0d3309e2e25e34f803bf265500854f1f0e8fd3c389cf7b6b59cfd422b9319f257e2a8d3a772973560acdd",
            "12D3KooWGdr8M5KX8KuKaXSiKfHJstdVnRkadYmupF7tFk2HrRoA",
        ),
    ];

    #[test]
    fn hornet_keys_give_hornet_peer_ids() {
        for (key, peer_id) in KEYS {
            assert_eq!(keypair_from_hex(key).unwrap().public().to_peer_id().to_string(), peer_id);
            // The seed alone gives the same identity.
            assert_eq!(
                keypair_from_hex(&key[..64]).unwrap().public().to_peer_id().to_string(),
                peer_id
            );
            assert_eq!(
                keypair_from_hex(&format!("0x{key}")).unwrap().public().to_peer_id().to_string(),
                peer_id
            );
        }
    }

    #[test]
    fn bad_configured_keys_are_refused() {
        let (key, _) = KEYS[0];
        let mut mismatched = key.to_string();
        mismatched.replace_range(127..128, if key.ends_with('9') { "8" } else { "9" });
        for bad in ["zz", &key[..62], &key[..66], &mismatched] {
            assert!(
                matches!(keypair_from_hex(bad), Err(IdentityError::InvalidConfiguredKey(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn pem_is_pkcs8_and_round_trips() {
        let keypair = keypair_from_hex(KEYS[2].0).unwrap();
        let pem = keypair_to_pem(&keypair);
        // What Go's x509.MarshalPKCS8PrivateKey + pem.Encode write for this seed.
        assert_eq!(
            pem,
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIFEmdnqE4c7YSdu/K+gJ/UD5C8+4G9DTMJ4uJeNPgDvy\n-----END PRIVATE KEY-----\n"
        );
        assert_eq!(keypair_from_pem(&pem).unwrap().public(), keypair.public());
        assert!(keypair_from_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
            .is_err());
        assert!(keypair_from_pem("garbage").is_err());
    }

    /// A fresh folder under the system's temporary folder, removed on drop.
    struct TestDir(PathBuf);

    impl Drop for TestDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn load_or_create_persists_and_checks_the_configured_key() {
        let dir = TestDir(
            std::env::temp_dir()
                .join(format!("ledger-gossip-identity-{}", hex::encode(rand::random::<[u8; 8]>()))),
        );
        let path = dir.0.join("p2p").join("identity.key");

        let first = load_or_create(&path, None).unwrap();
        assert!(first.created);
        let again = load_or_create(&path, Some("")).unwrap();
        assert!(!again.created);
        assert_eq!(again.peer_id(), first.peer_id());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }

        let err = load_or_create(&path, Some(KEYS[0].0)).err().unwrap();
        assert!(matches!(err, IdentityError::Mismatch { .. }), "{err}");

        let configured_path = dir.0.join("configured.key");
        let configured = load_or_create(&configured_path, Some(KEYS[1].0)).unwrap();
        assert!(configured.created);
        assert_eq!(configured.peer_id().to_string(), KEYS[1].1);
        assert_eq!(
            load_or_create(&configured_path, Some(KEYS[1].0)).unwrap().peer_id().to_string(),
            KEYS[1].1
        );

        fs::write(&configured_path, "not a key").unwrap();
        assert!(matches!(
            load_or_create(&configured_path, None),
            Err(IdentityError::InvalidFile { .. })
        ));
    }
}
