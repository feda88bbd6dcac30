//! Safe API (to come).
