//! Figures for handouts and papers: one plot as SVG — white background, a title, axes with
//! their names and units (linear axes in the prefixed unit of their values, log axes in
//! decades), 1–2–5 ticks, a legend and a caption with the parameters. Vector output: the
//! viewer sets the text, so it prints sharp at any size. `tribolab plot` and the window's
//! *File → Export figure (SVG)* write the same file ([`views`] builds the figure of a view
//! from a record).

pub(crate) mod svg;
mod ticks;
pub mod views;

pub use ticks::{Ticks, nice_step, ticks};

/// An axis of a figure.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureAxis {
    /// Name of the quantity with its symbol (`sliding speed |v|`).
    pub label: String,
    /// SI unit (`m/s`; empty for a dimensionless quantity).
    pub unit: String,
    /// Logarithmic.
    pub log: bool,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A line through the points.
    Line,
    /// A dashed line (a reference or a prediction).
    Dashed,
    /// Markers.
    Points,
}

/// One series.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureSeries {
    /// Legend text.
    pub name: String,
    /// How it is drawn.
    pub style: Style,
    /// Points `[x, y]` in SI units.
    pub points: Vec<[f64; 2]>,
}

/// A one-plot figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Title over the plot.
    pub title: String,
    /// Horizontal axis.
    pub x: FigureAxis,
    /// Vertical axis.
    pub y: FigureAxis,
    /// The series, drawn in order, coloured in turn.
    pub series: Vec<FigureSeries>,
    /// Caption under the plot: what was run, with its parameters.
    pub caption: String,
}

impl Figure {
    /// The figure as an SVG document of `width × height` pixels (CSS pixels; 96 per inch).
    pub fn to_svg(&self, width: u32, height: u32) -> String {
        svg::render(self, width.max(200), height.max(150))
    }
}

/// Colours of the series in turn (RGB), readable in print and for colour-blind readers
/// (Okabe–Ito).
pub const PALETTE: [[u8; 3]; 8] = [
    [213, 94, 0],
    [0, 114, 178],
    [0, 158, 115],
    [204, 121, 167],
    [230, 159, 0],
    [86, 180, 233],
    [120, 120, 120],
    [0, 0, 0],
];
