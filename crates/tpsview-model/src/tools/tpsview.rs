//! tpsview's own figure names (`tpsview/1` summary-only points): the identity map over
//! [`Metric::ALL`].

use super::{Def, Figure};
use crate::vocabulary::Metric;

/// Format id, also the value of the `format` key.
pub const ID: &str = "tpsview/1";

/// Summary-only points in tpsview/1 use tpsview's own metric names: the identity map over
/// [`Metric::ALL`], built once.
pub fn figures() -> &'static [Figure] {
    static MAP: std::sync::LazyLock<Vec<Figure>> = std::sync::LazyLock::new(|| {
        Metric::ALL
            .iter()
            .map(|&metric| Figure {
                tool_key: metric.key(),
                canonical: metric,
                scale: 1.0,
                likely_cause: "the report's summary and its raw data disagree",
                def: Def::Same,
            })
            .collect()
    });
    &MAP
}

/// [`figures`] as the one group of a figure table.
pub fn figure_groups() -> &'static [&'static [Figure]] {
    static GROUPS: std::sync::LazyLock<[&'static [Figure]; 1]> =
        std::sync::LazyLock::new(|| [figures()]);
    &*GROUPS
}
