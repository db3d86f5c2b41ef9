//! API JSON mapping both ways (wire-format.md §2, D14, D15). Owned by the codec work.
