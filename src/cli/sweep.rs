//! `tribolab sweep`: a bifurcation (orbit) diagram as CSV — one row per Poincaré point, the
//! parameter value first — or, with `--response`, the main response frequency against the
//! drive frequency (the bench's belt turn; S1 Fig 61), one row per run.
//!
//! The whole sweep runs before anything is written, and `--out` files are written atomically:
//! a failed or interrupted sweep leaves no file behind.

use std::io::Write;

use super::opts::Opts;
use super::{CliError, format_number};
use crate::analysis::dynamics::SectionChoice;
use crate::analysis::response::{ResponsePoint, response_frequencies};
use crate::analysis::shard::{self, Shard};
use crate::analysis::sweep::{
    SweepControl, SweepProgress, SweepResult, SweepSpec, SweepStart, Transient, linspace, sweep,
};

const VALUE_FLAGS: &[&str] = &[
    "--set",
    "--param",
    "--from",
    "--to",
    "--steps",
    "--duration",
    "--transient",
    "--transient-returns",
    "--section",
    "--threads",
    "--shard",
    "--out",
    "-o",
];
const SWITCHES: &[&str] = &["--fixed", "--response", "--quiet"];

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

fn spec_from(o: &Opts, preset: &crate::preset::Preset) -> Result<SweepSpec, CliError> {
    let param = o
        .value("--param")
        .ok_or_else(|| usage("sweep needs --param PATH (e.g. system.wheel_rpm)"))?;
    let from = o
        .number("--from")?
        .ok_or_else(|| usage("sweep needs --from A"))?;
    let to = o
        .number("--to")?
        .ok_or_else(|| usage("sweep needs --to B"))?;
    let steps = o
        .count("--steps")?
        .ok_or_else(|| usage("sweep needs --steps N"))?;
    if steps == 0 {
        return Err(usage("--steps must be at least 1"));
    }
    let duration_s = o.number("--duration")?.unwrap_or(preset.run.duration_s);
    let transient = match (o.number("--transient")?, o.count("--transient-returns")?) {
        (Some(_), Some(_)) => {
            return Err(usage("give --transient or --transient-returns, not both"));
        }
        (Some(s), None) => Transient::Seconds(s),
        (None, Some(n)) => Transient::Returns(n),
        (None, None) => Transient::default(),
    };
    let (model, _) = preset.build_model();
    let section = match o.value("--section") {
        Some(s) => SectionChoice::parse(s, &model.section_names()).map_err(CliError::Usage)?,
        None => SectionChoice::Auto,
    };
    Ok(SweepSpec {
        param: param.to_string(),
        values: linspace(from, to, steps),
        start: if o.switch("--fixed") {
            SweepStart::Fixed
        } else {
            SweepStart::Continue
        },
        duration_s,
        transient,
        section,
        capture: None,
        threads: o.count("--threads")?,
    })
}

/// A fixed-start sweep cut to one shard's values: the settings lines of its file and the
/// value indices it runs.
struct Sharded {
    shard: Shard,
    settings: Vec<String>,
    units: Vec<usize>,
}

fn shard_of(
    o: &Opts,
    preset: &crate::preset::Preset,
    spec: &mut SweepSpec,
) -> Result<Option<Sharded>, CliError> {
    let Some(text) = o.value("--shard") else {
        return Ok(None);
    };
    let shard = Shard::parse(text).map_err(usage)?;
    if shard.is_all() {
        return Ok(None);
    }
    if spec.start != SweepStart::Fixed {
        return Err(usage(
            "--shard needs --fixed: a continuation sweep starts each value from the end of the \
             previous one, so its values cannot run apart",
        ));
    }
    let transient = match spec.transient {
        Transient::Seconds(s) => format!("{} s", format_number(s)),
        Transient::Returns(n) => format!("{n} returns"),
    };
    let settings = vec![
        shard::SWEEP.to_string(),
        shard::preset_line(preset),
        format!(
            "{}{}={}:{}:{}",
            shard::VALUES,
            spec.param,
            format_number(spec.values[0]),
            format_number(spec.values[spec.values.len() - 1]),
            spec.values.len()
        ),
        format!(
            "# run: fixed start, duration {} s, transient {transient}, section {}, {}",
            format_number(spec.duration_s),
            spec.section.describe(),
            if o.switch("--response") {
                "response frequencies"
            } else {
                "section points"
            }
        ),
    ];
    let units = shard.units(spec.values.len());
    if units.is_empty() {
        return Err(usage(format!(
            "--shard {text}: a sweep of {} values splits into at most {} shards",
            spec.values.len(),
            spec.values.len()
        )));
    }
    spec.values = units.iter().map(|&i| spec.values[i]).collect();
    Ok(Some(Sharded {
        shard,
        settings,
        units,
    }))
}

pub(super) fn sweep_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("sweep", args, VALUE_FLAGS, SWITCHES)?;
    let preset = o.preset()?;
    let mut spec = spec_from(&o, &preset)?;
    let sharded = shard_of(&o, &preset, &mut spec)?;
    let quiet = o.switch("--quiet");
    let total = spec.total_runs();
    // Progress on stderr in steps of 5 %.
    let progress = |p: &SweepProgress<'_>| {
        if !quiet && (p.done * 20 / p.total != (p.done - 1) * 20 / p.total || p.done == p.total) {
            eprintln!(
                "sweep: {}/{} runs ({} = {}, {} branch)",
                p.done,
                p.total,
                spec.param,
                format_number(p.run.value),
                p.run.branch
            );
        }
    };
    let control = SweepControl {
        cancel: None,
        progress: Some(&progress),
    };
    let started = std::time::Instant::now();
    let fail = |e: crate::analysis::SweepError| CliError::Failed(format!("{}: {e}", o.preset));
    let table = if o.switch("--response") {
        Table::Response(response_frequencies(&preset, &spec, control).map_err(fail)?)
    } else {
        let result = sweep(&preset, &spec, control).map_err(fail)?;
        let unsettled = result.runs.iter().filter(|r| r.unsettled).count();
        if unsettled > 0 {
            eprintln!(
                "warning: {unsettled} run(s) ended before their transient was over (rows marked \
                 `unsettled`): lengthen --duration or set --transient SECONDS"
            );
        }
        Table::Points(result)
    };
    let units = sharded.as_ref().map(|s| s.units.as_slice());
    let write = |w: &mut dyn Write| {
        if let Some(s) = &sharded {
            shard::write_settings(w, &s.settings, s.shard)?;
        }
        match &table {
            Table::Points(r) => write_points(w, r, units),
            Table::Response(points) => write_response(w, &spec.param, points, units),
        }
    };
    if !quiet {
        eprintln!(
            "sweep: {total} runs of {} model-s in {:.2} s wall",
            format_number(spec.duration_s),
            started.elapsed().as_secs_f64()
        );
    }
    super::write_out(o.value("--out").or(o.value("-o")), |w| write(w))
}

/// What the sweep produced.
enum Table {
    Points(SweepResult),
    Response(Vec<ResponsePoint>),
}

/// Short section label for CSV: the name up to its parenthesis.
fn short(section: &str) -> &str {
    section.split(" (").next().unwrap_or(section).trim()
}

/// `PARAM,branch,section,t,<model columns>`; a run without section points after its transient
/// contributes one row of its final state, `final state` (settled: it stopped returning) or
/// `unsettled` (still returning when the run ended, before the transient's returns were done).
/// With `units` (a shard), each run's rows follow a `# unit I` line.
fn write_points(
    w: &mut dyn Write,
    r: &SweepResult,
    units: Option<&[usize]>,
) -> std::io::Result<()> {
    writeln!(w, "{},branch,section,t,{}", r.param, r.columns.join(","))?;
    let mut line = String::new();
    for (j, run) in r.runs.iter().enumerate() {
        unit_line(w, units, j)?;
        let section = if run.unsettled {
            "unsettled"
        } else if run.final_state {
            "final state"
        } else {
            short(&run.section)
        };
        for p in &run.points {
            line.clear();
            line.push_str(&format_number(run.value));
            line.push(',');
            line.push_str(run.branch.name());
            line.push(',');
            line.push_str(section);
            line.push(',');
            line.push_str(&format_number(p.t_s));
            for v in &p.row {
                line.push(',');
                line.push_str(&format_number(*v));
            }
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
    }
    Ok(())
}

/// `PARAM,branch,drive_hz,response_hz,amplitude` (empty response when nothing oscillates;
/// `drive_hz` is the frequency of the drive's cycle, the bench's belt turn).
fn write_response(
    w: &mut dyn Write,
    param: &str,
    points: &[ResponsePoint],
    units: Option<&[usize]>,
) -> std::io::Result<()> {
    writeln!(w, "{param},branch,drive_hz,response_hz,amplitude")?;
    for (j, p) in points.iter().enumerate() {
        unit_line(w, units, j)?;
        writeln!(
            w,
            "{},{},{},{},{}",
            format_number(p.value),
            p.branch.name(),
            format_number(p.drive_hz),
            p.response_hz.map(format_number).unwrap_or_default(),
            format_number(p.amplitude)
        )?;
    }
    Ok(())
}

/// The `# unit I` line before the rows of run `j` of a shard.
fn unit_line(w: &mut dyn Write, units: Option<&[usize]>, j: usize) -> std::io::Result<()> {
    match units.and_then(|u| u.get(j)) {
        Some(i) => writeln!(w, "{}{i}", shard::UNIT),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn builds_the_spec_from_flags() {
        let o = Opts::parse(
            "sweep",
            &s(&[
                "coulomb_stick_slip_undamped",
                "--param",
                "law.mu_s",
                "--from",
                "0.35",
                "--to=0.45",
                "--steps",
                "3",
                "--duration",
                "10",
                "--transient",
                "4",
                "--fixed",
            ]),
            VALUE_FLAGS,
            SWITCHES,
        )
        .unwrap();
        let preset = o.preset().unwrap();
        let spec = spec_from(&o, &preset).unwrap();
        assert_eq!(spec.values, vec![0.35, 0.4, 0.45]);
        assert_eq!(spec.transient, Transient::Seconds(4.0));
        assert_eq!(spec.start, SweepStart::Fixed);
        assert_eq!(spec.duration_s, 10.0);
        assert_eq!(short("stick onset (v_rel = 0, rising)"), "stick onset");
        let bad = Opts::parse(
            "sweep",
            &s(&["coulomb_stick_slip_undamped", "--from", "1"]),
            VALUE_FLAGS,
            SWITCHES,
        )
        .unwrap();
        assert!(matches!(
            spec_from(&bad, &preset),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
    }
}
