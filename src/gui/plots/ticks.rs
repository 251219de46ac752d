//! Grid lines at 1–2–5 multiples, about six labelled ones across the view. egui_plot's default
//! spacer steps by powers of ten and labels a step only when it is over 60 px wide on the x
//! axis, so a view 120 µm wide labels nothing but its zero; this one always leaves labelled
//! steps of about a sixth of the view.

use egui_plot::{GridInput, GridMark, uniform_grid_spacer};

/// Labelled steps across the view.
const LABELLED: f64 = 6.0;

/// The 1–2–5 step nearest `span / 6`.
pub fn nice_step(span: f64) -> f64 {
    crate::figure::nice_step(span, LABELLED)
}

/// The spacer: the nice step, its half and its tenth (thinner lines).
pub fn nice_spacer() -> Box<dyn Fn(GridInput) -> Vec<GridMark>> {
    uniform_grid_spacer(|input: GridInput| {
        let step = nice_step(input.bounds.1 - input.bounds.0);
        [step / 10.0, step / 2.0, step]
    })
}

#[cfg(test)]
mod tests {
    use super::nice_step;

    #[test]
    fn steps_are_one_two_five_times_a_power_of_ten() {
        assert_eq!(nice_step(108.0), 20.0);
        assert_eq!(nice_step(6.0), 1.0);
        assert_eq!(nice_step(3.6), 0.5);
        assert!((nice_step(4.8e-6) - 1e-6).abs() < 1e-20);
    }
}
