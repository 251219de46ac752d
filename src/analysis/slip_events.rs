//! Stick fraction and slip-event statistics from the output rows of a run (MODELS §4.8).
//!
//! * **Exact** (event-driven runs): the rows carry the law's stick flag and a before/after pair
//!   of rows at every switch, so stick intervals start and end exactly at switch times.
//! * **Threshold** (smooth and state laws): a row sticks when `|v_rel| < v_tol` (default
//!   `10⁻³·v_b`, as the belt–block's `stick` column; `10⁻³·max|v_rel|` without a moving driver);
//!   crossing times are interpolated linearly between samples.
//!
//! A contact that opens (normal load zero, an impact system between strikes) counts neither as
//! stick nor as slip while open: the stick fraction is of the time in contact, and no slip
//! event spans an opening.
//!
//! A slip event runs from break-away to the next re-stick (events cut by the record's ends are
//! left out). Per event: duration; force drop = |friction| of the stuck row at break-away minus
//! |friction| of the stuck row at re-stick (exact: the switch states; threshold: the stuck
//! samples one further from the switch, within `2·k·v_b·Δt_out` each on the belt–block); slip distance `∫|v_rel| dt` — exactly
//! `|Δx − v_b·Δt|` when `v_rel` keeps its sign (belt speed `v_b = v − v_rel`), else the
//! trapezoid rule; peak `|v_rel|`, refined by a parabola through the largest sample and its
//! neighbours.

use crate::integrate::column::find_role;
use crate::integrate::{Column, Role};

/// One slip event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlipEvent {
    /// Break-away time [s].
    pub start_s: f64,
    /// Duration [s].
    pub duration_s: f64,
    /// Friction-force drop [N].
    pub force_drop_n: f64,
    /// Relative slip distance `∫|v_rel| dt` [m].
    pub slip_distance_m: f64,
    /// Peak `|v_rel|` [m/s].
    pub peak_slip_speed_mps: f64,
}

/// Statistics of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipStats {
    /// Stick time / time in contact (the whole record for a contact that never opens).
    pub stick_fraction: f64,
    /// Time in contact / record time, for a contact that opens (normal load zero) during the
    /// record; `None` when it stays closed or the system reports no normal load.
    pub contact_fraction: Option<f64>,
    /// Record length [s].
    pub record_s: f64,
    /// Whether stick came from exact switch events (else the velocity threshold).
    pub exact: bool,
    /// Velocity threshold used when not exact [m/s].
    pub v_tol_mps: f64,
    /// Complete slip events, in time order.
    pub events: Vec<SlipEvent>,
}

impl SlipStats {
    /// Mean and sample standard deviation of a per-event quantity.
    pub fn mean_std(&self, f: impl Fn(&SlipEvent) -> f64) -> (f64, f64) {
        let n = self.events.len();
        if n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let mean = self.events.iter().map(&f).sum::<f64>() / n as f64;
        let var = if n > 1 {
            self.events
                .iter()
                .map(|e| (f(e) - mean).powi(2))
                .sum::<f64>()
                / (n - 1) as f64
        } else {
            0.0
        };
        (mean, var.sqrt())
    }
}

/// A column the statistics need is missing.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("slip statistics need the column of {0}")]
pub struct MissingColumn(pub String);

/// One stick/slip boundary: time, state there and the stick-side friction.
#[derive(Clone, Copy, Debug)]
struct Boundary {
    t: f64,
    x: f64,
    friction: f64,
    /// `|v_rel|` there.
    speed: f64,
    /// Row index from which the slip side starts (break-away) or where it ends (re-stick).
    row: usize,
}

struct Cols {
    t: usize,
    x: usize,
    v: usize,
    v_rel: usize,
    friction: usize,
    stick: Option<usize>,
    event: Option<usize>,
}

fn find(columns: &[Column], role: Role, what: &str) -> Result<usize, MissingColumn> {
    find_role(columns, role).ok_or_else(|| MissingColumn(what.into()))
}

/// Statistics of contact `contact` in `rows` (layout `columns`, found by role: time, the
/// position and velocity of degree of freedom `dof` that slides at the contact, the contact's
/// slip velocity and friction force, and its stick flag and the event flag when present).
/// `v_tol_mps` overrides the threshold of non-exact runs.
pub fn slip_statistics(
    columns: &[Column],
    rows: &[Vec<f64>],
    contact: usize,
    dof: usize,
    v_tol_mps: Option<f64>,
) -> Result<SlipStats, MissingColumn> {
    let c = Cols {
        t: find(columns, Role::Time, "time")?,
        x: find(columns, Role::Position(dof), "the sliding position")?,
        v: find(columns, Role::Velocity(dof), "the sliding velocity")?,
        v_rel: find(columns, Role::SlipVelocity(contact), "the slip velocity")?,
        friction: find(columns, Role::FrictionForce(contact), "the friction force")?,
        stick: find_role(columns, Role::Stick(contact)),
        event: find_role(columns, Role::EventFlag),
    };
    // Rows where the contact is open (an impact system between strikes): neither stick nor
    // slip, and no slip event spans them.
    let apart: Vec<bool> = match find_role(columns, Role::NormalLoad(contact)) {
        Some(n) => rows.iter().map(|r| r[n] <= 0.0).collect(),
        None => vec![false; rows.len()],
    };
    let empty = SlipStats {
        stick_fraction: 0.0,
        contact_fraction: None,
        record_s: 0.0,
        exact: false,
        v_tol_mps: 0.0,
        events: Vec::new(),
    };
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return Ok(empty);
    };
    let record_s = last[c.t] - first[c.t];
    // The driver's speed: the belt's (body minus slip velocity), or a load point's (the
    // largest of its programme) on a fixed surface.
    let belt = match find_role(columns, Role::DriverVelocity) {
        Some(d) => rows.iter().map(|r| r[d].abs()).fold(0.0, f64::max),
        None => (first[c.v] - first[c.v_rel]).abs(),
    };
    // Without a moving driver (an impact system on a still or spinning surface), the scale
    // is the record's own largest slip speed.
    let scale = if belt > 0.0 {
        belt
    } else {
        rows.iter().map(|r| r[c.v_rel].abs()).fold(0.0, f64::max)
    };
    let v_tol = v_tol_mps.unwrap_or(1e-3 * scale.max(1e-9));
    // Exact when a switch pair changes the stick flag.
    let exact = match (c.stick, c.event) {
        (Some(s), Some(e)) => rows.windows(2).any(|w| {
            w[0][e] == 1.0 && w[1][e] == 1.0 && w[0][c.t] == w[1][c.t] && w[0][s] != w[1][s]
        }),
        _ => false,
    };
    let stuck: Vec<bool> = match (exact, c.stick) {
        (true, Some(s)) => rows.iter().map(|r| r[s] != 0.0).collect(),
        _ => rows.iter().map(|r| r[c.v_rel].abs() < v_tol).collect(),
    };
    // Stick time and the boundaries.
    let mut stick_time = 0.0;
    let mut contact_time = 0.0;
    let mut breaks: Vec<Boundary> = Vec::new();
    let mut resticks: Vec<Boundary> = Vec::new();
    for i in 0..rows.len().saturating_sub(1) {
        let (a, b) = (&rows[i], &rows[i + 1]);
        let dt = b[c.t] - a[c.t];
        if apart[i] || apart[i + 1] {
            continue;
        }
        contact_time += dt;
        match (stuck[i], stuck[i + 1]) {
            (true, true) => stick_time += dt,
            (false, false) => {}
            (from_stick, _) => {
                // Crossing inside the interval: exact pairs have dt = 0; else interpolate
                // |v_rel| − v_tol linearly.
                let theta = if dt == 0.0 {
                    0.0
                } else {
                    let (ga, gb) = (a[c.v_rel].abs() - v_tol, b[c.v_rel].abs() - v_tol);
                    (ga / (ga - gb)).clamp(0.0, 1.0)
                };
                let lerp = |k: usize| a[k] + theta * (b[k] - a[k]);
                // Friction jumps at break-away: take a stuck row's value. Exact pairs: the
                // switch states. Threshold: the stuck samples one further from the boundary
                // (the nearest may already or still slip slower than v_tol, under kinetic
                // friction).
                let friction = if from_stick {
                    if dt > 0.0 && i > 0 && stuck[i - 1] {
                        rows[i - 1][c.friction]
                    } else {
                        a[c.friction]
                    }
                } else if dt > 0.0 && stuck.get(i + 2) == Some(&true) {
                    rows[i + 2][c.friction]
                } else {
                    b[c.friction]
                };
                let boundary = Boundary {
                    t: lerp(c.t),
                    x: lerp(c.x),
                    friction,
                    speed: lerp(c.v_rel).abs(),
                    row: i + 1,
                };
                if from_stick {
                    stick_time += theta * dt;
                    breaks.push(boundary);
                } else {
                    stick_time += (1.0 - theta) * dt;
                    resticks.push(boundary);
                }
            }
        }
    }
    let mut events = Vec::new();
    for br in &breaks {
        let Some(rs) = resticks
            .iter()
            .find(|r| r.t > br.t || (r.t == br.t && r.row > br.row))
        else {
            break;
        };
        if apart[br.row..rs.row.max(br.row)].iter().any(|&a| a) {
            continue; // the contact opened in between: two strikes, not one slip
        }
        events.push(event(rows, &c, br, rs, belt));
    }
    let opens = apart.iter().any(|&a| a);
    Ok(SlipStats {
        stick_fraction: if contact_time > 0.0 {
            stick_time / contact_time
        } else {
            0.0
        },
        contact_fraction: (opens && record_s > 0.0).then(|| contact_time / record_s),
        record_s,
        exact,
        v_tol_mps: if exact { 0.0 } else { v_tol },
        events,
    })
}

fn event(rows: &[Vec<f64>], c: &Cols, br: &Boundary, rs: &Boundary, belt: f64) -> SlipEvent {
    let duration = rs.t - br.t;
    // Rows strictly inside the slip (the slip-side rows of the boundaries included).
    let inside = &rows[br.row..rs.row.max(br.row)];
    let same_sign =
        inside.iter().all(|r| r[c.v_rel] <= 0.0) || inside.iter().all(|r| r[c.v_rel] >= 0.0);
    let slip_distance = if same_sign {
        // ∫ v_rel dt = Δx − v_b·Δt.
        let v_belt = inside.first().map_or(belt, |r| r[c.v] - r[c.v_rel]);
        ((rs.x - br.x) - v_belt * duration).abs()
    } else {
        let mut s = 0.0;
        let mut prev = (br.t, br.speed);
        for r in inside {
            let cur = (r[c.t], r[c.v_rel].abs());
            s += 0.5 * (cur.0 - prev.0) * (cur.1 + prev.1);
            prev = cur;
        }
        s + 0.5 * (rs.t - prev.0) * (prev.1 + rs.speed)
    };
    SlipEvent {
        start_s: br.t,
        duration_s: duration,
        force_drop_n: br.friction.abs() - rs.friction.abs(),
        slip_distance_m: slip_distance,
        peak_slip_speed_mps: peak(inside, c),
    }
}

/// Largest `|v_rel|`, refined by the parabola through the largest sample and its neighbours
/// when they are evenly spaced.
fn peak(inside: &[Vec<f64>], c: &Cols) -> f64 {
    let Some((k, _)) = inside
        .iter()
        .enumerate()
        .max_by(|a, b| a.1[c.v_rel].abs().total_cmp(&b.1[c.v_rel].abs()))
    else {
        return 0.0;
    };
    let a = inside[k][c.v_rel].abs();
    if k == 0 || k + 1 >= inside.len() {
        return a;
    }
    let (l, r) = (&inside[k - 1], &inside[k + 1]);
    let (h1, h2) = (inside[k][c.t] - l[c.t], r[c.t] - inside[k][c.t]);
    if h1 <= 0.0 || (h1 - h2).abs() > 1e-9 * h1 {
        return a;
    }
    let (y0, y1, y2) = (l[c.v_rel].abs(), a, r[c.v_rel].abs());
    let den = y0 - 2.0 * y1 + y2;
    if den >= 0.0 {
        return a;
    }
    a - (y2 - y0).powi(2) / (8.0 * den)
}
