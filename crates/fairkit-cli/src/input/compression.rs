//! Compressed CSV (`.csv.gz`, `.csv.zst`, `.tsv.gz`, …): the file is decompressed as a stream
//! under the CSV parser, so memory stays one batch whatever the file size.
//!
//! The codec comes from the extension and is checked against the stream's magic bytes (a `.gz`
//! that is not gzip is an error, not garbage parsed as CSV); a file whose extension names no codec
//! is still decompressed when its magic bytes are gzip's or zstd's, so `--input-format csv` works
//! on a compressed file of any name (no UTF-8 text starts with either magic).

use crate::error::InputError;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A stream compression of a text file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    /// gzip (RFC 1952), several members allowed (bgzip, `cat a.gz b.gz`).
    Gzip,
    /// Zstandard, several frames allowed.
    Zstd,
}

impl Codec {
    fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
        }
    }

    fn magic(self) -> &'static [u8] {
        match self {
            Codec::Gzip => &[0x1f, 0x8b],
            Codec::Zstd => &[0x28, 0xb5, 0x2f, 0xfd],
        }
    }

    /// The codec a file's last extension names (`.gz`, `.gzip`, `.zst`, `.zstd`).
    pub(crate) fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gz" | "gzip" => Some(Codec::Gzip),
            "zst" | "zstd" => Some(Codec::Zstd),
            _ => None,
        }
    }

    fn sniff(head: &[u8]) -> Option<Self> {
        [Codec::Gzip, Codec::Zstd]
            .into_iter()
            .find(|c| head.starts_with(c.magic()))
    }
}

/// A decompression failure (truncated or corrupt stream), carried inside the `io::Error` the
/// CSV parser returns so the reader can tell it from a failing disk.
#[derive(Debug)]
pub(crate) struct Corrupt {
    pub(crate) codec: &'static str,
    pub(crate) message: String,
}

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} stream: {}", self.codec, self.message)
    }
}

impl std::error::Error for Corrupt {}

/// The typed error of a decompression failure inside `e`, if it is one.
pub(crate) fn corrupt(file: &Path, e: &io::Error) -> Option<InputError> {
    let c = e.get_ref()?.downcast_ref::<Corrupt>()?;
    Some(InputError::Decompress {
        file: file.to_path_buf(),
        codec: c.codec,
        message: c.message.clone(),
    })
}

/// An error of the file itself, marked so that [`Decompressed`] passes it on unchanged.
#[derive(Debug)]
struct FileError(io::Error);

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for FileError {}

/// The file's bytes, counted as they are read (the progress of a compressed file is its
/// compressed bytes read: the decompressed size is unknown until the end).
struct Counted {
    file: File,
    read: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.file.read(buf) {
            Ok(n) => {
                self.read.fetch_add(n as u64, Ordering::Relaxed);
                Ok(n)
            }
            Err(e) => Err(io::Error::new(e.kind(), FileError(e))),
        }
    }
}

/// The text of the file: decoder errors become [`Corrupt`], the file's own errors pass as they are.
struct Decompressed {
    inner: Box<dyn Read + Send>,
    codec: Option<Codec>,
}

impl Read for Decompressed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.get_ref().is_some_and(|i| i.is::<FileError>()) {
                let kind = e.kind();
                return match e.into_inner().map(|i| i.downcast::<FileError>()) {
                    Some(Ok(f)) => f.0,
                    _ => io::Error::from(kind),
                };
            }
            match self.codec {
                None => e,
                Some(c) => io::Error::new(
                    io::ErrorKind::InvalidData,
                    Corrupt {
                        codec: c.name(),
                        message: e.to_string(),
                    },
                ),
            }
        })
    }
}

/// A text file opened for reading, decompressed if it is compressed.
pub(super) struct Opened {
    /// The (decompressed) text.
    pub(super) reader: Box<dyn Read + Send>,
    /// Bytes of the file read so far.
    pub(super) read: Arc<AtomicU64>,
}

fn io_error(file: &Path) -> impl Fn(io::Error) -> InputError + '_ {
    |source| InputError::Io {
        file: file.to_path_buf(),
        source,
    }
}

/// Opens `file` as text: plain, or decompressed by the codec of its extension or magic bytes.
///
/// # Errors
/// [`InputError::Io`] when the file cannot be read, [`InputError::Decompress`] when its extension
/// names a codec its first bytes are not.
pub(super) fn open(file: &Path) -> Result<Opened, InputError> {
    let mut f = File::open(file).map_err(io_error(file))?;
    let mut head = Vec::with_capacity(4);
    (&mut f)
        .take(4)
        .read_to_end(&mut head)
        .map_err(io_error(file))?;
    f.seek(SeekFrom::Start(0)).map_err(io_error(file))?;
    let sniffed = Codec::sniff(&head);
    let codec = match Codec::from_extension(file) {
        Some(named) if sniffed != Some(named) => {
            let hex: Vec<String> = named.magic().iter().map(|b| format!("{b:02x}")).collect();
            return Err(InputError::Decompress {
                file: file.to_path_buf(),
                codec: named.name(),
                message: format!(
                    "the file does not start with the {} magic bytes {}",
                    named.name(),
                    hex.join(" ")
                ),
            });
        }
        named => named.or(sniffed),
    };
    let read = Arc::new(AtomicU64::new(0));
    let counted = Counted {
        file: f,
        read: read.clone(),
    };
    // The CSV reader buffers the text; only the decoders need a buffer under them.
    let inner: Box<dyn Read + Send> = match codec {
        None => Box::new(counted),
        Some(Codec::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(
            BufReader::with_capacity(1 << 16, counted),
        )),
        Some(Codec::Zstd) => Box::new(
            zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(1 << 16, counted))
                .map_err(|e| InputError::Decompress {
                    file: file.to_path_buf(),
                    codec: "zstd",
                    message: e.to_string(),
                })?,
        ),
    };
    Ok(Opened {
        reader: Box::new(Decompressed { inner, codec }),
        read,
    })
}

#[cfg(test)]
mod tests {
    use super::Codec;
    use std::path::Path;

    #[test]
    fn codecs_are_told_by_extension_and_magic() {
        assert_eq!(
            Codec::from_extension(Path::new("a.csv.GZ")),
            Some(Codec::Gzip)
        );
        assert_eq!(
            Codec::from_extension(Path::new("a.tsv.zst")),
            Some(Codec::Zstd)
        );
        assert_eq!(Codec::from_extension(Path::new("a.csv")), None);
        assert_eq!(Codec::sniff(&[0x1f, 0x8b, 8, 0]), Some(Codec::Gzip));
        assert_eq!(Codec::sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Some(Codec::Zstd));
        assert_eq!(Codec::sniff(b"y,p\n"), None);
        assert_eq!(Codec::sniff(&[0x1f]), None);
    }
}
