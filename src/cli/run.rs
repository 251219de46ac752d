//! `tribolab run`: headless simulation to CSV.

use std::io::Write;
use std::path::Path;

use super::args::parse_run;
use super::summary::{Keep, summary};
use super::{CliError, CsvSink, prepared_preset};
use crate::util::atomic_write::write_atomically;

pub(super) fn run(args: &[String]) -> Result<(), CliError> {
    let a = parse_run(args)?;
    let preset = prepared_preset(
        &a.preset,
        a.sets.iter().map(|(p, v)| (p.as_str(), v.as_str())),
        a.duration_s,
    )?;
    let duration = preset.run.duration_s;
    let mut sim = preset
        .build_runner()
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.preset)))?;
    let header = sim.column_names();
    let started = std::time::Instant::now();
    let mut kept = Vec::new();
    let mut simulate = |w: &mut dyn Write| -> std::io::Result<()> {
        let mut sink = CsvSink::new(w, &header)?;
        let result = if a.summary {
            let mut keep = Keep {
                inner: &mut sink,
                rows: Vec::new(),
            };
            let r = sim.advance(duration, &mut keep);
            kept = keep.rows;
            r
        } else {
            sim.advance(duration, &mut sink)
        };
        sink.finish()?;
        result.map_err(|e| std::io::Error::other(format!("simulation failed: {e}")))
    };
    let result = match &a.out {
        Some(path) => write_atomically(Path::new(path), &mut simulate)
            .map_err(|e| CliError::Failed(format!("{path}: {e} (no file written)"))),
        None => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            simulate(&mut lock).map_err(|e| CliError::Failed(e.to_string()))
        }
    };
    if a.summary && result.is_ok() {
        eprintln!(
            "{}",
            summary(&sim.columns(), &preset.system.layout(), &kept)
        );
    }
    if a.stats {
        let wall = started.elapsed().as_secs_f64();
        let st = sim.stats();
        eprintln!(
            "{}: {} steps ({} rejected), {} right-hand sides, {} events; {:.3} s wall, \
             {:.3e} model-s per wall-s",
            sim.method_name(),
            st.steps,
            st.rejected,
            st.rhs_evals,
            st.events,
            wall,
            sim.time_s() / wall
        );
    }
    result
}
