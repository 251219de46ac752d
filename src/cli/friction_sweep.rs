//! `tribolab friction`: mean friction against one parameter with error bars over noise seeds
//! (friction against log speed or temperature of the atomic models; the steady friction of
//! any system), one CSV row per value; `--fit` prints the thermally activated law fitted to
//! friction against speed on stderr.
//!
//! The whole sweep runs before anything is written; `--out` files are written atomically.

use std::io::Write;

use super::opts::Opts;
use super::{CliError, format_number};
use crate::analysis::activated_friction::fit_speed_sweep;
use crate::analysis::friction_sweep::{FrictionPoint, FrictionSweepSpec, Span, friction_sweep};
use crate::analysis::shard::{self, Shard};
use crate::analysis::sweep::linspace;
use crate::preset::Preset;
use crate::util::eng::format_si;

const VALUE_FLAGS: &[&str] = &[
    "--set",
    "--param",
    "--from",
    "--to",
    "--steps",
    "--seeds",
    "--transient",
    "--measure",
    "--threads",
    "--shard",
    "--out",
    "-o",
];
const SWITCHES: &[&str] = &["--log", "--fit", "--viscous", "--quiet"];

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

/// A span given as `20` (drive periods when the system has a drive period, else seconds) or
/// `20s` (seconds).
fn span(text: &str, flag: &str) -> Result<Span, CliError> {
    let t = text.trim();
    let (number, seconds) = match t.strip_suffix('s') {
        Some(n) => (n, true),
        None => (t, false),
    };
    let v: f64 = number
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| usage(format!("{flag}: `{text}` is not a non-negative number")))?;
    Ok(if seconds {
        Span::Seconds(v)
    } else {
        Span::DrivePeriods(v)
    })
}

/// Log-spaced values from `from` to `to`.
fn logspace(from: f64, to: f64, steps: usize) -> Vec<f64> {
    linspace(from.ln(), to.ln(), steps)
        .into_iter()
        .map(f64::exp)
        .collect()
}

pub(super) fn friction_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("friction", args, VALUE_FLAGS, SWITCHES)?;
    let preset = o.preset()?;
    let param = o
        .value("--param")
        .ok_or_else(|| usage("friction needs --param PATH (e.g. system.speed)"))?
        .to_string();
    let from = o
        .number("--from")?
        .ok_or_else(|| usage("friction needs --from A"))?;
    let to = o
        .number("--to")?
        .ok_or_else(|| usage("friction needs --to B"))?;
    let steps = o.count("--steps")?.unwrap_or(9).max(1);
    let log = o.switch("--log");
    if log && (from <= 0.0 || to <= 0.0) {
        return Err(usage("--log needs positive --from and --to"));
    }
    let seeds = o.count("--seeds")?.unwrap_or(4).max(1) as u64;
    let periods = preset.system.forcing_period_s().is_some();
    let default_span = |n: f64| {
        if periods {
            Span::DrivePeriods(n)
        } else {
            Span::Seconds(n * preset.run.duration_s / 30.0)
        }
    };
    let spec = FrictionSweepSpec {
        param: param.clone(),
        values: if log {
            logspace(from, to, steps)
        } else {
            linspace(from, to, steps)
        },
        seeds: (1..=seeds).collect(),
        transient: o
            .value("--transient")
            .map(|t| span(t, "--transient"))
            .transpose()?
            .unwrap_or(default_span(3.0)),
        measure: o
            .value("--measure")
            .map(|t| span(t, "--measure"))
            .transpose()?
            .unwrap_or(default_span(20.0)),
        threads: o.count("--threads")?,
    };
    let shard = match o.value("--shard") {
        Some(t) => Shard::parse(t).map_err(usage)?,
        None => Shard::ALL,
    };
    let mut spec = spec;
    let settings = shard_settings(&preset, &spec, from, to, log);
    let units = shard.units(spec.values.len());
    if units.is_empty() {
        return Err(usage(format!(
            "--shard: {steps} values split into at most {steps} shards"
        )));
    }
    if !shard.is_all() && o.switch("--fit") {
        return Err(usage(
            "--fit reads the whole sweep: merge the shards and fit the merged file's values",
        ));
    }
    spec.values = units.iter().map(|&i| spec.values[i]).collect();
    let quiet = o.switch("--quiet");
    let progress = |done: usize, total: usize| {
        if !quiet {
            eprintln!("friction sweep: {done}/{total} runs");
        }
    };
    let points = friction_sweep(&preset, &spec, None, Some(&progress))
        .map_err(|e| CliError::Failed(format!("{}: {e}", o.preset)))?;
    super::write_out(o.value("--out").or(o.value("-o")), |w: &mut dyn Write| {
        // The unsplit table stays plain CSV.
        if !shard.is_all() {
            shard::write_settings(w, &settings, shard)?;
        }
        let units = (!shard.is_all()).then_some(units.as_slice());
        write_csv(&param, &points, units, w)
    })?;
    if o.switch("--fit") {
        eprintln!(
            "{}",
            fit_report(&preset, &param, &points, o.switch("--viscous"))
        );
    }
    Ok(())
}

/// The `#` lines of a shard file (written only when the sweep is split).
fn shard_settings(
    preset: &Preset,
    spec: &FrictionSweepSpec,
    from: f64,
    to: f64,
    log: bool,
) -> Vec<String> {
    let span = |s: Span| match s {
        Span::Seconds(v) => format!("{} s", format_number(v)),
        Span::DrivePeriods(v) => format!("{} drive periods", format_number(v)),
    };
    vec![
        shard::FRICTION_SWEEP.to_string(),
        shard::preset_line(preset),
        format!(
            "{}{}={}:{}:{}{}",
            shard::VALUES,
            spec.param,
            format_number(from),
            format_number(to),
            spec.values.len(),
            if log { " (log)" } else { "" }
        ),
        format!(
            "# run: {} seeds, transient {}, measure {}",
            spec.seeds.len(),
            span(spec.transient),
            span(spec.measure)
        ),
    ]
}

/// One row per value; with `units` (a shard), each after its `# unit I` line.
fn write_csv(
    param: &str,
    points: &[FrictionPoint],
    units: Option<&[usize]>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        w,
        "{param},friction_n,sem_n,peak_n,peak_sem_n,slips_per_period,runs"
    )?;
    for (j, p) in points.iter().enumerate() {
        if let Some(i) = units.and_then(|u| u.get(j)) {
            writeln!(w, "{}{i}", shard::UNIT)?;
        }
        writeln!(
            w,
            "{},{},{},{},{},{},{}",
            format_number(p.value),
            format_number(p.mean_n),
            format_number(p.sem_n),
            format_number(p.peak_n),
            format_number(p.peak_sem_n),
            format_number(p.slips_per_period),
            p.per_seed_n.len()
        )?;
    }
    Ok(())
}

/// The activated law fitted to friction against the system's speed (the drag taken off and the
/// athermal force held, as the system says, unless `keep_drag`).
fn fit_report(preset: &Preset, param: &str, points: &[FrictionPoint], keep_drag: bool) -> String {
    let Some(mut study) = preset.system.thermal_friction() else {
        return "no fit: the system has no thermal bath and drive speed".into();
    };
    if param != format!("system.{}", study.keys.speed) {
        return format!(
            "no fit: the activated law is fitted to friction against system.{}",
            study.keys.speed
        );
    }
    if keep_drag {
        study.drag_kg_per_s = 0.0;
    }
    let line = |name: &str, beta: Option<f64>| match fit_speed_sweep(points, &study, beta) {
        Some(r) => format!(
            "{name}: F = {} − {}·|ln(v/{})|^{:.3} + {}·v  ({} of {} speeds, rms {})",
            format_si(r.law.f_c_n, "N", 4),
            format_si(r.law.delta_f_n, "N", 4),
            format_si(r.law.v_c_mps, "m/s", 3),
            r.law.exponent,
            format_number(r.drag_kg_per_s),
            r.points_used,
            points.len(),
            format_si(r.law.rms_n, "N", 2)
        ),
        None => format!("{name}: no fit (needs three speeds below the athermal friction)"),
    };
    let limit = match study.athermal_friction_n {
        Some(f) => format!("F_c held at the athermal friction {}", format_si(f, "N", 4)),
        None => "F_c fitted".into(),
    };
    format!(
        "thermally activated friction (Sang–Dubé–Grant); drag {} kg/s·v taken off; {limit}\n{}\n{}",
        format_number(study.drag_kg_per_s),
        line("free exponent", None),
        line("exponent 2/3", Some(2.0 / 3.0))
    )
}
