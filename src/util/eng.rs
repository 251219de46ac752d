//! Numbers for the reader: engineering notation with SI prefixes (`101.4 mm/s`, `2.251 Hz`,
//! `350 µm`), so no label shows `0.000000055 m` or thirty digits.

/// SI prefixes from 10⁻²⁴ to 10¹², by exponent / 3 + 8 (atomic friction reaches zeptojoules).
const PREFIXES: [&str; 13] = [
    "y", "z", "a", "f", "p", "n", "µ", "m", "", "k", "M", "G", "T",
];

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
    let exp3 = ((value.abs().log10() / 3.0).floor() as i32).clamp(-8, 4);
    let scaled = value / 10f64.powi(3 * exp3);
    // Rounding may carry into the next prefix (999.96 → 1000.0).
    let (scaled, exp3) = if round_sig(scaled, digits).abs() >= 1000.0 && exp3 < 4 {
        (value / 10f64.powi(3 * (exp3 + 1)), exp3 + 1)
    } else {
        (scaled, exp3)
    };
    let prefix = PREFIXES[(exp3 + 8) as usize];
    format!("{} {prefix}{unit}", fixed(scaled, digits))
}

/// [`format_si`] without trailing zeros (`1 kg`, `101.4 mm/s`, `2.5 nm`): the value boxes of
/// sliders, where the digits are the user's own.
pub fn format_si_short(value: f64, unit: &str, digits: usize) -> String {
    let text = format_si(value, unit, digits);
    let (number, rest) = match text.find(' ') {
        Some(i) => text.split_at(i),
        None => (text.as_str(), ""),
    };
    if !number.contains('.') || number.contains('e') {
        return text;
    }
    let number = number.trim_end_matches('0').trim_end_matches('.');
    format!("{number}{rest}")
}

/// The prefixed unit an axis whose values reach `max_abs` reads best in, and the factor that
/// turns SI values into it (`(1e6, "µm")` for 54 µm): tick labels then stay short numbers.
/// Units without prefixes (and `kg`) keep their unit and factor 1.
pub fn axis_unit(max_abs: f64, unit: &str) -> (f64, String) {
    if !takes_prefix(unit) || unit.starts_with("kg") || !max_abs.is_finite() || max_abs <= 0.0 {
        return (1.0, unit.to_string());
    }
    let exp3 = ((max_abs.log10() / 3.0).floor() as i32).clamp(-8, 4);
    (
        10f64.powi(-3 * exp3),
        format!("{}{unit}", PREFIXES[(exp3 + 8) as usize]),
    )
}

/// Whether values in `unit` take SI prefixes in [`format_si`] and [`parse_si`]: units built on
/// an SI symbol (`m/s`, `N·s/m`, `kg`, `Hz`, `K`), not counts or words (`periods`, `rpm`, `1/s`).
pub fn takes_prefix(unit: &str) -> bool {
    const BASES: [&str; 13] = [
        "m", "s", "N", "Hz", "J", "K", "W", "Pa", "kg", "g", "A", "V", "eV",
    ];
    let base = unit.split(['·', '/', '²', '³']).next().unwrap_or("");
    BASES.contains(&base)
}

/// Reads a number typed with or without an SI prefix and the unit (`1.5 nm/s`, `1.5n`,
/// `1.5e-9`, `250 mg` for `kg`); `None` when it is not a number.
pub fn parse_si(text: &str, unit: &str) -> Option<f64> {
    let t = text.trim().replace(',', ".");
    if let Ok(v) = t.parse::<f64>() {
        return Some(v);
    }
    // Kilograms are written in grams with a prefix (`50 g`, `1 kg`).
    let (shown_unit, factor) = match unit.strip_prefix("kg") {
        Some(rest) => (format!("g{rest}"), 1e-3),
        None => (unit.to_string(), 1.0),
    };
    let t = t
        .strip_suffix(shown_unit.as_str())
        .unwrap_or(&t)
        .trim_end()
        .to_string();
    if let Ok(v) = t.trim().parse::<f64>() {
        return Some(v * factor);
    }
    let prefix = t.chars().last()?;
    let exponent = match prefix {
        'y' => -24,
        'z' => -21,
        'a' => -18,
        'f' => -15,
        'p' => -12,
        'n' => -9,
        'µ' | 'u' => -6,
        'm' => -3,
        'k' => 3,
        'M' => 6,
        'G' => 9,
        'T' => 12,
        _ => return None,
    };
    let number = t[..t.len() - prefix.len_utf8()].trim();
    number
        .parse::<f64>()
        .ok()
        .map(|v| v * 10f64.powi(exponent) * factor)
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
    /// An axis reaching 54 µm reads in µm, one reaching 1.7 N in N, 0.1 m/s in mm/s.
    #[test]
    fn axes_take_the_prefix_of_their_largest_value() {
        let (f, u) = super::axis_unit(5.4e-5, "m");
        assert_eq!(u, "µm");
        assert!((f - 1e6).abs() < 1e-6);
        assert_eq!(super::axis_unit(1.7, "N"), (1.0, "N".to_string()));
        assert_eq!(super::axis_unit(0.1, "m/s").1, "mm/s");
        assert_eq!(super::axis_unit(0.0, "m"), (1.0, "m".to_string()));
        assert_eq!(super::axis_unit(3.0, "rpm"), (1.0, "rpm".to_string()));
    }

    use super::{format_si, format_si_short, parse_si, takes_prefix};

    #[test]
    fn short_form_and_parsing_round_trip() {
        assert_eq!(format_si_short(1.0, "kg", 4), "1 kg");
        assert_eq!(format_si_short(0.101_368, "m/s", 4), "101.4 mm/s");
        assert_eq!(format_si_short(1e-9, "m/s", 4), "1 nm/s");
        assert_eq!(format_si_short(0.5, "N·s/m", 4), "500 mN·s/m");
        assert_eq!(format_si_short(200.0, "N/m", 4), "200 N/m");
        assert_eq!(format_si_short(2.2797e-20, "J", 4), "22.8 zJ");
        for (v, unit) in [
            (1e-9, "m/s"),
            (0.101_4, "m/s"),
            (2.828e-5, "kg/s"),
            (1e-10, "kg"),
            (50.0, "K"),
            (3e-10, "m"),
            (2.2797e-20, "J"),
            (1e-25, "kg"),
            (-12_500.0, "N"),
        ] {
            let text = format_si_short(v, unit, 5);
            let back = parse_si(&text, unit).unwrap();
            assert!(
                (back / v - 1.0).abs() < 1e-4,
                "{v} {unit} → {text} → {back}"
            );
        }
        assert_eq!(parse_si("1.5e-9", "m/s"), Some(1.5e-9));
        assert_eq!(parse_si("2,5 mm", "m"), Some(2.5e-3));
        assert_eq!(parse_si("3u", "s"), Some(3e-6));
        assert_eq!(parse_si("abc", "m"), None);
        assert!(takes_prefix("N·s/m") && takes_prefix("kg/s") && takes_prefix("K"));
        assert!(!takes_prefix("periods") && !takes_prefix("rpm") && !takes_prefix("1/s"));
        assert!(!takes_prefix(""));
    }

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
