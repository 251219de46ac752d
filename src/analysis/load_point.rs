//! The friction response to a load point's programme, read the way a friction laboratory reads
//! it (Dieterich 1979; Marone 1998): each **velocity step** (the friction coefficient before it,
//! its peak or trough just after — the direct effect — and the level it settles to), and each
//! **hold** of a slide–hold–slide test (the friction before the hold, its relaxation during it
//! and the peak on reloading). The healing rate is the slope of the peak's rise against the
//! decimal logarithm of the hold time.
//! ```text
//! μ = −F_f/N                      (positive while sliding forward)
//! step v → v′:  a ≈ (μ_peak − μ_before)/ln(v′/v),   a − b ≈ (μ_after − μ_before)/ln(v′/v)
//! hold t_h:     Δμ_peak = μ_peak − μ_before,         β = dΔμ_peak/d log₁₀ t_h
//! ```
//! The estimates read off a simulation are the quasi-static ones: exact for an infinitely
//! stiff machine whose segments are long enough to settle; a compliant spring rounds the peak
//! (the estimate of `a` comes out low), a segment too short to settle biases `a − b`.
//! Segments are found from the load-point velocity column alone (a change of value starts a
//! segment), so any system with a programmed driver can be read; times are those of the rows,
//! so hold lengths are resolved to the output interval.

use super::linefit::line_through;

/// The response to one velocity step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResponse {
    /// Time of the step [s].
    pub t_s: f64,
    /// Load-point speed before [m/s].
    pub v_before_mps: f64,
    /// Load-point speed after [m/s].
    pub v_after_mps: f64,
    /// Friction coefficient at the end of the segment before the step.
    pub mu_before: f64,
    /// Extreme friction coefficient after the step (the largest for a step up, the smallest
    /// for a step down).
    pub mu_peak: f64,
    /// Friction coefficient at the end of the segment after the step.
    pub mu_after: f64,
    /// Whether the run went on to the end of the segment (else `mu_after` is the last sample).
    pub complete: bool,
}

impl StepResponse {
    /// `ln(v′/v)`.
    pub fn log_ratio(&self) -> f64 {
        (self.v_after_mps / self.v_before_mps).ln()
    }

    /// Direct effect `(μ_peak − μ_before)/ln(v′/v)`: the rate-and-state `a` for a stiff rig.
    pub fn direct_effect(&self) -> f64 {
        (self.mu_peak - self.mu_before) / self.log_ratio()
    }

    /// Steady-state change `(μ_after − μ_before)/ln(v′/v)`: `a − b` once settled.
    pub fn steady_change(&self) -> f64 {
        (self.mu_after - self.mu_before) / self.log_ratio()
    }
}

/// The response to one hold.
#[derive(Clone, Debug, PartialEq)]
pub struct HoldResponse {
    /// Start of the hold [s].
    pub t_s: f64,
    /// Length of the hold [s].
    pub hold_s: f64,
    /// Friction coefficient when the hold began (steady sliding before it).
    pub mu_before: f64,
    /// Friction coefficient at the end of the hold (after relaxation).
    pub mu_relaxed: f64,
    /// Largest friction coefficient on reloading, before the next change of the programme.
    pub mu_peak: f64,
    /// Whether the reloading segment ran to its end (the peak is then certainly in it).
    pub complete: bool,
}

impl HoldResponse {
    /// `Δμ_peak = μ_peak − μ_before`.
    pub fn healing(&self) -> f64 {
        self.mu_peak - self.mu_before
    }
}

/// Everything read from a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadPointTests {
    /// Velocity steps, in time order.
    pub steps: Vec<StepResponse>,
    /// Holds, in time order.
    pub holds: Vec<HoldResponse>,
}

impl LoadPointTests {
    /// Healing rate `β = dΔμ_peak/d log₁₀ t_h` and the intercept at `t_h = 1 s`, fitted over
    /// the complete holds no shorter than `min_hold_s`; `None` with fewer than two.
    pub fn healing_rate_per_decade(&self, min_hold_s: f64) -> Option<(f64, f64)> {
        let points: Vec<(f64, f64)> = self
            .holds
            .iter()
            .filter(|h| h.complete && h.hold_s >= min_hold_s)
            .map(|h| (h.hold_s.log10(), h.healing()))
            .collect();
        line_through(&points)
    }

    /// Whether the run had any step or hold.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.holds.is_empty()
    }
}

/// A stretch of constant load-point velocity: rows `start .. end`.
struct Segment {
    start: usize,
    end: usize,
    speed: f64,
}

/// Splits the rows at each change of the load-point velocity.
fn segments(v_lp: &[f64]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=v_lp.len() {
        if i == v_lp.len() || v_lp[i] != v_lp[start] {
            out.push(Segment {
                start,
                end: i,
                speed: v_lp[start],
            });
            start = i;
        }
    }
    out
}

/// Reads the steps and holds of a run from its time, load-point velocity, friction force and
/// normal-load columns (equal lengths; rows in time order; rows with a zero load are skipped).
pub fn load_point_tests(
    t: &[f64],
    v_lp: &[f64],
    friction_n: &[f64],
    normal_load_n: &[f64],
) -> LoadPointTests {
    let n = t
        .len()
        .min(v_lp.len())
        .min(friction_n.len())
        .min(normal_load_n.len());
    let mu = |i: usize| -friction_n[i] / normal_load_n[i];
    let segs = segments(&v_lp[..n]);
    let mut out = LoadPointTests::default();
    // Extremes of μ over a segment's rows.
    let extreme = |s: &Segment, larger: bool| {
        (s.start..s.end)
            .filter(|&i| normal_load_n[i] > 0.0)
            .map(mu)
            .fold(f64::NAN, |acc, m| match (acc.is_nan(), larger) {
                (true, _) => m,
                (false, true) => acc.max(m),
                (false, false) => acc.min(m),
            })
    };
    for w in 1..segs.len() {
        let (before, seg) = (&segs[w - 1], &segs[w]);
        let complete = w + 1 < segs.len();
        let mu_before = mu(before.end - 1);
        if seg.speed == 0.0 {
            // A hold: relaxation during it, peak on the reload that follows.
            let Some(reload) = segs.get(w + 1) else {
                continue;
            };
            if before.speed == 0.0 || reload.speed == 0.0 {
                continue;
            }
            out.holds.push(HoldResponse {
                t_s: t[seg.start],
                hold_s: t[reload.start] - t[seg.start],
                mu_before,
                mu_relaxed: mu(seg.end - 1),
                mu_peak: extreme(reload, true),
                complete: w + 2 < segs.len(),
            });
        } else if before.speed > 0.0 && seg.speed > 0.0 && seg.end - seg.start > 1 {
            // (A step on the record's last row has no response yet.)
            let up = seg.speed > before.speed;
            out.steps.push(StepResponse {
                t_s: t[seg.start],
                v_before_mps: before.speed,
                v_after_mps: seg.speed,
                mu_before,
                mu_peak: extreme(seg, up),
                mu_after: mu(seg.end - 1),
                complete,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up record: steady μ = 0.6 at 1, a step to 10 with a peak of 0.63 settling to
    /// 0.59, then a hold of 2 s and a reload peaking at 0.62 before a second hold.
    #[test]
    fn reads_steps_and_holds_from_the_velocity_column() {
        let t: Vec<f64> = (0..12).map(f64::from).collect();
        let v = [
            1.0, 1.0, 10.0, 10.0, 10.0, 0.0, 0.0, 10.0, 10.0, 0.0, 10.0, 10.0,
        ];
        let mu = [
            0.6, 0.6, 0.63, 0.6, 0.59, 0.58, 0.57, 0.62, 0.6, 0.55, 0.7, 0.6,
        ];
        let load = [2.0; 12];
        let f: Vec<f64> = mu.iter().map(|m| -m * 2.0).collect();
        let r = load_point_tests(&t, &v, &f, &load);
        assert_eq!(r.steps.len(), 1);
        let s = &r.steps[0];
        assert_eq!((s.t_s, s.v_before_mps, s.v_after_mps), (2.0, 1.0, 10.0));
        assert_eq!((s.mu_before, s.mu_peak, s.mu_after), (0.6, 0.63, 0.59));
        assert!((s.direct_effect() - 0.03 / 10f64.ln()).abs() < 1e-15);
        assert_eq!(r.holds.len(), 2);
        let h = &r.holds[0];
        assert_eq!((h.t_s, h.hold_s), (5.0, 2.0));
        assert_eq!((h.mu_before, h.mu_relaxed, h.mu_peak), (0.59, 0.57, 0.62));
        assert!(h.complete);
        assert!((h.healing() - 0.03).abs() < 1e-15);
        // The last hold's reload runs to the end of the record.
        assert!(!r.holds[1].complete);
        assert_eq!(r.healing_rate_per_decade(0.0), None);
    }
}
