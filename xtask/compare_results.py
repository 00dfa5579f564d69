#!/usr/bin/env python3
"""Compare two `cargo xtask repro` output directories number by number.

    python3 xtask/compare_results.py OLD_DIR NEW_DIR [--rtol 1e-9] [--atol 1e-12]
                                     [--repeat RUN_A RUN_B ...]

Written for issue 38's check that refactors move no reported number (docs/results/
refactor-check.md): run `cargo xtask repro --quick --out DIR` at both commits (twice each, for
--repeat) and compare. Standard library only.

JSON: every leaf is compared by its path; numbers with a relative tolerance (|a-b| <= atol +
rtol*max(|a|,|b|)), strings/bools/nulls exactly. Leaves whose key names a time (seconds, *_s,
*_time, *wall) are counted separately: they are wall-clock measurements and expected to move.
Markdown: lines are aligned (difflib); lines whose text without numbers is identical have their
numbers compared with the same tolerance; any other changed line is listed as text. A number in
a table column whose header names a time (or "(s)"), or followed by s or ms, is a timing.
SVG and other files: byte equality.
Exit status 1 if a file is missing on one side or a difference is neither a timing, within the
tolerance, nor run-to-run (see --repeat).
"""
import argparse
import difflib
import json
import math
import re
import sys
from pathlib import Path

TIME_KEY = re.compile(r"seconds|(^|_)(s|time|wall)$")
NUM = re.compile(r"[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def is_time_path(path):
    # The leaf's own key (or its parent's, for mean/sd summaries), never a count beside timings.
    names = [p for p in re.split(r"[.\[\]]+", path) if p and not p.isdigit()]
    if names and names[-1] in ("mean", "sd") and len(names) > 1:
        names = names[:-1]
    return bool(names) and bool(TIME_KEY.search(names[-1]))


def leaves(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, x


def close(a, b, rtol, atol):
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def rel(a, b):
    d = abs(a - b)
    m = max(abs(a), abs(b))
    return d / m if m else 0.0


class Tally:
    def __init__(self):
        self.numeric = 0
        self.exact = 0
        self.timing = 0
        self.timing_moved = 0
        self.other = 0
        self.diffs = []  # (file, where, old, new, note)


def compare_json(name, a, b, t, rtol, atol):
    la, lb = dict(leaves(a)), dict(leaves(b))
    for path in sorted(set(la) | set(lb)):
        if path not in la or path not in lb:
            x, y = la.get(path, "<absent>"), lb.get(path, "<absent>")
            t.diffs.append((name, path, x, y, "only one side"))
            continue
        x, y = la[path], lb[path]
        num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
        if num(x) and num(y):
            if is_time_path(path):
                t.timing += 1
                t.timing_moved += x != y
                continue
            t.numeric += 1
            if x == y:
                t.exact += 1
            elif not close(x, y, rtol, atol):
                t.diffs.append((name, path, x, y, f"rel {rel(x, y):.3g}"))
            else:
                t.diffs.append((name, path, x, y, f"within tol, rel {rel(x, y):.3g}"))
        else:
            t.other += 1
            if x != y:
                t.diffs.append((name, path, x, y, "non-numeric"))


UNIT_AFTER = re.compile(r"\]?\s?(s|ms)\b")
TIME_HEADER = re.compile(r"(?i:time|second)|\(s\)|\(s,|\bms\b")
PIPE = re.compile(r"(?<!\\)\|")
SEPARATOR = re.compile(r"\s*\|[\s:|-]+\|\s*$")


def split_nums(line):
    nums = [float(m.replace("−", "-")) for m in NUM.findall(line)]
    # "5.2 ms" and "0.12 s" are one kind of cell: a duration whose unit follows its size.
    return re.sub(r"#(\]?\s?)(ms|s)\b", r"#\1T", NUM.sub("#", line)), nums


def timing_flags(line, header):
    """Per number of `line`: is it a wall-clock reading? Either its table column's header names
    a time, or the number is followed by a time unit (s, ms)."""
    cells = PIPE.split(line) if line.lstrip().startswith("|") else None
    flags = []
    for m in NUM.finditer(line):
        timed = bool(UNIT_AFTER.match(line, m.end()))
        if cells is not None and header is not None:
            col = len(PIPE.findall(line, 0, m.start())) - 1
            if 0 <= col < len(header) and TIME_HEADER.search(header[col]):
                timed = True
        flags.append(timed)
    return flags


def table_headers(lines):
    """For every line, the header cells of the markdown table it belongs to (or None)."""
    out, header = [], None
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            header = None
        elif header is None and i + 1 < len(lines) and SEPARATOR.match(lines[i + 1]):
            header = [c.strip() for c in PIPE.split(line)[1:-1]]
        out.append(header)
    return out


def compare_md(name, a, b, t, rtol, atol):
    la, lb = a.splitlines(), b.splitlines()
    hb = table_headers(lb)
    sm = difflib.SequenceMatcher(a=la, b=lb, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            for k, line in enumerate(la[i1:i2]):
                flags = timing_flags(line, hb[j1 + k])
                t.timing += sum(flags)
                t.numeric += len(flags) - sum(flags)
                t.exact += len(flags) - sum(flags)
            continue
        pairs = list(zip(la[i1:i2], lb[j1:j2])) if (i2 - i1) == (j2 - j1) else []
        if not pairs:
            for line in la[i1:i2]:
                t.diffs.append((name, f"line {i1 + 1}", line, "<removed>", "text"))
            for line in lb[j1:j2]:
                t.diffs.append((name, f"line {j1 + 1}", "<added>", line, "text"))
            continue
        for k, (x, y) in enumerate(pairs):
            sx, nx = split_nums(x)
            sy, ny = split_nums(y)
            where = f"line {i1 + k + 1}"
            if sx != sy or len(nx) != len(ny):
                t.diffs.append((name, where, x, y, "text"))
                continue
            for p, q, timed in zip(nx, ny, timing_flags(y, hb[j1 + k])):
                if timed:
                    t.timing += 1
                    t.timing_moved += p != q
                    continue
                t.numeric += 1
                if p == q:
                    t.exact += 1
                else:
                    tag = "within tol" if close(p, q, rtol, atol) else f"rel {rel(p, q):.3g}"
                    t.diffs.append((name, where, p, q, f"{tag} in: {y.strip()[:160]}"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--repeat", nargs=2, action="append", default=[], type=Path,
                    metavar=("RUN_A", "RUN_B"),
                    help="two runs of one commit: a difference at a place where these two also "
                         "differ is run-to-run (timing) variation, listed apart; may be repeated")
    ap.add_argument("--only", default="", help="comma-separated suffixes to compare (json,md,svg)")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    noisy = set()
    for a, b in args.repeat:
        for t in compare_dirs(a, b, only, args.rtol, args.atol, quiet=True)[0].values():
            noisy.update((d[0], d[1]) for d in t.diffs)
    per_file, bytes_same, bytes_diff, one_sided = compare_dirs(
        args.old, args.new, only, args.rtol, args.atol)
    total = Tally()
    failing, noise = one_sided, 0
    for name, t in per_file.items():
        if name.endswith((".json", ".md")):
            print(f"{name}: {t.numeric} numbers ({t.exact} bit-identical), {t.timing} timings "
                  f"({t.timing_moved} moved), {t.other} other leaves, {len(t.diffs)} differences")
        for f in ("numeric", "exact", "timing", "timing_moved", "other"):
            setattr(total, f, getattr(total, f) + getattr(t, f))
        for d in t.diffs:
            run_to_run = (d[0], d[1]) in noisy
            tag = "RUN-TO-RUN" if run_to_run else "DIFF"
            print(f"  {tag} {d[0]} {d[1]}: {d[2]!r} -> {d[3]!r} ({d[4]})")
            if run_to_run:
                noise += 1
            else:
                failing += not d[4].startswith("within tol")
    print(f"\nTOTAL: {total.numeric} numbers compared, {total.exact} bit-identical; "
          f"{total.timing} timing fields ({total.timing_moved} moved, not counted); "
          f"{total.other} non-numeric JSON leaves; other files: {bytes_same} identical, "
          f"{bytes_diff} differ, {one_sided} on one side only; "
          f"{noise} differences where repeated runs of one commit also differ; "
          f"{failing} other differences beyond rtol={args.rtol}")
    return 1 if failing else 0


def compare_dirs(old, new, only, rtol, atol, quiet=False):
    fa = {p.relative_to(old) for p in old.rglob("*") if p.is_file()}
    fb = {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    per_file = {}
    bytes_same = bytes_diff = one_sided = 0
    for rel_path in sorted(fa | fb):
        suffix = rel_path.suffix.lstrip(".")
        if only and suffix not in only:
            continue
        if rel_path not in fa or rel_path not in fb:
            one_sided += 1
            if not quiet:
                print(f"ONLY IN {'old' if rel_path in fa else 'new'}: {rel_path}")
            continue
        pa, pb = old / rel_path, new / rel_path
        t = Tally()
        if suffix == "json":
            a, b = json.loads(pa.read_text()), json.loads(pb.read_text())
            compare_json(str(rel_path), a, b, t, rtol, atol)
        elif suffix == "md":
            compare_md(str(rel_path), pa.read_text(), pb.read_text(), t, rtol, atol)
        else:
            same = pa.read_bytes() == pb.read_bytes()
            bytes_same += same
            bytes_diff += not same
            if not same:
                t.diffs.append((str(rel_path), "bytes", "", "", "file differs"))
        per_file[str(rel_path)] = t
    return per_file, bytes_same, bytes_diff, one_sided


if __name__ == "__main__":
    sys.exit(main())
