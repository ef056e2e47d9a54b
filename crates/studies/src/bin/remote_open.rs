//! What a table costs to open and to probe cold over HTTP ranges: the
//! requests, bytes and rounds of a [`RemoteTables`] store served from a
//! directory, for one material.
//!
//! `remote_open DIR MATERIAL [PROBES]`: DIR is one rule set's directory
//! holding the material's compressed table and the tables its captures
//! lead into. Prints the cost of opening the table blind (no manifest), of
//! opening it with the ranges `Table::open_ranges` names (a site's
//! manifest), and of `PROBES` (default 20) cold evaluations of random
//! positions of the material, each in a fresh store opened with the
//! manifest's ranges.

use jungletb_indexer::{Material, PositionIndex};
use jungletb_rules::Ruleset;
use jungletb_tablebase::remote::{Attempt, Missing, RemoteOptions, RemoteTables};
use jungletb_tablebase::{compressed_table_path, Table, Tablebase, TablebaseOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Serves the files of a directory, counting.
struct Host {
    dir: PathBuf,
    requests: u64,
    bytes: u64,
    rounds: u64,
}

impl Host {
    fn serve(&mut self, store: &RemoteTables, missing: &[Missing]) {
        self.rounds += 1;
        for m in missing {
            let path = self.dir.join(&m.file);
            let file = std::fs::File::open(&path).expect("table file");
            let mut bytes = vec![0u8; m.len as usize];
            std::os::unix::fs::FileExt::read_exact_at(&file, &mut bytes, m.at).expect("read");
            self.requests += 1;
            self.bytes += m.len;
            store.supply(m.material, m.at, &bytes).expect("supply");
        }
    }
}

fn store_of(dir: &Path) -> Arc<RemoteTables> {
    let store = Arc::new(RemoteTables::new(
        "https://tables.example",
        RemoteOptions::default(),
    ));
    for path in jungletb_tablebase::table_files(dir).expect("tables") {
        let name = path.file_name().unwrap().to_str().unwrap();
        if !name.ends_with(".jtbz") {
            continue;
        }
        let m: Material = path.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        store.add(m, name, std::fs::metadata(&path).unwrap().len());
    }
    store
}

/// A store of `dir`'s compressed tables with nothing fetched, its
/// tablebase, and a host counting from zero.
fn fresh(dir: &Path, rules: &Ruleset) -> (Arc<RemoteTables>, Tablebase, Host) {
    let store = store_of(dir);
    let tb = Tablebase::with_store(store.clone(), rules.clone(), TablebaseOptions::default())
        .expect("store");
    let host = Host {
        dir: dir.to_path_buf(),
        requests: 0,
        bytes: 0,
        rounds: 0,
    };
    (store, tb, host)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: remote_open DIR MATERIAL [PROBES]");
        std::process::exit(2);
    }
    let dir = PathBuf::from(&args[1]);
    let m: Material = args[2].parse().expect("material");
    let probes: u64 = args.get(3).map_or(20, |p| p.parse().expect("probes"));
    let rules = Ruleset::standard();
    let path = compressed_table_path(&dir, m);
    let t0 = std::time::Instant::now();
    let open = Table::open_any(&path).expect("table").open_ranges();
    let local_open = t0.elapsed();
    let page = RemoteOptions::default().page_bytes;
    let len = std::fs::metadata(&path).unwrap().len();
    let manifest: Vec<Missing> = open
        .iter()
        .map(|&(at, n)| {
            let start = at / page * page;
            Missing {
                material: m,
                file: path.file_name().unwrap().to_str().unwrap().into(),
                at: start,
                len: ((at + n).div_ceil(page) * page).min(len) - start,
            }
        })
        .collect();
    println!(
        "{m}: {len} bytes; local open {:.1} ms; open ranges {} ({} bytes)",
        local_open.as_secs_f64() * 1e3,
        open.len(),
        open.iter().map(|r| r.1).sum::<u64>()
    );
    for with_manifest in [false, true] {
        let (store, tb, mut host) = fresh(&dir, &rules);
        if with_manifest {
            host.serve(&store, &manifest);
        }
        loop {
            match store.attempt(|| tb.table(m).map(|_| ())) {
                Attempt::Fetch(missing) => host.serve(&store, &missing),
                Attempt::Done(answer) => break answer.expect("opens"),
            }
        }
        println!(
            "open {}: {} requests, {} bytes, {} rounds",
            if with_manifest {
                "with manifest"
            } else {
                "blind"
            },
            host.requests,
            host.bytes,
            host.rounds
        );
    }
    let index = PositionIndex::new(m, &rules).expect("index");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let (mut requests, mut bytes, mut rounds, mut done) = (Vec::new(), Vec::new(), Vec::new(), 0);
    while done < probes {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let Some(pos) = index.canonical_position(x % index.size()) else {
            continue;
        };
        if pos.validate_reachable(&rules).is_err() {
            continue;
        }
        let (store, tb, mut host) = fresh(&dir, &rules);
        host.serve(&store, &manifest);
        loop {
            match store.evaluate(&tb, &pos) {
                Attempt::Fetch(missing) => host.serve(&store, &missing),
                Attempt::Done(answer) => {
                    answer.expect("answers");
                    break;
                }
            }
        }
        requests.push(host.requests);
        bytes.push(host.bytes);
        rounds.push(host.rounds);
        done += 1;
    }
    if probes == 0 {
        return;
    }
    let median = |v: &mut Vec<u64>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    println!(
        "cold evaluate (manifest ranges first, sub-tables opened blind), median of {probes}: \
         {} requests, {} bytes, {} rounds",
        median(&mut requests),
        median(&mut bytes),
        median(&mut rounds)
    );
}
