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

pub(super) fn sweep_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("sweep", args, VALUE_FLAGS, SWITCHES)?;
    let preset = o.preset()?;
    let spec = spec_from(&o, &preset)?;
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
    let write = |w: &mut dyn Write| match &table {
        Table::Points(r) => write_points(w, r),
        Table::Response(points) => write_response(w, &spec.param, points),
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
fn write_points(w: &mut dyn Write, r: &SweepResult) -> std::io::Result<()> {
    writeln!(w, "{},branch,section,t,{}", r.param, r.columns.join(","))?;
    let mut line = String::new();
    for run in &r.runs {
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
fn write_response(w: &mut dyn Write, param: &str, points: &[ResponsePoint]) -> std::io::Result<()> {
    writeln!(w, "{param},branch,drive_hz,response_hz,amplitude")?;
    for p in points {
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
        assert!(matches!(spec_from(&bad, &preset), Err(CliError::Usage(_))));
    }
}
