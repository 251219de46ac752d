//! CSV output of simulation samples.

use std::io::{self, Write};

use crate::integrate::SampleSink;
pub use crate::util::number::format_number;
use crate::util::number::push_number;

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
            push_number(&mut self.line, *v);
        }
        self.line.push('\n');
        if let Err(e) = self.writer.write_all(self.line.as_bytes()) {
            self.error = Some(e);
        }
    }
}
