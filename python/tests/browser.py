"""A headless Chromium driven through the Chrome DevTools Protocol over a pipe
(`--remote-debugging-pipe`: requests on the child's fd 3, replies on its fd 4, each message a JSON
object ended by a NUL byte). No Python dependency and no WebDriver: the browser is the Debian
package `chromium` (/usr/bin/chromium), which `cargo xtask test` installs with apt-get when it
is missing.

Used by test_report_browser.py to render the report pages at a 1280 px viewport, measure their
layout from JavaScript, and take screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

# Flags for a root user on a machine with no network: no sandbox (root), no GPU, and nothing
# that phones home (its refused connections would only slow the start).
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    "--remote-debugging-pipe",
]


def find_chromium() -> str | None:
    """The Chromium executable: $FAIRKIT_CHROMIUM, else chromium / chromium-browser /
    google-chrome on the PATH."""
    env = os.environ.get("FAIRKIT_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page (a tab) attached in flat session mode."""

    def __init__(self, executable: str, timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="fairkit-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds():  # in the child: the protocol's fds are 3 (read) and 4 (write)
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=fds,
            pass_fds=(3, 4),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.session = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable")
        self.call("Runtime.enable")

    # -- protocol -------------------------------------------------------------------------
    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise CdpError(f"Chromium closed the pipe (exit {self.proc.poll()}): {err[-2000:]}")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, session: bool = True, **params) -> dict:
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self._to_child, data):]
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for k, e in enumerate(self.events):
                if e["method"] == method:
                    return self.events.pop(k)["params"]
            self.events.append(self._read_message(deadline))

    # -- page -----------------------------------------------------------------------------
    def open(self, path: Path, width: int = 1280, height: int = 900) -> None:
        """Loads a local file at a `width` px wide viewport (device scale 1) and waits for it."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )
        self.events.clear()
        self.call("Page.navigate", url=Path(path).resolve().as_uri())
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise CdpError(f"JavaScript failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, out: Path, x: float, y: float, width: float, height: float,
                   scale: float = 1.0) -> int:
        """A PNG of the page region (CSS px, page coordinates) at `scale`; returns its size."""
        r = self.call(
            "Page.captureScreenshot", format="png", captureBeyondViewport=True,
            clip={"x": x, "y": y, "width": width, "height": height, "scale": scale},
        )
        data = base64.b64decode(r["data"])
        Path(out).write_bytes(data)
        return len(data)

    def pdf(self, out: Path | None = None) -> bytes:
        """The loaded page printed to PDF by the browser (its print CSS applies; the page size is
        the one its `@page` rule asks for); written to `out` when given."""
        r = self.call("Page.printToPDF", preferCSSPageSize=True, printBackground=False)
        data = base64.b64decode(r["data"])
        if out is not None:
            Path(out).write_bytes(data)
        return data

    def close(self) -> None:
        try:
            self.call("Browser.close", session=False)
        except (CdpError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


def pdf_pages(data: bytes) -> int:
    """Pages of a PDF Chromium wrote: its page objects (`/Type /Page`, not `/Pages`)."""
    import re

    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


# Where the first page (the verdict box) sits and whether the table of contents links resolve:
# the box's top and height, the top of its first verdict line, and every contents link whose
# target is missing.
FIRST_PAGE_JS = r"""
(() => {
  const box = document.querySelector('section.first-page');
  if (!box) return {found: false};
  const r = box.getBoundingClientRect();
  const lead = box.querySelector('p strong') || box.querySelector('li');
  const links = [...document.querySelectorAll('nav.toc a')].map(a => a.getAttribute('href'));
  const broken = links.filter(h => !h.startsWith('#') ||
    !document.getElementById(decodeURIComponent(h.slice(1))));
  return {
    found: true, top: r.top + window.scrollY, height: r.height,
    leadTop: lead ? lead.getBoundingClientRect().top + window.scrollY : null,
    leadText: lead ? lead.textContent.trim().slice(0, 120) : null,
    links: links.length, broken,
  };
})()
"""


# Measures the layout of the loaded page. Overflow: an element (outside the charts) whose
# content is wider than its box (scrollWidth > clientWidth), or the page wider than the
# viewport. Charts: for every <text> of every inline SVG, the size the browser draws it at —
# its computed font-size times the SVG's scale (rendered width / viewBox width) — and whether
# its box stays inside the chart's box.
MEASURE_JS = r"""
(() => {
  const vw = document.documentElement.clientWidth;
  const describe = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const t = (el.textContent || '').trim().replace(/\s+/g, ' ');
    return s + ' "' + t.slice(0, 80) + '"';
  };
  const overflow = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'inline' || cs.display === 'none' || el.clientWidth === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      overflow.push({el: describe(el), scrollWidth: el.scrollWidth, clientWidth: el.clientWidth});
    }
  }
  const pageWidth = document.documentElement.scrollWidth;
  const charts = [];
  let minLabel = Infinity, minLabelText = null, texts = 0;
  const svgs = [...document.querySelectorAll('svg')].filter(s => !s.parentElement.closest('svg'));
  svgs.forEach((svg, k) => {
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width
      ? svg.viewBox.baseVal.width : parseFloat(svg.getAttribute('width'));
    const scale = box.width / vb;
    const small = [], outside = [], cut = [];
    let min = Infinity;
    for (const t of svg.querySelectorAll('text')) {
      const label = (t.textContent || '').trim();
      if (!label) continue;
      texts++;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < min) min = px;
      if (px < minLabel) { minLabel = px; minLabelText = label; }
      if (px < 10) small.push({text: label, px: Math.round(px * 100) / 100});
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 ||
          r.bottom > box.bottom + 1) {
        outside.push(label);
      }
      if (label.includes('\u2026')) cut.push(label);
    }
    const fig = svg.closest('figure');
    const cap = fig && fig.querySelector('figcaption');
    charts.push({
      index: k,
      title: cap ? cap.textContent.trim() : (svg.querySelector('text') || {}).textContent,
      top: box.top + window.scrollY, left: box.left, width: box.width, height: box.height,
      scale, minLabelPx: min, small, outside, cut,
    });
  });
  return {
    viewport: vw, pageWidth, pageHeight: document.documentElement.scrollHeight,
    overflow, charts, texts, minLabelPx: minLabel, minLabelText,
  };
})()
"""
