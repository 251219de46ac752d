//! File dialogs behind a trait, answered asynchronously: the window asks, goes on drawing (the
//! simulation keeps running on screen while a dialog is open), and acts on the answer when it
//! arrives. Native dialogs (rfd) run on a short-lived thread of their own; tests script the
//! answers (a real dialog would block a headless test waiting for a user).

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

/// What a dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    /// Choose a preset to open.
    OpenPreset,
    /// Choose where to save the preset.
    SavePreset,
    /// Choose where to export the traces as CSV.
    ExportCsv,
    /// Choose where to export the plots as PNG.
    ExportPng,
    /// Choose a measured series (CSV) to import.
    ImportCsv,
    /// Choose where to save the regime map's table (CSV).
    SaveMapCsv,
    /// Choose where to save the regime map as a figure (SVG).
    SaveMapFigure,
    /// Choose a friction measurement (CSV) to fit a law to.
    FitData,
    /// Choose a lesson file to teach.
    OpenLesson,
    /// Choose where to save the current view as a figure (SVG).
    ExportFigure,
}

impl DialogKind {
    pub(super) fn title(self) -> &'static str {
        match self {
            DialogKind::OpenPreset => "Open preset",
            DialogKind::SavePreset => "Save preset as",
            DialogKind::ExportCsv => "Export traces as CSV",
            DialogKind::ExportPng => "Export plots as PNG",
            DialogKind::ImportCsv => "Import measured series",
            DialogKind::SaveMapCsv => "Save the regime map as CSV",
            DialogKind::SaveMapFigure => "Save the regime map as a figure (SVG)",
            DialogKind::FitData => "Open a friction measurement",
            DialogKind::OpenLesson => "Open a lesson",
            DialogKind::ExportFigure => "Export the view as a figure (SVG)",
        }
    }

    fn filter(self) -> (&'static str, &'static [&'static str]) {
        match self {
            DialogKind::OpenPreset | DialogKind::SavePreset => ("tribolab preset", &["ron"]),
            DialogKind::OpenLesson => ("tribolab lesson", &["ron"]),
            DialogKind::ExportCsv | DialogKind::SaveMapCsv => ("CSV", &["csv"]),
            DialogKind::SaveMapFigure | DialogKind::ExportFigure => ("SVG image", &["svg"]),
            DialogKind::ExportPng => ("PNG image", &["png"]),
            DialogKind::ImportCsv | DialogKind::FitData => ("CSV", &["csv", "txt", "tsv"]),
        }
    }

    fn saves(self) -> bool {
        matches!(
            self,
            DialogKind::SavePreset
                | DialogKind::ExportCsv
                | DialogKind::ExportPng
                | DialogKind::SaveMapCsv
                | DialogKind::SaveMapFigure
                | DialogKind::ExportFigure
        )
    }
}

/// How a dialog ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogAnswer {
    /// The user chose this file.
    Path(PathBuf),
    /// The user cancelled.
    Cancelled,
    /// No dialog could be shown (no desktop portal, no zenity).
    Unavailable,
}

/// The file dialogs the window needs.
pub trait FileDialogs {
    /// Opens a dialog of `kind` (`suggested_name` for saving); the answer arrives on the
    /// returned channel, after which `wake` is called so the window looks at it.
    fn ask(
        &mut self,
        kind: DialogKind,
        suggested_name: &str,
        wake: Box<dyn Fn() + Send>,
    ) -> Receiver<DialogAnswer>;
}

/// A dialog that returns in less than this without a path was never shown [s]: nobody cancels
/// a dialog that fast, while rfd without a desktop portal or zenity returns at once.
const NO_DIALOG_S: f64 = 0.1;

/// Native dialogs through rfd, each on its own thread (on macOS, where dialogs must run on the
/// main thread, in place).
#[derive(Debug, Default)]
pub struct NativeDialogs;

impl FileDialogs for NativeDialogs {
    fn ask(
        &mut self,
        kind: DialogKind,
        suggested_name: &str,
        wake: Box<dyn Fn() + Send>,
    ) -> Receiver<DialogAnswer> {
        let (tx, rx) = channel();
        let name = suggested_name.to_string();
        let run = move || {
            let started = std::time::Instant::now();
            let (filter, extensions) = kind.filter();
            let dialog = rfd::FileDialog::new()
                .set_title(kind.title())
                .add_filter(filter, extensions);
            let path = if kind.saves() {
                dialog.set_file_name(&name).save_file()
            } else {
                dialog.pick_file()
            };
            let answer = match path {
                Some(p) => DialogAnswer::Path(p),
                None if started.elapsed().as_secs_f64() < NO_DIALOG_S => DialogAnswer::Unavailable,
                None => DialogAnswer::Cancelled,
            };
            let _ = tx.send(answer);
            wake();
        };
        if cfg!(target_os = "macos") {
            run();
        } else if let Err(e) = std::thread::Builder::new()
            .name("tribolab-dialog".into())
            .spawn(run)
        {
            // No thread: the dialog cannot be shown; the receiver reports it as such.
            eprintln!("tribolab: cannot start the file dialog thread: {e}");
        }
        rx
    }
}

/// Dialogs that answer at once from a queue (for tests and scripted demos).
#[derive(Debug, Default)]
pub struct ScriptedDialogs {
    /// Answers, consumed in order; `None` = the user cancelled.
    pub answers: std::collections::VecDeque<Option<PathBuf>>,
    /// Answer every dialog as one that could not be shown (no portal, no zenity).
    pub unavailable: bool,
}

impl FileDialogs for ScriptedDialogs {
    fn ask(
        &mut self,
        _kind: DialogKind,
        _suggested_name: &str,
        wake: Box<dyn Fn() + Send>,
    ) -> Receiver<DialogAnswer> {
        let (tx, rx) = channel();
        let answer = match self.answers.pop_front().flatten() {
            _ if self.unavailable => DialogAnswer::Unavailable,
            Some(p) => DialogAnswer::Path(p),
            None => DialogAnswer::Cancelled,
        };
        let _ = tx.send(answer);
        wake();
        rx
    }
}
