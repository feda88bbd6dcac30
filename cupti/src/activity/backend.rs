//! The vendor side of a CUPTI activity session: what the shared core's
//! [`Session`](accelprof_core::activity::Session) asks of CUPTI.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use accelprof_core::activity::{ActivityBackend, FlushDepth, RouteSlot};

use super::api::Api;
use super::driver_sync::synchronize_devices;
use super::{buffers, ActivityKind, ApiFilter, CuptiCounts, DeviceSync, FieldSelection};
use crate::decode::DecoderShared;
use crate::{Cupti, Error, Result};

/// `CUPTI_ACTIVITY_FLAG_FLUSH_FORCED`.
const FLUSH_FORCED: u32 = 1;

/// How a session reaches CUPTI: the library, the activity API chosen (V1 or a V2 subscriber of the
/// session's own), what each kind is enabled with (the [`ApiFilter`], the selected fields), the decoder's
/// shared state (the fence's probe), the device synchronization of the fence. Made by
/// [`ActivitySession::new`](super::ActivitySession::new); reached through
/// [`ActivitySwitch`](super::ActivitySwitch).
pub struct Backend<'lib> {
    pub(crate) cupti: &'lib Cupti,
    pub(crate) api: Api,
    pub(crate) filter: ApiFilter,
    /// The fields asked for so far (config and `select_fields`); enabled with each kind.
    pub(crate) fields: Mutex<FieldSelection>,
    pub(crate) decoder: Arc<DecoderShared>,
    pub(crate) device_sync: DeviceSync,
}

impl Backend<'_> {
    pub(crate) fn fields(&self) -> MutexGuard<'_, FieldSelection> {
        self.fields.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `cuptiActivityFlushAll(flag)`.
    fn flush_all(&self, flag: u32) -> Result<()> {
        // SAFETY: a plain call.
        let r = unsafe { self.cupti.functions().cuptiActivityFlushAll(flag) };
        self.cupti.check("cuptiActivityFlushAll", r)
    }
}

impl<'lib> ActivityBackend for Backend<'lib> {
    type Kind = ActivityKind;
    type Error = Error;
    type RouteData = Arc<DecoderShared>;
    type Extras = CuptiCounts;

    const VENDOR: &'static str = "CUPTI";

    fn route(&self) -> Option<(&'static RouteSlot<Arc<DecoderShared>>, Arc<DecoderShared>)> {
        Some((&buffers::ROUTE, Arc::clone(&self.decoder)))
    }

    /// `cuptiActivityRegisterCallbacks` (V1; a V2 subscriber has its own since it was made); from here on
    /// timestamps and external correlation go through this API.
    #[doc(alias = "cuptiActivityRegisterCallbacks")]
    fn register(&self) -> Result<()> {
        self.api.set_live(true);
        self.api.register_callbacks(self.cupti)
    }

    /// `cuptiActivityEnable` (with the API filter for RUNTIME and DRIVER) or `cuptiActivityEnable_v2`
    /// (with the selected fields).
    #[doc(alias = "cuptiActivityEnable")]
    fn enable(&self, kind: ActivityKind) -> Result<()> {
        let fields = self.fields().clone();
        self.api.enable(self.cupti, kind, &self.filter, &fields)
    }

    #[doc(alias = "cuptiActivityDisable")]
    fn disable(&self, kind: ActivityKind) -> Result<()> {
        self.api.disable(self.cupti, kind)
    }

    /// `cuptiActivityFlushAll`: unforced (0) for `Completed` and `All` (CUPTI hands over the partly filled
    /// buffers whose records are complete), forced (1) only for `Forced`.
    #[doc(alias = "cuptiActivityFlushAll")]
    fn flush(&self, depth: FlushDepth) -> Result<()> {
        self.flush_all(if depth == FlushDepth::Forced { FLUSH_FORCED } else { 0 })
    }

    /// `cuptiActivityGetNumDroppedRecords` (it resets on read).
    #[doc(alias = "cuptiActivityGetNumDroppedRecords")]
    fn take_dropped(&self) -> u64 {
        self.api.take_dropped(self.cupti.functions())
    }

    /// SYNCHRONIZATION: the device synchronization makes CUPTI write one.
    fn fence_kind(&self) -> Option<ActivityKind> {
        Some(ActivityKind::SYNCHRONIZATION)
    }

    /// CUPTI's clock now.
    fn fence_mark(&self) -> Result<Option<u64>> {
        self.cupti.timestamp().map(Some)
    }

    fn synchronize(&self) -> Result<bool> {
        match &self.device_sync {
            DeviceSync::Driver => synchronize_devices(),
            DeviceSync::Custom(sync) => sync(),
            DeviceSync::Skip => Ok(false),
        }
        .map_err(Error::DeviceSync)
    }

    /// A SYNCHRONIZATION record ending after `mark` was decoded.
    fn fence_reached(&self, mark: u64) -> bool {
        self.decoder.max_sync_end() >= mark
    }

    fn extras(&self) -> CuptiCounts {
        CuptiCounts { decoder: self.decoder.stats() }
    }

    fn ended(&self) {
        self.api.set_live(false);
    }
}

impl fmt::Debug for Backend<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend")
            .field("user_defined_records", &self.api.user_defined())
            .field("api_filter", &self.filter.to_string())
            .field("device_sync", &self.device_sync)
            .finish_non_exhaustive()
    }
}
