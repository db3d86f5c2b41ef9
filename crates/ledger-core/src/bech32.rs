//! Bech32 addresses (BIP-173, wire-format.md §7.2). Owned by the codec work.
