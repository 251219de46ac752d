//! `tribolab run --summary`: the energy account of the run and each contact's stick and
//! slip-event statistics, found by the columns' roles (so every system gets the same report).

use crate::analysis::energy::energy_account;
use crate::analysis::slip_events::slip_statistics;
use crate::integrate::{Column, SampleSink};
use crate::systems::Layout;
use crate::util::eng::format_si;

/// Keeps the rows of a run while another sink writes them.
pub(super) struct Keep<'a> {
    pub inner: &'a mut dyn SampleSink,
    pub rows: Vec<Vec<f64>>,
}

impl SampleSink for Keep<'_> {
    fn push(&mut self, row: &[f64]) {
        self.inner.push(row);
        self.rows.push(row.to_vec());
    }

    fn push_section(&mut self, section: crate::integrate::driver::SectionId, row: &[f64]) {
        self.inner.push_section(section, row);
    }
}

/// The report: energy account at the last row, then one line per contact and the stick
/// fraction averaged over the contacts.
pub(super) fn summary(columns: &[Column], layout: &Layout, rows: &[Vec<f64>]) -> String {
    let mut out = Vec::new();
    let j = |v: f64| format_si(v, "J", 4);
    if let Some(last) = rows.last()
        && let Some(a) = energy_account(columns, last)
    {
        out.push(format!(
            "energy at t = {}: put in {}, stored {}, kinetic {}, dissipated {} (initial {}, \
             balance error {:.1e} J)",
            format_si(last[0], "s", 4),
            j(a.input_j),
            j(a.stored_j),
            j(a.kinetic_j),
            j(a.dissipated_j()),
            j(a.initial_j),
            a.balance_error_j
        ));
        let mut parts: Vec<String> = a
            .friction_dissipated_j
            .iter()
            .map(|(c, e)| match c {
                Some(c) => format!("friction at contact {} {}", c + 1, j(*e)),
                None => format!("friction {}", j(*e)),
            })
            .collect();
        parts.push(format!("dampers {}", j(a.damping_dissipated_j)));
        out.push(format!("  dissipated by: {}", parts.join(", ")));
    }
    let mut fractions = Vec::new();
    for (c, contact) in layout.contacts.iter().enumerate() {
        match slip_statistics(columns, rows, c, contact.dof, None) {
            Ok(s) => {
                fractions.push(s.stick_fraction);
                let closed = match s.contact_fraction {
                    Some(f) => format!("in contact {:.1} % of the time, ", 100.0 * f),
                    None => String::new(),
                };
                let of = if s.contact_fraction.is_some() {
                    " of the contact time"
                } else {
                    ""
                };
                let mut line = format!(
                    "contact {} ({}): {closed}stick {:.1} %{of} ({}), {} slip event(s)",
                    c + 1,
                    contact.name,
                    100.0 * s.stick_fraction,
                    if s.exact {
                        "exact".to_string()
                    } else {
                        format!("|v_rel| < {}", format_si(s.v_tol_mps, "m/s", 2))
                    },
                    s.events.len()
                );
                if !s.events.is_empty() {
                    let (d, _) = s.mean_std(|e| e.duration_s);
                    let (f, _) = s.mean_std(|e| e.force_drop_n);
                    let (x, _) = s.mean_std(|e| e.slip_distance_m);
                    line.push_str(&format!(
                        "; mean duration {}, force drop {}, slip distance {}",
                        format_si(d, "s", 4),
                        format_si(f, "N", 4),
                        format_si(x, "m", 4)
                    ));
                }
                out.push(line);
            }
            Err(e) => out.push(format!("contact {}: {e}", c + 1)),
        }
    }
    if fractions.len() > 1 {
        let mean = fractions.iter().sum::<f64>() / fractions.len() as f64;
        out.push(format!(
            "overall stick fraction {:.1} % (mean over {} contacts)",
            100.0 * mean,
            fractions.len()
        ));
    }
    out.join("\n")
}
