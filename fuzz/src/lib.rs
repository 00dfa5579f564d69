//! Shared helpers of the fuzz targets: the `fairkit audit` input layer from the CLI's library
//! (`fairkit_cli`, the same code the command runs), and a scratch file.

#![allow(dead_code, missing_docs, clippy::all)]

pub use fairkit_cli::{error, fail_if, guard, input};

use std::path::PathBuf;

/// A scratch file private to this process (in /dev/shm when present: no disk writes).
pub fn scratch(ext: &str) -> PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("fairkit-fuzz-{}.{ext}", std::process::id()))
}

/// Reads every batch of `file`, checking what the audit relies on: labels and predictions 0/1,
/// scores finite, weights finite and `>= 0`, group codes inside their dictionary, batches no
/// larger than asked. Returns the rows read, or the error text.
pub fn read_all(
    file: &std::path::Path,
    spec: &input::ColumnSpec,
    options: &input::ReadOptions,
) -> Result<u64, String> {
    let mut reader = input::Reader::open(file, spec, options).map_err(|e| e.to_string())?;
    let mut rows = 0u64;
    loop {
        let batch = match reader.next_batch() {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.is_empty());
                return Err(msg);
            }
        };
        assert!(
            batch.len() <= options.batch_rows.max(1),
            "batch larger than --batch-rows"
        );
        assert_eq!(batch.first_row, rows);
        assert!(batch.labels.iter().all(|&y| y <= 1));
        if let Some(p) = &batch.preds {
            assert_eq!(p.len(), batch.len());
            assert!(p.iter().all(|&y| y <= 1));
        }
        if let Some(s) = &batch.scores {
            assert_eq!(s.len(), batch.len());
            assert!(s.iter().all(|v| v.is_finite()));
        }
        if let Some(w) = &batch.weights {
            assert_eq!(w.len(), batch.len());
            assert!(w.iter().all(|v| v.is_finite() && *v >= 0.0));
        }
        assert_eq!(batch.sensitive.len(), spec.sensitive.len());
        for (codes, dict) in batch.sensitive.iter().zip(reader.decoder().groups()) {
            assert_eq!(codes.len(), batch.len());
            assert!(codes.iter().all(|&c| (c as usize) < dict.names().len()));
        }
        assert_eq!(batch.finest.len(), batch.len());
        let finest = reader.decoder().finest_names().len();
        assert!(batch.finest.iter().all(|&c| c < finest));
        rows += batch.len() as u64;
        assert_eq!(reader.rows(), rows);
    }
    Ok(rows)
}
