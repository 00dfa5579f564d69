"""Install size, install time and import times of the fairkit wheel beside fairlearn's, measured
in the same run (the figures of docs/benchmarks.md, "Installing the wheel").

For each package it downloads the package and its dependencies once into a local wheelhouse
(`pip download`, versions constrained by python/requirements-test.txt), then installs from that
wheelhouse alone (`--no-index`) into a fresh virtual environment, so neither install waits on the
network. Reported: the package's own wheel size, the install's wall time, the growth of
site-packages, and the median over fresh interpreters of each import's time (plus the start-up
of the `fairkit` command, which runs through Python).

Usage: python python/smoke/measure_install.py --wheel target/dist/fairkit-*.whl --workdir DIR
       [--reference target/release/fairkit]
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "python/requirements-test.txt"
REPEATS = 9


def tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python*/site-packages"))


def import_seconds(python: Path, module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([str(python), "-c", code], capture_output=True, check=True,
                                 text=True).stdout) for _ in range(REPEATS)]
    return statistics.median(runs)


def command_seconds(argv) -> float:
    runs = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def measure(name: str, requirement: str, modules, workdir: Path, base_python: str) -> dict:
    house = workdir / f"wheelhouse-{name}"
    subprocess.run([base_python, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                    "--only-binary", ":all:", "-c", str(CONSTRAINTS), "-d", str(house),
                    requirement], check=True)
    own = next(p for p in house.iterdir() if p.name.lower().startswith(f"{name}-"))
    venv = workdir / f"venv-{name}"
    subprocess.run([base_python, "-m", "venv", str(venv)], check=True)
    python = venv / "bin/python"
    before = tree_bytes(site_packages(venv))
    t = time.perf_counter()
    subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                    "--no-index", "--find-links", str(house), requirement], check=True)
    install = time.perf_counter() - t
    grown = tree_bytes(site_packages(venv)) - before
    row = {"package": name, "wheel_mb": own.stat().st_size / 2**20, "install_s": install,
           "installed_mb": grown / 2**20}
    for module in modules:
        row[f"import {module}"] = import_seconds(python, module)
    if name == "fairkit":
        row["fairkit --version"] = command_seconds([str(venv / "bin/fairkit"), "--version"])
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--reference", type=Path,
                        help="a cargo-built `fairkit` binary whose start-up to time alongside")
    args = parser.parse_args()
    workdir = args.workdir.resolve()
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    base = sys.executable
    rows = [
        measure("fairkit", str(args.wheel.resolve()), ["fairkit", "fairkit.metrics"], workdir, base),
        measure("fairlearn", "fairlearn", ["fairlearn", "fairlearn.metrics"], workdir, base),
    ]
    if args.reference is not None:
        rows.append({"package": "cargo-built binary",
                     "fairkit --version": command_seconds([str(args.reference), "--version"])})
    print(f"Python {sys.version.split()[0]}; medians of {REPEATS} fresh interpreters")
    for row in rows:
        print("  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                        for k, v in row.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
