//! The window's side of the file dialogs: ask (one dialog at a time), keep drawing, and act on
//! the answer when it arrives — open or save the preset, export, import. Where no desktop dialog
//! can be shown (no portal, no zenity), a path field asks instead.

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
        self.suggested_name = suggested_name.to_string();
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
            DialogAnswer::Unavailable => {
                self.path_prompt = Some(PathPrompt {
                    kind,
                    text: self.suggested_name.clone(),
                });
            }
            DialogAnswer::Path(path) => self.answer_path(kind, path, ctx),
        }
    }

    /// Acts on a chosen file.
    fn answer_path(&mut self, kind: DialogKind, path: std::path::PathBuf, ctx: &egui::Context) {
        match kind {
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
        }
    }

    /// The path field shown when no desktop dialog exists: the file typed, then OK (or Enter).
    pub(super) fn path_prompt_window(&mut self, ctx: &egui::Context) {
        let Some(prompt) = self.path_prompt.as_mut() else {
            return;
        };
        let mut chosen: Option<(DialogKind, std::path::PathBuf)> = None;
        let mut close = false;
        egui::Window::new(prompt.kind.title())
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(
                    "No desktop file dialog is available here (it needs xdg-desktop-portal or \
                     zenity): type the file's path.",
                );
                let label = ui.label("File path");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut prompt.text).desired_width(420.0))
                    .labelled_by(label.id);
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    let ok =
                        ui.add_enabled(!prompt.text.trim().is_empty(), egui::Button::new("OK"));
                    if ok.clicked() || (enter && !prompt.text.trim().is_empty()) {
                        chosen = Some((prompt.kind, std::path::PathBuf::from(prompt.text.trim())));
                    }
                    if ui.button("Cancel").clicked() {
                        close = true;
                    }
                });
            });
        if let Some((kind, path)) = chosen {
            self.path_prompt = None;
            self.answer_path(kind, path, ctx);
        } else if close {
            self.path_prompt = None;
        }
    }
}

/// A file path asked for in the window (no desktop dialog).
pub struct PathPrompt {
    /// What the file is for.
    pub kind: DialogKind,
    /// The path typed so far.
    pub text: String,
}
