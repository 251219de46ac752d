//! Regime maps as CSV, and shard files merged into the file of the unsplit map.
//!
//! A map file opens with `#` lines that state everything its numbers depend on (the preset,
//! with a hash of its full text so `--set` overrides count, both axes, the run) and, for a
//! shard, which shard it is; then a header row and one row per cell in cell order:
//! ```text
//! # tribolab regime map
//! # preset: S1 bench (fnv1a 0c5e…)
//! # x: system.belt_speed=0.05:0.5:100
//! # y: system.damping=0:20:100
//! # run: duration 200 s, transient 50 returns, section auto
//! # shard: 3/16
//! cell,ix,iy,system.belt_speed,system.damping,regime,period,returns,stick_fraction,…
//! ```
//! [`merge`] (the one of every sharded run, [`crate::analysis::shard`]) checks that the shards
//! share those lines, that they are shards 1…N of one split with every cell exactly once, and
//! writes the rows in cell order without the shard line: the bytes of the unsplit map.

use std::io::{self, Write};

pub use crate::analysis::shard::merge;

use super::{MapCell, MapSpec};
use crate::analysis::shard;
use crate::analysis::sweep::Transient;
use crate::preset::Preset;
use crate::util::number::format_number;

/// The `#` lines that identify a map (everything but the shard).
pub fn settings_lines(base: &Preset, spec: &MapSpec) -> Vec<String> {
    let transient = match spec.transient {
        Transient::Seconds(s) => format!("{} s", format_number(s)),
        Transient::Returns(n) => format!("{n} returns"),
    };
    vec![
        shard::MAP.to_string(),
        shard::preset_line(base),
        format!("# x: {}", spec.x.describe()),
        format!("# y: {}", spec.y.describe()),
        format!(
            "# run: duration {} s, transient {transient}, section {}{}",
            format_number(spec.duration_s),
            spec.section.describe(),
            if spec.lyapunov {
                ", largest Lyapunov exponent"
            } else {
                ""
            }
        ),
    ]
}

/// The header row: cell indices, the two parameters by path, the regime and the measures.
pub fn header(spec: &MapSpec, amplitude_unit: &str) -> String {
    let amplitude = if amplitude_unit.is_empty() {
        "amplitude".to_string()
    } else {
        format!("amplitude_{}", amplitude_unit.replace('/', "_per_"))
    };
    format!(
        "cell,ix,iy,{},{},regime,period,returns,stick_fraction,{amplitude},frequency_hz,\
         slip_events,lambda1_per_s,message",
        spec.x.param, spec.y.param
    )
}

/// One cell as a CSV row.
pub fn row(c: &MapCell) -> String {
    let message = c.message.replace(['"', '\n', '\r'], " ");
    let message = if message.contains(',') {
        format!("\"{message}\"")
    } else {
        message
    };
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        c.cell,
        c.ix,
        c.iy,
        format_number(c.x),
        format_number(c.y),
        c.regime.code(),
        c.regime.period(),
        c.returns,
        format_number(c.stick_fraction),
        format_number(c.amplitude),
        format_number(c.frequency_hz),
        c.slip_events,
        format_number(c.lambda1_per_s),
        message
    )
}

/// Writes a map (or one shard of it).
pub fn write(
    w: &mut dyn Write,
    base: &Preset,
    spec: &MapSpec,
    amplitude_unit: &str,
    cells: &[MapCell],
) -> io::Result<()> {
    shard::write_settings(w, &settings_lines(base, spec), spec.shard)?;
    writeln!(w, "{}", header(spec, amplitude_unit))?;
    for c in cells {
        writeln!(w, "{}", row(c))?;
    }
    Ok(())
}
