use crate::columns::{Batch, FamilySet};
use crate::intern::Names;

/// Identifies a subscribed consumer, for [`Pipeline::unsubscribe`](super::Pipeline::unsubscribe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConsumerId(pub(crate) u64);

/// A consumer's callback.
pub(crate) type ConsumerFn = Box<dyn FnMut(&Batch, &Names) + Send + 'static>;

/// A subscribed consumer, owned by the decode thread.
pub(crate) struct Consumer {
    pub(crate) id: ConsumerId,
    pub(crate) families: FamilySet,
    pub(crate) callback: ConsumerFn,
}
