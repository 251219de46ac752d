//! The Fit tab: a friction measurement, the roles and units of its columns, the session's law
//! with the parameters to fit (the sliders give the start values); then the fit on the
//! analysis thread, the measured force against the fitted one with the residuals, and the
//! estimates with their 95 % intervals and verdicts — a parameter the data do not determine is
//! shown as such, never as a bare number. "Use these values" puts the fitted law into the live
//! session.

use eframe::egui;
use egui_plot::{Legend, Line, Plot, Points};

use super::job_bar;
use crate::gui::TriboApp;
use crate::gui::dialogs::DialogKind;
use crate::gui::jobs::{FitOutput, JobKind};
use crate::gui::lab::fit::{FitSetup, MotionColumn};
use crate::identify::report::{digits, verdict};
use crate::util::eng::format_si;

/// Most points a plot draws (every n-th sample beyond).
const MAX_PLOT_POINTS: usize = 4000;
const MEASURED_COLOR: egui::Color32 = egui::Color32::from_rgb(90, 140, 210);
const FITTED_COLOR: egui::Color32 = egui::Color32::from_rgb(220, 90, 40);

/// Draws the tab.
pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    app.sync_fit_keys();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let has_result = app.lab.fit.is_some();
            egui::CollapsingHeader::new("Measurement and parameters")
                .default_open(true)
                .open(if has_result && !app.lab.is_running(JobKind::Fit) {
                    None
                } else {
                    Some(true)
                })
                .show(ui, |ui| {
                    data_section(app, ui);
                    ui.separator();
                    params_section(app, ui);
                });
            let enabled = if app.lab.fit_setup.file.is_none() {
                Err("Load a measurement file first.")
            } else if app.lab.fit_setup.free.is_empty() {
                Err("Tick at least one parameter to fit.")
            } else {
                Ok(())
            };
            if job_bar::show(app, ui, JobKind::Fit, "Fit the law", enabled) {
                app.start_fit();
            }
            if let Some(e) = &app.lab.fit_setup.error {
                ui.label(egui::RichText::new(e).color(ui.visuals().error_fg_color));
            }
            if app.lab.fit.is_some() {
                ui.separator();
                results(app, ui, reset);
            }
        });
}

fn data_section(app: &mut TriboApp, ui: &mut egui::Ui) {
    let mut load = false;
    let mut browse = false;
    ui.horizontal(|ui| {
        let label = ui.label("Measurement file");
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut app.lab.fit_setup.path)
                    .hint_text("path to a CSV, TSV or text file")
                    .desired_width(360.0),
            )
            .labelled_by(label.id);
        load |= edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        load |= ui.button("Load").clicked();
        browse = ui.button("Browse…").clicked();
    });
    if browse {
        let ctx = ui.ctx().clone();
        app.ask_file(&ctx, DialogKind::FitData, "");
    }
    if load {
        let path = std::path::PathBuf::from(app.lab.fit_setup.path.trim());
        app.open_fit_file(&path);
    }
    let setup = &mut app.lab.fit_setup;
    let Some(file) = setup.file.clone() else {
        ui.label(
            egui::RichText::new(
                "Columns: time, sliding velocity (or position), normal load (optional) and \
                 friction force, in any units.",
            )
            .weak(),
        );
        return;
    };
    ui.label(format!(
        "{} — {} columns: {}",
        file.file,
        file.names.len(),
        file.names.join(", ")
    ));
    egui::Grid::new("fit_columns")
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            ui.label("Time column");
            column_combo(ui, "fit_time", &file.names, &mut setup.time);
            unit_field(ui, &mut setup.units[0], "time unit");
            ui.end_row();

            ui.horizontal(|ui| {
                let before = setup.motion_kind;
                ui.radio_value(&mut setup.motion_kind, MotionColumn::Velocity, "Velocity");
                ui.radio_value(&mut setup.motion_kind, MotionColumn::Position, "Position");
                if setup.motion_kind != before {
                    setup.units[1] = match setup.motion_kind {
                        MotionColumn::Velocity => "m/s".into(),
                        MotionColumn::Position => "m".into(),
                    };
                }
            });
            column_combo(ui, "fit_motion", &file.names, &mut setup.motion);
            unit_field(ui, &mut setup.units[1], "velocity or position unit");
            ui.end_row();

            ui.label("Normal load column");
            load_combo(ui, &file.names, setup);
            if setup.load.is_some() {
                unit_field(ui, &mut setup.units[2], "load unit");
            } else {
                ui.add(
                    egui::DragValue::new(&mut setup.constant_load_n)
                        .range(1e-9..=1e9)
                        .speed(0.01)
                        .suffix(" N"),
                )
                .on_hover_text("The constant normal load when the file has no load column");
            }
            ui.end_row();

            ui.label("Friction force column");
            column_combo(ui, "fit_force", &file.names, &mut setup.force);
            unit_field(ui, &mut setup.units[3], "force unit");
            ui.end_row();
        });
    ui.checkbox(
        &mut setup.resisting,
        "The recorded force resists the motion (a load cell: positive while sliding forwards)",
    );
    if setup.motion_kind == MotionColumn::Position {
        ui.label(
            egui::RichText::new(
                "The velocity is the slope of a local quadratic fit over 11 samples.",
            )
            .weak(),
        );
    }
}

fn column_combo(ui: &mut egui::Ui, id: &str, names: &[String], index: &mut usize) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(names.get(*index).map_or("", String::as_str))
        .show_ui(ui, |ui| {
            for (k, n) in names.iter().enumerate() {
                ui.selectable_value(index, k, n);
            }
        });
}

fn load_combo(ui: &mut egui::Ui, names: &[String], setup: &mut FitSetup) {
    let shown = setup
        .load
        .and_then(|i| names.get(i))
        .map_or("(constant)", String::as_str);
    egui::ComboBox::from_id_salt("fit_load")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut setup.load, None, "(constant)");
            for (k, n) in names.iter().enumerate() {
                ui.selectable_value(&mut setup.load, Some(k), n);
            }
        });
}

fn unit_field(ui: &mut egui::Ui, unit: &mut String, what: &str) {
    ui.horizontal(|ui| {
        let label = ui.label("unit");
        ui.add(egui::TextEdit::singleline(unit).desired_width(60.0))
            .labelled_by(label.id)
            .on_hover_text(format!(
                "The {what} of the values in the file (an SI unit with a prefix: mm, uN, mm/s, \
                 ms)"
            ));
    });
}

fn params_section(app: &mut TriboApp, ui: &mut egui::Ui) {
    let law = &app.session.preset.law;
    let info = law.info();
    ui.label(format!(
        "Law: {} — choose another in the side panel; its sliders give the start values.",
        info.name
    ));
    let params = law.params();
    let free = &mut app.lab.fit_setup.free;
    ui.horizontal_wrapped(|ui| {
        for m in info.meta.iter().filter(|m| !m.integer) {
            let value = params.get(m.key).unwrap_or(m.default);
            let mut on = free.iter().any(|k| k == m.key);
            let label = format!("{} = {}", m.symbol, format_si(value, m.unit, 4));
            if ui
                .checkbox(&mut on, label)
                .on_hover_text(format!("{} ({})", m.label, m.key))
                .changed()
            {
                if on {
                    free.push(m.key.to_string());
                } else {
                    free.retain(|k| k != m.key);
                }
            }
        }
    });
}

fn results(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(out) = app.lab.fit.as_ref() else {
        return;
    };
    let r = &out.result;
    let used = out.used.len();
    let total = out.data.len();
    let state = r
        .stages
        .last()
        .map_or(String::new(), |s| s.termination.clone());
    let mut summary = format!(
        "{} — {state}; residual RMS {} (at the start {}); {used} of {total} samples",
        out.fitted.info().name,
        format_si(r.rms, "N", 4),
        format_si(r.start_rms, "N", 4),
    );
    if used < total {
        summary += &format!(
            " ({} slower than the stick speed {} left out)",
            total - used,
            format_si(out.stick_speed_mps, "m/s", 3)
        );
    }
    summary += &format!(
        "; force parameters at the nominal load {}",
        format_si(out.nominal_load_n, "N", 4)
    );
    ui.label(summary);
    estimates_table(ui, out);
    correlations(ui, out);
    ui.add_space(6.0);
    let mut use_values = false;
    ui.horizontal(|ui| {
        use_values = ui
            .button("Use these values")
            .on_hover_text(
                "Put the fitted law into the session (parameters the data did not determine keep \
                 their start values)",
            )
            .clicked();
    });
    plots(ui, out, reset);
    if use_values {
        app.use_fitted_values();
    }
}

fn estimates_table(ui: &mut egui::Ui, out: &FitOutput) {
    egui::Grid::new("fit_estimates")
        .striped(true)
        .num_columns(5)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for h in [
                "parameter",
                "estimate",
                "standard error",
                "95 % interval",
                "verdict",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for e in &out.result.statistics.estimates {
                let unit = e.param.unit.as_str();
                ui.label(format!("{} ({})", e.param.symbol, e.param.key));
                if e.is_determined() {
                    let n = digits(e.value, e.std_error.unwrap_or(0.0));
                    ui.label(format_si(e.value, unit, n));
                    ui.label(e.std_error.map_or("—".into(), |s| format_si(s, unit, 2)));
                    ui.label(e.interval.map_or("—".into(), |(a, b)| {
                        format!("{} … {}", format_si(a, unit, n), format_si(b, unit, n))
                    }));
                } else {
                    ui.label("not determined");
                    ui.label("—");
                    ui.label(
                        egui::RichText::new(format!("ended at {}", format_si(e.value, unit, 3)))
                            .weak(),
                    );
                }
                let text = egui::RichText::new(verdict(e));
                ui.label(if e.flags.is_empty() {
                    text
                } else {
                    text.color(ui.visuals().warn_fg_color)
                });
                ui.end_row();
            }
        });
}

/// The correlation matrix, folded away by default (pairs above 0.99 are in the verdicts).
fn correlations(ui: &mut egui::Ui, out: &FitOutput) {
    let s = &out.result.statistics;
    if s.estimates.len() < 2 {
        return;
    }
    egui::CollapsingHeader::new("Correlations of the estimates")
        .default_open(false)
        .show(ui, |ui| {
            egui::Grid::new("fit_correlations")
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    ui.label("");
                    for e in &s.estimates {
                        ui.strong(&e.param.symbol);
                    }
                    ui.end_row();
                    for (a, row) in s.correlation.iter().enumerate() {
                        ui.strong(&s.estimates[a].param.symbol);
                        for r in row {
                            ui.label(if r.is_finite() {
                                format!("{r:+.3}")
                            } else {
                                "—".into()
                            });
                        }
                        ui.end_row();
                    }
                });
        });
}

fn plots(ui: &mut egui::Ui, out: &FitOutput, reset: bool) {
    let d = &out.data;
    let stride = d.len().div_ceil(MAX_PLOT_POINTS).max(1);
    // Shown as recorded: a load cell's friction is the negative of the force on the body.
    let sign = if out.resisting { -1.0 } else { 1.0 };
    let shown = |f: f64| sign * f;
    let measured: Vec<[f64; 2]> = (0..d.len())
        .step_by(stride)
        .map(|i| [d.t_s[i], shown(d.force_n[i])])
        .collect();
    let fitted: Vec<[f64; 2]> = (0..d.len())
        .step_by(stride)
        .map(|i| [d.t_s[i], shown(out.predicted[i])])
        .collect();
    let residuals: Vec<[f64; 2]> = out
        .used
        .iter()
        .step_by(stride)
        .map(|&i| [d.t_s[i], shown(out.predicted[i]) - shown(d.force_n[i])])
        .collect();
    // Both plots on screen below the table when there is room: residuals 110 px high.
    let height = (ui.available_height() - 150.0).clamp(180.0, 420.0);
    let mut force = crate::gui::plots::ticks::readable(Plot::new("fit_force"))
        .height(height)
        .legend(Legend::default())
        .x_axis_label("time t [s]")
        .y_axis_label("friction F [N] (as recorded)")
        .x_axis_formatter(|m, _| format_si(m.value, "s", 3))
        .y_axis_formatter(|m, _| format_si(m.value, "N", 3))
        .link_axis(egui::Id::unique("fit_time_axis"), [true, false]);
    let mut resid = crate::gui::plots::ticks::readable(Plot::new("fit_residuals"))
        .height(110.0)
        .legend(Legend::default())
        .x_axis_label("time t [s]")
        .y_axis_label("residual [N]")
        .x_axis_formatter(|m, _| format_si(m.value, "s", 3))
        .y_axis_formatter(|m, _| format_si(m.value, "N", 2))
        .link_axis(egui::Id::unique("fit_time_axis"), [true, false]);
    if reset {
        force = force.reset();
        resid = resid.reset();
    }
    force.show(ui, |p| {
        p.points(
            Points::new("measured", measured)
                .color(MEASURED_COLOR)
                .radius(1.5),
        );
        p.line(Line::new("fitted", fitted).color(FITTED_COLOR).width(1.5));
    });
    resid.show(ui, |p| {
        p.points(
            Points::new("fitted − measured", residuals)
                .color(MEASURED_COLOR)
                .radius(1.2),
        );
    });
}
