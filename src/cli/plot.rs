//! `tribolab plot`: runs a preset and writes the figure of one view as SVG (for a handout or a
//! paper): white background, title, axes with names and units, legend, the parameters in the
//! caption.

use super::CliError;
use super::opts::Opts;
use crate::figure::views::{FigureView, Record, figure};
use crate::integrate::SampleSink;

const VALUE_FLAGS: &[&str] = &["--view", "--duration", "--set", "--out", "--size"];
const SWITCHES: &[&str] = &[];

/// Every row, column by column.
struct Columns(Vec<Vec<f64>>);

impl SampleSink for Columns {
    fn push(&mut self, row: &[f64]) {
        if self.0.is_empty() {
            self.0 = vec![Vec::new(); row.len()];
        }
        for (c, v) in self.0.iter_mut().zip(row) {
            c.push(*v);
        }
    }
}

/// `WxH` in pixels.
fn size(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || CliError::Usage(format!("--size: `{text}` is not WIDTHxHEIGHT in pixels"));
    let (w, h) = text.split_once(['x', '×']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(200..=10_000).contains(&w) || !(150..=10_000).contains(&h) {
        return Err(CliError::Usage(format!(
            "--size: {w}x{h} is outside 200x150 … 10000x10000"
        )));
    }
    Ok((w, h))
}

pub(super) fn plot_cmd(args: &[String]) -> Result<(), CliError> {
    let o = Opts::parse("plot", args, VALUE_FLAGS, SWITCHES)?;
    let names: Vec<&str> = FigureView::ALL.iter().map(|(_, k)| *k).collect();
    let view_name = o
        .value("--view")
        .ok_or_else(|| CliError::Usage(format!("plot needs --view ({})", names.join(", "))))?;
    let view = FigureView::from_key(view_name).ok_or_else(|| {
        CliError::Usage(format!(
            "--view: no view `{view_name}`{}; the views: {}",
            crate::util::suggest::hint(view_name, names.iter().copied()),
            names.join(", ")
        ))
    })?;
    let out = o
        .value("--out")
        .ok_or_else(|| CliError::Usage("plot needs --out FILE.svg".into()))?;
    let (width, height) = o.value("--size").map_or(Ok((900, 600)), size)?;
    let mut preset = o.preset()?;
    if let Some(d) = o.number("--duration")? {
        if d <= 0.0 {
            return Err(CliError::Usage(format!("--duration: {d} is not above 0")));
        }
        preset.run.duration_s = d;
    }
    let mut sim = preset
        .build_runner()
        .map_err(|e| CliError::Failed(format!("{}: {e}", o.preset)))?;
    let columns = sim.columns();
    let mut rows = Columns(Vec::new());
    let run = sim.advance(preset.run.duration_s, &mut rows);
    let data = |i: usize| rows.0.get(i).map_or(&[][..], Vec::as_slice);
    let record = Record {
        columns: &columns,
        data: &data,
    };
    let fig = figure(view, &preset, &record)
        .map_err(|e| CliError::Failed(format!("{}: {e}", o.preset)))?;
    crate::util::atomic_write::write_string_atomically(
        std::path::Path::new(out),
        &fig.to_svg(width, height),
    )
    .map_err(|e| CliError::Failed(format!("{out}: {e}")))?;
    if let Err(e) = run {
        return Err(CliError::Failed(format!(
            "{}: the run stopped: {e}; the figure shows the run up to then",
            o.preset
        )));
    }
    eprintln!("{out}: {} ({width}×{height} px)", fig.title);
    Ok(())
}
