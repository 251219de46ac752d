//! What the characterisation rig does to its contact, test by test (MODELS §3.5): the imposed
//! velocity of the kinematic tests as a function of time, the stretches of the record each test
//! reads, and the force rates of the break-away test.

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;

/// The standard test the rig runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RigTest {
    /// Steady friction at log-spaced speeds, fastest first, through zero, then the same speeds
    /// backwards: `v = ±v_k` held for the same time each.
    #[default]
    Stribeck,
    /// Sinusoidal velocity about a mean, `v = v₀ + v₁·sin(2πf_j t)`, a few cycles at each of
    /// several frequencies `f_j = f·g^j`.
    FrictionalLag,
    /// Nested reversals `x = A·(sin ωt + b·sin 3ωt)`, small enough to stay in pre-sliding.
    PreSliding,
    /// A force ramp `F = Ḟ_k·(t − t_k)` on a free mass until it has slipped a set distance,
    /// then the contact is unloaded and renewed, and the next ramp runs `g` times faster.
    BreakAway,
    /// Slides from rest over a set distance at each of a list of speeds, each on a fresh
    /// contact: the friction coefficient against the sliding distance, one curve per speed (the
    /// figures of tribometer tests such as the dry and lubricated tests of Ozaki & Hashiguchi).
    Slides,
    /// Normal creep: no sliding; the load comes on and stays, and the normal approach is read
    /// against the log of time. Needs a body that can approach the counter-surface (the
    /// asperity model); a law alone has none.
    NormalCreep,
}

impl ExtraField for RigTest {
    fn choices() -> &'static [&'static str] {
        &[
            "Stribeck",
            "FrictionalLag",
            "PreSliding",
            "BreakAway",
            "Slides",
            "NormalCreep",
        ]
    }
}

impl RigTest {
    /// Whether the rig imposes the motion (every test but the break-away ramp, which imposes a
    /// force; the normal-creep test imposes rest).
    pub fn is_kinematic(self) -> bool {
        self != RigTest::BreakAway
    }
}

/// Most speeds of a slides test.
pub const MAX_SLIDES: usize = 8;

/// The speeds of a slides test [m/s], in the order they run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SlideSpeeds(pub Vec<f64>);

impl Default for SlideSpeeds {
    fn default() -> Self {
        Self(vec![1e-3])
    }
}

impl ExtraField for SlideSpeeds {
    fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.0.is_empty() || self.0.len() > MAX_SLIDES {
            out.push((
                String::new(),
                format!(
                    "one to {MAX_SLIDES} speeds [m/s], got {}",
                    self.0.len()
                ),
            ));
        }
        for (i, v) in self.0.iter().enumerate() {
            if !(v.is_finite() && *v > 0.0 && *v <= 10.0) {
                out.push((
                    i.to_string(),
                    format!("a speed must be above 0 and at most 10 m/s, got {v}"),
                ));
            }
        }
        out
    }
}

/// A test with its numbers [SI].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Programme {
    /// Which test.
    pub test: RigTest,
    /// Slowest and fastest speed of the Stribeck test [m/s].
    pub speed_range_mps: (f64, f64),
    /// Speeds per sign of the Stribeck test (≥ 2).
    pub speeds: usize,
    /// Time at each speed of the Stribeck test [s].
    pub level_s: f64,
    /// Mean speed `v₀` of the frictional-lag test [m/s].
    pub mean_speed_mps: f64,
    /// Speed amplitude `v₁` of the frictional-lag test [m/s].
    pub speed_amplitude_mps: f64,
    /// First frequency `f` of the frictional-lag test and frequency of the pre-sliding test
    /// [Hz].
    pub frequency_hz: f64,
    /// Each frequency of the frictional-lag test is this many times the one before.
    pub frequency_growth: f64,
    /// Frequencies of the frictional-lag test.
    pub frequencies: usize,
    /// Cycles at each frequency (frictional lag) or in all (pre-sliding).
    pub cycles: usize,
    /// Amplitude `A` of the pre-sliding displacement [m].
    pub amplitude_m: f64,
    /// Relative amplitude `b` of the third harmonic of the pre-sliding displacement.
    pub harmonic_ratio: f64,
    /// Force rate of the first break-away ramp [N/s].
    pub force_rate_n_per_s: f64,
    /// Each ramp is this many times faster than the one before.
    pub rate_growth: f64,
    /// Number of break-away ramps.
    pub ramps: usize,
    /// Slip after which a break-away ramp ends [m].
    pub stop_slip_m: f64,
    /// Speeds of the slides test [m/s] (the first `slides` entries).
    pub slide_speeds_mps: [f64; MAX_SLIDES],
    /// Number of slides.
    pub slides: usize,
    /// Sliding distance of each slide [m].
    pub slide_distance_m: f64,
}

/// A stretch of a kinematic test read as one measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Start [s].
    pub start_s: f64,
    /// End [s].
    pub end_s: f64,
    /// What the stretch holds fixed: the speed [m/s] (Stribeck), the frequency [Hz]
    /// (frictional lag), the frequency [Hz] (pre-sliding).
    pub value: f64,
}

/// The Stribeck test passes through zero speed in this fraction of one level's time.
const CROSSING_FRACTION: f64 = 0.1;

impl Programme {
    /// Signed speed of Stribeck level `k` (`0 ≤ k < 2n`): `+v_max … +v_min`, then
    /// `−v_min … −v_max`, log-spaced.
    pub fn stribeck_speed_mps(&self, k: usize) -> f64 {
        let n = self.speeds.max(2);
        let (lo, hi) = self.speed_range_mps;
        let ratio = lo / hi;
        if k < n {
            hi * ratio.powf(k as f64 / (n - 1) as f64)
        } else {
            -hi * ratio.powf((2 * n - 1 - k) as f64 / (n - 1) as f64)
        }
    }

    /// Start of Stribeck level `k` [s] (the crossing through zero lies between levels `n − 1`
    /// and `n`).
    fn stribeck_start_s(&self, k: usize) -> f64 {
        let n = self.speeds.max(2);
        let crossing = if k >= n {
            CROSSING_FRACTION * self.level_s
        } else {
            0.0
        };
        k as f64 * self.level_s + crossing
    }

    /// Start of frictional-lag block `j` [s].
    fn lag_start_s(&self, j: usize) -> f64 {
        (0..j)
            .map(|i| self.cycles as f64 / self.lag_frequency_hz(i))
            .sum()
    }

    /// Start of slide `k` [s].
    fn slide_start_s(&self, k: usize) -> f64 {
        (0..k)
            .map(|i| self.slide_distance_m / self.slide_speeds_mps[i])
            .sum()
    }

    /// Frequency of frictional-lag block `j` [Hz].
    pub fn lag_frequency_hz(&self, j: usize) -> f64 {
        self.frequency_hz * self.frequency_growth.powi(j as i32)
    }

    /// The frictional-lag block running at `t` and its start time.
    fn lag_block(&self, t: f64) -> (usize, f64) {
        let mut start = 0.0;
        let last = self.frequencies.max(1) - 1;
        for j in 0..last {
            let end = start + self.cycles as f64 / self.lag_frequency_hz(j);
            if t < end {
                return (j, start);
            }
            start = end;
        }
        (last, start)
    }

    /// Length of the test [s] (kinematic tests; the break-away ramps end on a slip, so their
    /// length is not known beforehand: `None`).
    pub fn duration_s(&self) -> Option<f64> {
        match self.test {
            RigTest::Stribeck => Some(self.stribeck_start_s(2 * self.speeds.max(2))),
            RigTest::FrictionalLag => Some(self.lag_start_s(self.frequencies.max(1))),
            RigTest::PreSliding => Some(self.cycles as f64 / self.frequency_hz),
            RigTest::BreakAway | RigTest::NormalCreep => None,
            RigTest::Slides => Some(self.slide_start_s(self.slides.max(1))),
        }
    }

    /// Imposed velocity at `t` of a kinematic test [m/s]; at a switch, the velocity that
    /// starts there. After the test the last motion goes on.
    pub fn velocity_mps(&self, t: f64) -> f64 {
        use std::f64::consts::TAU;
        match self.test {
            RigTest::Stribeck => {
                let n = self.speeds.max(2);
                let crossing_start = n as f64 * self.level_s;
                let crossing_end = crossing_start + CROSSING_FRACTION * self.level_s;
                if t < crossing_start {
                    let k = ((t / self.level_s).floor().max(0.0) as usize).min(n - 1);
                    self.stribeck_speed_mps(k)
                } else if t < crossing_end {
                    // Linear from +v_min to −v_min.
                    let v = self.speed_range_mps.0;
                    v * (1.0 - 2.0 * (t - crossing_start) / (crossing_end - crossing_start))
                } else {
                    let k = n + ((t - crossing_end) / self.level_s).floor() as usize;
                    self.stribeck_speed_mps(k.min(2 * n - 1))
                }
            }
            RigTest::FrictionalLag => {
                let (j, start) = self.lag_block(t);
                let f = self.lag_frequency_hz(j);
                self.mean_speed_mps + self.speed_amplitude_mps * (TAU * f * (t - start)).sin()
            }
            RigTest::PreSliding => {
                let w = TAU * self.frequency_hz;
                let b = self.harmonic_ratio;
                self.amplitude_m * w * ((w * t).cos() + 3.0 * b * (3.0 * w * t).cos())
            }
            RigTest::BreakAway | RigTest::NormalCreep => 0.0,
            RigTest::Slides => self.slide_speeds_mps[self.slide_index(t)],
        }
    }

    /// The last switch at or before `t` (0 before the first): the start of the piece of the
    /// programme running at `t`.
    pub fn piece_start_s(&self, t: f64) -> f64 {
        let mut start = 0.0;
        loop {
            let next = self.next_switch_s(start);
            if next > t || !next.is_finite() {
                return start;
            }
            start = next;
        }
    }

    /// Imposed velocity at `t` by the formula of the piece that starts at `piece_start_s`
    /// [m/s]: a run holds the piece up to and including its end, so the step that ends on a
    /// switch sees no jump (the next piece starts with the next step). Constant levels give
    /// their speed; a piece that varies is evaluated at `t` kept inside it.
    pub fn velocity_in_piece_mps(&self, t: f64, piece_start_s: f64) -> f64 {
        match self.test {
            RigTest::Stribeck => {
                let crossing_start = self.speeds.max(2) as f64 * self.level_s;
                if piece_start_s == crossing_start {
                    let end = self.next_switch_s(piece_start_s);
                    self.velocity_mps(t.clamp(piece_start_s, end))
                } else {
                    // A level: its speed, read half a level in (the last one has no end).
                    self.velocity_mps(piece_start_s + 0.5 * self.level_s)
                }
            }
            RigTest::Slides => self.slide_speeds_mps[self.slide_index(piece_start_s)],
            _ => self.velocity_mps(t),
        }
    }

    /// Imposed displacement at `t` of the pre-sliding test [m] (its reference curve).
    pub fn presliding_displacement_m(&self, t: f64) -> f64 {
        let w = std::f64::consts::TAU * self.frequency_hz;
        self.amplitude_m * ((w * t).sin() + self.harmonic_ratio * (3.0 * w * t).sin())
    }

    /// The first switch of the programme after `t` (a level change, the ends of the crossing,
    /// a change of frequency) [s]; ∞ when none follows.
    pub fn next_switch_s(&self, t: f64) -> f64 {
        let switches: Vec<f64> = match self.test {
            RigTest::Stribeck => {
                let n = self.speeds.max(2);
                let mut s: Vec<f64> = (1..2 * n).map(|k| self.stribeck_start_s(k)).collect();
                s.push(n as f64 * self.level_s);
                s
            }
            RigTest::FrictionalLag => (1..self.frequencies.max(1))
                .map(|j| self.lag_start_s(j))
                .collect(),
            RigTest::Slides => (1..self.slides.clamp(1, MAX_SLIDES))
                .map(|k| self.slide_start_s(k))
                .collect(),
            RigTest::PreSliding | RigTest::BreakAway | RigTest::NormalCreep => Vec::new(),
        };
        switches
            .into_iter()
            .filter(|&s| s > t)
            .fold(f64::INFINITY, f64::min)
    }

    /// The longest step that still resolves the motion at `t` [s]: 1/32 of a level, of the
    /// current period, or of the third harmonic's period.
    pub fn max_step_s(&self, t: f64) -> f64 {
        match self.test {
            RigTest::Stribeck => self.level_s / 32.0,
            RigTest::FrictionalLag => {
                let (j, _) = self.lag_block(t);
                1.0 / (32.0 * self.lag_frequency_hz(j))
            }
            RigTest::PreSliding => 1.0 / (3.0 * 32.0 * self.frequency_hz),
            RigTest::BreakAway | RigTest::NormalCreep => f64::INFINITY,
            // A fiftieth of the slide, so its start is resolved.
            RigTest::Slides => {
                let k = self.slide_index(t);
                self.slide_distance_m / self.slide_speeds_mps[k] / 50.0
            }
        }
    }

    /// The slide running at `t`.
    fn slide_index(&self, t: f64) -> usize {
        let n = self.slides.clamp(1, MAX_SLIDES);
        (1..n)
            .take_while(|&k| self.slide_start_s(k) <= t)
            .last()
            .unwrap_or(0)
    }

    /// Whether a new contact starts at the piece beginning at `t` (each slide renews it).
    pub fn renews_contact_at(&self, piece_start_s: f64) -> bool {
        self.test == RigTest::Slides && piece_start_s > 0.0
    }

    /// The stretches the test reads: the second half of each Stribeck level (the first half
    /// lets the law settle), the last cycle at each frictional-lag frequency, the whole
    /// pre-sliding record; none for the break-away test (its ramps end on a slip).
    pub fn segments(&self) -> Vec<Segment> {
        match self.test {
            RigTest::Stribeck => (0..2 * self.speeds.max(2))
                .map(|k| {
                    let start = self.stribeck_start_s(k);
                    Segment {
                        start_s: start + 0.5 * self.level_s,
                        end_s: start + self.level_s,
                        value: self.stribeck_speed_mps(k),
                    }
                })
                .collect(),
            RigTest::FrictionalLag => (0..self.frequencies.max(1))
                .map(|j| {
                    let f = self.lag_frequency_hz(j);
                    let end = self.lag_start_s(j + 1);
                    Segment {
                        start_s: end - 1.0 / f,
                        end_s: end,
                        value: f,
                    }
                })
                .collect(),
            RigTest::PreSliding => vec![Segment {
                start_s: 0.0,
                end_s: self.cycles as f64 / self.frequency_hz,
                value: self.frequency_hz,
            }],
            RigTest::BreakAway | RigTest::NormalCreep => Vec::new(),
            RigTest::Slides => (0..self.slides.clamp(1, MAX_SLIDES))
                .map(|k| Segment {
                    start_s: self.slide_start_s(k),
                    end_s: self.slide_start_s(k + 1),
                    value: self.slide_speeds_mps[k],
                })
                .collect(),
        }
    }

    /// Force rate of break-away ramp `k` [N/s].
    pub fn ramp_rate_n_per_s(&self, k: usize) -> f64 {
        self.force_rate_n_per_s * self.rate_growth.powi(k as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stribeck() -> Programme {
        Programme {
            test: RigTest::Stribeck,
            speed_range_mps: (1e-5, 1e-1),
            speeds: 5,
            level_s: 10.0,
            mean_speed_mps: 1e-3,
            speed_amplitude_mps: 5e-4,
            frequency_hz: 1.0,
            frequency_growth: 10.0,
            frequencies: 3,
            cycles: 2,
            amplitude_m: 5e-6,
            harmonic_ratio: 0.5,
            force_rate_n_per_s: 1.0,
            rate_growth: 10.0,
            ramps: 3,
            stop_slip_m: 1e-4,
            slide_speeds_mps: [2e-3, 1e-3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            slides: 2,
            slide_distance_m: 1e-2,
        }
    }

    /// Slides run one after the other, each its distance at its speed.
    #[test]
    fn slides_follow_each_other() {
        let p = Programme {
            test: RigTest::Slides,
            ..stribeck()
        };
        assert_eq!(p.duration_s(), Some(5.0 + 10.0));
        assert_eq!(p.velocity_mps(4.9), 2e-3);
        assert_eq!(p.velocity_mps(5.0), 1e-3);
        assert_eq!(p.next_switch_s(0.0), 5.0);
        assert!(p.renews_contact_at(5.0) && !p.renews_contact_at(0.0));
        // A slide holds its speed up to and including its end.
        assert_eq!(p.velocity_in_piece_mps(5.0, 0.0), 2e-3);
        assert_eq!(p.velocity_in_piece_mps(5.0, 5.0), 1e-3);
        let seg = p.segments();
        assert_eq!((seg[1].start_s, seg[1].end_s, seg[1].value), (5.0, 15.0, 1e-3));
    }

    /// The levels run `+v_max … +v_min`, through zero, `−v_min … −v_max`, a decade apart here.
    #[test]
    fn stribeck_levels_sweep_both_signs_through_zero() {
        let p = stribeck();
        let expected = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, -1e-5, -1e-4, -1e-3, -1e-2, -1e-1];
        for (seg, v) in p.segments().iter().zip(expected) {
            assert!((seg.value - v).abs() < 1e-12 * v.abs(), "{seg:?} vs {v}");
            let mid = 0.5 * (seg.start_s + seg.end_s);
            assert_eq!(p.velocity_mps(mid), seg.value);
        }
        // The crossing: +v_min at its start, 0 half-way, −v_min at its end.
        assert!((p.velocity_mps(51.0 - 0.5) - 0.0).abs() < 1e-18);
        assert_eq!(p.duration_s(), Some(101.0));
        assert_eq!(p.next_switch_s(49.0), 50.0);
        assert_eq!(p.next_switch_s(50.0), 51.0);
        assert_eq!(p.next_switch_s(51.0), 61.0);
    }

    /// A piece holds its level up to and including its end; the next piece starts there.
    #[test]
    fn pieces_hold_their_level_to_their_end() {
        let p = stribeck();
        assert_eq!(p.piece_start_s(0.0), 0.0);
        assert_eq!(p.piece_start_s(10.0), 10.0);
        assert_eq!(p.piece_start_s(9.999), 0.0);
        assert_eq!(p.velocity_in_piece_mps(10.0, 0.0), 1e-1);
        assert!((p.velocity_in_piece_mps(10.0, 10.0) - 1e-2).abs() < 1e-15);
        // The crossing ramp is continuous and clamped to its piece.
        assert_eq!(p.piece_start_s(50.5), 50.0);
        assert!(p.velocity_in_piece_mps(50.5, 50.0).abs() < 1e-18);
        assert!((p.velocity_in_piece_mps(51.0, 50.0) + 1e-5).abs() < 1e-18);
        assert_eq!(p.piece_start_s(1e9), 91.0);
        // The last level, read at its very start, is already the last speed.
        assert_eq!(p.velocity_in_piece_mps(91.0, 91.0), -1e-1);
    }

    /// With levels of 0.3 s the start of the last level lands a hair below an integer number
    /// of levels after the crossing; the piece still holds its own speed from its start.
    #[test]
    fn awkward_level_times_keep_each_piece_on_its_level() {
        for (n, level) in [(2, 0.3), (3, 0.7), (5, 1.1), (9, 20.0)] {
            let p = Programme {
                speeds: n,
                level_s: level,
                ..stribeck()
            };
            for seg in p.segments() {
                let piece = p.piece_start_s(seg.start_s);
                for t in [piece, seg.start_s, seg.end_s] {
                    assert_eq!(p.velocity_in_piece_mps(t, piece), seg.value, "n {n}, L {level}");
                }
            }
        }
    }

    /// Each frequency runs whole cycles, so the velocity is continuous where it changes, and
    /// the reading takes the last cycle of each.
    #[test]
    fn frictional_lag_blocks_are_whole_cycles() {
        let p = Programme {
            test: RigTest::FrictionalLag,
            ..stribeck()
        };
        assert_eq!(p.duration_s(), Some(2.0 + 0.2 + 0.02));
        let seg = p.segments();
        assert_eq!(seg.len(), 3);
        assert!((seg[1].start_s - 2.1).abs() < 1e-12 && (seg[1].end_s - 2.2).abs() < 1e-12);
        for s in [2.0, 2.2] {
            let before = p.velocity_mps(s - 1e-9);
            let after = p.velocity_mps(s);
            assert!((before - after).abs() < 1e-9 * 1e-3 * 100.0, "{before} {after}");
        }
    }
}
