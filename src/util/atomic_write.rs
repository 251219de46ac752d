//! Atomic file writes: write a temporary file beside the target, flush it to disk, then rename it
//! over the target. A crash or error midway leaves the old file untouched and no partial file.
//!
//! Around that:
//! * **Interruptions.** Temporary files being written are registered; the command line's
//!   Ctrl-C/SIGTERM handler removes them ([`remove_pending_temp_files`]) before it exits. A
//!   process killed outright (SIGKILL, power loss) leaves its `.NAME.tmp-PID`; the next write
//!   of `NAME` removes temporaries of processes that no longer exist (on Linux, where
//!   `/proc/PID` says so).
//! * **Permissions.** Overwriting keeps the target's permissions (a 0600 file stays 0600).
//! * **Symbolic links are followed:** the file the link points to is replaced and the link
//!   stays a link (replacing the link by a regular file would silently detach it). A link to a
//!   missing file is refused.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files being written now (removed by [`remove_pending_temp_files`]).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files of writes in progress; for signal handlers, just before the
/// process exits. Returns how many were removed.
pub fn remove_pending_temp_files() -> usize {
    remove_pending(|_| true)
}

/// Removes the pending temporary files that `which` selects.
fn remove_pending(which: impl Fn(&Path) -> bool) -> usize {
    let mut pending = match PENDING.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    let mut removed = 0;
    pending.retain(|p| {
        if !which(p) {
            return true;
        }
        removed += usize::from(fs::remove_file(p).is_ok());
        false
    });
    removed
}

fn register(tmp: &Path, on: bool) {
    let mut pending = match PENDING.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    if on {
        pending.push(tmp.to_path_buf());
    } else {
        pending.retain(|p| p != tmp);
    }
}

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
    let path = &follow_link(path)?;
    remove_stale_temp_files(path);
    let tmp = temp_path(path);
    let keep = fs::metadata(path).ok().map(|m| m.permissions());
    register(&tmp, true);
    let result = (|| {
        let file = File::create(&tmp)?;
        if let Some(permissions) = keep {
            file.set_permissions(permissions)?;
        }
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    register(&tmp, false);
    result
}

/// The file a symbolic link points to (the path itself when it is not a link); a link to a
/// missing file is an error.
fn follow_link(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "{} is a symbolic link to a missing file ({e}); remove the link or \
                     create its target",
                    path.display()
                ),
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// Removes `.NAME.tmp-PID` files beside `path` left by processes that no longer exist.
fn remove_stale_temp_files(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && process_is_gone(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether no process `pid` exists (known on Linux only; elsewhere nothing is removed).
fn process_is_gone(pid: u32) -> bool {
    cfg!(target_os = "linux")
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
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

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tribolab-aw-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Regression: overwriting turned a 0600 file into 0644.
    #[cfg(unix)]
    #[test]
    fn overwriting_keeps_the_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("perm");
        let target = dir.join("secret.csv");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        write_string_atomically(&target, "new").unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Regression: a symbolic link was replaced by a regular file. It is followed: the file it
    /// points to gets the content, the link stays; a dangling link is refused.
    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_followed_and_dangling_ones_refused() {
        let dir = scratch("link");
        let real = dir.join("real.csv");
        let link = dir.join("link.csv");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_string_atomically(&link, "new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let dangling = dir.join("dangling.csv");
        std::os::unix::fs::symlink(dir.join("missing.csv"), &dangling).unwrap();
        let err = write_string_atomically(&dangling, "x").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(!dir.join("missing.csv").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A temporary file of a process that no longer exists is removed by the next write of
    /// the same file; one of a live process (ours, here under another name) is left alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn stale_temporaries_of_dead_processes_are_swept() {
        let dir = scratch("stale");
        let target = dir.join("run.csv");
        // PIDs above the kernel's maximum (4 194 304) cannot exist.
        let stale = dir.join(".run.csv.tmp-4999999");
        let live = dir.join(format!(".run.csv.tmp-{}", std::process::id()));
        let other = dir.join(".other.csv.tmp-4999999");
        for p in [&stale, &live, &other] {
            fs::write(p, "partial").unwrap();
        }
        write_string_atomically(&target, "done").unwrap();
        assert!(!stale.exists());
        assert!(
            other.exists(),
            "another file's temporary is not ours to judge"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "done");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pending_temporaries_are_removed_on_request() {
        let dir = scratch("pending");
        let target = dir.join("big.csv");
        let err = write_atomically(&target, |w| {
            w.write_all(b"partial")?;
            w.flush()?;
            // What a signal handler does mid-write (here for this test's folder only: the
            // other tests write in parallel).
            assert_eq!(remove_pending(|p| p.starts_with(&dir)), 1);
            Err(io::Error::other("interrupted"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
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
