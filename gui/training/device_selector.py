"""The device selector: CPU, and CUDA when ``core.cuda.is_available()``; emits the chosen device string."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

import core

__all__ = ["DeviceSelector", "devices"]


def devices() -> list[str]:
    """The devices this machine can train on."""
    try:
        cuda = core.cuda.is_available()
    except Exception:  # a broken CUDA setup just means CPU only
        cuda = False
    return ["cpu", "cuda"] if cuda else ["cpu"]


class DeviceSelector(QComboBox):
    device_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deviceSelector")
        self.setToolTip("Device the session computes on (CUDA is listed when core.cuda.is_available())")
        self.addItems(devices())
        self.activated.connect(lambda i: self.device_chosen.emit(self.itemText(i)))

    def set_device(self, device: str) -> None:
        i = self.findText(str(device).split(":")[0])
        if i >= 0:
            self.blockSignals(True)
            self.setCurrentIndex(i)
            self.blockSignals(False)
