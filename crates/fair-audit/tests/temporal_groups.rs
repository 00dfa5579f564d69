//! Date and timestamp columns as group columns (the `--by` window of an audit over time, or a
//! sensitive column): each value is its UTC day, written "YYYY-MM-DD".

use arrow_array::{Date32Array, Int64Array, RecordBatch, TimestampMillisecondArray};
use fair_audit::ingest::{AuditState, Decoder, FlagStyle, LabelPair, Roles, Typing};
use std::sync::Arc;

fn finest(batch: &RecordBatch, column: &str) -> Vec<String> {
    let roles = Roles::new("y", Some("p"), None, &[column], None);
    let mut dec = Decoder::new(
        roles,
        LabelPair::new("1", None),
        "t",
        Typing::Typed,
        FlagStyle::Command,
    )
    .expect("roles");
    dec.check_schema(&batch.schema())
        .expect("a date column is a group column");
    let mut state = AuditState::new("1", 1);
    state
        .add(&dec.decode(batch, None).unwrap(), &dec, &[])
        .unwrap();
    state.finest_names()
}

#[test]
fn dates_and_timestamps_group_by_their_utc_day() {
    let y = Arc::new(Int64Array::from(vec![1, 0, 1, 0]));
    let p = Arc::new(Int64Array::from(vec![1, 1, 0, 0]));
    // 2026-11-27 is day 20_784 since 1970-01-01; -1 is 1969-12-31.
    let days = Arc::new(Date32Array::from(vec![20_784, 20_784, 20_785, -1]));
    let b = RecordBatch::try_from_iter([
        ("y", y.clone() as _),
        ("p", p.clone() as _),
        ("d", days as _),
    ])
    .unwrap();
    assert_eq!(finest(&b, "d"), ["1969-12-31", "2026-11-27", "2026-11-28"]);
    // Milliseconds: 23:59:59.999 of the 27th and 00:00 of the 28th fall on different days, and an
    // instant before 1970 floors to its own day.
    let ms_27 = 20_784_i64 * 86_400_000;
    let stamps = Arc::new(TimestampMillisecondArray::from(vec![
        ms_27,
        ms_27 + 86_399_999,
        ms_27 + 86_400_000,
        -1,
    ]));
    let b = RecordBatch::try_from_iter([("y", y as _), ("p", p as _), ("t", stamps as _)]).unwrap();
    assert_eq!(finest(&b, "t"), ["1969-12-31", "2026-11-27", "2026-11-28"]);
}

#[test]
fn zoned_timestamps_group_by_their_day_in_the_chosen_time_zone() {
    // 23:30 in New York on 5 January and 5 July (04:30 and 03:30 UTC the next day), and noon
    // UTC on the 6th of each: the UTC days are the 6th for all four.
    let at = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .unwrap()
            .timestamp_millis()
    };
    let stamps = TimestampMillisecondArray::from(vec![
        at("2026-01-06T04:30:00Z"),
        at("2026-01-06T12:00:00Z"),
        at("2026-07-06T03:30:00Z"),
        at("2026-07-06T12:00:00Z"),
    ])
    .with_timezone("UTC");
    let y = Arc::new(Int64Array::from(vec![1, 0, 1, 0]));
    let p = Arc::new(Int64Array::from(vec![1, 1, 0, 0]));
    let b =
        RecordBatch::try_from_iter([("y", y as _), ("p", p as _), ("t", Arc::new(stamps) as _)])
            .unwrap();
    let names = |zone: Option<&str>| {
        let roles = Roles::new("y", Some("p"), None, &["t"], None);
        let mut dec = Decoder::new(
            roles,
            LabelPair::new("1", None),
            "t",
            Typing::Typed,
            FlagStyle::Command,
        )
        .unwrap();
        dec.set_timezone(zone.map(|z| fair_audit::over_time::parse_timezone(z).unwrap()));
        let mut state = AuditState::new("1", 1);
        state
            .add(&dec.decode(&b, None).unwrap(), &dec, &[])
            .unwrap();
        state.finest_names()
    };
    assert_eq!(names(None), ["2026-01-06", "2026-07-06"]);
    assert_eq!(names(Some("UTC")), ["2026-01-06", "2026-07-06"]);
    assert_eq!(
        names(Some("America/New_York")),
        ["2026-01-05", "2026-01-06", "2026-07-05", "2026-07-06"]
    );
    // A naive timestamp is a wall-clock time already: the zone does not move it.
    let naive = TimestampMillisecondArray::from(vec![at("2026-01-06T04:30:00Z")]);
    let b2 = RecordBatch::try_from_iter([
        ("y", Arc::new(Int64Array::from(vec![1])) as _),
        ("p", Arc::new(Int64Array::from(vec![1])) as _),
        ("t", Arc::new(naive) as _),
    ])
    .unwrap();
    let roles = Roles::new("y", Some("p"), None, &["t"], None);
    let mut dec = Decoder::new(
        roles,
        LabelPair::new("1", None),
        "t",
        Typing::Typed,
        FlagStyle::Command,
    )
    .unwrap();
    dec.set_timezone(Some(
        fair_audit::over_time::parse_timezone("Asia/Tokyo").unwrap(),
    ));
    let mut state = AuditState::new("1", 1);
    state
        .add(&dec.decode(&b2, None).unwrap(), &dec, &[])
        .unwrap();
    assert_eq!(state.finest_names(), ["2026-01-06"]);
}
