//! The Fit tab's state on the window's side: the measurement file with the role and unit of
//! each column, the free parameters, and the actions — load a file, start a fit on the
//! analysis thread, put the fitted values into the live session. A file that cannot be read or
//! a column choice that does not parse is a message; nothing else changes.

use std::path::Path;

use crate::analysis::measured::{CsvSelection, column_names, parse_csv};
use crate::gui::TriboApp;
use crate::gui::jobs::{FitJob, Job};
use crate::identify::{
    ColumnSpec, ForceColumns, ForceData, ForceOptions, ForceSign, LawFitOptions,
};

/// A measurement file as read for fitting.
#[derive(Clone, Debug, PartialEq)]
pub struct FitFile {
    /// File as named in messages.
    pub file: String,
    text: String,
    /// Header names.
    pub names: Vec<String>,
}

/// How the velocity is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MotionColumn {
    /// A velocity column.
    Velocity,
    /// A position column, differentiated.
    Position,
}

/// The Fit tab's choices.
#[derive(Clone, Debug)]
pub struct FitSetup {
    /// Path typed or chosen.
    pub path: String,
    /// The file, once read.
    pub file: Option<FitFile>,
    /// Index of the time column.
    pub time: usize,
    /// Index of the velocity or position column.
    pub motion: usize,
    /// Whether it is a velocity or a position.
    pub motion_kind: MotionColumn,
    /// Index of the normal-load column (`None`: constant).
    pub load: Option<usize>,
    /// Index of the friction-force column.
    pub force: usize,
    /// Units of time, motion, load and force as typed (`s`, `mm/s`, `uN`).
    pub units: [String; 4],
    /// Normal load without a load column [N].
    pub constant_load_n: f64,
    /// The force column resists the motion (a load cell), rather than acting on the body.
    pub resisting: bool,
    /// Keys of the free parameters.
    pub free: Vec<String>,
    /// The law the free keys belong to (reset when the session's law changes).
    pub law_variant: String,
    /// Why the last load or start failed.
    pub error: Option<String>,
}

impl Default for FitSetup {
    fn default() -> Self {
        Self {
            path: String::new(),
            file: None,
            time: 0,
            motion: 0,
            motion_kind: MotionColumn::Velocity,
            load: None,
            force: 0,
            units: ["s".into(), "m/s".into(), "N".into(), "N".into()],
            constant_load_n: 1.0,
            resisting: true,
            free: Vec::new(),
            law_variant: String::new(),
            error: None,
        }
    }
}

/// Index of the first name containing any of `parts` (case-insensitive).
fn guess(names: &[String], parts: &[&str]) -> Option<usize> {
    names.iter().position(|n| {
        let n = n.to_ascii_lowercase();
        parts.iter().any(|p| n.contains(p))
    })
}

impl FitSetup {
    /// Reads `path` and guesses the roles from the header names.
    pub fn load(&mut self, path: &Path) {
        let file = path.display().to_string();
        let read = std::fs::read_to_string(path)
            .map_err(|e| format!("{file}: cannot read: {e}"))
            .and_then(|text| {
                column_names(&text, &file, None)
                    .map(|(names, time)| (text, names, time))
                    .map_err(|e| e.to_string())
            });
        match read {
            Ok((text, names, time)) => {
                self.time = time;
                let velocity = guess(&names, &["vel", "speed"]);
                let position = guess(&names, &["pos", "disp"]);
                (self.motion, self.motion_kind) = match (velocity, position) {
                    (Some(v), _) => (v, MotionColumn::Velocity),
                    (None, Some(x)) => (x, MotionColumn::Position),
                    _ => ((time + 1) % names.len().max(1), MotionColumn::Velocity),
                };
                self.units[1] = match self.motion_kind {
                    MotionColumn::Velocity => "m/s".into(),
                    MotionColumn::Position => "m".into(),
                };
                self.load = guess(&names, &["load", "normal", "fn"]);
                self.force = guess(&names, &["fric", "ff", "force", "ft"])
                    .filter(|&f| Some(f) != self.load)
                    .unwrap_or(names.len().saturating_sub(1));
                self.file = Some(FitFile { file, text, names });
                self.error = None;
            }
            // The file in use (if any) stays.
            Err(e) => self.error = Some(e),
        }
    }

    /// The measurement with the current choices, in SI units.
    pub fn data(&self) -> Result<ForceData, String> {
        let f = self.file.as_ref().ok_or("load a measurement file first")?;
        let spec = |i: usize, unit: &str| ColumnSpec {
            name: f.names[i].clone(),
            unit: unit.to_string(),
        };
        let motion = spec(self.motion, &self.units[1]);
        let columns = ForceColumns {
            time: Some(spec(self.time, &self.units[0])),
            velocity: (self.motion_kind == MotionColumn::Velocity).then(|| motion.clone()),
            position: (self.motion_kind == MotionColumn::Position).then_some(motion),
            load: self.load.map(|i| spec(i, &self.units[2])),
            force: Some(spec(self.force, &self.units[3])),
            sigma: None,
        };
        let names = columns.data_names();
        if names.contains(&f.names[self.time].as_str()) {
            return Err("the time column cannot also be a data column".into());
        }
        let table = parse_csv(
            &f.text,
            &f.file,
            CsvSelection {
                time: Some(&f.names[self.time]),
                columns: &names,
            },
        )
        .map_err(|e| e.to_string())?;
        let options = ForceOptions {
            constant_load_n: self.constant_load_n,
            sign: if self.resisting {
                ForceSign::Resisting
            } else {
                ForceSign::OnBody
            },
            ..ForceOptions::default()
        };
        ForceData::from_table(&table, &columns, options)
    }
}

impl TriboApp {
    /// Reads a measurement file for the Fit tab.
    pub(in crate::gui) fn open_fit_file(&mut self, path: &Path) {
        self.lab.fit_setup.path = path.display().to_string();
        self.lab.fit_setup.load(path);
    }

    /// The free keys for the session's law: the previous choice while the law is the same,
    /// else every parameter that is not a count.
    pub(in crate::gui) fn sync_fit_keys(&mut self) {
        let law = &self.session.preset.law;
        let setup = &mut self.lab.fit_setup;
        if setup.law_variant != law.variant() {
            setup.law_variant = law.variant().to_string();
            setup.free = law
                .info()
                .meta
                .iter()
                .filter(|m| !m.integer)
                .map(|m| m.key.to_string())
                .collect();
        }
    }

    /// Starts fitting the session's law (its slider values as the start) to the file.
    pub fn start_fit(&mut self) {
        self.sync_fit_keys();
        if self.lab.fit_setup.free.is_empty() {
            self.lab.fit_setup.error = Some("tick at least one parameter to fit".into());
            return;
        }
        match self.lab.fit_setup.data() {
            Ok(data) => {
                self.lab.fit_setup.error = None;
                let job = FitJob {
                    law: self.session.preset.law.clone(),
                    keys: self.lab.fit_setup.free.clone(),
                    data,
                    options: LawFitOptions::default(),
                    resisting: self.lab.fit_setup.resisting,
                };
                self.submit(Job::Fit(Box::new(job)));
            }
            Err(e) => self.lab.fit_setup.error = Some(e),
        }
    }

    /// Puts the fitted values into the live session (the law must still be the fitted one).
    pub fn use_fitted_values(&mut self) {
        let Some(out) = self.lab.fit.as_ref() else {
            return;
        };
        if out.fitted.variant() != self.session.preset.law.variant() {
            self.show_error(
                "Cannot use the fitted values",
                format!(
                    "the fit was made with the {} law and the session now uses {}; choose {} \
                     again or fit anew",
                    out.fitted.info().name,
                    self.session.preset.law.info().name,
                    out.fitted.info().name
                ),
            );
            return;
        }
        self.session.preset.law = out.fitted.clone();
        self.apply_preset();
    }
}
