#[cfg(feature = "chrome")]
use super::json_object::key;
use serde_json::Value;

#[cfg(feature = "chrome")]
use super::json_object::JsonObject;

/// One entry of the trace's `deviceProperties` list (Kineto's keys; absent values are left out).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceProperties {
    /// Device ordinal (the `pid` of its GPU events).
    pub id: u32,
    /// Device name.
    pub name: String,
    /// `totalGlobalMem`, bytes.
    pub total_global_mem: Option<u64>,
    /// `computeMajor`.
    pub compute_major: Option<i32>,
    /// `computeMinor`.
    pub compute_minor: Option<i32>,
    /// `maxThreadsPerBlock`.
    pub max_threads_per_block: Option<u32>,
    /// `maxThreadsPerMultiprocessor`.
    pub max_threads_per_multiprocessor: Option<u32>,
    /// `regsPerBlock`.
    pub regs_per_block: Option<u32>,
    /// `regsPerMultiprocessor`.
    pub regs_per_multiprocessor: Option<u32>,
    /// `warpSize`.
    pub warp_size: Option<u32>,
    /// `sharedMemPerBlock`, bytes.
    pub shared_mem_per_block: Option<u64>,
    /// `sharedMemPerMultiprocessor`, bytes.
    pub shared_mem_per_multiprocessor: Option<u64>,
    /// `numSms`.
    pub num_sms: Option<u32>,
    /// `sharedMemPerBlockOptin`, bytes.
    pub shared_mem_per_block_optin: Option<u64>,
    /// Further vendor-specific keys, written after the ones above.
    pub extra: Vec<(String, Value)>,
}

#[cfg(feature = "chrome")]
impl DeviceProperties {
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let mut o = JsonObject::begin(out);
        o.uint(key!("id"), u64::from(self.id));
        o.str(key!("name"), &self.name);
        o.opt_uint(key!("totalGlobalMem"), self.total_global_mem);
        o.opt_int(key!("computeMajor"), self.compute_major.map(i64::from));
        o.opt_int(key!("computeMinor"), self.compute_minor.map(i64::from));
        o.opt_uint(key!("maxThreadsPerBlock"), self.max_threads_per_block.map(u64::from));
        o.opt_uint(key!("maxThreadsPerMultiprocessor"), self.max_threads_per_multiprocessor.map(u64::from));
        o.opt_uint(key!("regsPerBlock"), self.regs_per_block.map(u64::from));
        o.opt_uint(key!("regsPerMultiprocessor"), self.regs_per_multiprocessor.map(u64::from));
        o.opt_uint(key!("warpSize"), self.warp_size.map(u64::from));
        o.opt_uint(key!("sharedMemPerBlock"), self.shared_mem_per_block);
        o.opt_uint(key!("sharedMemPerMultiprocessor"), self.shared_mem_per_multiprocessor);
        o.opt_uint(key!("numSms"), self.num_sms.map(u64::from));
        o.opt_uint(key!("sharedMemPerBlockOptin"), self.shared_mem_per_block_optin);
        for (key, value) in &self.extra {
            o.value_dyn(key, value);
        }
        o.end();
    }
}
