//! What can go wrong drawing a chart.

use plotters::prelude::DrawingAreaErrorKind;
use plotters_backend::DrawingErrorKind;

/// Why a chart could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// The canvas or the SVG writer failed (its words).
    #[error("the chart could not be drawn: {0}")]
    Backend(String),
    /// Text could not be laid out.
    #[error("the chart's text could not be laid out: {0}")]
    Font(String),
    /// The drawing area was too small for the chart's margins and labels.
    #[error("the chart does not fit its area")]
    Layout,
    /// The drawing area was in use elsewhere (plotters' sharing error).
    #[error("the chart's drawing area was in use")]
    Sharing,
    /// The browser gave no canvas to draw on.
    #[error("this browser gave no 2D canvas: {0}")]
    NoCanvas(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        match e {
            DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(e)) => {
                PlotError::Backend(e.to_string())
            }
            DrawingAreaErrorKind::BackendError(DrawingErrorKind::FontError(e)) => {
                PlotError::Font(e.to_string())
            }
            DrawingAreaErrorKind::SharingError => PlotError::Sharing,
            DrawingAreaErrorKind::LayoutError => PlotError::Layout,
        }
    }
}
