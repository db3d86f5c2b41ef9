//! Objects shared by every JavaScript thread of the process: the HTTP server runs one event
//! loop per worker thread (docs/performance.md), and each needs the one open store and the
//! one mining pool that the main thread made. A worker finds them here by a key (the data
//! directory). The registry holds weak references only: the object lives while a thread
//! uses it and goes when the last one lets go, as if no registry existed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

pub struct Shared<T> {
    entries: Mutex<Option<HashMap<String, Weak<T>>>>,
}

impl<T> Shared<T> {
    pub const fn new() -> Self {
        Shared { entries: Mutex::new(None) }
    }

    /// Make `value` findable under `key` (replacing a stale entry of a closed object).
    pub fn publish(&self, key: String, value: &Arc<T>) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let map = entries.get_or_insert_with(HashMap::new);
        map.retain(|_, weak| weak.strong_count() > 0);
        map.insert(key, Arc::downgrade(value));
    }

    /// The object published under `key`, while some thread still holds it.
    pub fn find(&self, key: &str) -> Option<Arc<T>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.as_ref()?.get(key)?.upgrade()
    }

    /// Forget `key` if it still names `value` (the owner closed it).
    pub fn withdraw(&self, key: &str, value: &Arc<T>) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(map) = entries.as_mut() {
            if map.get(key).is_some_and(|weak| std::ptr::eq(weak.as_ptr(), Arc::as_ptr(value))) {
                map.remove(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lives_while_a_handle_holds_it() {
        let shared: Shared<u32> = Shared::new();
        assert!(shared.find("a").is_none());
        let first = Arc::new(1);
        shared.publish("a".into(), &first);
        assert_eq!(shared.find("a").as_deref(), Some(&1));
        drop(first);
        assert!(shared.find("a").is_none(), "a weak entry does not keep the object");
    }

    #[test]
    fn only_the_object_published_under_a_key_withdraws_it() {
        let shared: Shared<u32> = Shared::new();
        let (old, new) = (Arc::new(1), Arc::new(2));
        shared.publish("a".into(), &old);
        shared.publish("a".into(), &new);
        shared.withdraw("a", &old);
        assert_eq!(shared.find("a").as_deref(), Some(&2));
        shared.withdraw("a", &new);
        assert!(shared.find("a").is_none());
    }
}
