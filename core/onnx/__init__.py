"""``core.onnx``: PyTorch's ONNX exporter's names, so that scripts which import ``torch.onnx`` (pytorch/examples'
word language model offers an ``--onnx-export`` flag) run. Core cannot write ONNX files: ``export`` fails as PyTorch
does in an environment without the exporter's packages (``onnxscript`` for the default exporter, ``onnx`` for the
legacy one with ``dynamo=False``). Its TorchScript exporter's registration names are here too (torchvision's ops
register their ONNX symbolics when imported): ``register_custom_op_symbolic``, ``TensorProtoDataType``,
``symbolic_helper``'s ``parse_args`` and the ``symbolic_opset11`` module."""

from __future__ import annotations

import enum as _enum
import re as _re

from . import symbolic_helper, symbolic_opset11

__all__ = ["export", "is_in_onnx_export", "OnnxExporterError", "register_custom_op_symbolic",
           "unregister_custom_op_symbolic", "TensorProtoDataType", "symbolic_helper", "symbolic_opset11"]


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


class TensorProtoDataType(_enum.IntEnum):
    """ONNX's element types (``TensorProto.DataType``), as a symbolic function names them in a ``Cast``."""

    UNDEFINED = 0
    FLOAT = 1
    UINT8 = 2
    INT8 = 3
    UINT16 = 4
    INT16 = 5
    INT32 = 6
    INT64 = 7
    STRING = 8
    BOOL = 9
    FLOAT16 = 10
    DOUBLE = 11
    UINT32 = 12
    UINT64 = 13
    COMPLEX64 = 14
    COMPLEX128 = 15
    BFLOAT16 = 16
    FLOAT8E4M3FN = 17
    FLOAT8E4M3FNUZ = 18
    FLOAT8E5M2 = 19
    FLOAT8E5M2FNUZ = 20


_custom_symbolics: dict[tuple[str, int], object] = {}


def _verify_custom_op_name(symbolic_name: str) -> None:
    if not _re.match(r"^[a-zA-Z0-9-_]*::[a-zA-Z-_]+[a-zA-Z0-9-_]*$", symbolic_name):
        raise OnnxExporterError(
            f"Failed to register operator {symbolic_name}. The symbolic name must match the format domain::name, "
            "and should start with a letter and contain only alphanumeric characters")
    if symbolic_name.split("::")[0] == "onnx":
        raise ValueError(f"Failed to register operator {symbolic_name}. onnx domain cannot be modified.")


def register_custom_op_symbolic(symbolic_name: str, symbolic_fn, opset_version: int) -> None:
    """Register ``symbolic_fn`` as the ONNX translation of the custom op ``domain::name`` from ``opset_version``
    on (kept for an export core cannot run; the name is checked as torch checks it)."""
    if symbolic_name.startswith("::"):
        symbolic_name = f"aten{symbolic_name}"
    _verify_custom_op_name(symbolic_name)
    _custom_symbolics[(symbolic_name, opset_version)] = symbolic_fn


def unregister_custom_op_symbolic(symbolic_name: str, opset_version: int) -> None:
    """Forget what ``register_custom_op_symbolic`` registered for ``symbolic_name`` at ``opset_version``."""
    if symbolic_name.startswith("::"):
        symbolic_name = f"aten{symbolic_name}"
    _verify_custom_op_name(symbolic_name)
    _custom_symbolics.pop((symbolic_name, opset_version), None)
