//! tpsview's Leptos components. Each takes signals as props and reports through callbacks; none
//! holds global state or does arithmetic: numbers come from `tpsview-core`, drawing from
//! `tpsview-plot`.
#![warn(missing_docs)]

mod diagnostics_list;
mod format;
mod gap_notes;
mod summary_table;
mod throughput_chart;

pub use diagnostics_list::{DiagnosticsList, FileStatus};
pub use format::{fmt_num, fmt_value};
pub use gap_notes::GapNotes;
pub use summary_table::SummaryTable;
pub use throughput_chart::ThroughputChart;
