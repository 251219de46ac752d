//! A minimal JSON value and writer for machine-readable reports (`--json`), so the crate needs
//! no JSON dependency. Numbers are written in their shortest round-trip form (exponent notation
//! below 1e-4 and from 1e15 up); NaN and infinities, which JSON cannot hold, become `null`.

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A floating-point number (`null` when not finite).
    Num(f64),
    /// A string (escaped on output).
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object; keys keep their order.
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs.
    pub fn obj<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An array of numbers.
    pub fn nums(values: &[f64]) -> Json {
        Json::Arr(values.iter().map(|&v| Json::Num(v)).collect())
    }

    /// A whole number from a count or index.
    pub fn count(n: usize) -> Json {
        Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// `Num(v)` for `Some(v)`, else `Null`.
    pub fn opt_num(v: Option<f64>) -> Json {
        v.map_or(Json::Null, Json::Num)
    }

    /// Pretty-printed text (two-space indent; arrays of scalars on one line).
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n("  ", n));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => out.push_str(&i.to_string()),
            Json::Num(v) => out.push_str(&number(*v)),
            Json::Str(s) => escape_into(out, s),
            Json::Arr(items) if items.iter().all(Json::is_scalar) => {
                out.push('[');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, indent);
                }
                out.push(']');
            }
            Json::Arr(items) => {
                out.push_str("[\n");
                for (k, item) in items.iter().enumerate() {
                    pad(out, indent + 1);
                    item.write(out, indent + 1);
                    out.push_str(if k + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push(']');
            }
            Json::Obj(pairs) if pairs.is_empty() => out.push_str("{}"),
            Json::Obj(pairs) => {
                out.push_str("{\n");
                for (k, (key, value)) in pairs.iter().enumerate() {
                    pad(out, indent + 1);
                    escape_into(out, key);
                    out.push_str(": ");
                    value.write(out, indent + 1);
                    out.push_str(if k + 1 < pairs.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push('}');
            }
        }
    }
}

/// Shortest round-trip text of a finite number; `null` otherwise.
fn number(v: f64) -> String {
    if !v.is_finite() {
        "null".into()
    } else if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e15) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn escape_into(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_valid_pretty_json() {
        let j = Json::obj([
            ("name", Json::Str("x \"a\"\n\u{1}".into())),
            ("n", Json::count(3)),
            ("v", Json::nums(&[0.5, 1e-10, f64::NAN, 2e20, -3.0])),
            ("ok", Json::Bool(true)),
            ("none", Json::Null),
            ("list", Json::Arr(vec![Json::obj([("a", Json::Int(1))])])),
            ("empty", Json::obj(Vec::<(String, Json)>::new())),
        ]);
        let want = "{\n  \"name\": \"x \\\"a\\\"\\n\\u0001\",\n  \"n\": 3,\n  \
                    \"v\": [0.5, 1e-10, null, 2e20, -3],\n  \"ok\": true,\n  \"none\": null,\n  \
                    \"list\": [\n    {\n      \"a\": 1\n    }\n  ],\n  \"empty\": {}\n}";
        assert_eq!(j.to_pretty(), want);
    }

    #[test]
    fn numbers_round_trip() {
        for v in [0.1 + 0.2, 123456.789, -3.3e-7, 1e300, 0.0] {
            assert_eq!(number(v).parse::<f64>().unwrap().to_bits(), v.to_bits());
        }
    }
}
