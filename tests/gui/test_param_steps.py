"""Spin-box arrows step by amounts that make sense for the parameter's range."""

from core.nodegraph.model.spec import Param
from gui.param_widgets import make_editor


def test_a_fraction_steps_by_five_hundredths(qtbot):
    w = make_editor(Param("val_fraction", "float", 0.0, minimum=0.0, maximum=0.9), 0.0, lambda v: None)
    qtbot.addWidget(w)
    w.stepUp()
    assert w.value() == 0.05


def test_an_unbounded_float_steps_by_a_tenth_of_its_size(qtbot):
    w = make_editor(Param("lr", "float", 0.01, minimum=0.0), 0.01, lambda v: None)
    qtbot.addWidget(w)
    w.stepUp()
    assert abs(w.value() - 0.011) < 1e-9
