"""The main window (a first version): shows the chapter's graph computed by a core session."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel, QMainWindow


class MainWindow(QMainWindow):
    """Nodegrad's window; the node editor arrives with the Qt editor issue."""

    def __init__(self):
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Nodegrad")
        self.label = QLabel("z = (x * w).sum() + b")
        self.label.setObjectName("summaryLabel")
        self.setCentralWidget(self.label)
        self.resize(900, 600)


def run(args) -> int:
    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.show()
    if args.screenshot:
        app.processEvents()
        window.grab().save(args.screenshot)
        return 0
    return app.exec()
