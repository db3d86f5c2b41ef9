//! Ed25519 signing and verification, single and batch.
