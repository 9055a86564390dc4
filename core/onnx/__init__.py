"""``core.onnx``: PyTorch's ONNX exporter's names, so that scripts which import ``torch.onnx`` (pytorch/examples'
word language model offers an ``--onnx-export`` flag) run. Core cannot write ONNX files: ``export`` fails as PyTorch
does in an environment without the exporter's packages (``onnxscript`` for the default exporter, ``onnx`` for the
legacy one with ``dynamo=False``)."""

from __future__ import annotations

__all__ = ["export", "is_in_onnx_export", "OnnxExporterError"]


class OnnxExporterError(RuntimeError):
    """Errors raised by the ONNX exporter (PyTorch's class of the same name)."""


def is_in_onnx_export() -> bool:
    """Whether an ONNX export is running: never, in core."""
    return False


def export(model, args=(), f=None, *, dynamo: bool = True, **kwargs):
    """Export ``model`` to ONNX: raises as PyTorch does without ``onnxscript`` (or ``onnx`` for ``dynamo=False``)."""
    if dynamo:
        raise ModuleNotFoundError("No module named 'onnxscript'", name="onnxscript")
    raise OnnxExporterError("Module onnx is not installed!")
