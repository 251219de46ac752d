//! `tribolab check`: validate presets and print every problem.

use super::{CliError, load_preset_arg};

pub(super) fn check(args: &[String]) -> Result<(), CliError> {
    if args.is_empty() {
        return Err(CliError::Usage(
            "check needs at least one PRESET.ron".into(),
        ));
    }
    let mut failed = 0;
    for arg in args {
        // A file, else a built-in preset name (as for every other command).
        match load_preset_arg(arg) {
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
            Err(CliError::Failed(message) | CliError::Usage(message)) => {
                failed += 1;
                eprintln!("{message}");
            }
        }
    }
    if failed > 0 {
        Err(CliError::Failed(format!(
            "{failed} of {} presets have problems",
            args.len()
        )))
    } else {
        Ok(())
    }
}
