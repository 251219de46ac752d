//! Argument parsing for `tribolab run`.

use super::CliError;
use super::opts::{flag_value, set_pair, split_flag};

/// Options of `tribolab run`.
#[derive(Debug, Default, PartialEq)]
pub struct RunArgs {
    /// Preset path or built-in name.
    pub preset: String,
    /// `--duration` [s].
    pub duration_s: Option<f64>,
    /// `--set PATH=VALUE`, in order.
    pub sets: Vec<(String, String)>,
    /// `--out FILE`.
    pub out: Option<String>,
    /// `--stats`: print integrator counters and speed to stderr.
    pub stats: bool,
    /// `--summary`: print the energy account and each contact's stick and slip statistics
    /// to stderr.
    pub summary: bool,
}

/// Parses the arguments after `run`.
pub fn parse_run(args: &[String]) -> Result<RunArgs, CliError> {
    let mut out = RunArgs::default();
    let mut it = args.iter();
    let mut preset = None;
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        let mut value = |name: &str| flag_value(name, &inline, &mut it);
        match flag {
            "--duration" => {
                let v = value("--duration")?;
                let d: f64 = v.parse().map_err(|_| {
                    CliError::Usage(format!("--duration: `{v}` is not a number of seconds"))
                })?;
                if !d.is_finite() || d < 0.0 {
                    return Err(CliError::Usage(format!(
                        "--duration must be a finite, non-negative number of seconds, got {v}"
                    )));
                }
                out.duration_s = Some(d);
            }
            "--set" => {
                out.sets.push(set_pair(&value("--set")?)?);
            }
            "--out" | "-o" => out.out = Some(value("--out")?),
            "--stats" => out.stats = true,
            "--summary" => out.summary = true,
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(CliError::UnknownOption(f.to_string()));
            }
            _ if preset.is_none() => preset = Some(a.clone()),
            _ => return Err(CliError::Usage(format!("unexpected argument `{a}`"))),
        }
    }
    out.preset = preset.ok_or_else(|| CliError::Usage("run needs a PRESET".into()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_all_forms() {
        let a = parse_run(&s(&[
            "p.ron",
            "--duration",
            "5",
            "--set",
            "system.mass=2",
            "--set=law.mu_s=0.45",
            "--out=o.csv",
        ]))
        .unwrap();
        assert_eq!(a.preset, "p.ron");
        assert_eq!(a.duration_s, Some(5.0));
        assert_eq!(
            a.sets,
            vec![
                ("system.mass".into(), "2".into()),
                ("law.mu_s".into(), "0.45".into())
            ]
        );
        assert_eq!(a.out.as_deref(), Some("o.csv"));
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(
            parse_run(&s(&[])),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse_run(&s(&["p", "--duration", "inf"])),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse_run(&s(&["p", "--set", "nokey"])),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse_run(&s(&["p", "--bogus"])),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
    }
}
