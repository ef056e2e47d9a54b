//! How commands write: lines on standard output that survive a closed
//! pipe, byte counts, counts with their noun, durations, progress bars.

/// Writes one line of command output to standard output. When the reader
/// has gone (a closed pipe), the program ends at once with success, as the
/// output is no longer wanted; another write error ends it with a message
/// and exit code 1.
pub fn write_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        write_err_line(format_args!("jungletb: error: writing output: {e}"));
        std::process::exit(1);
    }
}

/// Writes one line to standard error, dropping it if the write fails: a
/// message or a progress line is not worth a panic (a panic in the signal
/// handler left later signals unanswered; one in a solve lost its work).
pub fn write_err_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Formats a byte count.
pub fn human_bytes(b: u64) -> String {
    human_bytes_as(b, b)
}

/// `b` in the unit [`human_bytes`] gives `like` (so that a column of
/// figures shares one unit: `1023.55 MiB` beside `1.00 GiB` reads as a
/// jump of a thousand).
pub fn human_bytes_as(b: u64, like: u64) -> String {
    if like >= 1 << 30 {
        format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64)
    } else if like >= 1 << 20 {
        format!("{:.2} MiB", b as f64 / (1u64 << 20) as f64)
    } else if like >= 1 << 10 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

/// `n` with the singular or plural noun: "1 table", "3 tables".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Seconds as a short human duration.
pub fn duration(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// A progress bar over `n` tables on standard error (drawn only on a
/// terminal, hidden with `quiet`).
pub fn table_bar(n: usize, quiet: bool) -> indicatif::ProgressBar {
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(n as u64)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("tables {bar:30} {pos}/{len} {msg}")
            .expect("a valid template"),
    );
    bar
}
