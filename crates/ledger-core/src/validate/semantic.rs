//! Semantic validation of a transaction (validation.md §8–§9).
