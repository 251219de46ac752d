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
//! [`merge`] checks that the shards share those lines, that they are shards 1…N of one split
//! with every cell exactly once, and writes the rows in cell order without the shard line: the
//! bytes of the unsplit map.

use std::io::{self, Write};

use super::{MapCell, MapSpec};
use crate::analysis::sweep::Transient;
use crate::preset::Preset;
use crate::util::number::format_number;

/// The `#` lines that identify a map (everything but the shard).
pub fn settings_lines(base: &Preset, spec: &MapSpec) -> Vec<String> {
    let text = base.to_ron().unwrap_or_default();
    let transient = match spec.transient {
        Transient::Seconds(s) => format!("{} s", format_number(s)),
        Transient::Returns(n) => format!("{n} returns"),
    };
    vec![
        "# tribolab regime map".to_string(),
        format!(
            "# preset: {} (fnv1a {:016x})",
            base.name,
            fnv1a(text.as_bytes())
        ),
        format!("# x: {}", spec.x.describe()),
        format!("# y: {}", spec.y.describe()),
        format!(
            "# run: duration {} s, transient {transient}, section {}",
            format_number(spec.duration_s),
            spec.section.describe()
        ),
    ]
}

/// 64-bit FNV-1a hash (stable across builds and machines, unlike `DefaultHasher`).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
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
         slip_events,message",
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
        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
    for line in settings_lines(base, spec) {
        writeln!(w, "{line}")?;
    }
    if !spec.shard.is_all() {
        writeln!(w, "# shard: {}/{}", spec.shard.index, spec.shard.count)?;
    }
    writeln!(w, "{}", header(spec, amplitude_unit))?;
    for c in cells {
        writeln!(w, "{}", row(c))?;
    }
    Ok(())
}

/// A map file split into its parts.
struct MapFile<'a> {
    name: &'a str,
    settings: Vec<&'a str>,
    shard: Option<(usize, usize)>,
    header: &'a str,
    /// (cell, line number, row text).
    rows: Vec<(usize, usize, &'a str)>,
}

fn parse<'a>(name: &'a str, text: &'a str) -> Result<MapFile<'a>, String> {
    let mut file = MapFile {
        name,
        settings: Vec::new(),
        shard: None,
        header: "",
        rows: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let at = |what: &str| format!("{name}:{}: {what}", i + 1);
        if let Some(rest) = line.strip_prefix("# shard:") {
            let (k, n) = rest
                .trim()
                .split_once('/')
                .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
                .ok_or_else(|| at("the shard line should read `# shard: K/N`"))?;
            file.shard = Some((k, n));
        } else if line.starts_with('#') {
            if !file.header.is_empty() {
                return Err(at("a `#` line after the header row"));
            }
            file.settings.push(line);
        } else if file.header.is_empty() {
            file.header = line;
        } else if !line.is_empty() {
            let cell = line
                .split(',')
                .next()
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| at("a row should start with its cell number"))?;
            file.rows.push((cell, i + 1, line));
        }
    }
    if file.settings.first() != Some(&"# tribolab regime map") {
        return Err(format!(
            "{name}:1: not a tribolab regime map (it should start with `# tribolab regime map`)"
        ));
    }
    if file.header.is_empty() {
        return Err(format!("{name}: no header row"));
    }
    Ok(file)
}

/// Number of cells from the `# x:` and `# y:` lines (`…:STEPS`).
fn grid_cells(file: &MapFile<'_>) -> Result<usize, String> {
    let steps = |prefix: &str| -> Result<usize, String> {
        file.settings
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|l| l.rsplit(':').next())
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| format!("{}: no `{prefix} PATH=A:B:N` line", file.name))
    };
    Ok(steps("# x:")? * steps("# y:")?)
}

/// Merges shard files (`(name, text)`) into the text of the unsplit map. Refuses files of
/// different maps, a missing or repeated shard, and a cell missing or twice.
pub fn merge(files: &[(String, String)]) -> Result<String, String> {
    let parsed: Vec<MapFile<'_>> = files
        .iter()
        .map(|(n, t)| parse(n, t))
        .collect::<Result<_, _>>()?;
    let Some(first) = parsed.first() else {
        return Err("merge needs at least one shard file".into());
    };
    let count = first.shard.map_or(1, |(_, n)| n);
    let mut seen = vec![None::<&str>; count];
    for f in &parsed {
        if f.settings != first.settings || f.header != first.header {
            let which = f
                .settings
                .iter()
                .zip(&first.settings)
                .find(|(a, b)| a != b)
                .map_or_else(
                    || "its header row".to_string(),
                    |(a, b)| format!("`{a}` against `{b}`"),
                );
            return Err(format!(
                "{} is not a shard of the same map as {}: {which}",
                f.name, first.name
            ));
        }
        let (k, n) = f.shard.unwrap_or((1, 1));
        if n != count || k == 0 || k > n {
            return Err(format!(
                "{}: shard {k}/{n} does not belong to a split into {count}",
                f.name
            ));
        }
        if let Some(other) = seen[k - 1] {
            return Err(format!("{} and {other} are both shard {k}/{n}", f.name));
        }
        seen[k - 1] = Some(f.name);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        return Err(format!("shard(s) missing: {}", missing.join(", ")));
    }
    let cells = grid_cells(first)?;
    let mut rows: Vec<Option<(&str, usize, &str)>> = vec![None; cells];
    for f in &parsed {
        for &(cell, line, text) in &f.rows {
            let at = format!("{}:{line}", f.name);
            let slot = rows
                .get_mut(cell)
                .ok_or_else(|| format!("{at}: cell {cell} is outside the {cells}-cell grid"))?;
            if let Some((other, other_line, _)) = slot {
                return Err(format!("{at}: cell {cell} is also in {other}:{other_line}"));
            }
            *slot = Some((f.name, line, text));
        }
    }
    if let Some(cell) = rows.iter().position(Option::is_none) {
        let absent = rows.iter().filter(|r| r.is_none()).count();
        return Err(format!(
            "{absent} cell(s) missing, the first is cell {cell} (did a shard stop early?)"
        ));
    }
    let mut out = String::new();
    for line in &first.settings {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(first.header);
    out.push('\n');
    for (_, _, text) in rows.into_iter().flatten() {
        out.push_str(text);
        out.push('\n');
    }
    Ok(out)
}
