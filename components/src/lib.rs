//! tpsview's Leptos components.
