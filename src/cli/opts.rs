//! Command-line options: the argument tokens every command shares (`--flag VALUE`,
//! `--flag=VALUE`, `--set PATH=VALUE`) and a small parser on top of them for `floquet` and
//! `sweep` (boolean switches, repeated `--set`, one positional preset).

use super::{CliError, prepared_preset};
use crate::preset::Preset;

/// Splits `--flag=VALUE` into the flag and its inline value; any other argument is returned
/// whole with no value.
pub(super) fn split_flag(a: &str) -> (&str, Option<String>) {
    match a.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
        _ => (a, None),
    }
}

/// The value of option `name`: its inline value, else the next argument.
pub(super) fn flag_value<'a>(
    name: &str,
    inline: &Option<String>,
    rest: &mut impl Iterator<Item = &'a String>,
) -> Result<String, CliError> {
    inline
        .clone()
        .or_else(|| rest.next().cloned())
        .ok_or_else(|| CliError::Usage(format!("{name} needs a value")))
}

/// The value `v` of option `flag` as a finite number.
pub(super) fn finite_number(flag: &str, v: &str) -> Result<f64, CliError> {
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| CliError::Usage(format!("{flag}: `{v}` is not a finite number")))
}

/// The `(PATH, VALUE)` of a `--set PATH=VALUE` (path trimmed).
pub(super) fn set_pair(v: &str) -> Result<(String, String), CliError> {
    let (path, value) = v
        .split_once('=')
        .ok_or_else(|| CliError::Usage(format!("--set expects PATH=VALUE, got `{v}`")))?;
    Ok((path.trim().to_string(), value.to_string()))
}

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
            let (flag, inline) = split_flag(a);
            if value_flags.contains(&flag) {
                let v = flag_value(flag, &inline, &mut it)?;
                out.values.push((flag.to_string(), v));
            } else if switches.contains(&flag) && inline.is_none() {
                out.switches.push(flag.to_string());
            } else if flag.starts_with('-') && flag.len() > 1 {
                return Err(CliError::UnknownOption(flag.to_string()));
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
        self.value(flag).map(|v| finite_number(flag, v)).transpose()
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
        let sets = self
            .values
            .iter()
            .filter(|(flag, _)| flag == "--set")
            .map(|(_, v)| set_pair(v))
            .collect::<Result<Vec<_>, _>>()?;
        prepared_preset(
            &self.preset,
            sets.iter().map(|(p, v)| (p.as_str(), v.as_str())),
            None,
        )
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
        assert!(matches!(
            parse(&[]),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse(&["p", "--bogus"]),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse(&["p", "q"]),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        assert!(matches!(
            parse(&["p", "--rtol"]),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
        let o = parse(&["p", "--rtol", "nan"]).unwrap();
        assert!(matches!(
            o.number("--rtol"),
            Err(CliError::Usage(_) | CliError::UnknownOption(_))
        ));
    }
}
