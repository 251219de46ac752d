//! Readable text and JSON forms of a [`SeriesReport`].

use std::fmt::Write;

use super::pipeline::{Choice, SeriesReport};
use crate::util::json::Json;

impl SeriesReport {
    /// The report as a JSON object (keys in the order of the chain).
    pub fn to_json(&self) -> Json {
        let fit = self.fit.map_or(Json::Null, |f| {
            Json::obj([
                ("start_k", Json::count(f.start)),
                ("end_k", Json::count(f.end)),
                ("start_s", Json::Num(f.start as f64 * self.dt_s)),
                ("end_s", Json::Num(f.end as f64 * self.dt_s)),
                ("r2", Json::Num(f.r2)),
                ("choice", Json::Str(self.fit_choice.key().into())),
            ])
        });
        let wolf = self.wolf.map_or(Json::Null, |w| {
            Json::obj([
                ("lambda_per_s", Json::Num(w.lambda_per_s)),
                ("bits_per_s", Json::Num(w.bits_per_s)),
                ("evolve_s", Json::Num(w.evolve_s)),
                ("steps", Json::count(w.steps)),
                ("replacements", Json::count(w.replacements)),
                ("kept", Json::count(w.kept)),
                ("restarts", Json::count(w.restarts)),
            ])
        });
        let peaks = self.peaks.iter().map(|p| {
            Json::obj([
                ("freq_hz", Json::Num(p.freq_hz)),
                ("amplitude", Json::Num(p.amplitude)),
            ])
        });
        Json::obj([
            (
                "series",
                Json::obj([
                    ("name", Json::Str(self.name.clone())),
                    ("samples", Json::count(self.samples)),
                    ("dt_s", Json::Num(self.dt_s)),
                ]),
            ),
            (
                "spectrum",
                Json::obj([
                    ("resolution_hz", Json::Num(self.resolution_hz)),
                    ("peaks", Json::Arr(peaks.collect())),
                    (
                        "harmonics",
                        Json::Arr(
                            self.harmonics
                                .iter()
                                .map(|p| {
                                    Json::obj([
                                        ("freq_hz", Json::Num(p.freq_hz)),
                                        ("amplitude", Json::Num(p.amplitude)),
                                    ])
                                })
                                .collect(),
                        ),
                    ),
                ]),
            ),
            (
                "delay",
                Json::obj([
                    ("samples", Json::count(self.delay)),
                    ("seconds", Json::Num(self.delay as f64 * self.dt_s)),
                    ("choice", Json::Str(self.delay_choice.0.key().into())),
                    (
                        "rule",
                        self.delay_choice
                            .1
                            .map_or(Json::Null, |r| Json::Str(r.key().into())),
                    ),
                    ("ami_bins", Json::count(self.ami.bins)),
                    ("ami", Json::nums(&self.ami.values)),
                ]),
            ),
            (
                "theiler",
                Json::obj([
                    ("samples", Json::count(self.theiler)),
                    ("choice", Json::Str(self.theiler_choice.key().into())),
                ]),
            ),
            (
                "cao",
                Json::obj([
                    ("e1", Json::nums(&self.cao.e1)),
                    (
                        "e2",
                        Json::Arr(self.cao.e2.iter().map(|&v| Json::opt_num(v)).collect()),
                    ),
                    (
                        "dimension",
                        self.cao.dimension.map_or(Json::Null, Json::count),
                    ),
                    ("noise", Json::Bool(self.cao.noise)),
                ]),
            ),
            (
                "embedding",
                Json::obj([
                    ("dimension", Json::count(self.dim)),
                    ("choice", Json::Str(self.dim_choice.key().into())),
                ]),
            ),
            (
                "rosenstein",
                Json::obj([
                    ("lambda_per_s", Json::opt_num(self.fit.map(|f| f.slope))),
                    ("straight_region", Json::Bool(self.fit.is_some())),
                    ("fit", fit),
                    ("references", Json::count(self.divergence.references)),
                    ("log_divergence", Json::nums(&self.divergence.values)),
                ]),
            ),
            ("wolf", wolf),
            (
                "warnings",
                Json::Arr(self.warnings.iter().map(|w| Json::Str(w.clone())).collect()),
            ),
        ])
    }

    /// The report as readable text, one finding per line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let ts = self.dt_s;
        let how = Choice::key;
        let _ = writeln!(
            s,
            "series `{}`: {} samples, t_s = {} s, {} s long",
            self.name,
            self.samples,
            sig(ts),
            sig(self.samples as f64 * ts)
        );
        let peaks: Vec<String> = self
            .peaks
            .iter()
            .map(|p| format!("{:.6} Hz ({:.4e})", p.freq_hz, p.amplitude))
            .collect();
        let _ = writeln!(
            s,
            "spectrum peaks (resolution {:.3e} Hz): {}",
            self.resolution_hz,
            if peaks.is_empty() {
                "none".into()
            } else {
                peaks.join(", ")
            }
        );
        if let Some(f0) = self.harmonics.first() {
            let overtones: Vec<String> = self
                .harmonics
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, p)| {
                    format!(
                        "{}f₀ {:.6} Hz ({:.2} of f₀'s amplitude)",
                        k + 1,
                        p.freq_hz,
                        p.amplitude / f0.amplitude
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                "dominant f₀ = {:.6} Hz; harmonics: {}",
                f0.freq_hz,
                if overtones.is_empty() {
                    "none below the Nyquist frequency".into()
                } else {
                    overtones.join(", ")
                }
            );
        }
        let rule = match self.delay_choice {
            (Choice::Given, _) => "given",
            (_, Some(r)) => r.describe(),
            (_, None) => "fallback: I(τ) never fell below I(0)/e, τ = 1",
        };
        let _ = writeln!(
            s,
            "delay τ = {} samples = {} s ({rule}; AMI with {} bins)",
            self.delay,
            sig(self.delay as f64 * ts),
            self.ami.bins
        );
        let _ = writeln!(
            s,
            "Theiler window w = {} samples ({})",
            self.theiler,
            match self.theiler_choice {
                Choice::Rule => "one mean period of the spectrum",
                c => how(c),
            }
        );
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{x:.3}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(s, "Cao E1(d), d = 1…: {}", list(&self.cao.e1));
        let e2: Vec<String> = self
            .cao
            .e2
            .iter()
            .map(|v| v.map_or("—".into(), |x| format!("{x:.3}")))
            .collect();
        let _ = writeln!(s, "Cao E2(d), d = 1…: {}", e2.join(" "));
        let _ = writeln!(
            s,
            "embedding dimension d = {} ({}){}",
            self.dim,
            match self.dim_choice {
                Choice::Rule => "Cao: E1 ≥ 0.85 and steady",
                c => how(c),
            },
            if self.cao.noise {
                "; Cao flags noise (E2 ≈ 1 for all d)"
            } else {
                ""
            }
        );
        match self.fit {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "largest exponent (Rosenstein): λ₁ = {:.4} 1/s, {} k = {}…{} \
                     ({}…{} s), r² = {:.4}",
                    f.slope,
                    match self.fit_choice {
                        Choice::Given => "fit over the given range",
                        _ => "straight region",
                    },
                    f.start,
                    f.end,
                    sig(f.start as f64 * ts),
                    sig(f.end as f64 * ts),
                    f.r2
                );
            }
            None => {
                let _ = writeln!(s, "largest exponent (Rosenstein): no straight region");
            }
        }
        if let Some(w) = self.wolf {
            let _ = writeln!(
                s,
                "largest exponent (Wolf): λ₁ = {:.4} 1/s = {:.4} bits/s (evolve {} s, {} \
                 steps, {} replacements)",
                w.lambda_per_s,
                w.bits_per_s,
                sig(w.evolve_s),
                w.steps,
                w.replacements
            );
        }
        for w in &self.warnings {
            let _ = writeln!(s, "warning: {w}");
        }
        s
    }
}

/// `v` rounded to 6 significant digits, in the shortest form (`0.0099999999998` → `0.01`).
fn sig(v: f64) -> String {
    match format!("{v:.5e}").parse::<f64>() {
        Ok(r) => crate::cli::format_number(r),
        Err(_) => v.to_string(),
    }
}
