"""gui: the PySide6 views and controllers over core.nodegraph sessions. Computes nothing itself."""
