//! HCCL-domain callback ids (`msptiCallbackIdHccl`, 0..=12 in `mspti_cbid.h`).

use mspti_sys as sys;

use super::{CallbackDomain, CallbackId};

accelprof_core::id_newtype! {
    /// A callback id of the HCCL domain (`msptiCallbackIdHccl`): which collective a callback is
    /// about. Note the header's order: ALL_TO_ALLV is 7, BARRIER 8, SCATTER 9, SENDRECV 12.
    #[doc(alias = "msptiCallbackIdHccl")]
    #[derive(Default)]
    pub struct HcclCbid(pub u32) from sys::msptiCallbackIdHccl, in CallbackDomain::HCCL => CallbackId {
        /// `MSPTI_CBID_HCCL_INVALID` (0).
        INVALID = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_INVALID.0;
        /// `MSPTI_CBID_HCCL_ALLREDUCE` (1).
        ALLREDUCE = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALLREDUCE.0;
        /// `MSPTI_CBID_HCCL_BROADCAST` (2).
        BROADCAST = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_BROADCAST.0;
        /// `MSPTI_CBID_HCCL_ALLGATHER` (3).
        ALLGATHER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALLGATHER.0;
        /// `MSPTI_CBID_HCCL_REDUCE_SCATTER` (4).
        REDUCE_SCATTER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_REDUCE_SCATTER.0;
        /// `MSPTI_CBID_HCCL_REDUCE` (5).
        REDUCE = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_REDUCE.0;
        /// `MSPTI_CBID_HCCL_ALL_TO_ALL` (6).
        ALL_TO_ALL = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALL_TO_ALL.0;
        /// `MSPTI_CBID_HCCL_ALL_TO_ALLV` (7).
        ALL_TO_ALLV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALL_TO_ALLV.0;
        /// `MSPTI_CBID_HCCL_BARRIER` (8).
        BARRIER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_BARRIER.0;
        /// `MSPTI_CBID_HCCL_SCATTER` (9).
        SCATTER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SCATTER.0;
        /// `MSPTI_CBID_HCCL_SEND` (10).
        SEND = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SEND.0;
        /// `MSPTI_CBID_HCCL_RECV` (11).
        RECV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_RECV.0;
        /// `MSPTI_CBID_HCCL_SENDRECV` (12).
        SENDRECV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SENDRECV.0;
    }
}

impl HcclCbid {
    /// The operation's usual name (`"AllReduce"`, `"Barrier"`), or `None` for INVALID and
    /// unknown ids.
    pub fn op_name(self) -> Option<&'static str> {
        match self {
            HcclCbid::ALLREDUCE => Some("AllReduce"),
            HcclCbid::BROADCAST => Some("Broadcast"),
            HcclCbid::ALLGATHER => Some("AllGather"),
            HcclCbid::REDUCE_SCATTER => Some("ReduceScatter"),
            HcclCbid::REDUCE => Some("Reduce"),
            HcclCbid::ALL_TO_ALL => Some("AllToAll"),
            HcclCbid::ALL_TO_ALLV => Some("AllToAllV"),
            HcclCbid::BARRIER => Some("Barrier"),
            HcclCbid::SCATTER => Some("Scatter"),
            HcclCbid::SEND => Some("Send"),
            HcclCbid::RECV => Some("Recv"),
            HcclCbid::SENDRECV => Some("SendRecv"),
            _ => None,
        }
    }
}
