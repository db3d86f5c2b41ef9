//! Hornet full snapshots and the store (snapshot.md, D44): `load` builds a new ledger from
//! one (§4), `export` writes the genesis of a data directory as one (§6). The file format
//! itself is `ledger_core::snapshot`.

pub mod export;
pub mod load;
