//! `tribolab rig`: runs a preset whose load point follows a programme (velocity steps,
//! slide–hold–slide) and reads the friction response of each step and hold
//! ([`load_point_tests`]): one CSV row per step or hold, a table and the healing rate on
//! stderr. A characterisation rig's preset runs its standard test instead ([`super::rig_test`]).

use std::io::Write;

use super::args::parse_run;
use super::{CliError, format_number, prepared_preset};
use crate::analysis::load_point::{LoadPointTests, load_point_tests};
use crate::integrate::column::find_role;
use crate::integrate::{Role, SampleSink};
use crate::util::eng::format_si;

/// Keeps the four columns the reading needs.
struct Keep {
    index: [usize; 4],
    data: [Vec<f64>; 4],
}

impl SampleSink for Keep {
    fn push(&mut self, row: &[f64]) {
        for (d, &i) in self.data.iter_mut().zip(&self.index) {
            d.push(row[i]);
        }
    }
}

/// CSV header of the table.
const HEADER: &str = "kind,t,hold,v_before,v_after,mu_before,mu_peak,mu_end,delta_mu_peak,\
                      direct_effect,steady_change,complete";

pub(super) fn rig_cmd(args: &[String]) -> Result<(), CliError> {
    let a = parse_run(args)?;
    let preset = prepared_preset(
        &a.preset,
        a.sets.iter().map(|(p, v)| (p.as_str(), v.as_str())),
        a.duration_s,
    )?;
    if preset.system.characterisation().is_some() {
        return super::rig_test::characterisation_cmd(&a.preset, &preset, a.out.as_deref());
    }
    let mut sim = preset
        .build_runner()
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.preset)))?;
    let cols = sim.columns();
    let roles = [
        Role::Time,
        Role::DriverVelocity,
        Role::FrictionForce(0),
        Role::NormalLoad(0),
    ];
    let mut index = [0; 4];
    for (slot, role) in index.iter_mut().zip(roles) {
        *slot = find_role(&cols, role).ok_or_else(|| {
            CliError::Failed(format!(
                "{}: the {} has no load point following a programme (no driver velocity, \
                 friction force or normal load to read)",
                a.preset,
                preset.system.info().name
            ))
        })?;
    }
    let mut keep = Keep {
        index,
        data: Default::default(),
    };
    let run = sim.advance(preset.run.duration_s, &mut keep);
    let [t, v_lp, f, n] = &keep.data;
    let tests = load_point_tests(t, v_lp, f, n);
    super::write_out(a.out.as_deref(), |w: &mut dyn Write| write_table(&tests, w))?;
    if let Err(e) = run {
        return Err(CliError::Failed(format!(
            "{}: the run stopped: {e}; the steps and holds up to then were written",
            a.preset
        )));
    }
    eprint!("{}", report(&tests));
    Ok(())
}

fn write_table(tests: &LoadPointTests, w: &mut dyn Write) -> std::io::Result<()> {
    writeln!(w, "{HEADER}")?;
    let num = |x: f64| format_number(x);
    for s in &tests.steps {
        writeln!(
            w,
            "step,{},,{},{},{},{},{},,{},{},{}",
            num(s.t_s),
            num(s.v_before_mps),
            num(s.v_after_mps),
            num(s.mu_before),
            num(s.mu_peak),
            num(s.mu_after),
            num(s.direct_effect()),
            num(s.steady_change()),
            u8::from(s.complete)
        )?;
    }
    for h in &tests.holds {
        writeln!(
            w,
            "hold,{},{},,,{},{},{},{},,,{}",
            num(h.t_s),
            num(h.hold_s),
            num(h.mu_before),
            num(h.mu_peak),
            num(h.mu_relaxed),
            num(h.healing()),
            u8::from(h.complete)
        )?;
    }
    Ok(())
}

/// The table for people.
fn report(tests: &LoadPointTests) -> String {
    let mut out = String::new();
    if tests.is_empty() {
        out.push_str("no velocity step or hold in the run (a longer --duration?)\n");
        return out;
    }
    if !tests.steps.is_empty() {
        out.push_str("velocity steps: t, speed before → after, μ before, peak, end; direct effect (≈ a), steady change (≈ a − b)\n");
        for s in &tests.steps {
            out.push_str(&format!(
                "  {}  {} → {}  μ {:.6} → peak {:.6} → {:.6}{}  direct {:.5}  steady {:+.5}\n",
                format_si(s.t_s, "s", 4),
                format_si(s.v_before_mps, "m/s", 3),
                format_si(s.v_after_mps, "m/s", 3),
                s.mu_before,
                s.mu_peak,
                s.mu_after,
                if s.complete { "" } else { " (run ended)" },
                s.direct_effect(),
                s.steady_change()
            ));
        }
    }
    if !tests.holds.is_empty() {
        out.push_str("holds: start, length, μ before, relaxed, peak on reloading, Δμ_peak\n");
        for h in &tests.holds {
            out.push_str(&format!(
                "  {}  {}  μ {:.6}  relaxed {:.6}  peak {:.6}  Δμ {:+.6}{}\n",
                format_si(h.t_s, "s", 4),
                format_si(h.hold_s, "s", 4),
                h.mu_before,
                h.mu_relaxed,
                h.mu_peak,
                h.healing(),
                if h.complete { "" } else { " (run ended)" }
            ));
        }
        match tests.healing_rate_per_decade(0.0) {
            Some((beta, _)) => out.push_str(&format!(
                "healing rate β = dΔμ_peak/d log₁₀ t_h = {beta:.5} per decade of hold time\n"
            )),
            None => out.push_str("healing rate: fewer than two complete holds\n"),
        }
    }
    out
}
