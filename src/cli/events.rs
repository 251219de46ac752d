//! `tribolab events`: the slip-event catalogue of a chain run as CSV, with its
//! magnitude–frequency statistics on stderr.

use super::args::parse_run;
use super::{CliError, prepared_preset};
use crate::analysis::catalogue_stats::CatalogueStats;
use crate::analysis::chain_catalogue::ChainCatalogue;
use crate::analysis::event_catalogue::write_csv;
use crate::integrate::SampleSink;

/// Feeds every row to the catalogue.
struct Feed<'a>(&'a mut ChainCatalogue);

impl SampleSink for Feed<'_> {
    fn push(&mut self, row: &[f64]) {
        self.0.push_row(row);
    }
}

pub(super) fn events_cmd(args: &[String]) -> Result<(), CliError> {
    let a = parse_run(args)?;
    let preset = prepared_preset(
        &a.preset,
        a.sets.iter().map(|(p, v)| (p.as_str(), v.as_str())),
        a.duration_s,
    )?;
    let mut sim = preset
        .build_runner()
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.preset)))?;
    let mut catalogue = ChainCatalogue::new(&sim.columns(), &preset.system.layout())
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.preset)))?;
    let started = std::time::Instant::now();
    let run = sim.advance(preset.run.duration_s, &mut Feed(&mut catalogue));
    let wall = started.elapsed().as_secs_f64();
    let (rejected, reason) = catalogue.rejected();
    if rejected > 0 {
        eprintln!(
            "warning: {rejected} output rows left out of the catalogue (first: {})",
            reason.map_or_else(String::new, ToString::to_string)
        );
    }
    let events = catalogue.finish();
    super::write_out(a.out.as_deref(), |w: &mut dyn std::io::Write| {
        write_csv(&events, &mut &mut *w)
    })?;
    if let Err(e) = run {
        return Err(CliError::Failed(format!(
            "{}: the run stopped: {e}; the catalogue up to then was written",
            a.preset
        )));
    }
    eprintln!("{}", CatalogueStats::of(&events).report());
    if a.stats {
        let st = sim.stats();
        eprintln!(
            "{}: {} steps, {} switches, {} slip events; {:.3} s wall, {:.1} slip events per \
             wall-s, {:.3e} model-s per wall-s",
            sim.method_name(),
            st.steps,
            st.events,
            events.len(),
            wall,
            events.len() as f64 / wall,
            sim.time_s() / wall
        );
    }
    Ok(())
}
