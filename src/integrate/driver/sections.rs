//! Poincaré sections: the model's section functions located on the dense output, and the
//! stroboscopic section `t = k·T`.

use super::Simulation;
use super::events::event_time_tol;
use super::sink::{SampleSink, SectionId};
use crate::integrate::root::illinois;

/// State of Poincaré section tracking.
#[derive(Clone, Debug)]
pub(super) struct SectionTracker {
    pub(super) prev: Vec<f64>,
    pub(super) new: Vec<f64>,
    pub(super) strobe_period_s: Option<f64>,
    pub(super) next_strobe: u64,
    /// Points recorded at the end of the latest step (a switch there reports its model again).
    pub(super) at_step_end: Vec<(SectionId, f64)>,
}

impl SectionTracker {
    /// Time of the next stroboscopic point, if that section is on.
    pub(super) fn next_strobe_time(&self) -> Option<f64> {
        self.strobe_period_s
            .map(|period| self.next_strobe as f64 * period)
    }
}

impl Simulation {
    /// Turns Poincaré tracking on: the model's sections and, with `strobe_period_s`, the
    /// stroboscopic section `t = k·T`. Points go to [`SampleSink::push_section`].
    pub fn track_sections(&mut self, strobe_period_s: Option<f64>) {
        let n = self.model.section_names().len();
        let mut prev = vec![0.0; n];
        self.model.sections(self.t, &self.y, &mut prev);
        let strobe = strobe_period_s.filter(|p| p.is_finite() && *p > 0.0);
        self.sections = Some(SectionTracker {
            prev,
            new: vec![0.0; n],
            strobe_period_s: strobe,
            next_strobe: strobe.map_or(0, |p| (self.t / p).floor() as u64 + 1),
            at_step_end: Vec::new(),
        });
    }

    /// Records section crossings inside the step `[t, t + h]` ending at `y_new` (dense output
    /// must be ready) and the stroboscopic points it contains.
    pub(super) fn record_sections(
        &mut self,
        t: f64,
        h: f64,
        y_new: &[f64],
        sink: &mut dyn SampleSink,
    ) {
        let Some(mut tr) = self.sections.take() else {
            return;
        };
        let t_new = t + h;
        self.model.sections(t_new, y_new, &mut tr.new);
        let time_tol = event_time_tol(t_new);
        let theta_tol = time_tol / h;
        tr.at_step_end.clear();
        for i in 0..tr.new.len() {
            if tr.prev[i] < 0.0 && tr.new[i] >= 0.0 {
                let mut buf = std::mem::take(&mut self.buf);
                let mut s = vec![0.0; tr.new.len()];
                let theta = {
                    let (stepper, model) = (&self.stepper, &self.model);
                    let mut si = |th: f64| {
                        stepper.dense(th, &mut buf);
                        model.sections(t + th * h, &buf, &mut s);
                        -s[i]
                    };
                    illinois(&mut si, 0.0, 1.0, theta_tol)
                };
                self.stepper.dense(theta, &mut buf);
                let t_point = t + theta * h;
                self.emit_section(SectionId::Model(i), t_point, &buf, sink);
                if t_new - t_point <= time_tol {
                    tr.at_step_end.push((SectionId::Model(i), t_point));
                }
                self.buf = buf;
            }
        }
        std::mem::swap(&mut tr.prev, &mut tr.new);
        while let Some(tk) = tr.next_strobe_time() {
            if tk > t_new {
                break;
            }
            let mut buf = std::mem::take(&mut self.buf);
            self.stepper.dense(((tk - t) / h).clamp(0.0, 1.0), &mut buf);
            self.emit_section(SectionId::Stroboscopic, tk, &buf, sink);
            if t_new - tk <= time_tol {
                tr.at_step_end.push((SectionId::Stroboscopic, tk));
            }
            self.buf = buf;
            tr.next_strobe += 1;
        }
        self.sections = Some(tr);
    }

    /// After a mode switch the section functions restart from the new state; a switch that
    /// lands exactly on a section (e.g. re-stick at `v_rel = 0`) records it.
    pub(super) fn section_after_switch(&mut self, t: f64, sink: &mut dyn SampleSink) {
        let Some(mut tr) = self.sections.take() else {
            return;
        };
        self.model.sections(t, &self.y, &mut tr.new);
        // Points recorded at this instant belong to the mode the switch enters.
        if sink.wants_section_models() {
            let tol = event_time_tol(t);
            for &(id, t_point) in &tr.at_step_end {
                if (t - t_point).abs() <= tol {
                    sink.section_model(id, t_point, &self.y, self.model.as_ref());
                }
            }
        }
        for i in 0..tr.new.len() {
            if tr.prev[i] < 0.0 && tr.new[i] >= 0.0 {
                let y = self.y.clone();
                self.emit_section(SectionId::Model(i), t, &y, sink);
                tr.at_step_end.push((SectionId::Model(i), t));
            }
        }
        std::mem::swap(&mut tr.prev, &mut tr.new);
        self.sections = Some(tr);
    }

    fn emit_section(&mut self, id: SectionId, t: f64, y: &[f64], sink: &mut dyn SampleSink) {
        let n = self.row.len();
        self.row[0] = t;
        self.model.observe(t, y, &mut self.row[1..n - 1]);
        self.row[n - 1] = 0.0;
        sink.push_section(id, &self.row);
        if sink.wants_section_models() {
            sink.section_model(id, t, y, self.model.as_ref());
        }
    }
}
