//! `tribolab map`: a regime map over two parameters as CSV, one row per cell (or per cell of
//! one shard, `--shard K/N`), and `tribolab merge`: shard files joined into the file of the
//! unsplit map.
//!
//! The whole map (or shard) runs before anything is written; `--out` files are written
//! atomically.

use super::opts::Opts;
use super::{CliError, format_number};
use crate::analysis::dynamics::SectionChoice;
use crate::analysis::regime_map::{
    Axis, MapControl, MapProgress, MapSpec, Regime, Shard, csv, figure, regime_map, stability_curve,
};
use crate::analysis::sweep::Transient;
use crate::integrate::Role;

const VALUE_FLAGS: &[&str] = &[
    "--set",
    "--x",
    "--y",
    "--duration",
    "--transient",
    "--transient-returns",
    "--section",
    "--shard",
    "--threads",
    "--figure",
    "--out",
    "-o",
];
const SWITCHES: &[&str] = &["--quiet", "--lyapunov"];

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

fn spec_from(o: &Opts, preset: &crate::preset::Preset) -> Result<MapSpec, CliError> {
    let axis = |flag: &str| -> Result<Axis, CliError> {
        let text = o.value(flag).ok_or_else(|| {
            usage(format!(
                "map needs {flag} PATH=FROM:TO:STEPS (e.g. {flag} system.damping=0:20:50)"
            ))
        })?;
        Axis::parse(text).map_err(|e| usage(format!("{flag} {e}")))
    };
    let duration_s = o.number("--duration")?.unwrap_or(preset.run.duration_s);
    let transient = match (o.number("--transient")?, o.count("--transient-returns")?) {
        (Some(_), Some(_)) => {
            return Err(usage("give --transient or --transient-returns, not both"));
        }
        (Some(s), None) => Transient::Seconds(s),
        (None, Some(n)) => Transient::Returns(n),
        (None, None) => Transient::Seconds(0.5 * duration_s),
    };
    let (model, _) = preset.build_model();
    let section = match o.value("--section") {
        Some(s) => SectionChoice::parse(s, &model.section_names()).map_err(CliError::Usage)?,
        None => SectionChoice::Auto,
    };
    let shard = match o.value("--shard") {
        Some(s) => Shard::parse(s).map_err(usage)?,
        None => Shard::ALL,
    };
    Ok(MapSpec {
        x: axis("--x")?,
        y: axis("--y")?,
        duration_s,
        transient,
        section,
        shard,
        threads: o.count("--threads")?,
        lyapunov: o.switch("--lyapunov"),
    })
}

pub(super) fn map_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("map", args, VALUE_FLAGS, SWITCHES)?;
    let preset = o.preset()?;
    let spec = spec_from(&o, &preset)?;
    let quiet = o.switch("--quiet");
    let progress = |p: &MapProgress<'_>| {
        if !quiet && (p.done * 20 / p.total != (p.done - 1) * 20 / p.total || p.done == p.total) {
            eprintln!(
                "map: {}/{} cells ({} = {}, {} = {}: {})",
                p.done,
                p.total,
                spec.x.param,
                format_number(p.cell.x),
                spec.y.param,
                format_number(p.cell.y),
                p.cell.regime.describe()
            );
        }
    };
    let started = std::time::Instant::now();
    let cells = regime_map(
        &preset,
        &spec,
        MapControl {
            cancel: None,
            progress: Some(&progress),
        },
    )
    .map_err(|e| CliError::Failed(format!("{}: {e}", o.preset)))?;
    if !quiet {
        let count = |r: fn(&Regime) -> bool| cells.iter().filter(|c| r(&c.regime)).count();
        eprintln!(
            "map: {} cells of {} model-s in {:.2} s wall: {} steady, {} periodic, {} \
             quasi-periodic, {} chaotic, {} unsettled, {} failed",
            cells.len(),
            format_number(spec.duration_s),
            started.elapsed().as_secs_f64(),
            count(|r| *r == Regime::Steady),
            count(|r| matches!(r, Regime::Periodic(_))),
            count(|r| *r == Regime::QuasiPeriodic),
            count(|r| *r == Regime::Chaotic),
            count(|r| *r == Regime::Unsettled),
            count(|r| *r == Regime::Failed),
        );
    }
    let unit = preset
        .build_runner()
        .ok()
        .and_then(|r| {
            r.columns()
                .into_iter()
                .find(|c| c.role == Role::Position(0))
        })
        .map(|c| c.unit)
        .unwrap_or_default();
    if let Some(path) = o.value("--figure") {
        let boundary = stability_curve(&preset, &spec);
        let text = figure::svg(&preset, &spec, &cells, &boundary);
        super::write_out(Some(path), |w| w.write_all(text.as_bytes()))?;
    }
    super::write_out(o.value("--out").or(o.value("-o")), |w| {
        csv::write(w, &preset, &spec, &unit, &cells)
    })
}

/// `tribolab merge SHARD.csv... [--out FILE]`.
pub(super) fn merge_cmd(args: &[String]) -> Result<(), CliError> {
    let mut files = Vec::new();
    let mut out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = super::opts::split_flag(a);
        match flag {
            "--out" | "-o" => out = Some(super::opts::flag_value(flag, &inline, &mut it)?),
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(CliError::UnknownOption(f.to_string()));
            }
            _ => files.push(a.clone()),
        }
    }
    if files.is_empty() {
        return Err(usage("merge needs the shard files of one map"));
    }
    let mut texts = Vec::with_capacity(files.len());
    for f in &files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| CliError::Failed(format!("{f}: cannot read: {e}")))?;
        texts.push((f.clone(), text));
    }
    let merged = csv::merge(&texts).map_err(CliError::Failed)?;
    super::write_out(out.as_deref(), |w| w.write_all(merged.as_bytes()))
}
