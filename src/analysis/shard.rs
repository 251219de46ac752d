//! Runs split into shards that run anywhere — the tasks of a Slurm job array, GNU parallel's
//! jobs, machines of their own — and the shard files joined back into the file of the unsplit
//! run, byte for byte.
//!
//! A run splits into *units* that do not depend on each other: the cells of a regime map, the
//! values of a fixed-start sweep or of a friction sweep. Unit `i` belongs to shard `k` of `n`
//! when `i mod n = k − 1` (round robin: the costly end of a range is spread over every shard).
//!
//! A shard file states everything its numbers depend on in `#` lines (the kind of run, the
//! preset with a hash of its full text so `--set` overrides count, the ranges, the settings),
//! then which shard it is, the header row and its rows:
//! ```text
//! # tribolab sweep
//! # preset: S1 bench (fnv1a 0c5e…)
//! # values: system.wheel_rpm=10:30:200
//! # run: fixed start, duration 300 s, transient 50 returns, section auto
//! # shard: 3/16
//! system.wheel_rpm,branch,section,t,…
//! # unit 2
//! 10.2,fixed,stick onset,…
//! ```
//! Map rows carry their cell number in the first column; the rows of sweeps (several per value,
//! or one) follow a `# unit I` line. [`merge`] checks that the files share the `#` lines and the
//! header, that they are shards 1…N of one split with every unit exactly once, and writes the
//! rows in unit order as the unsplit run writes them: a map keeps its `#` lines, a sweep's
//! unsplit file (plain CSV) has none.

use std::io::{self, Write};

use crate::preset::Preset;

/// A slice of a run's units: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1 to `count`.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("shard `{text}`: expected K/N with 1 ≤ K ≤ N, e.g. 3/16");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }

    /// Whether unit `unit` belongs to this shard.
    pub fn contains(self, unit: usize) -> bool {
        unit % self.count == self.index - 1
    }

    /// Whether this is the whole run.
    pub fn is_all(self) -> bool {
        self.count == 1
    }

    /// The units of this shard among `total`, in order.
    pub fn units(self, total: usize) -> Vec<usize> {
        (0..total).filter(|&u| self.contains(u)).collect()
    }
}

/// First line of a regime map file.
pub const MAP: &str = "# tribolab regime map";
/// First line of a fixed-start sweep's shard file.
pub const SWEEP: &str = "# tribolab sweep";
/// First line of a friction sweep's shard file.
pub const FRICTION_SWEEP: &str = "# tribolab friction sweep";
/// Prefix of the line that opens a unit's rows in a sweep's shard file.
pub const UNIT: &str = "# unit ";
/// Prefix of the line that names the values of a sweep (`PATH=A:B:N`, then anything).
pub const VALUES: &str = "# values: ";

/// `# preset: NAME (fnv1a HASH)`, the hash over the preset's full RON text.
pub fn preset_line(base: &Preset) -> String {
    let text = base.to_ron().unwrap_or_default();
    format!(
        "# preset: {} (fnv1a {:016x})",
        base.name,
        crate::util::hash::fnv1a(text.as_bytes())
    )
}

/// Writes the `#` lines and the shard line of a shard file.
pub fn write_settings(w: &mut dyn Write, settings: &[String], shard: Shard) -> io::Result<()> {
    for line in settings {
        writeln!(w, "{line}")?;
    }
    if !shard.is_all() {
        writeln!(w, "# shard: {}/{}", shard.index, shard.count)?;
    }
    Ok(())
}

/// A file split into its parts.
struct ShardFile<'a> {
    name: &'a str,
    settings: Vec<&'a str>,
    shard: Option<(usize, usize)>,
    header: &'a str,
    /// (unit, line number of its first row, its rows).
    units: Vec<(usize, usize, Vec<&'a str>)>,
}

/// How a kind of file is read.
struct Kind {
    /// Rows name their unit in the first column (maps), else `# unit I` lines do.
    keyed_rows: bool,
    /// The unsplit file keeps the `#` lines.
    keep_settings: bool,
}

fn kind_of(first_line: &str) -> Option<Kind> {
    match first_line {
        MAP => Some(Kind {
            keyed_rows: true,
            keep_settings: true,
        }),
        SWEEP | FRICTION_SWEEP => Some(Kind {
            keyed_rows: false,
            keep_settings: false,
        }),
        _ => None,
    }
}

fn parse<'a>(name: &'a str, text: &'a str) -> Result<(ShardFile<'a>, Kind), String> {
    let first = text.lines().next().unwrap_or_default();
    let kind = kind_of(first).ok_or_else(|| {
        format!(
            "{name}:1: not a tribolab shard file (it should start with `{MAP}`, `{SWEEP}` or \
             `{FRICTION_SWEEP}`; shard files come from --shard K/N)"
        )
    })?;
    let mut file = ShardFile {
        name,
        settings: Vec::new(),
        shard: None,
        header: "",
        units: Vec::new(),
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
        } else if let Some(rest) = line.strip_prefix(UNIT).filter(|_| !kind.keyed_rows) {
            if file.header.is_empty() {
                return Err(at("a unit line before the header row"));
            }
            let unit = rest
                .trim()
                .parse()
                .map_err(|_| at("the unit line should read `# unit I`"))?;
            file.units.push((unit, i + 2, Vec::new()));
        } else if line.starts_with('#') {
            if !file.header.is_empty() {
                return Err(at("a `#` line after the header row"));
            }
            file.settings.push(line);
        } else if file.header.is_empty() {
            file.header = line;
        } else if !line.is_empty() {
            if kind.keyed_rows {
                let unit = line
                    .split(',')
                    .next()
                    .and_then(|c| c.parse().ok())
                    .ok_or_else(|| at("a row should start with its cell number"))?;
                file.units.push((unit, i + 1, vec![line]));
            } else {
                let (_, _, rows) = file
                    .units
                    .last_mut()
                    .ok_or_else(|| at("a row before the first `# unit I` line"))?;
                rows.push(line);
            }
        }
    }
    if file.header.is_empty() {
        return Err(format!("{name}: no header row"));
    }
    Ok((file, kind))
}

/// Number of units from the settings: a map's `# x:` and `# y:` lines, a sweep's `# values:`
/// line (`…:STEPS`, then anything).
fn unit_count(file: &ShardFile<'_>) -> Result<usize, String> {
    let steps = |prefix: &str| -> Result<usize, String> {
        file.settings
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|l| l.split_once('=').map(|(_, range)| range))
            .and_then(|range| range.split(':').nth(2))
            .and_then(|n| {
                let digits: String = n.trim().chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .ok_or_else(|| format!("{}: no `{prefix}PATH=A:B:N` line", file.name))
    };
    if file.settings.first() == Some(&MAP) {
        Ok(steps("# x: ")? * steps("# y: ")?)
    } else {
        steps(VALUES)
    }
}

/// Merges shard files (`(name, text)`) into the text of the unsplit run. Refuses files of
/// different runs, a missing or repeated shard, and a unit missing or twice.
pub fn merge(files: &[(String, String)]) -> Result<String, String> {
    let parsed: Vec<(ShardFile<'_>, Kind)> = files
        .iter()
        .map(|(n, t)| parse(n, t))
        .collect::<Result<_, _>>()?;
    let Some((first, kind)) = parsed.first() else {
        return Err("merge needs at least one shard file".into());
    };
    let count = first.shard.map_or(1, |(_, n)| n);
    let mut seen = vec![None::<&str>; count];
    for (f, _) in &parsed {
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
                "{} is not a shard of the same run as {}: {which}",
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
    let total = unit_count(first)?;
    let what = if kind.keyed_rows { "cell" } else { "unit" };
    let mut slots: Vec<Option<(&str, usize, &[&str])>> = vec![None; total];
    for (f, _) in &parsed {
        for (unit, line, rows) in &f.units {
            let at = format!("{}:{line}", f.name);
            let slot = slots
                .get_mut(*unit)
                .ok_or_else(|| format!("{at}: {what} {unit} is outside the {total} of the run"))?;
            if let Some((other, other_line, _)) = slot {
                return Err(format!(
                    "{at}: {what} {unit} is also in {other}:{other_line}"
                ));
            }
            *slot = Some((f.name, *line, rows));
        }
    }
    if let Some(unit) = slots.iter().position(Option::is_none) {
        let absent = slots.iter().filter(|r| r.is_none()).count();
        return Err(format!(
            "{absent} {what}(s) missing, the first is {what} {unit} (did a shard stop early?)"
        ));
    }
    let mut out = String::new();
    if kind.keep_settings {
        for line in &first.settings {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str(first.header);
    out.push('\n');
    for (_, _, rows) in slots.into_iter().flatten() {
        for row in rows {
            out.push_str(row);
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep_shard(k: usize, n: usize, values: &[(usize, &[&str])]) -> (String, String) {
        let mut text = format!("{SWEEP}\n{VALUES}p=0:1:5 (log)\n# shard: {k}/{n}\np,x\n");
        for (unit, rows) in values {
            text.push_str(&format!("{UNIT}{unit}\n"));
            for r in *rows {
                text.push_str(r);
                text.push('\n');
            }
        }
        (format!("s{k}.csv"), text)
    }

    #[test]
    fn units_go_round_robin() {
        let s = Shard::parse("2/3").unwrap();
        assert_eq!(s.units(8), vec![1, 4, 7]);
        assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
        assert!(Shard::parse("3").is_err() && Shard::parse("a/b").is_err());
        assert_eq!(Shard::ALL.units(3), vec![0, 1, 2]);
    }

    #[test]
    fn sweep_shards_merge_into_plain_csv_in_value_order() {
        let a = sweep_shard(
            1,
            2,
            &[(0, &["0,1", "0,2"]), (2, &["0.5,7"]), (4, &["1,9"])],
        );
        let b = sweep_shard(2, 2, &[(1, &["0.25,3"]), (3, &["0.75,5", "0.75,6"])]);
        let merged = merge(&[b.clone(), a.clone()]).unwrap();
        assert_eq!(
            merged,
            "p,x\n0,1\n0,2\n0.25,3\n0.5,7\n0.75,5\n0.75,6\n1,9\n"
        );
        // A value missing, a value twice, a row outside any unit.
        let short = sweep_shard(2, 2, &[(1, &["0.25,3"])]);
        let err = merge(&[a.clone(), short]).unwrap_err();
        assert!(err.contains("unit 3"), "{err}");
        let twice = sweep_shard(2, 2, &[(1, &["x"]), (3, &["y"]), (2, &["z"])]);
        let err = merge(&[a.clone(), twice]).unwrap_err();
        assert!(err.contains("unit 2 is also in"), "{err}");
        let stray = (
            "s.csv".to_string(),
            format!("{SWEEP}\n{VALUES}p=0:1:5\np,x\n0,1\n"),
        );
        let err = merge(&[stray]).unwrap_err();
        assert!(
            err.contains("s.csv:4") && err.contains("before the first"),
            "{err}"
        );
        let plain = ("plain.csv".to_string(), "p,x\n0,1\n".to_string());
        let err = merge(&[plain]).unwrap_err();
        assert!(
            err.contains("plain.csv:1") && err.contains("--shard"),
            "{err}"
        );
    }
}
