"""``out=`` on the torch functions whose op has an ``.out`` overload (#19), against torch: a right-sized ``out``
is written and returned itself, a wrong-sized one is resized with torch's warning, a wrong dtype is cast or
refused as torch does, an input that requires grad is refused, and the Tensor methods keep refusing ``out=``."""

import math
import warnings

import pytest

import core


def _x(L):
    return L.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])


def _spd(L):
    return L.tensor([[4.0, 2.0], [2.0, 3.0]])


def _nan(L):
    return L.tensor([[1.0, math.nan, 3.0], [4.0, 2.0, math.nan]])


_CALLS = {  # name -> call(L, out)
    "all": lambda L, o: L.all(L.tensor([[True, False], [True, True]]), 1, out=o),
    "any": lambda L, o: L.any(L.tensor([[True, False], [False, False]]), 1, out=o),
    "amax": lambda L, o: L.amax(_x(L), 1, out=o),
    "amin": lambda L, o: L.amin(_x(L), 1, out=o),
    "aminmax": lambda L, o: L.aminmax(_x(L), dim=1, out=o),
    "angle": lambda L, o: L.angle(L.tensor([-1.0, 2.0, -3.0]), out=o),
    "argmax": lambda L, o: L.argmax(_x(L), 1, out=o),
    "argmin": lambda L, o: L.argmin(_x(L), 1, out=o),
    "cholesky": lambda L, o: L.cholesky(_spd(L), out=o),
    "cholesky_inverse": lambda L, o: L.cholesky_inverse(L.tensor([[2.0, 0.0], [1.0, 1.0]]), out=o),
    "cholesky_solve": lambda L, o: L.cholesky_solve(L.tensor([[1.0], [2.0]]), L.tensor([[2.0, 0.0], [1.0, 1.0]]),
                                                    out=o),
    "complex": lambda L, o: L.complex(L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0]), out=o),
    "conj_physical": lambda L, o: L.conj_physical(L.tensor([1 + 2j, 3 - 1j]), out=o),
    "cross": lambda L, o: L.cross(L.tensor([[1.0, 2.0, 3.0]]), L.tensor([[4.0, 5.0, 7.0]]), dim=1, out=o),
    "cummax": lambda L, o: L.cummax(_x(L), 1, out=o),
    "cummin": lambda L, o: L.cummin(_x(L), 1, out=o),
    "cumprod": lambda L, o: L.cumprod(_x(L), 1, out=o),
    "diag": lambda L, o: L.diag(L.tensor([1.0, 2.0, 3.0]), out=o),
    "diff": lambda L, o: L.diff(_x(L), dim=1, out=o),
    "gcd": lambda L, o: L.gcd(L.tensor([12, 18]), L.tensor([8, 27]), out=o),
    "lcm": lambda L, o: L.lcm(L.tensor([12, 18]), L.tensor([8, 27]), out=o),
    "ger": lambda L, o: L.ger(L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0, 5.0]), out=o),
    "outer": lambda L, o: L.outer(L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0, 5.0]), out=o),
    "hash_tensor": lambda L, o: L.hash_tensor(L.tensor([[1.0, 2.0], [3.0, 4.0]]), 1, out=o),
    "chain_matmul": lambda L, o: L.chain_matmul(_spd(L), _spd(L), L.tensor([[1.0], [2.0]]), out=o),
    "sort": lambda L, o: L.sort(_x(L), 1, out=o),
    "argsort": lambda L, o: L.argsort(_x(L), dim=1, stable=True, out=o),
    "topk": lambda L, o: L.topk(_x(L), 2, out=o),
    "kthvalue": lambda L, o: L.kthvalue(_x(L), 2, 1, out=o),
    "mode": lambda L, o: L.mode(L.tensor([[1.0, 2.0, 1.0], [3.0, 3.0, 2.0]]), 1, out=o),
    "searchsorted": lambda L, o: L.searchsorted(L.tensor([1.0, 3.0, 5.0]), L.tensor([2.0, 5.0]), out=o),
    "bucketize": lambda L, o: L.bucketize(L.tensor([2.0, 5.0]), L.tensor([1.0, 3.0, 5.0]), right=True, out=o),
    "frexp": lambda L, o: L.frexp(_x(L), out=o),
    "histogram": lambda L, o: L.histogram(L.tensor([1.0, 2.0, 1.0, 3.5]), 3, out=o),
    "isin": lambda L, o: L.isin(_x(L), L.tensor([1.0, 2.0]), out=o),
    "softmax": lambda L, o: L.softmax(_x(L), 1, out=o),
    "log_softmax": lambda L, o: L.log_softmax(_x(L), 1, out=o),
    "scatter": lambda L, o: L.scatter(_x(L), 1, L.tensor([[0], [1]]), 0.0, out=o),
    "nonzero": lambda L, o: L.nonzero(_x(L) > 2, out=o),
    "histc": lambda L, o: L.histc(L.tensor([1.0, 2.0, 1.0, 3.5]), bins=4, min=0, max=4, out=o),
    "index_select": lambda L, o: L.index_select(_x(L), 1, L.tensor([2, 0]), out=o),
    "inner": lambda L, o: L.inner(_x(L), _x(L), out=o),
    "inverse": lambda L, o: L.inverse(_spd(L), out=o),
    "kron": lambda L, o: L.kron(_spd(L), L.tensor([[1.0, -1.0]]), out=o),
    "ldexp": lambda L, o: L.ldexp(L.tensor([1.0, 2.0]), L.tensor([2, 3]), out=o),
    "logaddexp2": lambda L, o: L.logaddexp2(L.tensor([1.0, 2.0]), L.tensor([3.0, -1.0]), out=o),
    "logcumsumexp": lambda L, o: L.logcumsumexp(_x(L), 1, out=o),
    "logsumexp": lambda L, o: L.logsumexp(_x(L), 1, out=o),
    "lu_solve": lambda L, o: L.lu_solve(L.tensor([[1.0], [2.0]]), *L.linalg.lu_factor(L.tensor([[4.0, 3.0],
                                                                                                [6.0, 3.0]])), out=o),
    "lu_unpack": lambda L, o: L.lu_unpack(*L.linalg.lu_factor(L.tensor([[4.0, 3.0], [6.0, 3.0]])), out=o),
    "masked_select": lambda L, o: L.masked_select(_x(L), _x(L) > 3, out=o),
    "matrix_power": lambda L, o: L.matrix_power(_spd(L), 3, out=o),
    "median": lambda L, o: L.median(_x(L), 1, out=o),
    "msort": lambda L, o: L.msort(_x(L), out=o),
    "mvlgamma": lambda L, o: L.mvlgamma(L.tensor([2.5, 3.0]), p=2, out=o),
    "nanmean": lambda L, o: L.nanmean(_nan(L), 1, out=o),
    "nanmedian": lambda L, o: L.nanmedian(_nan(L), 1, out=o),
    "nanquantile": lambda L, o: L.nanquantile(_nan(L), 0.5, dim=1, out=o),
    "nansum": lambda L, o: L.nansum(_nan(L), 1, out=o),
    "narrow_copy": lambda L, o: L.narrow_copy(_x(L), 1, 0, 2, out=o),
    "nextafter": lambda L, o: L.nextafter(L.tensor([1.0, 2.0]), L.tensor([2.0, 1.0]), out=o),
    "norm": lambda L, o: L.norm(_x(L), dim=1, out=o),
    "polar": lambda L, o: L.polar(L.tensor([1.0, 2.0]), L.tensor([0.5, -1.0]), out=o),
    "prod": lambda L, o: L.prod(_x(L), 1, out=o),
    "quantile": lambda L, o: L.quantile(_x(L), 0.5, dim=1, out=o),
    "renorm": lambda L, o: L.renorm(_x(L), 2, 0, 5.0, out=o),
    "slice_scatter": lambda L, o: L.slice_scatter(_x(L), L.zeros(2, 1), 1, 0, 1, out=o),
    "std": lambda L, o: L.std(_x(L), 1, out=o),
    "var": lambda L, o: L.var(_x(L), 1, out=o),
    "take": lambda L, o: L.take(_x(L), L.tensor([0, 5]), out=o),
    "take_along_dim": lambda L, o: L.take_along_dim(_x(L), L.tensor([[0], [2]]), 1, out=o),
    "tril": lambda L, o: L.tril(_x(L), out=o),
    "triu": lambda L, o: L.triu(_x(L), out=o),
    "vdot": lambda L, o: L.vdot(L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0]), out=o),
    "view_as_complex_copy": lambda L, o: L.view_as_complex_copy(L.tensor([[1.0, 2.0], [3.0, 4.0]]), out=o),
    "view_as_real_copy": lambda L, o: L.view_as_real_copy(L.tensor([1 + 2j, 3 - 4j]), out=o),
}

_CALLS.update({  # functions that took out= before: the same rules (core/ops/elementwise.py's _out)
    "max": lambda L, o: L.max(_x(L), 1, out=o),
    "clamp": lambda L, o: L.clamp(_x(L), 2, 4, out=o),
    "where": lambda L, o: L.where(_x(L) > 2, _x(L), L.zeros(2, 3), out=o),
    "bmm": lambda L, o: L.bmm(_x(L)[None], _x(L).t()[None], out=o),
    "mv": lambda L, o: L.mv(_x(L), L.tensor([1.0, 2.0, 3.0]), out=o),
    "mm": lambda L, o: L.mm(_x(L), _x(L).t(), out=o),
    "matmul": lambda L, o: L.matmul(_x(L), _x(L).t(), out=o),
    "dot": lambda L, o: L.dot(L.tensor([1.0, 2.0]), L.tensor([3.0, 4.0]), out=o),
    "nan_to_num": lambda L, o: L.nan_to_num(_nan(L), out=o),
    "add": lambda L, o: L.add(_x(L), 1, out=o),
    "mul": lambda L, o: L.mul(_x(L), _x(L), out=o),
    "exp": lambda L, o: L.exp(_x(L), out=o),
    "sum": lambda L, o: L.sum(_x(L) * 1.5, 1, out=o),
    "mean": lambda L, o: L.mean(_x(L), 1, out=o),
    "cat": lambda L, o: L.cat([_x(L), _x(L)], out=o),
    "stack": lambda L, o: L.stack([_x(L), _x(L)], out=o),
    "cumsum": lambda L, o: L.cumsum(_x(L) * 1.5, 1, out=o),
    "eq": lambda L, o: L.eq(_x(L), 2, out=o),
    "gather": lambda L, o: L.gather(_x(L), 1, L.tensor([[0], [1]]), out=o),
    "addmm": lambda L, o: L.addmm(_x(L)[:, :2], _x(L), _x(L).t(), out=o),
    "sigmoid": lambda L, o: L.sigmoid(_x(L), out=o),
    "floor_divide": lambda L, o: L.floor_divide(_x(L), 2, out=o),
})

_CALLS.update({  # torch.linalg, torch.fft (whose out= core took and ignored), tensordot, index_add...
    "linalg.inv": lambda L, o: L.linalg.inv(_spd(L), out=o),
    "linalg.norm": lambda L, o: L.linalg.norm(_x(L), dim=1, out=o),
    "linalg.vector_norm": lambda L, o: L.linalg.vector_norm(_x(L), dim=1, out=o),
    "linalg.matrix_norm": lambda L, o: L.linalg.matrix_norm(_spd(L), out=o),
    "linalg.solve": lambda L, o: L.linalg.solve(_spd(L), L.tensor([1.0, 2.0]), out=o),
    "linalg.cholesky": lambda L, o: L.linalg.cholesky(_spd(L), out=o),
    "linalg.det": lambda L, o: L.linalg.det(_spd(L), out=o),
    "linalg.slogdet": lambda L, o: L.linalg.slogdet(_spd(L), out=o),
    "linalg.eigh": lambda L, o: L.linalg.eigh(_spd(L), out=o),
    "linalg.eigvalsh": lambda L, o: L.linalg.eigvalsh(_spd(L), out=o),
    "linalg.qr": lambda L, o: L.linalg.qr(_spd(L), out=o),
    "linalg.svdvals": lambda L, o: L.linalg.svdvals(_spd(L), out=o),
    "linalg.pinv": lambda L, o: L.linalg.pinv(_spd(L), out=o),
    "linalg.matrix_power": lambda L, o: L.linalg.matrix_power(_spd(L), 2, out=o),
    "linalg.cross": lambda L, o: L.linalg.cross(L.tensor([1.0, 2.0, 3.0]), L.tensor([4.0, 5.0, 7.0]), out=o),
    "linalg.vecdot": lambda L, o: L.linalg.vecdot(_x(L), _x(L), out=o),
    "linalg.multi_dot": lambda L, o: L.linalg.multi_dot([_spd(L), _spd(L), _spd(L)], out=o),
    "linalg.lu_factor": lambda L, o: L.linalg.lu_factor(L.tensor([[4.0, 3.0], [6.0, 3.0]]), out=o),
    "linalg.solve_triangular": lambda L, o: L.linalg.solve_triangular(L.tensor([[2.0, 0.0], [1.0, 1.0]]),
                                                                      L.tensor([[1.0], [2.0]]), upper=False, out=o),
    "fft.fft": lambda L, o: L.fft.fft(_x(L), out=o),
    "fft.rfft": lambda L, o: L.fft.rfft(_x(L), out=o),
    "fft.irfft": lambda L, o: L.fft.irfft(L.fft.rfft(_x(L)), out=o),
    "fft.fft2": lambda L, o: L.fft.fft2(_x(L), out=o),
    "tensordot": lambda L, o: L.tensordot(_x(L), _x(L).t(), 1, out=o),
    "index_add": lambda L, o: L.index_add(_x(L), 1, L.tensor([0]), L.ones(2, 1), out=o),
    "index_copy": lambda L, o: L.index_copy(_x(L), 1, L.tensor([0]), L.ones(2, 1), out=o),
    "scatter_add": lambda L, o: L.scatter_add(_x(L), 1, L.tensor([[0], [1]]), L.ones(2, 1), out=o),
    "scatter_reduce": lambda L, o: L.scatter_reduce(_x(L), 1, L.tensor([[0], [1]]), L.ones(2, 1), "sum", out=o),
})

_CALLS.update({  # factories and the *_copy views
    "arange": lambda L, o: L.arange(5, out=o),
    "linspace": lambda L, o: L.linspace(0, 1, 5, out=o),
    "zeros": lambda L, o: L.zeros(5, out=o),
    "eye": lambda L, o: L.eye(2, out=o),
    "permute_copy": lambda L, o: L.permute_copy(_x(L), (1, 0), out=o),
    "transpose_copy": lambda L, o: L.transpose_copy(_x(L), 0, 1, out=o),
    "diagonal_copy": lambda L, o: L.diagonal_copy(_spd(L), out=o),
    "select_copy": lambda L, o: L.select_copy(_x(L), 1, 2, out=o),
})

_WRONG_DTYPE = {"float32": "int64", "float64": "int64", "int64": "bool", "bool": "int32", "complex64": "float32",
                "uint64": "float32", "int32": "bool", "complex128": "float64"}


def _results(torch, name):
    """torch's results of the call (one tuple of (shape, dtype name) per output)."""
    result = _CALLS[name](torch, None)
    results = tuple(result) if isinstance(result, tuple) else (result,)
    return isinstance(result, tuple), [(tuple(r.shape), str(r.dtype).split(".")[1]) for r in results]


def _outcome(lib, name, multi, specs):
    """The call with ``out`` made from ``specs``: what was returned, what each out holds, the warnings; or the
    error's type."""
    outs = tuple(lib.full(shape, 1, dtype=getattr(lib, dt)) for shape, dt in specs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = _CALLS[name](lib, outs if multi else outs[0])
        except Exception as e:
            return type(e).__name__
    returned = tuple(result) if multi else (result,)
    same = all(r is o for r, o in zip(returned, outs))
    values = [(o.tolist(), str(o.dtype).split(".")[1], tuple(o.shape)) for o in outs]
    resized = any("resized" in str(w.message) for w in caught)
    return same, values, resized


def _assert_same(theirs, ours):
    if isinstance(theirs, str) or isinstance(ours, str):
        assert ours == theirs
        return
    assert ours[0] is True and theirs[0] is True
    assert ours[2] == theirs[2]
    for (tv, tdt, tshape), (ov, odt, oshape) in zip(theirs[1], ours[1]):
        assert (odt, oshape) == (tdt, tshape)
        flat = core.tensor(tv).flatten().tolist()
        assert core.tensor(ov).flatten().tolist() == pytest.approx(flat, rel=1e-5, nan_ok=True)


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_right_sized_out_is_written_and_returned(torch, name):
    multi, specs = _results(torch, name)
    _assert_same(_outcome(torch, name, multi, specs), _outcome(core, name, multi, specs))


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_wrong_sized_out_is_resized_with_torchs_warning(torch, name):
    multi, specs = _results(torch, name)
    wrong = [((7,), dt) for _, dt in specs]
    theirs, ours = _outcome(torch, name, multi, wrong), _outcome(core, name, multi, wrong)
    _assert_same(theirs, ours)
    empty = [((0,), dt) for _, dt in specs]  # an empty out is resized without a warning
    _assert_same(_outcome(torch, name, multi, empty), _outcome(core, name, multi, empty))


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_wrong_dtype_out_is_cast_or_refused_as_torch(torch, name):
    multi, specs = _results(torch, name)
    for i in range(len(specs)):
        wrong = [(shape, _WRONG_DTYPE[dt] if j == i else dt) for j, (shape, dt) in enumerate(specs)]
        _assert_same(_outcome(torch, name, multi, wrong), _outcome(core, name, multi, wrong))


def test_out_under_autograd_is_refused_with_torchs_error(torch):
    messages = []
    for lib in (torch, core):
        x = lib.ones(2, 3, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.prod(x, 1, out=lib.empty(2))
        messages.append(str(info.value))
    assert messages[1] == messages[0]


def test_out_sharing_part_of_an_input_is_refused_as_torch(torch):
    for lib in (torch, core):
        x = lib.arange(8.0)
        with pytest.raises(RuntimeError, match="single memory location"):
            lib.cumprod(x[:6], 0, out=x[2:8])


def test_out_of_the_wrong_kind_is_a_type_error_as_torch(torch):
    for lib in (torch, core):
        with pytest.raises(TypeError):
            lib.cummax(lib.ones(3), 0, out=lib.empty(3))
        with pytest.raises(TypeError):
            lib.prod(lib.ones(3), 0, out=[1.0])


@pytest.mark.parametrize("name", ["prod", "amax", "logsumexp", "cumprod", "index_select"])
def test_tensor_methods_keep_refusing_out(torch, name):
    messages = []
    for lib in (torch, core):
        x = _x(lib)
        args = (lib.tensor([0]),) if name == "index_select" else ()
        with pytest.raises(TypeError) as info:
            getattr(x, name)(1, *args, out=lib.empty(0))
        messages.append(str(info.value))
    assert messages[1] == messages[0]
