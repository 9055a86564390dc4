"""Parameter editors generated from a spec's ``Param`` kinds, and the text <-> value rules they share.

int/float become spin boxes with the param's bounds (an arrow click applies at once, typed digits on Return; text
that is no number in range is refused whole and handed to ``apply`` as ``("text", text)`` so the caller's rules say
why, and the field keeps it in red with that reason, ``gui.number_spin_box``), bool a checkbox, choice a combo box;
shape, dims, tensor, seed and str are line edits whose text is parsed (JSON-like lists, never ``eval``) and then
validated by ``Param.validate``. ``make_editor(param, value, apply)`` calls ``apply(value)`` with the parsed value;
the caller validates and pushes the SetParam command.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QLineEdit, QWidget

from core.nodegraph.model import numtext
from gui.number_spin_box import FloatSpinBox, IntSpinBox

if TYPE_CHECKING:
    from core.nodegraph.model.spec import Param

INT_LIMIT = 2 ** 31 - 1
TEXT_MAX = 10_000  # elements of a tensor literal shown as editable text; larger ones are shown read-only
Apply = Callable[[Any], object]  # called with a param's new value, or ("text", typed text) for the caller to read


def text_of(param: Param, value: Any) -> str:
    if value is None:
        return ""
    if param.kind == "str":
        return value
    if isinstance(value, tuple):
        value = list(value)
    if hasattr(value, "tolist"):  # a large literal held as an array (core.nodegraph.model.tensor_store.TensorValue)
        if value.size > TEXT_MAX:
            return f"{value.dtype} tensor of shape {list(value.shape)}: too large to edit here"
        value = value.tolist()
    return json.dumps(value)


def show_text(line: QLineEdit, text: str) -> None:
    """Put ``text`` in ``line`` showing its start: a long tensor literal read from its last digits
    (``0.20357746, 0.030856013]]``), as a QLineEdit shows a text set in it, says nothing of its shape or first row.
    A field being typed in keeps its cursor where it is."""
    line.setText(text)
    if not line.hasFocus():
        line.setCursorPosition(0)


def parse_text(param: Param, text: str) -> Any:
    """The value typed for a line-edit param (``core.nodegraph.model.numtext.parse``: never eval, bounded nesting, no
    ``1e999`` read as infinity); ParamError naming the parameter when it can't be read."""
    return numtext.parse(param, text)


def make_editor(param: Param, value: Any, apply: Apply) -> QWidget:
    """A widget for ``param`` showing ``value``; user changes call ``apply(new value)``."""
    kind = param.kind
    w: QWidget
    if kind == "int":
        ints = IntSpinBox()
        ints.setRange(int(max(param.minimum, -INT_LIMIT)) if param.minimum is not None else -INT_LIMIT,
                      int(min(param.maximum, INT_LIMIT)) if param.maximum is not None else INT_LIMIT)
        ints.setValue(int(value))
        _apply_on_value(ints, apply)
        w = ints
    elif kind == "float":
        floats = FloatSpinBox()
        floats.setDecimals(6)
        floats.setRange(param.minimum if param.minimum is not None else -1e12,
                        param.maximum if param.maximum is not None else 1e12)
        _set_float_step(floats, param)
        floats.setValue(float(value))
        _apply_on_value(floats, apply)
        w = floats
    elif kind == "bool":
        check = QCheckBox()
        check.setChecked(bool(value))
        check.toggled.connect(apply)
        w = check
    elif kind == "choice":
        combo = QComboBox()
        combo.addItems([param.choice_text(c) for c in param.choices])  # "context (the toolbar's device)"
        combo.setCurrentIndex(list(param.choices).index(value) if value in param.choices else 0)
        combo.activated.connect(lambda i: apply(param.choices[i]))
        w = combo
    else:
        line = QLineEdit()
        show_text(line, text_of(param, value))
        line.setReadOnly(getattr(value, "size", 0) > TEXT_MAX and hasattr(value, "tolist"))
        line.setPlaceholderText({"dims": "null, 0 or [0, 1]", "seed": "empty: session's seed"}.get(kind, ""))
        line.editingFinished.connect(lambda: apply(("text", line.text())))
        w = line
    w.setObjectName(f"param_{param.name}")
    w.setToolTip(param.doc or param.name)
    return w


def _apply_on_value(w: IntSpinBox | FloatSpinBox, apply: Apply) -> None:
    """A spin box applies an arrow click or wheel step at once and typed digits on Return or leaving it; typed
    text it refuses goes to ``apply`` as text, whose refusal message the box keeps beside the text, framed in red,
    until it is fixed or Escape puts the value back (``gui.number_spin_box``; the document keeps its value)."""
    w.setKeyboardTracking(False)
    w.valueChanged.connect(apply)

    def reason(text: str) -> str | None:
        said = apply(("text", text))
        return said if isinstance(said, str) and said else None  # None: the parameter's rules took the text

    w.keep_refused_text(reason)


def _set_float_step(w: FloatSpinBox, param: Param) -> None:
    """Arrows step a fraction in [0, 1] by 0.05 and other floats by a tenth of their size (lr 0.01 -> 0.011)."""
    if param.minimum is not None and param.maximum is not None and param.maximum - param.minimum <= 1:
        w.setSingleStep(0.05)
    else:
        w.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
