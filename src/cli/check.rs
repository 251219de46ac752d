//! `tribolab check`: validate presets and print every problem.

use super::CliError;
use crate::preset::Preset;

pub(super) fn check(args: &[String]) -> Result<(), CliError> {
    if args.is_empty() {
        return Err(CliError::Usage(
            "check needs at least one PRESET.ron".into(),
        ));
    }
    let mut failed = 0;
    for arg in args {
        match Preset::load(std::path::Path::new(arg)) {
            Ok(p) => println!(
                "{arg}: ok ({}; {} with {})",
                p.name,
                p.system.variant(),
                p.law.info().name
            ),
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
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
