//! Every public result and error type can cross threads.

use fair_metrics::multiclass::{MulticlassConfusion, MulticlassGap};
use fair_metrics::parity::{Aggregation, ParityGaps, ParityOptions};
use fair_metrics::partial::{PartialEqualizedOdds, PercentileInterval};
use fair_metrics::pca_losses::{GroupLosses, PcaDisparity};
use fair_metrics::rate_constraints::{ChurnRates, Subset, SubsetRates};
use fair_metrics::roc::RocCurve;
use fair_metrics::signed_gaps::PrivilegedPair;
use fair_metrics::{
    ConfusionCounts, GroupConfusion, GroupPair, GroupSummary, MetricError, PairwiseSummary,
    ParityMethod, Rate, ZeroDivision,
};

fn send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    send_sync::<MetricError>();
    send_sync::<ConfusionCounts>();
    send_sync::<GroupConfusion>();
    send_sync::<GroupSummary>();
    send_sync::<GroupPair>();
    send_sync::<PairwiseSummary>();
    send_sync::<Rate>();
    send_sync::<ZeroDivision>();
    send_sync::<ParityMethod>();
    send_sync::<Aggregation>();
    send_sync::<ParityOptions>();
    send_sync::<ParityGaps>();
    send_sync::<PrivilegedPair>();
    send_sync::<MulticlassConfusion>();
    send_sync::<MulticlassGap>();
    send_sync::<PercentileInterval>();
    send_sync::<PartialEqualizedOdds>();
    send_sync::<RocCurve>();
    send_sync::<SubsetRates>();
    send_sync::<ChurnRates>();
    send_sync::<Subset<'static>>();
    send_sync::<GroupLosses>();
    send_sync::<PcaDisparity>();
}
