//! Ordered reads over index keys that end in the sort key, and how they combine:
//! a `Range` reads the keys under one prefix, a `Union` merges ranges (OR, duplicates
//! dropped), an `Intersection` leapfrogs over unions (AND): each step seeks every input to
//! the largest key any of them is at, so the sparsest input sets the pace and the cost
//! follows the number of matching outputs, not the sizes of the inputs.
//!
//! Every `seek(target)` answers the first key ≥ target; targets never go backwards.

use super::sort_key::{SortKey, SORT_KEY_LEN};
use crate::db::{RawIter, Snapshot};
use crate::storage_error;
use ledger_core::Result;

enum Position {
    Unstarted,
    At(SortKey),
    End,
}

/// The sort keys under one key prefix, from a snapshot.
pub struct Range<'s> {
    iter: RawIter<'s>,
    prefix: Vec<u8>,
    position: Position,
}

impl<'s> Range<'s> {
    /// Keys `prefix ‖ sort key` of `cf` with sort keys below `upper` (None: all).
    pub fn new(
        snapshot: &'s Snapshot<'_>,
        cf: &str,
        prefix: Vec<u8>,
        upper: Option<&SortKey>,
    ) -> Range<'s> {
        let mut bound = prefix.clone();
        match upper {
            Some(key) => bound.extend_from_slice(key.as_bytes()),
            // Above every prefix ‖ 38-byte tail.
            None => bound.extend_from_slice(&[0xff; SORT_KEY_LEN + 1]),
        }
        Range { iter: snapshot.iter(cf, bound), prefix, position: Position::Unstarted }
    }

    pub fn seek(&mut self, target: &SortKey) -> Result<Option<SortKey>> {
        match self.position {
            Position::End => return Ok(None),
            Position::At(current) if current >= *target => return Ok(Some(current)),
            Position::At(_) => {
                // Usually the next key is the one wanted (a page read in order): one step
                // is cheaper than a seek.
                self.iter.next();
                self.read()?;
                match self.position {
                    Position::At(current) if current < *target => {}
                    _ => return Ok(self.current()),
                }
            }
            Position::Unstarted => {}
        }
        let mut key = self.prefix.clone();
        key.extend_from_slice(target.as_bytes());
        self.iter.seek(&key);
        self.read()?;
        Ok(self.current())
    }

    fn read(&mut self) -> Result<()> {
        self.position = match self.iter.key() {
            Some(key) if key.starts_with(&self.prefix) => {
                Position::At(SortKey::from_bytes(&key[self.prefix.len()..])?)
            }
            Some(_) => Position::End,
            None => {
                self.iter.status().map_err(storage_error)?;
                Position::End
            }
        };
        Ok(())
    }

    fn current(&self) -> Option<SortKey> {
        match self.position {
            Position::At(key) => Some(key),
            _ => None,
        }
    }

    /// The value at the current key.
    pub fn value(&self) -> Option<&[u8]> {
        self.iter.value()
    }
}

/// The keys found in any of several ranges, each once.
pub struct Union<'s> {
    ranges: Vec<Range<'s>>,
}

impl<'s> Union<'s> {
    pub fn new(ranges: Vec<Range<'s>>) -> Union<'s> {
        Union { ranges }
    }

    pub fn seek(&mut self, target: &SortKey) -> Result<Option<SortKey>> {
        let mut first: Option<SortKey> = None;
        for range in &mut self.ranges {
            if let Some(key) = range.seek(target)? {
                first = Some(first.map_or(key, |f| f.min(key)));
            }
        }
        Ok(first)
    }
}

/// The keys found in every one of several unions.
pub struct Intersection<'s> {
    inputs: Vec<Union<'s>>,
}

impl<'s> Intersection<'s> {
    pub fn new(inputs: Vec<Union<'s>>) -> Intersection<'s> {
        Intersection { inputs }
    }

    pub fn seek(&mut self, target: &SortKey) -> Result<Option<SortKey>> {
        let mut target = *target;
        'leapfrog: loop {
            for input in &mut self.inputs {
                match input.seek(&target)? {
                    None => return Ok(None),
                    Some(key) if key > target => {
                        target = key;
                        continue 'leapfrog;
                    }
                    Some(_) => {}
                }
            }
            return Ok(Some(target));
        }
    }
}
