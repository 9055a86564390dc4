"""Tensor methods that PyTorch defines in C as taking no arguments (or only keyword arguments), and its TypeError
when they get some.

``t.data_ptr(1)`` or ``t.exp(x=1)`` in PyTorch is CPython's refusal of a no-argument method of ``TensorBase``
("TensorBase.data_ptr() takes no arguments (1 given)", "... takes no keyword arguments"). Core's methods are
Python functions, whose refusal reads differently ("takes 1 positional argument but 2 were given"), so each one in
``NO_ARGUMENTS`` that takes only ``self`` is wrapped once, at import, to refuse extra arguments in PyTorch's words.
"""

from __future__ import annotations

import functools
import inspect

__all__ = ["refuse_arguments_as_torch"]

NO_ARGUMENTS = (
    "_conj _conj_physical _dimI _dimV _fix_weakref _indices _is_all_true _is_any_true _is_view _is_zerotensor "
    "_lazy_clone _neg_view _nested_tensor_size _nested_tensor_storage_offsets _nested_tensor_strides _nnz _use_count "
    "_values abs abs_ absolute absolute_ acos acos_ acosh acosh_ adjoint angle arccos arccos_ arccosh arccosh_ arcsin "
    "arcsin_ arcsinh arcsinh_ arctan arctan_ arctanh arctanh_ argwhere asin asin_ asinh asinh_ atan atan_ atanh atanh_ "
    "bitwise_not bitwise_not_ ccol_indices ceil ceil_ coalesce col_indices conj conj_physical conj_physical_ "
    "const_data_ptr corrcoef cos cos_ cosh cosh_ crow_indices data_ptr deg2rad deg2rad_ dense_dim dequantize det "
    "detach detach_ digamma digamma_ dim element_size erf erf_ erfc erfc_ erfinv erfinv_ exp exp2 exp2_ exp_ expm1 "
    "expm1_ fix fix_ fliplr flipud floor floor_ frac frac_ frexp geqrf get_device i0 i0_ indices int_repr inverse "
    "is_coalesced is_complex is_conj is_distributed is_floating_point is_inference is_neg is_nonzero is_signed "
    "isfinite isinf isnan isneginf isposinf isreal item lgamma lgamma_ log log10 log10_ log1p log1p_ log2 log2_ log_ "
    "logdet logical_not logical_not_ matrix_exp msort ndimension neg neg_ negative negative_ nelement numel positive "
    "q_per_channel_axis q_per_channel_scales q_per_channel_zero_points q_scale q_zero_point qscheme rad2deg rad2deg_ "
    "ravel reciprocal reciprocal_ relu relu_ resolve_conj resolve_neg retain_grad row_indices rsqrt rsqrt_ sgn sgn_ "
    "sigmoid sigmoid_ sign sign_ signbit sin sin_ sinc sinc_ sinh sinh_ slogdet sparse_dim sqrt sqrt_ square square_ "
    "storage_offset t t_ tan tan_ tanh tanh_ tolist trace trunc trunc_ untyped_storage values zero_"
).split()


def _takes_only_self(fn) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    rest = {p.kind for p in params[1:]}  # (a catch-all ``*args, **kwargs`` stub: torch's method takes none either)
    return bool(params) and params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD) and \
        rest <= {params[0].VAR_POSITIONAL, params[0].VAR_KEYWORD}


def _refusing(fn, name: str):
    """``fn`` (a method of ``self`` alone) that refuses any other argument as CPython refuses TensorBase's."""

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
        if args:
            raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return fn(self)

    return method


KEYWORDS_ONLY = ("is_contiguous", "contiguous", "clone", "numpy", "cpu")  # (torch: ``*, memory_format``...)


def _keywords_only(fn, name: str):
    """``fn`` refusing positional arguments as torch's argument parser refuses them for a method whose arguments
    are all keyword-only (``t.contiguous(torch.channels_last)``: "contiguous() takes 0 positional arguments but 1
    was given"; core's ``is_contiguous(1)`` was an AttributeError)."""

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if args:
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} "
                            f"{'was' if len(args) == 1 else 'were'} given")
        return fn(self, **kwargs)

    return method


def refuse_arguments_as_torch(cls) -> None:
    """Wrap each of ``cls``'s own no-argument methods named in ``NO_ARGUMENTS`` (once); another name bound to the
    same function (``__neg__`` is ``neg``, as in torch) is bound to the wrapper too, so it stays the same object."""
    first: dict = {}  # id of a wrapped function -> the wrapper made for its first name
    for names, wrap, fits in ((NO_ARGUMENTS, _refusing, _takes_only_self), (KEYWORDS_ONLY, _keywords_only, bool)):
        for name in names:
            fn = vars(cls).get(name)
            if inspect.isfunction(fn) and not getattr(fn, "refuses_arguments", False) and fits(fn):
                method = wrap(fn, name)  # (one per name: t.absolute(1) names absolute, t.abs(1) abs)
                method.refuses_arguments = True
                first.setdefault(id(fn), (fn, method))
                setattr(cls, name, method)
    for name, value in list(vars(cls).items()):
        if name not in (*NO_ARGUMENTS, *KEYWORDS_ONLY) and id(value) in first and first[id(value)][0] is value:
            setattr(cls, name, first[id(value)][1])
