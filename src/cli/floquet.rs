//! `tribolab floquet`: the periodic orbit a preset settles on, its Floquet multipliers and the
//! stability verdict, as text or JSON.

use std::io::Write;

use nalgebra::Complex;

use super::opts::Opts;
use super::{CliError, stdout_result};
use crate::analysis::dynamics::SectionChoice;
use crate::analysis::floquet::{
    Crossing, FloquetOptions, FloquetReport, JacobianMethod, Stability,
};
use crate::analysis::{PresetDynamics, floquet};
use crate::params::fmt_num;
use crate::util::json::Json;

const VALUE_FLAGS: &[&str] = &[
    "--set",
    "--transient",
    "--section",
    "--returns",
    "--rtol",
    "--threads",
];
const SWITCHES: &[&str] = &["--json", "--variational"];

pub(super) fn floquet_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("floquet", args, VALUE_FLAGS, SWITCHES)?;
    let preset = o.preset()?;
    let (model, _) = preset.build_model();
    let section = match o.value("--section") {
        Some(s) => SectionChoice::parse(s, &model.section_names()).map_err(CliError::Usage)?,
        None => SectionChoice::Auto,
    };
    let rtol = match o.number("--rtol")? {
        Some(r) if r > 0.0 && r < 1e-2 => r,
        Some(r) => {
            return Err(CliError::Usage(format!(
                "--rtol must be in (0, 0.01), got {r}"
            )));
        }
        None => preset.run.rtol.min(1e-10),
    };
    let transient_s = match o.number("--transient")? {
        Some(t) if t > 0.0 => t,
        Some(t) => {
            return Err(CliError::Usage(format!(
                "--transient must be positive, got {t}"
            )));
        }
        None => preset.run.duration_s.max(1.0),
    };
    let options = FloquetOptions {
        transient_s,
        section,
        jacobian: if o.switch("--variational") {
            JacobianMethod::Variational
        } else {
            JacobianMethod::FlowMap
        },
        returns: o.count("--returns")?,
        threads: o.count("--threads")?,
        ..FloquetOptions::default()
    };
    let dynamics = PresetDynamics {
        preset,
        rtol: Some(rtol),
    };
    let report =
        floquet(&dynamics, &options).map_err(|e| CliError::Failed(format!("{}: {e}", o.preset)))?;
    let text = if o.switch("--json") {
        to_json(&o.preset, rtol, &report)
    } else {
        to_text(&o.preset, rtol, &report)
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    stdout_result(lock.write_all(text.as_bytes()).and_then(|_| lock.flush()))
}

/// Ten significant digits, compact.
fn sig(v: f64) -> String {
    let rounded: f64 = format!("{v:.9e}").parse().unwrap_or(v);
    fmt_num(rounded)
}

fn complex(m: Complex<f64>) -> String {
    if m.im == 0.0 {
        sig(m.re)
    } else {
        let sign = if m.im < 0.0 { '−' } else { '+' };
        format!("{} {sign} {}i", sig(m.re), sig(m.im.abs()))
    }
}

fn method_name(m: JacobianMethod) -> &'static str {
    match m {
        JacobianMethod::FlowMap => "central differences of the flow map",
        JacobianMethod::Variational => "variational equations",
    }
}

fn to_text(source: &str, rtol: f64, r: &FloquetReport) -> String {
    let mut s = String::new();
    let kind = if r.forced { "forced" } else { "autonomous" };
    s.push_str(&format!("{source}: {kind} periodic orbit\n"));
    s.push_str(&format!(
        "  section          {} ({} return{} per period)\n",
        r.section,
        r.returns,
        if r.returns == 1 { "" } else { "s" }
    ));
    s.push_str(&format!("  period           {} s\n", sig(r.period_s)));
    let fixed: Vec<String> = r
        .state_names
        .iter()
        .zip(&r.fixed_point)
        .map(|(n, v)| format!("{n} = {}", sig(*v)))
        .collect();
    s.push_str(&format!("  fixed point      {}\n", fixed.join(", ")));
    let kind = match (r.switches_per_period, r.smooth_field) {
        (0, _) => " (smooth orbit)",
        (_, true) => " (velocity reversals at the law's kink; no mode switch)",
        (_, false) => " (non-smooth orbit: the flow map includes the saltation of each switch)",
    };
    s.push_str(&format!(
        "  events/period    {}{kind}\n",
        r.switches_per_period
    ));
    s.push_str(&format!(
        "  Newton           {} iteration(s), scaled residual {:.1e}; rtol {:.0e}\n",
        r.newton_iterations, r.residual, rtol
    ));
    s.push_str(&format!(
        "  monodromy        {}, base point {} s after the fixed point\n",
        method_name(r.method),
        sig(r.base_offset_s)
    ));
    s.push_str("  multipliers      |m|\n");
    for (i, m) in r.multipliers.iter().enumerate() {
        let note = if Some(i) == r.trivial_index {
            "   trivial (flow direction; exactly 1 in theory)"
        } else {
            ""
        };
        s.push_str(&format!(
            "    {:<28} {:<12}{note}\n",
            complex(*m),
            sig(m.norm())
        ));
    }
    if !r.forced {
        let map: Vec<String> = r.map_multipliers.iter().map(|m| complex(*m)).collect();
        s.push_str(&format!(
            "  Poincaré map     {} (the non-trivial multipliers)\n",
            map.join(", ")
        ));
    }
    if let Some(tr) = r.trace_integral {
        let ln_product: f64 = r.multipliers.iter().map(|m| m.norm().ln()).sum();
        s.push_str(&format!(
            "  Liouville        ∫tr J dt = {}; ln Π|m| = {} (equal in theory, unless a multiplier \
             is below round-off, ~1e-13)\n",
            sig(tr),
            sig(ln_product)
        ));
    }
    s.push_str(&format!("  verdict          {}\n", r.stability.describe()));
    s
}

fn multipliers_json(ms: &[Complex<f64>]) -> Json {
    Json::Arr(
        ms.iter()
            .map(|m| {
                Json::obj([
                    ("re", Json::Num(m.re)),
                    ("im", Json::Num(m.im)),
                    ("abs", Json::Num(m.norm())),
                ])
            })
            .collect(),
    )
}

fn to_json(source: &str, rtol: f64, r: &FloquetReport) -> String {
    let (verdict, max_modulus, via) = match r.stability {
        Stability::Stable { max_modulus } => ("stable", max_modulus, None),
        Stability::Unstable { max_modulus, via } => ("unstable", max_modulus, Some(via)),
        Stability::Marginal { max_modulus, via } => ("marginal", max_modulus, Some(via)),
    };
    let via = via.map_or(Json::Null, |v| {
        Json::Str(
            match v {
                Crossing::PlusOne => "+1",
                Crossing::MinusOne => "-1",
                Crossing::ComplexPair => "complex pair",
            }
            .into(),
        )
    });
    let monodromy = Json::Arr(
        (0..r.monodromy.nrows())
            .map(|i| {
                Json::nums(
                    &(0..r.monodromy.ncols())
                        .map(|j| r.monodromy[(i, j)])
                        .collect::<Vec<_>>(),
                )
            })
            .collect(),
    );
    let json = Json::obj([
        ("preset", Json::Str(source.into())),
        ("forced", Json::Bool(r.forced)),
        ("section", Json::Str(r.section.clone())),
        ("returns", Json::count(r.returns)),
        ("period_s", Json::Num(r.period_s)),
        (
            "state_names",
            Json::Arr(r.state_names.iter().map(|n| Json::Str(n.clone())).collect()),
        ),
        ("fixed_point", Json::nums(&r.fixed_point)),
        ("newton_iterations", Json::count(r.newton_iterations)),
        ("residual", Json::Num(r.residual)),
        ("rtol", Json::Num(rtol)),
        ("switches_per_period", Json::count(r.switches_per_period)),
        ("smooth_field", Json::Bool(r.smooth_field)),
        ("method", Json::Str(method_name(r.method).into())),
        ("base_offset_s", Json::Num(r.base_offset_s)),
        ("monodromy", monodromy),
        ("multipliers", multipliers_json(&r.multipliers)),
        (
            "trivial_index",
            r.trivial_index.map_or(Json::Null, Json::count),
        ),
        ("map_multipliers", multipliers_json(&r.map_multipliers)),
        ("trace_integral", Json::opt_num(r.trace_integral)),
        (
            "stability",
            Json::obj([
                ("verdict", Json::Str(verdict.into())),
                ("max_modulus", Json::Num(max_modulus)),
                ("via", via),
                ("text", Json::Str(r.stability.describe())),
            ]),
        ),
    ]);
    json.to_pretty() + "\n"
}
