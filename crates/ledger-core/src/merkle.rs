//! TIP-4 merkle tree hash (ledger.md §7.3).
