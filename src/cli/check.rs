//! `tribolab check`: validate presets (with `--set PATH=VALUE` changes applied to each, as
//! the other commands apply them) and lesson files (every step set up), and print every
//! problem.

use super::opts::{flag_value, set_pair, split_flag};
use super::{CliError, prepared_preset};

pub(super) fn check(args: &[String]) -> Result<(), CliError> {
    let mut presets = Vec::new();
    let mut sets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        if flag == "--set" {
            sets.push(set_pair(&flag_value(flag, &inline, &mut it)?)?);
        } else if flag.starts_with("--") {
            return Err(CliError::UnknownOption(flag.to_string()));
        } else {
            presets.push(a);
        }
    }
    if presets.is_empty() {
        return Err(CliError::Usage(
            "check needs at least one PRESET.ron".into(),
        ));
    }
    let mut failed = 0;
    for arg in &presets {
        if let Some(result) = check_lesson(arg) {
            match result {
                Ok(line) => println!("{line}"),
                Err(problems) => {
                    failed += 1;
                    eprintln!("{problems}");
                }
            }
            continue;
        }
        // A file, else a built-in preset name (as for every other command).
        let sets = sets.iter().map(|(p, v)| (p.as_str(), v.as_str()));
        match prepared_preset(arg, sets, None) {
            Ok(p) => {
                let friction = if p.system.uses_law() {
                    format!("with {}", p.law.info().name)
                } else if p.system.layout().contacts.is_empty() {
                    "without friction".to_string()
                } else {
                    "with its own friction".to_string()
                };
                println!("{arg}: ok ({}; {} {friction})", p.name, p.system.variant());
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    if failed > 0 {
        Err(CliError::Failed(format!(
            "{failed} of {} files have problems",
            presets.len()
        )))
    } else {
        Ok(())
    }
}

/// A lesson file (a file whose text has `steps:`) checked step by step: `None` for anything
/// else, `Some(Ok(summary))` or `Some(Err(every problem, one per line))`.
fn check_lesson(arg: &str) -> Option<Result<String, String>> {
    let path = std::path::Path::new(arg);
    let text = std::fs::read_to_string(path).ok()?;
    if !crate::lesson::looks_like_lesson(&text) {
        return None;
    }
    let lesson = match crate::lesson::Lesson::from_ron(&text, arg) {
        Ok(l) => l,
        Err(e) => return Some(Err(e.to_string())),
    };
    let base = path.parent();
    let problems = lesson.problems(&|name| crate::lesson::load_preset(name, base));
    Some(if problems.is_empty() {
        Ok(format!(
            "{arg}: ok (lesson \"{}\", {} steps)",
            lesson.title,
            lesson.steps.len()
        ))
    } else {
        Err(problems
            .iter()
            .map(|p| format!("{arg}: {p}"))
            .collect::<Vec<_>>()
            .join("\n"))
    })
}
