//! Routed screens, one per hash route (see `route.rs`).

mod capacity;
mod glossary_page;
mod learn_page;
mod model_page;
mod trend;
mod viewer_page;

pub use glossary_page::GlossaryPage;
pub use learn_page::LearnPage;
pub use model_page::{ClaimPage, ModelPage};
pub use viewer_page::ViewerPage;
