//! What every JavaScript thread of the process finds by a store's key (its data directory,
//! canonical): the open store, for `LedgerStore.attach` on an HTTP worker thread (RocksDB
//! opens a directory once per process), and the store's hook for its own blocks
//! (`ledger_sync::LocalBlocks`), so that a block submitted on any event loop reaches the
//! gossip that runs over the store (docs/performance.md). Weak entries (shared.rs): each
//! lives while a handle holds it.

use crate::shared::Shared;
use ledger_store::Store;
use ledger_sync::LocalBlocks;
use std::path::Path;

/// Stores open in this process, by data directory.
pub(crate) static OPEN_STORES: Shared<Store> = Shared::new();

/// The own-blocks hook of each open store, by the same key: an attached handle announces
/// through the owner's hook.
pub(crate) static LOCAL_BLOCKS: Shared<LocalBlocks> = Shared::new();

/// The key of the store in `data_dir` (RocksDB lives in `dataDir/ledger`): its canonical
/// path, so that two spellings of one directory find the same store.
pub(crate) fn store_key(data_dir: &str) -> String {
    let ledger = Path::new(data_dir).join("ledger");
    std::fs::canonicalize(&ledger).unwrap_or(ledger).to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_spellings_of_one_directory_are_one_key() {
        let dir = std::env::temp_dir().join(format!("ledger-napi-key-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("ledger")).unwrap();
        let plain = store_key(dir.to_str().unwrap());
        let roundabout = store_key(dir.join("ledger").join("..").to_str().unwrap());
        assert_eq!(plain, roundabout);
        assert!(plain.ends_with("ledger"));
        std::fs::remove_dir_all(&dir).unwrap();
        // Before the directory exists (a store being created) the key is the joined path.
        assert_eq!(store_key("/no/such/dir"), "/no/such/dir/ledger");
    }
}
