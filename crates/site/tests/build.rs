//! `build` on freshly generated (plain) tables: what the site holds,
//! checked against the tables themselves (compressed for the site, they
//! answer as the plain ones); a rebuild removes what it no longer serves;
//! two rule sets in one site, built together or one after the other; bad
//! output directories refused.

use jungletb_indexer::Material;
use jungletb_rules::Ruleset;
use jungletb_site::{build, Package, RulesetTables, SiteError};
use jungletb_solver::{generate, GenerateOptions};
use jungletb_tablebase::{table_dir, Header, Table, Tablebase};
use std::path::Path;

/// ELvR, CvC and what they depend on, under `rules`.
fn tables_of(rules: &Ruleset) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    generate(&GenerateOptions {
        root: dir.path().to_path_buf(),
        rules: rules.clone(),
        max_pieces: 8,
        materials: vec!["ELvR".parse::<Material>().unwrap(), "CvC".parse().unwrap()],
        mem: None,
        check_space: true,
    })
    .unwrap();
    dir
}

fn tables() -> tempfile::TempDir {
    tables_of(&Ruleset::standard())
}

/// The tables of `rules` under `root`, as `build` takes them.
fn set(root: &Path, rules: &Ruleset) -> Vec<RulesetTables> {
    vec![RulesetTables {
        dir: table_dir(root, rules),
        rules: rules.clone(),
    }]
}

fn package() -> Package {
    Package {
        wasm: b"\0asm\x01\0\0\0".to_vec(),
        js: "export {};\n".into(),
    }
}

#[test]
fn the_site_lists_every_table_with_its_size_and_checksum_and_a_page_for_each() {
    let rules = Ruleset::standard();
    let root = tables();
    let dir = table_dir(root.path(), &rules);
    let out = tempfile::tempdir().unwrap();
    let summary = build(
        &set(root.path(), &rules),
        out.path(),
        &package(),
        &|_, _| {},
    )
    .unwrap();
    let site = out.path();
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(site.join("standard/manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["ruleset"], "standard");
    let listed = manifest["tables"].as_array().unwrap();
    let on_disk = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_str()
                .unwrap()
                .ends_with(".jtb")
        })
        .count();
    assert_eq!(listed.len(), on_disk, "every table of the directory");
    assert_eq!(summary.materials, on_disk);
    let sums = std::fs::read_to_string(site.join("SHA256SUMS")).unwrap();
    let tb = Tablebase::with_dir(dir.clone(), rules.clone());
    let mut examples = [0usize; 2];
    for t in listed {
        let file = t["file"].as_str().unwrap();
        // Only compressed tables are served, compressed from the plain ones.
        assert!(file.ends_with(".jtbz"), "{file} served plain");
        let served = site.join("standard").join(file);
        let bytes = std::fs::read(&served).unwrap();
        let plain = Table::open_any(&dir.join(file.trim_end_matches('z'))).unwrap();
        tb.same_answers(&plain, &Table::open_any(&served).unwrap())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(t["bytes"], bytes.len() as u64);
        // The header names the material the manifest gives.
        let header = Header::read(&served).unwrap();
        assert_eq!(header.material.to_string(), t["material"].as_str().unwrap());
        let sha = t["sha256"].as_str().unwrap();
        assert_eq!(sha.len(), 64);
        assert!(
            sums.contains(&format!("{sha}  standard/{file}\n")),
            "{file}"
        );
        let m = t["material"].as_str().unwrap();
        let page =
            std::fs::read_to_string(site.join(format!("standard/materials/{m}.html"))).unwrap();
        assert!(
            page.contains(sha) && page.contains(&format!("<h1>{m}</h1>")),
            "{m}"
        );
        assert!(site.join(format!("standard/materials/{m}.svg")).exists());
        // Both kinds of zugzwang, counted as the scan counts them, the longest
        // of each a board link.
        let z = jungletb_analysis::zugzwang::scan_material(&tb, m.parse().unwrap(), 5).unwrap();
        for (title, count) in [("Mutual", z.mutual), ("Half", z.half)] {
            let at = page
                .find(&format!("<h2>{title} zugzwangs</h2>"))
                .unwrap_or_else(|| panic!("{m}: no {title} zugzwangs"));
            let section = &page[at..];
            let section = &section[..section[5..].find("<h2>").map_or(section.len(), |e| e + 5)];
            let shown = count.to_string();
            let grouped = shown
                .as_bytes()
                .rchunks(3)
                .rev()
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect::<Vec<_>>()
                .join(",");
            assert!(
                section.contains(&format!("<p>{grouped} ")),
                "{m} {title}: {count}"
            );
            assert_eq!(
                section.matches("board.html?ruleset=standard").count(),
                z.examples
                    .iter()
                    .filter(|e| e.kind.name() == title.to_lowercase())
                    .count(),
                "{m} {title}"
            );
        }
        examples[0] += z
            .examples
            .iter()
            .filter(|e| e.kind.name() == "mutual")
            .count();
        examples[1] += z
            .examples
            .iter()
            .filter(|e| e.kind.name() == "half")
            .count();
        let index = std::fs::read_to_string(site.join("standard/index.html")).unwrap();
        assert!(index.contains(&format!("\"materials/{m}.html\"")), "{m}");
    }
    assert!(
        examples[0] > 0 && examples[1] > 0,
        "the pages show both kinds of zugzwang: {examples:?}"
    );
    // ELvR's page shows its longest win (either side's) with a line of
    // that many plies.
    let stats: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(site.join("standard/materials/ELvR.json")).unwrap(),
    )
    .unwrap();
    let plies = ["white_to_move", "black_to_move"]
        .iter()
        .map(|side| stats[side]["longest_win"].as_u64().unwrap())
        .max()
        .unwrap();
    let page = std::fs::read_to_string(site.join("standard/materials/ELvR.html")).unwrap();
    assert!(
        page.contains(&format!("({plies} plies; ")),
        "longest win of {plies} plies"
    );
    assert!(
        page.contains("train=1"),
        "a link that trains the longest win"
    );
    // The puzzles page lists the site's only-move positions as board links.
    let puzzles = std::fs::read_to_string(site.join("standard/puzzles.html")).unwrap();
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(site.join("standard/puzzles.json")).unwrap())
            .unwrap();
    assert!(!listed.is_empty());
    for p in &listed {
        let position = p["position"].as_str().unwrap().replace(' ', "_");
        assert!(
            puzzles.contains(&format!("position={position}")),
            "{position}"
        );
    }
    // The training page: every exercise a link that starts a game from
    // it, the position holding the value it offers; each material page
    // has its own.
    let train = std::fs::read_to_string(site.join("standard/train.html")).unwrap();
    let exercises: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(site.join("standard/exercises.json")).unwrap(),
    )
    .unwrap();
    let tb = Tablebase::open(root.path(), rules.clone()).unwrap();
    let mut draws = 0;
    for e in &exercises {
        let text = e["position"].as_str().unwrap();
        let link = format!("position={}&amp;train=1", text.replace(' ', "_"));
        assert!(train.contains(&link), "{text} not on train.html");
        let page = std::fs::read_to_string(site.join(format!(
            "standard/materials/{}.html",
            e["material"].as_str().unwrap()
        )))
        .unwrap();
        assert!(page.contains(&link), "{text} not on its material's page");
        let value = tb.probe(&text.parse().unwrap()).unwrap();
        match e["goal"].as_str().unwrap() {
            "win" => assert_eq!(
                value.plies(),
                e["plies"].as_u64().map(|p| p as u16),
                "{text}"
            ),
            "draw" => {
                assert_eq!(value, jungletb_rules::Value::Draw, "{text}");
                draws += 1;
            }
            goal => panic!("{text}: goal {goal}"),
        }
        assert!(e["good_moves"].as_u64().unwrap() <= e["moves"].as_u64().unwrap());
    }
    // Every material that has wins offers one, and its longest among them.
    let stats: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(site.join("standard/stats.json")).unwrap())
            .unwrap();
    for m in &stats {
        let name = m["material"].as_str().unwrap();
        let longest = ["white_to_move", "black_to_move"]
            .iter()
            .filter_map(|s| m[s]["longest_win"].as_u64())
            .max()
            .unwrap_or(0);
        let deepest = exercises
            .iter()
            .filter(|e| e["material"] == name)
            .filter_map(|e| e["plies"].as_u64())
            .max()
            .unwrap_or(0);
        assert_eq!(deepest, longest, "{name}");
    }
    assert!(
        draws > 0,
        "no draw to hold in {} exercises",
        exercises.len()
    );
    for f in [
        "board.html",
        "assets/app.js",
        "assets/static-api.js",
        "assets/jungletb.wasm",
        "standard/stats.json",
        "standard/downloads.html",
    ] {
        assert!(site.join(f).exists(), "{f}");
    }
    // A second build over the first one updates it, keeping its
    // compressed tables and removing what it no longer serves: a plain
    // table an earlier build linked, the pages of a material gone.
    let kept = std::fs::metadata(site.join("standard/ELvR.jtbz"))
        .unwrap()
        .modified()
        .unwrap();
    std::fs::copy(dir.join("ELvR.jtb"), site.join("standard/ELvR.jtb")).unwrap();
    for ext in ["html", "json", "svg"] {
        std::fs::write(site.join(format!("standard/materials/ERvT.{ext}")), "old").unwrap();
    }
    build(&set(root.path(), &rules), site, &package(), &|_, _| {}).unwrap();
    assert!(
        !site.join("standard/ELvR.jtb").exists(),
        "a plain table left"
    );
    assert!(
        !site.join("standard/materials/ERvT.html").exists(),
        "a stale page left"
    );
    assert!(site.join("standard/materials/ELvR.html").exists());
    let again = std::fs::metadata(site.join("standard/ELvR.jtbz"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(kept, again, "the compressed table was written again");
}

#[test]
fn a_directory_that_is_not_a_site_is_not_written_into() {
    let rules = Ruleset::standard();
    let root = tables();
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("notes.txt"), "mine").unwrap();
    let e = build(
        &set(root.path(), &rules),
        out.path(),
        &package(),
        &|_, _| {},
    );
    assert!(matches!(e, Err(SiteError::NotASite(_))), "{e:?}");
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 1);
    let empty = tempfile::tempdir().unwrap();
    let none = RulesetTables {
        dir: empty.path().to_path_buf(),
        rules: rules.clone(),
    };
    let e = build(&[none], out.path(), &package(), &|_, _| {});
    assert!(matches!(
        e,
        Err(SiteError::NotASite(_)) | Err(SiteError::NoTables(_))
    ));
}

/// The rule set names of a site's `rulesets.json`.
fn listed(site: &Path) -> Vec<String> {
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("rulesets.json")).unwrap())
            .unwrap();
    answer["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn one_site_holds_every_rule_set_and_a_rebuild_of_one_keeps_the_others() {
    let (standard, leiden) = (Ruleset::standard(), Ruleset::leiden());
    let (a, b) = (tables(), tables_of(&leiden));
    let both = [set(a.path(), &standard), set(b.path(), &leiden)].concat();
    let out = tempfile::tempdir().unwrap();
    let site = out.path();
    let summary = build(&both, site, &package(), &|_, _| {}).unwrap();
    assert_eq!(summary.built, ["leiden", "standard"]);
    assert_eq!(
        listed(site),
        ["standard", "leiden"],
        "named rule sets in order"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let sums = std::fs::read_to_string(site.join("SHA256SUMS")).unwrap();
    for label in ["standard", "leiden"] {
        for page in ["index", "puzzles", "train", "downloads"] {
            let path = format!("{label}/{page}.html");
            assert!(
                index.contains(&format!("href=\"{path}\"")),
                "{path} not listed"
            );
            let html = std::fs::read_to_string(site.join(&path)).unwrap();
            // Every page names its rule set and links to the list of them.
            assert!(
                html.contains(&format!("Rules: <b>{label}</b>"))
                    && html.contains("href=\"../index.html\""),
                "{path}: no rule set chooser"
            );
        }
        let page =
            std::fs::read_to_string(site.join(format!("{label}/materials/ELvR.html"))).unwrap();
        assert!(
            page.contains(&format!("Rules: <b>{label}</b>")),
            "{label} ELvR"
        );
        assert!(page.contains(&format!("board.html?ruleset={label}&amp;position=")));
        assert!(
            sums.contains(&format!("  {label}/ELvR.jtbz\n")),
            "{label} not summed"
        );
    }
    assert!(index.contains("Rats on land and in the water may take each other"));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("leiden/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["ruleset"], "leiden");
    let header = Header::read(&site.join("leiden/ELvR.jtbz")).unwrap();
    assert_eq!(header.ruleset, leiden.canonical_string());
    // Built again with one rule set, the site keeps the other as it was.
    let leiden_index = std::fs::read(site.join("leiden/index.html")).unwrap();
    let summary = build(&set(a.path(), &standard), site, &package(), &|_, _| {}).unwrap();
    assert_eq!(
        (summary.built, summary.kept),
        (vec!["standard".to_string()], vec!["leiden".to_string()])
    );
    assert_eq!(listed(site), ["standard", "leiden"]);
    assert_eq!(
        std::fs::read(site.join("leiden/index.html")).unwrap(),
        leiden_index
    );
    let sums = std::fs::read_to_string(site.join("SHA256SUMS")).unwrap();
    assert!(
        sums.contains("  leiden/ELvR.jtbz\n"),
        "a kept rule set left out of SHA256SUMS"
    );
    // A rule set whose directory is gone is no longer listed.
    std::fs::remove_dir_all(site.join("leiden")).unwrap();
    build(&set(a.path(), &standard), site, &package(), &|_, _| {}).unwrap();
    assert_eq!(listed(site), ["standard"]);
    assert!(!std::fs::read_to_string(site.join("index.html"))
        .unwrap()
        .contains("leiden/"));
}
