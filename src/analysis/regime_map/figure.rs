//! A regime map as a figure for a handout or a paper: SVG (vector, text set by the viewer),
//! white background, the cells coloured by regime, the stability boundary of steady sliding as
//! a dashed line, axes with ticks and the parameters' names and units, a legend and a title
//! with the preset and the run. The window's *Save figure* and `tribolab map --figure` write
//! the same file.

use std::fmt::Write as _;

use super::{MapCell, MapSpec, Regime};
use crate::preset::Preset;
use crate::util::number::format_number;

/// Colour of a regime as the window and the figure draw it (RGB).
pub fn regime_rgb(regime: Regime) -> [u8; 3] {
    match regime {
        Regime::Steady => [120, 190, 120],
        Regime::Periodic(1) => [31, 119, 180],
        Regime::Periodic(2) => [110, 80, 190],
        Regime::Periodic(_) => [170, 60, 170],
        Regime::QuasiPeriodic => [240, 160, 40],
        Regime::Chaotic => [210, 40, 40],
        Regime::Unsettled => [150, 150, 150],
        Regime::Failed => [40, 40, 40],
    }
}

/// Colour of a periodic cell whose contacts never stick: the oscillation about steady sliding
/// born at the stability boundary, or sliding shaken by a forcing (RGB).
pub const SLIDING_CYCLE_RGB: [u8; 3] = [90, 190, 220];

/// Colour of a cell (RGB).
pub fn cell_rgb(c: &MapCell) -> [u8; 3] {
    match c.regime {
        Regime::Periodic(_) if c.stick_fraction == 0.0 => SLIDING_CYCLE_RGB,
        r => regime_rgb(r),
    }
}

/// The legend's entries: colour and words.
pub fn legend() -> Vec<([u8; 3], &'static str)> {
    vec![
        (regime_rgb(Regime::Steady), "steady"),
        (regime_rgb(Regime::Periodic(1)), "periodic stick–slip"),
        (SLIDING_CYCLE_RGB, "periodic without sticking"),
        (regime_rgb(Regime::Periodic(2)), "period 2"),
        (regime_rgb(Regime::Periodic(3)), "period 3 or more"),
        (regime_rgb(Regime::QuasiPeriodic), "quasi-periodic"),
        (regime_rgb(Regime::Chaotic), "chaotic"),
        (regime_rgb(Regime::Unsettled), "unsettled"),
        (regime_rgb(Regime::Failed), "failed"),
    ]
}

/// The metadata of the parameter at a preset path, when the preset has it.
fn axis_meta<'a>(base: &'a Preset, path: &str) -> Option<&'a crate::params::ParamMeta> {
    match path.split_once('.') {
        Some(("system", key)) => base.system.params().meta().iter().find(|m| m.key == key),
        Some(("law", key)) => base.law.params().meta().iter().find(|m| m.key == key),
        _ => None,
    }
}

/// The axis label of a preset path: the parameter's name, symbol and unit when the preset
/// knows it, else the path.
pub fn axis_label(base: &Preset, path: &str) -> String {
    axis_meta(base, path).map_or_else(
        || path.to_string(),
        |m| m.label_with_unit().replace("  ", " "),
    )
}

/// A value on an axis for a reader: symbol, value and unit in engineering notation
/// (`c = 4.2 N·s/m`) when the preset knows the parameter, else `path = value`.
pub fn axis_value(base: &Preset, path: &str, value: f64) -> String {
    match axis_meta(base, path) {
        Some(m) => format!(
            "{} = {}",
            m.symbol,
            crate::util::eng::format_si_short(value, m.unit, 4)
        ),
        None => format!("{path} = {}", crate::params::fmt_num(value)),
    }
}

/// Width and height of the figure [px].
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 560.0;
/// Plot area: left, top, right, bottom edges [px].
const LEFT: f64 = 86.0;
const TOP: f64 = 56.0;
const RIGHT: f64 = 560.0;
const BOTTOM: f64 = 484.0;

/// Edges of the axis around evenly spaced cell centres `values`.
fn extent(values: &[f64]) -> (f64, f64) {
    let (a, b) = (values[0], values[values.len() - 1]);
    if values.len() > 1 && b != a {
        let half = 0.5 * (b - a) / (values.len() - 1) as f64;
        (a - half, b + half)
    } else {
        let half = if a == 0.0 { 0.5 } else { 0.5 * a.abs() };
        (a - half, a + half)
    }
}

/// About six round ticks (1, 2 or 5 × 10ᵏ apart) inside `lo…hi`, with their labels.
fn ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let span = (hi - lo).abs();
    if !(span.is_finite() && span > 0.0) {
        return Vec::new();
    }
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (lo.min(hi) / step).ceil() as i64;
    let last = (lo.max(hi) / step).floor() as i64;
    (first..=last)
        .map(|k| {
            let v = k as f64 * step;
            (v, format!("{v:.decimals$}").replace('-', "−"))
        })
        .collect()
}

use crate::figure::svg::{esc as escape, rgb};

/// The map (cells in any order, missing ones left blank) as an SVG document; `boundary` is
/// the stability boundary's symbol and points ([`super::stability_curve`]).
pub fn svg(
    base: &Preset,
    spec: &MapSpec,
    cells: &[MapCell],
    boundary: &(String, Vec<[f64; 2]>),
) -> String {
    let (x0, x1) = extent(&spec.x.values);
    let (y0, y1) = extent(&spec.y.values);
    let px = |x: f64| LEFT + (x - x0) / (x1 - x0) * (RIGHT - LEFT);
    let py = |y: f64| BOTTOM - (y - y0) / (y1 - y0) * (BOTTOM - TOP);
    let (nx, ny) = (spec.x.values.len(), spec.y.values.len());
    let (cw, ch) = ((RIGHT - LEFT) / nx as f64, (BOTTOM - TOP) / ny as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">"##
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="white"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="22" font-size="15" font-weight="bold">Regime map — {}</text>"##,
        escape(&base.name)
    );
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="40" font-size="11" fill="#444">{}</text>"##,
        escape(&run_line(spec, cells.len()))
    );
    // Cells: rectangles slightly overlapping their neighbours, so no hairline gaps show.
    let _ = writeln!(s, r##"<g shape-rendering="crispEdges">"##);
    for c in cells {
        let x = LEFT + c.ix as f64 * cw;
        let y = BOTTOM - (c.iy + 1) as f64 * ch;
        let _ = writeln!(
            s,
            r##"<rect x="{x:.2}" y="{y:.2}" width="{:.2}" height="{:.2}" fill="{}"/>"##,
            cw + 0.3,
            ch + 0.3,
            rgb(cell_rgb(c))
        );
    }
    let _ = writeln!(s, "</g>");
    // The stability boundary, clipped to the plot.
    let (symbol, points) = boundary;
    let inside: Vec<String> = points
        .iter()
        .filter(|p| p.iter().all(|v| v.is_finite()))
        .filter(|p| {
            (x0.min(x1)..=x0.max(x1)).contains(&p[0]) && (y0.min(y1)..=y0.max(y1)).contains(&p[1])
        })
        .map(|p| format!("{:.2},{:.2}", px(p[0]), py(p[1])))
        .collect();
    if inside.len() >= 2 {
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="black" stroke-width="2" stroke-dasharray="7 4"/>"##,
            inside.join(" ")
        );
    }
    // Frame, ticks, labels.
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="black"/>"##,
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    for (v, label) in ticks(x0, x1) {
        let x = px(v);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.2}" y1="{BOTTOM}" x2="{x:.2}" y2="{}" stroke="black"/><text x="{x:.2}" y="{}" text-anchor="middle">{label}</text>"##,
            BOTTOM + 5.0,
            BOTTOM + 20.0
        );
    }
    for (v, label) in ticks(y0, y1) {
        let y = py(v);
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y:.2}" x2="{LEFT}" y2="{y:.2}" stroke="black"/><text x="{}" y="{:.2}" text-anchor="end">{label}</text>"##,
            LEFT - 5.0,
            LEFT - 8.0,
            y + 4.5
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"##,
        0.5 * (LEFT + RIGHT),
        BOTTOM + 44.0,
        escape(&axis_label(base, &spec.x.param))
    );
    let _ = writeln!(
        s,
        r##"<text transform="translate(24 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"##,
        0.5 * (TOP + BOTTOM),
        escape(&axis_label(base, &spec.y.param))
    );
    // Legend.
    let lx = RIGHT + 22.0;
    let mut ly = TOP + 4.0;
    for (c, name) in legend() {
        let _ = writeln!(
            s,
            r##"<rect x="{lx}" y="{ly}" width="14" height="14" fill="{}" stroke="#333" stroke-width="0.5"/><text x="{}" y="{}">{name}</text>"##,
            rgb(c),
            lx + 22.0,
            ly + 12.0
        );
        ly += 22.0;
    }
    if inside.len() >= 2 {
        let _ = writeln!(
            s,
            r##"<line x1="{lx}" y1="{0}" x2="{1}" y2="{0}" stroke="black" stroke-width="2" stroke-dasharray="7 4"/><text x="{2}" y="{3}">stability boundary</text>"##,
            ly + 7.0,
            lx + 14.0,
            lx + 22.0,
            ly + 12.0
        );
        ly += 18.0;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="11" fill="#444">of steady sliding ({})</text>"##,
            lx + 22.0,
            ly + 10.0,
            escape(symbol)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The run in one line: grid, run length, transient, cells done.
fn run_line(spec: &MapSpec, done: usize) -> String {
    let transient = match spec.transient {
        crate::analysis::sweep::Transient::Seconds(t) => format!("{} s", format_number(t)),
        crate::analysis::sweep::Transient::Returns(n) => format!("{n} returns"),
    };
    let cells = spec.cells();
    let done = if done < cells {
        format!(", {done} of {cells} cells done")
    } else {
        String::new()
    };
    format!(
        "{} × {} cells, each run {} s from the preset's start, transient {transient}{}{done}",
        spec.x.values.len(),
        spec.y.values.len(),
        format_number(spec.duration_s),
        if spec.lyapunov {
            ", λ₁ per cell"
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside() {
        let t = ticks(14.9, 35.1);
        let values: Vec<f64> = t.iter().map(|(v, _)| *v).collect();
        assert_eq!(values, vec![15.0, 20.0, 25.0, 30.0, 35.0]);
        assert_eq!(t[0].1, "15");
        let t = ticks(-0.04, 0.31);
        let labels: Vec<&str> = t.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0.0", "0.1", "0.2", "0.3"]);
        let t = ticks(0.0, 0.28);
        let labels: Vec<&str> = t.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0.00", "0.05", "0.10", "0.15", "0.20", "0.25"]);
        assert!(ticks(1.0, 1.0).is_empty());
    }

    #[test]
    fn extent_puts_the_values_at_cell_centres() {
        assert_eq!(extent(&[0.0, 1.0, 2.0]), (-0.5, 2.5));
        assert_eq!(extent(&[4.0]), (2.0, 6.0));
        assert_eq!(extent(&[0.0]), (-0.5, 0.5));
    }

    #[test]
    fn axes_read_in_words_and_units() {
        let preset = crate::preset::builtin::load("s1_bench_19_36rpm")
            .expect("built in")
            .expect("valid");
        assert_eq!(axis_label(&preset, "system.damping"), "Damping c [N·s/m]");
        assert_eq!(axis_value(&preset, "system.damping", 4.2), "c = 4.2 N·s/m");
        assert_eq!(axis_value(&preset, "system.damping", 0.5), "c = 500 mN·s/m");
        assert_eq!(axis_value(&preset, "other.thing", 0.5), "other.thing = 0.5");
    }
}
