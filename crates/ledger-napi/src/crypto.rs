//! napi binding: crypto
