//! Slips of particles over a lattice (the atomic-scale models): from sampled positions, the
//! well each particle occupies, the slips between wells, and how many lattice sites a slip
//! jumps.
//!
//! A particle belongs to well `n` (bottom at `n·a`) until it comes within `a/4` of another
//! well's bottom (hysteresis: thermal rattling near a barrier top is not a slip). A well change
//! is a slip when the particle crossed from one well's inner half to the next's faster than
//! `max_transit_s` (a jump, not the smooth passage of a tip over a weak corrugation, which takes
//! a good part of a lattice period). A slip event is a run of slips separated by less than
//! `gap_s` (a multiple slip passes several wells in one event).

/// The slips of one particle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlipCount {
    /// Slip events.
    pub events: usize,
    /// Lattice sites passed, forward minus backward.
    pub net_sites: i64,
    /// Lattice sites passed in either direction.
    pub sites: u64,
    /// Start times of the events [s].
    pub times_s: Vec<f64>,
}

impl SlipCount {
    /// Mean number of sites one slip event jumps (`NaN` without events).
    pub fn sites_per_slip(&self) -> f64 {
        if self.events == 0 {
            f64::NAN
        } else {
            self.sites as f64 / self.events as f64
        }
    }
}

/// The hysteretic well index of positions `x` on a lattice of period `a` [m].
pub fn wells(x: &[f64], a: f64) -> Vec<i64> {
    let mut out = Vec::with_capacity(x.len());
    let mut well = x.first().map_or(0, |&x0| (x0 / a).round() as i64);
    for &xi in x {
        let n = (xi / a).round();
        if (xi - n * a).abs() < 0.25 * a {
            well = n as i64;
        }
        out.push(well);
    }
    out
}

/// Counts the slips of one particle sampled at times `t` [s] at positions `x` [m].
pub fn count_slips(t: &[f64], x: &[f64], a: f64, max_transit_s: f64, gap_s: f64) -> SlipCount {
    let w = wells(x, a);
    let mut count = SlipCount::default();
    let mut last_change = f64::NEG_INFINITY;
    // Last sample inside a well's inner half.
    let mut last_inside = t.first().copied().unwrap_or(0.0);
    for i in 1..w.len().min(t.len()) {
        let d = w[i] - w[i - 1];
        let inside = (x[i] - w[i] as f64 * a).abs() < 0.25 * a;
        if d == 0 {
            if inside {
                last_inside = t[i];
            }
            continue;
        }
        let transit = t[i] - last_inside;
        last_inside = t[i];
        if transit > max_transit_s {
            continue;
        }
        if t[i] - last_change >= gap_s {
            count.events += 1;
            count.times_s.push(t[i]);
        }
        last_change = t[i];
        count.net_sites += d;
        count.sites += d.unsigned_abs();
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_slip_is_one_event_of_two_sites() {
        let a = 1.0;
        // Stuck in well 0, then a fast jump over two wells, then stuck in well 2.
        let t: Vec<f64> = (0..10).map(f64::from).collect();
        let x = [0.0, 0.2, 0.35, 0.6, 0.9, 1.5, 2.1, 2.0, 2.2, 2.3];
        let c = count_slips(&t, &x, a, 3.0, 3.0);
        assert_eq!((c.events, c.sites, c.net_sites), (1, 2, 2));
        assert_eq!(c.sites_per_slip(), 2.0);
    }

    #[test]
    fn a_slow_passage_is_not_a_slip() {
        // Smooth sliding: a tenth of a period per sample.
        let t: Vec<f64> = (0..40).map(f64::from).collect();
        let x: Vec<f64> = t.iter().map(|t| 0.1 * t).collect();
        let c = count_slips(&t, &x, 1.0, 2.0, 2.0);
        assert_eq!((c.events, c.sites), (0, 0));
        assert_eq!(*wells(&x, 1.0).last().unwrap(), 4);
    }

    #[test]
    fn rattling_near_a_barrier_is_not_a_slip() {
        let t: Vec<f64> = (0..6).map(f64::from).collect();
        let x = [0.0, 0.45, 0.55, 0.45, 0.6, 0.3];
        let c = count_slips(&t, &x, 1.0, 0.5, 0.5);
        assert_eq!(c.events, 0);
    }
}
