//! Arena: engine-vs-engine matches, statistics, records and charts.

pub mod stats;
