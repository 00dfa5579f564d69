//! The paths on the command line made into the files to read, in order: a file is itself; a
//! folder is its part files as Spark, pandas and Dask write them (`part-00000-….snappy.parquet`
//! beside `_SUCCESS`, `.part-….crc`, `_common_metadata`); a pattern with `*` or `?` (quoted, so
//! the shell leaves it alone) is every file or folder it matches.
//!
//! Names starting with `_` or `.` are skipped: they are the writers' markers, checksums and
//! metadata summaries, never rows. Each folder's and pattern's files are taken in sorted path
//! order so row numbers in messages (and the order of first appearance of groups) do not depend
//! on the file system's listing order.

use crate::error::InputError;
use std::path::{Component, Path, PathBuf};

/// The files to read for `paths`, in order.
///
/// # Errors
/// [`InputError::NoParts`] for a folder or pattern with no file to read, a folder holding a
/// sub-folder (a partitioned dataset) and an unreadable folder.
pub(super) fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(folder(path)?);
        } else if !path.exists() && is_pattern(path) {
            let mut matched = Vec::new();
            for m in glob(path)? {
                if m.is_dir() {
                    matched.extend(folder(&m)?);
                } else {
                    matched.push(m);
                }
            }
            if matched.is_empty() {
                return Err(no_parts(path, "nothing matches the pattern"));
            }
            files.extend(matched);
        } else {
            // A missing plain path is reported when it is opened, as for one file.
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn no_parts(path: &Path, why: &str) -> InputError {
    InputError::NoParts {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

/// Whether a name is a writer's marker, checksum or summary rather than a part.
fn skipped(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

fn is_pattern(path: &Path) -> bool {
    path.to_str().is_some_and(|s| s.contains(['*', '?']))
}

/// The sorted names in `dir` (not skipped), with whether each is a folder.
fn listing(dir: &Path) -> Result<Vec<(String, bool)>, InputError> {
    let shown = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let io = |source| InputError::Io {
        file: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(shown).map_err(io)? {
        let entry = entry.map_err(io)?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if !skipped(&name) {
            // Follows symbolic links, like the open that reads the file.
            out.push((name, entry.path().is_dir()));
        }
    }
    out.sort();
    Ok(out)
}

/// The part files of a folder, sorted.
fn folder(dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let mut parts = Vec::new();
    for (name, is_dir) in listing(dir)? {
        if is_dir {
            return Err(no_parts(
                &dir.join(&name),
                "a folder inside the input folder (a partitioned dataset?) is not read; \
                 pass its files with a pattern such as 'DIR/*/*.parquet' (values encoded in \
                 folder names, col=value, are not columns)",
            ));
        }
        parts.push(dir.join(name));
    }
    if parts.is_empty() {
        return Err(no_parts(
            dir,
            "the folder holds no part files (names starting with _ or . are skipped)",
        ));
    }
    Ok(parts)
}

/// The files and folders matching `pattern`, sorted. `*` is any run of characters and `?` one
/// character, within one path component; components without them are taken literally.
fn glob(pattern: &Path) -> Result<Vec<PathBuf>, InputError> {
    let mut found = vec![PathBuf::new()];
    let components: Vec<Component> = pattern.components().collect();
    for (i, c) in components.iter().enumerate() {
        let wild = match c {
            Component::Normal(s) => s.to_str().filter(|s| s.contains(['*', '?'])),
            _ => None,
        };
        let Some(wild) = wild else {
            found.iter_mut().for_each(|f| f.push(c));
            continue;
        };
        let last = i + 1 == components.len();
        let mut next = Vec::new();
        for dir in &found {
            if !(dir.as_os_str().is_empty() || dir.is_dir()) {
                continue;
            }
            for (name, is_dir) in listing(dir)? {
                if (last || is_dir) && matches(wild.as_bytes(), name.as_bytes()) {
                    next.push(dir.join(name));
                }
            }
        }
        found = next;
    }
    found.retain(|f| f.exists());
    found.sort();
    Ok(found)
}

/// Whether `name` matches the pattern (`*` any run of bytes, `?` one character).
fn matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|k| matches(rest, &name[k..])),
        Some((b'?', rest)) => {
            // One whole UTF-8 character: a lead byte and its continuation bytes.
            let len = name.first().map_or(0, |&b| match b {
                0xf0.. => 4,
                0xe0.. => 3,
                0xc0.. => 2,
                _ => 1,
            });
            len > 0 && len <= name.len() && matches(rest, &name[len..])
        }
        Some((p, rest)) => name.first() == Some(p) && matches(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::{expand, matches};
    use std::path::PathBuf;

    #[test]
    fn wildcards_match_within_a_name() {
        assert!(matches(b"*.parquet", b"part-0.snappy.parquet"));
        assert!(matches(b"part-?.csv", b"part-1.csv"));
        assert!(matches(b"part-?.csv", "part-é.csv".as_bytes()));
        assert!(!matches(b"part-?.csv", b"part-10.csv"));
        assert!(!matches(b"*.parquet", b"a.parquet.crc"));
        assert!(matches(b"*", b""));
    }

    #[test]
    fn folders_skip_markers_and_sort() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "part-1.parquet",
            "_SUCCESS",
            ".part-1.parquet.crc",
            "part-0.parquet",
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let got = expand(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> = got.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["part-0.parquet", "part-1.parquet"]);
        let pattern = dir.path().join("*.parquet");
        assert_eq!(expand(&[pattern]).unwrap(), got);
        let none = dir.path().join("*.csv");
        let e = expand(&[none]).unwrap_err().to_string();
        assert!(e.contains("*.csv") && e.contains("nothing matches"), "{e}");
        let missing = PathBuf::from("no/such/file.csv");
        assert_eq!(expand(std::slice::from_ref(&missing)).unwrap(), [missing]);
    }
}
