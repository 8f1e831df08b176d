//! The one place that turns load failures into words for the page.

use tpsview_core::error::{ParseError, ParseErrorKind};

/// A parse error as the page shows it: the core's message (file, field, position) plus a hint.
pub fn parse_error(e: &ParseError) -> String {
    let hint = match e.kind.as_ref() {
        ParseErrorKind::Syntax(_) => {
            " — is the file complete? A truncated download ends mid-value."
        }
        ParseErrorKind::UnknownFormat { .. } => {
            " — if it is from a supported tool, please report it; the read-as list beside its name holds every format."
        }
        _ => "",
    };
    format!("{e}{hint}")
}

/// A `?src=` fetch that failed, by cause.
pub fn fetch_error(url: &str, cause: &FetchFailure) -> String {
    match cause {
        FetchFailure::Scheme => format!("{url}: only http:// and https:// addresses can be loaded"),
        FetchFailure::Network(e) => format!(
            "{url}: could not be fetched ({e}). The server may be down, or it does not allow pages from other sites to read it (CORS)"
        ),
        FetchFailure::Status(code) => format!("{url}: the server answered HTTP {code}"),
        FetchFailure::Html => format!("{url}: the server sent an HTML page, not a benchmark file"),
    }
}

/// Why a fetch failed.
pub enum FetchFailure {
    /// Not http(s).
    Scheme,
    /// The request did not complete (network, CORS).
    Network(String),
    /// A non-2xx answer.
    Status(u16),
    /// An HTML page instead of JSON.
    Html,
}

// A path of its own: the loading worker's binary includes this file too (src/bin/).
#[cfg(test)]
#[path = "messages/tests.rs"]
mod tests;
