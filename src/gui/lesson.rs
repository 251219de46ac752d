//! A lesson in the window: the panel under the plots with the step's title, what to look for
//! and the question, Previous/Next (also Page Up/Page Down, as a presenter's clicker sends),
//! and the session set to each step's state ([`crate::lesson::Lesson::state_at`]) with the
//! view it names.

use std::path::{Path, PathBuf};

use eframe::egui;

use super::TriboApp;
use super::session::Tab;
use crate::lesson::{Lesson, View, load_preset};

/// A lesson being taught.
pub struct LessonRun {
    /// The lesson.
    pub lesson: Lesson,
    /// The step shown (from 0).
    pub step: usize,
    /// Folder of the lesson file, for presets named by a relative path.
    base: Option<PathBuf>,
    /// Why the step could not be set up (the session is left as it was).
    pub error: Option<String>,
}

/// The tab that shows a lesson's view.
fn tab_of(view: View) -> Tab {
    match view {
        View::Overview => Tab::Grid,
        View::TimeTraces => Tab::Traces,
        View::PhasePlane => Tab::Phase,
        View::FrictionVelocity => Tab::FrictionVelocity,
        View::Spectrum => Tab::Spectrum,
        View::Poincare => Tab::Poincare,
        View::Lyapunov => Tab::Lyapunov,
        View::Bifurcation => Tab::Bifurcation,
        View::SlipEvents => Tab::Events,
        View::StepsAndHolds => Tab::LoadPoint,
        View::RigTest => Tab::RigTest,
    }
}

impl TriboApp {
    /// Starts teaching `lesson` (from a file in `base`, or built in) at its first step.
    pub fn start_lesson(&mut self, lesson: Lesson, base: Option<&Path>) {
        self.lesson = Some(LessonRun {
            lesson,
            step: 0,
            base: base.map(Path::to_path_buf),
            error: None,
        });
        self.lesson_go(0);
    }

    /// The lesson being taught, if any.
    pub fn lesson(&self) -> Option<&LessonRun> {
        self.lesson.as_ref()
    }

    /// Ends the lesson; the session stays as the last step left it.
    pub fn end_lesson(&mut self) {
        self.lesson = None;
    }

    /// Moves the lesson to `step`: the session takes that step's state (reloaded only when it
    /// differs from the session's) and the window its view.
    pub fn lesson_go(&mut self, step: usize) {
        let Some(run) = self.lesson.as_mut() else {
            return;
        };
        let step = step.min(run.lesson.steps.len().saturating_sub(1));
        run.step = step;
        let base = run.base.clone();
        let state = run
            .lesson
            .state_at(step, &|name| load_preset(name, base.as_deref()));
        let view = run.lesson.steps.get(step).and_then(|s| s.view);
        let source = format!("<lesson: {}, step {}>", run.lesson.title, step + 1);
        match state {
            Ok(Some(preset)) => {
                run.error = None;
                if preset != self.session.preset {
                    self.load_preset(preset, source);
                }
            }
            Ok(None) => run.error = None,
            Err(e) => run.error = Some(e),
        }
        if let Some(v) = view {
            self.session.view.tab = tab_of(v);
        }
    }

    /// Opens a lesson file (File dialog, drop); a file that cannot be read is reported and the
    /// session stays as it is.
    pub(super) fn open_lesson_file(&mut self, path: &Path) {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.show_error("Cannot open the lesson", format!("{}: {e}", path.display()));
                return;
            }
        };
        match Lesson::from_ron(&text, &path.display().to_string()) {
            Ok(lesson) => self.start_lesson(lesson, path.parent()),
            Err(e) => self.show_error("Cannot open the lesson", e.to_string()),
        }
    }

    /// Page Down / Page Up: next and previous step while a lesson runs.
    pub(super) fn lesson_keys(&mut self, ctx: &egui::Context) {
        // Not while a text field has the keyboard (Page keys move its cursor there).
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let Some((step, n)) = self.lesson.as_ref().map(|r| (r.step, r.lesson.steps.len())) else {
            return;
        };
        let (next, previous) = ctx.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::PageDown),
                i.consume_key(egui::Modifiers::NONE, egui::Key::PageUp),
            )
        });
        if next && step + 1 < n {
            self.lesson_go(step + 1);
        } else if previous && step > 0 {
            self.lesson_go(step - 1);
        }
    }
}

/// The lesson panel's contents.
pub fn panel(app: &mut TriboApp, ui: &mut egui::Ui) {
    let Some(run) = app.lesson.as_ref() else {
        return;
    };
    let n = run.lesson.steps.len();
    let k = run.step;
    let Some(step) = run.lesson.steps.get(k) else {
        return;
    };
    let title = run.lesson.title.clone();
    let step_title = step.title.clone();
    let look_for = step.look_for.clone();
    let question = step.question.clone();
    let error = run.error.clone();
    let mut go: Option<usize> = None;
    let mut end = false;
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.strong(format!("Lesson: {title}"));
        ui.label(format!("— step {} of {n}: {step_title}", k + 1));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.button("End lesson").clicked() {
                end = true;
            }
            if ui
                .add_enabled(k + 1 < n, egui::Button::new("Next ▶"))
                .on_hover_text("Page Down")
                .clicked()
            {
                go = Some(k + 1);
            }
            if ui
                .add_enabled(k > 0, egui::Button::new("◀ Previous"))
                .on_hover_text("Page Up")
                .clicked()
            {
                go = Some(k - 1);
            }
        });
    });
    egui::ScrollArea::vertical()
        .id_salt("lesson_text")
        .show(ui, |ui| {
            ui.label(look_for);
            if !question.is_empty() {
                ui.add_space(4.0);
                ui.label(egui::RichText::new(format!("Question: {question}")).italics());
            }
            if let Some(e) = error {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("This step could not be set up: {e}"),
                );
            }
        });
    if let Some(step) = go {
        app.lesson_go(step);
    }
    if end {
        app.end_lesson();
    }
}

/// The Lessons menu: the built-in lessons, a lesson file, the end of the running one.
pub fn menu(app: &mut TriboApp, ui: &mut egui::Ui) {
    for (stem, text) in crate::lesson::builtin::BUILTIN_LESSONS {
        match Lesson::from_ron(text, &format!("<builtin lesson:{stem}>")) {
            Ok(lesson) => {
                if ui
                    .button(&lesson.title)
                    .on_hover_text(&lesson.summary)
                    .clicked()
                {
                    ui.close();
                    app.start_lesson(lesson, None);
                }
            }
            Err(e) => {
                ui.label(e.to_string());
            }
        }
    }
    ui.separator();
    if ui.button("Open a lesson file…").clicked() {
        ui.close();
        app.ask_file(ui.ctx(), super::dialogs::DialogKind::OpenLesson, "");
    }
    if app.lesson.is_some() && ui.button("End lesson").clicked() {
        ui.close();
        app.end_lesson();
    }
}
