//! Numbers for the reader: engineering notation with SI prefixes (`101.4 mm/s`, `2.251 Hz`,
//! `350 µm`), so no label shows `0.000000055 m` or thirty digits.

/// SI prefixes from 10⁻¹⁵ to 10¹², by exponent / 3 + 5.
const PREFIXES: [&str; 10] = ["f", "p", "n", "µ", "m", "", "k", "M", "G", "T"];

/// `value` with `unit` in engineering notation with an SI prefix and `digits` significant
/// digits (at least 1). Dimensionless values (empty unit) print plainly between 10⁻³ and 10⁴
/// and as `1.23e-8` outside. `kg` is prefixed as grams; units that take no prefix (`rpm`, `%`,
/// `°`) print plainly.
pub fn format_si(value: f64, unit: &str, digits: usize) -> String {
    let digits = digits.max(1);
    if !value.is_finite() {
        return format!("{value} {unit}").trim_end().to_string();
    }
    if unit.is_empty() {
        return plain(value, digits);
    }
    if matches!(unit, "rpm" | "%" | "°") {
        return format!("{} {unit}", plain(value, digits));
    }
    let (value, unit) = match unit.strip_prefix("kg") {
        Some(rest) => (value * 1e3, format!("g{rest}")),
        None => (value, unit.to_string()),
    };
    if value == 0.0 {
        return format!("0 {unit}");
    }
    let exp3 = ((value.abs().log10() / 3.0).floor() as i32).clamp(-5, 4);
    let scaled = value / 10f64.powi(3 * exp3);
    // Rounding may carry into the next prefix (999.96 → 1000.0).
    let (scaled, exp3) = if round_sig(scaled, digits).abs() >= 1000.0 && exp3 < 4 {
        (value / 10f64.powi(3 * (exp3 + 1)), exp3 + 1)
    } else {
        (scaled, exp3)
    };
    let prefix = PREFIXES[(exp3 + 5) as usize];
    format!("{} {prefix}{unit}", fixed(scaled, digits))
}

/// A dimensionless number with `digits` significant digits, plainly or in e-notation.
fn plain(value: f64, digits: usize) -> String {
    let a = value.abs();
    if value == 0.0 || (1e-3..1e4).contains(&a) {
        fixed(value, digits)
    } else {
        format!("{value:.prec$e}", prec = digits - 1)
    }
}

/// `value` with `digits` significant digits in fixed notation (no trailing exponent).
fn fixed(value: f64, digits: usize) -> String {
    if value == 0.0 {
        return "0".into();
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    let text = format!("{value:.decimals$}");
    // Rounding that carries into the next decade (0.9999 → 1.000) adds a digit: drop one.
    let carried = text
        .trim_start_matches('-')
        .parse::<f64>()
        .is_ok_and(|r| r >= 10f64.powi(magnitude + 1));
    if carried && decimals > 0 {
        format!("{value:.prec$}", prec = decimals - 1)
    } else {
        text
    }
}

fn round_sig(value: f64, digits: usize) -> f64 {
    let s = fixed(value, digits);
    s.parse().unwrap_or(value)
}

#[cfg(test)]
mod tests {
    use super::format_si;

    #[test]
    fn prefixes_and_significant_digits() {
        assert_eq!(format_si(0.101_368, "m/s", 4), "101.4 mm/s");
        assert_eq!(format_si(2.2508, "Hz", 4), "2.251 Hz");
        assert_eq!(format_si(9.865, "s", 4), "9.865 s");
        assert_eq!(format_si(5.5e-7, "m", 3), "550 nm");
        assert_eq!(format_si(3.5e-4, "m", 2), "350 µm");
        assert_eq!(format_si(-12_500.0, "N", 3), "-12.5 kN");
        assert_eq!(format_si(0.9999999, "s", 3), "1.00 s");
        assert_eq!(format_si(999.96, "Hz", 4), "1.000 kHz");
        assert_eq!(format_si(0.0, "J", 3), "0 J");
        assert_eq!(format_si(0.05, "kg", 3), "50.0 g");
        assert_eq!(format_si(2.0, "kg", 3), "2.00 kg");
    }

    #[test]
    fn dimensionless_and_unprefixed_units() {
        assert_eq!(format_si(0.35, "", 3), "0.350");
        assert_eq!(format_si(1e-8, "", 3), "1.00e-8");
        assert_eq!(format_si(19.36, "rpm", 4), "19.36 rpm");
        assert_eq!(format_si(f64::INFINITY, "s", 3), "inf s");
    }
}
