//! Loading a user's CSV with a named label column and named sensitive columns.

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::encode::ColumnBuilder;
use crate::error::{DataError, Result};
use fair_core::Groups;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

/// Which columns of a CSV play which role.
///
/// * the label column may hold any text; classes are its distinct values in sorted order (so
///   `0`/`1` map to classes 0/1);
/// * sensitive columns may hold any text; groups are their distinct values in sorted order; they
///   are kept out of the features unless [`CsvSpec::keep_sensitive_in_features`] is set (then they
///   must be numeric);
/// * every other column, minus [`CsvSpec::ignore`]d ones, must be numeric.
///
/// # Examples
/// ```
/// use fair_data::CsvSpec;
/// let text = "age,sex,label\n30,F,1\n41,M,0\n";
/// let ds = CsvSpec::new("label", &["sex"]).read(text.as_bytes())?;
/// assert_eq!(ds.feature_names(), &["age"]);
/// assert_eq!(ds.y(), &[1, 0]);
/// # Ok::<(), fair_data::DataError>(())
/// ```
///
/// # Errors
/// [`DataError::Empty`] for a file without header or rows, [`DataError::MissingColumn`] for a named
/// column that is absent, [`DataError::RaggedRow`] for a row with the wrong number of fields,
/// [`DataError::NonNumeric`] (with line and column) for text in a feature column,
/// [`DataError::NonFinite`] for `NaN`/`inf` features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvSpec {
    label: String,
    sensitive: Vec<String>,
    ignore: Vec<String>,
    keep_sensitive: bool,
    delimiter: u8,
}

impl CsvSpec {
    /// Label column and sensitive columns; comma-delimited.
    pub fn new(label: &str, sensitive: &[&str]) -> Self {
        Self {
            label: label.to_string(),
            sensitive: sensitive.iter().map(|s| s.to_string()).collect(),
            ignore: Vec::new(),
            keep_sensitive: false,
            delimiter: b',',
        }
    }
    /// Columns to skip entirely (ids, free text).
    pub fn ignore(mut self, columns: &[&str]) -> Self {
        self.ignore = columns.iter().map(|s| s.to_string()).collect();
        self
    }
    /// Also use the (numeric) sensitive columns as features.
    pub fn keep_sensitive_in_features(mut self, keep: bool) -> Self {
        self.keep_sensitive = keep;
        self
    }
    /// Field delimiter (default `b','`).
    pub fn delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }

    /// Reads a CSV file.
    ///
    /// # Errors
    /// As [`CsvSpec`], plus [`DataError::Csv`] when the file cannot be opened.
    pub fn load(&self, path: impl AsRef<Path>) -> Result<Dataset> {
        let path = path.as_ref();
        let file = std::fs::File::open(path)
            .map_err(|e| DataError::Csv(format!("cannot open {}: {e}", path.display())))?;
        let mut ds = self.read(file)?;
        if let Some(stem) = path.file_stem() {
            ds = ds.renamed(stem.to_string_lossy().into_owned());
        }
        Ok(ds)
    }

    /// Reads CSV text from any reader.
    ///
    /// # Errors
    /// As [`CsvSpec`].
    pub fn read(&self, reader: impl Read) -> Result<Dataset> {
        let mut rdr = csv::ReaderBuilder::new()
            .delimiter(self.delimiter)
            .flexible(true)
            .from_reader(reader);
        let header: Vec<String> = rdr
            .headers()
            .map_err(|e| DataError::Csv(e.to_string()))?
            .iter()
            .map(|h| h.trim().to_string())
            .collect();
        if header.iter().all(String::is_empty) {
            return Err(DataError::Empty { what: "CSV header" });
        }
        let find = |name: &str| -> Result<usize> {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| DataError::MissingColumn {
                    name: name.to_string(),
                    available: header.join(", "),
                })
        };
        let label_idx = find(&self.label)?;
        let sens_idx = self
            .sensitive
            .iter()
            .map(|s| find(s))
            .collect::<Result<Vec<_>>>()?;
        for i in &self.ignore {
            find(i)?;
        }
        let feature_idx: Vec<usize> = (0..header.len())
            .filter(|&j| {
                j != label_idx
                    && !self.ignore.contains(&header[j])
                    && (self.keep_sensitive || !sens_idx.contains(&j))
            })
            .collect();

        let mut cells: Vec<Vec<String>> = Vec::new();
        for (k, rec) in rdr.records().enumerate() {
            let line = k + 2;
            let rec = rec.map_err(|e| DataError::Csv(format!("line {line}: {e}")))?;
            if rec.len() == 1 && rec[0].trim().is_empty() {
                continue; // blank line
            }
            if rec.len() != header.len() {
                return Err(DataError::RaggedRow {
                    line,
                    expected: header.len(),
                    got: rec.len(),
                });
            }
            cells.push(rec.iter().map(|c| c.trim().to_string()).collect());
        }
        if cells.is_empty() {
            return Err(DataError::Empty { what: "CSV rows" });
        }
        let mut b = ColumnBuilder::default();
        for &j in &feature_idx {
            let mut col = Vec::with_capacity(cells.len());
            for (k, row) in cells.iter().enumerate() {
                let v: f64 = row[j].parse().map_err(|_| DataError::NonNumeric {
                    line: k + 2,
                    column: header[j].clone(),
                    value: row[j].clone(),
                })?;
                if !v.is_finite() {
                    return Err(DataError::NonFinite {
                        what: "CSV feature",
                        row: k,
                        value: v,
                    });
                }
                col.push(v);
            }
            b.push(header[j].clone(), col);
        }
        let (x, names) = b.build(cells.len());
        let labels: Vec<&str> = cells.iter().map(|r| r[label_idx].as_str()).collect();
        let classes: Vec<String> = labels
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(String::from)
            .collect();
        let y = labels
            .iter()
            .map(|l| classes.binary_search_by(|c| c.as_str().cmp(l)).unwrap_or(0))
            .collect();
        let classes = if classes.len() == 1 {
            return Err(DataError::InvalidParameter {
                name: "label column",
                value: format!("{:?} (a single class)", classes[0]),
                expected: "at least two distinct label values",
            });
        } else {
            classes
        };
        let sensitive = sens_idx
            .iter()
            .map(|&j| SensitiveAttribute {
                name: header[j].clone(),
                groups: Groups::from_labels(
                    &cells.iter().map(|r| r[j].as_str()).collect::<Vec<_>>(),
                ),
            })
            .collect();
        Dataset::new("csv", x, names, y, classes, sensitive)
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn spec() -> CsvSpec {
        CsvSpec::new("y", &["g"])
    }

    #[test]
    fn reads_valid_file() {
        let ds = spec()
            .read("a,g,y\n1.5,x,no\n2,y,yes\n\n".as_bytes())
            .unwrap();
        assert_eq!(ds.class_names(), &["no", "yes"]);
        assert_eq!(ds.x()[(1, 0)], 2.0);
        assert_eq!(ds.groups("g").unwrap().names(), &["x", "y"]);
    }

    #[test]
    fn missing_column() {
        let err = CsvSpec::new("label", &[])
            .read("a,b\n1,2\n".as_bytes())
            .unwrap_err();
        assert!(matches!(err, DataError::MissingColumn { ref name, .. } if name == "label"));
    }

    #[test]
    fn non_numeric_reports_line_and_column() {
        let err = spec()
            .read("a,g,y\n1,x,0\nabc,x,1\n".as_bytes())
            .unwrap_err();
        assert_eq!(
            err,
            DataError::NonNumeric {
                line: 3,
                column: "a".into(),
                value: "abc".into()
            }
        );
    }

    #[test]
    fn ragged_row() {
        let err = spec().read("a,g,y\n1,x,0\n2,x\n".as_bytes()).unwrap_err();
        assert_eq!(
            err,
            DataError::RaggedRow {
                line: 3,
                expected: 3,
                got: 2
            }
        );
    }

    #[test]
    fn empty_inputs() {
        assert!(matches!(
            spec().read("".as_bytes()),
            Err(DataError::Empty { .. })
        ));
        assert!(matches!(
            spec().read("a,g,y\n".as_bytes()),
            Err(DataError::Empty { .. })
        ));
    }

    #[test]
    fn nan_feature_and_single_class() {
        assert!(matches!(
            spec().read("a,g,y\nNaN,x,0\n1,x,1\n".as_bytes()),
            Err(DataError::NonFinite { .. })
        ));
        assert!(spec().read("a,g,y\n1,x,0\n2,x,0\n".as_bytes()).is_err());
    }
}
