//! Magnitude–frequency (Gutenberg–Richter) plot: the number of events of magnitude ≥ M on a
//! log axis, the maximum-likelihood line above the completeness magnitude and its b-value with
//! the bootstrap interval. It fills while the run goes on.

use eframe::egui;
use egui_plot::{Line, Plot, Points, VLine};

use crate::analysis::catalogue_stats::{MAGNITUDE_BIN, MIN_EVENTS};
use crate::analysis::magnitude_stats::cumulative_counts;
use crate::gui::TriboApp;

pub fn show(app: &mut TriboApp, ui: &mut egui::Ui, reset: bool) {
    let Some(cat) = app.catalogue.as_mut() else {
        return;
    };
    let Some(stats) = cat.stats() else {
        ui.label("Magnitude–frequency: waiting for the first events…");
        return;
    };
    let headline = match (&stats.b, &stats.b_interval, stats.m_c) {
        (Some(b), interval, Some(mc)) => format!(
            "b = {:.2}{}  above M_c = {:.2} ({} of {} events)",
            b.b,
            interval.as_ref().map_or(String::new(), |i| format!(
                " [{:.2}, {:.2}] ({:.0} %)",
                i.low,
                i.high,
                100.0 * i.confidence
            )),
            mc,
            b.n_events,
            stats.n_events
        ),
        _ if stats.n_events < MIN_EVENTS => format!(
            "{} complete events: a b-value needs {MIN_EVENTS}",
            stats.n_events
        ),
        _ => format!("{} events: no b-value", stats.n_events),
    };
    ui.label(egui::RichText::new(headline).strong());
    let points: Vec<[f64; 2]> = cumulative_counts(&stats.magnitudes, MAGNITUDE_BIN)
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(m, n)| [m, (n as f64).log10()])
        .collect();
    let fit = stats.b.as_ref().map(|b| {
        let m_max = stats
            .magnitudes
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (b.m_c..=m_max).contains(&b.m_c).then(|| {
            vec![
                [b.m_c, b.a_value - b.b * b.m_c],
                [m_max, b.a_value - b.b * m_max],
            ]
        })
    });
    let mut plot = crate::gui::plots::ticks::readable(Plot::new("magnitude_frequency"))
        .x_axis_label("magnitude M = log₁₀(slip potency)")
        .y_axis_label("log₁₀ N(≥ M)")
        .legend(egui_plot::Legend::default());
    if reset {
        plot = plot.reset();
    }
    plot.show(ui, |p| {
        p.points(Points::new("events with magnitude ≥ M", points).radius(2.0));
        if let Some(Some(line)) = fit {
            p.line(Line::new("maximum-likelihood fit", line).width(2.0));
        }
        if let Some(mc) = stats.m_c {
            p.vline(VLine::new("completeness M_c", mc).color(egui::Color32::GRAY));
        }
    });
}
