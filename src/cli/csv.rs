//! CSV output of simulation samples.

use std::io::{self, Write};

use crate::integrate::SampleSink;

/// Formats a number so it reads back to the same `f64` (shortest round-trip form), using
/// exponent notation for very small or large magnitudes.
pub fn format_number(v: f64) -> String {
    if v == 0.0 || v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v}")
    } else if v.abs() < 1e-4 || v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Writes rows as CSV lines; remembers the first I/O error.
pub struct CsvSink<W: Write> {
    writer: W,
    error: Option<io::Error>,
    line: String,
}

impl<W: Write> CsvSink<W> {
    /// A sink writing the header line first.
    pub fn new(mut writer: W, header: &[String]) -> io::Result<Self> {
        writeln!(writer, "{}", header.join(","))?;
        Ok(Self {
            writer,
            error: None,
            line: String::new(),
        })
    }

    /// Flushes and returns the first error, if any.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.writer.flush()?;
        Ok(self.writer)
    }
}

impl<W: Write> SampleSink for CsvSink<W> {
    fn push(&mut self, row: &[f64]) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                self.line.push(',');
            }
            self.line.push_str(&format_number(*v));
        }
        self.line.push('\n');
        if let Err(e) = self.writer.write_all(self.line.as_bytes()) {
            self.error = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for v in [0.0, 1.0, -2.5, 1e-10, 0.1 + 0.2, 123456.789, 1e300, -3.3e-7] {
            let s = format_number(v);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
        assert_eq!(format_number(1.0), "1");
    }
}
