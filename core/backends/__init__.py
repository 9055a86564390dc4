"""``core.backends``: the switches PyTorch scripts read or set in their first lines.

``cudnn``, ``cuda``, ``mps``, ``cpu``, ``mkldnn``, ``openmp``, ``quantized`` hold PyTorch's flags with its defaults.
They change nothing in core (there is no cuDNN, TF32 or MPS path here); they are kept so that
``torch.backends.cudnn.benchmark = True`` or ``torch.backends.mps.is_available()`` run as written.
"""

from core.backends import cpu, cuda, cudnn, mha, mkldnn, mps, openmp, quantized  # noqa: F401
