//! Steady-state classification from the Lyapunov spectrum and the Poincaré points (S1 Table 1,
//! corrected as in MODELS §4.6; Parker & Chua 1987), and the Kaplan–Yorke dimension.
//!
//! | attractor | exponents (flow: autonomous or extended) | Poincaré map |
//! |---|---|---|
//! | equilibrium | 0 > λ₁ ≥ … ≥ λ_n | – |
//! | limit cycle | λ₁ = 0, rest < 0 | 1 point |
//! | subharmonic, period K | λ₁ = 0, rest < 0 | K points |
//! | K-torus | λ₁ = … = λ_K = 0, rest < 0 | closed curve (K = 2) |
//! | chaos | λ₁ > 0 (Σλ < 0 when dissipative) | fractal |
//!
//! **Which spectrum.** The table is for an autonomous flow. A periodically forced flow is
//! classified in its extended phase space: the exact zero exponent of the time direction
//! (`θ̇ = 2π/T`, never integrated) is inserted. A map is classified as the Poincaré map of
//! its suspension flow, i.e. the same zero is inserted: a fixed point is a "limit cycle" (1
//! point), a period-K orbit "subharmonic K", an invariant circle a 2-torus. Aperiodically
//! (noise-) forced runs are not classified.
//!
//! **Zero tolerance.** `|λ| ≤ tol` counts as zero, with `tol = max(10⁻³·median|λ_i|, 5/T)`
//! over the finite exponents. `5/T` is the resolution of a finite average over `T`: the zero
//! exponent of a periodic orbit converges like `ln C/T`, C the ratio of the largest to the
//! smallest speed on the orbit, and `C ≤ e⁵` covers stick–slip cycles. MODELS §4.6 suggests
//! 10⁻³·|λ_n| for the relative part; a stiff direction (LuGre bristles, λ₃ ≈ −10⁴/s) makes that
//! 10/s and hides real structure, so the median magnitude is the rate scale instead (Lorenz:
//! 10⁻³·0.906). `−∞` exponents (singular saltation matrices, entering stick) count as negative.
//!
//! **Poincaré points.** A cloud whose extent is below 10⁻⁶ of its magnitude is one point.
//! Otherwise, normalised by the extent per component (at least 1 % of the largest extent),
//! points closer than 10⁻³ (max-norm) are one point; up to 64 distinct points, each visited
//! more than once, give K. More points are tested for a closed curve: projected on their two
//! principal axes and ordered by angle around the centroid, a curve's polygon length barely
//! changes when every other point is dropped (ratio < 1.25), a scattered (fractal or noisy)
//! set's length grows with the number of points (ratio ≈ √2); angular gaps must stay under
//! 90°. A thin fractal (the Lorenz section, dimension ≈ 1.06) passes this test too: "closed
//! curve" means "on a closed curve or a thin, nearly one-dimensional set". The verdict comes
//! from the spectrum; the points give K and a consistency flag.

use nalgebra::DMatrix;

/// What kind of system produced a spectrum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SystemKind {
    /// Autonomous flow.
    Autonomous,
    /// Flow forced with period `period` (extended by the phase, exact zero exponent).
    Forced {
        /// Forcing period [s].
        period: f64,
    },
    /// Flow with aperiodic explicit time dependence (e.g. load noise).
    Aperiodic,
    /// Discrete map (exponents per iteration).
    Map,
}

impl SystemKind {
    /// Whether the flow is periodically forced.
    pub fn is_forced(&self) -> bool {
        matches!(self, SystemKind::Forced { .. })
    }

    /// Whether the classification inserts the exact zero of the time direction.
    pub fn adds_time_zero(&self) -> bool {
        matches!(self, SystemKind::Forced { .. } | SystemKind::Map)
    }

    /// Unit of the exponents.
    pub fn unit(&self) -> &'static str {
        match self {
            SystemKind::Map => "1/iteration",
            _ => "1/s",
        }
    }

    /// Description in words.
    pub fn describe(&self) -> String {
        match self {
            SystemKind::Autonomous => "autonomous flow".into(),
            SystemKind::Forced { period } => format!("flow forced with period {period:.6} s"),
            SystemKind::Aperiodic => "flow with aperiodic forcing".into(),
            SystemKind::Map => "map".into(),
        }
    }
}

/// The attractor type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attractor {
    /// Stable equilibrium (all exponents negative).
    Equilibrium,
    /// Periodic orbit, one Poincaré point (period unknown when no points were collected).
    LimitCycle,
    /// Periodic orbit with K Poincaré points.
    Subharmonic(usize),
    /// Quasi-periodic motion on a K-torus (K zero exponents).
    Torus(usize),
    /// Chaos with this many positive exponents (2 or more: hyperchaos).
    Chaos(usize),
    /// Not classified (aperiodic forcing, unconverged or inconsistent spectrum).
    Undetermined,
}

impl Attractor {
    /// Name of the attractor in words, as the kind of system calls it.
    pub fn describe(&self, kind: SystemKind) -> String {
        let map = kind == SystemKind::Map;
        match *self {
            Attractor::Equilibrium => "equilibrium".into(),
            Attractor::LimitCycle if map => "fixed point (period 1)".into(),
            Attractor::LimitCycle => "limit cycle (periodic, period 1)".into(),
            Attractor::Subharmonic(k) if map => format!("periodic orbit of period {k}"),
            Attractor::Subharmonic(k) if kind.is_forced() => {
                format!("subharmonic (periodic with {k} forcing periods)")
            }
            // An autonomous orbit may cross the section more than once per loop.
            Attractor::Subharmonic(k) => {
                format!("periodic ({k} points on the Poincaré section per period)")
            }
            Attractor::Torus(2) if map => "invariant circle (quasi-periodic)".into(),
            Attractor::Torus(k) => format!("{k}-torus (quasi-periodic)"),
            Attractor::Chaos(1) => "chaos".into(),
            Attractor::Chaos(p) => format!("hyperchaos ({p} positive exponents)"),
            Attractor::Undetermined => "undetermined".into(),
        }
    }
}

/// Shape of a set of Poincaré points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoincareShape {
    /// Too few points to tell.
    Unknown,
    /// K distinct points, each visited repeatedly.
    Points(usize),
    /// Many distinct points on a closed curve.
    ClosedCurve,
    /// Many distinct points, not on a curve (fractal or noisy).
    Scattered,
}

/// A classification with everything it was based on.
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    /// The verdict.
    pub attractor: Attractor,
    /// The spectrum classified, in decreasing order (with the exact time zero for forced
    /// flows and maps).
    pub spectrum: Vec<f64>,
    /// Whether an exact zero (time direction) was inserted.
    pub time_zero_added: bool,
    /// Zero tolerance used.
    pub zero_tolerance: f64,
    /// Exponents above the tolerance.
    pub n_positive: usize,
    /// Exponents within the tolerance (the inserted one included).
    pub n_zero: usize,
    /// `Σλ` of the classified spectrum.
    pub sum: f64,
    /// What the Poincaré points look like.
    pub poincare: PoincareShape,
    /// Whether spectrum and Poincaré points agree.
    pub consistent: bool,
    /// Kaplan–Yorke dimension (of the flow, extended flow or map attractor), exponents within
    /// the zero tolerance taken as 0.
    pub kaplan_yorke: f64,
    /// Remarks in words.
    pub notes: Vec<String>,
}

/// Zero tolerance `max(10⁻³·median |λ_i|, 5/T)` (median over the finite exponents).
pub fn zero_tolerance(exponents: &[f64], averaging_time: f64) -> f64 {
    let mut mags: Vec<f64> = exponents
        .iter()
        .filter(|l| l.is_finite())
        .map(|l| l.abs())
        .collect();
    mags.sort_by(f64::total_cmp);
    let median = match mags.len() {
        0 => 0.0,
        n if n % 2 == 1 => mags[n / 2],
        n => 0.5 * (mags[n / 2 - 1] + mags[n / 2]),
    };
    let resolution = if averaging_time > 0.0 {
        5.0 / averaging_time
    } else {
        f64::INFINITY
    };
    (1e-3 * median).max(resolution)
}

/// Kaplan–Yorke dimension `D = j + Σ_{i≤j} λ_i/|λ_{j+1}|`, j the largest index with a
/// non-negative partial sum (0 when λ₁ < 0, n when every partial sum is ≥ 0).
pub fn kaplan_yorke(exponents: &[f64]) -> f64 {
    let mut l: Vec<f64> = exponents.iter().copied().filter(|v| !v.is_nan()).collect();
    l.sort_by(|a, b| b.total_cmp(a));
    let mut sum = 0.0;
    for (j, &lj) in l.iter().enumerate() {
        if sum + lj < 0.0 {
            return if j == 0 {
                0.0
            } else {
                j as f64 + sum / lj.abs()
            };
        }
        sum += lj;
    }
    l.len() as f64
}

/// Shape of Poincaré points (state vectors).
pub fn poincare_shape(points: &[Vec<f64>]) -> PoincareShape {
    const MAX_K: usize = 64;
    const MERGE: f64 = 1e-3;
    const SAME_POINT_REL: f64 = 1e-6;
    if points.len() < 8 {
        return PoincareShape::Unknown;
    }
    let d = points[0].len();
    let mut lo = vec![f64::INFINITY; d];
    let mut hi = vec![f64::NEG_INFINITY; d];
    for p in points {
        for i in 0..d {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let extent = (0..d).map(|i| hi[i] - lo[i]).fold(0.0f64, f64::max);
    let magnitude = (0..d)
        .map(|i| lo[i].abs().max(hi[i].abs()))
        .fold(0.0f64, f64::max);
    // One point when the spread is at integration-error level.
    if extent.is_nan() || extent <= SAME_POINT_REL * magnitude {
        return PoincareShape::Points(1);
    }
    let scale: Vec<f64> = (0..d).map(|i| (hi[i] - lo[i]).max(1e-2 * extent)).collect();
    let norm: Vec<Vec<f64>> = points
        .iter()
        .map(|p| (0..d).map(|i| (p[i] - lo[i]) / scale[i]).collect())
        .collect();
    // Greedy clustering in the max-norm.
    let mut centres: Vec<(Vec<f64>, usize)> = Vec::new();
    let mut many = false;
    for p in &norm {
        match centres
            .iter_mut()
            .find(|(c, _)| c.iter().zip(p).all(|(a, b)| (a - b).abs() <= MERGE))
        {
            Some((_, count)) => *count += 1,
            None => {
                if centres.len() == MAX_K {
                    many = true;
                    break;
                }
                centres.push((p.clone(), 1));
            }
        }
    }
    if !many && centres.iter().all(|(_, c)| *c >= 2) {
        return PoincareShape::Points(centres.len());
    }
    if norm.len() < 40 || d < 2 {
        return if d < 2 && norm.len() >= 40 {
            PoincareShape::Scattered
        } else {
            PoincareShape::Unknown
        };
    }
    if closed_curve(&norm) {
        PoincareShape::ClosedCurve
    } else {
        PoincareShape::Scattered
    }
}

/// Closed-curve test on normalised points (see the module doc).
fn closed_curve(points: &[Vec<f64>]) -> bool {
    let (n, d) = (points.len(), points[0].len());
    let mean: Vec<f64> = (0..d)
        .map(|i| points.iter().map(|p| p[i]).sum::<f64>() / n as f64)
        .collect();
    let centred = DMatrix::from_fn(n, d, |r, c| points[r][c] - mean[c]);
    let cov = centred.transpose() * &centred;
    let eig = cov.symmetric_eigen();
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    let (e1, e2) = (
        eig.eigenvectors.column(order[0]),
        eig.eigenvectors.column(order[1]),
    );
    let planar: Vec<(f64, f64)> = (0..n)
        .map(|r| {
            let row = centred.row(r);
            (row.dot(&e1.transpose()), row.dot(&e2.transpose()))
        })
        .collect();
    let length = |pts: &[(f64, f64)]| -> Option<f64> {
        let mut a: Vec<(f64, f64, f64)> = pts.iter().map(|&(x, y)| (y.atan2(x), x, y)).collect();
        a.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut len = 0.0;
        let mut max_gap = 0.0f64;
        for i in 0..a.len() {
            let (t0, x0, y0) = a[i];
            let (t1, x1, y1) = a[(i + 1) % a.len()];
            len += ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
            let gap = if i + 1 == a.len() {
                t1 + std::f64::consts::TAU - t0
            } else {
                t1 - t0
            };
            max_gap = max_gap.max(gap);
        }
        (max_gap < std::f64::consts::FRAC_PI_2).then_some(len)
    };
    let half: Vec<(f64, f64)> = planar.iter().step_by(2).copied().collect();
    match (length(&planar), length(&half)) {
        (Some(full), Some(h)) if h > 0.0 => full / h < 1.25,
        _ => false,
    }
}

/// Classifies a spectrum (as computed: one exponent per state direction) of a system of the
/// given kind averaged over `averaging_time`, with its Poincaré points (may be empty).
pub fn classify(
    exponents: &[f64],
    kind: SystemKind,
    averaging_time: f64,
    points: &[Vec<f64>],
) -> Classification {
    let mut spectrum: Vec<f64> = exponents.to_vec();
    let time_zero_added = kind.adds_time_zero();
    if time_zero_added {
        spectrum.push(0.0);
    }
    spectrum.sort_by(|a, b| b.total_cmp(a));
    let tol = zero_tolerance(exponents, averaging_time);
    let n_positive = spectrum.iter().filter(|&&l| l > tol).count();
    let n_zero = spectrum.iter().filter(|&&l| l.abs() <= tol).count();
    let sum: f64 = spectrum.iter().sum();
    let poincare = poincare_shape(points);
    // Kaplan–Yorke of the attractor itself (the map's own spectrum for maps), with the
    // exponents inside the tolerance taken as zero: a limit cycle's λ₁ = −0.007 is a zero.
    let snap = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .map(|&l| if l.abs() <= tol { 0.0 } else { l })
            .collect()
    };
    let kaplan_yorke = if kind == SystemKind::Map {
        kaplan_yorke(&snap(exponents))
    } else {
        kaplan_yorke(&snap(&spectrum))
    };
    let mut notes = Vec::new();
    let mut consistent = true;
    let attractor = if exponents.iter().any(|l| l.is_nan()) || exponents.is_empty() {
        notes.push("the spectrum has not been averaged yet".into());
        Attractor::Undetermined
    } else if kind == SystemKind::Aperiodic {
        notes.push(
            "aperiodically forced (load noise): the exponents are those of this realisation; \
             Table 1 does not apply"
                .into(),
        );
        Attractor::Undetermined
    } else if n_positive > 0 {
        if sum >= 0.0 {
            notes.push(format!(
                "Σλ = {sum:.4} ≥ 0: not dissipative (a non-invertible or conservative system, \
                 or an unconverged spectrum)"
            ));
        }
        consistent = !matches!(poincare, PoincareShape::Points(_));
        Attractor::Chaos(n_positive)
    } else if n_zero == 0 {
        consistent = matches!(poincare, PoincareShape::Unknown | PoincareShape::Points(1));
        Attractor::Equilibrium
    } else if n_zero == 1 {
        match poincare {
            PoincareShape::Points(k) if k > 1 => Attractor::Subharmonic(k),
            PoincareShape::Points(_) | PoincareShape::Unknown => Attractor::LimitCycle,
            PoincareShape::ClosedCurve | PoincareShape::Scattered => {
                consistent = false;
                notes.push(
                    "the Poincaré points do not repeat: a torus whose second zero exponent is \
                     outside the tolerance, or a run too short to converge"
                        .into(),
                );
                Attractor::LimitCycle
            }
        }
    } else {
        consistent = match poincare {
            PoincareShape::ClosedCurve => n_zero == 2,
            PoincareShape::Scattered => n_zero > 2,
            PoincareShape::Points(_) | PoincareShape::Unknown => false,
        };
        if !consistent {
            notes.push(format!(
                "{n_zero} zero exponents but the Poincaré points show no torus: some zeros may \
                 be neutral directions (a law state or element that keeps any value while \
                 sticking, a continuum of equilibria) rather than independent frequencies"
            ));
        }
        Attractor::Torus(n_zero)
    };
    if !consistent && notes.is_empty() {
        notes.push(format!(
            "the Poincaré points ({poincare:?}) do not match the spectrum's verdict"
        ));
    }
    Classification {
        attractor,
        spectrum,
        time_zero_added,
        zero_tolerance: tol,
        n_positive,
        n_zero,
        sum,
        poincare,
        consistent,
        kaplan_yorke,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kaplan_yorke_of_published_spectra() {
        // Lorenz (0.906, 0, −14.572): 2 + 0.906/14.572 = 2.0622.
        assert!((kaplan_yorke(&[0.906, 0.0, -14.572]) - 2.062_174).abs() < 1e-6);
        // Hénon (0.419, −1.623): 1 + 0.419/1.623 = 1.2582.
        assert!((kaplan_yorke(&[0.419, -1.623]) - 1.258_164).abs() < 1e-6);
        assert_eq!(kaplan_yorke(&[-0.1, -1.0]), 0.0);
        assert_eq!(kaplan_yorke(&[0.0, f64::NEG_INFINITY]), 1.0);
        assert_eq!(kaplan_yorke(&[0.2, 0.1]), 2.0);
    }

    #[test]
    fn table_one_rows() {
        let t = 1e4;
        let c = classify(&[-0.3, -2.0], SystemKind::Autonomous, t, &[]);
        assert_eq!(c.attractor, Attractor::Equilibrium);
        assert_eq!(c.kaplan_yorke, 0.0);
        let c = classify(&[-1e-4, -2.0], SystemKind::Autonomous, t, &[]);
        assert_eq!(c.attractor, Attractor::LimitCycle);
        assert_eq!(c.kaplan_yorke, 1.0);
        // Forced: the computed exponents are all negative, the time direction adds the zero.
        let three: Vec<Vec<f64>> = (0..90).map(|i| vec![(i % 3) as f64, 1.0]).collect();
        let c = classify(
            &[-0.5, -3.0],
            SystemKind::Forced { period: 10.0 },
            t,
            &three,
        );
        assert_eq!(c.attractor, Attractor::Subharmonic(3));
        assert!(c.time_zero_added && c.consistent);
        let c = classify(&[2e-4, -1e-4, -3.0], SystemKind::Autonomous, t, &[]);
        assert_eq!(c.attractor, Attractor::Torus(2));
        // Without a closed curve in the section the extra zero may be a neutral direction.
        assert!(!c.consistent && c.notes[0].contains("neutral"));
        let c = classify(&[0.906, 0.0, -14.572], SystemKind::Autonomous, t, &[]);
        assert_eq!(c.attractor, Attractor::Chaos(1));
        assert!((c.zero_tolerance - 0.000_906).abs() < 1e-12);
        // A stiff direction does not inflate the tolerance.
        let c = classify(&[0.02, -6.0, -1e4], SystemKind::Autonomous, t, &[]);
        assert_eq!(c.attractor, Attractor::Chaos(1));
        // Entering stick: −∞ is negative, the tolerance comes from the finite ones.
        let c = classify(&[3e-3, f64::NEG_INFINITY], SystemKind::Autonomous, 1e3, &[]);
        assert_eq!(c.attractor, Attractor::LimitCycle);
        assert!((c.zero_tolerance - 5e-3).abs() < 1e-15);
        let c = classify(&[0.1, -1.0], SystemKind::Aperiodic, t, &[]);
        assert_eq!(c.attractor, Attractor::Undetermined);
    }

    #[test]
    fn poincare_shapes() {
        // A circle sampled at an irrational rotation: a closed curve.
        let golden = 0.618_033_988_749_894_9;
        let circle: Vec<Vec<f64>> = (0..2000)
            .map(|i| {
                let a = std::f64::consts::TAU * (i as f64 * golden).fract();
                vec![1.0 + 0.5 * a.cos(), 2.0 + 0.2 * a.sin(), 0.1 * a.cos()]
            })
            .collect();
        assert_eq!(poincare_shape(&circle), PoincareShape::ClosedCurve);
        // Points filling a square: scattered.
        let square: Vec<Vec<f64>> = (0..2000)
            .map(|i| {
                let u = (i as f64 * golden).fract();
                let v = (i as f64 * 0.754_877_666_246_692_7).fract();
                vec![u, v]
            })
            .collect();
        assert_eq!(poincare_shape(&square), PoincareShape::Scattered);
        // A period-2 orbit with round-off: 2 points.
        let two: Vec<Vec<f64>> = (0..100)
            .map(|i| vec![(i % 2) as f64 + 1e-12 * i as f64, 0.5])
            .collect();
        assert_eq!(poincare_shape(&two), PoincareShape::Points(2));
        assert_eq!(poincare_shape(&two[..3]), PoincareShape::Unknown);
    }
}
