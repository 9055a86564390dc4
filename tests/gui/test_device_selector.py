"""The device selector offers CUDA only where ``core.cuda.is_available()``; choosing a device moves the session
with ``Session.to`` (what the move keeps is tested in tests/nodegraph/test_session_device.py).

The selector's tests stand ``core.cuda.is_available`` in for a GPU: they check what is listed and emitted,
never that anything computes on a GPU.
"""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import core
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from gui.main_window import MainWindow
from gui.training.device_selector import DeviceSelector, devices


@pytest.mark.parametrize(("available", "listed"), [(False, ["cpu"]), (True, ["cpu", "cuda"])])
def test_the_selector_lists_cuda_only_when_core_says_it_is_available(available, listed, qtbot, monkeypatch):
    monkeypatch.setattr(core.cuda, "is_available", lambda: available)
    selector = DeviceSelector()
    qtbot.addWidget(selector)
    assert devices() == listed and [selector.itemText(i) for i in range(selector.count())] == listed


def test_a_broken_cuda_setup_lists_the_cpu_only(monkeypatch):
    def broken():
        raise RuntimeError("CUDA driver version is insufficient")

    monkeypatch.setattr(core.cuda, "is_available", broken)
    assert devices() == ["cpu"]


def test_picking_cuda_with_the_keyboard_emits_it(qtbot, monkeypatch):
    monkeypatch.setattr(core.cuda, "is_available", lambda: True)
    selector = DeviceSelector()
    qtbot.addWidget(selector)
    selector.show()
    with qtbot.waitSignal(selector.device_chosen) as chosen:
        QTest.keyClick(selector, Qt.Key_Down)
    assert chosen.args == ["cuda"]


@pytest.fixture
def window(qtbot, monkeypatch, node_types):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(classifier_graph("spiral"))
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.undo_stack.clear()
    w.close()


def _train(qtbot, trainer, steps):
    trainer.train(steps)
    qtbot.waitUntil(lambda: trainer.state == "idle", timeout=60_000)


def test_another_device_moves_the_session_with_session_to_and_marks_the_run(qtbot, monkeypatch, window):
    trainer = window.training.trainer
    _train(qtbot, trainer, 2)
    session = window.bridge.session
    moved = []
    monkeypatch.setattr(session, "to", lambda device: moved.append(device) or session)
    trainer.set_device("cuda")
    trainer.set_device(session.device)  # the device it is on: nothing moves
    assert moved == ["cuda"] and trainer.history.current.markers[-1][1] == "device → cuda"


def test_training_goes_on_after_a_move_with_the_losses_of_a_run_without_one(qtbot, window):
    trainer = window.training.trainer
    _train(qtbot, trainer, 3)
    trainer.set_device("cpu:0")  # another name of the CPU: the whole move runs, on this machine
    assert window.bridge.session.device == "cpu:0"
    _train(qtbot, trainer, 3)
    expected = [m["loss"] for m in Session(classifier_graph("spiral")).train(6)]
    np.testing.assert_array_equal(trainer.history.current.series("loss"), expected)
