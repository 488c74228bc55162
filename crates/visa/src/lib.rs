//! Intel vISA object files.
#![forbid(unsafe_code)]
