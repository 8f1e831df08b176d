//! Routed screens. There is one for now: the viewer.

mod viewer_page;

pub use viewer_page::ViewerPage;
