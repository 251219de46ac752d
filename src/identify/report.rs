//! A fit's report: a table for people (values in engineering notation, never a bare number for
//! a parameter the data do not determine) and the same in JSON.

use crate::util::eng::format_si;
use crate::util::json::Json;

use super::fit::FitResult;
use super::statistics::{CORRELATION_LIMIT, Estimate, Flag};

/// The verdict of one estimate in words.
pub fn verdict(e: &Estimate) -> String {
    if e.flags.is_empty() {
        return "determined".into();
    }
    let parts: Vec<String> = e
        .flags
        .iter()
        .map(|f| match f {
            Flag::Undetermined { with } if with.is_empty() => {
                "not determined: the data hardly change with it".into()
            }
            Flag::Undetermined { with } => format!(
                "not determined: only a combination with {} is fixed by the data",
                with.join(", ")
            ),
            Flag::WiderThanRange => {
                "not determined: its 95 % interval spans its whole range".into()
            }
            Flag::Correlated { with, r } => format!("moves with {with} (r = {r:+.4})"),
            Flag::AtBound { upper: true } => "at the upper end of its range".into(),
            Flag::AtBound { upper: false } => "at the lower end of its range".into(),
        })
        .collect();
    parts.join("; ")
}

fn value(v: f64, unit: &str) -> String {
    format_si(v, unit, 4)
}

/// Significant digits that show an estimate and its interval apart: two digits of the standard
/// error, at least four (`1.000 N ± 60 µN` needs six: `[0.999 88, 1.000 12] N`).
pub fn digits(value: f64, std_error: f64) -> usize {
    let measurable = std_error > 0.0 && value != 0.0;
    if !measurable {
        return 4;
    }
    let d = (value.abs() / std_error).log10().ceil() as i64 + 2;
    d.clamp(4, 12) as usize
}

/// The table of estimates, one line per parameter, with the fit's summary above it.
pub fn text(title: &str, result: &FitResult, unit_of_residuals: &str) -> String {
    let s = &result.statistics;
    let mut out = format!("{title}\n");
    let evaluations: usize = result.stages.iter().map(|o| o.evaluations).sum();
    let state = result
        .stages
        .last()
        .map_or("no stage ran".to_string(), |o| o.termination.clone());
    out += &format!(
        "{state} after {evaluations} evaluations{}; residual RMS {} (at the start {}), \
         {} residuals, {} degrees of freedom\n",
        if result.stages.len() > 1 {
            format!(" in {} stages", result.stages.len())
        } else {
            String::new()
        },
        value(result.rms, unit_of_residuals),
        value(result.start_rms, unit_of_residuals),
        s.n,
        s.dof
    );
    let failed: usize = result.stages.iter().map(|o| o.failed_evaluations).sum();
    if failed > 0 {
        out += &format!(
            "the model could not be evaluated at {failed} trial point(s): the optimum may lie \
             against a region where it does not run\n"
        );
    }
    out += &format!(
        "\n{:<14} {:>16} {:>12}  {:<33} verdict\n",
        "parameter", "estimate", "std. error", "95 % interval"
    );
    for e in &s.estimates {
        let name = format!("{} {}", e.param.symbol, e.param.key);
        let unit = e.param.unit.as_str();
        let (est, se, ci) = if e.is_determined() {
            let n = digits(e.value, e.std_error.unwrap_or(0.0));
            (
                format_si(e.value, unit, n),
                e.std_error.map_or("—".into(), |x| format_si(x, unit, 2)),
                e.interval.map_or("—".into(), |(a, b)| {
                    format!("[{}, {}]", format_si(a, unit, n), format_si(b, unit, n))
                }),
            )
        } else {
            (
                "—".to_string(),
                "—".to_string(),
                format!("(ended at {})", value(e.value, unit)),
            )
        };
        out += &format!("{name:<14} {est:>16} {se:>12}  {ci:<33} {}\n", verdict(e));
    }
    let k = s.estimates.len();
    let mut pairs = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let r = s.correlation[a][b];
            if r.abs() > CORRELATION_LIMIT {
                pairs.push(format!(
                    "{}–{} {r:+.4}",
                    s.estimates[a].param.key, s.estimates[b].param.key
                ));
            }
        }
    }
    out += &format!(
        "\ncondition number of the column-scaled JᵀJ: {:.3e} (above 1e8 some direction is not \
         determined)\n",
        s.condition
    );
    if !pairs.is_empty() {
        out += &format!(
            "correlations above {CORRELATION_LIMIT}: {}\n",
            pairs.join(", ")
        );
    }
    if k > 1 {
        out += "\ncorrelation matrix (— where a parameter is not determined)\n";
        out += &format!("{:<10}", "");
        for e in &s.estimates {
            out += &format!("{:>9}", e.param.key);
        }
        out += "\n";
        for (a, row) in s.correlation.iter().enumerate() {
            out += &format!("{:<10}", s.estimates[a].param.key);
            for r in row {
                if r.is_finite() {
                    out += &format!("{r:>9.4}");
                } else {
                    out += &format!("{:>9}", "—");
                }
            }
            out += "\n";
        }
    }
    out
}

/// The report as JSON.
pub fn json(result: &FitResult) -> Json {
    let s = &result.statistics;
    let estimates = s
        .estimates
        .iter()
        .map(|e| {
            Json::obj([
                ("key", Json::Str(e.param.key.clone())),
                ("symbol", Json::Str(e.param.symbol.clone())),
                ("unit", Json::Str(e.param.unit.clone())),
                ("start", Json::Num(e.param.start)),
                ("value", Json::Num(e.value)),
                ("determined", Json::Bool(e.is_determined())),
                ("std_error", Json::opt_num(e.std_error)),
                (
                    "interval_95",
                    e.interval.map_or(Json::Null, |(a, b)| Json::nums(&[a, b])),
                ),
                ("verdict", Json::Str(verdict(e))),
            ])
        })
        .collect();
    Json::obj([
        ("converged", Json::Bool(result.converged())),
        (
            "stages",
            Json::Arr(
                result
                    .stages
                    .iter()
                    .map(|o| {
                        Json::obj([
                            ("termination", Json::Str(o.termination.clone())),
                            ("evaluations", Json::count(o.evaluations)),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("rms", Json::Num(result.rms)),
        ("start_rms", Json::Num(result.start_rms)),
        ("residuals", Json::count(s.n)),
        ("dof", Json::count(s.dof)),
        ("condition", Json::Num(s.condition)),
        ("t_quantile", Json::Num(s.t_quantile)),
        ("estimates", Json::Arr(estimates)),
        (
            "correlation",
            Json::Arr(s.correlation.iter().map(|r| Json::nums(r)).collect()),
        ),
    ])
}
