//! What a long run shows: progress bars on a terminal, one line per table
//! in logs (when standard error is not a terminal), nothing with `--quiet`.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungletb_solver::GenerateEvent;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Materials at least this large (5-piece ones) get a line in logs when
/// their solve starts, not only when it ends.
const LONG_SOLVE_SLOTS: u64 = 50_000_000;

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
        }
    }

    /// Prints a line above the bars (or plainly, in logs).
    fn line(&self, text: String) {
        if !self.quiet {
            self.tables.suspend(|| eprintln!("{text}"));
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
                }
            }
            GenerateEvent::Swept(n) => self.positions.inc(n),
            GenerateEvent::Done(r) => {
                self.tables.inc(1);
                let k = self.done.fetch_add(1, Relaxed) + 1;
                if r.solved && (self.verbose || !self.terminal) {
                    self.line(format!(
                        "[{k}/{}] {}: {} positions, sweep {:.3} s, propagate {:.3} s ({} levels), total {:.3} s",
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
            GenerateEvent::Notice(text) => self.line(text),
        }
    }

    /// Clears the bars.
    pub fn finish(&self) {
        self.tables.finish_and_clear();
        self.positions.finish_and_clear();
    }
}
