//! The notes of one game and brain for its record: lines the brain sent that were not
//! understood and protocol events, capped at [`MAX_NOTES`] with a count of the rest.

/// Notes (noise lines and protocol events) kept per game and player; more are counted.
pub const MAX_NOTES: usize = 20;

/// Notes of one game for the record, capped at [`MAX_NOTES`].
#[derive(Default)]
pub(super) struct Notes {
    kept: Vec<String>,
    dropped: u64,
}

impl Notes {
    pub(super) fn push(&mut self, note: String) {
        if self.kept.len() < MAX_NOTES {
            self.kept.push(note);
        } else {
            self.dropped += 1;
        }
    }

    /// The notes, with a count of those not kept, and a fresh start.
    pub(super) fn take(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.kept);
        if self.dropped > 0 {
            out.push(format!("... {} more not kept", self.dropped));
        }
        self.dropped = 0;
        out
    }
}
