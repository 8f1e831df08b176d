//! The one drawing backend every chart is drawn on: an SVG string (the CLI, the tests, the page's
//! SVG download and its first view) or a browser canvas (the page). One type rather than a
//! generic parameter, so that the drawing code — `draw_chart` alone is ~25 KB of wasm — is linked
//! once into the page, not once per backend (the page drew both, and carried both copies).

use plotters::prelude::{DrawingBackend, SVGBackend};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;

/// An SVG document being written, or a canvas.
pub enum Backend<'a> {
    /// plotters' SVG backend, writing into a string.
    Svg(SVGBackend<'a>),
    /// plotters' canvas backend, drawing on an `HtmlCanvasElement` (in the browser only).
    Canvas(CanvasBackend),
}

/// What a backend said went wrong, in its words.
#[derive(Debug)]
pub struct BackendError(String);

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BackendError {}

/// A backend's own error as [`BackendError`] (a font error stays one).
fn lift<T, E: std::error::Error + Send + Sync>(
    r: Result<T, DrawingErrorKind<E>>,
) -> Result<T, DrawingErrorKind<BackendError>> {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(BackendError(e.to_string()))
        }
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    })
}

/// Calls `$call` on whichever backend it is.
macro_rules! each {
    ($self:expr, $b:ident => $call:expr) => {
        match $self {
            Backend::Svg($b) => lift($call),
            Backend::Canvas($b) => lift($call),
        }
    };
}

impl DrawingBackend for Backend<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Backend::Svg(b) => b.get_size(),
            Backend::Canvas(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<BackendError>> {
        each!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}
