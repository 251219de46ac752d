//! The slip-event catalogue of the running chain, built on the UI thread from the rows the
//! worker sends (O(N) per row, like storing them), with its magnitude–frequency statistics
//! refreshed about once a second while events come in.

use std::time::{Duration, Instant};

use crate::analysis::catalogue_stats::CatalogueStats;
use crate::analysis::chain_catalogue::ChainCatalogue;
use crate::analysis::event_catalogue::SlipEvent;
use crate::integrate::Column;
use crate::systems::Layout;

/// Most events kept (older ones are dropped, oldest first).
const MAX_EVENTS: usize = 500_000;
/// Shortest time between two recomputations of the statistics.
const STATS_EVERY: Duration = Duration::from_millis(1000);

/// The live catalogue of a run.
pub struct LiveCatalogue {
    reader: ChainCatalogue,
    width: usize,
    /// Completed events, oldest first.
    pub events: Vec<SlipEvent>,
    /// Events dropped from the front of `events` (for numbering).
    pub dropped: usize,
    stats: Option<CatalogueStats>,
    stats_len: usize,
    stats_at: Option<Instant>,
    /// The event the user picked in the list (index into `events`).
    pub selected: Option<usize>,
}

impl LiveCatalogue {
    /// A catalogue for a run with these output columns, when the system is a chain (two or
    /// more contacts with stick flags); `None` otherwise.
    pub fn new(columns: &[Column], layout: &Layout) -> Option<Self> {
        if layout.contacts.len() < 2 {
            return None;
        }
        Some(Self {
            reader: ChainCatalogue::new(columns, layout).ok()?,
            width: columns.len(),
            events: Vec::new(),
            dropped: 0,
            stats: None,
            stats_len: 0,
            stats_at: None,
            selected: None,
        })
    }

    /// Feeds rows laid out back to back (the worker's chunks).
    pub fn feed_flat(&mut self, rows: &[f64]) {
        for row in rows.chunks_exact(self.width.max(1)) {
            self.reader.push_row(row);
        }
        let mut done = self.reader.take_finished();
        self.events.append(&mut done);
        if self.events.len() > MAX_EVENTS {
            let extra = self.events.len() - MAX_EVENTS;
            self.events.drain(..extra);
            self.dropped += extra;
            self.selected = self.selected.and_then(|s| s.checked_sub(extra));
        }
    }

    /// Events still in progress.
    pub fn open_events(&self) -> usize {
        self.reader.open_events()
    }

    /// The statistics, recomputed when events came in and a second has passed.
    pub fn stats(&mut self) -> Option<&CatalogueStats> {
        let stale = self.stats_len != self.events.len()
            && self.stats_at.is_none_or(|t| t.elapsed() >= STATS_EVERY);
        if stale || (self.stats.is_none() && !self.events.is_empty()) {
            self.stats = Some(CatalogueStats::of(&self.events));
            self.stats_len = self.events.len();
            self.stats_at = Some(Instant::now());
        }
        self.stats.as_ref()
    }
}
