//! Atomic file writes: write a temporary file beside the target, flush it to disk, then rename it
//! over the target. A crash or error midway leaves the old file untouched and no partial file.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `path` atomically; `fill` streams the content into the writer.
///
/// On any error the temporary file is removed and the target is left as it was.
/// A target that exists but is not a regular file (`/dev/null`, a FIFO, a terminal) is written
/// directly: renaming over it would replace the device with a file.
pub fn write_atomically<F>(path: &Path, fill: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    if let Ok(meta) = fs::metadata(path)
        && !meta.is_file()
    {
        {
            if meta.is_dir() {
                return Err(io::Error::other(format!(
                    "{} is a directory",
                    path.display()
                )));
            }
            let mut w = BufWriter::new(fs::OpenOptions::new().write(true).open(path)?);
            fill(&mut w)?;
            return w.flush();
        }
    }
    let tmp = temp_path(path);
    let result = (|| {
        let file = File::create(&tmp)?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes a whole string atomically.
pub fn write_string_atomically(path: &Path, text: &str) -> io::Result<()> {
    write_atomically(path, |w| w.write_all(text.as_bytes()))
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let tmp_name = format!(".{name}.tmp-{}", std::process::id());
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp_name),
        _ => PathBuf::from(tmp_name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_keeps_old_file_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("tribolab-aw-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("data.csv");
        fs::write(&target, "old").unwrap();
        let err = write_atomically(&target, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "temp file left behind");
        write_string_atomically(&target, "new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn device_targets_are_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        write_string_atomically(null, "discarded").unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        assert!(write_string_atomically(&std::env::temp_dir(), "x").is_err());
    }
}
