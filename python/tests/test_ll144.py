"""``fairkit.ll144``: the NYC Local Law 144 tables from Python are the ``fairkit ll144``
command's (its CSVs, cell for cell) from a file and from a DataFrame, hand-checked where the
rule is easy to get wrong (the excluded < 2 % category, unknowns, ties at the median), and bad
input raises ``FairkitError`` naming the keyword, row and column."""

from __future__ import annotations

import subprocess

import pandas as pd
import pytest

import fairkit
from fairkit._core import FairkitError

# (sex, race, applicants, selected): the command's golden file (crates/fairkit-cli/tests/ll144.rs).
CELLS = [("F", "Black", 20, 8), ("F", "White", 25, 15), ("M", "Black", 20, 10),
         ("M", "White", 30, 12), ("F", "Asian", 1, 1), ("", "White", 2, 1), ("M", "", 1, 0),
         ("M", "Unknown", 1, 0)]


def applicants() -> pd.DataFrame:
    rows = []
    for sex, race, n, sel in CELLS:
        for i in range(n):
            s = i < sel
            score = 0.1 if (s and sex == "M" and race == "Black") else (0.8 if s else 0.3)
            rows.append((sex or None, race or None, int(s), score))
    return pd.DataFrame(rows, columns=["sex", "race", "hired", "score"])


def _command(*args: str) -> subprocess.CompletedProcess:
    from conformance_cases import fairkit_binary

    return subprocess.run([fairkit_binary(), *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("tool", [("selected", "hired"), ("score", "score")])
def test_tables_equal_the_commands_csvs_from_a_file_and_a_dataframe(tmp_path, tool):
    df = applicants()
    path = tmp_path / "applicants.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "cmd"
    p = _command("ll144", str(path), "--sex", "sex", "--race", "race", f"--{tool[0]}", tool[1],
                 "--unknown-values", ",Unknown", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    kw = {tool[0]: tool[1]}
    from_file = fairkit.ll144(path, sex="sex", race="race", unknown_values=["", "Unknown"], **kw)
    from_frame = fairkit.ll144(df, sex="sex", race="race", unknown_values=["", "Unknown"], **kw)
    assert from_frame.json["input"] == "pandas DataFrame"
    for name in ("sex", "race", "intersection"):
        text = (out / f"ll144_{name}.csv").read_text()
        assert from_file.csv[name] == text
        assert from_frame.csv[name] == text
        command = fairkit._ll144._frame(text)
        pd.testing.assert_frame_equal(getattr(from_frame, name), command)
    assert from_file.markdown == (out / "ll144.md").read_text()
    race = from_frame.race.set_index("category")
    rate = "selection_rate" if tool[0] == "selected" else "scoring_rate"
    # Asian: 1 % of the applicants, excluded; the unknowns counted, no impact ratio.
    assert race.loc["Asian", "excluded"] and pd.isna(race.loc["Asian", "impact_ratio"])
    assert race.loc["Asian", rate] == 1.0
    assert race.loc["White", "impact_ratio"] == 1.0
    assert race[race["unknown"]].index.tolist() == ["", "Unknown"]
    assert from_frame.json["tables"][1]["unknown_applicants"] == 2.0
    if tool[0] == "score":
        # Median 0.3, held by 53 applicants, none of them above it; M & Black scored 0.1.
        assert from_frame.json["median_score"] == 0.3
        assert race.loc["Black", rate] == 8 / 40


def test_bad_input_names_the_keyword_row_and_column(tmp_path):
    df = applicants()
    with pytest.raises(FairkitError, match="exactly one of selected="):
        fairkit.ll144(df, sex="sex", race="race")
    with pytest.raises(FairkitError, match="exclude_below="):
        fairkit.ll144(df, sex="sex", race="race", selected="hired", exclude_below=0.5)
    with pytest.raises(FairkitError, match=r"'ethnicity'.*race="):
        fairkit.ll144(df, sex="sex", race="ethnicity", selected="hired")
    bad = df.copy()
    bad.loc[3, "hired"] = 2
    with pytest.raises(FairkitError, match=r"row 4.*selected=.*'2'"):
        fairkit.ll144(bad, sex="sex", race="race", selected="hired")
    with pytest.raises(FairkitError, match="audit_date="):
        fairkit.ll144(df, sex="sex", race="race", selected="hired", audit_date="31/03/2026")
