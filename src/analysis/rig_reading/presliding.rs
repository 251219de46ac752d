//! The pre-sliding test read: the force–displacement loops, their reversal points, whether an
//! inner loop closes where it began (return-point memory: the force on coming back to an
//! earlier reversal point is the force there), and the Masing rule after the highest
//! reversal, `R = R_r − 2·R_v((x_r − x)/2)` with `R_v` the virgin curve of a fresh contact.

use super::{Axis, Mark, RigReading, RigRecord, Series, percent};
use crate::laws::LawConfig;
use crate::rig::{Motion, run_prescribed};
use crate::systems::RigProgramme;
use crate::util::eng::format_si;

/// Mismatch (share of the force range) under which loops are said to close.
const CLOSES: f64 = 1e-3;
/// The same for a system whose own friction has rate effects (dampers, creep): 2 %.
const CLOSES_WITH_RATE: f64 = 0.02;
/// Rows of the virgin curve.
const VIRGIN_ROWS: f64 = 2000.0;

/// A velocity reversal: time, displacement, resisting force.
#[derive(Clone, Copy, Debug)]
struct Reversal {
    t: f64,
    x: f64,
    r: f64,
    /// Row after the reversal.
    row: usize,
}

/// Three-point Lagrange interpolation of `y` at `t` through rows `i − 1, i, i + 1`.
fn quadratic_at(time: &[f64], y: &[f64], i: usize, t: f64) -> f64 {
    let i = i.clamp(1, time.len() - 2);
    let (t0, t1, t2) = (time[i - 1], time[i], time[i + 1]);
    if t0 == t1 || t1 == t2 || t0 == t2 {
        return y[i];
    }
    let l0 = (t - t1) * (t - t2) / ((t0 - t1) * (t0 - t2));
    let l1 = (t - t0) * (t - t2) / ((t1 - t0) * (t1 - t2));
    let l2 = (t - t0) * (t - t1) / ((t2 - t0) * (t2 - t1));
    l0 * y[i - 1] + l1 * y[i] + l2 * y[i + 1]
}

fn reversals(rec: &RigRecord<'_>, resisting: &[f64]) -> Vec<Reversal> {
    let (t, v) = (rec.time, rec.velocity);
    let mut out: Vec<Reversal> = Vec::new();
    if t.len() < 3 {
        return out;
    }
    for i in 1..t.len() {
        let through_zero = v[i] == 0.0 && i + 1 < t.len() && v[i - 1] * v[i + 1] < 0.0;
        if !(v[i - 1] * v[i] < 0.0 || through_zero) {
            continue;
        }
        let tr = if v[i] == 0.0 {
            t[i]
        } else {
            t[i - 1] - v[i - 1] * (t[i] - t[i - 1]) / (v[i] - v[i - 1])
        };
        if out.last().is_some_and(|r| r.t >= tr) {
            continue;
        }
        let near = if tr - t[i - 1] < t[i] - tr { i - 1 } else { i };
        out.push(Reversal {
            t: tr,
            x: quadratic_at(t, rec.position, near, tr),
            r: quadratic_at(t, resisting, near, tr),
            row: i,
        });
    }
    out
}

/// The resisting force where the motion after reversal `b` first comes back to `a.x`
/// (before reversal `c`, or at `c` itself when `c` is where it turns).
fn force_on_return(
    rec: &RigRecord<'_>,
    resisting: &[f64],
    a: &Reversal,
    b: &Reversal,
    c: &Reversal,
    tol: f64,
) -> Option<f64> {
    let dir = (a.x - b.x).signum();
    if (c.x - a.x) * dir < -tol {
        return None;
    }
    if (c.x - a.x).abs() <= tol {
        return Some(c.r);
    }
    let x = rec.position;
    for j in b.row..c.row.min(x.len()) {
        if (x[j] - a.x) * dir >= 0.0 && j > 0 {
            let (x0, x1) = (x[j - 1], x[j]);
            let s = if x1 != x0 {
                (a.x - x0) / (x1 - x0)
            } else {
                1.0
            };
            return Some(resisting[j - 1] + s * (resisting[j] - resisting[j - 1]));
        }
    }
    None
}

/// The virgin curve `R_v(d)` of a fresh contact, `d` up to `d_max`, slid at `speed`.
/// The last virgin curve computed, by law, load, length and speed: the window reads a growing
/// record twice a second and the curve does not change while the run goes on.
type VirginKey = (LawConfig, u64, u64, u64);
static VIRGIN_CACHE: std::sync::Mutex<Option<(VirginKey, Vec<[f64; 2]>)>> =
    std::sync::Mutex::new(None);

fn virgin_curve(
    law: &LawConfig,
    normal_load_n: f64,
    d_max: f64,
    speed: f64,
) -> Option<Vec<[f64; 2]>> {
    // Rounded up to three digits, so reversals read a hair apart share one curve.
    let scale = 10f64.powf(d_max.abs().log10().floor() - 2.0);
    let d_max = (d_max / scale).ceil() * scale;
    let key = (
        law.clone(),
        normal_load_n.to_bits(),
        d_max.to_bits(),
        speed.to_bits(),
    );
    if let Ok(cache) = VIRGIN_CACHE.lock()
        && let Some((k, curve)) = cache.as_ref()
        && *k == key
    {
        return Some(curve.clone());
    }
    let curve = fresh_virgin_curve(law, normal_load_n, d_max, speed)?;
    if let Ok(mut cache) = VIRGIN_CACHE.lock() {
        *cache = Some((key, curve.clone()));
    }
    Some(curve)
}

fn fresh_virgin_curve(
    law: &LawConfig,
    normal_load_n: f64,
    d_max: f64,
    speed: f64,
) -> Option<Vec<[f64; 2]>> {
    let t_end = d_max / speed;
    let rows = run_prescribed(
        law.build(),
        Motion::ConstantVelocity {
            velocity_mps: speed,
        },
        normal_load_n,
        t_end,
        1e-10,
        t_end / VIRGIN_ROWS,
    )
    .ok()?;
    Some(rows.iter().map(|r| [r[1], -r[3]]).collect())
}

fn interpolate(curve: &[[f64; 2]], d: f64) -> f64 {
    let i = curve
        .partition_point(|p| p[0] < d)
        .clamp(1, curve.len() - 1);
    let (a, b) = (curve[i - 1], curve[i]);
    if b[0] <= a[0] {
        return b[1];
    }
    a[1] + (b[1] - a[1]) * (d - a[0]) / (b[0] - a[0])
}

pub(super) fn read(
    programme: &RigProgramme,
    law: Option<&LawConfig>,
    normal_load_n: f64,
    rec: &RigRecord<'_>,
) -> RigReading {
    let resisting: Vec<f64> = rec.friction.iter().map(|f| -f).collect();
    let loop_points: Vec<[f64; 2]> = rec
        .position
        .iter()
        .zip(&resisting)
        .map(|(&x, &r)| [x, r])
        .collect();
    let span_x = rec.position.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let (lo, hi) = resisting
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &r| {
            (l.min(r), h.max(r))
        });
    let span_r = (hi - lo).max(f64::MIN_POSITIVE);
    let turns = if rec.time.len() >= 3 {
        reversals(rec, &resisting)
    } else {
        Vec::new()
    };
    let tol = 1e-4 * span_x;
    let mut rows = Vec::new();
    for i in 0..turns.len().saturating_sub(2) {
        let (a, b, c) = (&turns[i], &turns[i + 1], &turns[i + 2]);
        // Only a loop strictly inside the swing before it (the first one inside the swing from
        // the start at x = 0) returns to a point the contact should remember.
        let before = if i > 0 { turns[i - 1].x } else { 0.0 };
        if (b.x - a.x).abs() >= (a.x - before).abs() - tol {
            continue;
        }
        if let Some(r) = force_on_return(rec, &resisting, a, b, c, tol) {
            rows.push(vec![a.t, a.x, a.r, r, r - a.r]);
        }
    }
    let mut series = vec![Series {
        name: "record".into(),
        mark: Mark::Line,
        points: loop_points,
    }];
    series.push(Series {
        name: "reversal points".into(),
        mark: Mark::Points,
        points: turns.iter().map(|r| [r.x, r.r]).collect(),
    });
    let mut findings = Vec::new();
    let mut figures = Vec::new();
    if let Some(worst) = rows.iter().map(|r| r[4].abs()).reduce(f64::max) {
        let share = worst / span_r;
        figures.push(("return_mismatch_share", share));
        // A system with friction of its own (the asperity model) has dampers and creep: its
        // loops close to within the small rate effects those add, not to round-off.
        let closes = if law.is_some() {
            CLOSES
        } else {
            CLOSES_WITH_RATE
        };
        findings.push(if share < CLOSES && law.is_some() {
            format!(
                "Inner loops close where they began: coming back to an earlier reversal point \
                 the force is the force it had there, to {} ({} of the force range; {} \
                 loops): return-point memory, as of a contact that remembers every reversal \
                 not yet wiped out.",
                format_si(worst, "N", 2),
                percent(share),
                rows.len()
            )
        } else if share < closes {
            format!(
                "Inner loops close where they began, within the small rate effects of the \
                 dampers and the creep: coming back to an earlier reversal point the force \
                 misses the force it had there by up to {} ({} of the force range; {} loops): \
                 return-point memory.",
                format_si(worst, "N", 2),
                percent(share),
                rows.len()
            )
        } else {
            format!(
                "Inner loops do not close: coming back to an earlier reversal point the force \
                 misses the force it had there by up to {} ({} of the force range; {} \
                 loops): no return-point memory (for a law without rate effects, a state \
                 that holds only its last reversal).",
                format_si(worst, "N", 2),
                percent(share),
                rows.len()
            )
        });
    }
    if rows.is_empty() && turns.len() >= 3 {
        findings.push(
            "No loop inside another in this motion (a larger third-harmonic share makes some), \
             so there is no return point to check."
                .to_string(),
        );
    }
    // Masing rule after the highest reversal whose branch is complete.
    let top = turns
        .windows(2)
        .rev()
        .find(|w| w[1].x < w[0].x && w[0].x >= span_x - tol)
        .map(|w| (w[0], w[1]));
    let speed = programme.amplitude_m * std::f64::consts::TAU * programme.frequency_hz;
    if let Some((top, next)) = top
        && let Some(law) = law
        && let Some(virgin) = virgin_curve(law, normal_load_n, 0.6 * (top.x - next.x), speed)
        && virgin.len() >= 2
    {
        let predicted: Vec<[f64; 2]> = (top.row..next.row.min(rec.time.len()))
            .map(|j| {
                let x = rec.position[j];
                [x, top.r - 2.0 * interpolate(&virgin, 0.5 * (top.x - x))]
            })
            .collect();
        let miss = (top.row..next.row.min(rec.time.len()))
            .zip(&predicted)
            .map(|(j, p)| (resisting[j] - p[1]).abs())
            .fold(0.0, f64::max);
        figures.push(("masing_departure_share", miss / span_r));
        findings.push(format!(
            "Masing rule on the branch down from the highest reversal (dashed: the virgin curve \
             doubled, R_r − 2·R_v((x_r − x)/2)): largest departure {} ({} of the force \
             range){}.",
            format_si(miss, "N", 2),
            percent(miss / span_r),
            if miss / span_r < CLOSES {
                ": the rule holds"
            } else {
                ": the rule does not hold for this law"
            }
        ));
        series.push(Series {
            name: "Masing rule".into(),
            mark: Mark::Dashed,
            points: predicted,
        });
    }
    RigReading {
        title: "Pre-sliding: force against displacement, nested reversals".into(),
        x: Axis::linear("displacement x", "m"),
        y: Axis::linear("friction R", "N"),
        series,
        findings,
        figures,
        columns: vec![
            ("t_reversal", "s"),
            ("x_reversal", "m"),
            ("friction_at_reversal", "N"),
            ("friction_on_return", "N"),
            ("mismatch", "N"),
        ],
        rows,
    }
}
