//! The fit job: a friction law fitted to a force measurement on the analysis thread, with the
//! evaluations and the best RMS as progress and the cancel flag checked at every evaluation.

use crate::identify::{
    FitResult, ForceData, LawFit, LawFitOptions, LmControl, LmProgress, LmSettings, fit,
    kept_values,
};
use crate::laws::LawConfig;
use crate::util::eng::format_si;

use super::{JobMsg, Reply};

/// What to fit.
#[derive(Clone, Debug)]
pub struct FitJob {
    /// The law with the start values.
    pub law: LawConfig,
    /// Keys of the free parameters.
    pub keys: Vec<String>,
    /// The measurement.
    pub data: ForceData,
    /// Nominal load, stick speed, tolerance.
    pub options: LawFitOptions,
    /// The file's force resists the motion (a load cell), as the plots show it.
    pub resisting: bool,
}

/// A finished fit with what the Fit tab draws.
#[derive(Clone, Debug)]
pub struct FitOutput {
    /// The estimator's result and statistics.
    pub result: FitResult,
    /// The measurement.
    pub data: ForceData,
    /// The fitted law's force on the body at every sample [N].
    pub predicted: Vec<f64>,
    /// Indices of the samples the fit used.
    pub used: Vec<usize>,
    /// The law with the values to keep (determined estimates; start values otherwise).
    pub fitted: LawConfig,
    /// The nominal load the force parameters refer to [N].
    pub nominal_load_n: f64,
    /// Stick speed below which samples were left out [m/s] (0: none).
    pub stick_speed_mps: f64,
    /// The file's force resists the motion (the plots show it so, as recorded).
    pub resisting: bool,
}

pub(super) fn run(job: FitJob, reply: &Reply) {
    let id = reply.id();
    let keys: Vec<&str> = job.keys.iter().map(String::as_str).collect();
    let resisting = job.resisting;
    let problem = match LawFit::new(job.law, &keys, vec![job.data], job.options) {
        Ok(p) => p,
        Err(message) => {
            reply.last(JobMsg::Failed { id, message });
            return;
        }
    };
    let params = problem.free_params();
    let budget = (LmSettings::default().patience * (params.len() + 1)) as f64;
    let progress = |p: LmProgress| {
        reply.progress(
            p.evaluations as f64 / budget,
            format!(
                "evaluation {}, residual RMS {}",
                p.evaluations,
                format_si(p.best_rms, "N", 4)
            ),
        );
    };
    let control = LmControl {
        cancel: Some(reply.flag()),
        progress: Some(&progress),
    };
    let result = fit(&problem, &params, &[], LmSettings::default(), control);
    if reply.cancelled() {
        reply.last(JobMsg::Cancelled { id });
        return;
    }
    let output = result.map_err(|e| e.to_string()).and_then(|result| {
        let predicted = problem.predicted(&result.p)?.remove(0);
        let fitted = problem.config_at(&kept_values(&result))?;
        Ok(FitOutput {
            data: problem.data()[0].clone(),
            used: problem.used()[0].clone(),
            predicted,
            fitted,
            nominal_load_n: problem.nominal_load_n(),
            stick_speed_mps: problem.stick_speed_mps(),
            resisting,
            result,
        })
    });
    reply.last(match output {
        Ok(output) => JobMsg::Fit {
            id,
            output: Box::new(output),
        },
        Err(message) => JobMsg::Failed {
            id,
            message: format!("the fit failed: {message}"),
        },
    });
}
