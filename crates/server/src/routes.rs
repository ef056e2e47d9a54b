//! The HTTP routes: parse the request, answer from the cache or compute on
//! the bounded probe pool, turn every failure into a JSON error with the
//! right status.

/// A line of the server's log on standard error, dropped if the write
/// fails (a closed stderr must not panic a request).
macro_rules! log_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

use crate::answers;
use crate::cache::Cached;
use crate::listener::Connection;
use crate::page;
use crate::state::{AppState, Served};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use jungletb_analysis::piece_map::MapError;
use jungletb_indexer::Material;
use jungletb_rules::{MoveTextError, Position, Ruleset, Square};
use jungletb_tablebase::{ProbeError, Tablebase};
use jungletb_wire::{ErrorAnswer, ErrorKind};
use serde_json::Value as Json;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Longest query string read (a position is under 80 characters).
const MAX_QUERY: usize = 1024;

type Shared = Arc<AppState>;

/// Every route of the server.
pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/assets/{file}", get(page::asset))
        .route("/favicon.svg", get(page::favicon))
        .route("/favicon.ico", get(page::favicon))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/api/rulesets", get(rulesets))
        .route("/api/{ruleset}", get(probe))
        .route("/api/{ruleset}/mainline", get(mainline))
        .route("/api/{ruleset}/map", get(map))
        .route("/api/{ruleset}/board", get(board))
        .route("/api/{ruleset}/stats/{material}", get(stats))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            log_and_count,
        ))
        .with_state(state)
}

/// A failed request: status, a machine-readable kind, a message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: ErrorKind,
    message: String,
}

impl ApiError {
    /// A failure of `kind`, with the status of its kind
    /// ([`ErrorKind::status`]: one mapping for every route).
    fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(kind.status()).expect("a status"),
            kind,
            message: message.into(),
        }
    }

    /// A probe failure under `served`, as visitors see it: no server
    /// path and no command; a missing or damaged table is also written to
    /// the server's log with its path (and, missing, the command that
    /// generates it: `material` with everything it needs).
    fn from_probe(
        e: ProbeError,
        served: &Served,
        log: bool,
        material: Option<Material>,
    ) -> ApiError {
        let name = material.map_or_else(String::new, |m| m.to_string());
        let kind = ErrorKind::of(&e);
        let message = match kind {
            ErrorKind::NoTables => {
                format!("this server has no tables for rule set '{}'", served.label)
            }
            ErrorKind::MissingTable => {
                if log {
                    log_line!(
                        "{} missing table: {e}; generate it with `jungletb generate {} \
                         --material {name}`",
                        timestamp(),
                        served.generate_args
                    );
                }
                format!(
                    "this server has no table for {name}: it has {}",
                    served.coverage.describe()
                )
            }
            // A damaged table is the server's problem, not the request's.
            ErrorKind::BadTable => {
                if log {
                    log_line!("{} damaged table: {e}", timestamp());
                }
                format!("a table of this server ({name}) cannot be read; the server's log says why")
            }
            _ => e.to_string(),
        };
        ApiError::new(kind, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorAnswer {
            input: None,
            error: self.message,
            kind: self.kind,
        };
        json_response(
            self.status,
            serde_json::to_string(&body).expect("serialisable"),
        )
    }
}

fn json_response(status: StatusCode, body: impl Into<axum::body::Body>) -> Response {
    let mut r = (status, body.into()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    r
}

/// The value of `key` in a query string (`+` and `%xx` decoded; invalid
/// UTF-8 becomes U+FFFD and then fails to parse as what it should be).
fn query_param(query: &Option<String>, key: &str) -> Result<Option<String>, ApiError> {
    Ok(query_pairs(query)?
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned()))
}

/// The decoded pairs of a query string no longer than the server reads.
fn query_pairs(query: &Option<String>) -> Result<form_urlencoded::Parse<'_>, ApiError> {
    let q = query.as_deref().unwrap_or("");
    if q.len() > MAX_QUERY {
        return Err(ApiError::new(
            ErrorKind::QueryTooLong,
            format!("query string of {} bytes (at most {MAX_QUERY})", q.len()),
        ));
    }
    Ok(form_urlencoded::parse(q.as_bytes()))
}

/// The parameters of `mainline`.
const POSITION_PARAMS: &[&str] = &["position", "fen", "ruleset", "rule", "rules"];
/// The parameters of `probe`.
const PROBE_PARAMS: &[&str] = &["position", "fen", "ruleset", "rule", "rules", "replies"];
/// The parameters of `map`.
const MAP_PARAMS: &[&str] = &["position", "fen", "ruleset", "rule", "rules", "square"];
/// The parameters of `stats`.
const STATS_PARAMS: &[&str] = &["ruleset", "rule", "rules"];

/// Refuses a query with a parameter the route does not read (a client's
/// `&variant=popular` or a misspelt `&rulset=` would otherwise be answered
/// as if it were not there) or with a parameter other than `rule` given
/// twice (`?position=A&position=B` is ambiguous).
fn check_params(query: &Option<String>, known: &[&str]) -> Result<(), ApiError> {
    let mut seen: Vec<String> = Vec::new();
    for (k, _) in query_pairs(query)? {
        if !known.contains(&k.as_ref()) {
            return Err(ApiError::new(
                ErrorKind::Parameter,
                format!(
                    "unknown query parameter '{}' (this route reads: {})",
                    k.chars().take(64).collect::<String>(),
                    known.join(", ")
                ),
            ));
        }
        let alias = if k == "fen" { "position" } else { k.as_ref() };
        if alias != "rule" && alias != "rules" {
            if seen.iter().any(|s| s == alias) {
                return Err(ApiError::new(
                    ErrorKind::Parameter,
                    format!("query parameter '{alias}' given twice: ask one at a time"),
                ));
            }
            seen.push(alias.to_string());
        }
    }
    Ok(())
}

/// The `replies` parameter: `true` or `false` (the default).
fn replies_param(query: &Option<String>) -> Result<bool, ApiError> {
    match query_param(query, "replies")?.as_deref() {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::new(
            ErrorKind::Parameter,
            format!(
                "replies={}: expected true or false",
                other.chars().take(64).collect::<String>()
            ),
        )),
    }
}

/// The `position` parameter (or `fen`, its name in lichess's API),
/// parsed (`_` may stand for spaces).
fn position_param(query: &Option<String>) -> Result<Position, ApiError> {
    let given = match query_param(query, "position")? {
        Some(p) => Some(p),
        None => query_param(query, "fen")?,
    };
    let text = given.ok_or_else(|| {
        ApiError::new(
            ErrorKind::MissingPosition,
            "missing ?position=… (e.g. ?position=7/7/7/7/7/7/7/7/E5r_w)",
        )
    })?;
    text.replace('_', " ")
        .parse()
        .map_err(|e| ApiError::new(ErrorKind::Notation, format!("{e}")))
}

/// Refuses a request whose `ruleset` or `rule` parameters name rules other
/// than the path's: the rule set is the path's, and a client that says
/// otherwise must not get an answer under rules it did not ask for.
/// `ruleset` is a name or a label (the path's own label agrees); each
/// `rule=KEY=VALUE` applies to it (or to the path's rule set).
fn check_rule_params(
    query: &Option<String>,
    served: &Served,
    tb: &Tablebase,
) -> Result<(), ApiError> {
    let pairs: Vec<(String, String)> = query_pairs(query)?
        .filter(|(k, _)| k == "ruleset" || k == "rule" || k == "rules")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let named = pairs.iter().find(|(k, _)| k == "ruleset").map(|(_, v)| v);
    let options: Vec<&String> = pairs
        .iter()
        .filter(|(k, _)| k == "rule" || k == "rules")
        .map(|(_, v)| v)
        .collect();
    if named.is_none() && options.is_empty() {
        return Ok(());
    }
    let bad = |e: String| ApiError::new(ErrorKind::Rules, e);
    let mut asked = match named {
        None => served.rules.clone(),
        Some(n) if *n == served.label => served.rules.clone(),
        Some(n) => Ruleset::by_name(n).map_err(|e| bad(e.to_string()))?,
    };
    for kv in options {
        asked.apply_override(kv).map_err(|e| bad(e.to_string()))?;
    }
    match tb.check_rules(&asked) {
        Err(ProbeError::RulesetMismatch { position, tables }) => Err(ApiError::new(
            ErrorKind::RulesetMismatch,
            format!(
                "the request asks for rule set '{position}' but '/api/{}' serves rule set \
                 '{tables}'; ask /api/{position} (see /api/rulesets)",
                served.label
            ),
        )),
        Err(e) => Err(ApiError::new(ErrorKind::Rules, e.to_string())),
        Ok(()) => Ok(()),
    }
}

/// The rule set named in the path, and its tables.
fn served(
    state: &AppState,
    path: Result<Path<String>, PathRejection>,
) -> Result<(&Served, Arc<Tablebase>), ApiError> {
    let Path(label) = path.map_err(|e| ApiError::new(ErrorKind::Path, e.body_text()))?;
    let served = state.served(&label).ok_or_else(|| {
        let known: Vec<&str> = state.rulesets.iter().map(|s| s.label.as_str()).collect();
        ApiError::new(
            ErrorKind::UnknownRuleset,
            format!(
                "this server has no rule set '{}' (it serves: {})",
                label.chars().take(64).collect::<String>(),
                known.join(", ")
            ),
        )
    })?;
    match &served.tables {
        Ok(tb) => Ok((served, Arc::clone(tb))),
        Err(_) => Err(ApiError::new(
            ErrorKind::NoTables,
            format!("this server has no tables for rule set '{}'", served.label),
        )),
    }
}

/// How a probe failure under `served` becomes the answer (see
/// [`ApiError::from_probe`]), for work that runs on the probe pool.
fn failure(
    state: &Shared,
    served: &Served,
) -> impl Fn(ProbeError, Option<Material>) -> ApiError + Send + 'static {
    let (state, label) = (Arc::clone(state), served.label.clone());
    move |e, material| {
        let served = state.served(&label).expect("a rule set the server serves");
        ApiError::from_probe(e, served, state.log_requests, material)
    }
}

/// Answers from the cache, or runs `work` on the probe pool and keeps its
/// answer. `work` returns the JSON and the number of table probes it made.
async fn cached_or_compute(
    state: Shared,
    key: String,
    work: impl FnOnce() -> Result<(Json, u64), ApiError> + Send + 'static,
) -> Response {
    if let Some(hit) = state.cache.get(&key) {
        state.metrics.cache_hits.fetch_add(1, Ordering::Relaxed);
        let mut r = json_response(
            StatusCode::from_u16(hit.status).unwrap_or(StatusCode::OK),
            hit.body,
        );
        r.headers_mut()
            .insert("x-cache", HeaderValue::from_static("hit"));
        return r;
    }
    // A place in the queue, or 503 at once: work waiting for the pool is
    // bounded whatever the number of connections.
    let Ok(_queued) = Arc::clone(&state.queue).try_acquire_owned() else {
        state.metrics.overloaded.fetch_add(1, Ordering::Relaxed);
        return ApiError::new(
            ErrorKind::Overloaded,
            "too many requests waiting for the tables; try again",
        )
        .into_response();
    };
    let Ok(worker) = Arc::clone(&state.workers).acquire_owned().await else {
        return ApiError::new(ErrorKind::ShuttingDown, "the server is shutting down")
            .into_response();
    };
    let result = tokio::task::spawn_blocking(move || {
        let r = work();
        drop(worker);
        r
    })
    .await;
    match result {
        Ok(Ok((doc, probes))) => {
            state.metrics.computed.fetch_add(1, Ordering::Relaxed);
            state.metrics.probes.fetch_add(probes, Ordering::Relaxed);
            let body = axum::body::Bytes::from(doc.to_string());
            state.cache.put(
                key,
                Cached {
                    status: 200,
                    body: body.clone(),
                },
            );
            json_response(StatusCode::OK, body)
        }
        Ok(Err(e)) => e.into_response(),
        Err(join) => {
            ApiError::new(ErrorKind::Internal, format!("the probe failed: {join}")).into_response()
        }
    }
}

/// Runs a route's parsing; its error is the response.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return ApiError::into_response(e),
        }
    };
}

/// An answer about one position: the JSON and the probes it made.
type PositionAnswer = fn(&Tablebase, &Position) -> Result<(Json, u64), ProbeError>;

/// A route answering one position with `answer` (`probe`, `mainline`).
async fn position_route(
    state: Shared,
    path: Result<Path<String>, PathRejection>,
    query: Option<String>,
    route: &str,
    params: &[&str],
    answer: PositionAnswer,
) -> Response {
    let (served, tb) = tri!(served(&state, path));
    tri!(check_params(&query, params));
    tri!(check_rule_params(&query, served, &tb));
    let pos = tri!(position_param(&query));
    let key = format!("{route}|{}|{pos}", served.label);
    let fail = failure(&state, served);
    cached_or_compute(Arc::clone(&state), key, move || {
        answer(&tb, &pos).map_err(|e| fail(e, Material::of_position(&pos)))
    })
    .await
}

async fn probe(
    State(state): State<Shared>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    let with_replies = tri!(replies_param(&query));
    let (route, answer): (&str, PositionAnswer) = if with_replies {
        ("probe-replies", answers::position_with_replies)
    } else {
        ("probe", answers::position)
    };
    position_route(state, path, query, route, PROBE_PARAMS, answer).await
}

async fn mainline(
    State(state): State<Shared>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    position_route(
        state,
        path,
        query,
        "mainline",
        POSITION_PARAMS,
        answers::mainline,
    )
    .await
}

async fn map(
    State(state): State<Shared>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    let (served, tb) = tri!(served(&state, path));
    tri!(check_params(&query, MAP_PARAMS));
    tri!(check_rule_params(&query, served, &tb));
    let pos = tri!(position_param(&query));
    let square = tri!(
        tri!(query_param(&query, "square")).ok_or_else(|| ApiError::new(
            ErrorKind::MissingSquare,
            "missing &square=… (e.g. &square=a1)"
        ))
    );
    let from: Square = tri!(square
        .parse()
        .map_err(|e: MoveTextError| ApiError::new(ErrorKind::Square, e.to_string())));
    let key = format!("map|{}|{pos}|{from}", served.label);
    let fail = failure(&state, served);
    cached_or_compute(Arc::clone(&state), key, move || {
        answers::map(&tb, &pos, from).map_err(|e| match e {
            MapError::NoPiece(_) => ApiError::new(ErrorKind::NoPiece, e.to_string()),
            MapError::Probe(e) => fail(e, Material::of_position(&pos)),
        })
    })
    .await
}

async fn stats(
    State(state): State<Shared>,
    path: Result<Path<(String, String)>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Response {
    let Path((label, material)) =
        tri!(path.map_err(|e| ApiError::new(ErrorKind::Path, e.body_text())));
    let (served, tb) = tri!(served(&state, Ok(Path(label))));
    tri!(check_params(&query, STATS_PARAMS));
    tri!(check_rule_params(&query, served, &tb));
    let m: Material = tri!(material
        .parse()
        .map_err(|e: jungletb_indexer::MaterialError| ApiError::new(
            ErrorKind::Material,
            e.to_string()
        )));
    let key = format!("stats|{}|{}", served.label, m.canonical().0);
    let fail = failure(&state, served);
    cached_or_compute(Arc::clone(&state), key, move || {
        answers::stats(&tb, m).map_err(|e| fail(e, Some(m)))
    })
    .await
}

async fn board(State(state): State<Shared>, path: Result<Path<String>, PathRejection>) -> Response {
    let Path(label) = tri!(path.map_err(|e| ApiError::new(ErrorKind::Path, e.body_text())));
    let served = tri!(state.served(&label).ok_or_else(|| ApiError::new(
        ErrorKind::UnknownRuleset,
        "this server has no such rule set (see /api/rulesets)"
    )));
    json_response(StatusCode::OK, answers::board(&served.rules).to_string())
}

async fn rulesets(State(state): State<Shared>) -> Response {
    let answer = jungletb_wire::RulesetsAnswer {
        rulesets: state
            .rulesets
            .iter()
            .map(|s| {
                jungletb_wire::RulesetEntry::new(
                    s.label.clone(),
                    s.tables.is_ok().then_some(&s.coverage),
                )
            })
            .collect(),
    };
    json_response(
        StatusCode::OK,
        serde_json::to_string(&answer).expect("serialisable"),
    )
}

async fn health() -> Response {
    json_response(StatusCode::OK, r#"{"status":"ok"}"#)
}

async fn metrics(State(state): State<Shared>) -> Response {
    let (entries, bytes) = state.cache.size();
    let mut r = (StatusCode::OK, state.metrics.render(entries, bytes)).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4"),
    );
    r
}

async fn not_found() -> Response {
    ApiError::new(
        ErrorKind::NoRoute,
        "no such page; the API is at /api/{ruleset}?position=…, the board at /",
    )
    .into_response()
}

/// Counts every response and prints one log line per request: the time
/// (UTC), the client's address, the request, the status and the time taken.
/// Answers a CORS preflight (`OPTIONS`) itself: the API is read-only and
/// open to every origin.
async fn log_and_count(State(state): State<Shared>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let uri = req.uri().to_string();
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<Connection>>()
        .map_or_else(|| "-".to_string(), |c| c.0.peer.to_string());
    let response = if method == Method::OPTIONS {
        preflight()
    } else {
        next.run(req).await
    };
    let micros = start.elapsed().as_micros() as u64;
    let status = response.status().as_u16();
    state.metrics.record(status, micros);
    if state.log_requests {
        let cache = if response.headers().contains_key("x-cache") {
            " cached"
        } else {
            ""
        };
        // Long or odd request lines are cut, not echoed whole.
        let shown: String = uri.chars().take(160).collect();
        let cut = if shown.len() < uri.len() { "…" } else { "" };
        log_line!(
            "{} {peer} {method} {shown}{cut} {status} {:.3} ms{cache}",
            timestamp(),
            micros as f64 / 1000.0
        );
    }
    response
}

/// The answer to a CORS preflight request: every origin may GET.
fn preflight() -> Response {
    let mut r = StatusCode::NO_CONTENT.into_response();
    let h = r.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, OPTIONS"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("*"),
    );
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    r
}

/// 405 for a method a route does not answer, as JSON like every error.
async fn method_not_allowed() -> Response {
    ApiError::new(
        ErrorKind::MethodNotAllowed,
        "only GET (and OPTIONS) are answered",
    )
    .into_response()
}

/// Now as `2026-12-01T09:51:46Z` (UTC, whole seconds), for log lines.
pub(crate) fn timestamp() -> String {
    utc(std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()))
}

/// `secs` after the Unix epoch as an ISO 8601 UTC time.
fn utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn log_times_are_iso_8601_utc() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_796_118_706), "2026-12-01T09:51:46Z");
        assert_eq!(utc(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
