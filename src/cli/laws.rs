//! `tribolab laws` and `tribolab presets`: listings from the registries.

use std::io::Write;

use super::{CliError, stdout_result};
use crate::laws::LAWS;
use crate::params::{Scale, fmt_num};
use crate::preset::builtin::BUILTIN;

pub(super) fn print_laws() -> Result<(), CliError> {
    stdout_result(write_laws(&mut std::io::stdout().lock()))
}

fn write_laws(out: &mut dyn Write) -> std::io::Result<()> {
    for law in LAWS {
        writeln!(out, "{} ({})", law.name, law.variant)?;
        writeln!(out, "    {}", law.equation)?;
        writeln!(out, "    {}", law.summary)?;
        for m in law.meta {
            let scale = if m.scale == Scale::Log { ", log" } else { "" };
            writeln!(
                out,
                "    law.{:<18} {:<8} default {:<10} range [{}, {}]{}  {} — {}",
                m.key,
                if m.unit.is_empty() { "-" } else { m.unit },
                fmt_num(m.default),
                fmt_num(m.min),
                fmt_num(m.max),
                scale,
                m.symbol,
                m.help_text()
            )?;
        }
        for key in law.extra_keys {
            writeln!(
                out,
                "    law.{key:<18} option (see README, \"Preset format\")"
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

pub(super) fn print_presets() -> Result<(), CliError> {
    stdout_result(write_presets(&mut std::io::stdout().lock()))
}

fn write_presets(out: &mut dyn Write) -> std::io::Result<()> {
    for (stem, text) in BUILTIN {
        match crate::preset::Preset::from_ron(text, stem) {
            Ok(p) => writeln!(out, "{stem:<28} {}", p.name)?,
            Err(e) => writeln!(out, "{stem:<28} (broken: {e})")?,
        }
    }
    Ok(())
}
