"""bench/table_core.py measures what it says: hands played to the count asked, every
decision answered, every seat's frames built (a short run, no timing asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_table_core_benchmark_plays_the_hands_asked_and_frames_every_seat(
        tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    subprocess.run([sys.executable, str(ROOT / "bench" / "table_core.py"), "--hands", "30",
                    "--tables", "3", "--seats", "3", "--json", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    figures = json.loads(out.read_text())
    assert figures["hands"] >= 30 and figures["tables"] == 3 and figures["seats"] == 3
    assert figures["decisions"] >= 2 * figures["hands"]  # at least two decisions a hand
    assert figures["cpu_ms_per_hand"] > 0 and figures["cpu_us_per_decision"] > 0
    assert figures["frame_bytes_per_hand"] > 300  # every seat's frames of every event


def test_the_table_core_benchmark_refuses_a_count_out_of_range() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "table_core.py"),
                           "--seats", "11"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--seats is 2 to 10" in done.stderr
