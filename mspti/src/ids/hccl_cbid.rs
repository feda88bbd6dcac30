//! HCCL-domain callback ids (`msptiCallbackIdHccl`, 0..=12 in `mspti_cbid.h`).

use mspti_sys as sys;

id_newtype! {
    /// A callback id of the HCCL domain (`msptiCallbackIdHccl`): which collective a callback is
    /// about. Note the header's order: ALL_TO_ALLV is 7, BARRIER 8, SCATTER 9, SENDRECV 12.
    pub struct HcclCbid(u32) from sys::msptiCallbackIdHccl;
        /// `MSPTI_CBID_HCCL_INVALID` (0).
        INVALID = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_INVALID, "INVALID";
        /// `MSPTI_CBID_HCCL_ALLREDUCE` (1).
        ALLREDUCE = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALLREDUCE, "ALLREDUCE";
        /// `MSPTI_CBID_HCCL_BROADCAST` (2).
        BROADCAST = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_BROADCAST, "BROADCAST";
        /// `MSPTI_CBID_HCCL_ALLGATHER` (3).
        ALLGATHER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALLGATHER, "ALLGATHER";
        /// `MSPTI_CBID_HCCL_REDUCE_SCATTER` (4).
        REDUCE_SCATTER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_REDUCE_SCATTER, "REDUCE_SCATTER";
        /// `MSPTI_CBID_HCCL_REDUCE` (5).
        REDUCE = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_REDUCE, "REDUCE";
        /// `MSPTI_CBID_HCCL_ALL_TO_ALL` (6).
        ALL_TO_ALL = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALL_TO_ALL, "ALL_TO_ALL";
        /// `MSPTI_CBID_HCCL_ALL_TO_ALLV` (7).
        ALL_TO_ALLV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_ALL_TO_ALLV, "ALL_TO_ALLV";
        /// `MSPTI_CBID_HCCL_BARRIER` (8).
        BARRIER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_BARRIER, "BARRIER";
        /// `MSPTI_CBID_HCCL_SCATTER` (9).
        SCATTER = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SCATTER, "SCATTER";
        /// `MSPTI_CBID_HCCL_SEND` (10).
        SEND = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SEND, "SEND";
        /// `MSPTI_CBID_HCCL_RECV` (11).
        RECV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_RECV, "RECV";
        /// `MSPTI_CBID_HCCL_SENDRECV` (12).
        SENDRECV = sys::msptiCallbackIdHccl::MSPTI_CBID_HCCL_SENDRECV, "SENDRECV";
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
