//! `tribolab fit`: a friction law fitted to force measurements, or a preset's parameters to a
//! recorded trajectory (MODELS §4.10). Thin: reads the files and the options, asks
//! [`crate::identify`], prints the table (or JSON) and writes the fitted preset.

use std::path::Path;

use super::opts::{finite_number, flag_value, set_pair, split_flag};
use super::{CliError, load_preset_arg};
use crate::analysis::measured::{CsvSelection, MeasuredTable, read_csv};
use crate::identify::report;
use crate::identify::{
    ColumnSpec, FitProblem, FitResult, ForceColumns, ForceData, ForceOptions, ForceSign, FreeParam,
    LawFit, LawFitOptions, LmControl, LmSettings, TrajectoryData, TrajectoryFit, fit, kept_values,
};
use crate::integrate::Role;
use crate::laws::find_law;
use crate::preset::Preset;

/// The preset a law fit writes into when no `--preset` is given (the window's default bench).
const DEFAULT_BASE: &str = "s1_bench_19_36rpm";

const VALUE_FLAGS: [&str; 14] = [
    "--law",
    "--preset",
    "--free",
    "--set",
    "--columns",
    "--load",
    "--nominal-load",
    "--stick-speed",
    "--force-sign",
    "--smooth",
    "--stages",
    "--observe",
    "--rtol",
    "--out",
];

#[derive(Default)]
struct FitArgs {
    data: Vec<String>,
    values: Vec<(String, String)>,
    json: bool,
}

impl FitArgs {
    fn value(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }

    fn number(&self, flag: &str) -> Result<Option<f64>, CliError> {
        self.value(flag).map(|v| finite_number(flag, v)).transpose()
    }

    fn sets(&self) -> Result<Vec<(String, String)>, CliError> {
        self.values
            .iter()
            .filter(|(f, _)| f == "--set")
            .map(|(_, v)| set_pair(v))
            .collect()
    }

    fn keys(&self) -> Vec<String> {
        self.value("--free")
            .map(|v| {
                v.split(',')
                    .map(|k| k.trim().to_string())
                    .filter(|k| !k.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn parse(args: &[String]) -> Result<FitArgs, CliError> {
    let mut out = FitArgs::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        if VALUE_FLAGS.contains(&flag) {
            let v = flag_value(flag, &inline, &mut it)?;
            out.values.push((flag.to_string(), v));
        } else if flag == "--json" && inline.is_none() {
            out.json = true;
        } else if flag.starts_with('-') && flag.len() > 1 {
            return Err(CliError::UnknownOption(flag.to_string()));
        } else {
            out.data.push(a.clone());
        }
    }
    if out.data.is_empty() {
        return Err(CliError::Usage("fit needs at least one DATA.csv".into()));
    }
    Ok(out)
}

/// `--columns ROLE=NAME[:UNIT],…` as `(role, spec)` pairs.
fn columns(a: &FitArgs) -> Result<Vec<(String, ColumnSpec)>, CliError> {
    let text = a.value("--columns").ok_or_else(|| {
        CliError::Usage(
            "fit: say which columns hold what, e.g. --columns \
             time=t:s,velocity=v:mm/s,load=Fn:uN,force=Ff:uN"
                .into(),
        )
    })?;
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|item| {
            let (role, spec) = item.split_once('=').ok_or_else(|| {
                CliError::Usage(format!("--columns: `{item}` is not ROLE=NAME[:UNIT]"))
            })?;
            Ok((role.trim().to_ascii_lowercase(), ColumnSpec::parse(spec)))
        })
        .collect()
}

fn read(path: &str, time: Option<&ColumnSpec>, names: &[&str]) -> Result<MeasuredTable, CliError> {
    read_csv(
        Path::new(path),
        CsvSelection {
            time: time.map(|t| t.name.as_str()),
            columns: names,
        },
    )
    .map_err(|e| CliError::Failed(e.to_string()))
}

pub(super) fn fit_cmd(args: &[String]) -> Result<(), CliError> {
    let a = parse(args)?;
    match (a.value("--law"), a.value("--observe")) {
        (Some(_), Some(_)) => Err(CliError::Usage(
            "fit: --law fits force data, --observe a trajectory; give one of them".into(),
        )),
        (Some(law), None) => law_fit(&a, law),
        (None, Some(observe)) => trajectory_fit(&a, observe),
        (None, None) => Err(CliError::Usage(
            "fit: give --law NAME (force data) or --preset P --observe position (a recorded \
             trajectory)"
                .into(),
        )),
    }
}

fn settings_and_stages(a: &FitArgs, params: &[FreeParam]) -> Result<Vec<Vec<usize>>, CliError> {
    let Some(text) = a.value("--stages") else {
        return Ok(Vec::new());
    };
    text.split(';')
        .filter(|stage| !stage.trim().is_empty())
        .map(|stage| {
            stage
                .split(',')
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(|k| {
                    let k = if params.iter().any(|p| p.key == k) {
                        k
                    } else {
                        k.trim_start_matches("law.")
                    };
                    params.iter().position(|p| p.key == k).ok_or_else(|| {
                        CliError::Usage(format!("--stages: `{k}` is not one of the --free keys"))
                    })
                })
                .collect()
        })
        .collect()
}

fn run_fit(
    a: &FitArgs,
    problem: &dyn FitProblem,
    params: &[FreeParam],
) -> Result<FitResult, CliError> {
    let stages = settings_and_stages(a, params)?;
    fit(
        problem,
        params,
        &stages,
        LmSettings::default(),
        LmControl::default(),
    )
    .map_err(|e| CliError::Failed(format!("the fit failed: {e}")))
}

fn law_fit(a: &FitArgs, law_name: &str) -> Result<(), CliError> {
    let info = find_law(law_name).ok_or_else(|| {
        CliError::Failed(format!("--law: no law `{law_name}` (see `tribolab laws`)"))
    })?;
    let mut base: Preset = load_preset_arg(a.value("--preset").unwrap_or(DEFAULT_BASE))?;
    if base.law.variant() != info.variant {
        base.law = (info.default_config)();
    }
    for (path, value) in a.sets()? {
        let path = if path.contains('.') {
            path
        } else {
            format!("law.{path}")
        };
        base.set_path(&path, &value)
            .map_err(|e| CliError::Failed(format!("--set {path}={value}: {e}")))?;
    }
    let mut map = ForceColumns::default();
    for (role, spec) in columns(a)? {
        let slot = match role.as_str() {
            "time" | "t" => &mut map.time,
            "velocity" | "v" => &mut map.velocity,
            "position" | "x" => &mut map.position,
            "load" | "normal" => &mut map.load,
            "force" | "friction" => &mut map.force,
            "sigma" => &mut map.sigma,
            other => {
                return Err(CliError::Usage(format!(
                    "--columns: `{other}` is not a role; use time, velocity, position, load, \
                     force, sigma"
                )));
            }
        };
        *slot = Some(spec);
    }
    let options = ForceOptions {
        constant_load_n: a.number("--load")?.unwrap_or(1.0),
        smoothing_half_width: a.number("--smooth")?.map_or(5, |h| h.max(1.0) as usize),
        sign: match a.value("--force-sign").unwrap_or("resisting") {
            "resisting" => ForceSign::Resisting,
            "body" => ForceSign::OnBody,
            other => {
                return Err(CliError::Usage(format!(
                    "--force-sign: `{other}`; use resisting (a load cell's friction, positive \
                     against a positive velocity) or body (the force on the sliding body)"
                )));
            }
        },
    };
    let names = map.data_names();
    let data = a
        .data
        .iter()
        .map(|path| {
            let table = read(path, map.time.as_ref(), &names)?;
            ForceData::from_table(&table, &map, options).map_err(CliError::Failed)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let keys = a.keys();
    let keys: Vec<&str> = if keys.is_empty() {
        info.meta
            .iter()
            .filter(|m| !m.integer)
            .map(|m| m.key)
            .collect()
    } else {
        keys.iter().map(|k| k.trim_start_matches("law.")).collect()
    };
    let fit_options = LawFitOptions {
        nominal_load_n: a.number("--nominal-load")?,
        stick_speed_mps: a.number("--stick-speed")?,
        rtol: a.number("--rtol")?.unwrap_or(1e-9),
    };
    let problem =
        LawFit::new(base.law.clone(), &keys, data, fit_options).map_err(CliError::Failed)?;
    let params = problem.free_params();
    let result = run_fit(a, &problem, &params)?;
    let used: usize = problem.used().iter().map(Vec::len).sum();
    let total: usize = problem.data().iter().map(ForceData::len).sum();
    let mut title = format!(
        "{} fitted to {} ({used} of {total} samples",
        info.name,
        a.data.join(", ")
    );
    if used < total {
        title += &format!(
            "; {} slower than the stick speed {} left out",
            total - used,
            crate::util::eng::format_si(problem.stick_speed_mps(), "m/s", 3)
        );
    }
    title += &format!(
        "; force parameters at the nominal load {})",
        crate::util::eng::format_si(problem.nominal_load_n(), "N", 4)
    );
    let fitted = problem
        .config_at(&kept_values(&result))
        .map_err(CliError::Failed)?;
    let mut preset = base;
    preset.law = fitted;
    preset.name = format!("{} fitted to {}", info.name, file_names(&a.data));
    preset.description = format!(
        "The {} law with the parameters that best reproduce the friction measured in {}.",
        info.name,
        file_names(&a.data)
    );
    // Weighted residuals (by standard deviations) are pure numbers.
    let unit = if map.sigma.is_some() { "" } else { "N" };
    finish(a, &title, &result, unit, preset)
}

fn trajectory_fit(a: &FitArgs, observe: &str) -> Result<(), CliError> {
    let preset_arg = a.value("--preset").ok_or_else(|| {
        CliError::Usage("fit --observe needs the --preset whose parameters are fitted".into())
    })?;
    let mut base = load_preset_arg(preset_arg)?;
    for (path, value) in a.sets()? {
        base.set_path(&path, &value)
            .map_err(|e| CliError::Failed(format!("--set {path}={value}: {e}")))?;
    }
    let (what, index) = match observe.split_once(':') {
        Some((w, i)) => (
            w,
            i.trim()
                .parse::<usize>()
                .map_err(|_| CliError::Usage(format!("--observe: `{i}` is not a whole number")))?,
        ),
        None => (observe, 0),
    };
    let (role, quantity) = match what {
        "position" => (
            Role::Position(index),
            crate::identify::units::Quantity::Position,
        ),
        "velocity" => (
            Role::Velocity(index),
            crate::identify::units::Quantity::Velocity,
        ),
        "force" => (
            Role::FrictionForce(index),
            crate::identify::units::Quantity::Force,
        ),
        other => {
            return Err(CliError::Usage(format!(
                "--observe: `{other}`; use position, velocity or force (with :N for degree of \
                 freedom or contact N)"
            )));
        }
    };
    let mut time = None;
    let mut value = None;
    let mut sigma = None;
    for (r, spec) in columns(a)? {
        match r.as_str() {
            "time" | "t" => time = Some(spec),
            "value" => value = Some(spec),
            "sigma" => sigma = Some(spec),
            other => {
                return Err(CliError::Usage(format!(
                    "--columns: `{other}` is not a role of a trajectory; use time, value, sigma"
                )));
            }
        }
    }
    let value = value.ok_or_else(|| {
        CliError::Usage("--columns: name the recorded column as value=NAME".into())
    })?;
    let to_si = |spec: &ColumnSpec, q| {
        crate::identify::units::si_factor(q, &spec.unit)
            .map_err(|e| CliError::Failed(format!("column `{}`: {e}", spec.name)))
    };
    let time_factor = match &time {
        Some(t) => to_si(t, crate::identify::units::Quantity::Time)?,
        None => 1.0,
    };
    let value_factor = to_si(&value, quantity)?;
    let mut names = vec![value.name.as_str()];
    if let Some(s) = &sigma {
        names.push(s.name.as_str());
    }
    let data = a
        .data
        .iter()
        .map(|path| {
            let table = read(path, time.as_ref(), &names)?;
            let column = |i: usize| {
                table.columns[i]
                    .1
                    .iter()
                    .map(|v| v * value_factor)
                    .collect()
            };
            Ok(TrajectoryData {
                name: path.clone(),
                t_s: table.time_s.iter().map(|t| t * time_factor).collect(),
                values: column(0),
                sigma: sigma.as_ref().map(|_| column(1)),
                observed: role,
            })
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let keys = a.keys();
    if keys.is_empty() {
        return Err(CliError::Usage(
            "fit --observe: name the free parameters, e.g. --free law.mu_s,law.mu_k,system.damping"
                .into(),
        ));
    }
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let problem = TrajectoryFit::new(base, &keys, data).map_err(CliError::Failed)?;
    let params = problem.free_params();
    let result = run_fit(a, &problem, &params)?;
    let title = format!(
        "{} fitted to the {what} recorded in {}",
        preset_arg,
        a.data.join(", ")
    );
    let mut preset = problem
        .preset_at(&kept_values(&result))
        .map_err(CliError::Failed)?;
    preset.name = format!("{} fitted to {}", preset.name, file_names(&a.data));
    let unit = if sigma.is_some() {
        ""
    } else {
        quantity.si_unit()
    };
    finish(a, &title, &result, unit, preset)
}

fn file_names(paths: &[String]) -> String {
    paths
        .iter()
        .map(|p| {
            Path::new(p)
                .file_name()
                .map_or(p.clone(), |n| n.to_string_lossy().into_owned())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints the report, writes the fitted preset (with the report in its notes) if asked.
fn finish(
    a: &FitArgs,
    title: &str,
    result: &FitResult,
    unit: &str,
    mut preset: Preset,
) -> Result<(), CliError> {
    let text = report::text(title, result, unit);
    preset.notes = format!("Fitted by `tribolab fit`.\n{text}");
    if let Some(out) = a.value("--out") {
        preset
            .save(Path::new(out))
            .map_err(|e| CliError::Failed(e.to_string()))?;
    }
    if a.json {
        let mut json = report::json(result);
        if let (crate::util::json::Json::Obj(fields), Some(out)) = (&mut json, a.value("--out")) {
            fields.push(("preset".into(), crate::util::json::Json::Str(out.into())));
        }
        println!("{}", json.to_pretty());
    } else {
        print!("{text}");
        if let Some(out) = a.value("--out") {
            println!(
                "\nfitted preset written to {out} (parameters the data did not determine keep their start values)"
            );
        }
    }
    if result.converged() {
        Ok(())
    } else {
        Err(CliError::Failed(
            "the fit did not converge: the table shows where it stopped".into(),
        ))
    }
}
