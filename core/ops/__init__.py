"""All of core's ops, by family; ``core`` takes its functions from here and ``Tensor`` its methods.

Every family is imported explicitly: a broken op module is an import error of ``core``, never a
missing function or method. Once all are loaded, ``tensor_methods.install`` gives ``Tensor`` the
methods of its table (name -> op function, declared in ``core/ops/tensor_methods.py``).
"""

from core._dtype import from_numpy_dtype  # noqa: F401
from core._factories import *  # noqa: F401,F403
from core._tensor import Tensor as _Tensor
from core.autograd.grad_mode import is_grad_enabled  # noqa: F401 - used by backward formulas
from core.ops import tensor_methods as _tensor_methods
from core.ops.comparison import *  # noqa: F401,F403
from core.ops.conversion import *  # noqa: F401,F403
from core.ops.counting import *  # noqa: F401,F403
from core.ops.elementwise import *  # noqa: F401,F403
from core.ops.indexing import *  # noqa: F401,F403
from core.ops.inplace import *  # noqa: F401,F403
from core.ops.joining import *  # noqa: F401,F403
from core.ops.linalg import *  # noqa: F401,F403
from core.ops.linalg_lu import legacy_lu as lu  # noqa: F401 - torch.lu, torch.lu_solve, torch.qr: the old forms
from core.ops.linalg_lu import legacy_lu_solve as lu_solve  # noqa: F401
from core.ops.linalg_lu import legacy_qr as qr  # noqa: F401
from core.ops.linalg_lu import lu_unpack, matrix_exp, pinverse  # noqa: F401
from core.ops.math import *  # noqa: F401,F403
from core.ops.movement import *  # noqa: F401,F403
from core.ops.nn_aliases import *  # noqa: F401,F403
from core.ops.random_counts import *  # noqa: F401,F403
from core.ops.reduction import *  # noqa: F401,F403
from core.ops.sorting import *  # noqa: F401,F403
from core.ops.statistics import *  # noqa: F401,F403
from core.ops.tensor_more import *  # noqa: F401,F403
from core.ops.views import *  # noqa: F401,F403
from core.ops.windows import *  # noqa: F401,F403

_tensor_methods.install(_Tensor)
