"""The README's Python example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_example_runs(capsys):
    text = README.read_text(encoding="utf-8")
    section = text.split("## Python", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the README's Python section has no python code block"
    exec(compile(blocks[0], str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "sex" in out and "race" in out  # by_group printed with its index names
    assert "GapInterval(metric='equalized_odds'" in out


def test_readme_regression_example_prints_what_it_shows(capsys, tmp_path, monkeypatch):
    """The regression audit's worked example runs and prints the numbers the README quotes."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Auditing a numeric prediction", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the regression section has no python code block"
    monkeypatch.chdir(tmp_path)
    exec(compile(blocks[0], str(README), "exec"), {})
    printed = capsys.readouterr().out.strip().splitlines()
    shown = [" ".join(line[2:].strip() for line in group.splitlines())
             for group in re.findall(r"((?:^# .*\n)+)", blocks[0], flags=re.M)
             if group.startswith("# {")]
    assert len(printed) == len(shown) == 2
    for out, quoted in zip(printed, shown):
        assert out == quoted, (out, quoted)
    assert (tmp_path / "law-school-report" / "report.html").exists()
