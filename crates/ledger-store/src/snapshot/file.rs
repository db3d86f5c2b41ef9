//! Writing a snapshot file so that nothing half-written ever carries its name (snapshot.md
//! §8): the bytes go to `<name>.tmp` beside it, are fsynced, and only then renamed over the
//! final name, and the folder is fsynced so the rename itself survives a crash. A process
//! killed at any moment leaves either the old file (or none) under the final name, plus at
//! most a stale `.tmp`, which the next write truncates and nothing ever loads.
//!
//! Counts and offsets that are known only at the end are patched in place before the sync
//! (`patch`), as Hornet's writer seeks back to its header.

use ledger_core::{Code, Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The temporary name a snapshot is written under before it is renamed into place.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

pub fn write_failed(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::new(Code::SnapshotWriteFailed, "filePath", format!("{}: {e}", path.display()))
}

/// A snapshot file being written.
pub struct SnapshotFile {
    path: PathBuf,
    temp: PathBuf,
    out: BufWriter<File>,
    written: u64,
    /// Test hook (snapshot.md §8): sleep this long after every record, flushing first, so
    /// that a test can watch the temporary file grow and kill the writer in the middle.
    pace: Option<Duration>,
}

impl SnapshotFile {
    /// Start writing what will become `path` (its folder is created when missing).
    pub fn create(path: &Path, pace: Option<Duration>) -> Result<SnapshotFile> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| write_failed(dir, e))?;
        }
        let temp = temp_path(path);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temp)
            .map_err(|e| write_failed(&temp, e))?;
        Ok(SnapshotFile {
            path: path.to_path_buf(),
            temp,
            out: BufWriter::with_capacity(1 << 20, file),
            written: 0,
            pace,
        })
    }

    /// Start from a copy of the first `keep` bytes of `existing` (a delta snapshot being
    /// extended: its header and diffs, without its solid entry points). The existing file
    /// stays as it is until the new one replaces it.
    pub fn extending(
        existing: &Path,
        keep: u64,
        path: &Path,
        pace: Option<Duration>,
    ) -> Result<SnapshotFile> {
        let mut file = SnapshotFile::create(path, pace)?;
        let source = File::open(existing).map_err(|e| write_failed(existing, e))?;
        let copied = std::io::copy(&mut std::io::Read::take(source, keep), &mut file.out)
            .map_err(|e| write_failed(&file.temp, e))?;
        if copied != keep {
            return Err(write_failed(
                existing,
                format!("{copied} bytes where the header promises {keep}"),
            ));
        }
        file.written = keep;
        Ok(file)
    }

    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(|e| write_failed(&self.temp, e))?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// A record is complete: the place where the test hook may pause.
    pub fn record_done(&mut self) -> Result<()> {
        if let Some(pace) = self.pace {
            self.out.flush().map_err(|e| write_failed(&self.temp, e))?;
            std::thread::sleep(pace);
        }
        Ok(())
    }

    /// Bytes written so far (the offset of the next byte).
    pub fn position(&self) -> u64 {
        self.written
    }

    /// Overwrite bytes written earlier, at `offset`.
    pub fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<()> {
        let temp = self.temp.clone();
        let fail = |e: std::io::Error| write_failed(&temp, e);
        self.out.flush().map_err(fail)?;
        let file = self.out.get_mut();
        file.seek(SeekFrom::Start(offset)).map_err(fail)?;
        file.write_all(bytes).map_err(fail)?;
        file.seek(SeekFrom::End(0)).map_err(fail)?;
        Ok(())
    }

    /// Sync the bytes, rename the file into place and sync its folder; the file's size.
    pub fn commit(self) -> Result<u64> {
        let SnapshotFile { path, temp, out, written, .. } = self;
        let fail = |e: std::io::Error| write_failed(&temp, e);
        let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        drop(file);
        std::fs::rename(&temp, &path).map_err(|e| write_failed(&path, e))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // The rename is durable once the folder's entry is: fsync the folder (on
            // platforms where a folder cannot be opened this way, the rename still happened).
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(written)
    }

    /// Give up: the temporary file is removed, the final name never existed or is untouched.
    pub fn abandon(self) {
        let SnapshotFile { temp, out, .. } = self;
        drop(out);
        let _ = std::fs::remove_file(temp);
    }
}
