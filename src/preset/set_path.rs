//! `--set PATH=VALUE`: changes one preset field by its dotted path.

use super::Preset;
use crate::laws::{NoiseParams, find_law};
use crate::params::ParamSet;
use crate::systems::{SYSTEMS, find_system};

pub(super) fn set_path(preset: &mut Preset, path: &str, value: &str) -> Result<(), String> {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let err = |e: crate::params::ParamError| format!("{path}: {e}");
    match (head, rest) {
        ("name", None) => preset.name = unquote(value),
        ("description", None) => preset.description = unquote(value),
        ("version", None) => {
            preset.version = value
                .trim()
                .parse()
                .map_err(|_| format!("version: `{value}` is not a whole number"))?;
        }
        ("law", None) => preset.law = (law_by_name(value)?.default_config)(),
        ("law", Some(key)) => set_in(preset.law.params_mut(), key, value).map_err(err)?,
        ("system", None) => {
            let info = find_system(value).ok_or_else(|| {
                format!(
                    "system: unknown system `{value}`; known systems: {}",
                    SYSTEMS.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
                )
            })?;
            preset.system = (info.default_config)();
            // Overrides and spreads belong to the old system's contacts.
            preset.contacts.clear();
            preset.spread.clear();
        }
        ("system", Some(key)) => set_in(preset.system.params_mut(), key, value).map_err(err)?,
        ("noise", None) => match value.trim().to_ascii_lowercase().as_str() {
            "none" | "off" => preset.noise = None,
            "on" | "default" => preset.noise = Some(NoiseParams::default()),
            _ => return Err(format!("noise: use `on` or `off`, got `{value}`")),
        },
        ("noise", Some(key)) => {
            let noise = preset.noise.get_or_insert_with(NoiseParams::default);
            set_in(noise, key, value).map_err(err)?;
        }
        ("run", Some(key)) => set_in(&mut preset.run, key, value).map_err(err)?,
        ("playback", Some(key)) => set_in(&mut preset.playback, key, value).map_err(err)?,
        ("contact", Some(rest)) => set_contact(preset, path, rest, value)?,
        ("spread", Some(key)) => set_spread(preset, path, key, value)?,
        _ => {
            return Err(format!(
                "unknown field `{path}`; top-level fields: name, description, version, \
                 system[.KEY], law[.KEY], contact.N[.KEY], spread.KEY, noise[.KEY], run.KEY, playback.KEY"
            ));
        }
    }
    Ok(())
}

/// `contact.N=LAW` gives contact N (from 1) its own law with default parameters;
/// `contact.N.KEY=V` sets a parameter of contact N's law, giving it a copy of the preset's law
/// first if it has none; `contact.N=default` removes its own law.
fn set_contact(preset: &mut Preset, path: &str, rest: &str, value: &str) -> Result<(), String> {
    let (number, key) = match rest.split_once('.') {
        Some((n, k)) => (n, Some(k)),
        None => (rest, None),
    };
    let n_contacts = preset.system.n_contacts();
    if n_contacts == 0 {
        return Err(format!(
            "{path}: the {} has no frictional contacts",
            preset.system.info().name
        ));
    }
    let contact: usize = number
        .parse()
        .ok()
        .filter(|n| (1..=n_contacts).contains(n))
        .ok_or_else(|| {
            format!(
                "{path}: `{number}` is not a contact of the {} (contacts 1 to {n_contacts})",
                preset.system.info().name
            )
        })?;
    let existing = preset.contacts.iter().position(|o| o.contact == contact);
    match key {
        None if value.trim().eq_ignore_ascii_case("default") => {
            if let Some(k) = existing {
                preset.contacts.remove(k);
            }
        }
        None => {
            let law = (law_by_name(value)?.default_config)();
            match existing {
                Some(k) => preset.contacts[k].law = law,
                None => preset
                    .contacts
                    .push(super::ContactOverride { contact, law }),
            }
        }
        Some(key) => {
            // On a copy: a refused value leaves the preset as it was.
            let mut law =
                existing.map_or_else(|| preset.law.clone(), |k| preset.contacts[k].law.clone());
            set_in(law.params_mut(), key, value).map_err(|e| format!("{path}: {e}"))?;
            match existing {
                Some(k) => preset.contacts[k].law = law,
                None => preset
                    .contacts
                    .push(super::ContactOverride { contact, law }),
            }
        }
    }
    preset.contacts.sort_by_key(|o| o.contact);
    Ok(())
}

/// `spread.KEY=R` spreads law parameter KEY by the relative standard deviation R across the
/// contacts (uniform deviates, seed 1 unless a spread of KEY exists); `spread.KEY=0` removes it.
fn set_spread(preset: &mut Preset, path: &str, key: &str, value: &str) -> Result<(), String> {
    let relative: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{path}: `{value}` is not a number"))?;
    let existing = preset.spread.iter().position(|s| s.param == key);
    match (existing, relative == 0.0) {
        (Some(k), true) => {
            preset.spread.remove(k);
        }
        (None, true) => {}
        (Some(k), false) => preset.spread[k].relative = relative,
        (None, false) => preset.spread.push(super::LawSpread {
            param: key.to_string(),
            relative,
            distribution: super::Distribution::Uniform,
            seed: 1,
        }),
    }
    Ok(())
}

fn law_by_name(value: &str) -> Result<&'static crate::laws::LawInfo, String> {
    find_law(value.trim()).ok_or_else(|| {
        format!(
            "law: unknown law `{value}`; known laws: {}",
            crate::laws::LAWS
                .iter()
                .map(|l| l.key)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn set_in(
    params: &mut dyn ParamSet,
    key: &str,
    value: &str,
) -> Result<(), crate::params::ParamError> {
    params.set_text(key, value)
}

fn unquote(v: &str) -> String {
    let t = v.trim();
    t.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(t)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::LawConfig;

    #[test]
    fn sets_numbers_enums_and_switches_law() {
        let mut p = Preset::default();
        p.set_path("system.mass", "2").unwrap();
        assert_eq!(p.system.params().get("mass"), Some(2.0));
        p.set_path("law", "lugre").unwrap();
        assert_eq!(p.law.variant(), "LuGre");
        p.set_path("law.sigma0", "1e6").unwrap();
        assert_eq!(p.law.params().get("sigma0"), Some(1e6));
        p.set_path("run.integrator", "Rk4").unwrap();
        assert_eq!(p.run.integrator, crate::integrate::Method::Rk4);
        p.set_path("law", "gaussian").unwrap();
        p.set_path("law.sign", "Tanh(1e-4)").unwrap();
        assert!(matches!(
            p.law,
            LawConfig::Gaussian(ref g) if g.sign == crate::laws::SignModel::Tanh(1e-4)
        ));
    }

    #[test]
    fn rejects_bad_keys_and_values_with_the_path() {
        let mut p = Preset::default();
        let e = p.set_path("system.mas", "2").unwrap_err();
        assert!(e.contains("system.mas") && e.contains("mass"), "{e}");
        let e = p.set_path("system.mass", "-1").unwrap_err();
        assert!(e.contains("outside the allowed range"), "{e}");
        let e = p.set_path("system.mass", "NaN").unwrap_err();
        assert!(e.contains("finite"), "{e}");
        let e = p.set_path("law", "nonsense").unwrap_err();
        assert!(e.contains("unknown law"), "{e}");
        let e = p.set_path("system", "pendulum").unwrap_err();
        assert!(e.contains("unknown system") && e.contains("henon"), "{e}");
    }

    #[test]
    fn contact_paths_override_one_contact_and_spread_adds_heterogeneity() {
        let mut p = Preset::default();
        p.set_path("system", "two_block").unwrap();
        p.set_path("law", "static_kinetic").unwrap();
        p.set_path("contact.2.mu_s", "0.6").unwrap();
        assert_eq!(p.contacts.len(), 1);
        assert_eq!(p.contact_law(1).params().get("mu_s"), Some(0.6));
        assert_eq!(p.contact_law(0), p.law);
        p.set_path("contact.1", "lugre").unwrap();
        assert_eq!(p.contact_law(0).variant(), "LuGre");
        p.set_path("contact.1", "default").unwrap();
        assert_eq!(p.contacts.len(), 1);
        let e = p.set_path("contact.3.mu_s", "0.5").unwrap_err();
        assert!(e.contains("contacts 1 to 2"), "{e}");
        // A refused value leaves no override behind.
        assert!(p.set_path("contact.1.mu_s", "99").is_err());
        assert_eq!(p.contacts.len(), 1);
        p.set_path("spread.mu_k", "0.1").unwrap();
        assert_eq!(p.spread.len(), 1);
        assert_ne!(
            p.contact_law(0).params().get("mu_k"),
            p.law.params().get("mu_k")
        );
        p.set_path("spread.mu_k", "0").unwrap();
        assert!(p.spread.is_empty());
    }

    #[test]
    fn switching_system_takes_its_defaults() {
        let mut p = Preset::default();
        p.set_path("system", "lorenz").unwrap();
        assert_eq!(p.system.variant(), "Lorenz");
        assert_eq!(p.system.params().get("rho"), Some(28.0));
        p.set_path("system.rho", "99.96").unwrap();
        assert_eq!(p.system.params().get("rho"), Some(99.96));
        p.set_path("system", "HenonMap").unwrap();
        assert_eq!(p.system.params().get("a"), Some(1.4));
    }
}
