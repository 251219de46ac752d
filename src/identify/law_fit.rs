//! Fitting a friction law to a force measurement (MODELS §4.10; issue "identify friction").
//!
//! The prediction at sample `i` is the law's friction force on the body at the recorded
//! velocity `v_i` and load `N_i`:
//! - a law without states (Coulomb, the Stribeck family) is algebraic:
//!   `F̂_i = F_ss(v_i, N_i, N_i/N₀)`, and samples slower than the *stick speed* are left out for
//!   laws whose force is set-valued at rest (set-valued or Karnopp sign): there the force is
//!   whatever holds the contact, not a function of `v`;
//! - a law with states (Dahl, LuGre, GMS, Maxwell-slip, Armstrong, the irreversibility laws,
//!   subloading, rate-and-state) is simulated along the record ([`crate::rig::SampledMotion`],
//!   velocity and load linear between samples, starting in its steady state at the first
//!   sample where the law defines one, else at rest), and every sample counts.
//!
//! Residuals are `(F̂_i − F_i)/σ_i` with the recorded standard deviations, else `F̂_i − F_i` [N].
//! Force-unit laws (LuGre, Dahl, GMS, Armstrong) act at `N/N₀` with `N₀` the nominal load
//! (by default the mean recorded load), so their force parameters are those at `N₀`.

use std::sync::Arc;

use crate::laws::{FrictionLaw, LawConfig, SignModel};
use crate::params::ParamMeta;
use crate::rig::{Recording, force_along};

use super::force_data::ForceData;
use super::free_param::FreeParam;
use super::problem::FitProblem;

/// Share of the largest recorded speed below which a set-valued law's samples count as stuck.
pub const STICK_SPEED_SHARE: f64 = 0.01;

/// Options of a law fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LawFitOptions {
    /// Nominal load `N₀` [N] (`None`: the mean recorded load).
    pub nominal_load_n: Option<f64>,
    /// Stick speed [m/s] (`None`: 1 % of the largest recorded speed for laws set-valued at
    /// rest, the Karnopp band if wider; 0 for the others).
    pub stick_speed_mps: Option<f64>,
    /// Relative tolerance of the simulations of state laws.
    pub rtol: f64,
}

impl Default for LawFitOptions {
    fn default() -> Self {
        Self {
            nominal_load_n: None,
            stick_speed_mps: None,
            rtol: 1e-9,
        }
    }
}

/// A law fitted to force data.
pub struct LawFit {
    base: LawConfig,
    keys: Vec<&'static ParamMeta>,
    data: Vec<ForceData>,
    recordings: Vec<Arc<Recording>>,
    used: Vec<Vec<usize>>,
    nominal_load_n: f64,
    stick_speed_mps: f64,
    rtol: f64,
    algebraic: bool,
}

impl LawFit {
    /// A fit of `base`'s parameters `keys` (the others stay at `base`'s values) to `data`.
    pub fn new(
        base: LawConfig,
        keys: &[&str],
        data: Vec<ForceData>,
        options: LawFitOptions,
    ) -> Result<Self, String> {
        let info = base.info();
        let metas = keys
            .iter()
            .map(|key| free_meta(info.meta, info.key, key))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(d) = data.iter().find(|d| d.is_empty()) {
            return Err(format!("{}: the data hold no samples", d.name));
        }
        if data.is_empty() {
            return Err("no data given".into());
        }
        let n_samples: usize = data.iter().map(ForceData::len).sum();
        let mean_load = data
            .iter()
            .map(|d| d.mean_load_n() * d.len() as f64)
            .sum::<f64>()
            / n_samples as f64;
        let nominal_load_n = options.nominal_load_n.unwrap_or(mean_load);
        if !(nominal_load_n > 0.0 && nominal_load_n.is_finite()) {
            return Err(format!(
                "the nominal load must be a positive number of newtons, got {nominal_load_n}"
            ));
        }
        let law = base.build();
        let algebraic = law.n_states() == 0;
        let stick_speed_mps = options
            .stick_speed_mps
            .unwrap_or_else(|| default_stick_speed(&base, &data));
        let used = data
            .iter()
            .map(|d| {
                (0..d.len())
                    .filter(|&i| !algebraic || d.v_mps[i].abs() >= stick_speed_mps)
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        if used.iter().all(Vec::is_empty) {
            return Err(format!(
                "every sample is slower than the stick speed {stick_speed_mps:e} m/s: nothing \
                 to fit a law without states to"
            ));
        }
        let recordings = data
            .iter()
            .map(|d| {
                Arc::new(Recording {
                    t_s: d.t_s.clone(),
                    v_mps: d.v_mps.clone(),
                    load_n: d.load_n.clone(),
                })
            })
            .collect();
        Ok(Self {
            base,
            keys: metas,
            data,
            recordings,
            used,
            nominal_load_n,
            stick_speed_mps,
            rtol: options.rtol,
            algebraic,
        })
    }

    /// The free parameters, starting at the base law's values.
    pub fn free_params(&self) -> Vec<FreeParam> {
        let params = self.base.params();
        self.keys
            .iter()
            .map(|m| FreeParam::from_meta(m.key, m, params.get(m.key).unwrap_or(m.default)))
            .collect()
    }

    /// The base law with the free parameters set to `p`.
    pub fn config_at(&self, p: &[f64]) -> Result<LawConfig, String> {
        let mut config = self.base.clone();
        for (m, &v) in self.keys.iter().zip(p) {
            config
                .params_mut()
                .set(m.key, v)
                .map_err(|e| e.to_string())?;
        }
        Ok(config)
    }

    /// The predicted force on the body at every sample of every data set [N].
    pub fn predicted(&self, p: &[f64]) -> Result<Vec<Vec<f64>>, String> {
        let config = self.config_at(p)?;
        let law = config.build();
        self.data
            .iter()
            .zip(&self.recordings)
            .map(|(d, rec)| {
                if self.algebraic {
                    Ok((0..d.len())
                        .map(|i| {
                            law.steady_force(
                                d.v_mps[i],
                                d.load_n[i],
                                d.load_n[i] / self.nominal_load_n,
                            )
                        })
                        .collect())
                } else {
                    force_along(law.clone(), rec.clone(), self.nominal_load_n, self.rtol).map_err(
                        |e| format!("{}: the law could not be run along the record: {e}", d.name),
                    )
                }
            })
            .collect()
    }

    /// The data.
    pub fn data(&self) -> &[ForceData] {
        &self.data
    }

    /// Indices of the samples each data set contributes.
    pub fn used(&self) -> &[Vec<usize>] {
        &self.used
    }

    /// Whether the law is fitted algebraically (it has no states).
    pub fn is_algebraic(&self) -> bool {
        self.algebraic
    }

    /// The nominal load the force parameters refer to [N].
    pub fn nominal_load_n(&self) -> f64 {
        self.nominal_load_n
    }

    /// The stick speed below which samples were left out [m/s] (0 when none were).
    pub fn stick_speed_mps(&self) -> f64 {
        if self.algebraic {
            self.stick_speed_mps
        } else {
            0.0
        }
    }
}

impl FitProblem for LawFit {
    fn n_residuals(&self) -> usize {
        self.used.iter().map(Vec::len).sum()
    }

    fn residuals(&self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        let predicted = self.predicted(p)?;
        let mut k = 0;
        for ((d, f_hat), used) in self.data.iter().zip(&predicted).zip(&self.used) {
            for &i in used {
                let w = d.sigma_n.as_ref().map_or(1.0, |s| 1.0 / s[i]);
                out[k] = w * (f_hat[i] - d.force_n[i]);
                k += 1;
            }
        }
        Ok(())
    }

    fn difference_step(&self) -> f64 {
        if self.algebraic {
            1e-6
        } else {
            // Well above the simulation's tolerance noise, well below the parameters' scale.
            (self.rtol.sqrt() * 10.0).clamp(1e-6, 1e-3)
        }
    }
}

/// The metadata of a free parameter `key` of a law, or why it cannot be free.
pub fn free_meta(
    meta: &'static [ParamMeta],
    owner: &str,
    key: &str,
) -> Result<&'static ParamMeta, String> {
    let m = meta.iter().find(|m| m.key == key).ok_or_else(|| {
        format!(
            "{owner} has no parameter `{key}`; its parameters: {}",
            meta.iter()
                .filter(|m| !m.integer)
                .map(|m| m.key)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    if m.integer {
        return Err(format!(
            "{owner}.{key} is a whole number (a count): it cannot be fitted; set it instead"
        ));
    }
    Ok(m)
}

/// 1 % of the largest speed for laws set-valued at rest (the Karnopp band if wider), else 0.
fn default_stick_speed(config: &LawConfig, data: &[ForceData]) -> f64 {
    let v_max = data
        .iter()
        .flat_map(|d| d.v_mps.iter())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    match config.sign_model() {
        Some(SignModel::SetValued) => STICK_SPEED_SHARE * v_max,
        Some(SignModel::Karnopp(band)) => (STICK_SPEED_SHARE * v_max).max(band),
        _ => 0.0,
    }
}
