//! The central area: the system's schematic above, then the chosen plot view. Each plot is one
//! file; all read the bounded history and draw decimated data, and choose their columns by
//! meaning ([`roles`]).

mod attractor;
mod attractor3d;
mod bifurcation;
mod embedding;
mod events;
mod fit;
mod floquet;
mod friction_sweep;
mod friction_velocity;
mod job_bar;
mod load_point;
mod lyapunov;
mod phase;
mod poincare;
mod regime_map;
mod rig_test;
pub mod roles;
mod series_source;
mod spectrum;
mod ticks;
mod traces;

use eframe::egui;

use super::TriboApp;
use super::session::Tab;

pub use roles::PlaneChoice;
pub use spectrum::{SpectrumCache, forcing_frequency_hz, update as update_spectrum};

/// Most degrees of freedom the time traces overlay (longer chains show one at a time).
pub const MAX_OVERLAID_DOFS: usize = 4;

/// Colour of stick samples.
pub const STICK_COLOR: egui::Color32 = egui::Color32::from_rgb(44, 160, 44);
/// Colour of slip samples.
pub const SLIP_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 110, 20);
/// Colour of the belt-speed marks.
pub const BELT_COLOR: egui::Color32 = egui::Color32::from_rgb(120, 120, 200);

/// Stick fraction of the shown window averaged over the contacts, and per contact.
pub type StickFractions = Option<(f64, Vec<f64>)>;

/// Cached derived data of the plots (recomputed only when needed).
#[derive(Default)]
pub struct PlotCache {
    /// FFT of the chosen signal.
    pub spectrum: SpectrumCache,
    /// Image of the slip-events space–time plot.
    pub space_time: events::SpaceTimeCache,
    /// Time traces follow the newest sample (off once the user pans or zooms).
    pub follow: bool,
    /// Stick fraction of the window and when it was computed (a full scan of the window,
    /// refreshed a few times a second while running).
    pub stick_fraction: Option<(std::time::Instant, StickFractions)>,
    /// Velocity steps and holds read from the record.
    pub load_point: load_point::LoadPointCache,
    /// The characterisation rig's test read from the record.
    pub rig_test: rig_test::RigTestCache,
    /// The regime map's image and the cells it shows (rebuilt when a cell arrives).
    pub regime_map: regime_map::MapImageCache,
    follow_initialised: bool,
}

impl PlotCache {
    /// Forget everything (a new run started).
    pub fn invalidate(&mut self) {
        self.spectrum = SpectrumCache::default();
        self.stick_fraction = None;
        self.space_time = events::SpaceTimeCache::default();
        self.load_point = load_point::LoadPointCache::default();
        self.rig_test = rig_test::RigTestCache::default();
        if !self.follow_initialised {
            self.follow = true;
            self.follow_initialised = true;
        }
    }
}

/// Draws the central area.
pub fn central(app: &mut TriboApp, ui: &mut egui::Ui) {
    if !app.plots.follow_initialised {
        app.plots.follow = true;
        app.plots.follow_initialised = true;
    }
    ui.horizontal_wrapped(|ui| {
        for tab in Tab::ALL {
            // Slip events need a chain (two or more contacts).
            if tab == Tab::Events && app.run.layout.contacts.len() < 2 {
                continue;
            }
            // Friction sweeps need a thermal bath and a drive speed.
            if tab == Tab::FrictionSweep && app.session.preset.system.heat_bath_keys().is_none() {
                continue;
            }
            // Steps and holds need a load point with a programme of speeds.
            if tab == Tab::LoadPoint && !load_point::applies(app) {
                continue;
            }
            // Standard tests need a characterisation rig.
            if tab == Tab::RigTest && !rig_test::applies(app) {
                continue;
            }
            ui.selectable_value(&mut app.session.view.tab, tab, tab.title());
        }
        ui.separator();
        if app.run.layout.is_mechanical() && app.session.view.tab.shows_history() {
            ui.checkbox(&mut app.session.view.show_bench, "Schematic");
        }
        if ui
            .button("Reset view")
            .on_hover_text("Follow the newest samples and fit the axes again")
            .clicked()
        {
            app.plots.follow = true;
            ui.ctx()
                .memory_mut(|m| m.data.insert_temp(reset_id(), true));
        }
    });
    let tab = app.session.view.tab;
    if app.session.view.show_bench
        && tab.shows_history()
        && let Some(schematic) = super::schematic::for_session(app)
    {
        schematic.show(app, ui);
    }
    let reset = ui
        .ctx()
        .memory_mut(|m| m.data.remove_temp::<bool>(reset_id()))
        .unwrap_or(false);
    let rect = ui.available_rect_before_wrap();
    app.plot_rect = Some(rect);
    if app.history.is_empty() && tab.shows_history() {
        ui.centered_and_justified(|ui| ui.label("Waiting for the simulation…"));
        return;
    }
    match tab {
        Tab::Grid => grid(app, ui, reset),
        Tab::Traces => traces::show(app, ui, reset),
        Tab::Phase => phase::show(app, ui, reset),
        Tab::FrictionVelocity => friction_velocity::show(app, ui, reset),
        Tab::Spectrum => spectrum::show(app, ui, reset),
        Tab::Poincare => poincare::show(app, ui, reset),
        Tab::Lyapunov => lyapunov::show(app, ui, reset),
        Tab::Floquet => floquet::show(app, ui, reset),
        Tab::Attractor => attractor::show(app, ui, reset),
        Tab::Embedding => embedding::show(app, ui, reset),
        Tab::Bifurcation => bifurcation::show(app, ui, reset),
        Tab::RegimeMap => regime_map::show(app, ui, reset),
        Tab::Events => events::show(app, ui, reset),
        Tab::FrictionSweep => friction_sweep::show(app, ui, reset),
        Tab::LoadPoint => load_point::show(app, ui, reset),
        Tab::RigTest => rig_test::show(app, ui, reset),
        Tab::Fit => fit::show(app, ui, reset),
    }
}

fn grid(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let avail = ui.available_size();
    let h = (avail.y - 8.0) / 2.0;
    let w = (avail.x - 8.0) / 2.0;
    let cell = egui::vec2(w, h);
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(cell, down, |ui| traces::show(app, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| phase::show(app, ui, reset));
    });
    ui.horizontal(|ui| {
        ui.allocate_ui_with_layout(cell, down, |ui| friction_velocity::show(app, ui, reset));
        ui.allocate_ui_with_layout(cell, down, |ui| spectrum::show(app, ui, reset));
    });
}

fn reset_id() -> egui::Id {
    egui::Id::unique("tribolab_reset_view")
}

/// Index range of the samples inside the shown time window.
pub fn window_range(app: &TriboApp) -> std::ops::Range<usize> {
    let t = app.history.column(0);
    let t_end = view_end_s(app);
    let start = t.partition_point(|&v| v < t_end - app.session.view.window_s);
    let end = t.partition_point(|&v| v <= t_end);
    start..end.max(start)
}

/// End of the time window the views show: the newest sample, or, while an event is
/// selected in the slip-event list, a window centred on that event.
pub fn view_end_s(app: &TriboApp) -> f64 {
    let latest = app.history.last(0).unwrap_or(0.0);
    app.catalogue
        .as_ref()
        .and_then(|c| c.selected.and_then(|i| c.events.get(i)))
        .map_or(latest, |e| {
            (0.5 * (e.start_s + e.end_s + app.session.view.window_s)).min(latest)
        })
}

/// Longest stretch of time the phase plane and the friction–velocity trail draw [s]: a
/// trajectory is a curve only while its points are close in time; a striding line through a
/// long window fills the plane instead of tracing the orbit.
pub const TRAIL_S: f64 = 20.0;

/// Index range of the newest samples drawn as a trajectory: the shown window, at most
/// [`TRAIL_S`].
pub fn trail_range(app: &TriboApp) -> std::ops::Range<usize> {
    let range = window_range(app);
    let t_end = view_end_s(app);
    let trail = app
        .history
        .range_since(t_end - app.session.view.window_s.min(TRAIL_S));
    trail.start.max(range.start)..range.end
}

/// Legend name of a trajectory drawn over [`trail_range`]: says so when it is shorter than the
/// window.
pub fn trail_name(app: &TriboApp, name: &str) -> String {
    if app.session.view.window_s > TRAIL_S {
        format!("{name} (last {TRAIL_S:.0} s)")
    } else {
        name.to_string()
    }
}

/// The plane chooser of the phase-plane and Poincaré views (shown when there is a choice);
/// returns the plane to draw.
pub fn plane_row(app: &mut TriboApp, ui: &mut egui::Ui, label: &str) -> Option<PlaneChoice> {
    let options = roles::plane_options(app);
    let current = roles::current_plane(app)?;
    if options.len() > 1 {
        let text = options
            .iter()
            .find(|(c, _)| *c == current)
            .map_or_else(String::new, |(_, n)| n.clone());
        let mut chosen = current;
        egui::ComboBox::from_label(label)
            .selected_text(text)
            .show_ui(ui, |ui| {
                for (c, name) in &options {
                    ui.selectable_value(&mut chosen, *c, name);
                }
            });
        app.session.view.plane = chosen;
        return Some(chosen);
    }
    Some(current)
}

/// One setting of an analysis panel (a slider, a checkbox…), drawn by [`setting_rows`].
pub type SettingCell<'a> = Box<dyn FnOnce(&mut egui::Ui) + 'a>;

/// Approximate width of a setting (slider, its value box and label) [px].
const SETTING_WIDTH: f32 = 330.0;

/// Lays settings out in rows of as many as fit the width. A wrapping layout cannot do it:
/// a slider with its value box and label is a nested row whose width is known only after it
/// is drawn, so it would run past the window's edge instead of wrapping.
pub fn setting_rows(ui: &mut egui::Ui, cells: Vec<SettingCell<'_>>) {
    let per_row = ((ui.available_width() / SETTING_WIDTH).floor() as usize).max(1);
    let mut cells = cells.into_iter().peekable();
    while cells.peek().is_some() {
        ui.horizontal(|ui| {
            for cell in cells.by_ref().take(per_row) {
                cell(ui);
            }
        });
    }
}
