"""A teacher presenting at 1366x768 (View ▸ Presentation mode, Ctrl+Shift+P, full screen): the toolbar's last buttons
(Fit all, Undo, Redo, the device box) hid behind "»" and the minimap sat over the enlarged graph's nodes. Now every
button shows, in the largest font that fits (the presentation size at 1920x1080), and the minimap stays hidden while
presenting; leaving puts both back. Each screen size runs in its own process on an offscreen screen of that size."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from core.nodegraph.lessons.texts import EXAMPLES_DIR

LESSON_4 = str(EXAMPLES_DIR / "04-autograd-graph.json")


def _present(tmp_path, width: int, height: int, scale: str = "1") -> dict:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "projector", "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path), "QT_SCALE_FACTOR": scale}
    out = subprocess.run([sys.executable, "-m", "tests.gui.presentation_start", LESSON_4], env=env,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_presenting_shows_every_toolbar_button_and_no_minimap_over_the_graph(tmp_path, size):
    seen = _present(tmp_path, *size)
    normal, presenting, after = seen["normal"], seen["presenting"], seen["after"]
    assert presenting["width"] == size[0]
    assert presenting["hidden"] == [], f"behind '»' while presenting: {presenting['hidden']}"
    assert presenting["toolbar_pt"] > normal["toolbar_pt"], "the buttons still grow for the class"
    assert presenting["toolbar_pt"] <= presenting["window_pt"]
    if size == (1920, 1080):
        assert presenting["toolbar_pt"] == presenting["window_pt"], "room for the whole presentation size"
    assert presenting["minimap"] is False
    assert after["toolbar_pt"] == normal["toolbar_pt"] and after["hidden"] == normal["hidden"] == []


def test_presenting_on_a_laptop_scaled_to_125_percent_shows_every_toolbar_button(tmp_path):
    """At QT_SCALE_FACTOR=1.25 the usual font itself has no room for every button (the toolbar fits it below it,
    ``gui.toolbar_fit``): presenting goes down as far, instead of stopping at the usual size behind "»"."""
    seen = _present(tmp_path, 1366, 768, "1.25")
    assert [seen[k]["hidden"] for k in ("normal", "presenting", "after")] == [[], [], []]
    assert seen["presenting"]["toolbar_pt"] >= seen["normal"]["toolbar_pt"]
    assert seen["presenting"]["minimap"] is False
