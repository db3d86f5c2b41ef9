//! The data directory's size on disk: what pruning by size measures, as Hornet's folder
//! size. (Size texts such as "30GB" are parsed where the configuration and the REST body
//! are read, `src/core/sizes.ts`.)

use std::path::Path;

/// The bytes of every file under `path` (the sum of their lengths, as Hornet's
/// `FolderSize`). Files that vanish while it counts (RocksDB deletes compacted files) are
/// skipped.
pub fn directory_size(path: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(path)? {
        let Ok(entry) = entry else { continue };
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() {
            total += directory_size(&entry.path()).unwrap_or(0);
        } else {
            total += meta.len();
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_size_counts_every_file_below_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), [0u8; 100]).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/b"), [0u8; 23]).unwrap();
        assert_eq!(directory_size(dir.path()).unwrap(), 123);
    }
}
