"""Times `fairkit ll144` on a Parquet file against what a user would write instead: pandas
group-bys for the selection rates (and, for a scoring tool, the weighted median of all rows
and each category's weighted share strictly above it), impact ratios per sex, race and
intersection. Checks that both give the same rates (1e-9) before printing the times.

    python bench_ll144.py FILE FAIRKIT_BINARY   # FILE from `fairkit demo-data --rows N`
"""

import json
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd


def pandas_tables(path, mode):
    df = pd.read_parquet(path, columns=["sex", "race", "w", mode])
    w = df["w"].to_numpy()
    if mode == "p":
        s = df["p"].to_numpy()
        order = np.argsort(s, kind="stable")
        cum = np.cumsum(w[order])
        # numpy's inverted_cdf weighted median: the smallest score whose CDF reaches 1/2
        median = s[order][np.searchsorted(cum, cum[-1] / 2)]
        df["hit"] = (s > median) * w
    else:
        df["hit"] = (df[mode].to_numpy() == 1) * w
    out = {}
    for key in (["sex"], ["race"], ["sex", "race"]):
        g = df.groupby(key, observed=True)[["hit", "w"]].sum()
        rate = g["hit"] / g["w"]
        out[" & ".join(key)] = (rate / rate.max()).to_dict()
    return out


def main(path, fairkit):
    for mode, flag in (("y_hat", "--selected"), ("p", "--score")):
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            subprocess.run([fairkit, "ll144", path, "--sex", "sex", "--race", "race", flag, mode,
                            "--weight", "w", "--exclude-below", "0", "--format", "json",
                            "--out", d, "--quiet"], check=True)
            ours = time.perf_counter() - t
            report = json.load(open(f"{d}/ll144.json"))
        t = time.perf_counter()
        theirs = pandas_tables(path, mode)
        pandas_s = time.perf_counter() - t
        n = 0
        for table in report["tables"]:
            ref = theirs[{"intersection": "sex & race"}.get(table["name"], table["name"])]
            for row in table["categories"]:
                if row.get("impact_ratio") is None or row["unknown"]:
                    continue
                key = row["category"]
                want = ref[tuple(key.split(" & ")) if " & " in key else key]
                assert abs(row["impact_ratio"] - want) < 1e-9, (table["name"], key)
                n += 1
        print(f"{'selected' if mode == 'y_hat' else 'score'}: fairkit ll144 {ours:.2f} s, "
              f"pandas {pandas_s:.2f} s ({pandas_s / ours:.1f}x), {n} impact ratios equal")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
