//! The real datasets, compiled into the binary as gzip files and checked against the published
//! sha256 of the original files on every load.

use crate::error::{DataError, Result};
use flate2::read::GzDecoder;
use sha2::{Digest, Sha256};
use std::io::Read;

/// One embedded file: the gzip bytes and the sha256 of the original (uncompressed) file, as
/// published in `crates/fair-data/DATA.md`.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedFile {
    /// File name of the original.
    pub name: &'static str,
    gz: &'static [u8],
    /// Hex sha256 of the uncompressed original.
    pub sha256: &'static str,
}

macro_rules! embedded {
    ($ident:ident, $file:literal, $sha:literal) => {
        pub(crate) const $ident: EmbeddedFile = EmbeddedFile {
            name: $file,
            gz: include_bytes!(concat!("../data/", $file, ".gz")),
            sha256: $sha,
        };
    };
}

embedded!(
    ADULT_DATA,
    "adult.data",
    "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
);
embedded!(
    ADULT_TEST,
    "adult.test",
    "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05"
);
embedded!(
    COMPAS,
    "compas-scores-two-years.csv",
    "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d"
);
embedded!(
    GERMAN,
    "german.data",
    "b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871"
);
embedded!(
    DEFAULT_CREDIT,
    "default_credit_taiwan.csv",
    "af36211f57585cff1a7a788ef3e0d52aecfac301893acaa7373d7f7d72a7f9d5"
);
embedded!(
    CRIME,
    "communities_crime.csv",
    "46fb352dbc64730825fa83ba7bebf2d2e86c571fff23099c22c61d1f8bf0942f"
);
embedded!(
    LAW,
    "law_school.csv",
    "fe9fccba0d2a7bd3401b1f2cf989783eb580f062ec684cb6ee51aba5304bea0d"
);

/// Every embedded file, for audits and checksum tests.
pub const EMBEDDED_FILES: [EmbeddedFile; 7] = [
    ADULT_DATA,
    ADULT_TEST,
    COMPAS,
    GERMAN,
    DEFAULT_CREDIT,
    CRIME,
    LAW,
];

impl EmbeddedFile {
    /// Decompresses the file and checks its sha256 against the published digest.
    ///
    /// # Errors
    /// [`DataError::Checksum`] when the digest differs, [`DataError::Malformed`] when the bytes are
    /// not gzip or not UTF-8.
    pub fn text(&self) -> Result<String> {
        let mut bytes = Vec::with_capacity(self.gz.len() * 6);
        GzDecoder::new(self.gz)
            .read_to_end(&mut bytes)
            .map_err(|e| DataError::Malformed {
                file: self.name,
                line: 0,
                reason: format!("gzip: {e}"),
            })?;
        let got: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if got != self.sha256 {
            return Err(DataError::Checksum {
                file: self.name,
                expected: self.sha256,
                got,
            });
        }
        String::from_utf8(bytes).map_err(|e| DataError::Malformed {
            file: self.name,
            line: 0,
            reason: format!("not UTF-8: {e}"),
        })
    }
}

/// Parses an embedded CSV with a header into (header, rows of string cells).
pub(crate) fn csv_rows(file: &EmbeddedFile) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    let text = file.text()?;
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| malformed(file, 1, e.to_string()))?
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| malformed(file, i + 2, e.to_string()))?;
        rows.push(rec.iter().map(str::to_string).collect());
    }
    Ok((header, rows))
}

pub(crate) fn malformed(file: &EmbeddedFile, line: usize, reason: impl Into<String>) -> DataError {
    DataError::Malformed {
        file: file.name,
        line,
        reason: reason.into(),
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_matches_its_published_checksum() {
        for f in EMBEDDED_FILES {
            assert!(f.text().is_ok(), "{} failed its checksum", f.name);
        }
    }
}
