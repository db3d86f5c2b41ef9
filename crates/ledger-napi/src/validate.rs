//! napi binding: validate
