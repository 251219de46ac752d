//! A slider generated from a parameter's metadata: label and unit, logarithmic where the range
//! spans decades, hover help, double-click resets to the default, the value box takes exact
//! numbers.

use eframe::egui;

use crate::params::{ParamMeta, Scale, fmt_num};
use crate::util::eng::{format_si_short, parse_si, takes_prefix};

/// Significant digits of a value box.
const DIGITS: usize = 4;

/// Draws the slider for `meta`; returns `true` when the value changed.
pub fn param_slider(ui: &mut egui::Ui, meta: &ParamMeta, value: &mut f64) -> bool {
    let mut v = *value;
    let unit = meta.unit;
    // Units on an SI symbol read in engineering notation (`101.4 mm/s`, `1 nm/s`); counts and
    // words keep the plain number and the unit as a suffix.
    let prefixed = takes_prefix(unit) && !meta.integer;
    let suffix = if unit.is_empty() || prefixed {
        String::new()
    } else {
        format!(" {unit}")
    };
    let mut slider = egui::Slider::new(&mut v, meta.min..=meta.max)
        .text(meta.label)
        .suffix(suffix)
        .clamping(egui::SliderClamping::Always)
        .custom_formatter(move |x, _| {
            if prefixed {
                format_si_short(x, unit, DIGITS)
            } else {
                format_value(x)
            }
        })
        .custom_parser(move |s| parse_si(s, unit));
    if meta.scale == Scale::Log {
        slider = slider
            .logarithmic(true)
            .smallest_positive(meta.min.max(1e-12));
    }
    if meta.integer {
        slider = slider.integer();
    }
    let scale = if meta.scale == Scale::Log {
        ", log scale"
    } else {
        ""
    };
    let hover = format!(
        "{} {}{}\n{}\ndefault {}, range [{}, {}]{}\nDouble-click to reset; click the number to type a value.",
        meta.symbol,
        meta.label,
        if meta.unit.is_empty() {
            String::new()
        } else {
            format!(" [{}]", meta.unit)
        },
        meta.help_text(),
        fmt_num(meta.default),
        fmt_num(meta.min),
        fmt_num(meta.max),
        scale
    );
    let response = ui.add(slider).on_hover_text(hover);
    if response.double_clicked() {
        v = meta.default;
    }
    if v.is_finite() && v != *value {
        *value = v;
        true
    } else {
        false
    }
}

/// Four significant digits, exponent form for very small or large magnitudes.
fn format_value(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        format!("{x:.3e}")
    } else {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s.is_empty() { "0".into() } else { s.into() }
    }
}
