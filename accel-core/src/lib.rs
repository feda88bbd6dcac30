//! Shared core (to come).
