//! The web board: one HTML page, its script and its style sheet, compiled
//! into the binary (no CDN, no network).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use jungletb_board::{APP_JS, FAVICON_SVG, INDEX_HTML, STYLE_CSS};

/// `GET /`: the board.
pub async fn index() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        INDEX_HTML,
    )
        .into_response()
}

/// `GET /assets/{file}`: the script and the style sheet.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body) = match file.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "style.css" => ("text/css; charset=utf-8", STYLE_CSS),
        _ => return (StatusCode::NOT_FOUND, "no such asset").into_response(),
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `GET /favicon.svg` and `GET /favicon.ico`: the board's icon (an SVG
/// under both names; browsers that ask for `/favicon.ico` read it too).
pub async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON_SVG,
    )
        .into_response()
}
