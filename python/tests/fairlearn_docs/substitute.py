"""fairlearn's documentation as a new user would run it: its user-guide doctests and gallery
examples, with fairkit's modules substituted for fairlearn's by a mechanical rewrite of the
imports.

The files are vendored verbatim in ``upstream/`` (MIT license, see ``LICENSE``) from
github.com/fairlearn/fairlearn at commit ``UPSTREAM_COMMIT`` — the commit of the vendored metrics
suite (``../fairlearn_suite``), so both test the same fairlearn:

- ``docs/user_guide/assessment/*.rst``, ``docs/user_guide/datasets/boston_housing_data.rst``
  and ``docs/user_guide/mitigation/reductions.rst``: every user-guide page with doctests that
  uses ``fairlearn.metrics`` or ``fairlearn.datasets``;
- ``examples/plot_*.py``: every gallery example that uses ``fairlearn.metrics``.

Two rewrites of each file (``substitute``):

- ``"fairlearn"``: ``fairlearn.datasets`` → ``fairkit.datasets`` only, so fairlearn's own code
  runs offline on the same rows (fairlearn's loaders download from OpenML);
- ``"fairkit"``: that, and ``fairlearn.metrics`` → ``fairkit.metrics`` (with fairlearn's
  ``fairlearn.experimental.enable_metric_frame_plotting``, which only re-exports
  ``plot_metric_frame``).

Everything else (``fairlearn.reductions``, ``fairlearn.postprocessing``, …) stays fairlearn's:
fairkit replaces its metrics and data, not its mitigations.
"""

from __future__ import annotations

import doctest
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE / "upstream"
UPSTREAM_COMMIT = "ebf8fa75381b112a75d0bd15f13927de7824bccf"

# sphinx.ext.doctest's default flags (fairlearn's docs/conf.py keeps them).
SPHINX_FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1


def substitute(text: str, lib: str) -> str:
    """``text`` with the imports rewritten for ``lib`` (``"fairlearn"`` or ``"fairkit"``)."""
    if lib not in ("fairlearn", "fairkit"):
        raise ValueError(lib)
    text = re.sub(r"\bfairlearn\.datasets\b", "fairkit.datasets", text)
    if lib == "fairkit":
        # fairlearn's experimental import path of plot_metric_frame: fairkit.metrics has it
        text = re.sub(r"\bfairlearn\.experimental\.enable_metric_frame_plotting\b",
                      "fairkit.metrics", text)
        text = re.sub(r"\bfairlearn\.metrics\b", "fairkit.metrics", text)
    return text


@dataclass
class Block:
    """One ``.. doctest::`` block (or a top-level ``>>>`` paragraph, group ``default``)."""

    group: str
    flags: int
    text: str
    lineno: int


def doctest_blocks(rst: str) -> list[Block]:
    """The doctest blocks of a reStructuredText page, as sphinx.ext.doctest reads them: each
    ``.. doctest:: group`` directive's indented body with its ``:options:`` flags, and the
    top-level ``>>>`` paragraphs in the group ``default``."""
    lines = rst.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)\.\. doctest::\s*(\S*)\s*$", lines[i])
        if m:
            indent, group, flags = len(m.group(1)), m.group(2) or "default", SPHINX_FLAGS
            i += 1
            while i < len(lines) and re.match(r"^\s+:\w+:", lines[i]):
                opt = re.match(r"^\s+:options:\s*(.*)$", lines[i])
                if opt:
                    for o in opt.group(1).split(","):
                        o = o.strip()
                        bit = doctest.OPTIONFLAGS_BY_NAME[o[1:]]
                        flags = flags | bit if o[0] == "+" else flags & ~bit
                i += 1
            start, body = i, []
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                body.append(lines[i])
                i += 1
            blocks.append(Block(group, flags, _dedent(body), start + 1))
            continue
        if lines[i].startswith(">>>"):
            start, body = i, []
            while i < len(lines) and lines[i].strip():
                body.append(lines[i])
                i += 1
            blocks.append(Block("default", SPHINX_FLAGS, "\n".join(body) + "\n", start + 1))
            continue
        i += 1
    return blocks


def _dedent(body: list[str]) -> str:
    indents = [len(x) - len(x.lstrip()) for x in body if x.strip()]
    cut = min(indents, default=0)
    return "\n".join(x[cut:] for x in body) + "\n"


@dataclass
class Outcome:
    """Each example's outcome, in page order: ``(line, source, "passed" | "failed" |
    "skipped", detail)``."""

    examples: list = field(default_factory=list)

    def passed(self) -> set[int]:
        return {i for i, e in enumerate(self.examples) if e[2] == "passed"}

    def failed(self) -> list:
        return [e for e in self.examples if e[2] == "failed"]


class _Recorder(doctest.DocTestRunner):
    def __init__(self, outcome: Outcome, flags: int):
        super().__init__(optionflags=flags, verbose=False)
        self.outcome = outcome

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.outcome.examples.append((test.lineno + example.lineno, example.source, "passed", ""))

    def report_failure(self, out, test, example, got):
        detail = f"expected:\n{example.want}got:\n{got}"
        self.outcome.examples.append((test.lineno + example.lineno, example.source, "failed",
                                      detail))

    def report_unexpected_exception(self, out, test, example, exc_info):
        detail = f"{exc_info[0].__name__}: {exc_info[1]}"
        self.outcome.examples.append((test.lineno + example.lineno, example.source, "failed",
                                      detail))


def run_page(path: Path, lib: str) -> Outcome:
    """Runs a page's doctests with ``lib``'s substitution, group by group as sphinx does (one
    namespace per group, blocks in page order)."""
    outcome = Outcome()
    namespaces: dict[str, dict] = {}
    parser = doctest.DocTestParser()
    for block in doctest_blocks(substitute(path.read_text(), lib)):
        globs = namespaces.setdefault(block.group, {"__name__": "__main__"})
        test = parser.get_doctest(block.text, globs, f"{path.name}:{block.group}", str(path),
                                  block.lineno - 1)
        runner = _Recorder(outcome, block.flags)
        before = len(outcome.examples)
        runner.run(test, clear_globs=False)
        namespaces[block.group] = test.globs  # DocTest copied the namespace: keep its result
        # examples doctest skipped (+SKIP) are reported by nobody: record them in order
        seen = len(outcome.examples) - before
        skipped = [e for e in test.examples if e.options.get(doctest.SKIP)]
        if seen + len(skipped) != len(test.examples):  # pragma: no cover - runner contract
            raise AssertionError(f"{path.name}: lost examples at line {block.lineno}")
        for e in skipped:
            outcome.examples.append((block.lineno + e.lineno, e.source, "skipped", ""))
    return outcome
