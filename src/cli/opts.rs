//! A small option parser shared by `floquet` and `sweep`: `--flag VALUE`, `--flag=VALUE`,
//! boolean switches, repeated `--set PATH=VALUE`, one positional preset.

use super::{CliError, load_preset_arg};
use crate::preset::Preset;

/// Parsed command line of one command.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Opts {
    /// The preset argument.
    pub preset: String,
    /// `(flag, value)` pairs in order (`--set` included, as `("--set", "PATH=VALUE")`).
    pub values: Vec<(String, String)>,
    /// Boolean switches given.
    pub switches: Vec<String>,
}

impl Opts {
    /// Parses `args` of `command`; `value_flags` take a value, `switches` do not.
    pub fn parse(
        command: &str,
        args: &[String],
        value_flags: &[&str],
        switches: &[&str],
    ) -> Result<Self, CliError> {
        let mut out = Opts::default();
        let mut preset = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (a.as_str(), None),
            };
            if value_flags.contains(&flag) {
                let v = inline
                    .or_else(|| it.next().cloned())
                    .ok_or_else(|| CliError::Usage(format!("{flag} needs a value")))?;
                out.values.push((flag.to_string(), v));
            } else if switches.contains(&flag) && inline.is_none() {
                out.switches.push(flag.to_string());
            } else if flag.starts_with('-') && flag.len() > 1 {
                return Err(CliError::Usage(format!(
                    "{command}: unknown option `{flag}`"
                )));
            } else if preset.is_none() {
                preset = Some(a.clone());
            } else {
                return Err(CliError::Usage(format!(
                    "{command}: unexpected argument `{a}`"
                )));
            }
        }
        out.preset = preset.ok_or_else(|| CliError::Usage(format!("{command} needs a PRESET")))?;
        Ok(out)
    }

    /// Last value of `flag`.
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_str())
    }

    /// Whether switch `flag` was given.
    pub fn switch(&self, flag: &str) -> bool {
        self.switches.iter().any(|s| s == flag)
    }

    /// `flag` as a finite number, if given.
    pub fn number(&self, flag: &str) -> Result<Option<f64>, CliError> {
        self.value(flag)
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| CliError::Usage(format!("{flag}: `{v}` is not a finite number")))
            })
            .transpose()
    }

    /// `flag` as a whole number, if given.
    pub fn count(&self, flag: &str) -> Result<Option<usize>, CliError> {
        self.value(flag)
            .map(|v| {
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| CliError::Usage(format!("{flag}: `{v}` is not a whole number")))
            })
            .transpose()
    }

    /// The preset with every `--set` applied and checked.
    pub fn preset(&self) -> Result<Preset, CliError> {
        let mut preset = load_preset_arg(&self.preset)?;
        for (flag, v) in &self.values {
            if flag != "--set" {
                continue;
            }
            let (path, value) = v
                .split_once('=')
                .ok_or_else(|| CliError::Usage(format!("--set expects PATH=VALUE, got `{v}`")))?;
            preset
                .set_path(path.trim(), value)
                .map_err(|e| CliError::Failed(format!("--set {v}: {e}")))?;
        }
        let problems = preset.problems();
        if !problems.is_empty() {
            let msg: Vec<String> = problems
                .iter()
                .map(|(p, m)| format!("{}: {p}: {m}", self.preset))
                .collect();
            return Err(CliError::Failed(msg.join("\n")));
        }
        Ok(preset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_values_switches_and_sets() {
        let o = Opts::parse(
            "sweep",
            &s(&[
                "p.ron",
                "--param",
                "law.mu_s",
                "--from=0.3",
                "--set",
                "system.mass=2",
                "--json",
            ]),
            &["--param", "--from", "--set"],
            &["--json"],
        )
        .unwrap();
        assert_eq!(o.preset, "p.ron");
        assert_eq!(o.value("--param"), Some("law.mu_s"));
        assert_eq!(o.number("--from").unwrap(), Some(0.3));
        assert_eq!(o.value("--set"), Some("system.mass=2"));
        assert!(o.switch("--json"));
    }

    #[test]
    fn rejects_bad_input() {
        let parse = |v: &[&str]| Opts::parse("floquet", &s(v), &["--rtol"], &["--json"]);
        assert!(matches!(parse(&[]), Err(CliError::Usage(_))));
        assert!(matches!(parse(&["p", "--bogus"]), Err(CliError::Usage(_))));
        assert!(matches!(parse(&["p", "q"]), Err(CliError::Usage(_))));
        assert!(matches!(parse(&["p", "--rtol"]), Err(CliError::Usage(_))));
        let o = parse(&["p", "--rtol", "nan"]).unwrap();
        assert!(matches!(o.number("--rtol"), Err(CliError::Usage(_))));
    }
}
