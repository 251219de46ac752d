//! `tribolab rig` on a characterisation rig: runs the preset's standard test and reads it
//! ([`crate::analysis::rig_reading`]): the table on `--out` or stdout (CSV), the findings on
//! stderr.

use std::io::Write;

use super::{CliError, format_number};
use crate::analysis::rig_reading::{RigReading, run_and_read};
use crate::preset::Preset;

/// Runs `preset` (named `name`) and reads its test; writes the table to `out`.
pub(super) fn characterisation_cmd(
    name: &str,
    preset: &Preset,
    out: Option<&str>,
) -> Result<(), CliError> {
    let run = run_and_read(preset).map_err(|e| CliError::Failed(format!("{name}: {e}")))?;
    let reading = &run.reading;
    super::write_out(out, |w: &mut dyn Write| write_table(reading, w))?;
    eprintln!("{}", reading.title);
    if reading.findings.is_empty() {
        eprintln!("nothing complete yet (a longer --duration?)");
    }
    for f in &reading.findings {
        eprintln!("  {f}");
    }
    match run.outcome {
        Ok(()) => Ok(()),
        Err(e) => Err(CliError::Failed(format!(
            "{name}: the run stopped: {e}; what was complete up to then was read and written"
        ))),
    }
}

fn write_table(reading: &RigReading, w: &mut dyn Write) -> std::io::Result<()> {
    let header: Vec<&str> = reading.columns.iter().map(|(n, _)| *n).collect();
    writeln!(w, "{}", header.join(","))?;
    for row in &reading.rows {
        let cells: Vec<String> = row.iter().map(|&x| format_number(x)).collect();
        writeln!(w, "{}", cells.join(","))?;
    }
    Ok(())
}
