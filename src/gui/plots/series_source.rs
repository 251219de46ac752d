//! The "simulation / imported series" selector of the attractor and embedding tabs, and the
//! series it selects.

use eframe::egui;

use crate::gui::TriboApp;
use crate::gui::jobs::{SeriesInput, SeriesOrigin};
use crate::gui::lab::SeriesSource;
use crate::gui::lab::series::{from_history, from_imported, signals};

/// Draws the data-source combo and, for the simulation, the signal combo.
pub fn row(app: &mut TriboApp, ui: &mut egui::Ui) {
    let imported = app
        .lab
        .imported()
        .map(|i| format!("imported: {} ({})", file_name(&i.file), i.series.name));
    let s = &mut app.session.view.lab;
    if imported.is_none() {
        s.source = SeriesSource::Simulation;
    }
    ui.horizontal_wrapped(|ui| {
        let selected = match s.source {
            SeriesSource::Simulation => "simulation".to_string(),
            SeriesSource::Imported => imported.clone().unwrap_or_default(),
        };
        egui::ComboBox::from_label("Data")
            .selected_text(selected)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut s.source, SeriesSource::Simulation, "simulation");
                if let Some(name) = &imported {
                    ui.selectable_value(&mut s.source, SeriesSource::Imported, name);
                }
            });
        match s.source {
            SeriesSource::Simulation => {
                let names = signals(&app.history);
                if !names.is_empty() && !names.contains(&s.signal) {
                    s.signal = names[0].clone();
                }
                egui::ComboBox::from_label("Signal")
                    .selected_text(s.signal.clone())
                    .show_ui(ui, |ui| {
                        for n in &names {
                            ui.selectable_value(&mut s.signal, n.clone(), n);
                        }
                    });
            }
            SeriesSource::Imported => {
                if let Some(i) = app.lab.imported() {
                    ui.label(
                        egui::RichText::new(format!(
                            "{} samples, t_s = {} s{}",
                            i.series.values.len(),
                            crate::gui::lab::short(i.series.dt_s),
                            if i.series.resampled {
                                " (resampled)"
                            } else {
                                ""
                            }
                        ))
                        .weak(),
                    );
                }
            }
        }
    });
}

/// The selected series, at most `max` samples.
pub fn current(app: &TriboApp, max: usize) -> Option<SeriesInput> {
    let s = &app.session.view.lab;
    match s.source {
        SeriesSource::Simulation => from_history(&app.history, &s.signal, max),
        SeriesSource::Imported => app.lab.imported().map(|i| from_imported(i, max)),
    }
}

/// Whether a result was computed on the series now selected.
pub fn is_current(app: &TriboApp, origin: &SeriesOrigin, name: &str) -> bool {
    let s = &app.session.view.lab;
    match (s.source, origin) {
        (SeriesSource::Simulation, SeriesOrigin::Simulation) => s.signal == name,
        (SeriesSource::Imported, SeriesOrigin::Imported { file }) => app
            .lab
            .imported()
            .is_some_and(|i| i.file == *file && i.series.name == name),
        _ => false,
    }
}

/// The last path component of a file name.
pub fn file_name(file: &str) -> &str {
    std::path::Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file)
}
