//! Timestamps as the business's days: a typed timestamp that carries a time zone is an instant,
//! and grouping it by day must use the day where the business is (`--timezone`), not UTC's — a
//! New York sale at 23:30 belongs to that day, not the next. The decoder shifts each instant by
//! its zone's offset at that instant (daylight saving included, from the tz database) before the
//! usual day floor; naive timestamps (no zone: wall-clock times) and dates are left as written.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowTimestampType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit};
use chrono::{Offset, TimeZone};
use std::sync::Arc;

/// `arr` with every instant moved to wall-clock time in `zone`, when it is a timestamp column
/// with a time zone; `None` (use the column as is) otherwise. A value whose shift would leave
/// the `i64` range keeps its UTC value.
pub(crate) fn to_local(arr: &dyn Array, zone: chrono_tz::Tz) -> Option<ArrayRef> {
    let DataType::Timestamp(unit, Some(_)) = arr.data_type() else {
        return None;
    };
    Some(match unit {
        TimeUnit::Second => shift::<TimestampSecondType>(arr, 1, zone),
        TimeUnit::Millisecond => shift::<TimestampMillisecondType>(arr, 1_000, zone),
        TimeUnit::Microsecond => shift::<TimestampMicrosecondType>(arr, 1_000_000, zone),
        TimeUnit::Nanosecond => shift::<TimestampNanosecondType>(arr, 1_000_000_000, zone),
    })
}

fn shift<T: ArrowTimestampType>(arr: &dyn Array, per_second: i64, zone: chrono_tz::Tz) -> ArrayRef {
    let values = arr.as_primitive::<T>();
    let local = values.unary::<_, T>(|v| {
        let seconds = v.div_euclid(per_second);
        chrono::DateTime::from_timestamp(seconds, 0)
            .map(|t| {
                i64::from(
                    zone.offset_from_utc_datetime(&t.naive_utc())
                        .fix()
                        .local_minus_utc(),
                )
            })
            .and_then(|offset| offset.checked_mul(per_second))
            .and_then(|offset| v.checked_add(offset))
            .unwrap_or(v)
    });
    Arc::new(local)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::TimestampMillisecondArray;

    #[test]
    fn new_york_evenings_stay_on_their_day_across_daylight_saving() {
        let ny: chrono_tz::Tz = "America/New_York".parse().unwrap();
        // 2026-01-06T04:30Z is 23:30 EST on the 5th; 2026-07-06T03:30Z is 23:30 EDT on the 5th.
        let winter = chrono::DateTime::parse_from_rfc3339("2026-01-06T04:30:00Z").unwrap();
        let summer = chrono::DateTime::parse_from_rfc3339("2026-07-06T03:30:00Z").unwrap();
        let arr = TimestampMillisecondArray::from(vec![
            Some(winter.timestamp_millis()),
            None,
            Some(summer.timestamp_millis()),
        ])
        .with_timezone("UTC");
        let local = to_local(&arr, ny).expect("a zoned timestamp");
        let local = local.as_primitive::<TimestampMillisecondType>();
        let day = |i: usize| local.value(i).div_euclid(86_400_000);
        let day_of = |s: &str| {
            chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .unwrap()
                .signed_duration_since(chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap())
                .num_days()
        };
        assert_eq!(day(0), day_of("2026-01-05"));
        assert!(local.is_null(1));
        assert_eq!(day(2), day_of("2026-07-05"));
        // Naive timestamps are wall-clock times already: left alone.
        let naive = TimestampMillisecondArray::from(vec![winter.timestamp_millis()]);
        assert!(to_local(&naive, ny).is_none());
        // The extremes do not overflow.
        let edge = TimestampMillisecondArray::from(vec![i64::MIN, i64::MAX]).with_timezone("UTC");
        let shifted = to_local(&edge, ny).unwrap();
        let shifted = shifted.as_primitive::<TimestampMillisecondType>();
        assert_eq!((shifted.value(0), shifted.value(1)), (i64::MIN, i64::MAX));
    }
}
