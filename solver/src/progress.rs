//! Progress bars: shown on a terminal, hidden when piped or with `--quiet`.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The bars of one generation run.
pub(crate) struct Progress {
    _multi: MultiProgress,
    pub(crate) tables: ProgressBar,
    pub(crate) positions: ProgressBar,
}

impl Progress {
    pub(crate) fn new(quiet: bool, tables: u64, positions: u64) -> Progress {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let t = multi.add(ProgressBar::new(tables));
        t.set_style(
            ProgressStyle::with_template("tables    {bar:30} {pos}/{len} {msg}")
                .expect("valid template"),
        );
        let p = multi.add(ProgressBar::new(positions));
        p.set_style(
            ProgressStyle::with_template(
                "positions {bar:30} {human_pos}/{human_len} [{elapsed_precise}, ETA {eta}]",
            )
            .expect("valid template"),
        );
        Progress {
            _multi: multi,
            tables: t,
            positions: p,
        }
    }

    pub(crate) fn finish(&self) {
        self.tables.finish_and_clear();
        self.positions.finish_and_clear();
    }
}
