//! Routed screens, one per hash route (see `route.rs`): the viewer here; the teaching screens
//! (`learn_page`, `model_page`, `glossary_page`) are the teaching module's (`src/teach.rs`), which
//! the page loads on first use.

mod capacity;
mod trend;
mod viewer_page;

pub use viewer_page::ViewerPage;
