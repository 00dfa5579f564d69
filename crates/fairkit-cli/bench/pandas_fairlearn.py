"""The pandas + fairlearn baseline of docs/benchmarks.md ("fairkit audit" section).

Reads a `fairkit demo-data` file fully into memory with pandas and computes, per sensitive
column and their intersection, fairlearn's MetricFrame of selection rate / TPR / FPR /
accuracy / count and the DP / EO / equalized-odds gaps: the counts-only part of what
`fairkit audit --pred y_hat --sensitive race,sex` reports (fairlearn gives no intervals).

usage: python pandas_fairlearn.py FILE.csv|FILE.parquet
Run under /usr/bin/time -v for wall time and peak RSS.
"""
import sys

import pandas as pd
from fairlearn.metrics import (
    MetricFrame,
    count,
    demographic_parity_difference,
    equalized_odds_difference,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)
from sklearn.metrics import accuracy_score

path = sys.argv[1]
df = pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)
y, yhat = df["y"], df["y_hat"]
metrics = {
    "selection_rate": selection_rate,
    "tpr": true_positive_rate,
    "fpr": false_positive_rate,
    "accuracy": accuracy_score,
    "count": count,
}
for name, features in [("race", df["race"]), ("sex", df["sex"]), ("race & sex", df[["race", "sex"]])]:
    mf = MetricFrame(metrics=metrics, y_true=y, y_pred=yhat, sensitive_features=features)
    dp = demographic_parity_difference(y, yhat, sensitive_features=features)
    eod = equalized_odds_difference(y, yhat, sensitive_features=features)
    print(name, "dp_difference", round(dp, 6), "eq_odds_difference", round(eod, 6), "groups", len(mf.by_group))
