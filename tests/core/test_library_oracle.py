"""``core.library`` against ``torch.library``: the "Python Custom Operators" tutorial's code, run in both, gives the
same results, schemas, gradients and ``opcheck`` reports; schemas inferred from type hints print as torch's, bad
hints and bad calls raise torch's errors; ``Library``/``define``/``impl`` define operators reachable through
``torch.ops.<namespace>`` with torch's names and reprs.

Every test uses namespaces of its own: torch's operator registry lives as long as the process.
"""

import itertools

import numpy as np

import core
from tests.core.oracle import assert_same

_counter = itertools.count()


def _ns(stem: str) -> str:
    return f"{stem}{next(_counter)}"


def _error(fn):
    try:
        fn()
    except Exception as e:  # the error is what is compared
        return type(e).__name__, str(e)
    return None


def _gist(text: str) -> str:
    """A message without what names the library (``torch.Tensor`` / ``core.Tensor``) or the type list."""
    return text.replace("core.", "torch.").split("The valid types are")[0].split(" Got func with signature")[0]


def _numpy_sin(lib, ns):
    """The tutorial's operator: NumPy's sin wrapped as ``ns::numpy_sin`` with a fake kernel and a gradient."""
    Tensor = lib.Tensor

    @lib.library.custom_op(f"{ns}::numpy_sin", mutates_args=())
    def numpy_sin(x: Tensor) -> Tensor:
        result = lib.empty_like(x)
        np.sin(x.detach().numpy(), out=result.numpy())
        return result

    @numpy_sin.register_fake
    def _(x):
        return lib.empty_like(x)

    return numpy_sin


def _with_autograd(lib, op):
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()

    op.register_autograd(backward, setup_context=setup_context)
    return op


def test_tutorial_numpy_sin_runs_as_an_operator_and_through_torch_ops(torch):
    def run(lib):
        ns = _ns("tut")
        op = _numpy_sin(lib, ns)
        x = lib.tensor(np.linspace(-2, 2, 5, dtype=np.float32))
        packet = getattr(lib.ops, ns).numpy_sin
        return ([op(x), packet(x), packet.default(x), op(x=x)],
                [repr(op).replace(ns, "NS"), op._schema, str(packet.default._schema).replace(ns, "NS"),
                 repr(packet).replace(ns, "NS"), repr(packet.default).replace(ns, "NS"), str(packet).replace(ns, "NS"),
                 str(packet.default).replace(ns, "NS"), packet.default.name().replace(ns, "NS"), packet.overloads(),
                 repr(getattr(lib.ops, ns)).replace(ns, "NS")])

    (ours, ours_text), (theirs, their_text) = run(core), run(torch)
    assert_same(ours, theirs)
    assert ours_text == their_text


def test_tutorial_opcheck_reports_success_for_the_registered_operator(torch):
    def run(lib):
        op = _with_autograd(lib, _numpy_sin(lib, _ns("chk")))
        x = lib.tensor(np.linspace(-1, 1, 4, dtype=np.float32))
        return [lib.library.opcheck(op, (x,)), lib.library.opcheck(op, (x.clone().requires_grad_(),))]

    assert run(core) == run(torch)


def test_register_autograd_gives_the_formulas_gradient_and_passes_gradcheck(torch):
    def run(lib):
        op = _with_autograd(lib, _numpy_sin(lib, _ns("grad")))
        x = lib.tensor(np.linspace(-2, 2, 6), requires_grad=True)
        y = op(x)
        (y * lib.arange(6.0, dtype=lib.float64)).sum().backward()
        check = lib.autograd.gradcheck(op, (lib.tensor(np.linspace(-1, 1, 4), requires_grad=True),))
        return [y.detach(), x.grad], check

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] is theirs[1] is True


def test_generated_backward_node_has_torchs_name(torch):
    def run(lib):
        ns = _ns("node")
        op = _with_autograd(lib, _numpy_sin(lib, ns))
        return op(lib.ones(2, requires_grad=True)).grad_fn.name().replace(ns, "NS")

    assert run(core) == run(torch) == "GeneratedBackwardFor_NS_numpy_sin_defaultBackward"


def test_backward_without_a_registered_formula_raises_torchs_error(torch):
    def run(lib):
        ns = _ns("nograd")
        op = _numpy_sin(lib, ns)
        y = op(lib.ones(2, requires_grad=True))
        return y.requires_grad, _error(lambda: y.sum().backward())[1].replace(ns, "NS")

    assert run(core) == run(torch)


def _two_outputs(lib, ns, count_right=True):
    Tensor = lib.Tensor

    @lib.library.custom_op(f"{ns}::two", mutates_args=())
    def two(x: Tensor, y: Tensor, k: float) -> tuple[Tensor, Tensor]:
        return (x * y * k).detach(), (x + y).detach()

    def setup(ctx, inputs, output):
        x, y, k = inputs
        ctx.save_for_backward(x, y)
        ctx.k = k

    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        if not count_right:
            return g1, g2
        return g1 * y * ctx.k + g2, g1 * x * ctx.k + g2, None

    lib.library.register_autograd(f"{ns}::two", backward, setup_context=setup)
    return two


def test_an_operator_with_two_outputs_and_a_float_argument_differentiates_as_torchs(torch):
    def run(lib):
        op = _two_outputs(lib, _ns("two"))
        a = lib.tensor(np.linspace(-1, 1, 3), requires_grad=True)
        b = lib.tensor(np.linspace(2, 3, 3), requires_grad=True)
        out = op(a, b, 3.0)
        (out[0] * 2 + out[1] * 5).sum().backward()
        check = lib.autograd.gradcheck(lambda a, b: op(a, b, 2.0), (a.detach().requires_grad_(),
                                                                    b.detach().requires_grad_()))
        return [*out, a.grad, b.grad], (type(out).__name__, check)

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1] == ("tuple", True)


def test_a_backward_returning_too_few_gradients_raises_torchs_count_error(torch):
    def run(lib):
        ns = _ns("few")
        op = _two_outputs(lib, ns, count_right=False)
        out = op(lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True), 1.0)
        return _error(lambda: out[0].sum().backward())[1].replace(ns, "NS")

    assert run(core) == run(torch)


def test_a_mutating_operator_writes_its_out_argument(torch):
    def run(lib):
        ns = _ns("mut")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::numpy_sin_out", mutates_args={"out"})
        def numpy_sin_out(x: Tensor, out: Tensor) -> None:
            np.sin(x.numpy(), out=out.numpy())

        x = lib.tensor(np.linspace(-1, 1, 4))
        out = lib.empty(4, dtype=lib.float64)
        returned = numpy_sin_out(x, out)
        return out, (returned, numpy_sin_out._schema, lib.library.opcheck(numpy_sin_out, (x, lib.empty_like(x)),
                                                                            test_utils="test_schema"))

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def _hinted_functions(lib):
    Tensor, Optional = lib.Tensor, __import__("typing").Optional

    def plain(x: Tensor, n: int, f: float, b: bool, s: str) -> Tensor: ...
    def lists(xs: list[Tensor], ns: list[int], fs: list[float], m: Optional[list[int]] = None) -> list[Tensor]: ...
    def defaults(x: Tensor, k: int = 2, *, s: float = 1.5, name: str = "a", flag: bool = True,
                 dt: lib.dtype = lib.float32) -> tuple[Tensor, Tensor]: ...
    def optional(x: Optional[Tensor], y: Tensor | None = None, d: Optional[lib.device] = None) -> tuple[Tensor]: ...
    def returns(x: Tensor) -> tuple[Tensor, int, float, bool]: ...
    return [plain, lists, defaults, optional, returns]


def test_schemas_inferred_from_type_hints_print_as_torchs(torch):
    def run(lib):
        schemas = [lib.library.infer_schema(fn, mutates_args=()) for fn in _hinted_functions(lib)]
        schemas.append(lib.library.infer_schema(_hinted_functions(lib)[0], mutates_args="unknown", op_name="foo"))
        schemas.append(lib.library.infer_schema(_hinted_functions(lib)[1], mutates_args={"xs"}))
        return schemas

    assert run(core) == run(torch)


def _bad_hints(lib):
    Tensor = lib.Tensor

    def no_hint(x) -> Tensor: ...
    def numpy_hint(x: np.ndarray) -> Tensor: ...
    def varargs(x: Tensor, *args) -> Tensor: ...
    def tuple_input(x: tuple[int, int]) -> Tensor: ...
    def bad_return(x: Tensor) -> str: ...
    def no_return(x: Tensor): ...
    def tuple_default(x: Tensor, t: list[int] = (1,)) -> Tensor: ...
    def mutated_int(x: Tensor, n: int) -> None: ...
    def undefined(x: "Undefined") -> Tensor: ...  # noqa: F821 - the name is what fails

    cases = [(fn, ()) for fn in (no_hint, numpy_hint, varargs, tuple_input, bad_return, no_return, tuple_default,
                                         undefined)]
    return cases + [(mutated_int, ("n",)), (mutated_int, ("q",)), (mutated_int, "everything")]


def test_bad_type_hints_raise_torchs_errors(torch):
    def run(lib):
        ns = _ns("bad")
        errors = []
        for i, (fn, mutates) in enumerate(_bad_hints(lib)):
            error = _error(lambda i=i, fn=fn, mutates=mutates:
                           lib.library.custom_op(f"{ns}::op{i}", mutates_args=mutates)(fn))
            errors.append((error[0], _gist(error[1])))
        errors.append(_error(lambda: lib.library.custom_op(f"{ns}::x", lambda x: x)))
        return errors

    assert run(core) == run(torch)


def test_calls_that_do_not_fit_the_schema_raise_torchs_errors(torch):
    def run(lib):
        ns = _ns("call")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::nf", mutates_args=())
        def nf(x: Tensor, k: int = 2, *, s: float = 1.5) -> Tensor:
            return x * k * s

        x = lib.ones(1)
        calls = [lambda: nf(), lambda: nf(x, q=1), lambda: nf(x, 2.5), lambda: nf(1.0), lambda: nf(x, 3, 2.0),
                 lambda: getattr(lib.ops, ns).nf.default(x, 1, 2)]
        errors = [(e[0], e[1].replace(ns, "NS").split("\nCast error details")[0]) for e in map(_error, calls)]
        return [nf(x), nf(x, True), nf(x, 3, s=2.0)], errors

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def test_outputs_that_alias_inputs_or_are_not_tensors_raise_torchs_errors(torch):
    def run(lib):
        ns = _ns("out")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::same", mutates_args=())
        def same(x: Tensor) -> Tensor:
            return x

        @lib.library.custom_op(f"{ns}::number", mutates_args=())
        def number(x: Tensor) -> Tensor:
            return 3

        aliasing = _error(lambda: same(lib.ones(1)))
        return aliasing[0], aliasing[1].split("): ")[1], _error(lambda: number(lib.ones(1)))

    assert run(core) == run(torch)


def test_opcheck_without_a_fake_kernel_fails_its_fake_tensor_tests(torch):
    def run(lib):
        ns = _ns("nofake")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::double", mutates_args=())
        def double(x: Tensor) -> Tensor:
            return x * 2

        error = _error(lambda: lib.library.opcheck(double, (lib.ones(2),)))
        report = lib.library.opcheck(double, (lib.ones(2),), raise_exception=False)
        shown = {k: v if isinstance(v, str) else (type(v).__name__, str(v).replace(ns, "NS"))
                 for k, v in report.items()}
        return error[0], error[1].replace(ns, "NS"), shown

    assert run(core) == run(torch)


def test_opcheck_catches_a_mutation_the_schema_does_not_declare(torch):
    def run(lib):
        ns = _ns("sneaky")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::sneaky", mutates_args=())
        def sneaky(x: Tensor) -> Tensor:
            x.add_(1)
            return x.clone()

        report = lib.library.opcheck(sneaky, (lib.ones(2),), test_utils="test_schema", raise_exception=False)
        return type(report["test_schema"]).__name__, "mutated" in str(report["test_schema"])

    ours, theirs = run(core), run(torch)
    assert ours[1] and theirs[1]


def test_library_define_and_impl_make_operators_in_torch_ops(torch):
    def run(lib):
        ns = _ns("libdef")
        library = lib.library.Library(ns, "DEF")
        library.define("mycos(Tensor x) -> Tensor")
        library.impl("mycos", lambda x: x.cos(), "CPU")
        lib.library.define(f"{ns}::mytan", "(Tensor x, float s=1.0) -> Tensor", lib=library)

        @lib.library.impl(f"{ns}::mytan", "cpu", lib=library)
        def mytan(x, s=1.0):
            return x.tan() * s

        library.define("scaled(Tensor x, *, int k=3) -> Tensor")
        library.impl("scaled", lambda x, *, k=3: x * k, "CompositeImplicitAutograd")
        space = getattr(lib.ops, ns)
        x = lib.tensor([0.5, 1.0], requires_grad=True)
        values = [space.mycos(x), space.mytan(x, 2.0), space.mytan.default(x), space.scaled(x), space.scaled(x, k=5)]
        space.scaled(x).sum().backward()
        text = [str(space.mycos.default._schema), str(space.mytan.default._schema), str(space.scaled.default._schema),
                repr(library), _error(lambda: space.nothere),
                _error(lambda: library.define("mycos(Tensor x) -> Tensor"))[1].split(". Each")[0],
                _error(lambda: lib.library.Library(ns, "DEF"))[1].split(";")[0], _error(lambda: space.mycos(1)),
                _error(lambda: lib.library.Library(ns, "BAD")), repr(lib.library.Library(ns, "FRAGMENT"))]
        return [*values, x.grad], [t.replace(ns, "NS") if isinstance(t, str) else
                                   (t[0], t[1].replace(ns, "NS")) for t in text]

    (ours, ours_text), (theirs, their_text) = run(core), run(torch)
    assert_same(ours, theirs)
    assert ours_text == their_text


def test_an_operator_without_a_kernel_for_the_device_raises_notimplementederror(torch):
    def run(lib):
        ns = _ns("nokernel")
        library = lib.library.Library(ns, "DEF")
        library.define("h(Tensor x) -> Tensor")
        error = _error(lambda: getattr(lib.ops, ns).h(lib.ones(1)))
        return error[0], error[1].replace(ns, "NS").split(" backend.")[0]

    assert run(core) == run(torch)


def test_keyword_only_inputs_reach_setup_context(torch):
    def run(lib):
        ns = _ns("kw")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::scale", mutates_args=())
        def scale(x: Tensor, *, k: float = 2.0) -> Tensor:
            return x * k

        def setup_context(ctx, inputs, keyword_only_inputs, output):
            ctx.k = keyword_only_inputs["k"]

        scale.register_autograd(lambda ctx, g: g * ctx.k, setup_context=setup_context)
        x = lib.ones(3, requires_grad=True)
        scale(x, k=4.0).sum().backward()
        return x.grad

    assert_same(run(core), run(torch))


def test_register_kernel_picks_the_kernel_for_the_tensors_device(torch):
    def run(lib):
        ns = _ns("kern")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::f", mutates_args=(), device_types="cpu")
        def f(x: Tensor) -> Tensor:
            return x + 1

        before = f(lib.zeros(2))
        f.register_kernel("cpu")(lambda x: x + 10)
        return [before, f(lib.zeros(2))]

    assert_same(run(core), run(torch))


def _crop(lib, ns, fake_permuted):
    """The tutorial's crop operator (NumPy slicing instead of PIL): a list argument, a fake kernel, a gradient."""
    from typing import Sequence

    @lib.library.custom_op(f"{ns}::crop", mutates_args=())
    def crop(pic: lib.Tensor, box: Sequence[int]) -> lib.Tensor:
        x0, y0, x1, y1 = box
        return pic[:, y0:y1, x0:x1].clone()

    @crop.register_fake
    def _(pic, box):
        x0, y0, x1, y1 = box
        if fake_permuted:  # the tutorial's fake kernel: right shape, other strides than the real output's
            return pic.new_empty(y1 - y0, x1 - x0, pic.shape[0]).permute(2, 0, 1)
        return pic.new_empty(pic.shape[0], y1 - y0, x1 - x0)

    def setup_context(ctx, inputs, output):
        pic, box = inputs
        ctx.box, ctx.shape = box, pic.shape

    def backward(ctx, grad_output):
        grad_input = grad_output.new_zeros(ctx.shape)
        x0, y0, x1, y1 = ctx.box
        grad_input[:, y0:y1, x0:x1] = grad_output
        return grad_input, None

    crop.register_autograd(backward, setup_context=setup_context)
    return crop


def test_tutorial_crop_operator_takes_a_box_and_differentiates(torch):
    def run(lib):
        crop = _crop(lib, _ns("crop"), fake_permuted=False)
        pic = lib.tensor(np.arange(48.0).reshape(3, 4, 4), requires_grad=True)
        out = crop(pic, (1, 1, 3, 4))
        (out * out).sum().backward()
        return [out, pic.grad], (crop._schema, lib.library.opcheck(crop, (pic, (0, 0, 2, 2)))), \
            lib.autograd.gradcheck(lambda p: crop(p, [1, 0, 3, 2]), (pic.detach().requires_grad_(),))

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


def test_opcheck_reports_a_fake_kernel_with_other_strides_as_torch(torch):
    def run(lib):
        ns = _ns("strides")
        crop = _crop(lib, ns, fake_permuted=True)
        pic = lib.tensor(np.arange(48.0).reshape(3, 4, 4))
        error = _error(lambda: lib.library.opcheck(crop, (pic, (0, 0, 2, 2))))
        return error[0], error[1].replace(ns, "NS")

    assert run(core) == run(torch)


def test_tensor_list_arguments_and_results_get_gradients_as_torchs(torch):
    def run(lib):
        ns = _ns("lists")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::wsum", mutates_args=())
        def wsum(xs: list[Tensor], w: float) -> Tensor:
            return sum(x * w for x in xs).detach()

        def setup(ctx, inputs, output):
            ctx.w, ctx.n = inputs[1], len(inputs[0])

        wsum.register_autograd(lambda ctx, g: ([g * ctx.w] * ctx.n, None), setup_context=setup)

        @lib.library.custom_op(f"{ns}::split2", mutates_args=())
        def split2(x: Tensor) -> list[Tensor]:
            return [x * 2, x * 3]

        split2.register_autograd(lambda ctx, grads: grads[0] * 2 + grads[1] * 3,
                                 setup_context=lambda ctx, inputs, output: None)
        a, b, c = (lib.tensor(np.linspace(0, 1, 3) + i, requires_grad=True) for i in range(3))
        y = wsum([a, b], 3.0)
        parts = split2(c)
        (y * y).sum().backward()
        (parts[0] * parts[1]).sum().backward()
        return [y, *parts, a.grad, b.grad, c.grad], (type(parts).__name__, y.grad_fn.name().replace(ns, "NS"))

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def test_a_fake_kernel_with_a_data_dependent_size_passes_opcheck_as_torchs(torch):
    def run(lib):
        ns = _ns("nonzero")
        Tensor = lib.Tensor

        @lib.library.custom_op(f"{ns}::custom_nonzero", mutates_args=())
        def custom_nonzero(x: Tensor) -> Tensor:
            return lib.tensor(np.stack(np.nonzero(x.numpy(force=True)), axis=1), device=x.device)

        @lib.library.register_fake(f"{ns}::custom_nonzero")
        def _(x):
            nnz = lib.library.get_ctx().new_dynamic_size()
            return x.new_empty([nnz, x.dim()], dtype=lib.int64)

        x = lib.tensor([[0, 1, 2], [0, 3, 0]])
        return custom_nonzero(x), (lib.library.opcheck(custom_nonzero, (x,)), lib.library.get_ctx())

    ours, theirs = run(core), run(torch)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def test_a_call_on_meta_tensors_runs_the_fake_kernel(torch):
    def run(lib):
        y = _numpy_sin(lib, _ns("meta"))(lib.empty(2, 3, device="meta"))
        return tuple(y.shape), y.device.type, str(y.dtype)

    assert run(core) == run(torch)
