"""On a screen scaled by a fraction (a laptop at 125 %, QT_SCALE_FACTOR=1.25 at 1366x768) the canvas repaints
whole: Qt's partial repaints round to whole logical pixels there, and after Forward all, a click on x and one on the
Train tab the canvas showed one-pixel lines of old frames (x's old right edge beside it, a line across the canvas
above the minimap). At a whole ratio it keeps repainting only what changed (a 500-node graph stays quick)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("factor, full", [("1.25", True), ("1.5", True), ("1", False), ("2", False)])
def test_the_canvas_repaints_whole_on_a_screen_scaled_by_a_fraction(tmp_path, factor, full):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR=factor, XDG_CONFIG_HOME=str(tmp_path),
               HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "tests.gui.scaled_canvas_start"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"ratio": float(factor), "full": full, "selected": True}
