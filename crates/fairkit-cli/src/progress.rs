//! The progress bar on stderr: hidden with `--quiet` or when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar over a known total (rows or bytes).
pub struct Bar(ProgressBar);

impl Bar {
    /// A bar of `total` `unit`s (`"rows"` or `"bytes"`), hidden when `quiet` or stderr is not a
    /// terminal (CI logs stay clean).
    pub fn new(total: u64, unit: &str, quiet: bool) -> Self {
        let bar = ProgressBar::new(total);
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            let template = if unit == "bytes" {
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({eta})"
            } else {
                "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} rows ({eta})"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
        }
        Self(bar)
    }

    /// Sets the position.
    pub fn set(&self, done: u64) {
        self.0.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A spinner naming a stage without a known total (the intervals and tests of many groups),
/// cleared when dropped; hidden like [`Bar`].
pub struct Stage(ProgressBar);

impl Stage {
    /// Starts the spinner with `message`.
    pub fn start(message: &str, quiet: bool) -> Self {
        let bar = ProgressBar::new_spinner();
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
                bar.set_style(style);
            }
            bar.set_message(message.to_string());
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
        }
        Self(bar)
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
