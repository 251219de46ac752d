//! File dialogs behind a trait: the app uses native dialogs (rfd), tests script the answers
//! (a real dialog would block a headless test waiting for a user).

use std::path::PathBuf;

/// The file dialogs the window needs.
pub trait FileDialogs {
    /// Choose a preset to open.
    fn open_preset(&mut self) -> Option<PathBuf>;
    /// Choose where to save a preset.
    fn save_preset(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Choose where to export traces as CSV.
    fn save_csv(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Choose where to export the plots as PNG.
    fn save_png(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Choose a measured series (CSV) to import.
    fn open_csv(&mut self) -> Option<PathBuf>;
    /// Whether the last dialog could not be shown at all (rather than cancelled by the user).
    fn unavailable(&self) -> bool {
        false
    }
}

/// A dialog that returns in less than this without a path was never shown [s]: nobody cancels
/// a dialog that fast, while rfd without a desktop portal or zenity returns at once.
const NO_DIALOG_S: f64 = 0.1;

/// Native dialogs through rfd.
#[derive(Debug, Default)]
pub struct NativeDialogs {
    failed_fast: bool,
}

impl NativeDialogs {
    fn timed(&mut self, dialog: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
        let started = std::time::Instant::now();
        let answer = dialog();
        self.failed_fast = answer.is_none() && started.elapsed().as_secs_f64() < NO_DIALOG_S;
        answer
    }
}

impl FileDialogs for NativeDialogs {
    fn open_preset(&mut self) -> Option<PathBuf> {
        self.timed(|| {
            rfd::FileDialog::new()
                .set_title("Open preset")
                .add_filter("tribolab preset", &["ron"])
                .pick_file()
        })
    }

    fn save_preset(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.timed(|| {
            rfd::FileDialog::new()
                .set_title("Save preset as")
                .add_filter("tribolab preset", &["ron"])
                .set_file_name(suggested_name)
                .save_file()
        })
    }

    fn save_csv(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.timed(|| {
            rfd::FileDialog::new()
                .set_title("Export traces as CSV")
                .add_filter("CSV", &["csv"])
                .set_file_name(suggested_name)
                .save_file()
        })
    }

    fn save_png(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.timed(|| {
            rfd::FileDialog::new()
                .set_title("Export plots as PNG")
                .add_filter("PNG image", &["png"])
                .set_file_name(suggested_name)
                .save_file()
        })
    }

    fn open_csv(&mut self) -> Option<PathBuf> {
        self.timed(|| {
            rfd::FileDialog::new()
                .set_title("Import measured series")
                .add_filter("CSV", &["csv", "txt", "tsv"])
                .pick_file()
        })
    }

    fn unavailable(&self) -> bool {
        self.failed_fast
    }
}

/// Dialogs that answer from a queue (for tests and scripted demos).
#[derive(Debug, Default)]
pub struct ScriptedDialogs {
    /// Answers, consumed in order; `None` = the user cancelled.
    pub answers: std::collections::VecDeque<Option<PathBuf>>,
}

impl ScriptedDialogs {
    fn next(&mut self) -> Option<PathBuf> {
        self.answers.pop_front().flatten()
    }
}

impl FileDialogs for ScriptedDialogs {
    fn open_preset(&mut self) -> Option<PathBuf> {
        self.next()
    }
    fn save_preset(&mut self, _: &str) -> Option<PathBuf> {
        self.next()
    }
    fn save_csv(&mut self, _: &str) -> Option<PathBuf> {
        self.next()
    }
    fn save_png(&mut self, _: &str) -> Option<PathBuf> {
        self.next()
    }
    fn open_csv(&mut self) -> Option<PathBuf> {
        self.next()
    }
}
