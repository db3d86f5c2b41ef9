//! Identifiers and derived hashes (wire-format.md §4). Owned by the codec work.
