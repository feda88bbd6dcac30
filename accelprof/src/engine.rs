//! The tracer engine's settings table and launcher channel, in ONE place: today those of cupti-trace,
//! later the root package's (`accel_profiling::settings`, `accel_profiling::launcher`, same API). Every
//! other module of the command uses them through here.

pub(crate) use cupti_trace::config::vars;
pub(crate) use cupti_trace::launcher;
pub(crate) use cupti_trace::settings;
pub(crate) use cupti_trace::TraceConfig;
