"""In-place forms of the math family (``exp_``, ``clamp_``, ``pow_``, ``lerp_``...).

Each runs the out-of-place primitive's forward and writes into ``self``: it never promotes
(``int_t.sqrt_()`` raises "result type Float can't be cast..."), refuses a leaf that requires grad,
bumps the version counter, and, when grad is needed, records the primitive's backward with
``self`` marked dirty (the history rebasing, views included, is core.autograd.inplace's job).
"""

from __future__ import annotations

from core import _dtype
from core._alias import alias
from core._arg_types import require_tensors
from core._scalar_fit import check_scalar_fits
from core._tensor import Tensor
from core.autograd import profiler as _profiler
from core.autograd.function import Function, capturing
from core.ops import _binary_operands as operands
from core.ops import math_binary as mb
from core.ops import math_clamp as mc
from core.ops import math_pairwise as mp
from core.ops import math_ternary as mt
from core.ops import math_unary as mu
from core.ops._util import broadcast_shapes, check_same_device, needs_grad, xp_of
from core.ops.complex_ops import refuse_complex
from core.ops.deprecated_overloads import NOT_GIVEN, scalar_first
from core.ops.elementwise import (
    _TYPE_NAMES,
    Neg,
    _check_cast,
    check_inplace,
    check_no_partial_overlap,
    div_,
    mul_,
    sub_,
    write_inplace,
)
from core.ops.views import clone

__all__ = ["abs_", "absolute_", "neg_", "negative_", "exp_", "exp2_", "log_", "log2_", "log10_", "log1p_", "expm1_",
           "sqrt_", "rsqrt_", "sin_", "cos_", "tan_", "asin_", "arcsin_", "acos_", "arccos_", "atan_", "arctan_",
           "sinh_", "cosh_", "tanh_", "asinh_", "arcsinh_", "acosh_", "arccosh_", "atanh_", "arctanh_", "sigmoid_",
           "relu_", "sign_", "sgn_", "floor_", "ceil_", "round_", "trunc_", "fix_", "frac_", "reciprocal_",
           "square_", "erf_", "erfc_", "erfinv_", "lgamma_", "digamma_", "polygamma_", "logit_", "sinc_",
           "deg2rad_", "rad2deg_", "nan_to_num_", "pow_", "float_power_", "clamp_", "clip_", "clamp_min_",
           "clamp_max_", "remainder_", "fmod_", "floor_divide_", "trunc_divide_", "atan2_",
           "arctan2_", "hypot_", "xlogy_", "copysign_", "heaviside_", "lerp_", "addcmul_", "addcdiv_",
           "subtract_", "multiply_", "divide_", "true_divide_"]


class _Inplace(Function):
    """``self.op_(...)``: the out-of-place primitive's forward and backward, with ``self`` dirty."""

    outplace = None
    writes_self = True  # (the profiler's name: aten::exp_)

    @classmethod
    def forward(cls, ctx, self, *args, old=None, **kw):
        res = cls.outplace.forward(ctx, self, *args, **kw)
        if ctx._saved is not None:  # the old self is needed: its clone; the result is self now
            if old is None and any(s is self for s in ctx._saved):
                old = Tensor._wrap(self._data.copy())
            ctx._saved = tuple(old if s is self else (self if s is res else s) for s in ctx._saved)
        xp_of(self._data).copyto(self._data, res._data if isinstance(res, Tensor) else res, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @classmethod
    def backward(cls, ctx, *grads):
        return cls.outplace.backward(ctx, *grads)


_CLASSES: dict = {}


def _inplace_class(outplace):
    cls = _CLASSES.get(outplace)
    if cls is None:
        cls = type(outplace.__name__ + "Inplace", (_Inplace,),
                   {"outplace": outplace, "node_name": outplace.node_name})
        _CLASSES[outplace] = cls
    return cls


def run_inplace(outplace, self: Tensor, *args, dt: _dtype.dtype, **kw) -> Tensor:
    """Check, then either record the in-place node (grad needed) or write directly."""
    check_inplace(self)
    operands = args + tuple(kw.values())
    check_same_device(self, *operands)
    for v in operands:
        check_no_partial_overlap(self, v)
    _check_cast(dt, self.dtype)
    shape = broadcast_shapes(self._data.shape, *(v._data.shape for v in operands if isinstance(v, Tensor)))
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    if needs_grad(self, *args) or capturing():  # the recorded route: core.compile's capture sees the write
        # NOTE: a backward that reads the old self gets a differentiable clone, so double backward sees it; a
        # profile shows that clone inside the op, as PyTorch's kernel makes it
        cls = _inplace_class(outplace)
        ahead = _profiler.open_ahead(cls) if _profiler._recording else None
        try:
            wanted = "x" in getattr(outplace, "saves", "x") and self._requires_grad
            needs_old = getattr(outplace, "needs_old", None)  # (LerpTensor: only for its weight's gradient)
            old = clone(self) if wanted and (needs_old is None or needs_old(*args)) else None
            return cls.apply(self, *args, old=old, **kw)
        finally:
            _profiler.close_ahead(ahead)
    res = outplace.forward(outplace._backward_cls(), self, *args, **kw)
    write_inplace(self, res._data if isinstance(res, Tensor) else res)
    return self


def _unary_(cls, name):
    def op_(self):
        return run_inplace(cls, self, dt=cls.result_dtype(self))

    op_.__name__ = op_.__qualname__ = name + "_"
    op_.__doc__ = f"In-place ``{name}``."
    return op_


abs_ = _unary_(mu.Abs, "abs")
absolute_ = alias(abs_, "absolute_")
exp_, exp2_, log_, log2_ = _unary_(mu.Exp, "exp"), _unary_(mu.Exp2, "exp2"), _unary_(mu.Log, "log"), \
    _unary_(mu.Log2, "log2")
log10_, log1p_, expm1_ = _unary_(mu.Log10, "log10"), _unary_(mu.Log1p, "log1p"), _unary_(mu.Expm1, "expm1")
sqrt_, rsqrt_ = _unary_(mu.Sqrt, "sqrt"), _unary_(mu.Rsqrt, "rsqrt")
sin_, cos_, tan_ = _unary_(mu.Sin, "sin"), _unary_(mu.Cos, "cos"), _unary_(mu.Tan, "tan")
asin_, acos_, atan_ = _unary_(mu.Asin, "asin"), _unary_(mu.Acos, "acos"), _unary_(mu.Atan, "atan")
arcsin_, arccos_, arctan_ = alias(asin_, "arcsin_"), alias(acos_, "arccos_"), alias(atan_, "arctan_")
sinh_, cosh_, tanh_ = _unary_(mu.Sinh, "sinh"), _unary_(mu.Cosh, "cosh"), _unary_(mu.Tanh, "tanh")
asinh_, acosh_, atanh_ = _unary_(mu.Asinh, "asinh"), _unary_(mu.Acosh, "acosh"), _unary_(mu.Atanh, "atanh")
arcsinh_, arccosh_ = alias(asinh_, "arcsinh_"), alias(acosh_, "arccosh_")
arctanh_ = alias(atanh_, "arctanh_")
sigmoid_, relu_ = _unary_(mu.Sigmoid, "sigmoid"), _unary_(mu.Relu, "relu")
sign_, sgn_ = _unary_(mu.Sign, "sign"), _unary_(mu.Sgn, "sgn")
floor_, ceil_ = _unary_(mu.Floor, "floor"), _unary_(mu.Ceil, "ceil")
trunc_ = _unary_(mu.Trunc, "trunc")
fix_ = alias(trunc_, "fix_")
frac_, reciprocal_ = _unary_(mu.Frac, "frac"), _unary_(mu.Reciprocal, "reciprocal")
erf_, erfc_, erfinv_ = _unary_(mu.Erf, "erf"), _unary_(mu.Erfc, "erfc"), _unary_(mu.Erfinv, "erfinv")
lgamma_, digamma_ = _unary_(mu.Lgamma, "lgamma"), _unary_(mu.Digamma, "digamma")
sinc_ = _unary_(mu.Sinc, "sinc")
deg2rad_, rad2deg_ = _unary_(mu.Deg2rad, "deg2rad"), _unary_(mu.Rad2deg, "rad2deg")


def square_(self):
    return run_inplace(mu.Square, self, dt=_dtype.int64 if self.dtype is _dtype.bool else self.dtype)


def neg_(self):
    return run_inplace(Neg, self, dt=self.dtype)


negative_ = alias(neg_, "negative_")


def round_(self, *, decimals=None):
    if decimals is not None:
        cls = mu.RoundDecimals if decimals else mu.RoundZeroDecimals
        return run_inplace(cls, self, dt=cls.result_dtype(self), decimals=int(decimals))
    return run_inplace(mu.Round, self, dt=mu.Round.result_dtype(self))


def polygamma_(self, n: int):
    if n == 0:
        return digamma_(self)
    return run_inplace(mu.Polygamma, self, dt=mu.Polygamma.result_dtype(self), n=int(n))


def logit_(self, eps=None):
    half = {"low": self._data.dtype} if self.dtype in (_dtype.float16, _dtype.bfloat16) else {}  # (as logit)
    return run_inplace(mu.Logit, self, dt=mu.Logit.result_dtype(self), eps=None if eps is None else float(eps),
                       **half)


def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    if type(self) is not Tensor:
        from core._sparse_coo_ops import nan_to_num_ as sparse_nan_to_num_

        if (res := sparse_nan_to_num_(self, nan, posinf, neginf)) is not None:  # a COO tensor's entries
            return res
    return run_inplace(mu.NanToNum, self, nan, posinf, neginf, dt=self.dtype)


# ----- binary and ternary ----------------------------------------------------------------------------
def pow_(self, exponent):
    if isinstance(exponent, Tensor):
        return run_inplace(mb.PowTensor, self, exponent, dt=mb._pow_dtype(self, exponent))
    return run_inplace(mb.PowScalar, self, dt=mb._pow_dtype(self, exponent), exponent=exponent)


def float_power_(self, exponent):
    dt = mb.float_power_dtype(self, exponent)
    if self.dtype is not dt:
        raise RuntimeError(f"the base given to float_power_ has dtype {_TYPE_NAMES[self.dtype.name]} but the "
                           f"operation's result requires dtype {_TYPE_NAMES[dt.name]}")
    e = exponent.to(dt) if isinstance(exponent, Tensor) else (complex if dt.is_complex else float)(exponent)
    return pow_(self, e)


def clamp_(self, min=None, max=None):  # PyTorch's names
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    lo, hi = mc.number_bounds(min, max)
    refuse_complex(self, NotImplementedError, "clamp is not supported for complex types")
    try:
        dt = mc._bounds_dtype(self, lo, hi)
        if isinstance(lo, Tensor) or isinstance(hi, Tensor):
            mc.check_bounds("clamp_", min, max)
            return run_inplace(mc.ClampTensor, self, lo, hi, dt=dt)
        return run_inplace(mc.Clamp, self, dt=dt, lo=lo, hi=hi)
    except TypeError:
        mc.refuse_bounds("clamp_", min, max)  # (a str bound: the parser's words)
        raise


def clip_(self, min=None, max=None):
    """``clamp_`` under NumPy's name (an argument error names ``clip_``)."""
    try:
        return clamp_(self, min, max)
    except TypeError as error:
        raise mc.renamed(error, "clamp_", "clip_") from None


def clamp_min_(self, min):
    if isinstance(min, Tensor):
        return run_inplace(mc.ClampMinTensor, self, min, None, dt=mc._bounds_dtype(self, min, None))
    return run_inplace(mc.ClampMin, self, dt=mc._bounds_dtype(self, min, None), lo=min)


def clamp_max_(self, max):
    if isinstance(max, Tensor):
        return run_inplace(mc.ClampMaxTensor, self, None, max, dt=mc._bounds_dtype(self, None, max))
    return run_inplace(mc.ClampMax, self, dt=mc._bounds_dtype(self, None, max), hi=max)


def remainder_(self, other):
    cls = mp.RemainderTensor if isinstance(other, Tensor) else mp.Remainder
    return run_inplace(cls, self, other, dt=_dtype.result_type(self, other))


def fmod_(self, other):
    cls = mp.FmodTensor if isinstance(other, Tensor) else mp.Fmod
    return run_inplace(cls, self, other, dt=_dtype.result_type(self, other))


def floor_divide_(self, other):
    return run_inplace(mp.FloorDivide, self, other, dt=_dtype.result_type(self, other), mode="floor")


def trunc_divide_(self, other):
    return run_inplace(mp.DivRounding, self, other, dt=_dtype.result_type(self, other), mode="trunc")


def div_rounding_(self, other, rounding_mode):
    """What ``div_`` runs for ``rounding_mode`` 'floor' or 'trunc'."""
    return run_inplace(mp.DivRounding, self, other, dt=_dtype.result_type(self, other), mode=rounding_mode)


def atan2_(self, other):
    require_tensors("atan2_", other=(1, other))
    return run_inplace(mp.Atan2, self, other, dt=operands._float_of(self, other))


arctan2_ = atan2_


def hypot_(self, other):
    require_tensors("hypot_", other=(1, other))
    return run_inplace(mp.Hypot, self, other, dt=operands._floats_only("hypot_cpu", self, other))


def xlogy_(self, other):
    if mp.any_complex(other) and not mp.any_complex(self):
        raise RuntimeError(f"result type {_TYPE_NAMES[_dtype.result_type(self, other).name]} can't be cast to the "
                           f"desired output type {_TYPE_NAMES[self.dtype.name]}")
    mp.refuse_complex_kernel("xlogy", self, other)
    cls = mp.Xlogy if isinstance(other, Tensor) else mp.XlogyScalarOther
    return run_inplace(cls, self, other, dt=operands._float_of(self, other))


def copysign_(self, other):
    mp.refuse_complex_kernel("copysign", self, other)
    cls = mp.Copysign if isinstance(other, Tensor) else mp.CopysignScalar
    return run_inplace(cls, self, other, dt=operands._float_of(self, other))


def heaviside_(self, values):
    require_tensors("heaviside_", values=(1, values))
    mp.refuse_complex_heaviside(self, values)
    return run_inplace(mp.Heaviside, self, values, dt=self.dtype)


def lerp_(self, end, weight):
    mt._check_lerp(self, end, weight)
    if not isinstance(weight, Tensor):
        check_scalar_fits(weight, self.dtype, opmath=True)
    return run_inplace(mt.LerpTensor if isinstance(weight, Tensor) else mt.Lerp, self, end, weight, dt=self.dtype)


def addcmul_(self, tensor1, tensor2, deprecated_tensor2=NOT_GIVEN, *, value=1):
    if deprecated_tensor2 is not NOT_GIVEN:  # addcmul_(value, tensor1, tensor2): old optimizers' second moments
        tensor1, tensor2, value = scalar_first("addcmul_", tensor1, tensor2, deprecated_tensor2, keyword="value",
                                               keyword_value=value)
    require_tensors("addcmul_", tensor1=(1, tensor1), tensor2=(2, tensor2))
    if _dtype.result_type(self, tensor1, tensor2) is _dtype.bool:
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    dt = _dtype.result_type(self, tensor1, tensor2)
    check_scalar_fits(value, dt, opmath=True)
    return run_inplace(mt.Addcmul, self, tensor1, tensor2, dt=dt, value=value)


def addcdiv_(self, tensor1, tensor2, deprecated_tensor2=NOT_GIVEN, *, value=1):
    if deprecated_tensor2 is not NOT_GIVEN:  # addcdiv_(value, tensor1, tensor2)
        tensor1, tensor2, value = scalar_first("addcdiv_", tensor1, tensor2, deprecated_tensor2, keyword="value",
                                               keyword_value=value)
    require_tensors("addcdiv_", tensor1=(1, tensor1), tensor2=(2, tensor2))
    if tensor1.dtype.category < 2 and tensor2.dtype.category < 2:  # (bool or integer: complex divides)
        raise RuntimeError(mt._ADDCDIV_INT)
    dt = _dtype.result_type(self, tensor1, tensor2)
    check_scalar_fits(value, dt, opmath=True)
    return run_inplace(mt.Addcdiv, self, tensor1, tensor2, dt=dt, value=value)


subtract_ = sub_
multiply_ = mul_
divide_, true_divide_ = alias(div_, "divide_"), alias(div_, "true_divide_")
