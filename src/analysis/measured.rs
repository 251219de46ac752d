//! Import of a measured time series from CSV (issue 4, "measured data").
//!
//! Format: an optional UTF-8 BOM, `#` comment lines and blank lines anywhere, one header line of
//! column names, then rows of numbers. The separator is taken from the header: `,` if it has
//! one, else `;`, else a tab. Cells are trimmed; surrounding double quotes are removed. Times
//! are in seconds. The time column is `--time NAME` if given, else the first column named
//! `t`, `time`, `t_s` or `time_s` (case-insensitive, a trailing unit such as `[s]` or `(s)`
//! ignored), else the first column. Only the time column and the chosen data columns are
//! parsed as numbers, so unused text columns do no harm; every row must still have as many
//! cells as the header. Errors carry `file:line:column` (1-based; the column counts characters
//! from the start of the line to the offending cell).
//!
//! **tribolab's own CSVs** (`tribolab run --out`, *Export traces*) end with a column `event`
//! that is 1 on the extra rows written at each stick/slip switch (off the output grid, often at
//! the time of a grid row). A column named `event` is taken as that flag unless it is the time
//! column or asked for by name: it is not a data column, and rows with a non-zero `event` are
//! skipped (counted in [`MeasuredTable::skipped_event_rows`]), so such a file analyses like any
//! uniform record.

use std::path::Path;

pub use super::measured_error::{MeasuredError, Place};
use super::resample::{Spacing, resample_linear};

/// Which columns to read.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvSelection<'a> {
    /// Time column name; `None` picks it as the module doc says.
    pub time: Option<&'a str>,
    /// Data columns; empty means every column except the time column.
    pub columns: &'a [&'a str],
}

/// The time column and the chosen data columns of a CSV file.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredTable {
    /// File name used in messages.
    pub file: String,
    /// Name of the time column.
    pub time_name: String,
    /// Times [s], strictly increasing.
    pub time_s: Vec<f64>,
    /// `(name, values)` of each chosen data column, in the order asked.
    pub columns: Vec<(String, Vec<f64>)>,
    /// Rows skipped because their `event` cell was non-zero (module doc).
    pub skipped_event_rows: usize,
}

/// Whether resampling is allowed when the time steps are not uniform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resample {
    /// Refuse a non-uniform record ([`MeasuredError::NonUniform`]).
    Never,
    /// Interpolate linearly onto the median step (reported in [`MeasuredSeries::resampled`]).
    LinearToMedian,
}

/// One uniformly sampled series ready for analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredSeries {
    /// Column name.
    pub name: String,
    /// Time of the first sample [s].
    pub t0_s: f64,
    /// Sampling interval t_s [s]: the mean step `(t_end − t_0)/(N − 1)` of a uniform record
    /// (less affected by printed digits than any single step), the median step when resampled.
    pub dt_s: f64,
    /// Samples.
    pub values: Vec<f64>,
    /// Whether the values were interpolated onto a uniform grid.
    pub resampled: bool,
    /// Step statistics of the original record.
    pub spacing: Spacing,
}

/// Cells of a line with their 1-based character columns.
type Cells<'t> = Vec<(usize, &'t str)>;

/// A cell and its 1-based character column.
fn split_cells(line: &str, sep: char) -> Cells<'_> {
    let mut cells = Vec::new();
    let mut start_byte = 0;
    for part in line.split(sep) {
        let lead = part.len() - part.trim_start().len();
        let col = line[..start_byte + lead].chars().count() + 1;
        let text = part.trim();
        let text = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(text);
        cells.push((col, text));
        start_byte += part.len() + sep.len_utf8();
    }
    cells
}

/// Whether a header name denotes time (module doc).
fn is_time_name(name: &str) -> bool {
    let base = name
        .split(['[', '('])
        .next()
        .unwrap_or(name)
        .trim()
        .to_ascii_lowercase();
    matches!(base.as_str(), "t" | "time" | "t_s" | "time_s")
}

/// Numbered lines that are neither blank nor `#` comments (BOM removed).
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
}

/// Separator and `(column, name)` cells of the header line, checked for ≥ 2 distinct names.
fn parse_header<'t>(
    header: &'t str,
    line: usize,
    file: &str,
) -> Result<(char, Cells<'t>), MeasuredError> {
    let sep = [',', ';', '\t']
        .into_iter()
        .find(|c| header.contains(*c))
        .unwrap_or(',');
    let names = split_cells(header, sep);
    let at = |col| Place {
        file: file.to_string(),
        line,
        col,
    };
    if names.len() < 2 {
        return Err(MeasuredError::TooFewColumns {
            at: at(1),
            found: names.len(),
        });
    }
    for (k, (col, name)) in names.iter().enumerate() {
        if name.is_empty() || names[..k].iter().any(|(_, n)| n == name) {
            return Err(MeasuredError::BadName {
                at: at(*col),
                name: name.to_string(),
            });
        }
    }
    Ok((sep, names))
}

/// The header's column names and the index of the time column (`time`, else as the module
/// doc says), without reading the rows.
pub fn column_names(
    text: &str,
    file: &str,
    time: Option<&str>,
) -> Result<(Vec<String>, usize), MeasuredError> {
    let (line, header) = content_lines(text).next().ok_or(MeasuredError::NoHeader {
        file: file.to_string(),
    })?;
    let (_, cells) = parse_header(header, line, file)?;
    let names: Vec<String> = cells.iter().map(|(_, n)| n.to_string()).collect();
    let time_idx = match time {
        Some(t) => names
            .iter()
            .position(|n| n == t)
            .ok_or_else(|| no_such_column(file, t, &names))?,
        None => names.iter().position(|n| is_time_name(n)).unwrap_or(0),
    };
    Ok((names, time_idx))
}

fn no_such_column(file: &str, name: &str, names: &[String]) -> MeasuredError {
    MeasuredError::NoSuchColumn {
        file: file.to_string(),
        name: name.to_string(),
        available: names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Parses CSV `text` (named `file` in messages); see the module doc for the format.
pub fn parse_csv(
    text: &str,
    file: &str,
    sel: CsvSelection,
) -> Result<MeasuredTable, MeasuredError> {
    let file = file.to_string();
    let mut lines = content_lines(text);
    let (head_line, header) = lines
        .next()
        .ok_or(MeasuredError::NoHeader { file: file.clone() })?;
    let (sep, names) = parse_header(header, head_line, &file)?;
    let owned: Vec<String> = names.iter().map(|(_, n)| n.to_string()).collect();
    let find = |name: &str| {
        names
            .iter()
            .position(|(_, n)| *n == name)
            .ok_or_else(|| no_such_column(&file, name, &owned))
    };
    let time_idx = match sel.time {
        Some(name) => find(name)?,
        None => names.iter().position(|(_, n)| is_time_name(n)).unwrap_or(0),
    };
    // tribolab's event flag (module doc), unless asked for as data.
    let event_idx = names
        .iter()
        .position(|(_, n)| *n == "event")
        .filter(|&k| k != time_idx && !sel.columns.contains(&"event"));
    let data_idx: Vec<usize> = if sel.columns.is_empty() {
        (0..names.len())
            .filter(|&k| k != time_idx && Some(k) != event_idx)
            .collect()
    } else {
        sel.columns
            .iter()
            .map(|c| find(c))
            .collect::<Result<_, _>>()?
    };
    let mut skipped_event_rows = 0;
    let mut time_s = Vec::new();
    let mut data: Vec<Vec<f64>> = vec![Vec::new(); data_idx.len()];
    for (line, row) in lines {
        let cells = split_cells(row, sep);
        if cells.len() != names.len() {
            let col = if cells.len() > names.len() {
                cells[names.len()].0
            } else {
                row.chars().count() + 1
            };
            let at = Place { file, line, col };
            return Err(MeasuredError::Ragged {
                at,
                found: cells.len(),
                expected: names.len(),
            });
        }
        let number = |k: usize| -> Result<f64, MeasuredError> {
            let (col, text) = cells[k];
            let column = names[k].1.to_string();
            let at = Place {
                file: file.clone(),
                line,
                col,
            };
            let text_s = text.to_string();
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                Ok(_) => Err(MeasuredError::NonFinite {
                    at,
                    column,
                    text: text_s,
                }),
                Err(_) => Err(MeasuredError::NonNumeric {
                    at,
                    column,
                    text: text_s,
                }),
            }
        };
        if let Some(k) = event_idx
            && number(k)? != 0.0
        {
            skipped_event_rows += 1;
            continue;
        }
        let t = number(time_idx)?;
        if let Some(&previous) = time_s.last() {
            let at = Place {
                file: file.clone(),
                line,
                col: cells[time_idx].0,
            };
            if t == previous {
                return Err(MeasuredError::DuplicateTime { at, value: t });
            }
            if t < previous {
                return Err(MeasuredError::TimeNotIncreasing {
                    at,
                    value: t,
                    previous,
                });
            }
        }
        time_s.push(t);
        for (dst, &k) in data.iter_mut().zip(&data_idx) {
            dst.push(number(k)?);
        }
    }
    if time_s.len() < 2 {
        return Err(MeasuredError::TooFewRows {
            file,
            rows: time_s.len(),
        });
    }
    Ok(MeasuredTable {
        file,
        time_name: names[time_idx].1.to_string(),
        time_s,
        columns: data_idx
            .iter()
            .map(|&k| names[k].1.to_string())
            .zip(data)
            .collect(),
        skipped_event_rows,
    })
}

/// Reads and parses a CSV file.
pub fn read_csv(path: &Path, sel: CsvSelection) -> Result<MeasuredTable, MeasuredError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| MeasuredError::Io {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse_csv(&text, &file, sel)
}

impl MeasuredTable {
    /// Step statistics of the time column against `tolerance` (fraction of the median step).
    pub fn spacing(&self, tolerance: f64) -> Spacing {
        Spacing::of(&self.time_s, tolerance).unwrap_or(Spacing {
            median_s: 0.0,
            min_s: 0.0,
            max_s: 0.0,
            max_deviation: 0.0,
            worst_step: 0,
            tolerance,
        })
    }

    /// The data column `name` as a uniformly sampled series; a non-uniform record is refused
    /// unless `resample` allows linear interpolation onto the median step.
    pub fn series(
        &self,
        name: &str,
        tolerance: f64,
        resample: Resample,
    ) -> Result<MeasuredSeries, MeasuredError> {
        let values = &self
            .columns
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| {
                let names: Vec<String> = self.columns.iter().map(|(n, _)| n.clone()).collect();
                no_such_column(&self.file, name, &names)
            })?
            .1;
        let spacing = self.spacing(tolerance);
        let uniform = spacing.is_uniform();
        if !uniform && resample == Resample::Never {
            return Err(MeasuredError::NonUniform {
                file: self.file.clone(),
                spacing,
            });
        }
        Ok(MeasuredSeries {
            name: name.to_string(),
            t0_s: self.time_s[0],
            dt_s: if uniform {
                (self.time_s[self.time_s.len() - 1] - self.time_s[0])
                    / (self.time_s.len() - 1) as f64
            } else {
                spacing.median_s
            },
            values: if uniform {
                values.clone()
            } else {
                resample_linear(&self.time_s, values, spacing.median_s)
            },
            resampled: !uniform,
            spacing,
        })
    }
}
