"""``torch.func``'s smaller transforms: ``linearize``, ``functionalize`` and ``replace_all_batch_norm_modules_``.

``linearize(f, *primals)`` gives ``f(*primals)`` and a ``jvp_fn(*tangents)`` that is ``jvp`` at those primals
(core recomputes it per call; PyTorch traces it once, the values are the same). ``functionalize(f)`` runs ``f``
as it is: core executes in-place ops eagerly and the observable results (outputs, mutated inputs) are what
functionalization preserves. ``replace_all_batch_norm_modules_`` stops every BatchNorm in a module tracking
running statistics, so ``vmap`` over a model does not write them.
"""

from __future__ import annotations

import functools

import core
from core.utils._pytree import tree_flatten

__all__ = ["linearize", "functionalize", "replace_all_batch_norm_modules_"]


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is the Jacobian-vector product at ``primals``."""
    from core.func import jvp  # func imports this module

    output = func(*primals)
    flat_primals, spec = tree_flatten(primals)

    def jvp_fn(*tangents):
        flat_tangents, tangent_spec = tree_flatten(tangents)
        if tangent_spec != spec:
            raise RuntimeError(f"Expected the tangents {tangent_spec} to have the same argspec as the primals {spec}")
        for i, (t, p) in enumerate(zip(flat_tangents, flat_primals)):
            for what in ("shape", "device", "dtype"):
                if getattr(t, what) != getattr(p, what):
                    raise RuntimeError(f"tangent:{i} with {what} {getattr(t, what)} in flattened pytree doesn't "
                                       f"match the {what} {getattr(p, what)} of the corresponding primal.")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


_REMOVE_HELP = ("Valid options are:\n     remove='mutations': all inplace and out= operators will be removed from the "
                "program, and replaced with their out-of-place equivalents.\n     remove='mutations_and_views': In "
                "addition to the above, all aliasing operators {view} will be replaced with their non-aliasing "
                "counterparts, {view}_copy.\n")


def functionalize(func, *, remove: str = "mutations"):
    """``func`` with mutations removed, which in core's eager execution computes what ``func`` computes."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. "
                           + _REMOVE_HELP)

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapped


def replace_all_batch_norm_modules_(root):
    """In place: every BatchNorm in ``root`` (``root`` included) stops tracking running statistics
    (``running_mean``, ``running_var`` and ``num_batches_tracked`` become None); returns ``root``."""
    for module in root.modules():
        if isinstance(module, core.nn.modules.normalization._BatchNorm) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
