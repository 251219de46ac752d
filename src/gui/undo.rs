//! Undo and redo of parameter edits (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y): every change of the
//! session's preset becomes one step once the pointer is released (a slider dragged through a
//! hundred values is one step), and undoing sends the earlier preset to the simulation as the
//! sliders would.

use eframe::egui;

use super::TriboApp;
use crate::preset::Preset;

/// Most steps kept.
const DEPTH: usize = 200;

/// The edit history.
#[derive(Default)]
pub struct UndoHistory {
    /// The preset as of the last recorded step.
    committed: Option<Preset>,
    undo: Vec<Preset>,
    redo: Vec<Preset>,
}

impl UndoHistory {
    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

impl TriboApp {
    /// Records the session's preset as a new step when it changed and no drag or text edit is
    /// under way.
    pub(super) fn record_edit(&mut self, ctx: &egui::Context) {
        let busy = ctx.input(|i| i.pointer.any_down()) || ctx.egui_wants_keyboard_input();
        let current = &self.session.preset;
        match &self.undo.committed {
            None => self.undo.committed = Some(current.clone()),
            Some(before) if before != current && !busy => {
                let before = before.clone();
                self.undo.undo.push(before);
                if self.undo.undo.len() > DEPTH {
                    self.undo.undo.remove(0);
                }
                self.undo.redo.clear();
                self.undo.committed = Some(current.clone());
            }
            Some(_) => {}
        }
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        let Some(previous) = self.undo.undo.pop() else {
            return;
        };
        self.undo.redo.push(self.session.preset.clone());
        self.restore(previous);
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        let Some(next) = self.undo.redo.pop() else {
            return;
        };
        self.undo.undo.push(self.session.preset.clone());
        self.restore(next);
    }

    /// The edit history.
    pub fn edit_history(&self) -> &UndoHistory {
        &self.undo
    }

    fn restore(&mut self, preset: Preset) {
        self.session.preset = preset.clone();
        self.undo.committed = Some(preset);
        self.apply_preset();
    }

    /// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y (not while a text field has the keyboard: there they
    /// undo typing).
    pub(super) fn undo_keys(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (redo_shift, redo_y, undo) = ctx.input_mut(|i| {
            (
                i.consume_key(
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                    egui::Key::Z,
                ),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
            )
        });
        if redo_shift || redo_y {
            self.redo();
        } else if undo {
            self.undo();
        }
    }
}
