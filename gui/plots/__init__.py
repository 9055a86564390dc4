"""pyqtgraph plots of the app (the only modules of the GUI that import pyqtgraph)."""
