//! tpsview's model: the product's words as types (metrics, statistics, run ids), each tool's
//! figure table (`tools`), the report (runs → points → columnar requests and the tool's own
//! figures), the server's series, errors and diagnostics, the one request builder, and the numeric
//! primitives every figure is computed with (`stats`). The bottom crate: it knows no file format
//! and computes no figure of a level.
#![warn(missing_docs)]

pub mod bounds;
pub mod error;
pub mod format;
pub mod model;
pub mod par;
pub mod requests;
pub mod server;
pub mod stats;
pub mod text;
pub mod tools;
pub mod vocabulary;

pub use error::{Diagnostic, ParseError, ParseErrorKind};
pub use model::{Metadata, Point, Report, Requests, Run};
