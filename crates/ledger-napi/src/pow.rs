//! napi binding: pow
