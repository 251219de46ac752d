//! Grid lines at 1–2–5 multiples, about six labelled ones across the view, fewer where the
//! plot is small. egui_plot's default spacer steps by powers of ten and labels a step only when
//! it is over 60 px wide on the x axis (20 px on the y axis), so a view 120 µm wide labelled
//! nothing but its zero, and a short trace no y value; this one always leaves labelled steps.

use egui_plot::{GridInput, GridMark, Plot, uniform_grid_spacer};

/// Labelled steps across the view.
const LABELLED: f64 = 6.0;

/// The 1–2–5 step nearest `span / 6`.
pub fn nice_step(span: f64) -> f64 {
    crate::figure::nice_step(span, LABELLED)
}

/// egui_plot's thinnest grid spacing [px]: its `base_step_size` is the value span of this.
const MIN_LINE_PX: f64 = 6.0;

/// The 1–2–5 step at or above `step`.
fn nice_ceil(step: f64) -> f64 {
    let magnitude = 10f64.powf(step.log10().floor());
    let m = step / magnitude;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// The spacer of an axis whose labels need `label_px` pixels apart: the nice step of about a
/// sixth of the view, or larger where the plot is small, its half and its tenth (thinner
/// lines).
pub fn nice_spacer_for(label_px: f64) -> Box<dyn Fn(GridInput) -> Vec<GridMark>> {
    uniform_grid_spacer(move |input: GridInput| {
        let fitting = nice_ceil(input.base_step_size * label_px / MIN_LINE_PX);
        let step = nice_step(input.bounds.1 - input.bounds.0).max(fitting);
        [step / 10.0, step / 2.0, step]
    })
}

/// A tick label at `value` for ticks `step` apart: plain with the step's decimals between
/// 10⁻³ and 10⁵, engineering notation (`550e-9`, `12e6`) outside, so no label reads
/// `0.00000055`.
pub fn tick_label(value: f64, step: f64) -> String {
    let step = step.abs().max(f64::MIN_POSITIVE);
    if value.abs() < step * 1e-6 {
        return "0".into();
    }
    let big = value.abs().max(step);
    if step >= 1e-3 && big < 1e5 {
        let decimals = (-step.log10().floor()).max(0.0) as usize;
        return format!("{value:.decimals$}");
    }
    let e3 = (step.log10() / 3.0).floor() as i32 * 3;
    let scale = 10f64.powi(e3);
    let decimals = (-(step / scale).log10().floor()).max(0.0) as usize;
    format!("{:.decimals$}e{e3}", value / scale)
}

/// A plot with labelled ticks at 1–2–5 steps on both axes and readable numbers; a plot's own
/// formatter, set after, takes precedence.
pub fn readable(plot: Plot<'_>) -> Plot<'_> {
    // egui_plot paints an x label only when its step is over 60 px, a y label over 20 px.
    plot.x_grid_spacer(nice_spacer_for(80.0))
        .y_grid_spacer(nice_spacer_for(30.0))
        .x_axis_formatter(|m, _| tick_label(m.value, m.step_size))
        .y_axis_formatter(|m, _| tick_label(m.value, m.step_size))
}

#[cfg(test)]
mod tests {
    use super::{nice_step, tick_label};

    #[test]
    fn tick_labels_never_spell_thirty_zeros() {
        assert_eq!(tick_label(5.5e-7, 1e-7), "550e-9");
        assert_eq!(tick_label(0.25, 0.05), "0.25");
        assert_eq!(tick_label(20.0, 5.0), "20");
        assert_eq!(tick_label(1e-17, 0.1), "0");
        assert_eq!(tick_label(3.0e6, 1e6), "3e6");
        assert_eq!(tick_label(-2e-5, 1e-5), "-20e-6");
    }

    #[test]
    fn steps_are_one_two_five_times_a_power_of_ten() {
        assert_eq!(nice_step(108.0), 20.0);
        assert_eq!(nice_step(6.0), 1.0);
        assert_eq!(nice_step(3.6), 0.5);
        assert!((nice_step(4.8e-6) - 1e-6).abs() < 1e-20);
    }
}
