//! Drawing a [`Figure`] as SVG.

use std::fmt::Write as _;

use super::{Figure, PALETTE, Style, ticks};

/// Margins around the plot area [px]: left (tick labels and axis title), right, top (title);
/// below it the tick labels and the axis title, then the caption's lines.
const LEFT: f64 = 78.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BELOW_PLOT: f64 = 56.0;
/// Height of a caption line [px].
const CAPTION_LINE: f64 = 14.0;
/// Most caption lines.
const CAPTION_LINES: usize = 4;

/// Text escaped for XML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A colour as SVG writes it (`#d55e00`).
pub(crate) fn rgb(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The data range of one coordinate over every series (positive values only on a log axis),
/// widened when empty or flat.
fn range(fig: &Figure, k: usize, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in fig.series.iter().flat_map(|s| s.points.iter()) {
        let v = p[k];
        if v.is_finite() && (!log || v > 0.0) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !lo.is_finite() {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        if hi / lo < 1.01 {
            return (lo / 2.0, hi * 2.0);
        }
        // The same margin as a linear axis, in decades: points at the ends stay off the frame.
        let pad = (hi / lo).powf(0.04);
        return (lo / pad, hi * pad);
    }
    if hi - lo <= f64::EPSILON * hi.abs().max(lo.abs()).max(1e-300) {
        let pad = if hi == 0.0 { 1.0 } else { 0.1 * hi.abs() };
        return (lo - pad, hi + pad);
    }
    let pad = 0.04 * (hi - lo);
    (lo - pad, hi + pad)
}

/// The caption wrapped to lines of the figure's width (at most [`CAPTION_LINES`], the last
/// one ending in … when cut).
fn caption_lines(caption: &str, width: f64) -> Vec<String> {
    let per_line = ((width - 24.0) / 6.2).max(20.0) as usize;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in caption.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > per_line {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > CAPTION_LINES {
        lines.truncate(CAPTION_LINES);
        if let Some(last) = lines.last_mut() {
            last.push_str(" …");
        }
    }
    lines
}

pub(super) fn render(fig: &Figure, width: u32, height: u32) -> String {
    let (w, h) = (f64::from(width), f64::from(height));
    let caption = caption_lines(&fig.caption, w);
    let bottom = BELOW_PLOT + 8.0 + CAPTION_LINE * caption.len() as f64;
    let (pw, ph) = (w - LEFT - RIGHT, (h - TOP - bottom).max(40.0));
    let (x0, x1) = range(fig, 0, fig.x.log);
    let (y0, y1) = range(fig, 1, fig.y.log);
    let map = |v: f64, lo: f64, hi: f64, log: bool| {
        if log {
            (v.log10() - lo.log10()) / (hi.log10() - lo.log10())
        } else {
            (v - lo) / (hi - lo)
        }
    };
    let px = |v: f64| LEFT + pw * map(v, x0, x1, fig.x.log);
    let py = |v: f64| TOP + ph * (1.0 - map(v, y0, y1, fig.y.log));
    let xt = ticks(x0, x1, &fig.x.unit, fig.x.log);
    let yt = ticks(y0, y1, &fig.y.unit, fig.y.log);
    let title = |a: &super::FigureAxis, t: &super::Ticks| {
        if a.log || t.unit.is_empty() {
            if a.unit.is_empty() {
                a.label.clone()
            } else {
                format!("{} [{}] (log scale)", a.label, a.unit)
            }
        } else {
            format!("{} [{}]", a.label, t.unit)
        }
    };

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="24" font-size="16" font-weight="bold">{}</text>"#,
        LEFT,
        esc(&fig.title)
    );
    // Grid and ticks.
    for (v, label) in xt.at.iter().zip(&xt.labels) {
        let x = px(*v);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e2e2e2"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP + ph,
            TOP + ph + 17.0,
            esc(label)
        );
    }
    for (v, label) in yt.at.iter().zip(&yt.labels) {
        let y = py(*v);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e2e2e2"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            y + 4.5,
            esc(label)
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT:.1}" y="{TOP:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + pw / 2.0,
        TOP + ph + 38.0,
        esc(&title(&fig.x, &xt))
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + ph / 2.0,
        esc(&title(&fig.y, &yt))
    );
    // Series, clipped to the plot area.
    let _ = writeln!(
        s,
        r#"<clipPath id="plot"><rect x="{LEFT:.1}" y="{TOP:.1}" width="{pw:.1}" height="{ph:.1}"/></clipPath><g clip-path="url(#plot)">"#
    );
    let visible = |p: &[f64; 2]| {
        p[0].is_finite()
            && p[1].is_finite()
            && (!fig.x.log || p[0] > 0.0)
            && (!fig.y.log || p[1] > 0.0)
    };
    for (k, series) in fig.series.iter().enumerate() {
        let colour = rgb(PALETTE[k % PALETTE.len()]);
        match series.style {
            Style::Line | Style::Dashed => {
                let mut d = String::new();
                let mut pen_down = false;
                for p in &series.points {
                    if !visible(p) {
                        pen_down = false;
                        continue;
                    }
                    let _ = write!(
                        d,
                        "{}{:.2},{:.2} ",
                        if pen_down { "L" } else { "M" },
                        px(p[0]),
                        py(p[1])
                    );
                    pen_down = true;
                }
                let dash = if series.style == Style::Dashed {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    r#"<path d="{}" fill="none" stroke="{colour}" stroke-width="1.6"{dash}/>"#,
                    d.trim_end()
                );
            }
            Style::Points => {
                for p in series.points.iter().filter(|p| visible(p)) {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{:.2}" cy="{:.2}" r="3.5" fill="{colour}"/>"#,
                        px(p[0]),
                        py(p[1])
                    );
                }
            }
        }
    }
    let _ = writeln!(s, "</g>");
    // Legend, top right inside the plot.
    let named: Vec<(usize, &super::FigureSeries)> = fig
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.name.is_empty())
        .collect();
    if !named.is_empty() {
        let longest = named
            .iter()
            .map(|(_, s)| s.name.chars().count())
            .max()
            .unwrap_or(0);
        let lw = 40.0 + 7.2 * longest as f64;
        let lh = 8.0 + 18.0 * named.len() as f64;
        // In the corner whose quarter of the plot holds the fewest points.
        let quarter = |right: bool, top: bool| {
            fig.series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| visible(p))
                .filter(|p| {
                    let (x, y) = ((px(p[0]) - LEFT) / pw, (py(p[1]) - TOP) / ph);
                    (if right { x > 0.55 } else { x < 0.45 })
                        && (if top { y < 0.4 } else { y > 0.6 })
                })
                .count()
        };
        let (right, top) = [(true, true), (false, true), (true, false), (false, false)]
            .into_iter()
            .min_by_key(|&(r, t)| quarter(r, t))
            .unwrap_or((true, true));
        let lx = if right {
            LEFT + pw - lw - 8.0
        } else {
            LEFT + 8.0
        };
        let ly = if top { TOP + 8.0 } else { TOP + ph - lh - 8.0 };
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{ly:.1}" width="{lw:.1}" height="{lh:.1}" fill="white" fill-opacity="0.85" stroke="#bbbbbb"/>"##
        );
        for (row, (k, series)) in named.iter().enumerate() {
            let colour = rgb(PALETTE[k % PALETTE.len()]);
            let y = ly + 16.0 + 18.0 * row as f64;
            match series.style {
                Style::Points => {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"/>"#,
                        lx + 18.0,
                        y - 4.0
                    );
                }
                style => {
                    let dash = if style == Style::Dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"{dash}/>"#,
                        lx + 8.0,
                        y - 4.0,
                        lx + 28.0,
                        y - 4.0
                    );
                }
            }
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
                lx + 34.0,
                esc(&series.name)
            );
        }
    }
    // Caption under the axis title.
    for (i, l) in caption.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text x="12" y="{:.1}" font-size="11" fill="#444444">{}</text>"##,
            TOP + ph + BELOW_PLOT + 6.0 + CAPTION_LINE * i as f64,
            esc(l)
        );
    }
    s.push_str("</svg>\n");
    s
}
