"""Smoke suite of the installed wheel: `cargo xtask dist --smoke` runs it in a fresh virtual
environment that holds the wheel, fairlearn and pandas, with no `cargo` or `rustc` on its PATH.

What it checks, in order (the first failure ends the run with exit code 1):

* no Rust toolchain is reachable, and ``fairkit`` (package and command) is the installed one;
* the version is the crate's everywhere (``fairkit.__version__``, the wheel's metadata,
  ``fairkit --version``); the base requirement is numpy alone, the extras are declared;
  ``py.typed`` is shipped;
* ``import fairkit`` imports neither numpy nor any optional library (pandas, polars, pyarrow,
  pyspark, matplotlib, scikit-learn, scipy), ``import fairkit.metrics`` none but pandas;
* fairkit's metrics equal fairlearn's on a small pandas frame;
* a ``FairProjection`` fits, predicts and predicts the same after a pickle round trip;
* the wheel's ``fairkit`` command and the cargo-built binary (``--reference``), run with the same
  arguments in twin directories, give the same exit codes (0, 1 and 2 all occur), the same
  stdout and stderr, and byte-identical files (demo data, audit and compare reports, validated
  by ``fairkit validate-report``);
* Ctrl-C (SIGINT) ends the wheel's command at once, by the signal, as it ends the binary;
* ``python -m fairkit --help`` prints what ``fairkit --help`` prints;
* the Python examples of the package's README (``--readme``) run.

With ``--base`` (a venv holding the wheel alone) it checks instead that no optional library
came with it and that the package, its metrics (as dicts) and the command work with numpy only.

Usage: ``python smoke.py --reference target/debug/fairkit --workdir DIR [--readme README.md]
[--base]``
"""

import argparse
import filecmp
import importlib.metadata
import math
import os
import pickle
import re
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path

OPTIONAL = ("pandas", "polars", "pyarrow", "pyspark", "matplotlib", "sklearn", "scipy")
EXTRAS = ("pandas", "polars", "spark", "plot", "sklearn")


def check_no_rust(ctx):
    for tool in ("cargo", "rustc"):
        assert shutil.which(tool) is None, f"{tool} is on the PATH: {shutil.which(tool)}"
    import fairkit

    prefix = Path(sys.prefix).resolve()
    installed = Path(fairkit.__file__).resolve()
    assert prefix in installed.parents, f"fairkit imported from {installed}, not from {prefix}"
    command = shutil.which("fairkit")
    assert command is not None, "no `fairkit` command on the PATH"
    assert prefix in Path(command).resolve().parents, f"`fairkit` is {command}, not the wheel's"


def check_metadata(ctx):
    import fairkit

    expected = os.environ["FAIRKIT_EXPECTED_VERSION"]
    assert fairkit.__version__ == expected, (fairkit.__version__, expected)
    assert importlib.metadata.version("fairkit") == expected
    out = run(["fairkit", "--version"], ctx.workdir)
    assert out.stdout == f"fairkit {expected}\n".encode(), out.stdout
    meta = importlib.metadata.metadata("fairkit")
    assert meta["License-Expression"] == "MIT OR Apache-2.0", meta["License-Expression"]
    requires = importlib.metadata.requires("fairkit") or []
    base = [r for r in requires if "extra ==" not in r]
    assert [re.split(r"[<>=!~ ;]", r)[0] for r in base] == ["numpy"], base
    extras = set(meta.get_all("Provides-Extra") or [])
    assert set(EXTRAS) <= extras, extras
    assert (Path(fairkit.__file__).parent / "py.typed").is_file(), "py.typed is missing"


def check_lazy_imports(ctx):
    """`import fairkit` (what the `fairkit` command runs through) imports neither numpy nor any
    optional library; `import fairkit.metrics` imports pandas when it is installed (results are
    then pandas objects) but nothing else optional: scikit-learn's derived metrics are built on
    first use. See check_base_install for an install without any of them."""
    for module, allowed in (("fairkit", ()), ("fairkit.metrics", ("numpy", "pandas"))):
        code = (
            f"import sys, {module}; "
            f"print(','.join(m for m in ('numpy', *{OPTIONAL!r}) if m in sys.modules))"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
        eager = [m for m in out.stdout.decode().strip().split(",") if m and m not in allowed]
        assert not eager, f"`import {module}` imports {eager} eagerly"


def check_base_install(ctx):
    """The wheel alone (numpy its only dependency): no optional library is installed, and the
    package, its metrics (as dicts) and the command work."""
    import importlib.util

    import numpy as np

    installed = [m for m in OPTIONAL if importlib.util.find_spec(m) is not None]
    assert not installed, f"the base install pulled in {installed}"
    import fairkit
    import fairkit.estimators
    import fairkit.metrics as fk

    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    p = np.array([1, 1, 0, 1, 0, 1, 1, 1])
    sf = np.array(["a", "a", "a", "b", "b", "b", "c", "c"])
    # Selection rates a = 2/3, b = 2/3, c = 1.
    gap = fk.demographic_parity_difference(y, p, sensitive_features=sf)
    assert math.isclose(gap, 1 / 3, rel_tol=1e-12), gap
    by_group = fk.MetricFrame(metrics=fk.selection_rate, y_true=y, y_pred=p,
                              sensitive_features=sf).by_group
    assert isinstance(by_group, dict), type(by_group)
    assert math.isclose(by_group["c"], 1.0) and math.isclose(by_group["a"], 2 / 3), by_group
    out = run(["fairkit", "--version"], ctx.workdir)
    assert out.returncode == 0 and out.stdout == f"fairkit {fairkit.__version__}\n".encode()


def check_metrics_against_fairlearn(ctx):
    import fairlearn.metrics as fl
    import numpy as np
    import pandas as pd

    import fairkit.metrics as fk

    rng = np.random.default_rng(7)
    n = 400
    df = pd.DataFrame({
        "y": rng.integers(0, 2, n),
        "yhat": rng.integers(0, 2, n),
        "sex": rng.choice(["f", "m"], n),
        "race": rng.choice(["a", "b", "c"], n, p=[0.6, 0.3, 0.1]),
    })
    sf = df[["sex", "race"]]
    for name in ("demographic_parity_difference", "demographic_parity_ratio",
                 "equalized_odds_difference", "equalized_odds_ratio"):
        ours = getattr(fk, name)(df["y"], df["yhat"], sensitive_features=sf)
        theirs = getattr(fl, name)(df["y"], df["yhat"], sensitive_features=sf)
        assert math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15), (name, ours, theirs)
    metrics = ("selection_rate", "true_positive_rate", "false_positive_rate", "count")
    frames = [
        mod.MetricFrame(metrics={m: getattr(mod, m) for m in metrics}, y_true=df["y"],
                        y_pred=df["yhat"], sensitive_features=sf)
        for mod in (fk, fl)
    ]
    ours, theirs = (f.by_group for f in frames)
    assert list(ours.index) == list(theirs.index), (ours.index, theirs.index)
    assert list(ours.columns) == list(theirs.columns)
    assert np.allclose(ours.to_numpy(float), theirs.to_numpy(float), rtol=1e-12, equal_nan=True)
    for method in ("difference", "ratio", "group_min", "group_max"):
        a, b = (getattr(f, method)() for f in frames)
        assert np.allclose(a.to_numpy(float), b.to_numpy(float), rtol=1e-12), (method, a, b)


def check_estimator(ctx):
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from fairkit.estimators import FairProjection

    rng = np.random.default_rng(0)
    group = rng.choice(["F", "M"], 2000)
    y = rng.random(2000) < np.where(group == "F", 0.3, 0.7)
    X = np.column_stack([y + rng.normal(size=2000), group == "F"])
    fair = FairProjection(LogisticRegression(), constraints="equalized_odds", alpha=0.02,
                          random_state=0)
    fair.fit(X, y, sensitive_features=group)
    proba = fair.predict_proba(X, sensitive_features=group)
    pred = fair.predict(X, sensitive_features=group)
    assert proba.shape == (2000, 2) and np.allclose(proba.sum(axis=1), 1.0)
    again = pickle.loads(pickle.dumps(fair))
    assert np.array_equal(again.predict_proba(X, sensitive_features=group), proba)
    assert np.array_equal(again.predict(X, sensitive_features=group), pred)


AUDIT = ["--label", "y", "--pred", "y_hat", "--sensitive", "race,sex", "--resamples", "200"]
# (arguments, expected exit code): every run happens once with the wheel's command and once
# with the reference binary, in twin directories, in this order.
SCENARIOS = [
    (["--help"], 0),
    (["--version"], 0),
    (["audit", "--help"], 0),
    (["demo-data", "--rows", "4000", "--seed", "3", "--out", "before.parquet", "--quiet"], 0),
    (["demo-data", "--rows", "4000", "--seed", "4", "--out", "after.csv", "--quiet"], 0),
    (["audit", "before.parquet", *AUDIT, "--score", "p", "--out", "before", "--quiet"], 0),
    (["audit", "after.csv", *AUDIT, "--score", "p", "--out", "after", "--quiet"], 0),
    (["audit", "before.parquet", *AUDIT, "--weight", "w", "--out", "weighted"], 0),
    (["audit", "after.csv", *AUDIT, "--out", "gated", "--fail-if", "dp_difference > 0"], 1),
    (["compare", "before", "after", "--out", "change", "--resamples", "200"], 0),
    (["validate-report", "before/report.json"], 0),
    (["validate-report", "weighted/report.json"], 0),
    (["validate-report", "after.csv"], 2),
    (["audit", "missing.csv", *AUDIT], 2),
    (["audit", "before.parquet", "--label", "no_such_column", "--pred", "y_hat",
      "--sensitive", "race"], 2),
    (["audit", "--no-such-flag"], 2),
    ([], 2),
]


def check_command_matches_cargo_build(ctx):
    wheel_dir, cargo_dir = ctx.workdir / "wheel", ctx.workdir / "cargo"
    for d in (wheel_dir, cargo_dir):
        d.mkdir()
    for args, code in SCENARIOS:
        ours = run(["fairkit", *args], wheel_dir)
        ref = run([str(ctx.reference), *args], cargo_dir)
        shown = " ".join(["fairkit", *args])
        assert ref.returncode == code, f"{shown}: the cargo build exits {ref.returncode}, not {code}"
        assert ours.returncode == code, f"{shown}: the wheel's command exits {ours.returncode}"
        assert ours.stdout == ref.stdout, f"{shown}: stdout differs\n{ours.stdout!r}\n{ref.stdout!r}"
        assert ours.stderr == ref.stderr, f"{shown}: stderr differs\n{ours.stderr!r}\n{ref.stderr!r}"
    for name in ("before/report.json", "after/report.json", "change/compare.json"):
        assert (wheel_dir / name).is_file(), f"{name} was not written"
    differ = compare_trees(filecmp.dircmp(wheel_dir, cargo_dir))
    assert not differ, f"files differ between the wheel's and the cargo build's runs: {differ}"


def compare_trees(cmp, prefix=""):
    """Paths that are not byte-identical (or exist on one side only) under a dircmp."""
    bad = [prefix + n for n in cmp.left_only + cmp.right_only + cmp.funny_files]
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
    bad += [prefix + n for n in mismatch + errors]
    for name, sub in cmp.subdirs.items():
        bad += compare_trees(sub, f"{prefix}{name}/")
    return bad


def check_ctrl_c(ctx):
    """Ctrl-C ends the wheel's command at once, by the signal, as it ends the binary."""
    import signal

    for name, exe in (("wheel", "fairkit"), ("cargo", str(ctx.reference))):
        out = ctx.workdir / f"interrupted-{name}.parquet"
        proc = subprocess.Popen([exe, "demo-data", "--rows", "200000000", "--out", str(out),
                                 "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        assert proc.poll() is None, f"{name}: demo-data of 2e8 rows ended within 1 s"
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        waited = time.perf_counter() - sent
        out.unlink(missing_ok=True)
        assert code == -signal.SIGINT, f"{name}: exit {code} after SIGINT, not the signal's"
        assert waited < 5, f"{name}: {waited:.1f} s from SIGINT to exit"


def check_python_m(ctx):
    module = run([sys.executable, "-m", "fairkit", "--help"], ctx.workdir)
    command = run(["fairkit", "--help"], ctx.workdir)
    assert module.returncode == 0 and module.stdout == command.stdout, module
    bad = run([sys.executable, "-m", "fairkit", "audit", "--no-such-flag"], ctx.workdir)
    assert bad.returncode == 2 and b"--no-such-flag" in bad.stderr, bad


def check_readme_examples(ctx):
    if ctx.readme is None:
        return
    blocks = re.findall(r"```python\n(.*?)```", ctx.readme.read_text(), flags=re.S)
    assert blocks, f"no python example in {ctx.readme}"
    for block in blocks:
        exec(compile(block, str(ctx.readme), "exec"), {})


def run(argv, cwd):
    return subprocess.run(argv, cwd=cwd, capture_output=True, timeout=600)


CHECKS = [
    check_no_rust,
    check_metadata,
    check_lazy_imports,
    check_metrics_against_fairlearn,
    check_estimator,
    check_command_matches_cargo_build,
    check_ctrl_c,
    check_python_m,
    check_readme_examples,
]


BASE_CHECKS = [check_no_rust, check_metadata, check_lazy_imports, check_base_install]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True,
                        help="the cargo-built `fairkit` binary to compare the wheel's command with")
    parser.add_argument("--workdir", type=Path, required=True, help="an empty scratch directory")
    parser.add_argument("--readme", type=Path, help="a README whose python blocks must run")
    parser.add_argument("--base", action="store_true",
                        help="the venv holds the wheel alone: run the base-install checks")
    ctx = parser.parse_args()
    ctx.workdir = ctx.workdir.resolve()
    ctx.reference = ctx.reference.resolve()
    start = time.perf_counter()
    checks = BASE_CHECKS if ctx.base else CHECKS
    for check in checks:
        t = time.perf_counter()
        try:
            check(ctx)
        except Exception:
            traceback.print_exc()
            print(f"FAILED {check.__name__}", flush=True)
            return 1
        print(f"ok  {check.__name__} ({time.perf_counter() - t:.1f} s)", flush=True)
    print(f"smoke suite: {len(checks)} checks passed in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
