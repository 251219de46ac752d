//! The window's side of the file dialogs: ask (one dialog at a time), keep drawing, and act on
//! the answer when it arrives — open or save the preset, export, import.

use std::sync::mpsc::TryRecvError;

use eframe::egui;

use super::TriboApp;
use super::dialogs::{DialogAnswer, DialogKind};

impl TriboApp {
    /// Opens a file dialog of `kind` unless one is already open.
    pub(in crate::gui) fn ask_file(
        &mut self,
        ctx: &egui::Context,
        kind: DialogKind,
        suggested_name: &str,
    ) {
        if self.pending_dialog.is_some() {
            return;
        }
        let waker = ctx.clone();
        let answers = self.dialogs.ask(
            kind,
            suggested_name,
            Box::new(move || waker.request_repaint()),
        );
        self.pending_dialog = Some((kind, answers));
    }

    /// Whether a file dialog is open.
    pub fn dialog_open(&self) -> bool {
        self.pending_dialog.is_some()
    }

    /// Acts on the answer of the open dialog, if it has come.
    pub(super) fn poll_dialog(&mut self, ctx: &egui::Context) {
        let Some((kind, answers)) = &self.pending_dialog else {
            return;
        };
        let kind = *kind;
        let answer = match answers.try_recv() {
            Ok(answer) => answer,
            Err(TryRecvError::Empty) => return,
            // The dialog thread ended without an answer (it could not start).
            Err(TryRecvError::Disconnected) => DialogAnswer::Unavailable,
        };
        self.pending_dialog = None;
        match answer {
            DialogAnswer::Cancelled => {}
            DialogAnswer::Unavailable => self.explain_missing_dialog(),
            DialogAnswer::Path(path) => match kind {
                DialogKind::OpenPreset => self.open_preset_file(&path),
                DialogKind::SavePreset => self.save_preset_to(path),
                DialogKind::ExportCsv => self.export_csv_to(path),
                DialogKind::ExportPng => self.export_png_to(path, ctx),
                DialogKind::ImportCsv => self.open_csv_file(&path),
                DialogKind::SaveMapCsv => self.save_map_csv_to(path),
                DialogKind::SaveMapFigure => self.save_map_figure_to(path),
                DialogKind::FitData => self.open_fit_file(&path),
                DialogKind::OpenLesson => self.open_lesson_file(&path),
                DialogKind::ExportFigure => self.export_figure_to(path),
            },
        }
    }
}
