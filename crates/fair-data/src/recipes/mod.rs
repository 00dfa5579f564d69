//! Recipes: each embedded dataset encoded the way the papers encode it.

mod adult;
mod compas;
mod compas_tfco;
mod credit;
mod law_crime;

pub use adult::{ADULT_TRAIN_ROWS, adult_a9a, adult_fair_projection, adult_tfco};
pub use compas::{COMPAS_RAW_ROWS, compas_fair_projection, compas_propublica};
pub use compas_tfco::compas_tfco;
pub use credit::{default_credit, default_credit_23, german_credit};
pub use law_crime::{communities_crime, law_school, law_school_zfya_classes};

use crate::embedded::{EmbeddedFile, csv_rows, malformed};
use crate::error::{DataError, Result};
use std::collections::HashMap;

/// An embedded CSV held as strings, addressed by column name (first occurrence wins: the COMPAS
/// file repeats `decile_score` and `priors_count` with equal values).
pub(crate) struct Table {
    file: &'static EmbeddedFile,
    index: HashMap<String, usize>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn from_embedded(file: &'static EmbeddedFile) -> Result<Self> {
        let (header, rows) = csv_rows(file)?;
        let mut index = HashMap::new();
        for (i, h) in header.into_iter().enumerate() {
            index.entry(h).or_insert(i);
        }
        Ok(Self { file, index, rows })
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    pub(crate) fn columns(&self) -> Vec<(&str, usize)> {
        let mut v: Vec<_> = self.index.iter().map(|(k, &i)| (k.as_str(), i)).collect();
        v.sort_by_key(|&(_, i)| i);
        v
    }

    pub(crate) fn cell(&self, row: usize, column: &str) -> Result<&str> {
        let j = *self
            .index
            .get(column)
            .ok_or_else(|| DataError::MissingColumn {
                name: column.to_string(),
                available: format!("the columns of {}", self.file.name),
            })?;
        self.rows[row]
            .get(j)
            .map(String::as_str)
            .ok_or_else(|| malformed(self.file, row + 2, format!("no field {column}")))
    }

    pub(crate) fn num(&self, row: usize, column: &str) -> Result<f64> {
        let s = self.cell(row, column)?;
        s.parse().map_err(|_| {
            malformed(
                self.file,
                row + 2,
                format!("{column} = {s:?} is not a number"),
            )
        })
    }

    /// A 0/1 indicator cell (one-hot columns, binary labels) as a bool.
    pub(crate) fn flag(&self, row: usize, column: &str) -> Result<bool> {
        Ok(self.num(row, column)? > 0.5)
    }

    pub(crate) fn flags(&self, rows: &[usize], column: &str) -> Result<Vec<bool>> {
        rows.iter().map(|&r| self.flag(r, column)).collect()
    }

    pub(crate) fn nums(&self, rows: &[usize], column: &str) -> Result<Vec<f64>> {
        rows.iter().map(|&r| self.num(r, column)).collect()
    }

    pub(crate) fn strs(&self, rows: &[usize], column: &str) -> Result<Vec<String>> {
        rows.iter()
            .map(|&r| self.cell(r, column).map(str::to_string))
            .collect()
    }
}
