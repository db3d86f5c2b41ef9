//! napi binding: codec
