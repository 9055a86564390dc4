"""``torch._tensor_str``: where torch keeps ``get_printoptions``, ``printoptions`` and ``PRINT_OPTS`` (only
``set_printoptions`` is in torch's namespace); core's printer is ``core._printing``."""

from core._printing import PRINT_OPTS, get_printoptions, printoptions, set_printoptions

__all__ = ["PRINT_OPTS", "get_printoptions", "printoptions", "set_printoptions"]
