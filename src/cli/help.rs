//! Help for one command (`tribolab COMMAND --help`, `tribolab help COMMAND`), cut from the one
//! usage text so the two never disagree, and "did you mean" for commands and options.

use super::USAGE;

/// The commands, in the order of the usage text.
pub const COMMANDS: &[&str] = &[
    "gui", "run", "lyapunov", "check", "analyze", "floquet", "sweep", "events", "friction", "rig",
    "plot", "fit", "map", "merge", "laws", "systems", "presets", "bench", "help",
];

/// The notes under the usage text that explain `PRESET` and `--set`.
fn preset_notes() -> &'static str {
    USAGE
        .find("PRESET is a file path")
        .map_or("", |i| &USAGE[i..])
}

/// The usage lines of `command` (every block of it, with its continuation lines), and the
/// notes on presets when it takes one; `None` for an unknown command.
pub fn command_usage(command: &str) -> Option<String> {
    if !COMMANDS.contains(&command) {
        return None;
    }
    let head = format!("    tribolab {command}");
    let mut out = String::new();
    let mut inside = false;
    for line in USAGE.lines() {
        if line.starts_with("    tribolab ") || !line.starts_with("    ") {
            inside = line
                .strip_prefix(&head)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    if out.contains("PRESET") || out.contains("--set") {
        out.push('\n');
        out.push_str(preset_notes());
    }
    Some(format!("USAGE:\n{out}"))
}

/// The options (`--name`) the usage text gives `command`.
pub fn command_options(command: &str) -> Vec<String> {
    let Some(text) = command_usage(command) else {
        return Vec::new();
    };
    let text = text.split("PRESET is a file path").next().unwrap_or("");
    let mut out: Vec<String> = Vec::new();
    for (i, _) in text.match_indices("--") {
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() {
            let flag = format!("--{name}");
            if !out.contains(&flag) {
                out.push(flag);
            }
        }
    }
    out
}

/// Whether the arguments ask for help.
pub fn asks_for_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_has_its_own_usage() {
        for c in COMMANDS {
            let u = command_usage(c).unwrap_or_else(|| panic!("{c}"));
            assert!(u.contains(&format!("tribolab {c}")), "{c}: {u}");
        }
        let run = command_usage("run").unwrap();
        assert!(
            run.contains("--summary") && !run.contains("lyapunov"),
            "{run}"
        );
        assert!(run.contains("PRESET is a file path"));
        // Both forms of fit.
        assert_eq!(
            command_usage("fit")
                .unwrap()
                .matches("    tribolab fit")
                .count(),
            2
        );
        assert!(command_usage("nope").is_none());
    }

    #[test]
    fn options_come_from_the_usage() {
        let o = command_options("run");
        for f in ["--duration", "--set", "--out", "--summary", "--stats"] {
            assert!(o.iter().any(|x| x == f), "{f} in {o:?}");
        }
    }
}
