//! Preset errors with `file:line:col` and the field path.

use super::Preset;
use super::locate::locate_field;
use super::ron_io;

/// One problem in a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Line (1-based); 0 when the problem has no place in the text (e.g. I/O errors).
    pub line: usize,
    /// Column (1-based).
    pub col: usize,
    /// Dotted field path (`law.mu_s`), empty when unknown.
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

/// Why a preset could not be used: every problem found, with the source it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError {
    /// File path or `<builtin:name>`.
    pub source: String,
    /// The problems, in text order.
    pub problems: Vec<Problem>,
}

impl PresetError {
    pub(crate) fn io(source: &str, message: String) -> Self {
        Self {
            source: source.to_string(),
            problems: vec![Problem {
                line: 0,
                col: 0,
                path: String::new(),
                message,
            }],
        }
    }

    pub(crate) fn invalid(source: &str, text: &str, found: Vec<(String, String)>) -> Self {
        let mut problems: Vec<Problem> = found
            .into_iter()
            .map(|(path, message)| {
                let (line, col) = locate_field(text, &path);
                Problem {
                    line,
                    col,
                    path,
                    message,
                }
            })
            .collect();
        problems.sort_by_key(|p| (p.line, p.col));
        Self {
            source: source.to_string(),
            problems,
        }
    }
}

impl std::fmt::Display for PresetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.source)?;
            if p.line > 0 {
                write!(f, ":{}:{}", p.line, p.col)?;
            }
            if p.path.is_empty() {
                write!(f, ": {}", p.message)?;
            } else {
                write!(f, ": {}: {}", p.path, p.message)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for PresetError {}

/// Deserialises preset text, reporting the first syntax or type error with its position and
/// field path.
pub(super) fn parse(text: &str, source: &str) -> Result<Preset, PresetError> {
    let opts = ron_io::options();
    let mut de = ron::Deserializer::from_str_with_options(text, &opts)
        .map_err(|e| spanned(source, text, &e, String::new()))?;
    let preset: Preset = match serde_path_to_error::deserialize(&mut de) {
        Ok(p) => p,
        Err(e) => {
            let path = clean_path(&e.path().to_string());
            let spanned_err = de.span_error(e.into_inner());
            return Err(spanned(source, text, &spanned_err, path));
        }
    };
    de.end()
        .map_err(|e| spanned(source, text, &de.span_error(e), String::new()))?;
    Ok(preset)
}

fn spanned(source: &str, text: &str, e: &ron::error::SpannedError, path: String) -> PresetError {
    PresetError {
        source: source.to_string(),
        problems: vec![Problem {
            line: e.span.start.line,
            col: e.span.start.col,
            message: message(text, e, &path),
            path,
        }],
    }
}

/// ron's message, except where it misleads: optional fields are written without `Some(…)`
/// (presets enable `implicit_some`); inside a `Some(` ron names the enclosing struct (`in
/// Preset`) or asks for an identifier.
fn message(text: &str, e: &ron::error::SpannedError, path: &str) -> String {
    let hint = |what: &str| {
        let field = if path.is_empty() { "the field" } else { path };
        format!(
            "{what}: optional values are written without `Some(…)` — write `{field}: (…)` \
             directly, or leave the field out for none"
        )
    };
    if let ron::Error::NoSuchStructField { found, .. } = &e.code
        && found == "Some"
    {
        return hint("`Some` is not a field");
    }
    if after_some(text, e.span.start.line, e.span.start.col) {
        return hint(&e.code.to_string());
    }
    if matches!(e.code, ron::Error::Eof) || at_end(text, e.span.start.line, e.span.start.col) {
        return "unexpected end of file: the text stops before the preset is complete (a \
                closing bracket, parenthesis or quote is missing)"
            .to_string();
    }
    match &e.code {
        ron::Error::ExpectedStringEnd => "a text in quotes is not closed: its closing quote is \
                                          missing (or the file stops inside it)"
            .to_string(),
        ron::Error::NoSuchStructField {
            expected,
            found,
            outer,
        } => unknown_name("field", found, outer.as_deref(), expected, "the fields are"),
        ron::Error::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => unknown_name(
            "choice",
            found,
            outer.as_deref(),
            expected,
            "the choices are",
        ),
        other => other.to_string(),
    }
}

/// `unknown field `stifness` in `BeltBlock` (did you mean `stiffness`?); the fields are: …`.
fn unknown_name(
    what: &str,
    found: &str,
    outer: Option<&str>,
    expected: &[&str],
    listing: &str,
) -> String {
    let inside = outer.map_or_else(String::new, |o| format!(" in `{o}`"));
    format!(
        "unknown {what} `{found}`{inside}{}; {listing}: {}",
        crate::util::suggest::hint(found, expected.iter().copied()),
        expected.join(", ")
    )
}

/// Whether the text just before `line:col` (1-based, characters) ends with `Some(` (blanks
/// and an opening parenthesis aside).
fn after_some(text: &str, line: usize, col: usize) -> bool {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else {
        return false;
    };
    let before: String = l.chars().take(col.saturating_sub(1)).collect();
    let trimmed = before.trim_end().trim_end_matches('(').trim_end();
    trimmed.ends_with("Some")
}

/// serde_path_to_error writes `?` for positions it cannot name, `.` for the root and enum
/// variant names as segments; keep only the field keys (lower case by our convention).
fn clean_path(path: &str) -> String {
    path.split('.')
        .filter(|seg| {
            !seg.is_empty() && *seg != "?" && !seg.starts_with(|c: char| c.is_uppercase())
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether nothing but blanks follows `line:col` (1-based, characters): an error there means
/// the text stopped short, whatever ron expected next.
pub(crate) fn at_end(text: &str, line: usize, col: usize) -> bool {
    let mut lines = text.lines().skip(line.saturating_sub(1));
    let Some(first) = lines.next() else {
        return true;
    };
    let rest_of_line: String = first.chars().skip(col.saturating_sub(1)).collect();
    rest_of_line.trim().is_empty() && lines.all(|l| l.trim().is_empty())
}
