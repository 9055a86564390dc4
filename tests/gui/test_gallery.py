"""tools/gallery.py renders a screen of the app into a PNG of the asked size."""

import importlib.util
from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

GALLERY = Path(__file__).resolve().parents[2] / "tools" / "gallery.py"


def test_the_gallery_renders_the_first_start_at_1366x768(qtbot, node_types, tmp_path):
    spec = importlib.util.spec_from_file_location("gallery", GALLERY)
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    out = gallery.render("first-start", (1366, 768), tmp_path / "first-start.png", QApplication.instance())
    image = QImage(str(out))
    assert out.stat().st_size > 10_000 and (image.width(), image.height()) == (1366, 768)
    background = image.pixelColor(image.width() // 2, image.height() // 2)
    assert len({image.pixelColor(x, 300).name() for x in range(0, 1366, 7)} - {background.name()}) > 5  # not blank
