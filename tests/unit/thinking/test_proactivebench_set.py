"""The speaking-first set from real activity (experiments/data/proactivebench): the converter
rebuilds the committed set from the source's own rows, and the evaluation runs on it. Real files,
no network: `raw_sample.json` holds a few of the source's rows unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXPERIMENTS = Path(__file__).resolve().parents[3] / "experiments"
DATA = EXPERIMENTS / "data" / "proactivebench"
sys.path.insert(0, str(EXPERIMENTS))

from proactivebench_convert import convert  # noqa: E402
from speaking_first_real import load, real_speaking_first_report  # noqa: E402


def sample() -> dict:
    return json.loads((DATA / "raw_sample.json").read_text(encoding="utf-8"))


def committed() -> list[dict]:
    lines = (DATA / "situations.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def source_checkout(root: Path) -> Path:
    """The sample laid out as the source repository's files."""
    raw = sample()
    (root / "dataset" / "reward_data").mkdir(parents=True)
    (root / "dataset" / "test_data").mkdir(parents=True)
    rows = "\n".join(json.dumps(r, ensure_ascii=False) for r in raw["rows"])
    (root / "dataset" / "reward_data" / "test_data.jsonl").write_text(rows + "\n")
    (root / "dataset" / "reward_data" / "train_data.jsonl").write_text("")
    splits = {"real_average": {"files": ["code_11.json"]}}
    (root / "dataset" / "test_data" / "splits.json").write_text(json.dumps(splits))
    trace = [{"observation": raw["sessions"]["code_11"]}]
    (root / "dataset" / "test_data" / "code_11.json").write_text(json.dumps(trace))
    return root


def test_the_converter_rebuilds_the_committed_moments_from_the_source_rows() -> None:
    raw = sample()
    moments = convert(raw["rows"], raw["sessions"])
    # the "no task" rows and the gym's generated session are left out
    assert [(m["session"], m["event"]) for m in moments] == [("code_11", 0), ("code_11", 1)]
    assert [sum(c["accepted"] * 2 > c["annotators"] for c in m["candidates"]) for m in moments] == [
        1,
        3,
    ]
    assert all(m["half"] == "dev" for m in moments)
    assert moments == committed()[:2]  # the committed set is what the converter makes


def test_a_row_whose_valid_disagrees_with_the_majority_is_refused() -> None:
    raw = sample()
    row = next(r for r in raw["rows"] if r["pred_task"] and r["valid"])
    row["valid"] = False
    with pytest.raises(ValueError, match="majority"):
        convert(raw["rows"], raw["sessions"])


def test_the_documented_command_converts_a_checkout_and_the_eval_runs_on_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "situations.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            str(EXPERIMENTS / "proactivebench_convert.py"),
            str(source_checkout(tmp_path / "src")),
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "2 moments, 10 candidates" in done.stdout
    assert [json.loads(line) for line in out.read_text().splitlines()] == committed()[:2]

    report = "\n".join(real_speaking_first_report(seeds=2, path=out))
    assert "### dev half: 2 moments in 1 sessions, 2 worth speaking at" in report
    # each moment alone, gold ratings: the gate says a candidate the people accepted both times
    assert "| gold | alone | gate | 1.000 | 1.000 | 1.000 | 0.000 | 0.0 | 2.0 |" in report
    # replayed: the second moment is seconds after the first message, so the pacing holds it
    assert "| gold | replayed, paced | gate | 1.000 | 0.500 | 0.667 | 0.000 | 0.0 | 1.0 |" in report
    assert "test half" not in report


def test_the_full_set_has_both_halves_and_the_report_states_the_targets() -> None:
    moments = load()
    halves = {h: [m for m in moments if m.half == h] for h in ("dev", "test")}
    assert (len(halves["dev"]), len(halves["test"])) == (112, 121)
    sessions = {h: {m.session for m in ms} for h, ms in halves.items()}
    assert not sessions["dev"] & sessions["test"]  # no session on both sides
    report = "\n".join(real_speaking_first_report(seeds=2))
    assert "### test half: 121 moments in 6 sessions, 92 worth speaking at" in report
    assert "Targets on the test half" in report
