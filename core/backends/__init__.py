"""``core.backends``: the switches PyTorch scripts read or set in their first lines.

``cudnn``, ``cuda``, ``mps``, ``cpu``, ``mkldnn``, ``openmp``, ``quantized`` hold PyTorch's flags with its defaults.
They change nothing in core (there is no cuDNN, TF32 or MPS path here); they are kept so that
``torch.backends.cudnn.benchmark = True`` or ``torch.backends.mps.is_available()`` run as written.
"""

import contextlib
import types

# Bare assignments to the flags (``torch.backends.cudnn.benchmark = True``) are allowed until
# ``disable_global_flags()``; PyTorch's test suite turns them off. As in PyTorch, whose ``torch.backends`` is a
# wrapper module, assigning ``torch.backends.__allow_nonbracketed_mutation_flag`` (as MONAI's ``set_determinism``
# does) shadows the name without unfreezing anything; reading it reads the flag.
_allow_bare_assignment = True


def __getattr__(name):
    if name == "__allow_nonbracketed_mutation_flag":
        return _allow_bare_assignment
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def disable_global_flags():
    """From now on a bare assignment to a backend's flag raises; its ``flags()`` context manager still sets it."""
    global _allow_bare_assignment
    _allow_bare_assignment = False


def flags_frozen():
    """Whether ``disable_global_flags()`` has turned bare assignments to the flags off."""
    return not _allow_bare_assignment


@contextlib.contextmanager
def __allow_nonbracketed_mutation():
    """Bare assignments allowed inside the block, whatever ``disable_global_flags`` said."""
    global _allow_bare_assignment
    old, _allow_bare_assignment = _allow_bare_assignment, True
    try:
        yield
    finally:
        _allow_bare_assignment = old


class _FlagModule(types.ModuleType):
    """A backend module (cudnn, mkldnn) whose flags refuse a bare assignment while the flags are frozen."""

    _flags: frozenset = frozenset()

    def __setattr__(self, name, value):
        if name in self._flags and flags_frozen():
            raise RuntimeError(f"not allowed to set {self.__name__.replace('core.', 'torch.', 1)} flags after "
                               "disable_global_flags; please use flags() context manager instead")
        super().__setattr__(name, value)


def _guard_flags(module, names):
    """Make ``module``'s ``names`` refuse bare assignment while the flags are frozen (``flags()`` still sets them:
    it assigns the module's globals)."""
    module.__class__ = type("FlagModule", (_FlagModule,), {"_flags": frozenset(names)})


from core.backends import cpu, cuda, cudnn, mha, mkldnn, mps, openmp, quantized  # noqa: E402, F401
