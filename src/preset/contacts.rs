//! Per-contact friction laws in a preset (schema v2): the preset's `law` acts on every contact
//! unless a contact has its own (`contacts`), and chosen law parameters can be spread at random
//! across the contacts with a seed (`spread`), so a chain of blocks can be heterogeneous and
//! still reproduce bit for bit.
//!
//! Spread: for every contact `i` in order, one deviate `ξᵢ` with zero mean and unit variance is
//! drawn (uniform on `[−√3, √3]`, or normal truncated at ±3), and the parameter becomes
//! `p·(1 + relative·ξᵢ)`, kept inside the parameter's allowed range. A contact whose law has no
//! such parameter still consumes its deviate, so adding an override never reshuffles the others.
//! The stream of each spread starts from its seed mixed with the parameter's key (FNV-1a), so
//! spreads of two parameters with the same seed are independent.

use serde::{Deserialize, Serialize};

use crate::laws::LawConfig;
use crate::util::rng::SplitMix64;

/// A contact with its own law.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactOverride {
    /// Contact number, counted from 1 in the order of the system's contacts.
    pub contact: usize,
    /// The contact's law.
    pub law: LawConfig,
}

/// Shape of the relative deviations of a [`LawSpread`] (both have unit variance).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Distribution {
    /// Uniform on `[−√3, √3]`.
    #[default]
    Uniform,
    /// Standard normal, truncated at ±3.
    Normal,
}

/// Seeded random heterogeneity of one law parameter across the contacts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LawSpread {
    /// Key of the law parameter (`mu_s`).
    pub param: String,
    /// Relative standard deviation (0.05: 5 %).
    pub relative: f64,
    /// Shape of the deviations.
    #[serde(default)]
    pub distribution: Distribution,
    /// Seed of the deviates (the same seed gives the same contacts every time).
    #[serde(default)]
    pub seed: u64,
}

/// Largest accepted relative spread.
pub const MAX_RELATIVE_SPREAD: f64 = 1.0;

impl LawSpread {
    /// The `n` deviates `ξᵢ` of this spread.
    pub fn deviates(&self, n: usize) -> Vec<f64> {
        let mut rng = SplitMix64::new(self.seed ^ crate::util::hash::fnv1a(self.param.as_bytes()));
        (0..n)
            .map(|_| match self.distribution {
                Distribution::Uniform => (2.0 * rng.uniform_open() - 1.0) * 3f64.sqrt(),
                Distribution::Normal => rng.normal().clamp(-3.0, 3.0),
            })
            .collect()
    }
}

/// One law per contact: `law` everywhere, overrides in place, then every spread applied.
/// Overrides out of range are ignored here (validation reports them).
pub fn resolve(
    law: &LawConfig,
    overrides: &[ContactOverride],
    spreads: &[LawSpread],
    n_contacts: usize,
) -> Vec<LawConfig> {
    let mut laws = vec![law.clone(); n_contacts];
    for o in overrides {
        if let Some(slot) = o.contact.checked_sub(1).and_then(|i| laws.get_mut(i)) {
            *slot = o.law.clone();
        }
    }
    for spread in spreads {
        for (law, xi) in laws.iter_mut().zip(spread.deviates(n_contacts)) {
            apply_spread(law, spread, xi);
        }
    }
    laws
}

/// The law of contact `index` alone (from 0), as [`resolve`] gives it, without resolving the
/// others (the window asks for one contact's law every frame).
pub fn resolve_one(
    law: &LawConfig,
    overrides: &[ContactOverride],
    spreads: &[LawSpread],
    index: usize,
) -> LawConfig {
    let mut out = overrides
        .iter()
        .find(|o| o.contact == index + 1)
        .map_or_else(|| law.clone(), |o| o.law.clone());
    for spread in spreads {
        if let Some(&xi) = spread.deviates(index + 1).last() {
            apply_spread(&mut out, spread, xi);
        }
    }
    out
}

/// Scales `spread`'s parameter of `law` by `1 + relative·ξ`, inside its range (laws without the
/// parameter are left alone).
fn apply_spread(law: &mut LawConfig, spread: &LawSpread, xi: f64) {
    let params = law.params_mut();
    let Some(meta) = params.meta().iter().find(|m| m.key == spread.param) else {
        return;
    };
    let Some(base) = params.get(meta.key) else {
        return;
    };
    let value = (base * (1.0 + spread.relative * xi)).clamp(meta.min, meta.max);
    let value = if meta.integer { value.round() } else { value };
    // In range by construction; a refusal leaves the base value.
    let _ = params.set(meta.key, value);
}

/// Problems with the overrides and spreads of a system with `n_contacts` contacts, as
/// `(dotted path, message)`.
pub fn problems(
    law: &LawConfig,
    overrides: &[ContactOverride],
    spreads: &[LawSpread],
    n_contacts: usize,
    system_name: &str,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for (k, o) in overrides.iter().enumerate() {
        let at = format!("contacts[{k}]");
        if n_contacts == 0 {
            out.push((
                at,
                format!("the {system_name} has no frictional contacts; remove `contacts`"),
            ));
            continue;
        }
        if o.contact == 0 || o.contact > n_contacts {
            out.push((
                format!("{at}.contact"),
                format!(
                    "contact {} does not exist: the {system_name} has contacts 1 to {n_contacts}",
                    o.contact
                ),
            ));
        } else if seen.contains(&o.contact) {
            out.push((
                format!("{at}.contact"),
                format!("contact {} has a law already", o.contact),
            ));
        }
        seen.push(o.contact);
        for (key, msg) in o.law.params().problems() {
            out.push((format!("{at}.law.{key}"), msg));
        }
    }
    for (k, s) in spreads.iter().enumerate() {
        let at = format!("spread[{k}]");
        if spreads[..k].iter().any(|o| o.param == s.param) {
            out.push((
                format!("{at}.param"),
                format!("`{}` is spread twice; keep one entry", s.param),
            ));
        }
        if n_contacts == 0 {
            out.push((
                at,
                format!("the {system_name} has no frictional contacts; remove `spread`"),
            ));
            continue;
        }
        if !s.relative.is_finite() || !(0.0..=MAX_RELATIVE_SPREAD).contains(&s.relative) {
            out.push((
                format!("{at}.relative"),
                format!(
                    "relative = {} must be between 0 and {MAX_RELATIVE_SPREAD}",
                    s.relative
                ),
            ));
        }
        let laws = resolve(law, overrides, &[], n_contacts);
        let known = laws
            .iter()
            .any(|l| l.params().meta().iter().any(|m| m.key == s.param));
        if !known {
            let keys: Vec<&str> = law.params().meta().iter().map(|m| m.key).collect();
            out.push((
                format!("{at}.param"),
                format!(
                    "no contact's law has a parameter `{}`; the law's keys are: {}",
                    s.param,
                    keys.join(", ")
                ),
            ));
        }
    }
    if out.is_empty() && !spreads.is_empty() {
        out.extend(spread_contradictions(law, overrides, spreads, n_contacts));
    }
    out
}

/// The first contact whose spread values contradict each other (a spread of μ_S that pushes
/// it below μ_K, say), as a problem of `spread`.
fn spread_contradictions(
    law: &LawConfig,
    overrides: &[ContactOverride],
    spreads: &[LawSpread],
    n_contacts: usize,
) -> Option<(String, String)> {
    let laws = resolve(law, overrides, spreads, n_contacts);
    laws.iter().enumerate().find_map(|(i, l)| {
        let (key, message) = l.params().problems().into_iter().next()?;
        Some((
            "spread".to_string(),
            format!(
                "the spread gives contact {} values that contradict each other ({key}: \
                 {message}); reduce `relative` or move the base values apart",
                i + 1
            ),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::find_law;

    fn law(key: &str) -> LawConfig {
        find_law(key)
            .map(|i| (i.default_config)())
            .unwrap_or_default()
    }

    /// A spread of μ_S wide enough to push some contact's μ_S below μ_K is refused, naming
    /// the contact; a narrow one is accepted.
    #[test]
    fn a_spread_that_makes_a_contact_contradict_itself_is_refused() {
        let base = law("static_kinetic"); // μ_S = 0.4, μ_K = 0.3
        let wide = LawSpread {
            param: "mu_s".into(),
            relative: 0.5,
            distribution: Distribution::Uniform,
            seed: 7,
        };
        let found = problems(&base, &[], std::slice::from_ref(&wide), 50, "chain");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "spread");
        assert!(
            found[0].1.contains("contact ") && found[0].1.contains("mu_k"),
            "{}",
            found[0].1
        );
        let narrow = LawSpread {
            relative: 0.05,
            ..wide
        };
        assert!(problems(&base, &[], &[narrow], 50, "chain").is_empty());
    }

    #[test]
    fn overrides_replace_their_contact_only() {
        let o = [ContactOverride {
            contact: 2,
            law: law("lugre"),
        }];
        let laws = resolve(&law("static_kinetic"), &o, &[], 3);
        let variants: Vec<&str> = laws.iter().map(LawConfig::variant).collect();
        assert_eq!(variants, ["StaticKinetic", "LuGre", "StaticKinetic"]);
    }

    #[test]
    fn spread_has_the_stated_mean_and_deviation_and_repeats() {
        let spread = LawSpread {
            param: "mu_s".into(),
            relative: 0.05,
            distribution: Distribution::Uniform,
            seed: 7,
        };
        let base = law("static_kinetic");
        let mu0 = base.params().get("mu_s").unwrap();
        let n = 20_000;
        let laws = resolve(&base, &[], std::slice::from_ref(&spread), n);
        let mu: Vec<f64> = laws
            .iter()
            .map(|l| l.params().get("mu_s").unwrap())
            .collect();
        let mean = mu.iter().sum::<f64>() / n as f64;
        let sd = (mu.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
        // Standard error of the mean: 0.05·μ₀/√n ≈ 3.5e-4·μ₀; of the deviation ≈ 0.45 %.
        assert!((mean / mu0 - 1.0).abs() < 1.5e-3, "mean {mean}");
        assert!((sd / (0.05 * mu0) - 1.0).abs() < 0.02, "sd {sd}");
        let bound = mu0 * (1.0 + 0.05 * 3f64.sqrt());
        assert!(mu.iter().all(|&m| m <= bound + 1e-12));
        assert_eq!(
            laws,
            resolve(&base, &[], std::slice::from_ref(&spread), n),
            "same seed, same contacts"
        );
        let o = [ContactOverride {
            contact: 3,
            law: law("lugre"),
        }];
        let all = resolve(&base, &o, std::slice::from_ref(&spread), 5);
        for (i, l) in all.iter().enumerate() {
            assert_eq!(
                *l,
                resolve_one(&base, &o, std::slice::from_ref(&spread), i),
                "{i}"
            );
        }
    }

    #[test]
    fn problems_name_the_field() {
        let o = [ContactOverride {
            contact: 4,
            law: law("lugre"),
        }];
        let s = [LawSpread {
            param: "mu_x".into(),
            relative: 2.0,
            distribution: Distribution::Normal,
            seed: 0,
        }];
        let p = problems(&law("static_kinetic"), &o, &s, 2, "two-block system");
        let paths: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            paths,
            [
                "contacts[0].contact",
                "spread[0].relative",
                "spread[0].param"
            ]
        );
        assert!(p[0].1.contains("contacts 1 to 2"), "{}", p[0].1);
        assert!(p[2].1.contains("mu_s"), "{}", p[2].1);
    }

    /// Spreads of two parameters with the same seed are independent (the key is mixed into
    /// the stream), and one parameter spread twice is refused.
    #[test]
    fn spreads_of_two_parameters_are_independent() {
        let spread = |param: &str| LawSpread {
            param: param.into(),
            relative: 0.1,
            distribution: Distribution::Uniform,
            seed: 1,
        };
        let (a, b) = (spread("mu_s").deviates(50), spread("mu_k").deviates(50));
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (ma, mb) = (mean(&a), mean(&b));
        let cov: f64 = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - ma) * (y - mb))
            .sum::<f64>()
            / 49.0;
        // Independent unit-variance deviates: |correlation| ≈ 1/√50 ≈ 0.14; identical: 1.
        assert!(cov.abs() < 0.5, "correlation {cov}");
        let p = problems(
            &law("static_kinetic"),
            &[],
            &[spread("mu_s"), spread("mu_s")],
            2,
            "x",
        );
        assert_eq!(p.len(), 1);
        assert!(
            p[0].0 == "spread[1].param" && p[0].1.contains("twice"),
            "{p:?}"
        );
    }
}
