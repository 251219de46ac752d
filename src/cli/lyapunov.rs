//! `tribolab lyapunov`: Lyapunov spectrum, Benettin's largest exponent, classification and
//! Kaplan–Yorke dimension of a preset's system, as text or JSON.

use crate::analysis::lyapunov::signed;
use std::io::Write;

use super::opts::{flag_value, set_pair, split_flag};
use super::{CliError, format_number, prepared_preset as shared_prepared_preset, stdout_result};
use crate::analysis::classify::{PoincareShape, SystemKind};
use crate::analysis::lyapunov::{LyapunovError, LyapunovOptions, Report, analyze};
use crate::preset::Preset;
use crate::util::json::Json;

/// Options of `tribolab lyapunov`.
#[derive(Debug, Default, PartialEq)]
pub struct LyapunovArgs {
    /// Preset path or built-in name.
    pub preset: String,
    /// `--duration`: averaging time (iterations for maps); default the preset's run duration.
    pub duration: Option<f64>,
    /// `--transient`: time dropped first; default a tenth of the duration.
    pub transient: Option<f64>,
    /// `--tau`: renormalisation interval; default 1.
    pub tau: Option<f64>,
    /// `--exponents K`: only the K largest.
    pub exponents: Option<usize>,
    /// `--separation D`: Benettin's initial separation relative to the attractor's extent.
    pub separation: Option<f64>,
    /// `--set PATH=VALUE`, in order.
    pub sets: Vec<(String, String)>,
    /// `--no-benettin`: skip the two-trajectory estimate.
    pub no_benettin: bool,
    /// `--fast-stiff`: do not resolve the stiff tangent directions (λ₁ and verdict only).
    pub fast_stiff: bool,
    /// `--json`.
    pub json: bool,
}

fn number(flag: &str, v: &str, positive: bool) -> Result<f64, CliError> {
    let x: f64 = v
        .parse()
        .map_err(|_| CliError::Usage(format!("{flag}: `{v}` is not a number")))?;
    let ok = x.is_finite() && if positive { x > 0.0 } else { x >= 0.0 };
    if !ok {
        let what = if positive { "> 0" } else { "≥ 0" };
        return Err(CliError::Usage(format!(
            "{flag} must be a finite number {what}, got {v}"
        )));
    }
    Ok(x)
}

/// Parses the arguments after `lyapunov`.
pub fn parse(args: &[String]) -> Result<LyapunovArgs, CliError> {
    let mut out = LyapunovArgs::default();
    let mut it = args.iter();
    let mut preset = None;
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        let mut value = |name: &str| flag_value(name, &inline, &mut it);
        match flag {
            "--duration" => out.duration = Some(number(flag, &value(flag)?, true)?),
            "--transient" => out.transient = Some(number(flag, &value(flag)?, false)?),
            "--tau" => out.tau = Some(number(flag, &value(flag)?, true)?),
            "--separation" => out.separation = Some(number(flag, &value(flag)?, true)?),
            "--exponents" => {
                let v = value(flag)?;
                let k: usize = v.parse().ok().filter(|k| *k > 0).ok_or_else(|| {
                    CliError::Usage(format!("--exponents: `{v}` is not a positive whole number"))
                })?;
                out.exponents = Some(k);
            }
            "--set" => {
                out.sets.push(set_pair(&value(flag)?)?);
            }
            "--no-benettin" => out.no_benettin = true,
            "--fast-stiff" => out.fast_stiff = true,
            "--json" => out.json = true,
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(CliError::UnknownOption(f.to_string()));
            }
            _ if preset.is_none() => preset = Some(a.clone()),
            _ => return Err(CliError::Usage(format!("unexpected argument `{a}`"))),
        }
    }
    out.preset = preset.ok_or_else(|| CliError::Usage("lyapunov needs a PRESET".into()))?;
    Ok(out)
}

/// The preset with `--set` applied, validated.
fn prepared_preset(a: &LyapunovArgs) -> Result<Preset, CliError> {
    shared_prepared_preset(
        &a.preset,
        a.sets.iter().map(|(p, v)| (p.as_str(), v.as_str())),
        None,
    )
}

/// The options the arguments ask for.
pub fn options(a: &LyapunovArgs, preset: &Preset) -> LyapunovOptions {
    let duration = a.duration.unwrap_or(preset.run.duration_s);
    LyapunovOptions {
        transient: a.transient.unwrap_or(0.1 * duration),
        duration,
        renorm_interval: a.tau.unwrap_or(1.0),
        n_exponents: a.exponents,
        fast_stiff: a.fast_stiff,
        separation: a.separation,
        ..LyapunovOptions::default()
    }
}

pub(super) fn lyapunov(args: &[String]) -> Result<(), CliError> {
    let a = parse(args)?;
    let preset = prepared_preset(&a)?;
    let opts = options(&a, &preset);
    let report = analyze(&preset, &opts, !a.no_benettin).map_err(|e| match e {
        LyapunovError::InvalidOption { .. } => CliError::Usage(e.to_string()),
        LyapunovError::Sim(e) => CliError::Failed(format!("{}: {e}", a.preset)),
        LyapunovError::Thermal | LyapunovError::NoTangent(_) => {
            CliError::Failed(format!("{}: {e}", a.preset))
        }
    })?;
    let mut out = std::io::stdout().lock();
    let r = if a.json {
        write_json(&mut out, &a.preset, &preset, &opts, &report)
    } else {
        write_text(&mut out, &a.preset, &preset, &opts, &report)
    };
    stdout_result(r)
}

fn shape(p: PoincareShape) -> String {
    match p {
        PoincareShape::Unknown => "too few to tell".into(),
        PoincareShape::Points(1) => "1 point".into(),
        PoincareShape::Points(k) => format!("{k} distinct points"),
        PoincareShape::ClosedCurve => "on a closed curve (or a thin, nearly 1-D set)".into(),
        PoincareShape::Scattered => "scattered (fractal or noisy)".into(),
    }
}

fn kind_key(kind: SystemKind) -> &'static str {
    match kind {
        SystemKind::Autonomous => "autonomous",
        SystemKind::Forced { .. } => "forced",
        SystemKind::Aperiodic => "aperiodic",
        SystemKind::Map => "map",
    }
}

/// Human-readable report.
pub fn write_text(
    out: &mut dyn Write,
    source: &str,
    preset: &Preset,
    opts: &LyapunovOptions,
    r: &Report,
) -> std::io::Result<()> {
    let s = &r.spectrum;
    let c = &r.classification;
    let unit = s.kind.unit();
    let time = if s.kind == SystemKind::Map {
        "iterations"
    } else {
        "s"
    };
    writeln!(out, "{}  [{source}]", preset.name)?;
    writeln!(
        out,
        "system      {}: {}, {} state directions",
        preset.system.info().name,
        s.kind.describe(),
        s.exponents.len()
    )?;
    writeln!(out, "method      {}; {}", s.method, s.integrator)?;
    writeln!(
        out,
        "averaging   {} {time} after a {} {time} transient; {} renormalisations",
        format_number(s.averaging_time),
        format_number(opts.transient),
        s.renormalisations
    )?;
    if s.kind != SystemKind::Map {
        writeln!(
            out,
            "integration {} steps ({} rejected), {} right-hand sides of the variational system",
            s.stats.steps, s.stats.rejected, s.stats.rhs_evals
        )?;
    }
    writeln!(out)?;
    for (i, l) in s.exponents.iter().enumerate() {
        let note = if *l == f64::NEG_INFINITY {
            "   (collapsed at every switch into stick: Floquet multiplier 0)"
        } else {
            ""
        };
        writeln!(out, "  λ{} = {:>12}  {unit}{note}", i + 1, signed(*l, 6))?;
    }
    if s.kind.is_forced() {
        writeln!(
            out,
            "  time direction: 0 exactly (forced system, phase not integrated; added when \
             classifying)"
        )?;
    }
    write!(out, "Σλ = {}  {unit}", signed(s.sum(), 6))?;
    if let Some(d) = s.mean_divergence {
        write!(
            out,
            "   (mean volume growth ⟨tr J⟩ + switches: {})",
            signed(d, 6)
        )?;
    }
    writeln!(out)?;
    if let Some(l) = &r.largest {
        writeln!(
            out,
            "largest exponent by Benettin (two trajectories, d₀ = {:e} of the attractor): {}  \
             {unit}",
            l.separation,
            signed(l.exponent, 6)
        )?;
    }
    if s.switches > 0 || s.grazing > 0 {
        writeln!(
            out,
            "switches with saltation matrix: {} ({} grazing, left out)",
            s.switches, s.grazing
        )?;
    }
    writeln!(
        out,
        "classification: {} (zero tolerance ±{:.3e} {unit}; {} positive, {} zero{})",
        c.attractor.describe(s.kind),
        c.zero_tolerance,
        c.n_positive,
        c.n_zero,
        if c.time_zero_added {
            ", the time direction included"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "Poincaré points: {} collected, {}{}",
        s.poincare_points.len(),
        shape(c.poincare),
        if c.consistent {
            ""
        } else {
            " — does not match the spectrum"
        }
    )?;
    for note in &c.notes {
        writeln!(out, "note: {note}")?;
    }
    writeln!(out, "Kaplan–Yorke dimension: {:.4}", c.kaplan_yorke)?;
    Ok(())
}

/// Machine-readable report (one JSON object; `−∞` exponents are `null` with
/// `"minus_infinity": true` at their index).
pub fn write_json(
    out: &mut dyn Write,
    source: &str,
    preset: &Preset,
    opts: &LyapunovOptions,
    r: &Report,
) -> std::io::Result<()> {
    let s = &r.spectrum;
    let c = &r.classification;
    let count = |n: u64| Json::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let forcing = match s.kind {
        SystemKind::Forced { period } => Json::Num(period),
        _ => Json::Null,
    };
    let benettin = r.largest.as_ref().map_or(Json::Null, |l| {
        Json::obj([
            ("exponent", Json::Num(l.exponent)),
            ("separation", Json::Num(l.separation)),
            ("averaging_time", Json::Num(l.averaging_time)),
        ])
    });
    let poincare = match c.poincare {
        PoincareShape::Unknown => Json::Str("unknown".into()),
        PoincareShape::Points(k) => Json::obj([("points", Json::count(k))]),
        PoincareShape::ClosedCurve => Json::Str("closed_curve".into()),
        PoincareShape::Scattered => Json::Str("scattered".into()),
    };
    let doc = Json::obj([
        ("preset", Json::Str(source.into())),
        ("name", Json::Str(preset.name.clone())),
        ("system", Json::Str(preset.system.variant().into())),
        ("kind", Json::Str(kind_key(s.kind).into())),
        ("forcing_period_s", forcing),
        ("unit", Json::Str(s.kind.unit().into())),
        ("transient", Json::Num(opts.transient)),
        ("averaging_time", Json::Num(s.averaging_time)),
        ("renormalisation_interval", Json::Num(opts.renorm_interval)),
        ("method", Json::Str(s.method.into())),
        ("integrator", Json::Str(s.integrator.into())),
        ("exponents", Json::nums(&s.exponents)),
        (
            "minus_infinity",
            Json::Arr(
                s.exponents
                    .iter()
                    .map(|v| Json::Bool(*v == f64::NEG_INFINITY))
                    .collect(),
            ),
        ),
        ("sum", Json::Num(s.sum())),
        ("mean_divergence", Json::opt_num(s.mean_divergence)),
        ("benettin", benettin),
        ("switches", count(s.switches)),
        ("grazing", count(s.grazing)),
        ("renormalisations", count(s.renormalisations)),
        ("steps", count(s.stats.steps)),
        ("attractor", Json::Str(c.attractor.describe(s.kind))),
        ("classified_spectrum", Json::nums(&c.spectrum)),
        ("time_zero_added", Json::Bool(c.time_zero_added)),
        ("zero_tolerance", Json::Num(c.zero_tolerance)),
        ("positive", Json::count(c.n_positive)),
        ("zero", Json::count(c.n_zero)),
        ("poincare_points", Json::count(s.poincare_points.len())),
        ("poincare", poincare),
        ("consistent", Json::Bool(c.consistent)),
        ("kaplan_yorke", Json::Num(c.kaplan_yorke)),
        (
            "notes",
            Json::Arr(c.notes.iter().map(|n| Json::Str(n.clone())).collect()),
        ),
    ]);
    writeln!(out, "{}", doc.to_pretty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_all_forms() {
        let a = parse(&s(&[
            "lorenz",
            "--duration",
            "500",
            "--transient=50",
            "--tau",
            "0.5",
            "--set",
            "system.rho=30",
            "--exponents",
            "2",
            "--separation=1e-6",
            "--json",
            "--no-benettin",
            "--fast-stiff",
        ]))
        .unwrap();
        assert_eq!(a.preset, "lorenz");
        assert_eq!(
            (a.duration, a.transient, a.tau, a.exponents),
            (Some(500.0), Some(50.0), Some(0.5), Some(2))
        );
        assert_eq!(a.sets, vec![("system.rho".into(), "30".into())]);
        assert_eq!(a.separation, Some(1e-6));
        assert!(a.json && a.no_benettin && a.fast_stiff);
    }

    #[test]
    fn bad_input_is_a_usage_error() {
        for bad in [
            vec![],
            vec!["p", "--duration", "0"],
            vec!["p", "--duration", "ten"],
            vec!["p", "--transient", "-1"],
            vec!["p", "--tau", "inf"],
            vec!["p", "--exponents", "0"],
            vec!["p", "--set", "nokey"],
            vec!["p", "--bogus"],
            vec!["p", "q"],
        ] {
            assert!(
                matches!(
                    parse(&s(&bad)),
                    Err(CliError::Usage(_) | CliError::UnknownOption(_))
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn bad_preset_or_value_is_a_failure_with_the_path() {
        let a = parse(&s(&["no_such_preset_here"])).unwrap();
        assert!(
            matches!(prepared_preset(&a), Err(CliError::Failed(m)) if m.contains("no such file"))
        );
        let a = parse(&s(&["henon_map", "--set", "system.a=7"])).unwrap();
        assert!(
            matches!(prepared_preset(&a), Err(CliError::Failed(m)) if m.contains("system.a") && m.contains("outside"))
        );
    }

    #[test]
    fn henon_report_as_text_and_json() {
        let a = parse(&s(&["henon_map", "--duration", "20000", "--json"])).unwrap();
        let preset = prepared_preset(&a).unwrap();
        let opts = options(&a, &preset);
        assert_eq!((opts.duration, opts.transient), (20000.0, 2000.0));
        let report = analyze(&preset, &opts, true).unwrap();
        let mut buf = Vec::new();
        write_json(&mut buf, &a.preset, &preset, &opts, &report).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("\"kind\": \"map\""), "{text}");
        assert!(text.contains("\"attractor\": \"chaos\""), "{text}");
        assert!(
            text.contains("\"minus_infinity\": [false, false]"),
            "{text}"
        );
        let mut buf = Vec::new();
        write_text(&mut buf, &a.preset, &preset, &opts, &report).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.contains("λ1 =") && text.contains("Kaplan–Yorke"),
            "{text}"
        );
    }
}
