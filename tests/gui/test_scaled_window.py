"""A newcomer's first start on a 1366x768 laptop scaled to 125 % (QT_SCALE_FACTOR=1.25): the Run toolbar hid its
device box, Redo and Undo behind "»", and lesson 4 opened on its first nodes with z out of view behind "more ▶" (its
margins made it 2 % too wide to frame whole). Now every toolbar button shows (the toolbar's font a little smaller
where it must be) and the device box opens by a click; the lesson's whole graph is in view, before and after Forward
all; the canvas keeps more of the window's width (the side columns took 53 % at 125 %, leaving it 496 px), and the
Inspector shows its fields without sideways scrolling. Runs in its own process on an offscreen screen of that size
(the scale and the screen are read at start)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _start(tmp_path, factor: str) -> dict:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=factor,
               XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "tests.gui.scaled_window_start"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("factor", ["1.25", "1"])
def test_the_first_start_shows_every_toolbar_button_and_the_whole_lesson_graph(tmp_path, factor):
    seen = _start(tmp_path, factor)
    assert seen["ratio"] == float(factor) and seen["lesson"]
    assert seen["hidden"] == [], f"behind '»': {seen['hidden']}"
    assert seen["left_tabs"] == [True, []], "Lesson, Nodes, Autograd and Diagnostics read whole, none elided"
    assert seen["device_list"], "a click on the device box opens its list"
    assert seen["whole"], "every node of lesson 4 in view on opening"
    assert seen["whole_after_forward"], "and after Forward all, with its values"
    assert seen["canvas_share"] >= 0.47, "the canvas keeps more of the width (at 125 % the columns took 53 %)"
    assert seen["inspector_fits"], "the narrower right column still shows the Inspector's fields without scrolling"
