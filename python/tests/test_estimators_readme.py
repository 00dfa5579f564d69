"""The README's FairProjection example runs and does what it says (the gap shrinks)."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_fair_projection_example_runs():
    text = README.read_text()
    section = text[text.index("## Python: fair post-processing of a scikit-learn model"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    before, after = map(float, re.search(r"gap (\S+) -> (\S+)", out.getvalue()).groups())
    assert after < before / 2, out.getvalue()
