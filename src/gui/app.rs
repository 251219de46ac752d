//! The application: state, the per-frame logic (draining the worker, shortcuts, dropped
//! files) and the layout of panels.

use std::path::PathBuf;
use std::time::Instant;

use eframe::egui;

use super::dialogs::{FileDialogs, NativeDialogs};
use super::history::History;
use super::jobs::AnalysisHandle;
use super::lab::Lab;
use super::plots::PlotCache;
use super::session::{SavedSession, Session};
use super::worker::{Command, Speed, WorkerHandle, WorkerMsg};
use crate::integrate::{Column, Role};
use crate::preset::Preset;
use crate::systems::Layout;

/// Time budget for draining worker messages per frame.
const DRAIN_BUDGET_S: f64 = 0.008;

/// How the app starts.
pub struct AppOptions {
    /// Preset to open instead of the saved session.
    pub preset: Option<Preset>,
    /// Restore the last session from eframe's storage.
    pub restore: bool,
    /// Start running.
    pub start_running: bool,
    /// File dialogs (native unless a test scripts them).
    pub dialogs: Box<dyn FileDialogs>,
    /// Print frame timings to stderr once a second.
    pub frame_stats: bool,
    /// The panels leave their background to the frame's clear colour and the plots draw no
    /// filled well (the native window: a software rasteriser pays for every covered pixel,
    /// and one fill of the window costs about as much as an empty egui frame; a test renderer
    /// clears to transparent, so there the panels paint their background).
    pub panels_on_clear: bool,
    /// A friction measurement to open in the Fit tab (`tribolab gui --fit DATA`).
    pub fit_data: Option<PathBuf>,
    /// A lesson file to start teaching (`tribolab gui LESSON.ron`).
    pub lesson: Option<PathBuf>,
    /// A measured series to open in the import window (`tribolab gui DATA.csv`).
    pub measured: Option<PathBuf>,
}

impl Default for AppOptions {
    fn default() -> Self {
        Self {
            preset: None,
            restore: true,
            start_running: true,
            dialogs: Box::new(NativeDialogs),
            frame_stats: false,
            panels_on_clear: false,
            fit_data: None,
            lesson: None,
            measured: None,
        }
    }
}

/// A message shown over the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Window title.
    pub title: String,
    /// Text (for errors: `file:line:col: field: message`).
    pub text: String,
    /// Error or information.
    pub is_error: bool,
}

/// What the window knows of the current run.
#[derive(Clone, Debug)]
pub struct RunState {
    /// Generation of the worker's current run.
    pub generation: u64,
    /// Running (as requested by the user).
    pub running: bool,
    /// Integrator name.
    pub method: &'static str,
    /// Model time of the newest sample [s].
    pub t_s: f64,
    /// Achieved real-time factor (model s per wall s), smoothed.
    pub rtf: f64,
    /// Integration error of the current run, in words.
    pub error: Option<String>,
    /// Problems of the edited preset (`(field path, message)`: values that contradict each
    /// other, such as μ_K above μ_S); while there are any the edit is not sent to the worker
    /// and the run goes on with the last consistent values.
    pub unapplied: Vec<(String, String)>,
    /// Poincaré sections of the model.
    pub section_names: Vec<String>,
    /// Stroboscopic period [s].
    pub strobe_period_s: Option<f64>,
    /// Output columns of the run with their meaning (`t` first, `event` last); the history's
    /// column `i` is `columns[i]`.
    pub columns: Vec<Column>,
    /// Degrees of freedom, contacts and links of the running system.
    pub layout: Layout,
    rtf_model_s: f64,
    rtf_since: Instant,
}

impl RunState {
    /// History column of the first output column with `role`.
    pub fn column(&self, role: Role) -> Option<usize> {
        crate::integrate::column::find_role(&self.columns, role)
    }

    /// Label of the time axis (`t [s]`, or the symbol of a dimensionless time).
    pub fn time_label(&self) -> String {
        self.columns
            .first()
            .map_or_else(|| "t [s]".to_string(), Column::label)
    }

    /// Unit of the time column (`s`; empty for a dimensionless time).
    pub fn time_unit(&self) -> &str {
        self.columns.first().map_or("s", |c| c.unit.as_str())
    }

    /// Unit of frequencies in the time column's unit: Hz for seconds, `1/τ` for a
    /// dimensionless time τ.
    pub fn frequency_unit(&self) -> String {
        match self
            .columns
            .first()
            .map(|c| (c.unit.as_str(), c.symbol.as_str()))
        {
            Some(("s", _)) | None => "Hz".to_string(),
            Some(("", symbol)) => format!("1/{symbol}"),
            Some((unit, _)) => format!("1/{unit}"),
        }
    }

    /// Label of a frequency axis.
    pub fn frequency_label(&self) -> String {
        format!("frequency [{}]", self.frequency_unit())
    }

    /// Axis label (symbol and unit) of history column `i`.
    pub fn label(&self, i: usize) -> String {
        self.columns.get(i).map_or_else(String::new, Column::label)
    }
}

impl Default for RunState {
    fn default() -> Self {
        Self {
            generation: 0,
            running: false,
            method: "",
            t_s: 0.0,
            rtf: 0.0,
            error: None,
            unapplied: Vec::new(),
            section_names: Vec::new(),
            strobe_period_s: None,
            columns: Vec::new(),
            layout: Layout::default(),
            rtf_model_s: 0.0,
            rtf_since: Instant::now(),
        }
    }
}

/// The tribolab window.
pub struct TriboApp {
    pub(super) session: Session,
    pub(super) worker: Option<WorkerHandle>,
    pub(super) run: RunState,
    pub(super) history: History,
    pub(super) dialogs: Box<dyn FileDialogs>,
    pub(super) notice: Option<Notice>,
    pub(super) plots: PlotCache,
    /// PNG export waiting for its screenshot.
    /// The file dialog being shown, if any, and where its answer arrives.
    pub(super) pending_dialog: Option<(
        super::dialogs::DialogKind,
        std::sync::mpsc::Receiver<super::dialogs::DialogAnswer>,
    )>,
    pub(super) pending_png: Option<(
        PathBuf,
        std::sync::mpsc::Receiver<std::sync::Arc<egui::ColorImage>>,
    )>,
    /// Screen area of the plots (for PNG export).
    pub(super) plot_rect: Option<egui::Rect>,
    /// Time the window spent on the previous frame: building, tessellating and painting it,
    /// without the buffer swap [s] (eframe's measure).
    pub(super) frame_cpu_s: Option<f32>,
    /// Frame timings printed to stderr (`--frame-stats`).
    frame_stats: Option<super::frame_stats::FrameStats>,
    /// When the window drew its frames (the worker paces itself on it at full speed).
    frame_clock: std::sync::Arc<super::pacing::FrameClock>,
    /// Analyses: the analysis thread, jobs, results, imported series.
    pub(super) lab: Lab,
    /// Slip-event catalogue of a chain run.
    pub(super) catalogue: Option<super::catalogue::LiveCatalogue>,
    /// The panels' background is the frame's clear colour ([`AppOptions::panels_on_clear`]).
    panels_on_clear: bool,
    /// The lesson being taught, if any.
    pub(super) lesson: Option<super::lesson::LessonRun>,
    /// Presentation mode: no side panel, the plots take the window.
    pub(super) presentation: bool,
    /// The UI size last given to egui.
    pub(super) applied_ui_scale: f32,
    /// Undo and redo of parameter edits.
    pub(super) undo: super::undo::UndoHistory,
    /// The file name suggested to the last dialog.
    pub(super) suggested_name: String,
    /// The path field shown when no desktop dialog exists.
    pub(super) path_prompt: Option<super::asking::PathPrompt>,
}

impl TriboApp {
    /// The app as eframe creates it: last session restored, native dialogs.
    pub fn new(cc: &eframe::CreationContext<'_>) -> Self {
        Self::with_options(cc, AppOptions::default())
    }

    /// The app with explicit options.
    pub fn with_options(cc: &eframe::CreationContext<'_>, opts: AppOptions) -> Self {
        install_fonts(&cc.egui_ctx);
        super::presentation::readable_text(&cc.egui_ctx);
        let mut session = match (opts.restore, cc.storage) {
            (true, Some(storage)) => eframe::get_value::<SavedSession>(storage, eframe::APP_KEY)
                .map(|s| Session::restore(&s))
                .unwrap_or_else(Session::default_session),
            _ => Session::default_session(),
        };
        if let Some(p) = opts.preset {
            session.load(p, "<command line>".into());
        }
        let mut app = Self {
            session,
            worker: None,
            run: RunState::default(),
            history: History::default(),
            dialogs: opts.dialogs,
            notice: None,
            plots: PlotCache::default(),
            pending_dialog: None,
            pending_png: None,
            plot_rect: None,
            frame_cpu_s: None,
            frame_stats: opts
                .frame_stats
                .then(super::frame_stats::FrameStats::default),
            frame_clock: std::sync::Arc::default(),
            lab: Lab::default(),
            catalogue: None,
            panels_on_clear: opts.panels_on_clear,
            lesson: None,
            presentation: false,
            applied_ui_scale: 1.0,
            undo: super::undo::UndoHistory::default(),
            suggested_name: String::new(),
            path_prompt: None,
        };
        app.run.running = opts.start_running;
        if let Some(path) = &opts.fit_data {
            app.open_fit_file(path);
            app.session.view.tab = super::session::Tab::Fit;
        }
        if let Some(path) = &opts.lesson {
            app.open_lesson_file(path);
        }
        if let Some(path) = &opts.measured {
            app.open_csv_file(path);
        }
        let ctx = cc.egui_ctx.clone();
        match WorkerHandle::spawn(
            app.session.preset.clone(),
            opts.start_running,
            app.speed(),
            std::sync::Arc::clone(&app.frame_clock),
            move || ctx.request_repaint(),
        ) {
            Ok(w) => app.worker = Some(w),
            Err(e) => app.show_error("Cannot start the simulation", e.to_string()),
        }
        let ctx = cc.egui_ctx.clone();
        match AnalysisHandle::spawn(move || ctx.request_repaint()) {
            Ok(h) => app.lab.handle = Some(h),
            Err(e) => app.show_error("Cannot start the analysis thread", e.to_string()),
        }
        app
    }

    /// The session (current and reference preset, view settings).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The run as the window sees it.
    pub fn run_state(&self) -> &RunState {
        &self.run
    }

    /// The sample history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Slip-event catalogue of the run (systems with two or more contacts).
    pub fn catalogue(&self) -> Option<&super::catalogue::LiveCatalogue> {
        self.catalogue.as_ref()
    }

    /// The velocity steps and holds the *Steps & holds* tab last read from the record.
    pub fn load_point_tests(&self) -> &crate::analysis::load_point::LoadPointTests {
        self.plots.load_point.tests()
    }

    /// The forcing frequency the spectrum marks, from the live parameters [Hz].
    pub fn spectrum_forcing_hz(&self) -> Option<f64> {
        super::plots::forcing_frequency_hz(self)
    }

    /// The note that the description no longer matches the law or system, if shown.
    pub fn description_note(&self) -> Option<String> {
        super::controls::description_mismatch(self)
    }

    /// The characterisation rig's test as last read for the Rig test tab.
    pub fn rig_reading(&self) -> &crate::analysis::rig_reading::RigReading {
        self.plots.rig_test.reading()
    }

    /// Analyses: jobs in progress, results, the imported series.
    pub fn analysis(&self) -> &Lab {
        &self.lab
    }

    /// The message currently shown, if any.
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    pub(super) fn speed(&self) -> Speed {
        if self.session.view.max_speed {
            Speed::Max
        } else {
            Speed::Factor(self.session.view.speed)
        }
    }

    pub(super) fn send(&self, c: Command) {
        if let Some(w) = &self.worker {
            w.send(c);
        }
    }

    /// Sends the edited preset to the worker (live change or restart, the worker decides).
    /// A preset whose values contradict each other is not sent: its problems are kept in
    /// [`RunState::unapplied`] (shown at the top of the side panel) and the run goes on.
    pub(super) fn apply_preset(&mut self) {
        if self.consistent() {
            self.run.error = None;
            self.send(Command::Apply(Box::new(self.session.preset.clone())));
        }
    }

    /// Restarts from the initial state (not with contradicting values: see
    /// [`Self::apply_preset`]).
    pub(super) fn reset(&mut self) {
        if self.consistent() {
            self.run.error = None;
            self.send(Command::Restart(Box::new(self.session.preset.clone())));
        }
    }

    /// Whether the edited preset has no problems; records them otherwise.
    fn consistent(&mut self) -> bool {
        self.run.unapplied = self.session.preset.problems();
        self.run.unapplied.is_empty()
    }

    /// Undoes slider changes: back to the preset as loaded.
    pub(super) fn reset_to_preset(&mut self) {
        self.session.preset = self.session.reference.clone();
        self.reset();
    }

    /// Makes the simulation worker panic as a bug in the numerics would (for the test that
    /// the window survives it and Reset starts a new run).
    pub fn inject_worker_fault(&self) {
        self.send(Command::InjectFault);
    }

    /// Pauses and advances the model by `model_s` seconds (the Step button; tests use it to
    /// reach a reproducible state).
    pub fn step_by(&mut self, model_s: f64) {
        self.run.running = false;
        self.send(Command::Step(model_s));
    }

    /// Sets the length of history shown [s].
    pub fn set_window_s(&mut self, window_s: f64) {
        self.session.view.window_s = window_s;
    }

    /// Runs as fast as possible (or back at the speed factor).
    pub fn set_max_speed(&mut self, max: bool) {
        self.session.view.max_speed = max;
        let s = self.speed();
        self.send(Command::SetSpeed(s));
    }

    /// Shows a plot view.
    pub fn set_tab(&mut self, tab: super::session::Tab) {
        self.session.view.tab = tab;
    }

    /// Toggles play/pause.
    pub(super) fn toggle_running(&mut self) {
        self.set_running(!self.run.running);
    }

    pub(super) fn set_running(&mut self, running: bool) {
        self.run.running = running;
        self.send(if running {
            Command::Play
        } else {
            Command::Pause
        });
    }

    /// Replaces the session's preset with a loaded one and restarts, at the preset's playback
    /// speed.
    pub(super) fn load_preset(&mut self, preset: Preset, source: String) {
        self.session.load(preset, source);
        // Undo steps back through edits of this preset, not into the one before.
        self.undo = super::undo::UndoHistory::default();
        let s = self.speed();
        self.send(Command::SetSpeed(s));
        self.reset();
    }

    pub(super) fn show_error(&mut self, title: &str, text: String) {
        self.notice = Some(Notice {
            title: title.into(),
            text,
            is_error: true,
        });
    }

    pub(super) fn show_info(&mut self, title: &str, text: String) {
        self.notice = Some(Notice {
            title: title.into(),
            text,
            is_error: false,
        });
    }

    fn drain_worker(&mut self) {
        let started = Instant::now();
        while started.elapsed().as_secs_f64() < DRAIN_BUDGET_S {
            let Some(msg) = self.worker.as_ref().and_then(WorkerHandle::try_recv) else {
                break;
            };
            self.handle(msg);
        }
    }

    fn handle(&mut self, msg: WorkerMsg) {
        match msg {
            WorkerMsg::Started {
                generation,
                columns,
                layout,
                section_names,
                strobe_period_s,
                method,
            } => {
                let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
                self.catalogue = super::catalogue::LiveCatalogue::new(&columns, &layout);
                let capacity = super::history::capacity_for(names.len());
                self.run.columns = columns;
                self.run.layout = layout;
                self.run.generation = generation;
                self.run.method = method;
                self.run.section_names = section_names;
                self.run.strobe_period_s = strobe_period_s;
                self.run.t_s = 0.0;
                self.run.error = None;
                self.history = History::new(names, capacity);
                self.plots.invalidate();
            }
            WorkerMsg::Chunk(chunk) if chunk.generation == self.run.generation => {
                self.history.extend_flat(&chunk.rows);
                if let Some(c) = self.catalogue.as_mut() {
                    c.feed_flat(&chunk.rows);
                }
                for (id, row) in chunk.sections {
                    self.history.push_section(id, row);
                }
                self.run.t_s = chunk.t_s;
                self.run.rtf_model_s += chunk.model_s;
                let wall = self.run.rtf_since.elapsed().as_secs_f64();
                if wall >= 0.5 {
                    self.run.rtf = self.run.rtf_model_s / wall;
                    self.run.rtf_model_s = 0.0;
                    self.run.rtf_since = Instant::now();
                }
            }
            WorkerMsg::Updated {
                generation,
                layout,
                strobe_period_s,
            } if generation == self.run.generation => {
                self.run.layout = layout;
                self.run.strobe_period_s = strobe_period_s;
            }
            WorkerMsg::Chunk(_) | WorkerMsg::Updated { .. } => {}
            WorkerMsg::Failed {
                generation,
                message,
            } => {
                if generation == self.run.generation {
                    self.run.running = false;
                    self.run.error = Some(message);
                }
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (space, reset, open, save, present) = ctx.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::Space),
                i.consume_key(egui::Modifiers::NONE, egui::Key::R),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::O),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::S),
                i.consume_key(egui::Modifiers::NONE, egui::Key::F5),
            )
        });
        if present {
            self.toggle_presentation();
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::F1)) {
            self.show_shortcuts();
        }
        if space {
            self.toggle_running();
        }
        if reset {
            self.reset();
        }
        if open {
            self.open_preset_dialog(ctx);
        }
        if save {
            self.save_preset_dialog(ctx);
        }
    }

    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(path) = dropped.into_iter().last() {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            let lesson = std::fs::read_to_string(&path).is_ok_and(|t| is_lesson_text(&t));
            match ext.as_deref() {
                Some("csv" | "tsv" | "txt") => self.open_csv_file(&path),
                Some("ron") if lesson => self.open_lesson_file(&path),
                _ => self.open_preset_file(&path),
            }
        }
    }
}

impl eframe::App for TriboApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.frame_clock.frame();
        self.frame_cpu_s = frame.info().cpu_usage;
        if let Some(stats) = &mut self.frame_stats
            && let Some(line) = stats.frame(
                self.frame_cpu_s,
                self.history.len(),
                self.run.running.then_some(self.run.rtf),
            )
        {
            eprintln!("{line}");
        }
        self.drain_worker();
        self.lab.drain();
        self.apply_view_style(ctx);
        self.shortcuts(ctx);
        self.undo_keys(ctx);
        self.lesson_keys(ctx);
        self.dropped_files(ctx);
        self.poll_dialog(ctx);
        self.record_edit(ctx);
        self.take_screenshot(ctx);
        if self.run.running {
            ctx.request_repaint();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // Panels drawn on the clear colour skip a fill of the whole window, the largest single
        // cost of a software rasteriser (about 6 ms a frame at 1400 × 880 under llvmpipe).
        let style = ui.style().clone();
        let clear = |frame: egui::Frame| {
            if self.panels_on_clear {
                frame.fill(egui::Color32::TRANSPARENT)
            } else {
                frame
            }
        };
        let bar = clear(egui::Frame::side_top_panel(&style));
        let central = clear(egui::Frame::central_panel(&style));
        egui::Panel::top("menu_bar")
            .frame(bar)
            .show(ui, |ui| super::menu::bar(self, ui));
        egui::Panel::bottom("status_bar")
            .frame(bar)
            .show(ui, |ui| super::status_bar::show(self, ui));
        if self.lesson.is_some() {
            egui::Panel::bottom("lesson")
                .frame(bar)
                .resizable(true)
                .default_size(150.0)
                .min_size(90.0)
                .show(ui, |ui| super::lesson::panel(self, ui));
        }
        if !self.presentation {
            egui::Panel::left("controls")
                .frame(bar)
                .resizable(true)
                .default_size(340.0)
                .min_size(280.0)
                .show(ui, |ui| super::controls::show(self, ui));
        }
        egui::CentralPanel::default().frame(central).show(ui, |ui| {
            if self.panels_on_clear {
                // The plots' wells (extreme_bg_color) are another 0.5 of the window's area;
                // the plots sit on the panel instead. Text fields keep their background.
                let v = ui.visuals_mut();
                v.text_edit_bg_color = Some(v.text_edit_bg_color());
                v.extreme_bg_color = egui::Color32::TRANSPARENT;
            }
            super::plots::central(self, ui);
        });
        self.import_window(ui.ctx());
        self.path_prompt_window(ui.ctx());
        self.notice_window(ui.ctx());
        // Anti-aliasing (feathering) is the largest share of software rendering (no GPU): the
        // smoothing fringes double the triangles. A still picture is smoothed; a running one
        // only when the View menu asks for it; a frame taken for a PNG export always. Set
        // after the frame's widgets, as tessellation follows them.
        let view = &self.session.view;
        let aa = view.antialiasing
            && (!self.run.running || view.smooth_while_running || self.pending_png.is_some());
        ui.ctx().tessellation_options_mut(|o| o.feathering = aa);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        if self.panels_on_clear {
            visuals.panel_fill.to_normalized_gamma_f32()
        } else {
            // eframe's default.
            egui::Color32::from_rgba_unmultiplied(12, 12, 12, 180).to_normalized_gamma_f32()
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.session.to_saved());
    }
}

/// Adds a subset of DejaVu Sans (embedded, see `assets/fonts/`) as fallback of both families,
/// for the dotted time derivatives, subscripts (ᵢ, ⱼ), arrows and math signs of the equations.
/// The subset (made with fontTools' `pyftsubset`): Basic Latin to Latin Extended-B, combining
/// marks, Greek, Phonetic Extensions, Latin Extended Additional, punctuation, super- and
/// subscripts, letterlike symbols, arrows, mathematical operators, Latin Extended-C.
fn install_fonts(ctx: &egui::Context) {
    ctx.add_font(egui::epaint::text::FontInsert::new(
        "dejavu-sans-subset",
        egui::FontData::from_static(include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf")),
        vec![
            egui::epaint::text::InsertFontFamily {
                family: egui::FontFamily::Proportional,
                priority: egui::epaint::text::FontPriority::Lowest,
            },
            egui::epaint::text::InsertFontFamily {
                family: egui::FontFamily::Monospace,
                priority: egui::epaint::text::FontPriority::Lowest,
            },
        ],
    ));
}

impl TriboApp {
    fn notice_window(&mut self, ctx: &egui::Context) {
        let Some(notice) = self.notice.clone() else {
            return;
        };
        let mut open = true;
        let mut close = false;
        egui::Window::new(&notice.title)
            .collapsible(false)
            .resizable(true)
            .default_width(520.0)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .open(&mut open)
            .show(ctx, |ui| {
                let text = egui::RichText::new(&notice.text).monospace();
                if notice.is_error {
                    ui.label(text.color(ui.visuals().error_fg_color));
                    ui.label("Your current session was left as it was.");
                } else {
                    ui.label(text);
                }
                if ui.button("OK").clicked() {
                    close = true;
                }
            });
        if !open || close {
            self.notice = None;
        }
    }
}

/// Whether a `.ron` file's text is a lesson rather than a preset.
pub fn is_lesson_text(text: &str) -> bool {
    crate::lesson::looks_like_lesson(text)
}
