//! What the decoder learns from callback tracing: kernel names (code objects) and marker messages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

/// Kernel names learnt from code-object tracing, by kernel id.
#[derive(Debug, Default)]
pub(crate) struct KernelNames(RwLock<HashMap<u64, Arc<str>>>);

impl KernelNames {
    pub(crate) fn insert(&self, id: u64, name: &str) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).insert(id, name.into());
    }

    pub(crate) fn get(&self, id: u64) -> Option<Arc<str>> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }
}

/// Marker messages learnt from marker callback tracing, by correlation id, until decoded.
/// Kept only once some buffer traces markers, and at most [`MarkerMessages::CAP`] at a time
/// (beyond that a marker row falls back to its operation name).
#[derive(Debug, Default)]
pub(crate) struct MarkerMessages {
    wanted: std::sync::atomic::AtomicBool,
    map: Mutex<HashMap<u64, String>>,
}

impl MarkerMessages {
    const CAP: usize = 1 << 16;

    pub(crate) fn want(&self) {
        self.wanted.store(true, std::sync::atomic::Ordering::Release);
    }

    pub(crate) fn wanted(&self) -> bool {
        self.wanted.load(std::sync::atomic::Ordering::Acquire)
    }

    pub(crate) fn insert(&self, correlation: u64, message: String) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() < Self::CAP {
            map.insert(correlation, message);
        }
    }

    pub(crate) fn take(&self, correlation: u64) -> Option<String> {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).remove(&correlation)
    }
}
