//! Feature rules (validation.md §5.2 allowed sets, §5.4 per feature).

use super::ordering::{strictly_after, List};
use super::output::MAX_METADATA_LENGTH;
use super::tagged_data::MAX_TAG_LENGTH;
use crate::error::{Code, Error, Result};
use crate::model::*;

/// `allowed` is the list's set of feature codes; `path` the list's own path.
pub(crate) fn validate_features(list: &[Feature], allowed: &[u8], path: &str) -> Result<()> {
    for (i, f) in list.iter().enumerate() {
        let at = crate::path::index(path, i);
        let kind = f.type_code();
        if !allowed.contains(&kind) {
            return Err(Error::new(
                Code::FeatureNotAllowed,
                format!("{at}.type"),
                format!("feature type {kind} is not allowed here"),
            ));
        }
        if i > 0 {
            strictly_after(&list[i - 1].type_code(), &kind, List::Features, || {
                format!("{at}.type")
            })?;
        }
        match f {
            Feature::Metadata(d) if d.is_empty() => {
                return Err(Error::new(
                    Code::MetadataFeatureEmpty,
                    format!("{at}.data"),
                    "metadata must not be empty",
                ))
            }
            Feature::Metadata(d) if d.len() > MAX_METADATA_LENGTH => {
                return Err(Error::new(
                    Code::MetadataFeatureTooLong,
                    format!("{at}.data"),
                    format!("{} bytes, at most {MAX_METADATA_LENGTH}", d.len()),
                ))
            }
            Feature::Tag(t) if t.is_empty() => {
                return Err(Error::new(
                    Code::TagFeatureEmpty,
                    format!("{at}.tag"),
                    "a tag must not be empty",
                ))
            }
            Feature::Tag(t) if t.len() > MAX_TAG_LENGTH => {
                return Err(Error::new(
                    Code::TagFeatureTooLong,
                    format!("{at}.tag"),
                    format!("{} bytes, at most {MAX_TAG_LENGTH}", t.len()),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}
