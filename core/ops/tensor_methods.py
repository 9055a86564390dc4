"""Tensor's op methods, declared in one place: method name -> the op function it is.

``x.sum(1)`` is ``reduction.sum(x, 1)``: each function here is set on ``Tensor`` as it is (a plain
function on a class is a method), so a call costs no forwarding frame. ``core.ops`` installs the
table once every op family is imported: ops import ``Tensor``, and ``core._tensor`` imports no op.
Signatures and one-line docs for readers and IDEs are in ``core/_tensor.pyi``, generated from this
table by ``python tools/gen_tensor_stub.py`` (a test checks that the stub is current).
"""

from __future__ import annotations

from types import FunctionType as _FunctionType

import numpy as np

from core import _dlpack, _legacy_storages, _sparse_coo, _stft
from core import storage as _storage
from core._alias import alias
from core._tensor import Tensor
from core.ops import (
    _fastpath,
    arity_words,
    comparison,
    complex_ops,
    conversion,
    counting,
    cumulative,
    elementwise,
    hashing,
    index_dim,
    indexing,
    inplace,
    linalg,
    linalg_addmm,
    linalg_householder,
    linalg_lu,
    linalg_more,
    linalg_svd,
    logical_reductions,
    logsumexp_reduction,
    math_binary,
    math_inplace,
    math_pairwise,
    math_reflected,
    math_ternary,
    math_unary,
    method_args,
    method_out,
    movement,
    numeric_more,
    order_stats,
    python_operators,
    random_samplers,
    rearranging,
    reduction,
    removed_ops,
    scatter,
    softmax_ops,
    sorting,
    statistics,
    tensor_gaps,
    tensor_internals,
    tensor_more,
    vector_norms,
    views,
)
from core.overrides import handle_torch_function, has_torch_function_unary

__all__ = ["TENSOR_METHODS", "install"]

_COMPARABLE = (Tensor, int, float, complex, np.generic)


def _eq(self, other):
    """``self == other``; an operand ``eq`` does not take (None, a str, a list, a user's class) gives
    ``NotImplemented`` as PyTorch's, so Python asks the other operand and else compares identities (``t == None`` is
    False)."""
    if not isinstance(other, _COMPARABLE):
        return NotImplemented
    return comparison.eq(self, other)


def _ne(self, other):
    """``self != other``; ``NotImplemented`` for the operands ``_eq`` declines (``t != None`` is True)."""
    if not isinstance(other, _COMPARABLE):
        return NotImplemented
    return comparison.ne(self, other)


def _invert(self):
    """``~self``: bitwise not of an integer or Boolean tensor."""
    if self.dtype.is_floating_point or self.dtype.is_complex:  # (bfloat16 too, NumPy kind 'V')
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return comparison.bitwise_not(self)


def _rfloordiv(self, other):
    """``other // self``."""
    return math_pairwise.floor_divide(other, self)


def _rmod(self, other):
    """``other % self``."""
    return math_pairwise.remainder(other, self)


def _rpow(self, other):
    """``other ** self``."""
    return math_binary.pow(other, self)


def _matmul_operator(self, other):
    """``self @ other``; a tensor-like ``other`` (no Tensor, a ``__torch_function__``: GPyTorch's LinearOperator) is
    handed ``Tensor.matmul``, the method torch's operator passes (its ``__rmatmul__`` answers), not ``torch.matmul``."""
    if not isinstance(other, Tensor) and has_torch_function_unary(other):
        return handle_torch_function(Tensor.matmul, (self, other), self, other)
    return linalg.matmul(self, other)


def _rmatmul(self, other):
    """``other @ self``."""
    return linalg.matmul(other, self)


def _where(self, condition, y):
    """``x.where(c, y)`` is ``where(c, x, y)``: ``self`` is not the first argument here."""
    return comparison.where(condition, self, y)


TENSOR_METHODS = {
    # Python's operators (the hot path: ``a + b`` and ``a * b`` take _fastpath.binary_operator's route first)
    "__add__": python_operators.fast_operator(np.add, elementwise.add, elementwise.Add.apply),
    "__radd__": math_reflected.radd, "__iadd__": elementwise.add_,
    "__sub__": elementwise.sub, "__rsub__": math_reflected.rsub_op, "__isub__": elementwise.sub_,
    "__mul__": python_operators.fast_operator(np.multiply, elementwise.mul, elementwise.Mul.apply),
    "__rmul__": math_reflected.rmul, "__imul__": elementwise.mul_,
    "__truediv__": elementwise.div, "__rtruediv__": math_reflected.rtruediv, "__itruediv__": elementwise.div_,
    "__floordiv__": math_pairwise.floor_divide, "__rfloordiv__": _rfloordiv,
    "__ifloordiv__": math_inplace.floor_divide_,
    "__mod__": math_pairwise.remainder, "__rmod__": _rmod, "__imod__": math_inplace.remainder_,
    "__pow__": math_binary.pow, "__rpow__": _rpow, "__ipow__": math_inplace.pow_,
    "__matmul__": _matmul_operator, "__rmatmul__": _rmatmul,
    "__neg__": elementwise.neg, "__abs__": math_unary.abs, "__invert__": _invert,
    "__and__": comparison.bitwise_and, "__rand__": comparison.bitwise_and,
    "__or__": comparison.bitwise_or, "__ror__": comparison.bitwise_or,
    "__xor__": comparison.bitwise_xor, "__rxor__": comparison.bitwise_xor,
    "__eq__": _eq, "__ne__": _ne, "__lt__": comparison.lt, "__le__": comparison.le,
    "__gt__": comparison.gt, "__ge__": comparison.ge,
    "__getitem__": indexing.getitem, "__setitem__": indexing.setitem,
    # conversion
    "to": conversion.to, "where": _where,
    # math_unary
    "abs": math_unary.abs, "absolute": math_unary.abs, "exp": math_unary.exp, "exp2": math_unary.exp2,
    "log": math_unary.log, "log2": math_unary.log2, "log10": math_unary.log10, "log1p": math_unary.log1p,
    "expm1": math_unary.expm1, "sqrt": math_unary.sqrt, "rsqrt": math_unary.rsqrt, "sin": math_unary.sin,
    "cos": math_unary.cos, "tan": math_unary.tan, "asin": math_unary.asin, "acos": math_unary.acos,
    "atan": math_unary.atan, "sinh": math_unary.sinh, "cosh": math_unary.cosh, "tanh": math_unary.tanh,
    "sigmoid": math_unary.sigmoid, "relu": math_unary.relu, "sign": math_unary.sign, "sgn": math_unary.sgn,
    "floor": math_unary.floor, "ceil": math_unary.ceil, "round": math_unary.round, "trunc": math_unary.trunc,
    "frac": math_unary.frac, "reciprocal": math_unary.reciprocal, "square": math_unary.square, "erf": math_unary.erf,
    "erfinv": math_unary.erfinv, "nan_to_num": math_unary.nan_to_num, "erfc": math_unary.erfc,
    "asinh": math_unary.asinh, "acosh": math_unary.acosh, "atanh": math_unary.atanh, "arcsin": math_unary.asin,
    "arccos": math_unary.acos, "arctan": math_unary.atan, "arcsinh": math_unary.asinh, "arccosh": math_unary.acosh,
    "arctanh": math_unary.atanh, "fix": math_unary.trunc, "logit": math_unary.logit, "lgamma": math_unary.lgamma,
    "digamma": math_unary.digamma, "sinc": math_unary.sinc, "deg2rad": math_unary.deg2rad,
    "rad2deg": math_unary.rad2deg, "signbit": math_unary.signbit, "positive": math_unary.positive,
    "polygamma": math_unary.polygamma,
    # elementwise
    "neg": elementwise.neg, "negative": elementwise.neg, "add": elementwise.add, "sub": elementwise.sub,
    "subtract": elementwise.sub, "mul": elementwise.mul, "multiply": elementwise.mul, "div": elementwise.div,
    "divide": elementwise.div, "true_divide": elementwise.div, "add_": elementwise.add_, "sub_": elementwise.sub_,
    "mul_": elementwise.mul_, "div_": elementwise.div_, "subtract_": elementwise.sub_, "multiply_": elementwise.mul_,
    "divide_": elementwise.div_, "true_divide_": elementwise.div_,
    # math_binary
    "clamp": math_binary.clamp, "clip": math_binary.clip, "clamp_min": math_binary.clamp_min,
    "clamp_max": math_binary.clamp_max, "minimum": math_binary.minimum_method, "maximum": math_binary.maximum_method,
    "pow": math_binary.pow, "float_power": math_binary.float_power, "fmax": math_binary.fmax_method,
    "fmin": math_binary.fmin_method,
    # math_ternary
    "lerp": math_ternary.lerp, "addcmul": math_ternary.addcmul, "addcdiv": math_ternary.addcdiv,
    # math_pairwise
    "floor_divide": math_pairwise.floor_divide, "remainder": math_pairwise.remainder, "fmod": math_pairwise.fmod,
    "atan2": math_pairwise.atan2, "hypot": math_pairwise.hypot, "xlogy": math_pairwise.xlogy,
    "arctan2": math_pairwise.atan2, "logaddexp": math_pairwise.logaddexp, "heaviside": math_pairwise.heaviside,
    "copysign": math_pairwise.copysign,
    # comparison
    "logical_and": comparison.logical_and, "logical_or": comparison.logical_or, "logical_not": comparison.logical_not,
    "logical_xor": comparison.logical_xor, "bitwise_and": comparison.bitwise_and, "bitwise_or": comparison.bitwise_or,
    "bitwise_xor": comparison.bitwise_xor, "bitwise_not": comparison.bitwise_not, "eq": comparison.eq,
    "ne": comparison.ne, "lt": comparison.lt, "le": comparison.le, "gt": comparison.gt, "ge": comparison.ge,
    "greater": comparison.gt, "less": comparison.lt, "greater_equal": comparison.ge, "less_equal": comparison.le,
    "not_equal": comparison.ne, "isnan": comparison.isnan, "isinf": comparison.isinf, "isfinite": comparison.isfinite,
    "isclose": comparison.isclose, "allclose": comparison.allclose, "equal": comparison.equal,
    "masked_fill": comparison.masked_fill, "masked_fill_": comparison.masked_fill_,
    "logical_and_": comparison.logical_and_, "logical_or_": comparison.logical_or_,
    "logical_not_": comparison.logical_not_, "logical_xor_": comparison.logical_xor_, "eq_": comparison.eq_,
    "ne_": comparison.ne_, "lt_": comparison.lt_, "le_": comparison.le_, "gt_": comparison.gt_, "ge_": comparison.ge_,
    "bitwise_and_": comparison.bitwise_and_, "bitwise_or_": comparison.bitwise_or_,
    "bitwise_xor_": comparison.bitwise_xor_, "bitwise_not_": comparison.bitwise_not_,
    "bitwise_left_shift": comparison.bitwise_left_shift, "bitwise_right_shift": comparison.bitwise_right_shift,
    "greater_": comparison.gt_, "less_": comparison.lt_, "greater_equal_": comparison.ge_,
    "less_equal_": comparison.le_, "not_equal_": comparison.ne_,
    "bitwise_left_shift_": comparison.bitwise_left_shift_, "bitwise_right_shift_": comparison.bitwise_right_shift_,
    "isposinf": comparison.isposinf, "isneginf": comparison.isneginf, "isreal": comparison.isreal,
    # math_inplace
    "abs_": math_inplace.abs_, "neg_": math_inplace.neg_, "exp_": math_inplace.exp_, "log_": math_inplace.log_,
    "sqrt_": math_inplace.sqrt_, "sin_": math_inplace.sin_, "cos_": math_inplace.cos_, "tanh_": math_inplace.tanh_,
    "sigmoid_": math_inplace.sigmoid_, "relu_": math_inplace.relu_, "floor_": math_inplace.floor_,
    "ceil_": math_inplace.ceil_, "round_": math_inplace.round_, "trunc_": math_inplace.trunc_,
    "reciprocal_": math_inplace.reciprocal_, "clamp_": math_inplace.clamp_, "clip_": math_inplace.clip_,
    "pow_": math_inplace.pow_, "remainder_": math_inplace.remainder_, "floor_divide_": math_inplace.floor_divide_,
    "lerp_": math_inplace.lerp_, "square_": math_inplace.square_, "sign_": math_inplace.sign_,
    "exp2_": math_inplace.exp2_, "log2_": math_inplace.log2_, "log10_": math_inplace.log10_,
    "log1p_": math_inplace.log1p_, "expm1_": math_inplace.expm1_, "rsqrt_": math_inplace.rsqrt_,
    "tan_": math_inplace.tan_, "asin_": math_inplace.asin_, "acos_": math_inplace.acos_, "atan_": math_inplace.atan_,
    "sinh_": math_inplace.sinh_, "cosh_": math_inplace.cosh_, "frac_": math_inplace.frac_,
    "clamp_min_": math_inplace.clamp_min_, "clamp_max_": math_inplace.clamp_max_, "fmod_": math_inplace.fmod_,
    "atan2_": math_inplace.atan2_, "hypot_": math_inplace.hypot_, "erf_": math_inplace.erf_,
    "erfc_": math_inplace.erfc_, "erfinv_": math_inplace.erfinv_, "xlogy_": math_inplace.xlogy_,
    "nan_to_num_": math_inplace.nan_to_num_, "absolute_": math_inplace.abs_, "negative_": math_inplace.neg_,
    "addcmul_": math_inplace.addcmul_, "addcdiv_": math_inplace.addcdiv_,
    "arcsin_": math_inplace.asin_, "arccos_": math_inplace.acos_, "arctan_": math_inplace.atan_,
    "asinh_": math_inplace.asinh_, "arcsinh_": math_inplace.asinh_, "acosh_": math_inplace.acosh_,
    "arccosh_": math_inplace.acosh_, "atanh_": math_inplace.atanh_, "arctanh_": math_inplace.atanh_,
    "sgn_": math_inplace.sgn_, "fix_": math_inplace.trunc_, "lgamma_": math_inplace.lgamma_,
    "digamma_": math_inplace.digamma_, "polygamma_": math_inplace.polygamma_, "logit_": math_inplace.logit_,
    "sinc_": math_inplace.sinc_, "deg2rad_": math_inplace.deg2rad_, "rad2deg_": math_inplace.rad2deg_,
    "float_power_": math_inplace.float_power_, "arctan2_": math_inplace.atan2_, "copysign_": math_inplace.copysign_,
    "heaviside_": math_inplace.heaviside_,
    # inplace
    "zero_": inplace.zero_, "fill_": inplace.fill_, "copy_": inplace.copy_, "fill_diagonal_": inplace.fill_diagonal_,
    # random_samplers
    "uniform_": random_samplers.uniform_, "normal_": random_samplers.normal_,
    "exponential_": random_samplers.exponential_, "bernoulli_": random_samplers.bernoulli_,
    "random_": random_samplers.random_, "log_normal_": random_samplers.log_normal_,
    "bernoulli": random_samplers.bernoulli, "multinomial": random_samplers.multinomial,
    "geometric_": random_samplers.geometric_, "cauchy_": random_samplers.cauchy_,
    # reduction
    "sum": reduction.sum, "mean": reduction.mean, "prod": reduction.prod, "max": reduction.max, "min": reduction.min,
    "amax": reduction.amax, "amin": reduction.amin, "argmax": reduction.argmax, "argmin": reduction.argmin,
    "nansum": reduction.nansum, "aminmax": reduction.aminmax, "nanmean": reduction.nanmean,
    # statistics, logical reductions, logsumexp, vector norms, softmax
    "var": statistics.var, "std": statistics.std, "logsumexp": logsumexp_reduction.logsumexp,
    "norm": vector_norms.norm, "all": logical_reductions.all_method, "any": logical_reductions.any_method,
    "softmax": softmax_ops.softmax, "log_softmax": softmax_ops.log_softmax,
    "count_nonzero": logical_reductions.count_nonzero_method, "dist": vector_norms.dist,
    # cumulative
    "cumsum": cumulative.cumsum, "cumprod": cumulative.cumprod, "logcumsumexp": cumulative.logcumsumexp,
    "cummax": cumulative.cummax, "cummin": cumulative.cummin, "diff": cumulative.diff,
    # order_stats
    "median": order_stats.median, "mode": order_stats.mode, "nanmedian": order_stats.nanmedian,
    "kthvalue": order_stats.kthvalue, "quantile": order_stats.quantile, "nanquantile": order_stats.nanquantile,
    # views
    "view": views.view, "view_as": views.view_as, "reshape": views.reshape, "reshape_as": views.reshape_as,
    "transpose": views.transpose, "t": views.t, "permute": views.permute, "squeeze": views.squeeze_method,
    "unsqueeze": views.unsqueeze_method, "expand": views.expand, "expand_as": views.expand_as,
    "as_strided": views.as_strided, "contiguous": views.contiguous, "clone": views.clone, "swapaxes": views.swapaxes,
    "swapdims": views.swapdims,
    # movement
    "flatten": movement.flatten, "unflatten": movement.unflatten, "narrow": movement.narrow,
    "select": movement.select, "unbind": movement.unbind, "split": movement.split, "chunk": movement.chunk,
    "diagonal": movement.diagonal, "unfold": movement.unfold, "movedim": movement.movedim,
    "moveaxis": movement.movedim, "squeeze_": movement.squeeze_, "unsqueeze_": movement.unsqueeze_, "t_": movement.t_,
    "transpose_": movement.transpose_, "broadcast_to": movement.broadcast_to_method, "ravel": movement.ravel,
    "hsplit": movement.hsplit, "vsplit": movement.vsplit, "tensor_split": movement.tensor_split,
    "dsplit": movement.dsplit, "split_with_sizes": movement.split_with_sizes, "narrow_copy": movement.narrow_copy,
    "adjoint": movement.adjoint, "swapaxes_": movement.swapaxes_, "swapdims_": movement.swapdims_,
    # rearranging
    "repeat": rearranging.repeat, "tile": rearranging.tile, "flip": rearranging.flip_method, "roll": rearranging.roll,
    "tril": rearranging.tril, "triu": rearranging.triu, "tril_": rearranging.tril_, "triu_": rearranging.triu_,
    "fliplr": rearranging.fliplr, "flipud": rearranging.flipud, "rot90": rearranging.rot90, "diag": rearranging.diag,
    "diag_embed": rearranging.diag_embed, "trace": rearranging.trace, "select_scatter": rearranging.select_scatter,
    "slice_scatter": rearranging.slice_scatter, "diagonal_scatter": rearranging.diagonal_scatter,
    # linalg
    "matmul": linalg.matmul, "mm": linalg.mm, "bmm": linalg.bmm, "mv": linalg.mv, "dot": linalg.dot,
    "outer": linalg.outer, "inner": linalg.inner, "vdot": linalg.vdot, "ger": linalg.outer,
    # linalg_addmm
    "addmm": linalg_addmm.addmm, "addmv": linalg_addmm.addmv, "addbmm": linalg_addmm.addbmm,
    "baddbmm": linalg_addmm.baddbmm, "addr": linalg_addmm.addr, "addmm_": linalg_addmm.addmm_,
    "addmv_": linalg_addmm.addmv_, "addbmm_": linalg_addmm.addbmm_, "baddbmm_": linalg_addmm.baddbmm_,
    "addr_": linalg_addmm.addr_,
    # index_dim
    "index_select": index_dim.index_select, "index_add": index_dim.index_add, "index_fill": index_dim.index_fill,
    "index_copy": index_dim.index_copy, "index_add_": index_dim.index_add_, "index_fill_": index_dim.index_fill_,
    "index_copy_": index_dim.index_copy_, "repeat_interleave": index_dim.repeat_interleave,
    # scatter
    "gather": scatter.gather, "scatter": scatter.scatter, "scatter_add": scatter.scatter_add,
    "take_along_dim": scatter.take_along_dim, "scatter_": scatter.scatter_, "scatter_add_": scatter.scatter_add_,
    "scatter_reduce": scatter.scatter_reduce, "scatter_reduce_": scatter.scatter_reduce_,
    # indexing
    "nonzero": indexing.nonzero, "masked_select": indexing.masked_select, "masked_scatter": indexing.masked_scatter,
    "put_": indexing.put_, "take": indexing.take, "index_put": indexing.index_put, "index_put_": indexing.index_put_,
    "masked_scatter_": indexing.masked_scatter_, "argwhere": indexing.argwhere, "put": indexing.put,
    # sorting
    "sort": sorting.sort, "argsort": sorting.argsort, "topk": sorting.topk, "unique": sorting.unique,
    "msort": sorting.msort, "unique_consecutive": sorting.unique_consecutive,
    # linalg_more
    "kron": linalg_more.kron, "cross": linalg_more.cross, "det": linalg_more.det, "inverse": linalg_more.inverse,
    "matrix_power": linalg_more.matrix_power, "slogdet": linalg_more.slogdet, "logdet": linalg_more.logdet,
    # counting
    "bincount": counting.bincount, "histc": counting.histc, "histogram": counting.histogram, "cov": counting.cov,
    "corrcoef": counting.corrcoef, "frexp": counting.frexp,
    # tensor_more
    "new": tensor_more.new, "new_empty_strided": tensor_more.new_empty_strided, "renorm": tensor_more.renorm,
    "renorm_": tensor_more.renorm_, "sum_to_size": tensor_more.sum_to_size, "cumsum_": tensor_more.cumsum_,
    "cumprod_": tensor_more.cumprod_, "logaddexp2": tensor_more.logaddexp2, "diagflat": tensor_more.diagflat,
    "gcd": tensor_more.gcd, "lcm": tensor_more.lcm, "gcd_": tensor_more.gcd_, "lcm_": tensor_more.lcm_,
    "ldexp": tensor_more.ldexp, "ldexp_": tensor_more.ldexp_, "is_same_size": tensor_more.is_same_size,
    "is_neg": tensor_more.is_neg, "resolve_neg": tensor_more.resolve_neg,
    # complex_ops: conjugation and angle (real/imag are Tensor properties)
    "is_conj": complex_ops.is_conj, "resolve_conj": complex_ops.resolve_conj, "conj": complex_ops.conj,
    "conj_physical": complex_ops.conj_physical, "angle": complex_ops.angle,
    "conj_physical_": complex_ops.conj_physical_, "stft": _stft.stft, "istft": _stft.istft,
    # linalg_householder, removed_ops: QR's reflector forms, triangular_solve, and the removed solve, lstsq, symeig, eig
    "geqrf": linalg_householder.geqrf, "orgqr": linalg_householder.orgqr,
    "triangular_solve": removed_ops.triangular_solve, "solve": removed_ops.solve, "lstsq": removed_ops.lstsq,
    "symeig": removed_ops.symeig, "eig": removed_ops.eig,
    # linalg_lu, linalg_svd: the old top-level forms (torch.lu, torch.qr, torch.svd...) as methods
    "lu": linalg_lu.legacy_lu, "lu_solve": linalg_lu.legacy_lu_solve, "qr": linalg_lu.legacy_qr,
    "matrix_exp": linalg_lu.matrix_exp, "pinverse": linalg_lu.pinverse, "svd": linalg_svd.svd,
    # numeric_more
    "cholesky_solve": numeric_more.cholesky_solve, "cholesky_inverse": numeric_more.cholesky_inverse,
    "cholesky": numeric_more.cholesky, "mvlgamma": numeric_more.mvlgamma, "mvlgamma_": numeric_more.mvlgamma_,
    "nextafter": numeric_more.nextafter, "nextafter_": numeric_more.nextafter_,
    "index_reduce": numeric_more.index_reduce, "index_reduce_": numeric_more.index_reduce_,
    "apply_": numeric_more.apply_, "map_": numeric_more.map_, "resize_": numeric_more.resize_,
    "resize_as_": numeric_more.resize_as_, "share_memory_": numeric_more.share_memory_,
    # storage: the memory under a tensor
    "untyped_storage": _storage.untyped_storage, "storage": _storage.storage, "is_set_to": _storage.is_set_to,
    "storage_type": _legacy_storages.storage_type,
    "hash_tensor": hashing.hash_tensor,
    "sparse_mask": _sparse_coo.sparse_mask,
    "__dlpack__": _dlpack.dlpack, "__dlpack_device__": _dlpack.dlpack_device,
}


TENSOR_METHODS.update(tensor_gaps.TENSOR_METHODS)  # set_, as_strided_, resize, i0, igamma, prelu, ...
TENSOR_METHODS.update(tensor_internals.TENSOR_METHODS)  # _is_all_true, _neg_view, __delitem__, reinforce, ...
TENSOR_METHODS.update(python_operators.TENSOR_METHODS)  # +t, x in t, <<, >>, &=, reversed(t), xpu()...

# PyTorch's aliased methods are methods of their own, named for the alias (Tensor.absolute.__name__ == "absolute")
_ALIASES = ("absolute absolute_ arccos arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan arctan_ arctan2 "
            "arctan2_ arctanh arctanh_ clip clip_ divide divide_ true_divide true_divide_ fix fix_ greater greater_ "
            "greater_equal greater_equal_ less less_ less_equal less_equal_ not_equal not_equal_ multiply multiply_ "
            "subtract subtract_ negative negative_ moveaxis swapaxes swapdims swapaxes_ swapdims_ ger ndimension "
            "nelement").split()
for _name in _ALIASES:
    _method = TENSOR_METHODS.get(_name)
    if type(_method) is _FunctionType and _method.__name__ != _name:
        TENSOR_METHODS[_name] = alias(_method, _name)


def install(cls) -> None:
    """Give ``cls`` (``Tensor``) every method of the table; ``core.ops`` calls it once."""
    unwrapped = {name: TENSOR_METHODS[name] for name in method_args.TRANSLATED}
    method_out.refuse_out(TENSOR_METHODS, skip=("__add__", "__mul__"))  # (their hot path refuses out itself)
    for name, function in unwrapped.items():  # (refuse_out's wrappers translate the method's argument errors too)
        if TENSOR_METHODS[name] is function:
            TENSOR_METHODS[name] = method_args.translating(function, name)
    arity_words.install(TENSOR_METHODS)  # a wrong count or keyword in the parser's words (the error path only)
    python_operators.install(TENSOR_METHODS)  # binary operators answer NotImplemented to operands they cannot take
    TENSOR_METHODS["sum"] = _fastpath.whole_sum(TENSOR_METHODS["sum"], reduction.Sum)  # (t.sum(): the hot path)
    for name, function in TENSOR_METHODS.items():
        setattr(cls, name, function)
    for name, value in tensor_internals.TENSOR_ATTRIBUTES.items():  # _make_wrapper_subclass, ...
        setattr(cls, name, value)
