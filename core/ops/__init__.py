"""All of core's ops, by family; ``core`` takes its functions from here and ``Tensor`` its methods.

Every family is imported explicitly: a broken op module is an import error of ``core``, never a
missing function or method. Once all are loaded, ``tensor_methods.install`` gives ``Tensor`` the
methods of its table (name -> op function, declared in ``core/ops/tensor_methods.py``).
"""

from core._dtype import from_numpy_dtype
from core._factories import *
from core._tensor import Tensor as _Tensor
from core.autograd.grad_mode import is_grad_enabled  # used by backward formulas
from core.ops import numpy_interop as _numpy_interop
from core.ops import numpy_names as _numpy_names
from core.ops import tensor_methods as _tensor_methods
from core.ops.comparison import *
from core.ops.complex_ops import *
from core.ops.conversion import *
from core.ops.copy_variants import *
from core.ops.counting import *
from core.ops.elementwise import *
from core.ops.hashing import *
from core.ops.indexing import *
from core.ops.inplace import *
from core.ops.joining import *
from core.ops.linalg import *
from core.ops.linalg_lowrank import *
from core.ops.linalg_lobpcg import lobpcg
from core.ops.linalg_householder import geqrf, orgqr
from core.ops.linalg_lu import legacy_lu as lu  # torch.lu, torch.lu_solve, torch.qr: the old forms
from core.ops.linalg_lu import legacy_lu_solve as lu_solve
from core.ops.linalg_lu import legacy_qr as qr
from core.ops.linalg_lu import lu_unpack, matrix_exp, pinverse
from core.ops.math import *
from core.ops.misc_more import *
from core.ops.movement import *
from core.ops.native_forms import *
from core.ops.nn_aliases import *
from core.ops.numeric_more import *
from core.ops.random_counts import *
from core.ops.rnn_forms import *  # torch.lstm, gru, rnn_tanh, rnn_relu (nn.LSTM's native forms)
from core.ops.removed_ops import *  # range, triangular_solve and the removed solve, lstsq, symeig, eig...
from core.ops.reduction import *
from core.ops.segment_reduce import *
from core.ops.sorting import *
from core.ops.logical_reductions import *
from core.ops.logsumexp_reduction import *
from core.ops.softmax_ops import *
from core.ops.statistics import *
from core.ops.vector_norms import *
from core.ops.numerical_gradient import *
from core.ops.tensor_gaps import *
from core.ops.tensor_more import *
from core.ops.views import *
from core.ops.windows import *

from core.ops import out_arg as _out_arg

_numpy_names.install(globals(), _tensor_methods.TENSOR_METHODS)
_out_arg.install(globals())  # out= on the torch functions whose op lacks it (not the Tensor methods;
# after the NumPy names, which skip a function already wrapped)
_numpy_interop.install(_tensor_methods.TENSOR_METHODS)
_tensor_methods.install(_Tensor)


def __getattr__(name):
    """``core.ops.aten`` (``torch.ops.aten``): core's ops under their ATen names, loaded on first use; the
    namespaces of operators defined with ``core.library`` (``torch.ops.mylib``)."""
    if name == "aten":
        from core._aten_ops import aten

        return aten
    if name == "profiler":  # (its two ops: defined by core.autograd.profiler when first asked for)
        from core.autograd import profiler

        profiler.define_profiler_ops()
    from core._library.custom_ops import namespace  # torch.ops.<ns> of operators torch.library defined

    found = namespace(name, create=not name.startswith("__"))  # torchaudio's torch.ops.torchaudio.forced_align
    if found is not None:  # (without its extension: AttributeError from the namespace, as in PyTorch)
        return found
    raise AttributeError(f"module 'core.ops' has no attribute '{name}'")
