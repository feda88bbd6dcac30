//! The tracer engine's settings table and launcher channel, in ONE place: the root package's
//! (`accel_profiling::settings`, `accel_profiling::launcher`), whose `TracerConfig::from_lookup`
//! checks the values the command passes on (the front doors read the same variables with
//! `TracerConfig::from_env`). Every other module of the command uses them through here.

pub(crate) use accel_profiling::launcher;
pub(crate) use accel_profiling::settings;
pub(crate) use accel_profiling::settings::vars;
pub(crate) use accel_profiling::TracerConfig;
