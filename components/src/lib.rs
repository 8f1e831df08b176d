//! tpsview's Leptos components. Each takes signals as props and reports through callbacks; none
//! holds app state or does arithmetic: numbers come from `tpsview-core`, drawing from
//! `tpsview-plot`. The one page-wide value is the count of pending work (`later.rs`), published
//! on the document for tests and scripts to wait on.
#![warn(missing_docs)]

mod chart;
mod chart_controls;
#[cfg(not(target_arch = "wasm32"))]
mod chart_static;
mod claim_reader;
mod decode_model;
mod diagnostics_list;
mod diff_table;
mod first_view;
mod format;
mod gap_notes;
mod glossary;
mod health_panel;
mod later;
mod learn_panel;
mod many;
mod mapping_panel;
mod run_answer;
mod run_legend;
mod sessions_table;
mod slo_table;
mod summary_table;
mod tool_definitions;
mod trend_table;

pub use chart::export_png;
#[cfg(target_arch = "wasm32")]
pub use chart::Chart;
pub use chart_controls::ChartControls;
#[cfg(not(target_arch = "wasm32"))]
pub use chart_static::{size as static_chart_size, Chart};
pub use claim_reader::ClaimReader;
pub use decode_model::DecodeModel;
pub use diagnostics_list::{DiagnosticsList, FileStatus};
pub use diff_table::DiffTable;
pub use first_view::{
    answered, first_view, terms, Answered, FirstViewData, FirstViewSlots, THROUGHPUT_TERMS,
};
pub use format::{fmt_num, fmt_value};
pub use gap_notes::GapNotes;
pub use glossary::{Glossary, TERMS};
pub use health_panel::HealthPanel;
pub use later::{in_next_task, pending, Latest, Pending};
pub use learn_panel::LearnPanel;
pub use mapping_panel::{Correction, MappingPanel};
pub use run_answer::RunAnswer;
pub use run_legend::RunLegend;
pub use sessions_table::SessionsTable;
pub use slo_table::SloTable;
pub use summary_table::SummaryTable;
pub use tool_definitions::ToolDefinitions;
pub use trend_table::TrendTable;
