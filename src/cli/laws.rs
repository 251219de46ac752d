//! `tribolab laws`, `tribolab systems` and `tribolab presets`: listings from the registries.

use std::io::Write;

use super::{CliError, stdout_result};
use crate::laws::LAWS;
use crate::params::ParamMeta;
use crate::params::{Scale, fmt_num};
use crate::preset::builtin::BUILTIN;
use crate::systems::SYSTEMS;

pub(super) fn print_laws() -> Result<(), CliError> {
    stdout_result(write_laws(&mut std::io::stdout().lock()))
}

/// One parameter line: `PREFIX.key  unit  default  range  symbol — help`.
fn write_param(out: &mut dyn Write, prefix: &str, m: &ParamMeta) -> std::io::Result<()> {
    let scale = if m.scale == Scale::Log { ", log" } else { "" };
    let restart = if m.restart { ", restarts the run" } else { "" };
    writeln!(
        out,
        "    {prefix}.{:<18} {:<8} default {:<10} range [{}, {}]{scale}{restart}  {} — {}",
        m.key,
        if m.unit.is_empty() { "-" } else { m.unit },
        fmt_num(m.default),
        fmt_num(m.min),
        fmt_num(m.max),
        m.symbol,
        m.help_text()
    )
}

fn write_laws(out: &mut dyn Write) -> std::io::Result<()> {
    for law in LAWS {
        writeln!(out, "{} ({})", law.name, law.variant)?;
        writeln!(out, "    {}", law.equation)?;
        writeln!(out, "    {}", law.summary)?;
        for m in law.meta {
            write_param(out, "law", m)?;
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

pub(super) fn print_systems() -> Result<(), CliError> {
    stdout_result(write_systems(&mut std::io::stdout().lock()))
}

fn write_systems(out: &mut dyn Write) -> std::io::Result<()> {
    for info in SYSTEMS {
        let config = (info.default_config)();
        writeln!(out, "{} ({}, key {})", info.name, info.variant, info.key)?;
        writeln!(out, "    {}", info.equation)?;
        let layout = config.layout();
        let kind = if info.discrete {
            "discrete map"
        } else {
            "flow"
        };
        writeln!(
            out,
            "    {kind}; {} degree(s) of freedom, {} frictional contact(s)",
            layout.dofs.len(),
            config.n_contacts()
        )?;
        for m in info.meta {
            write_param(out, "system", m)?;
        }
        for key in info.extra_keys {
            let value = config.params().get_text(key).unwrap_or_default();
            writeln!(
                out,
                "    system.{key:<18} option, default {value} (RON; see README, \"Mechanical systems\")"
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
