//! Hornet snapshots and the store (snapshot.md, D44): `load` builds a new ledger from a full
//! snapshot and optionally a delta on top (§4, §7), `export` writes the genesis of a data
//! directory as a full snapshot (§6). The file format itself is `ledger_core::snapshot`.

pub mod export;
pub mod load;
