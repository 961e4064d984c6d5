//! Progress bars on standard error, one look for every long job (openings, runs, gates,
//! analyses, tunes).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar drawn with indicatif's `template` (e.g. `"{elapsed_precise} [{bar:30}] {pos}/{len}
/// games, eta {eta} | {msg}"`), hidden when `quiet` or when standard error is not a terminal
/// (logs and pipes get no control characters).
pub fn bar(quiet: bool, template: &str) -> ProgressBar {
    let target = if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(0), target);
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}
