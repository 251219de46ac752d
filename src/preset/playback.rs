//! How the window plays a preset when it opens: the live speed and the length of history the
//! plots show. A slow chain (the Carlson–Langer plate loads its blocks for a hundred time
//! units before the first slip) wants a faster playback than the bench; the command line
//! ignores it. Changing either in the window changes the view, not the run.

crate::param_struct! {
    /// Playback of the live run in the window.
    pub struct Playback {
        /// Model time per wall-clock second when the preset opens.
        speed: "speed" = 1.0, "Speed", "", "× real time", [1e-12, 100.0], Log;
        /// Length of the time window drawn in the plots when the preset opens.
        history_s: "history" = 10.0, "History shown", "", "s", [1e-12, 1000.0], Log;
    }
}

impl Playback {
    /// Whether this is the default playback (then a preset file leaves it out).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_reads_speed_then_history() {
        // run_section takes META[0] and META[1] for its sliders.
        assert_eq!(Playback::META[0].key, "speed");
        assert_eq!(Playback::META[1].key, "history");
        assert!(Playback::default().is_default());
    }
}
