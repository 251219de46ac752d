//! The figure of a view from a run's record: columns chosen by their meaning ([`Role`]), the
//! preset's parameters in the caption.

use super::{Figure, FigureAxis, FigureSeries, Style};
use crate::analysis::rig_reading::{self, Mark, RigRecord};
use crate::analysis::spectrum::{Window, amplitude_spectrum};
use crate::integrate::column::find_role;
use crate::integrate::{Column, Role};
use crate::laws::FrictionLaw;
use crate::preset::Preset;
use crate::util::eng::format_si;

/// Most points drawn of one series (a longer record is strided).
const MAX_POINTS: usize = 20_000;

/// The views a figure can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureView {
    /// Displacement of each degree of freedom (up to four) against time.
    Position,
    /// Velocity against time.
    Velocity,
    /// Friction force of each contact (up to four) against time.
    Friction,
    /// Velocity against displacement of the first degree of freedom.
    Phase,
    /// Friction force against slip velocity of the first contact, with the law's steady
    /// characteristic.
    FrictionVelocity,
    /// Amplitude spectrum of the first displacement over the second half of the record.
    Spectrum,
    /// A characterisation rig's standard test.
    Rig,
}

impl FigureView {
    /// Every view with its command-line name.
    pub const ALL: [(FigureView, &'static str); 7] = [
        (FigureView::Position, "position"),
        (FigureView::Velocity, "velocity"),
        (FigureView::Friction, "friction"),
        (FigureView::Phase, "phase"),
        (FigureView::FrictionVelocity, "friction-velocity"),
        (FigureView::Spectrum, "spectrum"),
        (FigureView::Rig, "rig"),
    ];

    /// The view a command-line name stands for.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, k)| *k == key).map(|(v, _)| *v)
    }
}

/// A run's record: its columns and a way to read each.
pub struct Record<'a> {
    /// The columns.
    pub columns: &'a [Column],
    /// The values of column `i`, one per row.
    pub data: &'a dyn Fn(usize) -> &'a [f64],
}

impl Record<'_> {
    fn find(&self, role: Role) -> Option<usize> {
        find_role(self.columns, role)
    }
}

/// What a figure's caption says of the run: the preset, the law and the system with their
/// parameters, and the time span.
pub fn caption(preset: &Preset, t0: f64, t1: f64) -> String {
    let params = |set: &dyn crate::params::ParamSet| {
        set.meta()
            .iter()
            .filter_map(|m| {
                let v = set.get(m.key)?;
                Some(format!(
                    "{} = {}",
                    m.symbol,
                    crate::util::eng::format_si_short(v, m.unit, 4)
                ))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let law = if preset.system.uses_law() {
        format!(
            " {}: {}.",
            preset.law.info().name,
            params(preset.law.params())
        )
    } else {
        String::new()
    };
    format!(
        "{}. {}: {}.{law} Shown: t = {} … {}; tribolab {}.",
        preset.name,
        preset.system.info().name,
        params(preset.system.params()),
        format_si(t0, "s", 4),
        format_si(t1, "s", 4),
        env!("CARGO_PKG_VERSION")
    )
}

fn strided(points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let stride = (points.len() / MAX_POINTS).max(1);
    points.into_iter().step_by(stride).collect()
}

fn axis(label: &str, unit: &str) -> FigureAxis {
    FigureAxis {
        label: label.to_string(),
        unit: unit.to_string(),
        log: false,
    }
}

/// The figure of `view` from `record` of `preset`'s run; `Err` names what the run lacks.
pub fn figure(view: FigureView, preset: &Preset, record: &Record<'_>) -> Result<Figure, String> {
    let time = record
        .find(Role::Time)
        .ok_or("the record has no time column")?;
    let t = (record.data)(time);
    let (t0, t1) = (
        t.first().copied().unwrap_or(0.0),
        t.last().copied().unwrap_or(0.0),
    );
    let col = |i: usize| &record.columns[i];
    let against_time = |roles: Vec<Role>, what: &str, label: &str| -> Result<Figure, String> {
        let found: Vec<usize> = roles.iter().filter_map(|r| record.find(*r)).collect();
        let first = *found
            .first()
            .ok_or_else(|| format!("the {} has no {what}", preset.system.info().name))?;
        let series = found
            .iter()
            .map(|&i| FigureSeries {
                name: col(i).symbol.clone(),
                style: Style::Line,
                points: strided(
                    t.iter()
                        .zip((record.data)(i))
                        .map(|(&a, &b)| [a, b])
                        .collect(),
                ),
            })
            .collect();
        Ok(Figure {
            title: format!("{} against time", capitalised(label)),
            x: axis("time t", "s"),
            y: axis(label, &col(first).unit),
            series,
            caption: caption(preset, t0, t1),
        })
    };
    let pair = |xr: Role, yr: Role, what: &str| -> Result<(usize, usize), String> {
        match (record.find(xr), record.find(yr)) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(format!("the {} has no {what}", preset.system.info().name)),
        }
    };
    match view {
        FigureView::Position => against_time(
            (0..4).map(Role::Position).collect(),
            "displacement",
            "displacement",
        ),
        FigureView::Velocity => {
            against_time((0..4).map(Role::Velocity).collect(), "velocity", "velocity")
        }
        FigureView::Friction => against_time(
            (0..4).map(Role::FrictionForce).collect(),
            "frictional contact",
            "friction force",
        ),
        FigureView::Phase => {
            let (x, v) = pair(Role::Position(0), Role::Velocity(0), "degree of freedom")?;
            let (xs, vs) = ((record.data)(x), (record.data)(v));
            Ok(Figure {
                title: "Phase plane".to_string(),
                x: axis(&format!("displacement {}", col(x).symbol), &col(x).unit),
                y: axis(&format!("velocity {}", col(v).symbol), &col(v).unit),
                series: vec![FigureSeries {
                    name: String::new(),
                    style: Style::Line,
                    points: strided(xs.iter().zip(vs).map(|(&a, &b)| [a, b]).collect()),
                }],
                caption: caption(preset, t0, t1),
            })
        }
        FigureView::FrictionVelocity => {
            let (v, f) = pair(
                Role::SlipVelocity(0),
                Role::FrictionForce(0),
                "frictional contact",
            )?;
            let (vs, fs) = ((record.data)(v), (record.data)(f));
            let mut series = vec![FigureSeries {
                name: "run".into(),
                style: Style::Line,
                points: strided(vs.iter().zip(fs).map(|(&a, &b)| [a, b]).collect()),
            }];
            if preset.system.uses_law() {
                let law = preset.contact_laws().first().unwrap_or(&preset.law).build();
                let load = preset.system.nominal_normal_load_n(0).unwrap_or(1.0);
                let reach = vs.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-9);
                let curve = (0..=400)
                    .map(|k| -reach + 2.0 * reach * f64::from(k) / 400.0)
                    .filter(|v| *v != 0.0)
                    .map(|v| [v, law.steady_force(v, load, 1.0)])
                    .filter(|p| p[1].is_finite())
                    .collect();
                series.push(FigureSeries {
                    name: "steady characteristic".into(),
                    style: Style::Dashed,
                    points: curve,
                });
            }
            Ok(Figure {
                title: "Friction against slip velocity".to_string(),
                x: axis(&format!("slip velocity {}", col(v).symbol), &col(v).unit),
                y: axis(&format!("friction force {}", col(f).symbol), &col(f).unit),
                series,
                caption: caption(preset, t0, t1),
            })
        }
        FigureView::Spectrum => {
            let x = record
                .find(Role::Position(0))
                .ok_or("the run has no displacement")?;
            let flags = record.find(Role::EventFlag).map(|i| (record.data)(i));
            let rows: Vec<usize> = (t.len() / 2..t.len())
                .filter(|&r| flags.is_none_or(|f| f[r] == 0.0))
                .collect();
            if rows.len() < 16 {
                return Err("the record is too short for a spectrum (16 samples at least)".into());
            }
            let dt = (t[rows[rows.len() - 1]] - t[rows[0]]) / (rows.len() - 1) as f64;
            let signal: Vec<f64> = rows.iter().map(|&r| (record.data)(x)[r]).collect();
            let spectrum = amplitude_spectrum(&signal, dt, Window::Hann);
            // Up to half as far again as the last bin above 1 % of the largest: the rest is
            // flat noise.
            let top = spectrum.amplitudes.iter().copied().fold(0.0, f64::max);
            let last = spectrum
                .amplitudes
                .iter()
                .rposition(|&a| a > 0.01 * top)
                .unwrap_or(spectrum.amplitudes.len().saturating_sub(1));
            let f_max = 1.5 * spectrum.freqs_hz.get(last).copied().unwrap_or(0.0);
            let mut series = vec![FigureSeries {
                name: format!("spectrum of {}", col(x).symbol),
                style: Style::Line,
                points: spectrum
                    .freqs_hz
                    .iter()
                    .zip(&spectrum.amplitudes)
                    .filter(|(f, _)| **f <= f_max)
                    .map(|(&f, &a)| [f, a])
                    .collect(),
            }];
            if let Some(peak) = spectrum.meaningful_dominant() {
                series[0].name = format!(
                    "spectrum of {} (largest peak {})",
                    col(x).symbol,
                    format_si(peak.freq_hz, "Hz", 4)
                );
            }
            Ok(Figure {
                title: "Amplitude spectrum".to_string(),
                x: axis("frequency f", "Hz"),
                y: axis("amplitude", &col(x).unit),
                series,
                caption: caption(preset, t[rows[0]], t1),
            })
        }
        FigureView::Rig => {
            let programme = preset
                .system
                .characterisation()
                .ok_or("only a characterisation rig runs a standard test")?;
            let need = |r| record.find(r).ok_or("the rig's record is incomplete");
            let (x, v, f) = (
                need(Role::Position(0))?,
                need(Role::SlipVelocity(0))?,
                need(Role::FrictionForce(0))?,
            );
            let applied = record.find(Role::AppliedForce(0)).map(|i| (record.data)(i));
            let normal = record.find(Role::Position(1)).map(|i| (record.data)(i));
            let rec = RigRecord {
                time: t,
                position: (record.data)(x),
                velocity: (record.data)(v),
                friction: (record.data)(f),
                applied,
                normal,
            };
            let load = preset.system.nominal_normal_load_n(0).unwrap_or(1.0);
            let laws = preset.contact_laws();
            let law = preset
                .system
                .uses_law()
                .then(|| laws.first().unwrap_or(&preset.law));
            let reading = rig_reading::read(&programme, law, load, &rec);
            let convert = |a: &Option<rig_reading::Axis>| {
                a.as_ref().map_or_else(
                    || axis("", ""),
                    |a| FigureAxis {
                        label: a.label.clone(),
                        unit: a.unit.to_string(),
                        log: a.log,
                    },
                )
            };
            Ok(Figure {
                title: reading.title.clone(),
                x: convert(&reading.x),
                y: convert(&reading.y),
                series: reading
                    .series
                    .iter()
                    .map(|s| FigureSeries {
                        name: s.name.clone(),
                        style: match s.mark {
                            Mark::Points => Style::Points,
                            Mark::Line => Style::Line,
                            Mark::Dashed => Style::Dashed,
                        },
                        points: strided(s.points.clone()),
                    })
                    .collect(),
                caption: caption(preset, t0, t1),
            })
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
