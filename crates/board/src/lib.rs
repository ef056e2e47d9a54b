//! The web board's files, in one place for the two programs that serve
//! them: `jungletb serve` answers them beside its HTTP API, and `jungletb
//! site` writes them into a static site (with paths made relative and a
//! stand-in for the API loaded first). The board itself is plain HTML,
//! CSS and JavaScript in `assets/`, with no build step.

#![warn(missing_docs)]

/// The board's page (`/` of `serve`, `board.html` of a site).
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The board's script: it asks the HTTP API (`/api/…`) for everything.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The board's style.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");
/// The board's icon.
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");
