//! Checks of the reading flags (delimiter, batch size, memory budget, declared groups). The
//! flags that change what is computed are the audit request's, checked by
//! `fair_audit::request::AuditRequest::check` for every front end.

use crate::cli::AuditArgs;
use crate::error::CliError;

/// The flags after checking.
#[derive(Debug, Clone)]
pub struct Checked {
    /// CSV delimiter byte.
    pub delimiter: u8,
    /// Memory budget of the score state, bytes.
    pub memory_budget: u64,
    /// `--groups`: (column, declared values).
    pub declared_groups: Vec<(String, Vec<String>)>,
}

fn invalid(flag: &'static str, value: impl ToString, expected: impl ToString) -> CliError {
    CliError::InvalidFlag {
        flag,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// Parses a size like `512MiB`, `4GiB`, `2GB`, `1000000` (bytes).
///
/// # Errors
/// [`CliError::InvalidFlag`] naming `--memory-budget`.
pub fn parse_size(text: &str) -> Result<u64, CliError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "kib" => 1024.0,
        "m" | "mb" => 1e6,
        "mib" => 1024.0 * 1024.0,
        "g" | "gb" => 1e9,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" => 1e12,
        "tib" => 1024.0_f64.powi(4),
        _ => {
            return Err(invalid(
                "--memory-budget",
                text,
                "a size such as 512MiB, 4GiB or 2000000000",
            ));
        }
    };
    match num.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok((v * factor) as u64),
        _ => Err(invalid(
            "--memory-budget",
            text,
            "a positive size such as 512MiB or 4GiB",
        )),
    }
}

/// A quarter of the machine's RAM (from /proc/meminfo), or 4 GiB when unknown.
pub fn default_budget() -> u64 {
    let fallback = 4 << 30;
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(fallback, |kb| kb * 1024 / 4)
}

impl Checked {
    /// Checks the reading flags of `args`.
    ///
    /// # Errors
    /// [`CliError::InvalidFlag`] naming the flag and what it expects.
    pub fn from_args(a: &AuditArgs) -> Result<Self, CliError> {
        if a.batch_rows == 0 {
            return Err(invalid("--batch-rows", 0, "at least 1"));
        }
        let delimiter = match a.delimiter.as_str() {
            "\\t" | "\t" | "tab" => b'\t',
            d if d.len() == 1 => d.as_bytes()[0],
            d => {
                return Err(invalid(
                    "--delimiter",
                    d,
                    "one ASCII character, or \\t for tab",
                ));
            }
        };
        let memory_budget = match &a.memory_budget {
            Some(s) => parse_size(s)?,
            None => default_budget(),
        };
        let mut declared_groups = Vec::new();
        for g in &a.groups {
            let Some((column, values)) = g.split_once('=') else {
                return Err(invalid(
                    "--groups",
                    g,
                    "COLUMN=V1,V2,... e.g. sex=female,male",
                ));
            };
            if !a.sensitive.iter().any(|s| s == column.trim()) {
                return Err(invalid(
                    "--groups",
                    g,
                    format!("a column given to --sensitive ({})", a.sensitive.join(", ")),
                ));
            }
            let values: Vec<String> = values
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            if values.is_empty() {
                return Err(invalid("--groups", g, "at least one value after '='"));
            }
            declared_groups.push((column.trim().to_string(), values));
        }
        Ok(Self {
            delimiter,
            memory_budget,
            declared_groups,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_size("2GB").unwrap(), 2_000_000_000);
        assert_eq!(parse_size("1.5 GiB").unwrap(), 3 << 29);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1GB").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("3 parsecs").is_err());
    }
}
