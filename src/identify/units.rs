//! Units of measured columns: a column recorded in `µN`, `mm`, `mm/s` or `ms` is converted to SI
//! on import by the factor its unit names.

/// What a column measures, which fixes its SI unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Time [s].
    Time,
    /// Position [m].
    Position,
    /// Velocity [m/s].
    Velocity,
    /// Force [N].
    Force,
}

impl Quantity {
    /// The SI unit.
    pub fn si_unit(self) -> &'static str {
        match self {
            Quantity::Time => "s",
            Quantity::Position => "m",
            Quantity::Velocity => "m/s",
            Quantity::Force => "N",
        }
    }
}

/// The factor that converts values in `unit` to the SI unit of `quantity` (`mm` → 1e-3 for a
/// position, `uN` or `µN` → 1e-6 for a force, `mm/s` → 1e-3, `min` → 60, `ms` → 1e-3); an
/// error naming the accepted forms otherwise.
pub fn si_factor(quantity: Quantity, unit: &str) -> Result<f64, String> {
    let unit = unit.trim();
    let base = quantity.si_unit();
    if unit.is_empty() || unit == base {
        return Ok(1.0);
    }
    if quantity == Quantity::Time {
        match unit {
            "min" => return Ok(60.0),
            "h" => return Ok(3600.0),
            _ => {}
        }
    }
    if quantity == Quantity::Force {
        match unit {
            "kgf" => return Ok(9.806_65),
            "gf" => return Ok(9.806_65e-3),
            _ => {}
        }
    }
    let prefix = unit
        .strip_suffix(base)
        .ok_or_else(|| message(quantity, unit))?;
    let exponent = match prefix {
        "p" => -12,
        "n" => -9,
        "u" | "µ" | "μ" => -6,
        "m" => -3,
        "c" => -2,
        "k" => 3,
        "M" => 6,
        _ => return Err(message(quantity, unit)),
    };
    Ok(10f64.powi(exponent))
}

fn message(quantity: Quantity, unit: &str) -> String {
    let base = quantity.si_unit();
    format!(
        "unit `{unit}` is not a unit of {}: use {base} with an SI prefix (p, n, u or µ, m, c, \
         k, M){}",
        match quantity {
            Quantity::Time => "time",
            Quantity::Position => "position",
            Quantity::Velocity => "velocity",
            Quantity::Force => "force",
        },
        match quantity {
            Quantity::Time => ", min or h",
            Quantity::Force => ", kgf or gf",
            _ => "",
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixed_units_convert_and_wrong_ones_are_named() {
        assert_eq!(si_factor(Quantity::Force, "uN"), Ok(1e-6));
        assert_eq!(si_factor(Quantity::Force, "µN"), Ok(1e-6));
        assert_eq!(si_factor(Quantity::Position, "mm"), Ok(1e-3));
        assert_eq!(si_factor(Quantity::Velocity, "mm/s"), Ok(1e-3));
        assert_eq!(si_factor(Quantity::Velocity, "um/s"), Ok(1e-6));
        assert_eq!(si_factor(Quantity::Time, "ms"), Ok(1e-3));
        assert_eq!(si_factor(Quantity::Time, "min"), Ok(60.0));
        assert_eq!(si_factor(Quantity::Force, ""), Ok(1.0));
        let err = si_factor(Quantity::Force, "mm").expect_err("not a force");
        assert!(err.contains("not a unit of force"), "{err}");
    }
}
