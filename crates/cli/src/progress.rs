//! What a long run shows: progress bars on a terminal (with the level a
//! solve's propagation is at), one line per table in logs (when standard
//! error is not a terminal) and, for a long solve, a line when it starts
//! and when its propagation starts; nothing with `--quiet`.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungletb_indexer::Material;
use jungletb_solver::GenerateEvent;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Materials at least this large (5-piece ones) get a line in logs when
/// their solve (or compression, or check) starts, not only when it ends.
pub const LONG_SOLVE_SLOTS: u64 = 50_000_000;

/// The display of one generation run.
pub struct Progress {
    _multi: MultiProgress,
    tables: ProgressBar,
    positions: ProgressBar,
    quiet: bool,
    verbose: bool,
    terminal: bool,
    total: AtomicUsize,
    done: AtomicUsize,
    /// The long solve under way whose propagation has not been announced
    /// in logs yet.
    unannounced: Mutex<Option<Material>>,
}

impl Progress {
    /// A display that draws bars only on a terminal.
    pub fn new(quiet: bool, verbose: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let target = if quiet || !terminal {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let tables = multi.add(ProgressBar::new(0));
        tables.set_style(
            ProgressStyle::with_template("tables    {bar:30} {pos}/{len} {msg}")
                .expect("valid template"),
        );
        let positions = multi.add(ProgressBar::new(0));
        positions.set_style(
            ProgressStyle::with_template(
                "positions {bar:30} {human_pos}/{human_len} [{elapsed_precise}, ETA {eta}]",
            )
            .expect("valid template"),
        );
        Progress {
            _multi: multi,
            tables,
            positions,
            quiet,
            verbose,
            terminal,
            total: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            unannounced: Mutex::new(None),
        }
    }

    /// Prints a line above the bars (or plainly, in logs).
    fn line(&self, text: String) {
        if !self.quiet {
            self.tables.suspend(|| errln!("{text}"));
        }
    }

    /// Shows one event of the run.
    pub fn event(&self, e: GenerateEvent) {
        match e {
            GenerateEvent::Start {
                tables,
                slots_to_solve,
            } => {
                self.total.store(tables, Relaxed);
                self.tables.set_length(tables as u64);
                self.positions.set_length(slots_to_solve);
            }
            GenerateEvent::Solving { material, slots } => {
                self.tables.set_message(material.to_string());
                // In logs, say what a long solve is working on.
                if !self.terminal && slots >= LONG_SOLVE_SLOTS {
                    self.line(format!("{material}: solving {slots} index slots"));
                    *self.unannounced.lock().expect("no panics while held") = Some(material);
                }
            }
            GenerateEvent::Swept(n) => self.positions.inc(n),
            GenerateEvent::Level { material, level } => {
                if self.terminal {
                    self.tables
                        .set_message(format!("{material}, level {level}"));
                    return;
                }
                // In logs, say when a long solve's sweep is over.
                let mut unannounced = self.unannounced.lock().expect("no panics while held");
                if *unannounced == Some(material) {
                    *unannounced = None;
                    drop(unannounced);
                    self.line(format!("{material}: propagating, from level {level}"));
                }
            }
            GenerateEvent::Done(r) => {
                self.tables.inc(1);
                let k = self.done.fetch_add(1, Relaxed) + 1;
                if r.solved && (self.verbose || !self.terminal) {
                    // One-byte solves: the share of the bytes the levels'
                    // scans read.
                    let scans = match r.scanned_slots {
                        (read, all) if all > 0 => {
                            format!(", scans read {:.1} %", 100.0 * read as f64 / all as f64)
                        }
                        _ => String::new(),
                    };
                    self.line(format!(
                        "[{k}/{}] {}: {} positions, sweep {:.3} s, propagate {:.3} s ({} levels{scans}), total {:.3} s",
                        self.total.load(Relaxed),
                        r.material,
                        r.positions,
                        r.sweep.as_secs_f64(),
                        r.propagate.as_secs_f64(),
                        r.levels,
                        r.time.as_secs_f64()
                    ));
                }
            }
            GenerateEvent::Notice(n) if n.is_warning() => self.line(format!("warning: {n}")),
            GenerateEvent::Notice(n) => self.line(n.to_string()),
        }
    }

    /// Clears the bars.
    pub fn finish(&self) {
        self.tables.finish_and_clear();
        self.positions.finish_and_clear();
    }
}

/// The display of a long scan of one table after another (`verify`,
/// `zugzwangs`): a
/// bar of index slots on a terminal; in logs, a line every tenth of a
/// large table (at least [`LONG_SOLVE_SLOTS`]), so that a 6-piece check
/// shows it is alive. Nothing with `--quiet`.
pub struct SlotProgress {
    bar: ProgressBar,
    quiet: bool,
    terminal: bool,
    /// Tenths of the current file already reported in logs.
    tenths: AtomicU64,
    /// When the current file's check began.
    started: Mutex<Option<Instant>>,
}

impl SlotProgress {
    /// A display that draws only on a terminal.
    pub fn new(quiet: bool) -> SlotProgress {
        SlotProgress::with_bar(quiet, true)
    }

    /// A display of the lines in logs only, for a command that draws its
    /// own bar on a terminal.
    pub fn in_logs_only(quiet: bool) -> SlotProgress {
        SlotProgress::with_bar(quiet, false)
    }

    fn with_bar(quiet: bool, bar: bool) -> SlotProgress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if quiet || !terminal || !bar {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} {bar:30} {human_pos}/{human_len} slots [{elapsed_precise}, ETA {eta}]",
            )
            .expect("valid template"),
        );
        SlotProgress {
            bar,
            quiet,
            terminal,
            tenths: AtomicU64::new(0),
            started: Mutex::new(None),
        }
    }

    /// `done` of the `slots` index slots of `path` checked (called from
    /// worker threads).
    pub fn update(&self, path: &Path, done: u64, slots: u64) {
        let started = *self
            .started
            .lock()
            .expect("no panics while held")
            .get_or_insert_with(|| {
                self.bar.set_length(slots);
                self.bar.set_message(file_name(path));
                self.bar.reset_elapsed();
                Instant::now()
            });
        self.bar.set_position(done.max(self.bar.position()));
        if self.quiet || self.terminal || slots < LONG_SOLVE_SLOTS {
            return;
        }
        let tenth = done * 10 / slots.max(1);
        let seen = self.tenths.fetch_max(tenth, Relaxed);
        if tenth > seen && tenth < 10 {
            errln!(
                "{}: {}0 % of {slots} slots done, {:.0} s",
                file_name(path),
                tenth,
                started.elapsed().as_secs_f64()
            );
        }
    }

    /// Runs `f` (which prints a file's verdict) with the bar out of the
    /// way, and readies the display for the next file.
    pub fn between_files(&self, f: impl FnOnce()) {
        self.bar.suspend(f);
        self.bar.set_position(0);
        self.tenths.store(0, Relaxed);
        *self.started.lock().expect("no panics while held") = None;
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}
