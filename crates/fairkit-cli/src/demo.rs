//! `fairkit demo-data`: a seeded synthetic predictions file with real, known group gaps.
//!
//! Columns: `y` (0/1 label), `y_hat` (0/1 prediction = `p >= 0.5`), `p` (score in (0, 1)),
//! `race` (six groups, unequal sizes), `sex` (two groups), `w` (weight in [0.5, 2)), `day` (the
//! rows spread evenly, in order, over the 365 days of 2026: a date in Parquet, `YYYY-MM-DD` in
//! CSV; for `fairkit audit --by day`; derived from the row number, so the other columns of a seed
//! do not depend on it). The label's
//! base rate and the score's shift depend on the groups, so selection rates, TPRs and score
//! distributions differ by group and an audit finds gaps. Rows are generated and written
//! 65,536 at a time: memory does not grow with `--rows`.

use crate::cli::{Compression, DemoArgs};
use crate::error::CliError;
use crate::input::Format;
use arrow_array::{ArrayRef, Date32Array, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use std::fs::File;
use std::io::BufWriter;
use std::sync::Arc;

/// Race groups, their population shares and their score shifts (logit scale).
const RACES: [(&str, f64, f64); 6] = [
    ("white", 0.55, 0.25),
    ("black", 0.15, -0.45),
    ("hispanic", 0.15, -0.2),
    ("asian", 0.08, 0.35),
    ("native", 0.04, -0.6),
    ("other", 0.03, 0.0),
];
/// Sex groups, shares and shifts.
const SEXES: [(&str, f64, f64); 2] = [("female", 0.5, -0.2), ("male", 0.5, 0.2)];

const CHUNK: usize = 65_536;

/// One generated chunk, column by column.
#[derive(Debug, Default)]
struct Chunk {
    y: Vec<i64>,
    y_hat: Vec<i64>,
    p: Vec<f64>,
    race: Vec<&'static str>,
    sex: Vec<&'static str>,
    w: Vec<f64>,
    /// Days since 1970-01-01.
    day: Vec<i32>,
}

/// 2026-01-01 in days since 1970-01-01: the first day of the `day` column.
const FIRST_DAY: i32 = 20_454;

/// The day of row `row` of `rows`: the rows spread evenly over 365 days, in order.
fn day_of(row: u64, rows: u64) -> i32 {
    FIRST_DAY + (u128::from(row) * 365 / u128::from(rows.max(1))) as i32
}

fn pick<const N: usize>(table: &[(&'static str, f64, f64); N], u: f64) -> (&'static str, f64) {
    let mut acc = 0.0;
    for &(name, share, shift) in table {
        acc += share;
        if u < acc {
            return (name, shift);
        }
    }
    let (name, _, shift) = table[N - 1];
    (name, shift)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The seeded row generator.
struct Generator {
    rng: ChaCha8Rng,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The next `n` rows, the first of them row `first` of `rows`.
    fn chunk(&mut self, n: usize, first: u64, rows: u64) -> Chunk {
        let mut c = Chunk::default();
        for k in 0..n {
            c.day.push(day_of(first + k as u64, rows));
            let (race, race_shift) = pick(&RACES, self.rng.random::<f64>());
            let (sex, sex_shift) = pick(&SEXES, self.rng.random::<f64>());
            let shift = race_shift + sex_shift;
            // Base rate depends on the groups (a real-world label gap) ...
            let y = i64::from(self.rng.random::<f64>() < sigmoid(-0.4 + 0.8 * shift));
            // ... and so does the score given the label (a model gap).
            let noise: f64 = StandardNormal.sample(&mut self.rng);
            let p = sigmoid(1.0 * (2.0 * y as f64 - 1.0) + 0.7 * shift + 1.2 * noise);
            c.y.push(y);
            c.y_hat.push(i64::from(p >= 0.5));
            c.p.push(p);
            c.race.push(race);
            c.sex.push(sex);
            c.w.push(0.5 + 1.5 * self.rng.random::<f64>());
        }
        c
    }
}

fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("y", DataType::Int64, false),
        Field::new("y_hat", DataType::Int64, false),
        Field::new("p", DataType::Float64, false),
        Field::new("race", DataType::Utf8, false),
        Field::new("sex", DataType::Utf8, false),
        Field::new("w", DataType::Float64, false),
        Field::new("day", DataType::Date32, false),
    ]))
}

/// Writes the demo file described by `args`; `tick(rows_written)` reports progress.
///
/// # Errors
/// [`CliError::DemoWrite`] when the file cannot be created or written, or the extension is
/// neither .csv nor .parquet.
pub fn write_demo(args: &DemoArgs, tick: &mut dyn FnMut(u64)) -> Result<(), CliError> {
    let path = &args.out;
    let err = |m: String| CliError::DemoWrite {
        path: path.clone(),
        message: m,
    };
    let format = Format::from_extension(path)
        .filter(|_| !Format::is_compressed_name(path))
        .ok_or_else(|| {
            err("name the file .parquet or .csv (demo-data writes no .gz/.zst)".into())
        })?;
    let file = File::create(path).map_err(|e| err(e.to_string()))?;
    let mut generator = Generator::new(args.seed);
    let mut sink: Box<dyn ChunkSink> = match format {
        Format::Parquet => Box::new(ParquetSink::new(file, args.compression).map_err(&err)?),
        Format::Csv => Box::new(CsvSink::new(file).map_err(&err)?),
    };
    let mut written = 0_u64;
    while written < args.rows {
        let n = (args.rows - written).min(CHUNK as u64) as usize;
        sink.write(&generator.chunk(n, written, args.rows))
            .map_err(&err)?;
        written += n as u64;
        tick(written);
    }
    sink.finish().map_err(&err)
}

trait ChunkSink {
    fn write(&mut self, c: &Chunk) -> Result<(), String>;
    fn finish(self: Box<Self>) -> Result<(), String>;
}

struct ParquetSink {
    writer: ArrowWriter<BufWriter<File>>,
    schema: Arc<Schema>,
}

impl ParquetSink {
    fn new(file: File, compression: Compression) -> Result<Self, String> {
        let codec = match compression {
            Compression::Snappy => parquet::basic::Compression::SNAPPY,
            Compression::Gzip => parquet::basic::Compression::GZIP(GzipLevel::default()),
            Compression::Zstd => parquet::basic::Compression::ZSTD(ZstdLevel::default()),
            Compression::None => parquet::basic::Compression::UNCOMPRESSED,
        };
        let props = WriterProperties::builder()
            .set_compression(codec)
            // Row groups of ~1M rows: bounded writer memory, and a reader can stream them.
            .set_max_row_group_row_count(Some(1 << 20))
            .build();
        let schema = schema();
        let writer = ArrowWriter::try_new(BufWriter::new(file), schema.clone(), Some(props))
            .map_err(|e| e.to_string())?;
        Ok(Self { writer, schema })
    }
}

impl ChunkSink for ParquetSink {
    fn write(&mut self, c: &Chunk) -> Result<(), String> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(c.y.clone())),
            Arc::new(Int64Array::from(c.y_hat.clone())),
            Arc::new(Float64Array::from(c.p.clone())),
            Arc::new(StringArray::from(c.race.clone())),
            Arc::new(StringArray::from(c.sex.clone())),
            Arc::new(Float64Array::from(c.w.clone())),
            Arc::new(Date32Array::from(c.day.clone())),
        ];
        let batch =
            RecordBatch::try_new(self.schema.clone(), columns).map_err(|e| e.to_string())?;
        self.writer.write(&batch).map_err(|e| e.to_string())
    }

    fn finish(self: Box<Self>) -> Result<(), String> {
        self.writer.close().map(|_| ()).map_err(|e| e.to_string())
    }
}

/// "YYYY-MM-DD" of a day since 1970-01-01.
fn iso_day(day: i32) -> String {
    arrow_array::temporal_conversions::date32_to_datetime(day)
        .map_or_else(|| day.to_string(), |t| t.date().to_string())
}

struct CsvSink {
    writer: csv::Writer<BufWriter<File>>,
}

impl CsvSink {
    fn new(file: File) -> Result<Self, String> {
        let mut writer = csv::Writer::from_writer(BufWriter::with_capacity(1 << 20, file));
        writer
            .write_record(["y", "y_hat", "p", "race", "sex", "w", "day"])
            .map_err(|e| e.to_string())?;
        Ok(Self { writer })
    }
}

impl ChunkSink for CsvSink {
    fn write(&mut self, c: &Chunk) -> Result<(), String> {
        for i in 0..c.y.len() {
            // `{}` on f64 prints the shortest text that parses back to the same bits, so the CSV
            // and Parquet files of one seed hold identical numbers.
            self.writer
                .write_record([
                    c.y[i].to_string(),
                    c.y_hat[i].to_string(),
                    c.p[i].to_string(),
                    c.race[i].to_string(),
                    c.sex[i].to_string(),
                    c.w[i].to_string(),
                    iso_day(c.day[i]),
                ])
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<(), String> {
        self.writer.flush().map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rows_and_groups_differ() {
        let a = Generator::new(3).chunk(20_000, 0, 20_000);
        let b = Generator::new(3).chunk(20_000, 0, 20_000);
        assert_eq!(a.y, b.y);
        assert_eq!(
            a.p.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            b.p.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        let rate = |race: &str| {
            let (mut n, mut k) = (0.0, 0.0);
            for i in 0..a.y.len() {
                if a.race[i] == race {
                    n += 1.0;
                    k += a.y_hat[i] as f64;
                }
            }
            k / n
        };
        assert!(
            rate("white") - rate("black") > 0.1,
            "the demo must contain a real DP gap"
        );
    }

    #[test]
    fn days_spread_the_rows_over_2026_in_order() {
        assert_eq!(iso_day(day_of(0, 1000)), "2026-01-01");
        assert_eq!(iso_day(day_of(999, 1000)), "2026-12-31");
        assert_eq!(iso_day(day_of(500, 1000)), "2026-07-02");
        let c = Generator::new(1).chunk(365, 0, 365);
        assert!(c.day.windows(2).all(|w| w[1] == w[0] + 1));
    }
}
