use std::sync::Arc;

use accelprof_core::{NameId, Names};
use arrow_array::types::UInt32Type;
use arrow_array::{ArrayRef, DictionaryArray, StringArray, UInt32Array};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};

use crate::Error;

/// The interner's names as an Arrow dictionary: entry `i` is the name of `NameId(i)`, so a name column's keys
/// are the `NameId`s themselves (no remapping per record).
///
/// Kept across batches: the string values are copied once per name; the Arrow array is rebuilt only when
/// the interner has published new names since the last batch.
#[derive(Debug)]
pub(crate) struct NameDictionary {
    bytes: Vec<u8>,
    offsets: Vec<i32>,
    array: ArrayRef,
}

impl Default for NameDictionary {
    fn default() -> Self {
        // Entry 0 is NameId::NONE: an empty string that no key points at (rows without a name have a null
        // key).
        let mut dict = NameDictionary { bytes: Vec::new(), offsets: vec![0, 0], array: Arc::new(empty()) };
        dict.array = dict.build();
        dict
    }
}

fn empty() -> StringArray {
    StringArray::from(Vec::<&str>::new())
}

impl NameDictionary {
    /// Entries known (ids `0..len`).
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Makes sure every name `names` has published is an entry; returns the dictionary values.
    pub(crate) fn refresh(&mut self, names: &Names) -> Result<&ArrayRef, Error> {
        let published = names.len() + 1;
        if published > self.len() {
            for id in self.len()..published {
                let id = u32::try_from(id).map_err(|_| Error::Schema("more than 2^32 names".into()))?;
                self.bytes.extend_from_slice(names.resolve(NameId(id)).as_bytes());
                let end = i32::try_from(self.bytes.len())
                    .map_err(|_| Error::Schema("names exceed 2 GiB of text".into()))?;
                self.offsets.push(end);
            }
            self.array = self.build();
        }
        Ok(&self.array)
    }

    fn build(&self) -> ArrayRef {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets.clone()));
        Arc::new(StringArray::new(offsets, Buffer::from_slice_ref(&self.bytes), None))
    }

    /// A name column: keys are the ids, null where the id is [`NameId::NONE`].
    pub(crate) fn column(&mut self, ids: &[NameId], names: &Names) -> Result<ArrayRef, Error> {
        let keys: Vec<u32> = ids.iter().map(|id| id.0).collect();
        if keys.iter().any(|&k| k as usize >= self.len()) {
            self.refresh(names)?;
        }
        let values = Arc::clone(&self.array);
        dictionary_column(keys, values, |k| k != 0)
    }
}

/// A `Dictionary(UInt32, Utf8)` column over shared `values`; rows where `valid(key)` is false are null.
pub(crate) fn dictionary_column(
    keys: Vec<u32>,
    values: ArrayRef,
    valid: impl Fn(u32) -> bool,
) -> Result<ArrayRef, Error> {
    let nulls =
        keys.iter().any(|&k| !valid(k)).then(|| NullBuffer::from_iter(keys.iter().map(|&k| valid(k))));
    let keys = UInt32Array::new(ScalarBuffer::from(keys), nulls);
    Ok(Arc::new(DictionaryArray::<UInt32Type>::try_new(keys, values)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use accelprof_core::intern::Interner;
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    #[test]
    fn keys_are_the_name_ids_and_new_names_extend_the_dictionary() {
        let mut interner = Interner::new();
        let names = interner.names();
        let a = interner.intern("alpha");
        let mut dict = NameDictionary::default();
        let col = dict.column(&[a, NameId::NONE, a], &names).unwrap();
        let col = col.as_dictionary::<UInt32Type>();
        assert_eq!(col.keys().values().as_ref(), &[a.0, 0, a.0]);
        assert!(col.is_null(1));
        let b = interner.intern("beta");
        let col = dict.column(&[b, a], &names).unwrap();
        let col = col.as_dictionary::<UInt32Type>();
        let values = col.values().as_string::<i32>();
        assert_eq!(values.value(b.0 as usize), "beta");
        assert_eq!(values.value(a.0 as usize), "alpha");
        assert_eq!(dict.len(), 3);
    }
}
