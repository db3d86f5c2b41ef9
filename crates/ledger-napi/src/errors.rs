//! napi binding: errors
