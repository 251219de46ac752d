//! The user's session: the preset being edited, the preset it came from ("Reset to preset"),
//! and the view settings — everything eframe persists between launches.

use serde::{Deserialize, Serialize};

use super::lab::LabSettings;
use super::plots::PlaneChoice;
use crate::integrate::Role;
use crate::preset::Preset;
use crate::preset::builtin;

/// Built-in preset shown on first launch.
pub const DEFAULT_PRESET: &str = "s1_bench_19_36rpm";

/// Which plot view fills the central area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    /// Time traces, phase plane, friction–velocity and spectrum in a 2 × 2 grid.
    #[default]
    Grid,
    /// x, v and friction force against time, linked time axis.
    Traces,
    /// x–v phase plane.
    Phase,
    /// Friction force against relative velocity.
    FrictionVelocity,
    /// FFT amplitude spectrum.
    Spectrum,
    /// Poincaré map.
    Poincare,
    /// Lyapunov spectrum converging live, verdict and Kaplan–Yorke dimension.
    Lyapunov,
    /// Floquet multipliers on the unit circle.
    Floquet,
    /// Delay reconstruction of a signal: 3-D view and 2-D projections.
    Attractor,
    /// Series pipeline: trace, spectrum, AMI, Cao, divergence curve.
    Embedding,
    /// Bifurcation (orbit) diagram.
    Bifurcation,
    /// Regime map over two parameters.
    RegimeMap,
    /// Slip events of a chain: space–time plot, magnitude–frequency statistics, event list.
    Events,
    /// Mean friction against speed or temperature with error bars, and the activated law.
    FrictionSweep,
    /// Velocity steps and holds of a load-point programme: friction record, healing curve.
    LoadPoint,
    /// A characterisation rig's standard test read: Stribeck curve, lag loops, pre-sliding
    /// loops, break-away force against force rate.
    RigTest,
    /// A friction law fitted to a measurement: measured against fitted, residuals, estimates.
    Fit,
}

impl Tab {
    /// All tabs in display order.
    pub const ALL: [Tab; 17] = [
        Tab::Grid,
        Tab::Traces,
        Tab::Phase,
        Tab::FrictionVelocity,
        Tab::Spectrum,
        Tab::Poincare,
        Tab::Lyapunov,
        Tab::Floquet,
        Tab::Attractor,
        Tab::Embedding,
        Tab::Bifurcation,
        Tab::RegimeMap,
        Tab::Events,
        Tab::FrictionSweep,
        Tab::LoadPoint,
        Tab::RigTest,
        Tab::Fit,
    ];

    /// Whether the view draws the simulation's history (the analysis views draw results).
    pub fn shows_history(self) -> bool {
        matches!(
            self,
            Tab::Grid
                | Tab::Traces
                | Tab::Phase
                | Tab::FrictionVelocity
                | Tab::Spectrum
                | Tab::Poincare
                | Tab::Events
                | Tab::LoadPoint
                | Tab::RigTest
        )
    }

    /// Tab title.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Grid => "Overview",
            Tab::Traces => "Time traces",
            Tab::Phase => "Phase plane",
            Tab::FrictionVelocity => "Friction–velocity",
            Tab::Spectrum => "Spectrum",
            Tab::Poincare => "Poincaré map",
            Tab::Lyapunov => "Lyapunov",
            Tab::Floquet => "Floquet",
            Tab::Attractor => "Attractor",
            Tab::Embedding => "Embedding",
            Tab::Bifurcation => "Bifurcation",
            Tab::RegimeMap => "Regime map",
            Tab::Events => "Slip events",
            Tab::FrictionSweep => "Friction sweep",
            Tab::LoadPoint => "Steps & holds",
            Tab::RigTest => "Rig test",
            Tab::Fit => "Fit",
        }
    }
}

/// View settings the user chose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    /// Active tab.
    pub tab: Tab,
    /// Length of history shown [s].
    pub window_s: f64,
    /// Speed factor (model s per wall s).
    pub speed: f64,
    /// Run as fast as possible.
    pub max_speed: bool,
    /// Show the animated bench above the plots.
    pub show_bench: bool,
    /// Degree of freedom of the time traces (`None`: every degree of freedom overlaid, up to
    /// [`MAX_OVERLAID_DOFS`](super::plots::MAX_OVERLAID_DOFS)).
    pub trace_dof: Option<usize>,
    /// A contact whose normal force, slip, spin and friction the time traces show instead
    /// (`None`: the degrees of freedom).
    pub trace_contact: Option<usize>,
    /// Axes of the phase plane and the Poincaré map.
    pub plane: PlaneChoice,
    /// Contact of the friction–velocity view.
    pub contact: usize,
    /// The friction view draws the friction loop (lateral force against the driver's
    /// position) instead of friction against slip velocity, where the run has a driver
    /// position.
    pub friction_loop: bool,
    /// The friction view draws the friction coefficient against the spin-to-slide ratio
    /// instead of friction against slip velocity, where the contact slides and spins.
    pub friction_against_spin: bool,
    /// Column analysed by the spectrum, by meaning (`None`: the first position).
    pub spectrum_column: Option<Role>,
    /// Poincaré section shown (0: stroboscopic when available, then the model's sections).
    pub poincare_section: usize,
    /// Anti-aliased lines (off speeds up software rendering on machines without a GPU).
    pub antialiasing: bool,
    /// Anti-aliased lines also while the simulation runs. Off by default: without a GPU the
    /// smoothing fringes of every line are half of what the rasteriser draws, and an animated
    /// picture does not need them; a still one (paused, exported) is always smoothed.
    pub smooth_while_running: bool,
    /// Settings of the analysis panels.
    #[serde(default)]
    pub lab: LabSettings,
    /// Size of text and controls (egui zoom factor; 1 = normal), for projectors.
    #[serde(default = "one")]
    pub ui_scale: f32,
    /// Light theme (bright rooms, figures for paper).
    #[serde(default)]
    pub light_theme: bool,
}

fn one() -> f32 {
    1.0
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            tab: Tab::Grid,
            window_s: 10.0,
            speed: 1.0,
            max_speed: false,
            show_bench: true,
            trace_dof: None,
            trace_contact: None,
            plane: PlaneChoice::default(),
            contact: 0,
            friction_loop: true,
            friction_against_spin: true,
            spectrum_column: None,
            poincare_section: 0,
            antialiasing: true,
            smooth_while_running: false,
            lab: LabSettings::default(),
            ui_scale: 1.0,
            light_theme: false,
        }
    }
}

/// What is persisted between launches. The presets are stored as our own RON text so that they
/// pass the same validation as files (a damaged store falls back to the default preset).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedSession {
    /// Current (edited) preset, RON.
    pub preset_ron: String,
    /// Preset it was loaded from, RON.
    pub reference_ron: String,
    /// Where it came from (file path or built-in name).
    pub source: String,
    /// View settings.
    pub view: ViewSettings,
}

/// The live session.
#[derive(Clone, Debug)]
pub struct Session {
    /// The preset as edited by the user.
    pub preset: Preset,
    /// The preset as loaded (target of "Reset to preset").
    pub reference: Preset,
    /// File path or `<builtin:name>`.
    pub source: String,
    /// View settings.
    pub view: ViewSettings,
}

impl Session {
    /// The session of a first launch: the default built-in preset.
    pub fn default_session() -> Self {
        let preset = builtin::load(DEFAULT_PRESET)
            .and_then(Result::ok)
            .unwrap_or_default();
        Self {
            reference: preset.clone(),
            preset,
            source: format!("<builtin:{DEFAULT_PRESET}>"),
            view: ViewSettings::default(),
        }
    }

    /// Restores a saved session; anything unreadable falls back to the defaults.
    pub fn restore(saved: &SavedSession) -> Self {
        let mut s = Self::default_session();
        if let Ok(p) = Preset::from_ron(&saved.preset_ron, "<saved session>") {
            s.reference = Preset::from_ron(&saved.reference_ron, "<saved session>")
                .unwrap_or_else(|_| p.clone());
            s.preset = p;
            s.source = saved.source.clone();
        }
        s.view = saved.view.clone();
        s
    }

    /// The persisted form.
    pub fn to_saved(&self) -> SavedSession {
        SavedSession {
            preset_ron: self.preset.to_ron().unwrap_or_default(),
            reference_ron: self.reference.to_ron().unwrap_or_default(),
            source: self.source.clone(),
            view: self.view.clone(),
        }
    }

    /// Replaces the preset (and the reset target) with a newly loaded one. A characterisation
    /// rig opens on its test; another system leaves the rig's tab for the overview.
    pub fn load(&mut self, preset: Preset, source: String) {
        self.view.speed = preset.playback.speed;
        self.view.window_s = preset.playback.history_s;
        if preset.system.characterisation().is_some() {
            self.view.tab = Tab::RigTest;
        } else if self.view.tab == Tab::RigTest {
            self.view.tab = Tab::Grid;
        }
        self.reference = preset.clone();
        self.preset = preset;
        self.source = source;
    }
}
