//! Streaming slip-event catalogue of a chain of blocks (Burridge–Knopoff chain, MODELS §4.8).
//!
//! An event is a connected burst of slipping blocks: connected in space (neighbouring block
//! indices; on a periodic chain block N−1 neighbours block 0) and in time (consecutive samples).
//! Samples are fed one at a time with [`CatalogueBuilder::push`]; completed events are drained with
//! [`CatalogueBuilder::take_finished`] while the run goes on, and [`CatalogueBuilder::finish`]
//! closes what is still open at the end of the record.
//!
//! Conventions (sample k at time t_k; "before" means the previous accepted sample):
//! * **Linking.** The slipping blocks of sample k form clusters (maximal runs of adjacent
//!   slipping blocks). A cluster continues every event of sample k−1 that slips at one of its
//!   blocks or at a neighbour (|i − j| ≤ 1, with wrap when periodic). A cluster touching several
//!   events merges them into one: it keeps the start, force and epicentre of the one first seen
//!   slipping (same first sample: the lower epicentre). A cluster touching none starts an event.
//! * **Start** = t_{k−1}, the last sample before slipping was seen, so the true break-away lies
//!   in `(start_s, t_k]`. **End** = t of the first sample at which none of the event's blocks
//!   slip, so the re-stick lies in `(t_last slipping, end_s]`; `duration_s` bounds the true
//!   duration from above by at most two sample steps.
//! * **Slip of a block.** Each slipping interval of block i contributes
//!   `s_i(first sample no longer slipping) − s_i(last sample before it started)`; a block's Δs_i
//!   is the sum over its intervals within the event (creep while stuck in between is left out),
//!   and `potency_m = Σ_i |Δs_i|`.
//! * **Force drop.** Per block, `|F_i|` at the sample before its first slipping interval minus
//!   `|F_i|` at the sample that closed its last, summed over the blocks that slipped.
//! * **Magnitude** = `log10(potency_m)`: −∞ for zero potency (blocks flagged slipping without
//!   moving), never NaN, since every accepted value is finite.
//! * **Truncated** events were cut by either end of the record: open at [`CatalogueBuilder::finish`]
//!   (end = last sample, open intervals closed there, force drop to the last sample) or already
//!   slipping at the first sample (start = first sample, its slip coordinates and force).
//! * **Span.** The blocks of one event are always contiguous. Open chain: `first_block ≤
//!   last_block`. Periodic chain: the event covers the arc from `first_block` upwards (mod N) to
//!   `last_block`; `first_block > last_block` means it wraps through N−1 → 0; the whole ring is
//!   `0..=N−1`. In every case `blocks` is the arc's length.
//! * **Bad input.** A sample with a slice of the wrong length, a non-finite value (time, force,
//!   any coordinate or rate) or a time not after the previous sample's is rejected with a
//!   [`SampleError`] and leaves the builder unchanged: the next accepted sample links to the last
//!   accepted one. Nothing non-finite enters the catalogue.
//!
//! Cost: O(N) per sample (cluster scan, up to three look-ups of the previous sample's labels per
//! slipping block, union–find with path compression over the open events); closing an event
//! sorts its list of slipping intervals.

mod csv;
mod event;
#[cfg(test)]
mod tests;

pub use csv::write_csv;
pub use event::{SampleError, SlipEvent};

/// Label of a block that does not slip.
const NONE: usize = usize::MAX;

/// An event still receiving samples.
#[derive(Debug)]
struct Open {
    start_s: f64,
    epicentre: usize,
    peak_mps: f64,
    cut_at_start: bool,
    /// Closed slipping intervals.
    slips: Vec<Interval>,
    /// Index of the last sample at which the event had slipping blocks.
    alive_at: u64,
    /// Index of the first sample at which the event had slipping blocks.
    first_seen: u64,
}

/// One slipping interval of one block.
#[derive(Clone, Copy, Debug)]
struct Interval {
    block: usize,
    /// Sample before the interval began (orders a block's intervals in time).
    began: u64,
    /// Signed slip `Δs` [m].
    slip_m: f64,
    /// The block's friction force at the sample before it began [N].
    force_before_n: f64,
    /// Its friction force at the sample that closed it [N].
    force_after_n: f64,
}

/// Builds the event catalogue sample by sample (see the module doc for the conventions).
#[derive(Debug, Default)]
pub struct CatalogueBuilder {
    n: usize,
    periodic: bool,
    /// Event slots (`None`: free); after each sample the `Some` ones are the open events.
    slots: Vec<Option<Open>>,
    /// Union–find parent of each slot.
    parent: Vec<usize>,
    free: Vec<usize>,
    /// Per block: root slot of its event at the previous sample, `NONE` if it did not slip.
    label: Vec<usize>,
    /// Scratch labels of the current sample.
    next_label: Vec<usize>,
    /// Per block: s at the last sample before its current slipping interval began.
    s_before: Vec<f64>,
    /// Per block: friction force and sample index at that sample.
    f_before: Vec<f64>,
    began: Vec<u64>,
    /// Scratch: clusters of the current sample as (first block, length) on the ring.
    clusters: Vec<(usize, usize)>,
    /// Scratch: slots merged away during the current sample.
    dead: Vec<usize>,
    /// Accepted samples so far.
    samples: u64,
    /// The previous accepted sample: time, friction forces, slip coordinates.
    t_prev: f64,
    f_prev: Vec<f64>,
    s_prev: Vec<f64>,
    finished: Vec<SlipEvent>,
}

impl CatalogueBuilder {
    /// A builder for `n_blocks` blocks; `periodic` joins block N−1 to block 0.
    pub fn new(n_blocks: usize, periodic: bool) -> Self {
        Self {
            n: n_blocks,
            periodic,
            label: vec![NONE; n_blocks],
            next_label: vec![NONE; n_blocks],
            s_before: vec![0.0; n_blocks],
            f_before: vec![0.0; n_blocks],
            began: vec![0; n_blocks],
            s_prev: vec![0.0; n_blocks],
            f_prev: vec![0.0; n_blocks],
            ..Self::default()
        }
    }

    /// Adds one sample: time [s]; per block whether it slips, its slip coordinate `s_i` [m] (its
    /// position relative to the surface it slides on), slip rate `|v_rel,i|` [m/s] and friction
    /// force [N]. A rejected sample leaves the builder unchanged.
    pub fn push(
        &mut self,
        t_s: f64,
        slipping: &[bool],
        slip_coord_m: &[f64],
        slip_rate_mps: &[f64],
        force_n: &[f64],
    ) -> Result<(), SampleError> {
        self.validate(t_s, slipping, slip_coord_m, slip_rate_mps, force_n)?;
        let (n, k) = (self.n, self.samples);
        if k == 0 {
            // Nothing before the record: what slips now started at this sample.
            self.t_prev = t_s;
            self.f_prev.copy_from_slice(force_n);
            self.s_prev.copy_from_slice(slip_coord_m);
        }

        // Clusters: maximal runs of slipping blocks, the two ends joined on a periodic ring.
        self.clusters.clear();
        for b in 0..n {
            if !slipping[b] {
                continue;
            }
            match self.clusters.last_mut() {
                Some((a, len)) if *a + *len == b => *len += 1,
                _ => self.clusters.push((b, 1)),
            }
        }
        if self.periodic
            && self.clusters.len() >= 2
            && self.clusters[0].0 == 0
            && let Some(&(a, len)) = self.clusters.last().filter(|(a, len)| a + len == n)
        {
            self.clusters[0] = (a, len + self.clusters[0].1);
            self.clusters.pop();
        }

        // Link each cluster to the events of the previous sample, merging what it touches.
        for c in 0..self.clusters.len() {
            let (a, len) = self.clusters[c];
            let mut target = NONE;
            for j in 0..len {
                for m in self.neighbourhood((a + j) % n) {
                    if self.label[m] != NONE {
                        let r = self.find(self.label[m]);
                        target = if target == NONE {
                            r
                        } else {
                            self.union(target, r)
                        };
                    }
                }
            }
            if target == NONE {
                target = self.alloc(Open {
                    start_s: self.t_prev,
                    epicentre: if a + len > n { 0 } else { a },
                    peak_mps: 0.0,
                    cut_at_start: k == 0,
                    slips: Vec::new(),
                    alive_at: k,
                    first_seen: k,
                });
            }
            for j in 0..len {
                self.next_label[(a + j) % n] = target;
            }
        }

        for b in 0..n {
            let was = self.label[b];
            if slipping[b] {
                // Final root, peak rate, start of a new slipping interval.
                let r = self.find(self.next_label[b]);
                self.next_label[b] = r;
                if let Some(e) = self.slots[r].as_mut() {
                    e.peak_mps = e.peak_mps.max(slip_rate_mps[b].abs());
                    e.alive_at = k;
                }
                if was == NONE {
                    self.s_before[b] = self.s_prev[b];
                    self.f_before[b] = self.f_prev[b];
                    self.began[b] = k.saturating_sub(1);
                }
            } else if was != NONE {
                // The block stopped: its interval closes at this sample.
                let r = self.find(was);
                let interval = self.interval(b, slip_coord_m[b], force_n[b]);
                if let Some(e) = self.slots[r].as_mut() {
                    e.slips.push(interval);
                }
            }
        }

        // Open events that nothing continued end here.
        let mut ended = Vec::new();
        for r in 0..self.slots.len() {
            if self.slots[r].as_ref().is_some_and(|e| e.alive_at != k)
                && let Some(e) = self.slots[r].take()
            {
                ended.push(close(e, t_s, false, self.n, self.periodic));
                self.free.push(r);
            }
        }
        sort_events(&mut ended);
        self.finished.append(&mut ended);

        self.free.append(&mut self.dead);
        std::mem::swap(&mut self.label, &mut self.next_label);
        self.next_label.fill(NONE);
        self.t_prev = t_s;
        self.f_prev.copy_from_slice(force_n);
        self.s_prev.copy_from_slice(slip_coord_m);
        self.samples += 1;
        Ok(())
    }

    /// Block `b`'s current slipping interval, closed with slip coordinate `s` and force `f`.
    fn interval(&self, b: usize, s: f64, f: f64) -> Interval {
        Interval {
            block: b,
            began: self.began[b],
            slip_m: s - self.s_before[b],
            force_before_n: self.f_before[b],
            force_after_n: f,
        }
    }

    /// Number of events still open (slipping at the last sample).
    pub fn open_events(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Events completed so far, drained: in order of end time, events ending at the same sample
    /// by start time, then epicentre.
    pub fn take_finished(&mut self) -> Vec<SlipEvent> {
        std::mem::take(&mut self.finished)
    }

    /// Ends the record: the completed events not yet taken, then the events still open, closed at
    /// the last sample and flagged truncated (ordered by start time, then epicentre).
    pub fn finish(mut self) -> Vec<SlipEvent> {
        for b in 0..self.n {
            if self.label[b] != NONE {
                let r = self.find(self.label[b]);
                let interval = self.interval(b, self.s_prev[b], self.f_prev[b]);
                if let Some(e) = self.slots[r].as_mut() {
                    e.slips.push(interval);
                }
            }
        }
        let (t, n, periodic) = (self.t_prev, self.n, self.periodic);
        let mut open: Vec<_> = self
            .slots
            .drain(..)
            .flatten()
            .map(|e| close(e, t, true, n, periodic))
            .collect();
        sort_events(&mut open);
        let mut out = std::mem::take(&mut self.finished);
        out.append(&mut open);
        out
    }

    /// Checks lengths, finiteness and time order.
    fn validate(
        &self,
        t_s: f64,
        slipping: &[bool],
        slip_coord_m: &[f64],
        slip_rate_mps: &[f64],
        force_n: &[f64],
    ) -> Result<(), SampleError> {
        let expected = self.n;
        let (coords, rates, forces) = (
            ("slip_coord_m", slip_coord_m),
            ("slip_rate_mps", slip_rate_mps),
            ("force_n", force_n),
        );
        for (what, got) in [
            ("slipping", slipping.len()),
            (coords.0, coords.1.len()),
            (rates.0, rates.1.len()),
            (forces.0, forces.1.len()),
        ] {
            if got != expected {
                return Err(SampleError::Length {
                    what,
                    got,
                    expected,
                });
            }
        }
        let scalars = [("t_s", t_s)].map(|(w, x)| (w, None, x));
        let per_block = [coords, rates, forces]
            .into_iter()
            .flat_map(|(w, xs)| xs.iter().enumerate().map(move |(i, &x)| (w, Some(i), x)));
        let mut values = scalars.into_iter().chain(per_block);
        if let Some((what, block, value)) = values.find(|v| !v.2.is_finite()) {
            return Err(SampleError::NonFinite { what, block, value });
        }
        if self.samples > 0 && t_s <= self.t_prev {
            let previous_s = self.t_prev;
            return Err(SampleError::TimeNotIncreasing { t_s, previous_s });
        }
        Ok(())
    }

    /// Block `b` and its neighbours (wrapping when periodic), possibly repeated.
    fn neighbourhood(&self, b: usize) -> [usize; 3] {
        let n = self.n;
        if self.periodic {
            [(b + n - 1) % n, b, (b + 1) % n]
        } else {
            [b.saturating_sub(1), b, (b + 1).min(n - 1)]
        }
    }

    fn alloc(&mut self, e: Open) -> usize {
        if let Some(id) = self.free.pop() {
            self.slots[id] = Some(e);
            self.parent[id] = id;
            id
        } else {
            self.slots.push(Some(e));
            self.parent.push(self.parent.len());
            self.parent.len() - 1
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        let mut root = x;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        while self.parent[x] != root {
            let next = self.parent[x];
            self.parent[x] = root;
            x = next;
        }
        root
    }

    /// Merges two open roots; the one first seen (then the lower epicentre) survives.
    fn union(&mut self, a: usize, b: usize) -> usize {
        let key = |s: &Option<Open>| s.as_ref().map(|e| (e.first_seen, e.epicentre));
        let (win, lose) = match (key(&self.slots[a]), key(&self.slots[b])) {
            _ if a == b => return a,
            (Some(ka), Some(kb)) if kb < ka => (b, a),
            _ => (a, b),
        };
        if let Some(mut l) = self.slots[lose].take()
            && let Some(w) = self.slots[win].as_mut()
        {
            if l.slips.len() > w.slips.len() {
                std::mem::swap(&mut l.slips, &mut w.slips);
            }
            w.slips.append(&mut l.slips);
            w.peak_mps = w.peak_mps.max(l.peak_mps);
            w.cut_at_start |= l.cut_at_start;
        }
        self.parent[lose] = win;
        self.dead.push(lose);
        win
    }
}

/// Turns an open event into a catalogue entry ending at `t_end`. Per block: its slip is the
/// sum of its intervals, its force drop `|F|` before its first interval minus `|F|` after its
/// last.
fn close(mut e: Open, t_end: f64, cut: bool, n: usize, periodic: bool) -> SlipEvent {
    e.slips.sort_unstable_by_key(|iv| (iv.block, iv.began));
    let mut blocks: Vec<usize> = Vec::new();
    let mut potency = 0.0;
    let mut drop = 0.0;
    let mut ds = 0.0;
    let mut before = None;
    for (i, iv) in e.slips.iter().enumerate() {
        ds += iv.slip_m;
        let first_force = *before.get_or_insert(iv.force_before_n);
        if e.slips.get(i + 1).is_none_or(|next| next.block != iv.block) {
            potency += f64::abs(ds);
            drop += first_force.abs() - iv.force_after_n.abs();
            ds = 0.0;
            before = None;
            blocks.push(iv.block);
        }
    }
    let (first_block, last_block) = span(&blocks, n, periodic);
    SlipEvent {
        start_s: e.start_s,
        end_s: t_end,
        epicentre: e.epicentre,
        blocks: blocks.len(),
        first_block,
        last_block,
        potency_m: potency,
        magnitude: potency.log10(),
        peak_slip_rate_mps: e.peak_mps,
        force_drop_n: drop,
        truncated: e.cut_at_start || cut,
    }
}

/// Span of a sorted, contiguous set of blocks; on a ring the arc after its (single) gap.
fn span(blocks: &[usize], n: usize, periodic: bool) -> (usize, usize) {
    let (Some(&lo), Some(&hi)) = (blocks.first(), blocks.last()) else {
        return (0, 0);
    };
    match blocks.windows(2).find(|w| w[1] - w[0] > 1) {
        Some(w) if periodic && blocks.len() < n => (w[1], w[0]),
        _ => (lo, hi),
    }
}

fn sort_events(events: &mut [SlipEvent]) {
    events.sort_by(|a, b| (a.start_s.total_cmp(&b.start_s)).then(a.epicentre.cmp(&b.epicentre)));
}
