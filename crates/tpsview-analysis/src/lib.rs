//! tpsview's analysis: every definition of docs/metrics.md (`metrics`, `stats`), the audit of each
//! figure a tool printed against its own definition, energy, the server's figures, noise, SLOs and
//! capacity, the answer, the summary (the `--json` contract), the chart specs, and the teaching
//! models. It depends on the model alone, so it cannot know a file format: a tool's figures are
//! looked up in the model's figure tables (`tpsview_model::tools`) by the tool's id.
#![warn(missing_docs)]

pub mod answer;
pub mod audit;
pub mod chart_spec;
pub mod claim;
pub mod compare;
pub mod energy;
pub mod health;
pub mod learn;
pub mod metrics;
pub mod noise;
pub mod probe;
pub mod roofline;
pub mod server;
pub mod simulate;
pub mod slo;
pub mod spec;
pub mod summary;
pub mod viewer;

// The model's modules under this crate's root, so that the analysis names them `crate::model`, …
use tpsview_model::{bounds, error, format, model, stats, text, tools, vocabulary};

pub use metrics::{compute_point, MetricOptions, PointMetrics};
pub use summary::{summarize_report, Summary};
