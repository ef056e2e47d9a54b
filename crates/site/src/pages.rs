//! The site's HTML pages and the board's files.

use crate::{write, MaterialPage, Package, SiteError};
use jungletb_rules::Ruleset;
use jungletb_wire::SideStats;
use std::fmt::Write as _;
use std::path::Path;

const APP_JS: &str = include_str!("../../server/assets/app.js");
const STYLE_CSS: &str = include_str!("../../server/assets/style.css");
const INDEX_HTML: &str = include_str!("../../server/assets/index.html");
const FAVICON_SVG: &str = include_str!("../../server/assets/favicon.svg");
const STATIC_API_JS: &str = include_str!("../assets/static-api.js");
const SITE_CSS: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;\
padding:0 1rem;color:#222}table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.15rem .6rem;\
text-align:right;border-bottom:1px solid #ddd}th{background:#f4f4f4}td:first-child,th:first-child\
{text-align:left}code{font-size:.92em;word-break:break-all}nav a{margin-right:1rem}\
img.hist{max-width:100%;height:auto;display:block}";

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A page: `root` is the relative path to the site root (`""`, `"../../"`).
fn page(title: &str, root: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<link rel=\"stylesheet\" href=\"{root}assets/site.css\">\n\
         <link rel=\"icon\" href=\"{root}assets/favicon.svg\" type=\"image/svg+xml\">\n</head>\n<body>\n\
         <nav><a href=\"{root}index.html\">Materials</a><a href=\"{root}board.html\">Board</a>\
         <a href=\"{root}downloads.html\">Downloads</a></nav>\n{body}\n\
         <footer><p>Values from jungletb tables: win, draw or loss for the side to move and \
         the plies to the end of the game with best play. Every position is probed in your \
         browser, from the tables on this site, by range requests: each part of a table a \
         probe reads is checked (the header and indexes by their checksums, every block by \
         its own check), but not the whole file, whose checksum needs every byte; check \
         downloaded tables with <a href=\"{root}SHA256SUMS\">SHA256SUMS</a>.</p></footer>\n</body>\n</html>\n",
        t = esc(title)
    )
}

fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * n as f64 / of as f64)
    }
}

/// The board link of a position, from a page `root` away from the site.
fn board_link(rules: &Ruleset, root: &str, position: &str) -> String {
    format!(
        "<a href=\"{root}board.html?ruleset={}&amp;position={}\"><code>{}</code></a>",
        esc(&rules.label()),
        esc(&position.replace(' ', "_")),
        esc(position)
    )
}

/// `index.html`: materials by piece count.
pub(crate) fn index(rules: &Ruleset, pages: &[MaterialPage]) -> String {
    let mut body = format!(
        "<h1>Jungle endgame tablebase: {}</h1>\n<p>{} materials. Each row: the share of \
         positions won, drawn and lost by the side to move, White to move then Black to \
         move. <a href=\"board.html\">Probe a position on the board</a>; \
         <a href=\"stats.json\">every figure as JSON</a>.</p>\n",
        esc(&rules.label()),
        pages.len()
    );
    let top = pages.iter().map(|p| p.stats.pieces).max().unwrap_or(0);
    for k in 2..=top {
        let of_k: Vec<&MaterialPage> = pages.iter().filter(|p| p.stats.pieces == k).collect();
        if of_k.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            "<h2>{k} pieces ({} materials)</h2>\n<table>\n<tr><th>material</th><th>positions</th>\
             <th>W to move: win</th><th>draw</th><th>loss</th><th>B to move: win</th><th>draw</th>\
             <th>loss</th><th>longest win</th></tr>\n",
            of_k.len()
        );
        for p in of_k {
            let s = &p.stats;
            let cells = |x: &SideStats| {
                let n = x.wins + x.draws + x.losses;
                format!(
                    "<td>{}</td><td>{}</td><td>{}</td>",
                    percent(x.wins, n),
                    percent(x.draws, n),
                    percent(x.losses, n)
                )
            };
            let _ = writeln!(
                body,
                "<tr><td><a href=\"{label}/materials/{m}.html\">{m}</a></td><td>{}</td>{}{}<td>{}</td></tr>",
                s.positions_both_sides_to_move,
                cells(&s.white_to_move),
                cells(&s.black_to_move),
                s.white_to_move.longest_win.max(s.black_to_move.longest_win),
                label = esc(&rules.label()),
                m = esc(&s.material),
            );
        }
        body.push_str("</table>\n");
    }
    page(&format!("jungletb: {}", rules.label()), "", &body)
}

/// A material's page.
pub(crate) fn material(rules: &Ruleset, p: &MaterialPage) -> String {
    let s = &p.stats;
    let root = "../../";
    let label = esc(&rules.label());
    let m = esc(&s.material);
    let side = |name: &str, x: &SideStats| {
        let n = x.wins + x.draws + x.losses;
        format!(
            "<tr><td>{name}</td><td>{}</td><td>{} ({})</td><td>{} ({})</td><td>{} ({})</td>\
             <td>{}</td><td>{}</td></tr>\n",
            n,
            x.wins,
            percent(x.wins, n),
            x.draws,
            percent(x.draws, n),
            x.losses,
            percent(x.losses, n),
            x.longest_win,
            x.longest_loss
        )
    };
    let mut body = format!(
        "<h1>{m}</h1>\n<p>{} pieces, rule set {label}. {} positions ({} index slots).</p>\n\
         <h2>Win, draw, loss</h2>\n<p>For the side to move; the longest win and loss in plies.</p>\n\
         <table>\n<tr><th>to move</th><th>positions</th><th>wins</th><th>draws</th><th>losses</th>\
         <th>longest win</th><th>longest loss</th></tr>\n{}{}</table>\n\
         <h2>Distances</h2>\n<p>Wins (up) and losses (down) by plies to the end, for each side \
         to move.</p>\n<img class=\"hist\" src=\"{m}.svg\" alt=\"distance histogram of {m}\">\n",
        s.pieces,
        s.positions_both_sides_to_move,
        s.slots,
        side("White", &s.white_to_move),
        side("Black", &s.black_to_move),
    );
    match &p.longest {
        Some((pos, line)) => {
            let _ = write!(
                body,
                "<h2>The longest win</h2>\n<p>{} ({} plies): <code>{}</code></p>\n",
                board_link(rules, root, pos),
                line.len(),
                esc(&line.join(" "))
            );
        }
        None => body.push_str("<h2>The longest win</h2>\n<p>Neither side ever wins.</p>\n"),
    }
    let _ = write!(
        body,
        "<h2>Mutual zugzwangs</h2>\n<p>{} placements where the side to move loses, whichever \
         side it is.</p>\n",
        p.mutual
    );
    if !p.zugzwangs.is_empty() {
        body.push_str("<p>The longest, with White to move:</p>\n<ul>\n");
        for z in &p.zugzwangs {
            let _ = writeln!(body, "<li>{}</li>", board_link(rules, root, z));
        }
        body.push_str("</ul>\n");
    }
    let _ = write!(
        body,
        "<h2>The table</h2>\n<table>\n<tr><td>file</td><td><a href=\"../{f}\" download>{f}</a></td></tr>\n\
         <tr><td>bytes</td><td>{}</td></tr>\n<tr><td>bits a position</td><td>{:.3}</td></tr>\n\
         <tr><td>SHA-256</td><td><code>{}</code></td></tr>\n</table>\n\
         <p>Statistics as JSON: <a href=\"{m}.json\">{m}.json</a>.</p>\n",
        p.table.bytes,
        8.0 * p.table.bytes as f64 / (s.positions.max(1)) as f64,
        esc(&p.table.sha256),
        f = esc(&p.table.file),
    );
    if p.depends.is_empty() {
        body.push_str("<p>It depends on no other table.</p>\n");
    } else {
        body.push_str("<p>A capture leads into: ");
        let links: Vec<String> = p
            .depends
            .iter()
            .map(|d| format!("<a href=\"{d}.html\">{d}</a>", d = esc(d)))
            .collect();
        body.push_str(&links.join(", "));
        body.push_str(" (probes of this table read them too).</p>\n");
    }
    page(
        &format!("{} — jungletb {}", s.material, rules.label()),
        root,
        &body,
    )
}

/// `downloads.html`.
pub(crate) fn downloads(rules: &Ruleset, pages: &[MaterialPage]) -> String {
    let label = esc(&rules.label());
    let total: u64 = pages.iter().map(|p| p.table.bytes).sum();
    let mut body = format!(
        "<h1>Downloads</h1>\n<p>{} tables, {} bytes. <a href=\"SHA256SUMS\">SHA256SUMS</a> \
         holds every checksum: <code>sha256sum -c SHA256SUMS</code> in the site's directory \
         checks what you downloaded. Put the files in <code>tables/{label}/</code> for \
         <code>jungletb probe</code>.</p>\n<table>\n<tr><th>file</th><th>bytes</th><th>SHA-256</th></tr>\n",
        pages.len(),
        total
    );
    for p in pages {
        let _ = writeln!(
            body,
            "<tr><td><a href=\"{label}/{f}\" download>{f}</a></td><td>{}</td><td><code>{}</code></td></tr>",
            p.table.bytes,
            esc(&p.table.sha256),
            f = esc(&p.table.file)
        );
    }
    body.push_str("</table>\n");
    page("jungletb downloads", "", &body)
}

/// The board and its assets; returns the bytes written.
pub(crate) fn write_board(out: &Path, package: &Package) -> Result<u64, SiteError> {
    // The server's page, with paths made relative (the site may live under
    // any path) and the stand-in for the API loaded before the board.
    let html = INDEX_HTML
        .replace("href=\"/assets/", "href=\"assets/")
        .replace("href=\"/favicon.svg\"", "href=\"assets/favicon.svg\"")
        .replace(
            "<script src=\"/assets/app.js\"></script>",
            "<script src=\"assets/static-api.js\"></script>\n<script src=\"assets/app.js\"></script>",
        )
        .replace(
            "API: <code>/api/{ruleset}?position=…</code>,\n<a href=\"/metrics\">metrics</a>.",
            "Probed in your browser (WebAssembly) from the tables of this site; \
             <a href=\"index.html\">every material</a>.",
        );
    let assets = out.join("assets");
    let mut n = 0;
    n += write(&out.join("board.html"), html)?;
    n += write(&assets.join("app.js"), APP_JS)?;
    n += write(&assets.join("style.css"), STYLE_CSS)?;
    n += write(&assets.join("site.css"), SITE_CSS)?;
    n += write(&assets.join("favicon.svg"), FAVICON_SVG)?;
    n += write(&assets.join("static-api.js"), STATIC_API_JS)?;
    n += write(&assets.join("jungletb.js"), &package.js)?;
    n += write(&assets.join("jungletb.wasm"), &package.wasm)?;
    Ok(n)
}
