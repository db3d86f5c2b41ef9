//! Tagged data payload (validation.md §3): a tag of at most 64 bytes; the data is bounded
//! only by the block size.

use crate::error::{Code, Error, Result};
use crate::model::TaggedData;

pub const MAX_TAG_LENGTH: usize = 64;

/// `path` is the payload's own path (`payload`, `payload.essence.payload`).
pub(crate) fn validate_tagged_data(t: &TaggedData, path: &str) -> Result<()> {
    if t.tag.len() > MAX_TAG_LENGTH {
        return Err(Error::new(
            Code::TagTooLong,
            format!("{path}.tag"),
            format!("{} bytes, at most {MAX_TAG_LENGTH}", t.tag.len()),
        ));
    }
    Ok(())
}
