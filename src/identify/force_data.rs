//! A friction measurement ready to fit: times, sliding velocity, normal load and friction force
//! in SI units and in the laws' sign convention, built from an imported CSV with a unit per
//! column.

use crate::analysis::measured::MeasuredTable;

use super::derivative::smoothed_derivative;
use super::units::{Quantity, si_factor};

/// One column of a file with the unit its values are in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSpec {
    /// Header name.
    pub name: String,
    /// Unit of the values (`mm/s`, `uN`; empty = SI).
    pub unit: String,
}

impl ColumnSpec {
    /// Parses `NAME` or `NAME:UNIT`.
    pub fn parse(text: &str) -> Self {
        match text.rsplit_once(':') {
            Some((name, unit)) => Self {
                name: name.trim().to_string(),
                unit: unit.trim().to_string(),
            },
            None => Self {
                name: text.trim().to_string(),
                unit: String::new(),
            },
        }
    }
}

/// Which columns of a friction measurement hold what.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ForceColumns {
    /// Time column (`None`: the file's time column, in seconds).
    pub time: Option<ColumnSpec>,
    /// Sliding velocity, or
    pub velocity: Option<ColumnSpec>,
    /// the position to differentiate when no velocity is recorded.
    pub position: Option<ColumnSpec>,
    /// Normal load, taken by magnitude (`None`: constant, [`ForceOptions::constant_load_n`]).
    pub load: Option<ColumnSpec>,
    /// Friction force.
    pub force: Option<ColumnSpec>,
    /// Standard deviation of each force sample (weights `1/σ²`), in the force's unit unless
    /// it names its own.
    pub sigma: Option<ColumnSpec>,
}

impl ForceColumns {
    /// Every column named, for [`crate::analysis::measured::CsvSelection`].
    pub fn data_names(&self) -> Vec<&str> {
        [
            &self.velocity,
            &self.position,
            &self.load,
            &self.force,
            &self.sigma,
        ]
        .into_iter()
        .flatten()
        .map(|c| c.name.as_str())
        .collect()
    }
}

/// How the recorded force is signed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ForceSign {
    /// Positive when it resists a positive sliding velocity (a tribometer's load cell): the
    /// laws' force on the body is its negative. The default.
    #[default]
    Resisting,
    /// Already the force on the sliding body (negative for positive velocity).
    OnBody,
}

/// Options of the import.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForceOptions {
    /// Normal load when no load column is given [N].
    pub constant_load_n: f64,
    /// Half-width of the position differentiation window [samples].
    pub smoothing_half_width: usize,
    /// Sign convention of the force column.
    pub sign: ForceSign,
}

impl Default for ForceOptions {
    fn default() -> Self {
        Self {
            constant_load_n: 1.0,
            smoothing_half_width: 5,
            sign: ForceSign::Resisting,
        }
    }
}

/// Where the velocity came from.
#[derive(Clone, Debug, PartialEq)]
pub enum VelocitySource {
    /// A recorded velocity column.
    Recorded,
    /// Differentiated from positions by local quadratic fits over `2h + 1` samples.
    Differentiated {
        /// Window half-width `h` [samples].
        half_width: usize,
    },
}

/// A friction measurement in SI units.
#[derive(Clone, Debug, PartialEq)]
pub struct ForceData {
    /// Name for reports (the file).
    pub name: String,
    /// Times [s].
    pub t_s: Vec<f64>,
    /// Sliding velocity [m/s].
    pub v_mps: Vec<f64>,
    /// Normal load [N].
    pub load_n: Vec<f64>,
    /// Friction force on the sliding body [N] (the laws' convention).
    pub force_n: Vec<f64>,
    /// Standard deviation of each force sample [N], when given.
    pub sigma_n: Option<Vec<f64>>,
    /// Where the velocity came from.
    pub velocity: VelocitySource,
}

impl ForceData {
    /// Builds the data from an imported table.
    pub fn from_table(
        table: &MeasuredTable,
        columns: &ForceColumns,
        options: ForceOptions,
    ) -> Result<Self, String> {
        let file = &table.file;
        let column = |spec: &ColumnSpec, quantity: Quantity| -> Result<Vec<f64>, String> {
            let factor = si_factor(quantity, &spec.unit)
                .map_err(|e| format!("{file}: column `{}`: {e}", spec.name))?;
            let values = table
                .columns
                .iter()
                .find(|(n, _)| *n == spec.name)
                .map(|(_, v)| v)
                .ok_or_else(|| format!("{file}: no column `{}` was read", spec.name))?;
            Ok(values.iter().map(|v| v * factor).collect())
        };
        let time_factor = match &columns.time {
            Some(spec) => si_factor(Quantity::Time, &spec.unit)
                .map_err(|e| format!("{file}: column `{}`: {e}", spec.name))?,
            None => 1.0,
        };
        let t_s: Vec<f64> = table.time_s.iter().map(|t| t * time_factor).collect();
        let force_spec = columns
            .force
            .as_ref()
            .ok_or_else(|| format!("{file}: no friction force column given"))?;
        let sign = match options.sign {
            ForceSign::Resisting => -1.0,
            ForceSign::OnBody => 1.0,
        };
        let force_n: Vec<f64> = column(force_spec, Quantity::Force)?
            .into_iter()
            .map(|f| sign * f)
            .collect();
        let (v_mps, velocity) = match (&columns.velocity, &columns.position) {
            (Some(spec), _) => (column(spec, Quantity::Velocity)?, VelocitySource::Recorded),
            (None, Some(spec)) => {
                let x = column(spec, Quantity::Position)?;
                let h = options.smoothing_half_width;
                let v = smoothed_derivative(&t_s, &x, h).ok_or_else(|| {
                    format!(
                        "{file}: the position `{}` cannot be differentiated (fewer than three \
                         samples)",
                        spec.name
                    )
                })?;
                (v, VelocitySource::Differentiated { half_width: h })
            }
            (None, None) => {
                return Err(format!(
                    "{file}: give a velocity or a position column (the force alone does not \
                     say how fast the contact slid)"
                ));
            }
        };
        // By magnitude: a load cell may record compression as negative.
        let load_n = match &columns.load {
            Some(spec) => column(spec, Quantity::Force)?
                .into_iter()
                .map(f64::abs)
                .collect(),
            None => vec![options.constant_load_n.abs(); t_s.len()],
        };
        let sigma_n = match &columns.sigma {
            Some(spec) => {
                // Without a unit of its own, in the force's unit.
                let spec = ColumnSpec {
                    unit: if spec.unit.is_empty() {
                        force_spec.unit.clone()
                    } else {
                        spec.unit.clone()
                    },
                    ..spec.clone()
                };
                let s = column(&spec, Quantity::Force)?;
                if let Some(i) = s.iter().position(|s| !(*s > 0.0 && s.is_finite())) {
                    return Err(format!(
                        "{file}: column `{}` row {}: a standard deviation must be a positive \
                         number",
                        spec.name,
                        i + 1
                    ));
                }
                Some(s)
            }
            None => None,
        };
        Ok(Self {
            name: file.clone(),
            t_s,
            v_mps,
            load_n,
            force_n,
            sigma_n,
            velocity,
        })
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t_s.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.t_s.is_empty()
    }

    /// Mean absolute normal load [N] (the nominal load a fit refers force parameters to).
    pub fn mean_load_n(&self) -> f64 {
        self.load_n.iter().map(|n| n.abs()).sum::<f64>() / self.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::measured::{CsvSelection, parse_csv};

    /// A load cell that records compression as negative gives positive loads; a sigma column
    /// without a unit is in the force's unit; the resisting force is negated.
    #[test]
    fn loads_by_magnitude_sigma_in_the_force_unit() {
        let text = "t,v,Fn,Ff,s\n0,1,-2000,500,10\n0.1,2,-2100,600,20\n";
        let names = ["v", "Fn", "Ff", "s"];
        let table = parse_csv(
            text,
            "lab.csv",
            CsvSelection {
                time: Some("t"),
                columns: &names,
            },
        )
        .expect("parses");
        let columns = ForceColumns {
            time: None,
            velocity: Some(ColumnSpec::parse("v:mm/s")),
            position: None,
            load: Some(ColumnSpec::parse("Fn:mN")),
            force: Some(ColumnSpec::parse("Ff:mN")),
            sigma: Some(ColumnSpec::parse("s")),
        };
        let d = ForceData::from_table(&table, &columns, ForceOptions::default()).expect("ok");
        assert_eq!(d.load_n, vec![2.0, 2.1]);
        assert_eq!(d.force_n, vec![-0.5, -0.6]);
        assert_eq!(d.v_mps, vec![1e-3, 2e-3]);
        assert_eq!(d.sigma_n, Some(vec![0.01, 0.02]));
    }
}
