//! A*+IDA*'s progress on disk, so that a search of hours survives being stopped: the bound of
//! the iteration under way, how many of its frontier boards are searched (a prefix of its
//! order), and the counts so far. A rerun with the same search redoes A* (deterministic: the
//! same board, tables, pruning and budget give the same frontier, which the file's fingerprint
//! checks), then goes on from the saved place. The progress is saved about once a minute, at
//! each new bound, and when a limit or the search's watch (`table solve`'s Ctrl-C) stops it; a
//! killed search loses what it did since its last save. A board being searched when the search
//! stopped is searched again from its start, so its nodes are counted once.
//!
//! The file is text, one `key value` line each, rewritten whole (through a temporary file
//! renamed over it) so that a crash leaves the last saved state, and ends with a checksum of the
//! lines before it, so that an edited file is refused rather than trusted (a bound changed by
//! hand would make a longer solution pass for optimal):
//!
//! ```text
//! # slidetable A*+IDA* checkpoint: rerun the same search to resume; delete it to start over
//! version 2
//! search board=... goal=... tables=... prune=16 order=estimate frontier=13421772:9f3c...
//! bound 95
//! done 120345
//! generated 3175858185
//! expanded 1460479043
//! next 97
//! iterations 3
//! seconds 392.021
//! check 5d0c2a0e9b7f3d11
//! ```
//!
//! Version 1 files, without the check line, are still read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::Error;

/// The format version this build writes (and the one before it, which it also reads).
const VERSION: u32 = 2;

/// The largest file read as a checkpoint (one is a few hundred bytes): a large file named by
/// mistake is refused, not read to its end (a device or a pipe is refused unread).
const MAX_BYTES: u64 = 1 << 16;

/// The largest `seconds` a checkpoint may hold (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// Where and how often A*+IDA* keeps its progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpointing {
    /// The checkpoint file: resumed from when it exists, removed when the search finds its
    /// solution.
    pub path: PathBuf,
    /// The least time between two saves (a save is also made at each new bound, and when a
    /// limit or the search's watch stops it).
    pub every: Duration,
}

impl Checkpointing {
    /// Saves to `path` about once a minute.
    pub fn new(path: impl Into<PathBuf>) -> Checkpointing {
        Checkpointing { path: path.into(), every: Duration::from_secs(60) }
    }
}

/// A checkpoint file taken by one search for as long as it runs: its name with a symbolic link
/// followed (to a file not there yet too, which is then made there), and a lock beside it,
/// `NAME.lock`, so that a second search given the same file is refused at once rather than each
/// overwriting the other's progress. The lock is the operating system's (an advisory `flock`),
/// let go when the process ends however it ends; the lock file is removed when the search ends
/// (one left by a killed search is taken over by the next). Taking it also shows, before A*'s
/// minutes, that the checkpoint's directory is there and writable.
#[derive(Debug)]
pub(super) struct Held {
    /// The checkpointing asked for, its path the file the progress is written to.
    pub at: Checkpointing,
    /// The lock file, and the lock (`None` on a file system without locks: then the search goes
    /// on unlocked).
    lock: PathBuf,
    locked: Option<std::fs::File>,
}

impl Held {
    /// Takes the checkpoint `asked.path`.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] when another search holds it or its directory is missing;
    /// [`Error::Io`] when its lock file cannot be made.
    pub fn take(asked: &Checkpointing) -> Result<Held, Error> {
        let path = asked.path.as_path();
        let refuse = |detail: String| Error::Checkpoint { path: path.to_path_buf(), detail };
        let target =
            crate::table::format::follow_link(path).map_err(|e| Error::io("reading the checkpoint", path, e))?;
        let dir = crate::table::format::parent_dir(&target);
        if !dir.is_dir() {
            return Err(refuse(format!(
                "its directory {} is not there: make it, or name a checkpoint in a directory that is",
                dir.display()
            )));
        }
        let mut name = target.clone().into_os_string();
        name.push(".lock");
        let lock = PathBuf::from(name);
        let at = Checkpointing { path: target, ..asked.clone() };
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock)
                .map_err(|e| Error::io("making the checkpoint's lock file", &lock, e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(refuse(format!(
                        "another search is using it now (it holds {}): let that one finish, or give this one \
                         another file",
                        lock.display()
                    )))
                }
                // a file system without locks: go on unlocked
                Err(std::fs::TryLockError::Error(_)) => {
                    let _ = std::fs::remove_file(&lock);
                    return Ok(Held { at, lock, locked: None });
                }
            }
            // the file locked must still be the one named: a search that ends removes its lock
            // file, and one opened just before that is no lock at all
            if same_file(&file, &lock) {
                return Ok(Held { at, lock, locked: Some(file) });
            }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // removed while still locked, so that no other search locks a file about to go
        if self.locked.is_some() {
            let _ = std::fs::remove_file(&self.lock);
        }
    }
}

/// Whether the open `file` is the file named `path`.
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The state of a search at a save.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Saved {
    /// What the search is (its board, goal, tables, pruning and A*'s frontier).
    pub fingerprint: String,
    /// The bound of the iteration under way.
    pub bound: u32,
    /// The frontier boards within the bound searched, in the iteration's order.
    pub done: usize,
    /// Nodes generated and expanded so far: A*, the earlier iterations and the boards done.
    pub generated: u64,
    pub expanded: u64,
    /// The least `f` past the bound met below the boards done (`u32::MAX`: none yet).
    pub next: u32,
    pub iterations: u64,
    /// The search's time so far, over every run up to its last save.
    pub seconds: f64,
}

impl Saved {
    /// The file's text.
    fn text(&self) -> String {
        let body = format!(
            "# slidetable A*+IDA* checkpoint: rerun the same search to resume; delete it to start over\n\
             version {VERSION}\nsearch {}\nbound {}\ndone {}\ngenerated {}\nexpanded {}\nnext {}\n\
             iterations {}\nseconds {:.3}\n",
            self.fingerprint,
            self.bound,
            self.done,
            self.generated,
            self.expanded,
            self.next,
            self.iterations,
            self.seconds
        );
        format!("{body}check {:016x}\n", fnv(body.bytes(), FNV_START))
    }

    /// Writes the state to `path` whole, or leaves the file as it was.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        crate::table::format::write_atomic(path, self.text().as_bytes())
    }

    /// The state saved in `path`, `None` when there is no such file.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] for a file that is not a checkpoint of this version or is damaged;
    /// [`Error::Io`] when it cannot be read.
    pub fn load(path: &Path) -> Result<Option<Saved>, Error> {
        let refuse = |detail: &str| Error::Checkpoint { path: path.to_path_buf(), detail: detail.into() };
        // what the path is, before it is opened: a pipe would block the open, a device never end
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("reading the checkpoint", path, e)),
            Ok(m) if !m.is_file() => return Err(refuse("it is not a regular file: name a file for the checkpoint")),
            Ok(_) => {}
        }
        // read up to one byte past the largest checkpoint, to see that it is larger
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_BYTES + 1), &mut bytes))
            .map_err(|e| Error::io("reading the checkpoint", path, e))?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(refuse("it is far too large to be a checkpoint: name another file, or delete this one"));
        }
        let bad = |why: String| Error::Checkpoint {
            path: path.to_path_buf(),
            detail: format!("{why}: the file is damaged; delete it to start the search over"),
        };
        let text = String::from_utf8_lossy(&bytes);
        // a file of the user's own, named by mistake, is not called damaged: it is left as it is
        if !text.trim().is_empty()
            && !text.starts_with("# slidetable")
            && !text.lines().any(|l| l.starts_with("version "))
        {
            return Err(refuse(
                "it is not a slidetable checkpoint (no `version` line), and it is left as it is: name another file for the checkpoint",
            ));
        }
        let mut fields = std::collections::HashMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(' ') else {
                return Err(bad(format!("line {} is not `key value`", n + 1)));
            };
            if fields.insert(key, value).is_some() {
                return Err(bad(format!("line {}: `{key}` given twice", n + 1)));
            }
        }
        let field = |key: &str| fields.get(key).copied().ok_or_else(|| bad(format!("no `{key}` line")));
        fn number<T: std::str::FromStr>(bad: &impl Fn(String) -> Error, key: &str, value: &str) -> Result<T, Error> {
            value.parse().map_err(|_| bad(format!("`{key}` is not a number: {value}")))
        }
        let version: u32 = number(&bad, "version", field("version")?)?;
        if version > VERSION {
            return Err(refuse(&format!(
                "it is a checkpoint of version {version}, from a newer slidetable (this one reads versions {} and {VERSION}): resume it with that one, or name another file",
                VERSION - 1
            )));
        }
        if version != VERSION && version != VERSION - 1 {
            return Err(bad(format!("version {version}, but this build reads versions {} and {VERSION}", VERSION - 1)));
        }
        // the checksum of the text before the check line (version 1 had none)
        if version == VERSION {
            let at = text.rfind("\ncheck ").ok_or_else(|| bad("no `check` line".into()))?;
            let sum = format!("{:016x}", fnv(text[..at + 1].bytes(), FNV_START));
            if text[at + 1..].trim_end() != format!("check {sum}") {
                return Err(bad("its checksum does not match: it was changed after it was saved".into()));
            }
        }
        let saved = Saved {
            fingerprint: field("search")?.to_string(),
            bound: number(&bad, "bound", field("bound")?)?,
            done: number(&bad, "done", field("done")?)?,
            generated: number(&bad, "generated", field("generated")?)?,
            expanded: number(&bad, "expanded", field("expanded")?)?,
            next: number(&bad, "next", field("next")?)?,
            iterations: number(&bad, "iterations", field("iterations")?)?,
            seconds: number(&bad, "seconds", field("seconds")?)?,
        };
        if !(0.0..=MAX_SECONDS).contains(&saved.seconds)
            || saved.expanded > saved.generated
            || saved.generated > u64::MAX / 4
            || saved.iterations > u32::MAX as u64
        {
            return Err(bad("its counts are inconsistent".into()));
        }
        Ok(Some(saved))
    }

    /// Whether this state was saved by the search `fingerprint` names.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] naming `path` when it was not.
    pub fn check(&self, path: &Path, fingerprint: &str) -> Result<(), Error> {
        if self.fingerprint != fingerprint {
            return Err(Error::Checkpoint {
                path: path.to_path_buf(),
                detail: "it is the checkpoint of another search (a different board, goal, tables, --prune, --order \
                         or --max-memory): rerun that search, or delete the file to start this one"
                    .into(),
            });
        }
        Ok(())
    }
}

/// A 64-bit FNV-1a hash, for fingerprints.
pub(super) fn fnv(bytes: impl IntoIterator<Item = u8>, mut hash: u64) -> u64 {
    for b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a's starting value.
pub(super) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Saved {
        Saved {
            fingerprint: "board=1,2,3 frontier=10:ab".into(),
            bound: 95,
            done: 12,
            generated: 1000,
            expanded: 400,
            next: u32::MAX,
            iterations: 3,
            seconds: 12.5,
        }
    }

    #[test]
    fn a_saved_state_reads_back_and_only_for_its_own_search() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.checkpoint");
        assert_eq!(Saved::load(&path).unwrap(), None);
        let saved = sample();
        saved.save(&path).unwrap();
        let read = Saved::load(&path).unwrap().unwrap();
        assert_eq!(read, saved);
        read.check(&path, &saved.fingerprint).unwrap();
        let other = read.check(&path, "board=3,2,1 frontier=10:ab").unwrap_err();
        assert!(matches!(other, Error::Checkpoint { .. }), "{other}");
        assert!(other.to_string().contains("another search"), "{other}");
        // a version 1 file (no check line) is still read
        let text = saved.text();
        let v1 = text[..text.find("check ").unwrap()].replace("version 2", "version 1");
        std::fs::write(&path, v1).unwrap();
        assert_eq!(Saved::load(&path).unwrap(), Some(saved));
    }

    /// [`Held::take`] of `path`.
    fn take(path: &Path) -> Result<Held, Error> {
        Held::take(&Checkpointing::new(path))
    }

    #[test]
    fn a_checkpoint_is_held_by_one_search_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.checkpoint");
        let lock = dir.path().join("run.checkpoint.lock");
        let first = take(&path).unwrap();
        assert_eq!(first.at.path, path);
        assert!(lock.exists());
        let err = take(&path).unwrap_err();
        assert!(matches!(err, Error::Checkpoint { .. }), "{err}");
        assert!(err.to_string().contains("another search is using it"), "{err}");
        assert!(!err.to_string().contains('\n'), "{err}");
        // another file in the same directory is free
        let other = take(&dir.path().join("other.checkpoint")).unwrap();
        drop(first);
        assert!(!lock.exists(), "the lock file goes with the search");
        let again = take(&path).unwrap();
        drop((again, other));
        // a lock file left by a killed search (unlocked) is taken over
        std::fs::write(&lock, b"").unwrap();
        drop(take(&path).unwrap());
        assert!(!lock.exists());
    }

    #[test]
    fn a_checkpoint_in_a_missing_directory_is_refused_before_the_search() {
        let dir = tempfile::tempdir().unwrap();
        let err = take(&dir.path().join("nowhere/run.checkpoint")).unwrap_err();
        assert!(matches!(err, Error::Checkpoint { .. }), "{err}");
        assert!(err.to_string().contains("is not there"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_names_the_file_written_even_before_it_is_there() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        let link = dir.path().join("run.checkpoint");
        std::os::unix::fs::symlink("elsewhere/real.checkpoint", &link).unwrap();
        let held = take(&link).unwrap();
        assert_eq!(held.at.path, dir.path().join("elsewhere/real.checkpoint"));
        assert!(dir.path().join("elsewhere/real.checkpoint.lock").exists());
        // a second search through the link or at the file itself is refused
        assert!(take(&link).is_err());
        assert!(take(&held.at.path).is_err());
        sample().save(&held.at.path).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(Saved::load(&link).unwrap(), Some(sample()));
        // saved again through the link (as on a resume): still a link, to the new state
        let later = Saved { done: 13, ..sample() };
        later.save(&link).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(Saved::load(&held.at.path).unwrap(), Some(later));
    }

    #[test]
    fn a_path_that_is_not_a_small_regular_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        // a directory
        let err = Saved::load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        // a large file
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        let err = Saved::load(&big).unwrap_err();
        assert!(err.to_string().contains("far too large"), "{err}");
        // a pipe, which would block the open (and a device, which would never end)
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let err = Saved::load(&fifo).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
            let err = Saved::load(Path::new("/dev/zero")).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.checkpoint");
        let good = sample().text();
        // the text before the check line, and that text signed again after an edit, so that
        // each check below is met on its own
        let body = &good[..good.find("check ").unwrap()];
        let sign = |body: String| format!("{body}check {:016x}\n", fnv(body.bytes(), FNV_START));
        let cases = [
            (sign(body.replace("done 12\n", "")), "no `done` line"),
            (sign(body.replace("done 12", "done twelve")), "not a number"),
            (sign(body.replace("version 2", "version 9")), "checkpoint of version 9, from a newer slidetable"),
            (sign(body.replace("version 2", "version 0")), "version 0, but this build reads"),
            (sign(body.replace("expanded 400", "expanded 4000")), "inconsistent"),
            (sign(body.replace("seconds 12.500", "seconds NaN")), "inconsistent"),
            (sign(body.replace("seconds 12.500", "seconds 1e20")), "inconsistent"),
            (sign(body.replace("generated 1000", "generated 18446744073709551615")), "inconsistent"),
            (format!("{good}bound 3\n"), "given twice"),
            (good.replace("bound 95", "bound95"), "not `key value`"),
            // a file of the user's, named by mistake: not called damaged, not to be deleted
            ("\u{0}\u{1}garbage".to_string(), "not a slidetable checkpoint"),
            ("1 2 3\n4 5 6\n".to_string(), "left as it is"),
            // with no header but a version line: a checkpoint's text, damaged
            ("version 2\nbound\n".to_string(), "not `key value`"),
            // an edit that leaves every number plausible (a lower bound would make a longer
            // solution pass for optimal)
            (good.replace("bound 95", "bound 70"), "checksum does not match"),
            (good.replace("done 12", "done 13"), "checksum does not match"),
            (body.to_string(), "no `check` line"),
        ];
        for (text, why) in cases {
            std::fs::write(&path, &text).unwrap();
            let err = Saved::load(&path).unwrap_err();
            assert!(matches!(err, Error::Checkpoint { .. }) && err.to_string().contains(why), "{why}: {err}");
            assert!(!err.to_string().contains('\n'), "{err}");
        }
    }
}
