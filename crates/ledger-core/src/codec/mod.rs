//! Binary codec (wire-format.md): strict decoding and canonical encoding. Owned by the codec work.
