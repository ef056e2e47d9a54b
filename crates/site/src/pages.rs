//! The site's HTML pages and the board's files.

use crate::{write, Package, SiteError, TableEntry};
use jungletb_analysis::zugzwang;
use jungletb_rules::Ruleset;
use jungletb_wire::MaterialStats;
use jungletb_wire::SideStats;
use std::fmt::Write as _;
use std::path::Path;

/// Everything a material's page shows.
#[derive(Debug, Clone)]
pub(crate) struct MaterialPage {
    pub(crate) stats: MaterialStats,
    pub(crate) table: TableEntry,
    pub(crate) svg: String,
    /// The longest win (for the side to move that has the longer one) and
    /// its line.
    pub(crate) longest: Option<(String, Vec<String>)>,
    /// Its zugzwangs: counts of both kinds and the longest few of each.
    pub(crate) zugzwangs: zugzwang::Report,
    /// Canonical materials one capture leads to.
    pub(crate) depends: Vec<String>,
    /// Its deepest only-move puzzles.
    pub(crate) puzzles: Vec<jungletb_wire::PuzzleAnswer>,
    /// Its training exercises.
    pub(crate) exercises: Vec<jungletb_wire::ExerciseAnswer>,
}

use jungletb_board::{APP_JS, FAVICON_SVG, INDEX_HTML, STYLE_CSS};
const STATIC_API_JS: &str = include_str!("../assets/static-api.js");
const SITE_CSS: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;\
padding:0 .75rem;color:#222}table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.15rem .4rem;\
text-align:right;border-bottom:1px solid #ddd;vertical-align:top}th{background:#f4f4f4}\
td:first-child,th:first-child{text-align:left}code{font-size:.92em;word-break:break-all}\
.line{word-break:normal;overflow-wrap:anywhere}.move{white-space:nowrap}nav{display:flex;flex-wrap:wrap;gap:.2rem 1rem}\
.hist-box{overflow-x:auto}img.hist{width:100%;min-width:34rem;height:auto;display:block}.bar{display:inline-flex;width:7rem;max-width:24vw;\
height:.8rem;vertical-align:middle;border:1px solid #999}.bar i{display:block;height:100%}\
.bar .w{background:#2e7d32}.bar .d{background:#bdbdbd}.bar .l{background:#c62828}\
small{color:#555}@media (max-width:30rem){body{padding:0 .4rem}table{font-size:.85rem}\
td,th{padding:.1rem .25rem}.bar{width:4rem}h1{font-size:1.4rem}}";

/// `n` with thousands separators (`6,412,392`).
fn num(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A bar of the shares of wins, draws and losses, the figures in its title.
fn wdl_bar(x: &SideStats) -> String {
    let n = x.wins + x.draws + x.losses;
    let share = |k: u64| {
        if n == 0 {
            0.0
        } else {
            100.0 * k as f64 / n as f64
        }
    };
    format!(
        "<span class=\"bar\" title=\"win {} ({}), draw {} ({}), loss {} ({})\">\
         <i class=\"w\" style=\"width:{:.1}%\"></i><i class=\"d\" style=\"width:{:.1}%\"></i>\
         <i class=\"l\" style=\"width:{:.1}%\"></i></span>",
        num(x.wins),
        percent(x.wins, n),
        num(x.draws),
        percent(x.draws, n),
        num(x.losses),
        percent(x.losses, n),
        share(x.wins),
        share(x.draws),
        share(x.losses)
    )
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A page: `root` is the relative path to the site root (`""`,
/// `"../../"`); `label` the rule set it belongs to (`None`: the site's
/// list of rule sets), named first in its menu, a link to that list.
fn page(title: &str, root: &str, label: Option<&str>, body: &str) -> String {
    let nav = match label {
        Some(label) => {
            let l = esc(label);
            format!(
                "<a href=\"{root}index.html\" title=\"every rule set of this site\">Rules: \
                 <b>{l}</b></a><a href=\"{root}{l}/index.html\">Materials</a>\
                 <a href=\"{root}board.html?ruleset={l}\">Board</a>\
                 <a href=\"{root}{l}/puzzles.html\">Puzzles</a><a href=\"{root}{l}/train.html\">Train</a>\
                 <a href=\"{root}{l}/downloads.html\">Downloads</a>"
            )
        }
        None => format!(
            "<a href=\"{root}index.html\">Rule sets</a><a href=\"{root}board.html\">Board</a>"
        ),
    };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<link rel=\"stylesheet\" href=\"{root}assets/site.css\">\n\
         <link rel=\"icon\" href=\"{root}assets/favicon.svg\" type=\"image/svg+xml\">\n</head>\n<body>\n\
         <nav>{nav}</nav>\n{body}\n\
         <footer><p>Values from jungletb tables: win, draw or loss for the side to move and \
         the plies to the end of the game with best play. Every position is probed in your \
         browser, from the tables on this site, by range requests: each part of a table a \
         probe reads is checked (the header and indexes by their checksums, every block by \
         its own check), but not the whole file, whose checksum needs every byte; check \
         downloaded tables with <a href=\"{root}SHA256SUMS\">SHA256SUMS</a>.</p></footer>\n</body>\n</html>\n",
        t = esc(title)
    )
}

/// A page of a rule set's directory (`<label>/index.html`, …), titled
/// `what` and the rule set.
fn ruleset_page(what: &str, rules: &Ruleset, body: &str) -> String {
    let label = rules.label();
    page(
        &format!("{what} — jungletb {label}"),
        "../",
        Some(&label),
        body,
    )
}

/// The pages of `k`-piece materials that `keep` keeps, strongest first
/// (as `stats` lists them).
fn strongest_first(
    pages: &[MaterialPage],
    k: u32,
    keep: impl Fn(&MaterialPage) -> bool,
) -> Vec<&MaterialPage> {
    let mut of_k: Vec<&MaterialPage> = pages
        .iter()
        .filter(|p| p.stats.pieces == k && keep(p))
        .collect();
    of_k.sort_by_key(|p| {
        p.stats
            .material
            .parse::<jungletb_indexer::Material>()
            .map(|m| m.strongest_first())
            .ok()
    });
    of_k
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

/// The link that starts a training game from a position.
fn train_link(rules: &Ruleset, root: &str, position: &str, text: &str) -> String {
    format!(
        "<a href=\"{root}board.html?ruleset={}&amp;position={}&amp;train=1\">{text}</a>",
        esc(&rules.label()),
        esc(&position.replace(' ', "_")),
    )
}

/// The training link of an exercise: its goal, depth and how many moves
/// keep its value (`win in 17: 2 of 9 moves win`).
fn exercise_link(rules: &Ruleset, root: &str, e: &jungletb_wire::ExerciseAnswer) -> String {
    let side = if e.position.ends_with(" w") {
        "White"
    } else {
        "Black"
    };
    let text = match e.plies {
        Some(plies) => format!(
            "{side} wins in {plies}: {} of {} moves win",
            e.good_moves, e.moves
        ),
        None => format!(
            "{side} holds the draw: {} of {} moves hold it",
            e.good_moves, e.moves
        ),
    };
    train_link(rules, root, &e.position, &text)
}

/// `train.html`: every material's exercises, by piece count, strongest
/// first: a won position at a few depths and a draw to hold, each a link
/// that starts a training game on the board.
pub(crate) fn train(rules: &Ruleset, pages: &[MaterialPage]) -> String {
    let label = esc(&rules.label());
    let mut body = format!(
        "<h1>Train</h1>\n<p>Pick a material and a task: you play the side to move on the \
         board, the tables defend (among their best moves, the one that leaves you the fewest \
         good replies), and every move is judged at once, with take-back. Deeper wins and \
         fewer good moves are harder. Rule set {label}; also as \
         <a href=\"exercises.json\">JSON</a>.</p>\n"
    );
    let top = pages.iter().map(|p| p.stats.pieces).max().unwrap_or(0);
    for k in 2..=top {
        let of_k = strongest_first(pages, k, |p| !p.exercises.is_empty());
        if of_k.is_empty() {
            continue;
        }
        let _ = writeln!(
            body,
            "<details{}><summary>{k} pieces ({} materials)</summary>\n<ul>",
            if k <= 3 { " open" } else { "" },
            of_k.len()
        );
        for p in of_k {
            let links: Vec<String> = p
                .exercises
                .iter()
                .map(|e| exercise_link(rules, "../", e))
                .collect();
            let _ = writeln!(
                body,
                "<li><a href=\"materials/{m}.html\">{m}</a>: {}</li>",
                links.join("; "),
                m = esc(&p.stats.material)
            );
        }
        body.push_str("</ul>\n</details>\n");
    }
    ruleset_page("Train", rules, &body)
}

/// A puzzle: its board link, and its answer and line on request.
fn puzzle_item(
    rules: &Ruleset,
    root: &str,
    p: &jungletb_wire::PuzzleAnswer,
    material: bool,
) -> String {
    let side = if p.position.ends_with(" w") {
        "White"
    } else {
        "Black"
    };
    let of = if material {
        format!(
            "<a href=\"{root}{}/materials/{m}.html\">{m}</a>, ",
            esc(&rules.label()),
            m = esc(&p.material)
        )
    } else {
        String::new()
    };
    format!(
        "<li>{of}{side} to move and win: find the only winning move of {} ({}, {}).          <details><summary>Answer</summary><p class=\"line\">{} wins in {} plies: {}</p></details></li>\n",
        num(p.moves as u64),
        board_link(rules, root, &p.position),
        train_link(rules, root, &p.position, "play it out against the tables"),
        esc(&p.solution),
        p.plies,
        line_html(rules, &p.position, &p.line)
    )
}

/// `puzzles.html`: the deepest only-move puzzles of every material.
pub(crate) fn puzzles(rules: &Ruleset, list: &[&jungletb_wire::PuzzleAnswer]) -> String {
    let mut body = format!(
        "<h1>Puzzles</h1>\n<p>Positions of rule set {} where exactly one move wins and every \
         other move draws or loses, found by the tables; the deepest first. Open one on the \
         board, find the move, or play it out against the tables' defence. Also as \
         <a href=\"puzzles.json\">JSON</a>.</p>\n<ol>\n",
        esc(&rules.label()),
    );
    for p in list {
        body.push_str(&puzzle_item(rules, "../", p, true));
    }
    body.push_str("</ol>\n");
    if list.is_empty() {
        body.push_str("<p>No position of these tables has a single winning move.</p>\n");
    }
    ruleset_page("Puzzles", rules, &body)
}

/// A line of play for people: numbered, each move with its piece's letter
/// (`1. Wg7f7 tg9g8 2. …`), a move never broken across lines.
fn line_html(rules: &Ruleset, position: &str, line: &[String]) -> String {
    let Ok(pos) = position.parse::<jungletb_rules::Position>() else {
        return esc(&line.join(" "));
    };
    let moves: Vec<jungletb_rules::Move> = {
        let mut cur = pos;
        let mut out = Vec::new();
        for text in line {
            let Some(mv) = cur
                .legal_moves(rules)
                .into_iter()
                .find(|m| m.to_string() == *text)
            else {
                break;
            };
            out.push(mv);
            cur = cur.play(&mv);
        }
        out
    };
    let text = jungletb_rules::line_text(&pos, &moves, rules);
    // A move number stays with its move.
    text.split(' ')
        .fold(Vec::<String>::new(), |mut acc, word| {
            match acc.last_mut() {
                Some(last) if last.ends_with('.') => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ => acc.push(word.to_string()),
            }
            acc
        })
        .iter()
        .map(|w| format!("<span class=\"move\">{}</span>", esc(w)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `index.html`: materials by piece count, strongest first.
pub(crate) fn index(rules: &Ruleset, pages: &[MaterialPage]) -> String {
    let mut body = format!(
        "<h1>Jungle endgame tablebase: {}</h1>\n<p>{} materials, strongest first. Each \
         row: the share of positions won (green), drawn (grey) and lost (red) by the side to \
         move, White to move then Black to move (the figures in each bar's tooltip and on \
         the material's page). <a href=\"../board.html?ruleset={}\">Probe a position on the board</a>; \
         <a href=\"stats.json\">every figure as JSON</a>.</p>\n",
        esc(&rules.label()),
        pages.len(),
        esc(&rules.label()),
    );
    let top = pages.iter().map(|p| p.stats.pieces).max().unwrap_or(0);
    for k in 2..=top {
        let of_k = strongest_first(pages, k, |_| true);
        if of_k.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            "<h2>{k} pieces ({} materials)</h2>\n<table>\n<tr><th>material</th><th>positions</th>\
             <th>White to move</th><th>Black to move</th><th>longest win</th></tr>\n",
            of_k.len()
        );
        for p in of_k {
            let s = &p.stats;
            let _ = writeln!(
                body,
                "<tr><td><a href=\"materials/{m}.html\">{m}</a></td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>",
                num(s.positions_both_sides_to_move),
                wdl_bar(&s.white_to_move),
                wdl_bar(&s.black_to_move),
                s.white_to_move.longest_win.max(s.black_to_move.longest_win),
                m = esc(&s.material),
            );
        }
        body.push_str("</table>\n");
    }
    ruleset_page("Materials", rules, &body)
}

/// A material's page.
pub(crate) fn material(rules: &Ruleset, p: &MaterialPage) -> String {
    let s = &p.stats;
    let root = "../../";
    let label = esc(&rules.label());
    let m = esc(&s.material);
    let (w, b) = (&s.white_to_move, &s.black_to_move);
    let count = |x: &SideStats, k: u64| {
        let n = x.wins + x.draws + x.losses;
        format!("{}<br><small>{}</small>", num(k), percent(k, n))
    };
    let row = |name: &str, cw: String, cb: String| {
        format!("<tr><td>{name}</td><td>{cw}</td><td>{cb}</td></tr>\n")
    };
    let table = [
        row(
            "positions",
            num(w.wins + w.draws + w.losses),
            num(b.wins + b.draws + b.losses),
        ),
        row("", wdl_bar(w), wdl_bar(b)),
        row("wins", count(w, w.wins), count(b, b.wins)),
        row("draws", count(w, w.draws), count(b, b.draws)),
        row("losses", count(w, w.losses), count(b, b.losses)),
        row(
            "longest win",
            num(w.longest_win.into()),
            num(b.longest_win.into()),
        ),
        row(
            "longest loss",
            num(w.longest_loss.into()),
            num(b.longest_loss.into()),
        ),
    ]
    .concat();
    let mut body = format!(
        "<h1>{m}</h1>\n<p>{} pieces, rule set {label}. {} positions ({} index slots).</p>\n\
         <h2>Win, draw, loss</h2>\n<p>For the side to move; the longest win and loss in plies.</p>\n\
         <table>\n<tr><th></th><th>White to move</th><th>Black to move</th></tr>\n{table}</table>\n\
         <h2>Distances</h2>\n<p>Wins (up) and losses (down) by plies to the end, for each side \
         to move.</p>\n<div class=\"hist-box\"><img class=\"hist\" src=\"{m}.svg\" alt=\"distance histogram of {m}\"></div>\n",
        s.pieces,
        num(s.positions_both_sides_to_move),
        num(s.slots),
    );
    match &p.longest {
        Some((pos, line)) => {
            let _ = write!(
                body,
                "<h2>The longest win</h2>\n<p>{} ({} plies; {}):</p>\n<p class=\"line\">{}</p>\n",
                board_link(rules, root, pos),
                line.len(),
                train_link(rules, root, pos, "train it against the tables"),
                line_html(rules, pos, line)
            );
        }
        None => body.push_str("<h2>The longest win</h2>\n<p>Neither side ever wins.</p>\n"),
    }
    if !p.puzzles.is_empty() {
        body.push_str("<h2>Puzzles</h2>\n<ol>\n");
        for z in &p.puzzles {
            body.push_str(&puzzle_item(rules, root, z, false));
        }
        body.push_str("</ol>\n");
    }
    if !p.exercises.is_empty() {
        body.push_str(
            "<h2>Train</h2>\n<p>Play the side to move against the tables' defence, each \
             move judged:</p>\n<ul>\n",
        );
        for e in &p.exercises {
            let _ = writeln!(body, "<li>{}</li>", exercise_link(rules, root, e));
        }
        body.push_str("</ul>\n");
    }
    body.push_str(&zugzwangs_html(rules, root, &p.zugzwangs));
    let _ = write!(
        body,
        "<h2>The table</h2>\n<table>\n<tr><td>file</td><td><a href=\"../{f}\" download>{f}</a></td></tr>\n\
         <tr><td>bytes</td><td>{}</td></tr>\n<tr><td>bits a position</td><td>{:.3}</td></tr>\n\
         <tr><td>SHA-256</td><td><code>{}</code></td></tr>\n</table>\n\
         <p>Statistics as JSON: <a href=\"{m}.json\">{m}.json</a>.</p>\n",
        num(p.table.bytes),
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
        Some(&rules.label()),
        &body,
    )
}

/// A material's zugzwangs: both kinds counted, the longest few of each
/// a board link with its two values.
fn zugzwangs_html(rules: &Ruleset, root: &str, z: &jungletb_analysis::zugzwang::Report) -> String {
    use jungletb_analysis::zugzwang::Kind;
    let mut out = String::new();
    for (kind, title, what, count) in [
        (
            Kind::Mutual,
            "Mutual zugzwangs",
            "placements where the side to move loses, whichever side it is",
            z.mutual,
        ),
        (
            Kind::Half,
            "Half zugzwangs",
            "placements where one side to move draws and the other, to move, loses",
            z.half,
        ),
    ] {
        let _ = writeln!(out, "<h2>{title}</h2>\n<p>{} {what}.</p>", num(count));
        let examples: Vec<_> = z.examples.iter().filter(|e| e.kind == kind).collect();
        if examples.is_empty() {
            continue;
        }
        out.push_str("<p>The longest (each link with White to move):</p>\n<ul>\n");
        for e in examples {
            let _ = writeln!(
                out,
                "<li>{} <small>White to move: {}; Black to move: {}</small></li>",
                board_link(rules, root, &e.position.to_string()),
                e.white_to_move,
                e.black_to_move,
            );
        }
        out.push_str("</ul>\n");
    }
    out
}

/// `downloads.html`.
pub(crate) fn downloads(rules: &Ruleset, pages: &[MaterialPage]) -> String {
    let label = esc(&rules.label());
    let total: u64 = pages.iter().map(|p| p.table.bytes).sum();
    let mut body = format!(
        "<h1>Downloads</h1>\n<p>{} tables, {} bytes. <a href=\"../SHA256SUMS\">SHA256SUMS</a> \
         holds every checksum: <code>sha256sum -c SHA256SUMS</code> in the site's directory \
         checks what you downloaded. Put the files in <code>tables/{label}/</code> for \
         <code>jungletb probe</code>.</p>\n<table>\n<tr><th>file</th><th>bytes</th><th>SHA-256</th></tr>\n",
        pages.len(),
        num(total)
    );
    for p in pages {
        let _ = writeln!(
            body,
            "<tr><td><a href=\"{f}\" download>{f}</a></td><td>{}</td><td><code>{}</code></td></tr>",
            num(p.table.bytes),
            esc(&p.table.sha256),
            f = esc(&p.table.file)
        );
    }
    body.push_str("</table>\n");
    ruleset_page("Downloads", rules, &body)
}

/// The root `index.html`: the site's rule sets (`entries`, with their
/// `manifests`), each with what it is, its tables and its pages (those of
/// a rule set an earlier version built may be missing from `out`).
pub(crate) fn rulesets(
    entries: &[jungletb_wire::RulesetEntry],
    manifests: &[crate::Manifest],
    out: &Path,
) -> String {
    let mut body = String::from(
        "<h1>Jungle endgame tablebases</h1>\n<p>Win, draw or loss and the distance to the end \
         of the game, with best play, for every position of the tables below. Rule sets \
         differ in who may take whom (the rules that Jungle programs and rule sheets \
         disagree on); pick the one you play.</p>\n",
    );
    for (e, m) in entries.iter().zip(manifests) {
        let l = esc(&e.label);
        let base = e.base.as_deref().unwrap_or(&e.label);
        let what = match jungletb_rules::BaseRuleset::ALL
            .iter()
            .find(|b| b.name() == base)
        {
            Some(b) if *base == e.label => format!("{}.", esc(b.source())),
            Some(b) => {
                let named = Ruleset::named(*b).options();
                let differ: Vec<String> = e
                    .options
                    .iter()
                    .flatten()
                    .filter(|(k, v)| !named.iter().any(|(nk, nv)| nk == k && nv == *v))
                    .map(|(k, v)| format!("<code>{}={}</code>", esc(k), esc(v)))
                    .collect();
                format!("{base} with {}.", differ.join(", "))
            }
            None => String::new(),
        };
        let tables: u64 = m.tables.iter().map(|t| t.bytes).sum();
        let cover = match (e.complete_pieces, e.max_pieces) {
            (Some(c), Some(top)) if top > c => {
                format!("every table up to {c} pieces, some of up to {top}")
            }
            (Some(c), _) => format!("every table up to {c} pieces"),
            (None, Some(top)) => format!("some tables of up to {top} pieces"),
            (None, None) => "no table".into(),
        };
        let links: Vec<String> = [
            ("index.html", "Materials"),
            ("puzzles.html", "Puzzles"),
            ("train.html", "Train"),
            ("downloads.html", "Downloads"),
        ]
        .into_iter()
        .filter(|(f, _)| out.join(&e.label).join(f).is_file())
        .map(|(f, text)| format!("<a href=\"{l}/{f}\">{text}</a>"))
        .chain([format!("<a href=\"board.html?ruleset={l}\">Board</a>")])
        .collect();
        let _ = write!(
            body,
            "<section class=\"ruleset\" id=\"{l}\">\n<h2><a href=\"{l}/index.html\">{l}</a></h2>\n\
             <p>{what}</p>\n<p>{} tables ({cover}), {} bytes.</p>\n<p class=\"links\">{}</p>\n</section>\n",
            num(m.tables.len() as u64),
            num(tables),
            links.join(" · "),
        );
    }
    page("jungletb: Jungle endgame tablebases", "", None, &body)
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
             <a href=\"index.html\">every rule set and material</a>.",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_thousands_separators() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (6_412_392, "6,412,392"),
        ] {
            assert_eq!(num(n), text);
        }
    }

    #[test]
    fn a_line_is_numbered_with_piece_letters_and_never_broken_inside_a_move() {
        let rules = Ruleset::standard();
        let line: Vec<String> = ["a1b1", "a2b2", "b1c1"].map(String::from).to_vec();
        let html = line_html(&rules, "7/7/7/7/7/7/7/d6/W6 w", &line);
        assert_eq!(
            html,
            "<span class=\"move\">1. Wa1b1</span> <span class=\"move\">da2b2</span> \
             <span class=\"move\">2. Wb1c1</span>"
        );
    }
}
