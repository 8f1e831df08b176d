//! tpsview's readers: one per tool behind one registry (`formats::SPECS`), the file readers that
//! read as bytes arrive, grouping files into runs (`group`), and the redaction every parse leaves
//! through. It copies what a tool wrote under the tool's names and computes no figure; it depends
//! on the model alone. No I/O.
#![warn(missing_docs)]

pub mod formats;
pub mod group;
pub mod lenient;
pub mod progress;
pub mod redact;
pub mod scan;
pub mod synthetic;
pub mod transfer;

// The model's modules under this crate's root, so that a reader names them `crate::model`, …
use tpsview_model::{error, model, par, requests, server, stats, tools, vocabulary};
// Readers' tests check some files' figures through the metric engine (a test-only edge).
#[cfg(test)]
use tpsview_analysis::{audit, metrics, simulate};

pub use formats::{detect, parse, parse_any, Format, Parsed};
