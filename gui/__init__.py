"""gui: the PySide6 views and controllers over core.nodegraph sessions. Computes nothing itself.

Qt's raster engine hands every fill of 96 or more pixel rows to a thread pool and waits for it. For the widget-
sized paints of this app the hand-off (waking a thread, a context switch) costs more than the fill, and the pool's
threads take CPU from training, which runs on the GUI thread. ``QT_NO_GUI_THREADPOOL`` (read when Qt first paints)
keeps painting on the GUI thread: a progress-bar update costs 0.25 ms instead of 0.54 ms. Set before any widget
module is imported; a value in the environment wins.
"""

import os

os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
