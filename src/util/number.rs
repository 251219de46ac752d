//! Numbers as text for CSV files and reports: the shortest decimal form that reads back to the
//! same `f64` (Ryu, via the `ryu` crate), with no `.0` on whole numbers; `NaN`, `inf` and
//! `-inf` as Rust writes them.
//!
//! Written straight into a line buffer ([`push_number`]) so a CSV row costs no allocation per
//! number.

/// Appends `v` to `out` in its shortest round-trip form (`1`, `0.25`, `1e-10`, `6.02e23`).
pub fn push_number(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str(if v.is_nan() {
            "NaN"
        } else if v > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(v);
    out.push_str(text.strip_suffix(".0").unwrap_or(text));
}

/// `v` in its shortest round-trip form (see [`push_number`]).
pub fn format_number(v: f64) -> String {
    let mut s = String::new();
    push_number(&mut s, v);
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn numbers_read_back_to_the_same_bits() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -2.5,
            1e-10,
            0.1 + 0.2,
            123_456.789,
            1e300,
            -3.3e-7,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            1e15,
            1e16,
            123_456_789_012_345_680.0,
        ];
        // Random bit patterns: every finite double.
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let v = f64::from_bits(state);
            if v.is_finite() {
                values.push(v);
            }
        }
        for v in values {
            let s = format_number(v);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
    }

    #[test]
    fn whole_numbers_and_special_values_read_plainly() {
        assert_eq!(format_number(1.0), "1");
        assert_eq!(format_number(-42.0), "-42");
        assert_eq!(format_number(0.25), "0.25");
        assert_eq!(format_number(1e-10), "1e-10");
        assert_eq!(format_number(f64::NAN), "NaN");
        assert_eq!(format_number(f64::INFINITY), "inf");
        assert_eq!(format_number(f64::NEG_INFINITY), "-inf");
        for s in ["NaN", "inf", "-inf"] {
            assert!(s.parse::<f64>().is_ok());
        }
    }
}
