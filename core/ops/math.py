"""The math op family: unary functions, binary/ternary ops and their in-place forms.

Split over ``math_unary``, ``math_binary``, ``math_pairwise``, ``math_ternary`` and ``math_inplace`` to keep files
small; this module gathers their public names for ``core.ops``.
"""

from __future__ import annotations

from core.ops import math_binary, math_inplace, math_pairwise, math_reflected, math_ternary, math_unary
from core.ops.math_binary import *  # noqa: F403
from core.ops.math_inplace import *  # noqa: F403
from core.ops.math_inplace import div_rounding_  # noqa: F401 - div_(rounding_mode=...) runs it
from core.ops.math_pairwise import *  # noqa: F403
from core.ops.math_pairwise import div_rounding  # noqa: F401 - div(rounding_mode=...) runs it
from core.ops.math_reflected import *  # noqa: F403
from core.ops.math_ternary import *  # noqa: F403
from core.ops.math_unary import *  # noqa: F403

__all__ = list(math_unary.__all__) + list(math_binary.__all__) + list(math_pairwise.__all__) \
    + list(math_ternary.__all__) + list(math_reflected.__all__) \
    + list(math_inplace.__all__)
