//! Self-contained HTML reports: one page per input file, one section per kernel, with
//! the pictures a GPU engineer reads faster than a listing. The page has no external
//! resources (inline CSS, SVG and a few lines of JS; a Content-Security-Policy that
//! forbids fetching anything), so it opens from disk anywhere.
//!
//! The model ([`model`]) knows nothing of vISA, IGA or AMD: the CLI fills it from each
//! format. [`layout`] is a layered (Sugiyama) graph layout; [`svg`] draws; [`html`]
//! assembles the page.
#![forbid(unsafe_code)]

pub mod diff;
pub mod diff_page;
pub mod html;
pub mod layout;
pub mod limits;
pub mod model;
pub mod panes;
pub mod svg;

pub use html::{render_page, write_page};
pub use model::*;
