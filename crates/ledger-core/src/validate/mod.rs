//! The rules of validation.md: syntactic (§2–§7), storage deposit (§6) and semantic (§8).
