"""Oracle tests of the gaps PyTorch's docstring examples revealed (``test_torch_doc_examples.py``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, raised


def _complex(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _complex_grads(fn, arrays, torch):
    """``fn(lib, *leaves)`` (a real scalar) and its gradients with complex leaves, in both libraries."""
    results = []
    for lib in (core, torch):
        leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = fn(lib, *leaves)
        out.backward()
        results.append([out] + [t.grad for t in leaves])
    assert_same(results[0], results[1])


def test_vdot_conjugates_its_first_complex_argument(torch):
    a, b = np.array([2 + 3j, 3 + 4j]), np.array([5 + 6j, 7 + 8j])
    check(lambda lib, x, y: lib.vdot(x, y), [a, b], torch)
    check(lambda lib, x, y: lib.vdot(x, y), [a.astype(np.complex64), b.astype(np.complex64)], torch)
    _complex_grads(lambda lib, x, y: lib.vdot(x, y).abs(), [_complex(4), _complex(4, seed=1)], torch)
    check_grads(lambda lib, x, y: lib.vdot(x, y), [np.arange(3.0), np.arange(3.0) - 1], torch)


@pytest.mark.parametrize("kind", ["leaf", "history", "plain"])
@pytest.mark.parametrize("kw", [{}, {"requires_grad": False}, {"requires_grad": True}, {"copy": True},
                                {"copy": True, "requires_grad": False}, {"copy": True, "requires_grad": True},
                                {"dtype": "float64"}, {"dtype": "float64", "requires_grad": False}])
def test_asarray_of_a_tensor_follows_requires_grad(torch, kind, kw):
    """2.13's rules: unspecified keeps the tensor's grad (and a differentiable copy), False detaches, True keeps."""
    import warnings

    seen = []
    for lib in (core, torch):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=kind != "plain")
        if kind == "history":
            x = x + 2
        args = {k: getattr(lib, v) if k == "dtype" else v for k, v in kw.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (torch warns once when requires_grad is unspecified)
            c = lib.asarray(x, **args)
        seen.append((c.requires_grad, c.is_leaf, type(c.grad_fn).__name__, c.data_ptr() == x.data_ptr(), c is x,
                     x.requires_grad, c.tolist()))
    assert seen[0] == seen[1]


def test_asarray_refuses_to_alias_into_another_dtype(torch):
    check_error(lambda lib, x: lib.asarray(x, dtype=lib.float64, copy=False), [np.ones(2, np.float32)], torch,
                match="can't alias tensor with dtype 'Float' into dtype 'Double'")


def _outcomes(lib, calls):
    """What each call returns (its repr) or raises (type and message)."""
    seen = []
    for call in calls:
        try:
            seen.append(repr(call(lib)))
        except Exception as exc:  # the type and text are compared
            seen.append(f"{type(exc).__name__}: {exc}")
    return seen


def test_cpu_streams_and_events_answer_as_torch_does(torch):
    calls = [lambda t: t.Stream(), lambda t: t.Event(), lambda t: t.Stream().query(),
             lambda t: t.Stream().synchronize(),
             lambda t: t.Stream().record_event(), lambda t: t.Stream().wait_event(t.Event()),
             lambda t: t.Stream().wait_stream(t.Stream()), lambda t: t.Stream().is_capturing(),
             lambda t: t.Event().record(), lambda t: t.Event().query(), lambda t: t.Event().synchronize(),
             lambda t: t.Event().wait(), lambda t: t.Event().elapsed_time(t.Event()),
             lambda t: t.Event(enable_timing=True).elapsed_time(t.Event(enable_timing=True)),
             lambda t: t.Event(enable_timing=True), lambda t: t.Stream(device="cpu", priority=-1),
             lambda t: t.Stream() == t.Stream(), lambda t: (t.Stream().device, t.Stream().stream_id)]
    assert _outcomes(core, calls) == _outcomes(torch, calls)


@pytest.mark.skipif(core.cuda.is_available(), reason="checks PyTorch's CPU build's answer without CUDA")
def test_cuda_streams_events_and_generators_raise_without_cuda(torch):
    calls = [lambda t: t.Stream(device="cuda"), lambda t: t.Event(device="cuda"),
             lambda t: t.Generator(device="cuda")]
    assert _outcomes(core, calls) == _outcomes(torch, calls)


def test_generator_clone_state_draws_the_same_numbers_independently(torch):
    def run(lib):
        g = lib.Generator().manual_seed(3)
        lib.randn(2, generator=g)
        c = g.clone_state()
        first = lib.randn(3, generator=g)
        return [first, lib.randn(3, generator=c), lib.randn(3, generator=g), lib.tensor(c.initial_seed())]

    assert_same(run(core), run(torch))
    calls = [lambda t: t.Generator().graphsafe_get_state(), lambda t: t.Generator().graphsafe_set_state(t.Generator())]
    assert _outcomes(core, calls) == _outcomes(torch, calls)


def test_assert_close_pairs_only_related_tensor_types(torch):
    def calls(t):
        a = t.tensor([1.0, 2.0, 3.0])
        return [lambda: t.testing.assert_close(t.nn.Parameter(a.clone()), a),
                lambda: t.testing.assert_close(t.nn.Parameter(a.clone()), a, allow_subclasses=False),
                lambda: t.testing.assert_close(a, t.nn.Parameter(a.clone()), allow_subclasses=False),
                lambda: t.testing.assert_close(a.numpy(), a), lambda: t.testing.assert_close(1.0, 1, check_dtype=False)]

    def run(lib):
        return [(r[0], r[1].replace("core.", "torch."))
                if r else None for r in map(raised, calls(lib))]

    assert run(core) == run(torch)


def _hermitian(n, batch=(), seed=0):
    a = _complex(*batch, n, n, seed=seed)
    return a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 3, 3)])
def test_complex_svd_has_real_singular_values_and_torch_gradients(torch, shape):
    a = _complex(*shape)
    check(lambda lib, x: lib.linalg.svdvals(x), [a], torch)
    check(lambda lib, x: lib.linalg.svd(x, full_matrices=False).S, [a], torch)
    check(lambda lib, x: lib.linalg.cond(x) if x.shape[-1] == x.shape[-2] else lib.linalg.matrix_rank(x), [a], torch)
    _complex_grads(lambda lib, x: lib.linalg.svdvals(x).sum(), [a], torch)
    k = min(shape[-2:])
    _complex_grads(lambda lib, x: (lib.linalg.svd(x, full_matrices=False).U.abs() ** 2
                                   * lib.arange(k, dtype=lib.float64)).sum(), [a], torch)
    _complex_grads(lambda lib, x: (lib.linalg.svd(x, full_matrices=False).Vh.abs() ** 2
                                   * lib.arange(shape[-1], dtype=lib.float64)).sum(), [a], torch)
    _complex_grads(lambda lib, x: lib.linalg.pinv(x).abs().sum(), [a], torch)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_complex_hermitian_eigh_cholesky_and_solves_match_torch(torch, batch):
    h, b = _hermitian(3, batch), _complex(*batch, 3, 2, seed=1)
    check(lambda lib, x: lib.linalg.eigvalsh(x), [h], torch)  # real eigenvalues (float64 for complex128)
    check(lambda lib, x: lib.linalg.cholesky(x), [h], torch)
    check(lambda lib, x: lib.linalg.cholesky(x, upper=True), [h], torch)
    check(lambda lib, x, y: lib.cholesky_solve(y, lib.linalg.cholesky(x)), [h, b], torch)
    check(lambda lib, x, y: lib.cholesky_solve(y, lib.linalg.cholesky(x, upper=True), upper=True), [h, b], torch)
    check(lambda lib, x: lib.cholesky_inverse(lib.linalg.cholesky(x)), [h], torch)
    check(lambda lib, x: lib.linalg.pinv(x, hermitian=True), [h], torch)
    check(lambda lib, x: lib.linalg.matrix_rank(x, hermitian=True, atol=4.0, rtol=0.0), [h], torch)
    check(lambda lib, x, y: lib.dist(x, y), [h, h + 0.5j], torch)
    _complex_grads(lambda lib, x: lib.linalg.eigvalsh(x).sum() + (lib.linalg.eigvalsh(x) ** 2).sum(), [h], torch)
    _complex_grads(lambda lib, x: (lib.linalg.eigh(x).eigenvectors.abs() ** 2
                                   * lib.arange(3, dtype=lib.float64)).sum(), [h], torch)
    _complex_grads(lambda lib, x: lib.linalg.cholesky(x).abs().sum(), [h], torch)
    _complex_grads(lambda lib, x: lib.linalg.cholesky(x, upper=True).abs().sum(), [h], torch)
    _complex_grads(lambda lib, x: lib.linalg.pinv(x, hermitian=True).abs().sum(), [h], torch)
    _complex_grads(lambda lib, x, y: lib.dist(x, y), [h, h + 0.5j], torch)


@pytest.mark.parametrize("name", ["ifft", "ifft2", "ifftn", "ihfft"])
def test_inverse_fft_of_a_real_signal_signs_its_zero_imaginary_parts_as_torch(torch, name):
    x = np.arange(12.0).reshape(3, 4)
    for dtype in (np.float32, np.float64):
        ours, theirs = (getattr(lib.fft, name)(lib.tensor(x.astype(dtype))) for lib in (core, torch))
        assert_same(ours, theirs)
        assert np.array_equal(np.signbit(ours.numpy().imag), np.signbit(theirs.resolve_conj().numpy().imag))
        assert repr(ours) == repr(theirs)
    check_grads(lambda lib, t: lib.view_as_real(getattr(lib.fft, name)(t).resolve_conj()), [x], torch)


@pytest.mark.parametrize("shape", [(3,), (2, 3), ()])
@pytest.mark.parametrize("bias", [False, True])
def test_a_module_moved_to_a_complex_dtype_runs_on_complex_input(torch, bias, shape):
    import warnings

    seen = []
    for lib in (core, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = lib.nn.Linear(2, 2, bias=bias).to(lib.cdouble)
        x = lib.tensor(_complex(*shape, 2))
        out = layer(x)
        out.abs().sum().backward()
        seen.append(([str(w.message) for w in caught], layer.weight, out, type(out.grad_fn).__name__,
                      layer.weight.grad))
    assert seen[0][0] == seen[1][0] and seen[0][3] == seen[1][3]
    assert_same(list(seen[0][1:3]) + [seen[0][4]], list(seen[1][1:3]) + [seen[1][4]])


@pytest.mark.parametrize("name", ["addmm", "addmv", "addbmm", "baddbmm", "addr"])
def test_fused_products_of_complex_tensors_have_conjugated_gradients(torch, name):
    shapes = {"addmm": [(2, 4), (2, 3), (3, 4)], "addmv": [(2,), (2, 3), (3,)],
              "addbmm": [(2, 4), (5, 2, 3), (5, 3, 4)], "baddbmm": [(5, 2, 4), (5, 2, 3), (5, 3, 4)],
              "addr": [(2, 3), (2,), (3,)]}[name]
    arrays = [_complex(*s, seed=i) for i, s in enumerate(shapes)]
    _complex_grads(lambda lib, *xs: getattr(lib, name)(*xs).abs().sum(), arrays, torch)
    _complex_grads(lambda lib, *xs: getattr(lib, name)(*xs, beta=0.5 - 1j, alpha=2 + 1j).abs().sum(), arrays, torch)


@pytest.mark.filterwarnings("ignore:Sparse invariant checks")  # (torch's own notice)
@pytest.mark.skipif(core.cuda.is_available(), reason="checks PyTorch's CPU build's answer without CUDA")
def test_sparse_coo_tensor_on_cuda_raises_without_cuda(torch):
    for device in ("cuda", "cuda:0"):
        check_error(lambda lib, i, v, d=device: lib.sparse_coo_tensor(i, v, [2, 4], device=lib.device(d)),
                    [np.array([[0, 1, 1], [2, 0, 2]]), np.array([3.0, 4.0, 5.0])], torch,
                    match="PyTorch is not linked with support for cuda devices")
    check(lambda lib, i, v: lib.sparse_coo_tensor(i, v, [2, 4], device="cpu").to_dense(),
          [np.array([[0, 1, 1], [2, 0, 2]]), np.array([3.0, 4.0, 5.0])], torch)


def _grad_dtype_story(t):
    """What a script sees setting and using ``grad_dtype`` (each step's repr or error)."""
    seen = []

    def step(fn):
        try:
            seen.append(repr(fn()))
        except Exception as exc:  # the type and text are compared
            seen.append(f"{type(exc).__name__}: {exc}")

    y = t.tensor([1.0, 2.0], requires_grad=True)
    step(lambda: (t.tensor([1, 2]).grad_dtype, y.grad_dtype))
    step(lambda: (y * 2).grad_dtype)
    step(lambda: setattr(y * 2, "grad_dtype", t.float16))
    step(lambda: setattr(y, "grad_dtype", t.float16))
    step(lambda: ((y * 2).sum().backward(), (y * 3).sum().backward(), y.grad, y.grad_dtype))
    y.grad = None
    step(lambda: setattr(y, "grad_dtype", None))
    step(lambda: ((y * 2).sum().backward(), y.grad, y.grad_dtype))
    w = t.tensor([1.0, 2.0], requires_grad=True)
    step(lambda: setattr(w, "grad", t.ones(2, dtype=t.float64)))
    w.grad_dtype = None
    step(lambda: (setattr(w, "grad", t.ones(2, dtype=t.float64)), w.grad))
    v = t.tensor([1.0, 2.0], requires_grad=True)
    v.grad_dtype = t.float64
    step(lambda: t.autograd.grad((v * 2).sum(), v))
    return seen


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")  # (torch's, on the setattr)
def test_grad_dtype_casts_a_leafs_gradients_and_checks_assignments(torch):
    assert _grad_dtype_story(core) == _grad_dtype_story(torch)


def test_dim_order_follows_torch_with_its_ambiguity_checks(torch):
    import itertools

    def orders(t):
        seen = []
        for shape in [(2, 3, 4), (1, 3, 4), (2, 1, 1), (3, 3), (2, 3, 4, 5)]:
            base = t.zeros(shape)
            for p in itertools.permutations(range(len(shape))):
                x = base.permute(*p)
                for view in (x, x[..., ::2], x.unsqueeze(0).expand(2, *[-1] * len(shape))):
                    for how in (False, True, [t.contiguous_format, t.channels_last], "no"):
                        seen.append(raised(lambda v=view, h=how: v.dim_order(ambiguity_check=h))
                                    or view.dim_order(ambiguity_check=how))
        return seen

    assert orders(core) == orders(torch)


def test_a_second_backward_through_an_embedding_raises_as_torch(torch):
    def run(lib):
        lib.manual_seed(0)
        emb = lib.nn.Embedding(10, 4)
        a = emb(lib.tensor([1, 3]))
        saved = a.grad_fn._saved_indices
        a.sum().backward(retain_graph=True)
        a.sum().backward()
        return [saved, emb.weight.grad, raised(lambda: a.sum().backward())[0], raised(lambda: a.grad_fn._saved_indices)]

    ours, theirs = run(core), run(torch)
    assert_same(ours[:2], theirs[:2])
    assert ours[2:] == theirs[2:] and ours[3][1].startswith("Trying to backward through the graph a second time")


def _multi_grad_hook_story(t):
    seen = []
    t.manual_seed(0)
    a, b = t.rand(2, 3, requires_grad=True), t.rand(2, 3, requires_grad=True)
    c, d = a * b, a * b

    def fn(grads):
        seen.append([None if g is None else round(float(g.sum()), 4) for g in grads])

    handle = t.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
    seen.append(type(handle).__name__)
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    (c.sum() + d.sum()).backward(retain_graph=True)
    seen.append(raised(lambda: t.autograd.grad(d.sum(), (b,), retain_graph=True)))
    t.autograd.grad(d.sum(), (d,), retain_graph=True)
    handle.remove()
    c.sum().backward(retain_graph=True)
    t.autograd.graph.register_multi_grad_hook((a, b, c), lambda g: seen.append(round(float(g.sum()), 4)), mode="any")
    (c * 2).sum().backward(retain_graph=True)
    (d * 3).sum().backward()
    seen.append(raised(lambda: t.autograd.graph.register_multi_grad_hook((a,), fn, mode="x")))
    return seen


def test_register_multi_grad_hook_calls_once_per_backward_as_torch(torch):
    assert _multi_grad_hook_story(core) == _multi_grad_hook_story(torch)


def _iterable_workers_story(t):
    import math
    import random

    class Split(t.utils.data.IterableDataset):
        def __init__(self, start, end, split=True):
            self.start, self.end, self.split = start, end, split

        def __iter__(self):
            info = t.utils.data.get_worker_info()
            if info is None or not self.split:
                return iter(range(self.start, self.end))
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            first = self.start + info.id * per
            return iter(range(first, min(first + per, self.end)))

    class Draws(t.utils.data.IterableDataset):
        def __iter__(self):
            info = t.utils.data.get_worker_info()
            for _ in range(2):
                yield info.id, info.seed - t.initial_seed(), t.rand(1).item(), random.random(), np.random.rand()

    def init(worker_id):
        info = t.utils.data.get_worker_info()
        d = info.dataset
        per = int(math.ceil((d.end - d.start) / float(info.num_workers)))
        d.start = d.start + worker_id * per
        d.end = min(d.start + per, d.end)

    t.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    loader = t.utils.data.DataLoader
    plain = Split(3, 7, False)
    seen = [list(loader(Split(3, 7), num_workers=n)) for n in (0, 2, 5)]
    seen += [list(loader(Split(0, 11), num_workers=3, batch_size=2, drop_last=drop)) for drop in (False, True)]
    seen += [list(loader(plain, num_workers=2)), list(loader(plain, num_workers=2, worker_init_fn=init))]
    seen += [(plain.start, plain.end), list(loader(Draws(), num_workers=2, batch_size=None))]
    seen += [t.rand(2), random.random(), np.random.rand(), t.utils.data.get_worker_info()]
    return seen


@pytest.mark.filterwarnings("ignore:This DataLoader will create")  # (torch's note about this machine's CPUs)
def test_an_iterable_datasets_workers_interleave_round_robin_as_torch(torch):
    ours, theirs = _iterable_workers_story(core), _iterable_workers_story(torch)
    assert_same(ours[:7], theirs[:7])
    assert ours[7:9] == theirs[7:9]
    assert_same(ours[9], theirs[9])
    assert ours[10:] == theirs[10:]


_MASKED_CALLS = {
    "sum": lambda m, x, k: m.sum(x, 1, mask=k), "sum_all": lambda m, x, k: m.sum(x, mask=k),
    "prod": lambda m, x, k: m.prod(x, (0, 1), keepdim=True, mask=k), "cumsum": lambda m, x, k: m.cumsum(x, 1, mask=k),
    "cumprod": lambda m, x, k: m.cumprod(x, 0, mask=k), "amax": lambda m, x, k: m.amax(x, 1, mask=k),
    "amin": lambda m, x, k: m.amin(x, (0,), mask=k), "argmax": lambda m, x, k: m.argmax(x, 1, mask=k),
    "argmin": lambda m, x, k: m.argmin(x, 1, keepdim=True, mask=k), "mean": lambda m, x, k: m.mean(x, 1, mask=k),
    "median": lambda m, x, k: m.median(x, 1, mask=k), "logsumexp": lambda m, x, k: m.logsumexp(x, 1, mask=k),
    "norm": lambda m, x, k: m.norm(x, 2.0, 1, mask=k), "norm_inf": lambda m, x, k: m.norm(x, -math.inf, 0, mask=k),
    "var": lambda m, x, k: m.var(x, 1, unbiased=False, mask=k), "std": lambda m, x, k: m.std(x, 1, mask=k),
    "std_corr": lambda m, x, k: m.std(x, 0, correction=0, keepdim=True, mask=k),
    "softmax": lambda m, x, k: m.softmax(x, 1, mask=k), "log_softmax": lambda m, x, k: m.log_softmax(x, 0, mask=k),
    "softmin": lambda m, x, k: m.softmin(x, 1, mask=k), "normalize": lambda m, x, k: m.normalize(x, 2.0, 1, mask=k),
    "logaddexp": lambda m, x, k: m.logaddexp(x, x.flip(0), input_mask=k, other_mask=k.flip(1)),
    "broadcast": lambda m, x, k: m.sum(x, 1, mask=k[0]), "no_mask": lambda m, x, k: m.mean(x, 0),
}


@pytest.mark.parametrize("name", list(_MASKED_CALLS))
def test_masked_reductions_match_torch(torch, name):

    x = np.random.default_rng(3).standard_normal((3, 4)).astype(np.float32)
    keep = np.array([[True, False, True, True], [False, False, False, False], [True, True, False, True]])
    check(lambda lib, a, k: _MASKED_CALLS[name](lib.masked, a, k), [x, keep], torch)
    if name in ("sum", "prod", "amax", "argmin", "cumsum"):  # integers keep (or widen to int64) as torch's
        check(lambda lib, a, k: _MASKED_CALLS[name](lib.masked, a, k), [(x * 10).astype(np.int32), keep], torch)


@pytest.mark.parametrize("n", [1, 3, 6])
@pytest.mark.parametrize("kind", ["symmetric", "zero_corner", "spd", "zero_diagonal", "lower_only", "complex"])
def test_ldl_factor_and_solve_follow_lapacks_bunch_kaufman(torch, n, kind):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    a = {"symmetric": a + a.T, "zero_corner": a + a.T - np.diag([(a + a.T)[0, 0]] + [0] * (n - 1)),
         "spd": a @ a.T + n * np.eye(n), "zero_diagonal": (a + a.T) * (1 - np.eye(n)), "lower_only": a,
         "complex": a + a.T + 1j * (a @ a.T)}[kind]
    b = rng.standard_normal((2, n, 3))
    b = b + 1j * b if kind == "complex" else b
    factor = check(lambda lib, x: lib.linalg.ldl_factor_ex(x), [a], torch)
    if int(factor.info) == 0:
        check(lambda lib, x, y: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(x), y), [a, b], torch, rtol=1e-7)
    check(lambda lib, x: lib.linalg.ldl_factor(x.float() if not x.is_complex() else x.to(lib.complex64)).pivots,
          [a + n * np.eye(n)], torch)


def test_hash_tensor_xors_the_widened_bit_patterns_as_torch(torch):
    def story(t):
        t.manual_seed(0)
        a = t.randn(2, 4)
        calls = [lambda: t.hash_tensor(a), lambda: t.hash_tensor(a, 1), lambda: t.hash_tensor(a, (0, 1), keepdim=True),
                 lambda: a.hash_tensor(0, keepdim=True), lambda: t.hash_tensor(t.tensor([1, 2, 3])),
                 lambda: t.hash_tensor(t.tensor([True, False, True])),
                 lambda: t.hash_tensor(t.tensor([200, 3], dtype=t.uint8)),
                 lambda: t.hash_tensor(t.tensor([-1, 5], dtype=t.int8)),
                 lambda: t.hash_tensor(t.tensor([1.5, -2.25], dtype=t.float16)), lambda: t.hash_tensor(t.tensor(3.0)),
                 lambda: t.hash_tensor(t.tensor([1 + 2j])), lambda: t.hash_tensor(t.tensor([])),
                 lambda: t.hash_tensor(t.zeros(0, 3), 0), lambda: t.hash_tensor(a, mode=1)]
        return [raised(c) or repr(c()) for c in calls]

    assert story(core) == story(torch)


def test_thread_safe_generator_is_none_outside_thread_workers(torch):
    from core.random import thread_safe_generator

    assert thread_safe_generator() is None and torch.random.thread_safe_generator() is None
    check(lambda lib: (lib.manual_seed(0), lib.randint(0, 10, (5,), generator=lib.random.thread_safe_generator()))[1],
          [], torch)


def test_allow_mutation_on_saved_tensors_lets_backward_see_the_saved_values(torch):
    def run(t):
        with t.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
            a = t.ones(2, 3, requires_grad=True)
            b = a.clone()
            out = (b ** 2).sum()
            b.sin_()
            e = a.exp()
            f = (e * 3).sum()
            e.mul_(2)
            out.backward()
            f.backward()
        x = t.ones(3, requires_grad=True)
        y = x.clone()
        z = (y ** 2).sum()
        y.sin_()
        return [a.grad, type(ctx).__name__, raised(z.backward)[0]]

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


def test_accumulated_gradients_follow_the_leafs_layout_as_torch(torch):
    def layouts(t):
        seen = []
        for make in (lambda: t.zeros(2, 3, 4).permute(2, 0, 1), lambda: t.zeros(2, 3, 4),
                     lambda: t.zeros(2, 3, 4, 5).to(memory_format=t.channels_last), lambda: t.zeros(4, 6)[:, ::2],
                     lambda: t.zeros(3, 4).t()):
            p, q, r = (make().requires_grad_() for _ in range(3))
            (p * 2).sum().backward()
            q.backward(t.ones(q.shape))
            r.exp().sum().backward()
            s = make().requires_grad_()
            with t.autograd.enforce_grad_layout_policy(False):  # a gradient an op made keeps its own layout
                (s * 2).sum().backward()
            seen.append((p.grad.stride(), q.grad.stride(), r.grad.stride(), s.grad.stride(), p.grad.sum().item()))
        return seen

    assert layouts(core) == layouts(torch)


def test_region_activation_memory_budget_is_refused_in_eager_code(torch):
    def story(t):
        f = t.autograd.graph.region_activation_memory_budget
        return [raised(lambda: f(0.0)), raised(lambda: f(True)), raised(lambda: f(1.5)), raised(lambda: f("x"))]

    assert story(core) == story(torch)


@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("initial", [None, 0.5])
def test_segment_reduce_matches_torch_with_gradients(torch, reduce, initial):
    x = np.random.default_rng(5).standard_normal((6, 3))
    x[1, 0], x[4, 2] = x[0, 0], 0.0  # a tie for max/min, a zero for prod
    check_grads(lambda lib, a: lib.segment_reduce(a, reduce, lengths=lib.tensor([2, 0, 3, 1]), initial=initial),
                [x], torch)
    check_grads(lambda lib, a: lib.segment_reduce(a, reduce, offsets=lib.tensor([0, 1, 1, 6]), initial=initial),
                [x], torch)
    check_grads(lambda lib, a: lib.segment_reduce(a.t(), reduce, lengths=lib.tensor([[1, 5], [6, 0], [2, 4]]),
                                                  axis=1, initial=initial), [x], torch)
    check(lambda lib, a: lib.segment_reduce(a.float(), reduce, lengths=lib.tensor([6])), [x], torch)


def test_segment_reduce_refuses_as_torch(torch):
    def story(t):
        d = t.ones(3, 4)
        return [raised(lambda: t.segment_reduce(d, "sum", lengths=t.tensor([2, 2]))),
                raised(lambda: t.segment_reduce(d, "foo", lengths=t.tensor([3]))),
                raised(lambda: t.segment_reduce(t.tensor([1, 2, 3]), "sum", lengths=t.tensor([3]))),
                raised(lambda: t.segment_reduce(d, "sum")),
                raised(lambda: t.segment_reduce(d, "max", lengths=t.tensor([1, 3]), axis=1))]

    assert story(core) == story(torch)


@pytest.mark.skipif(core.cuda.is_available(), reason="checks PyTorch's CPU build's answer without CUDA")
def test_an_unindexed_cuda_default_device_reads_back_as_torchs_cpu_build(torch):
    def story(t):
        seen = []
        try:
            for device in ("cuda", "cuda:1", t.device("cuda"), t.device("cuda", 0), "cpu", "meta", None):
                t.set_default_device(device)
                seen.append(raised(t.get_default_device) or str(t.get_default_device()))
        finally:
            t.set_default_device(None)
        return seen

    assert story(core) == story(torch)


@pytest.mark.filterwarnings("ignore:Sparse invariant checks")  # (torch's own notice)
def test_sparse_mask_and_sparse_narrow_copy_match_torch(torch):
    def story(t):
        t.manual_seed(0)
        idx = t.cat([t.randint(0, 5, (5,)), t.randint(0, 5, (5,))]).reshape(2, 5)
        vals = t.randn(5, 2, 2)
        dense = t.randn(5, 5, 2, 2)
        s = t.arange(16).reshape(2, 2, 2, 2).to_sparse(2)
        calls = [lambda: dense.sparse_mask(t.sparse_coo_tensor(idx, vals, (5, 5, 2, 2)).coalesce()),
                 lambda: dense.sparse_mask(t.sparse_coo_tensor(idx, vals, (5, 5, 2, 2))),
                 lambda: t.narrow_copy(s, 0, 0, 1), lambda: t.narrow_copy(s, 1, 1, 1), lambda: s.narrow_copy(3, 1, 1),
                 lambda: s.narrow_copy(0, 1, 5), lambda: t.narrow_copy(s, -1, 0, 1)]
        return [raised(c) or (repr(c()), c().is_coalesced()) for c in calls]

    assert story(core) == story(torch)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool_has_no_deterministic_kernel_as_torch(torch, nd):
    import warnings

    def story(t):
        F = t.nn.functional
        pool, unpool = getattr(F, f"max_pool{nd}d"), getattr(F, f"max_unpool{nd}d")
        out, idx = pool(t.arange(4.0 ** nd).reshape((1, 1) + (4,) * nd), 2, return_indices=True)
        seen = [unpool(out, idx, 2)]
        try:
            t.use_deterministic_algorithms(True)
            seen.append(raised(lambda: unpool(out, idx, 2)))
            t.use_deterministic_algorithms(True, warn_only=True)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                seen.append(unpool(out, idx, 2))
            seen.append([str(w.message) for w in caught])
        finally:
            t.use_deterministic_algorithms(False)
        return seen

    ours, theirs = story(core), story(torch)
    assert_same([ours[0], ours[2]], [theirs[0], theirs[2]])
    assert ours[1] == theirs[1] and ours[3] == theirs[3]
