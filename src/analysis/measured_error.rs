//! Typed errors of the CSV import ([`super::measured`]), each with its `file:line:col`.

use super::resample::Spacing;

/// Where in a file a problem is: `file:line:col` (1-based; `col` counts characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// File name as given.
    pub file: String,
    /// Line number.
    pub line: usize,
    /// Character column of the offending cell.
    pub col: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Why a CSV series could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeasuredError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io {
        /// File name.
        file: String,
        /// The system's message.
        message: String,
    },
    /// No header line.
    #[error("{file}: no header line (the file is empty or only comments)")]
    NoHeader {
        /// File name.
        file: String,
    },
    /// The header names fewer than two columns.
    #[error(
        "{at}: the header names {found} column(s); a time column and at least one data \
         column are needed"
    )]
    TooFewColumns {
        /// The header line.
        at: Place,
        /// Columns found.
        found: usize,
    },
    /// A header name is empty or repeated.
    #[error("{at}: column name `{name}` is empty or repeated")]
    BadName {
        /// The offending name.
        at: Place,
        /// The name.
        name: String,
    },
    /// A requested column does not exist.
    #[error("{file}: no column named `{name}`; the columns are: {available}")]
    NoSuchColumn {
        /// File name.
        file: String,
        /// The requested name.
        name: String,
        /// The header's names.
        available: String,
    },
    /// A row has a different number of cells than the header.
    #[error("{at}: row has {found} cells, the header has {expected}")]
    Ragged {
        /// First extra cell, or the end of a short row.
        at: Place,
        /// Cells in the row.
        found: usize,
        /// Cells in the header.
        expected: usize,
    },
    /// A cell is not a number.
    #[error("{at}: `{text}` in column `{column}` is not a number")]
    NonNumeric {
        /// The cell.
        at: Place,
        /// Its column's name.
        column: String,
        /// Its text.
        text: String,
    },
    /// A cell is NaN or infinite.
    #[error("{at}: `{text}` in column `{column}` is not a finite number")]
    NonFinite {
        /// The cell.
        at: Place,
        /// Its column's name.
        column: String,
        /// Its text.
        text: String,
    },
    /// A time equals the previous row's.
    #[error("{at}: time {value} repeats the previous row's time")]
    DuplicateTime {
        /// The time cell.
        at: Place,
        /// The repeated time [s].
        value: f64,
    },
    /// A time is earlier than the previous row's.
    #[error(
        "{at}: time {value} is earlier than the previous row's {previous}: times must increase"
    )]
    TimeNotIncreasing {
        /// The time cell.
        at: Place,
        /// The time [s].
        value: f64,
        /// The previous row's time [s].
        previous: f64,
    },
    /// Fewer than two data rows.
    #[error("{file}: {rows} data row(s); at least 2 are needed")]
    TooFewRows {
        /// File name.
        file: String,
        /// Data rows found.
        rows: usize,
    },
    /// The time steps are not uniform and resampling was not asked for.
    #[error(
        "{file}: time steps are not uniform: median {median:e} s, range [{min:e}, {max:e}] s, \
         worst deviation {dev:.3} % after data row {row} (tolerance {tol} %); resample \
         linearly to the median step explicitly (tribolab analyze --resample)",
        median = spacing.median_s, min = spacing.min_s, max = spacing.max_s,
        dev = 100.0 * spacing.max_deviation, row = spacing.worst_step + 1,
        tol = 100.0 * spacing.tolerance
    )]
    NonUniform {
        /// File name.
        file: String,
        /// The step statistics.
        spacing: Spacing,
    },
}
