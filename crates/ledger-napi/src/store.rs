//! napi binding: store
