//! The store binding arrives with the RocksDB store (crates/ledger-store).
