//! File → Import measured series (CSV): a small window to choose the time and data columns,
//! the check of the time steps (uniform, or resample linearly on request) and the typed errors
//! of [`crate::analysis::measured`] with their `file:line:col`. Nothing changes until "Import"
//! succeeds: a broken file leaves the session and any earlier imported series as they were.

use std::path::{Path, PathBuf};

use eframe::egui;

use crate::analysis::measured::{
    CsvSelection, MeasuredSeries, MeasuredTable, Resample, column_names, parse_csv,
};
use crate::analysis::resample::{DEFAULT_SPACING_TOLERANCE, Spacing};
use crate::gui::TriboApp;
use crate::gui::session::Tab;

use super::{SeriesSource, short};

/// A series read from a CSV file.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedSeries {
    /// File as named in messages.
    pub file: String,
    /// Name of the time column.
    pub time_name: String,
    /// The uniform series.
    pub series: MeasuredSeries,
}

/// The file read with the current column choice.
#[derive(Clone, Debug)]
pub struct Checked {
    /// Time and data column.
    pub table: MeasuredTable,
    /// Step statistics of the time column.
    pub spacing: Spacing,
}

/// State of the import window.
#[derive(Clone, Debug)]
pub struct ImportDialog {
    /// File path.
    pub path: PathBuf,
    /// File name in messages.
    pub file: String,
    text: String,
    /// Header names (empty when the header is broken).
    pub names: Vec<String>,
    /// Index of the time column.
    pub time: usize,
    /// Index of the data column.
    pub data: usize,
    /// Resample a non-uniform record linearly onto its median step.
    pub resample: bool,
    /// The file read with the current choice, or the error in words (`file:line:col: …`).
    pub check: Result<Checked, String>,
}

impl ImportDialog {
    /// Reads the file and checks it with the default columns; `Err` only when it cannot be
    /// read at all.
    pub fn open(path: &Path) -> Result<Self, String> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{file}: cannot read: {e}"))?;
        let mut d = Self {
            path: path.to_path_buf(),
            file,
            text,
            names: Vec::new(),
            time: 0,
            data: 0,
            resample: false,
            check: Err(String::new()),
        };
        match column_names(&d.text, &d.file, None) {
            Ok((names, time)) => {
                d.data = (0..names.len()).find(|&k| k != time).unwrap_or(0);
                d.names = names;
                d.time = time;
                d.recheck();
            }
            Err(e) => d.check = Err(e.to_string()),
        }
        Ok(d)
    }

    /// Reads the rows again for the current column choice.
    pub fn recheck(&mut self) {
        if self.names.is_empty() {
            return;
        }
        if self.time == self.data {
            self.check = Err("choose a data column other than the time column".into());
            return;
        }
        let data = [self.names[self.data].as_str()];
        let sel = CsvSelection {
            time: Some(&self.names[self.time]),
            columns: &data,
        };
        self.check = parse_csv(&self.text, &self.file, sel)
            .map(|table| Checked {
                spacing: table.spacing(DEFAULT_SPACING_TOLERANCE),
                table,
            })
            .map_err(|e| e.to_string());
    }

    /// The series as it would be imported.
    pub fn series(&self) -> Result<ImportedSeries, String> {
        let checked = self.check.as_ref().map_err(Clone::clone)?;
        let policy = if self.resample {
            Resample::LinearToMedian
        } else {
            Resample::Never
        };
        let name = &self.names[self.data];
        let series = checked
            .table
            .series(name, DEFAULT_SPACING_TOLERANCE, policy)
            .map_err(|e| e.to_string())?;
        Ok(ImportedSeries {
            file: self.file.clone(),
            time_name: checked.table.time_name.clone(),
            series,
        })
    }
}

/// What the user did in the window this frame.
enum Action {
    None,
    Import,
    Fit,
    Close,
}

impl TriboApp {
    /// File → Import measured series (CSV)….
    pub(in crate::gui) fn import_csv_dialog(&mut self, ctx: &eframe::egui::Context) {
        self.ask_file(ctx, crate::gui::dialogs::DialogKind::ImportCsv, "");
    }

    /// Opens the import window for a CSV file (an unreadable file is an error message).
    pub(in crate::gui) fn open_csv_file(&mut self, path: &Path) {
        match ImportDialog::open(path) {
            Ok(d) => self.lab.import = Some(d),
            Err(e) => self.show_error("Cannot import the series", e),
        }
    }

    /// Draws the import window when open.
    pub(in crate::gui) fn import_window(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.lab.import.as_mut() else {
            return;
        };
        let mut open = true;
        let mut action = Action::None;
        egui::Window::new("Import measured series")
            .collapsible(false)
            .resizable(true)
            .default_width(560.0)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .open(&mut open)
            .show(ctx, |ui| action = contents(dialog, ui));
        match action {
            Action::Import => match dialog.series() {
                Ok(imported) => {
                    self.lab.import = None;
                    self.lab.imported = Some(imported);
                    self.session.view.lab.source = SeriesSource::Imported;
                    self.session.view.tab = Tab::Embedding;
                    self.start_series();
                }
                Err(e) => dialog.check = Err(e),
            },
            Action::Fit => {
                let path = dialog.path.clone();
                self.lab.import = None;
                self.open_fit_file(&path);
                self.session.view.tab = Tab::Fit;
            }
            Action::Close => self.lab.import = None,
            Action::None if !open => self.lab.import = None,
            Action::None => {}
        }
    }
}

fn column_combo(ui: &mut egui::Ui, label: &str, names: &[String], index: &mut usize) -> bool {
    let mut changed = false;
    egui::ComboBox::from_label(label)
        .selected_text(names.get(*index).map_or("", String::as_str))
        .show_ui(ui, |ui| {
            for (k, n) in names.iter().enumerate() {
                changed |= ui.selectable_value(index, k, n).changed();
            }
        });
    changed
}

fn contents(d: &mut ImportDialog, ui: &mut egui::Ui) -> Action {
    ui.label(egui::RichText::new(&d.file).monospace());
    if !d.names.is_empty() {
        ui.label(format!("{} columns: {}", d.names.len(), d.names.join(", ")));
        let mut changed = column_combo(ui, "Time column", &d.names, &mut d.time);
        changed |= column_combo(ui, "Data column", &d.names, &mut d.data);
        if changed {
            d.recheck();
        }
    }
    ui.separator();
    let mut can_import = false;
    match &d.check {
        Ok(c) => {
            let t = &c.table.time_s;
            ui.label(format!(
                "{} rows, t from {} s to {} s",
                t.len(),
                short(t[0]),
                short(t[t.len() - 1])
            ));
            if c.table.skipped_event_rows > 0 {
                ui.label(format!(
                    "{} rows flagged in the `event` column skipped (tribolab's rows at \
                     stick/slip switches, off the sampling grid)",
                    c.table.skipped_event_rows
                ));
            }
            let s = &c.spacing;
            if s.is_uniform() {
                ui.label(format!(
                    "Time steps uniform: t_s = {} s (worst step {:.3} % off the median)",
                    short((t[t.len() - 1] - t[0]) / (t.len() - 1) as f64),
                    100.0 * s.max_deviation
                ));
                can_import = true;
            } else {
                ui.label(
                    egui::RichText::new(format!(
                        "Time steps not uniform: median {} s, range [{}, {}] s, worst {:.3} % off \
                         the median after data row {} (tolerance {} %)",
                        short(s.median_s),
                        short(s.min_s),
                        short(s.max_s),
                        100.0 * s.max_deviation,
                        s.worst_step + 1,
                        100.0 * s.tolerance
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
                ui.checkbox(&mut d.resample, "Resample linearly to the median step");
                can_import = d.resample;
            }
        }
        Err(e) => {
            ui.label(
                egui::RichText::new(e)
                    .monospace()
                    .color(ui.visuals().error_fg_color),
            );
            ui.label("Nothing was imported; your session is unchanged.");
        }
    }
    let mut action = Action::None;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(can_import, egui::Button::new("Import and analyse"))
            .clicked()
        {
            action = Action::Import;
        }
        if ui
            .button("Fit a law to this file instead")
            .on_hover_text(
                "Open the file in the Fit tab, to fit a friction law to its velocity, load and \
                 force columns",
            )
            .clicked()
        {
            action = Action::Fit;
        }
        if ui.button("Cancel import").clicked() {
            action = Action::Close;
        }
    });
    action
}
