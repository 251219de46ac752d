//! `tribolab analyze FILE.csv`: the time-series chain (spectrum, AMI delay, Cao dimension,
//! largest exponent) on one column of a measured or simulated CSV record.

use std::io::Write;
use std::path::Path;

use super::opts::{flag_value, split_flag};
use super::{CliError, stdout_result};
use crate::analysis::Window;
use crate::analysis::measured::{CsvSelection, Resample, column_names, parse_csv};
use crate::analysis::pipeline::{PipelineOptions, analyze_series_reporting};
use crate::analysis::resample::DEFAULT_SPACING_TOLERANCE;
use crate::analysis::spectrogram::spectrogram;
use crate::util::atomic_write::write_atomically;
use crate::util::json::Json;

/// Samples analysed when `--max-samples` is not given (the neighbour searches scale as N log N
/// per dimension; 6·10⁴ samples take seconds).
pub const DEFAULT_MAX_SAMPLES: usize = 60_000;

/// Above this many samples the stages are reported on stderr as they start, with the time
/// spent so far (a series of millions of samples takes minutes).
pub const PROGRESS_ABOVE_SAMPLES: usize = DEFAULT_MAX_SAMPLES;

/// Options of `tribolab analyze`.
#[derive(Debug, Default, PartialEq)]
pub struct AnalyzeArgs {
    /// CSV file.
    pub file: String,
    /// `--column NAME` (optional when the file has one data column).
    pub column: Option<String>,
    /// `--time NAME`.
    pub time: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--max-samples N`.
    pub max_samples: Option<usize>,
    /// `--resample`: interpolate a non-uniform record onto its median step.
    pub resample: bool,
    /// `--delay`, `--dim`, `--theiler`, `--bins` overrides.
    pub delay: Option<usize>,
    /// Embedding dimension override.
    pub dim: Option<usize>,
    /// Theiler window override.
    pub theiler: Option<usize>,
    /// AMI bins.
    pub bins: Option<usize>,
    /// `--fit-range T0,T1` [s].
    pub fit_range_s: Option<(f64, f64)>,
    /// `--spectrogram OUT.csv`: short-time spectra as `t_s,f_hz,amplitude` rows.
    pub spectrogram: Option<String>,
    /// `--segment N`: spectrogram segment length [samples] (hop N/2).
    pub segment: Option<usize>,
}

/// Parses the arguments after `analyze`.
pub fn parse_analyze(args: &[String]) -> Result<AnalyzeArgs, CliError> {
    let mut out = AnalyzeArgs::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        let mut value = |name: &str| flag_value(name, &inline, &mut it);
        let mut count = |name: &str, min: usize| -> Result<usize, CliError> {
            let v = value(name)?;
            v.parse::<usize>()
                .ok()
                .filter(|&n| n >= min)
                .ok_or_else(|| {
                    CliError::Usage(format!("{name}: `{v}` is not a whole number ≥ {min}"))
                })
        };
        match flag {
            "--column" | "-c" => out.column = Some(value("--column")?),
            "--time" => out.time = Some(value("--time")?),
            "--json" => out.json = true,
            "--resample" => out.resample = true,
            "--max-samples" => out.max_samples = Some(count("--max-samples", 200)?),
            "--delay" => out.delay = Some(count("--delay", 1)?),
            "--dim" => out.dim = Some(count("--dim", 1)?),
            "--theiler" => out.theiler = Some(count("--theiler", 0)?),
            "--bins" => out.bins = Some(count("--bins", 2)?),
            "--spectrogram" => out.spectrogram = Some(value("--spectrogram")?),
            "--segment" => out.segment = Some(count("--segment", 8)?),
            "--fit-range" => {
                let v = value("--fit-range")?;
                let range = v
                    .split_once(',')
                    .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                    .filter(|&(a, b): &(f64, f64)| {
                        a.is_finite() && b.is_finite() && 0.0 <= a && a < b
                    });
                out.fit_range_s = Some(range.ok_or_else(|| {
                    CliError::Usage(format!(
                        "--fit-range expects T0,T1 in seconds with 0 ≤ T0 < T1, got `{v}`"
                    ))
                })?);
            }
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(CliError::UnknownOption(f.to_string()));
            }
            _ if file.is_none() => file = Some(a.clone()),
            _ => return Err(CliError::Usage(format!("unexpected argument `{a}`"))),
        }
    }
    out.file = file.ok_or_else(|| CliError::Usage("analyze needs a FILE.csv".into()))?;
    Ok(out)
}

pub(super) fn analyze(args: &[String]) -> Result<(), CliError> {
    let a = parse_analyze(args)?;
    let fail = |e: &dyn std::fmt::Display| CliError::Failed(e.to_string());
    let text = std::fs::read_to_string(Path::new(&a.file))
        .map_err(|e| CliError::Failed(format!("{}: cannot read: {e}", a.file)))?;
    let (names, time_idx) =
        column_names(&text, &a.file, a.time.as_deref()).map_err(|e| fail(&e))?;
    let name = match &a.column {
        Some(c) => c.clone(),
        None if names.len() == 2 => names[1 - time_idx].clone(),
        None => {
            let data: Vec<String> = (0..names.len())
                .filter(|&k| k != time_idx)
                .map(|k| format!("`{}`", names[k]))
                .collect();
            return Err(CliError::Usage(format!(
                "{}: choose a column with --column NAME; data columns: {}",
                a.file,
                data.join(", ")
            )));
        }
    };
    let sel = CsvSelection {
        time: Some(&names[time_idx]),
        columns: &[name.as_str()],
    };
    let table = parse_csv(&text, &a.file, sel).map_err(|e| fail(&e))?;
    let policy = if a.resample {
        Resample::LinearToMedian
    } else {
        Resample::Never
    };
    let mut series = table
        .series(&name, DEFAULT_SPACING_TOLERANCE, policy)
        .map_err(|e| fail(&e))?;
    let available = series.values.len();
    let limit = a.max_samples.unwrap_or(DEFAULT_MAX_SAMPLES);
    series.values.truncate(limit);
    let opts = PipelineOptions {
        bins: a.bins.unwrap_or(PipelineOptions::default().bins),
        delay: a.delay,
        dim: a.dim,
        theiler: a.theiler,
        fit_range_s: a.fit_range_s,
        ..PipelineOptions::default()
    };
    let started = std::time::Instant::now();
    let samples = series.values.len();
    let mut progress = |stage: &str| {
        if samples > PROGRESS_ABOVE_SAMPLES {
            eprintln!(
                "analyze: {stage} ({samples} samples, {:.1} s so far)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let mut report =
        analyze_series_reporting(&name, &series.values, series.dt_s, &opts, &mut progress)
            .map_err(|e| CliError::Failed(format!("{}: column `{name}`: {e}", a.file)))?;
    if available > series.values.len() {
        report.warnings.insert(
            0,
            format!(
                "analysed the first {} of {available} samples (--max-samples)",
                series.values.len()
            ),
        );
    }
    if table.skipped_event_rows > 0 {
        report.warnings.insert(
            0,
            format!(
                "skipped {} rows flagged in the `event` column (tribolab's rows at stick/slip \
                 switches, off the sampling grid)",
                table.skipped_event_rows
            ),
        );
    }
    if series.resampled {
        report.warnings.insert(
            0,
            format!(
                "time steps not uniform (worst {:.3} % off the median): resampled linearly to \
                 t_s = {} s as asked (--resample)",
                100.0 * series.spacing.max_deviation,
                series.dt_s
            ),
        );
    }
    if let Some(path) = &a.spectrogram {
        write_spectrogram(path, &series.values, series.dt_s, a.segment)?;
    }
    let text = if a.json {
        let source = Json::obj([
            ("file", Json::Str(a.file.clone())),
            ("time_column", Json::Str(table.time_name.clone())),
            ("column", Json::Str(name.clone())),
            ("samples_in_file", Json::count(available)),
            ("t0_s", Json::Num(series.t0_s)),
            ("resampled", Json::Bool(series.resampled)),
            (
                "max_step_deviation",
                Json::Num(series.spacing.max_deviation),
            ),
        ]);
        let Json::Obj(mut body) = report.to_json() else {
            return Err(CliError::Failed("internal: report is not an object".into()));
        };
        body.insert(0, ("source".into(), source));
        Json::Obj(body).to_pretty() + "\n"
    } else {
        format!("file {} (time column `{}`)\n", a.file, table.time_name) + &report.to_text()
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    stdout_result(lock.write_all(text.as_bytes()).and_then(|()| lock.flush()))
}

/// Writes the spectrogram of `values` as `t_s,f_hz,amplitude` rows (atomically). The default
/// segment is the largest power of two up to an eighth of the record (≥ 64 samples), so the
/// record gives at least 15 half-overlapping segments.
fn write_spectrogram(
    path: &str,
    values: &[f64],
    dt_s: f64,
    segment: Option<usize>,
) -> Result<(), CliError> {
    let segment = segment.unwrap_or_else(|| {
        let eighth = (values.len() / 8).max(64);
        1 << eighth.ilog2()
    });
    let hop = (segment / 2).max(1);
    let g = spectrogram(values, dt_s, segment, hop, Window::Hann).ok_or_else(|| {
        CliError::Failed(format!(
            "--spectrogram: the record has {} samples, fewer than one segment of {segment} \
             (choose a shorter --segment)",
            values.len()
        ))
    })?;
    write_atomically(Path::new(path), |w| {
        let mut w = std::io::BufWriter::new(w);
        writeln!(w, "t_s,f_hz,amplitude")?;
        for (t, row) in g.times_s.iter().zip(&g.amplitudes) {
            for (f, amp) in g.freqs_hz.iter().zip(row) {
                writeln!(w, "{t},{f},{amp}")?;
            }
        }
        w.flush()
    })
    .map_err(|e| CliError::Failed(format!("{path}: {e} (no file written)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_all_forms() {
        let a = parse_analyze(&s(&[
            "m.csv",
            "--column",
            "x",
            "--time=t",
            "--json",
            "--max-samples",
            "5000",
            "--resample",
            "--delay=3",
            "--dim",
            "4",
            "--theiler",
            "0",
            "--bins",
            "16",
        ]))
        .unwrap();
        assert_eq!(a.file, "m.csv");
        assert_eq!(
            (a.column.as_deref(), a.time.as_deref()),
            (Some("x"), Some("t"))
        );
        assert!(a.json && a.resample);
        assert_eq!(a.max_samples, Some(5000));
        assert_eq!(
            (a.delay, a.dim, a.theiler, a.bins),
            (Some(3), Some(4), Some(0), Some(16))
        );
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            &[][..],
            &["m.csv", "--max-samples", "ten"],
            &["m.csv", "--delay", "0"],
            &["m.csv", "--column"],
            &["m.csv", "--bogus"],
            &["m.csv", "--fit-range", "2,1"],
            &["m.csv", "--fit-range", "1"],
            &["m.csv", "other.csv"],
        ] {
            assert!(
                matches!(
                    parse_analyze(&s(bad)),
                    Err(CliError::Usage(_) | CliError::UnknownOption(_))
                ),
                "{bad:?}"
            );
        }
    }
}
