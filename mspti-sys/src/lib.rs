//! Generated declarations and run-time loader (filled in by the foundation work).
