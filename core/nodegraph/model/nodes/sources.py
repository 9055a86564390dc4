"""Tensor sources: typed-in literals, the factories (``randn/rand/zeros/ones/arange/full/eye``) and parameters.

Random sources draw from a ``core.Generator`` seeded by the node's ``seed`` parameter when it is set,
else from ``ctx.generator`` (the session's), else from a generator seeded with 0 — so an evaluation is
always reproducible and never touches ``core``'s global random state. ``param.parameter`` is created
once and kept in ``ctx.state["tensor"]`` so optimizer updates persist across evaluations; it is
recreated only when its shape, dtype, initialiser or seed changes (a device change moves its values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import core
from core.nodegraph.model import tensor_store
from core.nodegraph.model.nodes._common import (
    DEVICE_NOTES,
    DEVICES,
    DTYPE_CHOICES,
    DTYPE_NOTES,
    INFERRED_DTYPE_NOTES,
    build_for,
    device_of,
    dtype_of,
    finish_source,
    grad_params,
)
from core.nodegraph.model.spec import (
    CodeGen,
    CodeHook,
    EvalContext,
    EvalFn,
    NamedValues,
    NodeSpec,
    Param,
    Port,
    register,
)

SHAPE = Param("shape", "shape", (2, 3), doc="the tensor's size")
DTYPE = Param("dtype", "choice", "default", choices=DTYPE_CHOICES, choice_notes=DTYPE_NOTES,
              doc="element type; default follows core (torch.get_default_dtype(), or the values' kind)")
DEVICE = Param("device", "choice", "context", choices=DEVICES, choice_notes=DEVICE_NOTES,
               doc="where the tensor lives; context = the session's device (the toolbar's device selector)")
SEED = Param("seed", "seed", None, doc="a fixed seed for this node; null uses the session's generator")

# make(ctx, params, dtype, device) -> the source's tensor, before its requires_grad / retain_grad toggles
Maker = Callable[[EvalContext, NamedValues, "core.dtype | None", str], core.Tensor]


def generator_for(ctx: EvalContext, seed: int | None) -> core.Generator:
    """The generator a random node draws from: its own seed, else the context's, else seed 0."""
    if seed is not None:
        return core.Generator().manual_seed(seed)
    if ctx.generator is not None:
        return ctx.generator
    return core.Generator().manual_seed(0)


def _literal(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    t = core.tensor(tensor_store.literal(p["tensor"]), dtype=dtype_of(p["dtype"]), device=device_of(ctx, p["device"]))
    return finish_source(t, p)


def _factory(make: Maker) -> EvalFn:
    def evaluate(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
        return finish_source(make(ctx, p, dtype_of(p["dtype"]), device_of(ctx, p["device"])), p)
    return evaluate


def _arange(ctx: EvalContext, p: NamedValues, dt: core.dtype | None, dev: str) -> core.Tensor:
    """Integral start/end/step give int64 values like ``torch.arange(5)``; any fraction gives floats."""
    bounds = [p[k] for k in ("start", "end", "step")]
    if all(float(b).is_integer() for b in bounds):
        bounds = [int(b) for b in bounds]
    return core.arange(*bounds, dtype=dt, device=dev)


def _random(fn: Callable[..., core.Tensor]) -> Maker:
    return lambda ctx, p, dt, dev: fn(*p["shape"], generator=generator_for(ctx, p["seed"]), dtype=dt, device=dev)


def _kw(cg: CodeGen, p: NamedValues) -> str:
    """Export: the dtype and device keywords of a source (``context`` follows the script's DEVICE)."""
    dt = "" if p["dtype"] == "default" else f", dtype=torch.{p['dtype']}"
    return f"{dt}, device={'DEVICE' if p['device'] == 'context' else repr(p['device'])}"


def _grad_code(expr: str, p: NamedValues) -> str:
    return f"{expr}.requires_grad_()" if p.get("requires_grad") else expr


def _source_code(name: str) -> CodeHook:
    """Export hook of ``source.<name>``: the same factory call; random draws use the same generator in core
    and the recorded values in torch (whose generators differ)."""
    def code(cg: CodeGen) -> str:
        p, kw = cg.params, _kw(cg, cg.params)
        if name in ("randn", "rand"):
            if cg.api != "core":
                return _grad_code(cg.recorded(), p)
            shape = ", ".join(map(str, p["shape"]))
            return _grad_code(f"torch.{name}({shape}{',' if shape else ''} generator={cg.generator(p['seed'])}{kw})", p)
        if name == "tensor":
            return _grad_code(f"torch.tensor({cg.array(p['tensor'])}{kw})", p)
        if name == "arange":
            bounds = [p[k] for k in ("start", "end", "step")]
            bounds = [int(b) for b in bounds] if all(float(b).is_integer() for b in bounds) else bounds
            return _grad_code(f"torch.arange({', '.join(map(repr, bounds))}{kw})", p)
        if name == "eye":
            return _grad_code(f"torch.eye({p['n']!r}, {p['m'] if p['m'] >= 0 else None!r}{kw})", p)
        fill = f", {p['fill_value']!r}" if name == "full" else ""
        return _grad_code(f"torch.{name}({tuple(p['shape'])!r}{fill}{kw})", p)
    return code


# titled as PyTorch spells the call they make (torch.tensor, torch.randn), as every op node is; the class-like
# nodes (Linear, Parameter) keep their class's capital and the app's own (Expression, Gradient) sentence case
SOURCES: list[tuple[str, str, str, EvalFn, tuple[Param, ...]]] = [
    ("tensor", "tensor", "literal values typed in (a number or nested lists)", _literal,
     (Param("tensor", "tensor", 0.0, doc="the values, e.g. [[1, 2], [3, 4]]"),)),
    ("randn", "randn", "standard normal samples", _factory(_random(core.randn)), (SHAPE, SEED)),
    ("rand", "rand", "uniform samples in [0, 1)", _factory(_random(core.rand)), (SHAPE, SEED)),
    ("zeros", "zeros", "a tensor of zeros",
     _factory(lambda c, p, dt, dev: core.zeros(p["shape"], dtype=dt, device=dev)),
     (SHAPE,)),
    ("ones", "ones", "a tensor of ones", _factory(lambda c, p, dt, dev: core.ones(p["shape"], dtype=dt, device=dev)),
     (SHAPE,)),
    ("full", "full", "a tensor filled with one value",
     _factory(lambda c, p, dt, dev: core.full(p["shape"], p["fill_value"], dtype=dt, device=dev)),
     (SHAPE, Param("fill_value", "float", 1.0))),
    ("arange", "arange", "values from start to end (exclusive) by step",
     _factory(_arange),
     (Param("start", "float", 0.0), Param("end", "float", 5.0), Param("step", "float", 1.0))),
    ("eye", "eye", "the n x m identity matrix",
     _factory(lambda c, p, dt, dev: core.eye(p["n"], p["m"] if p["m"] >= 0 else None, dtype=dt, device=dev)),
     (Param("n", "int", 3, minimum=0, maximum=10_000), Param("m", "int", -1, minimum=-1, maximum=10_000,
                                                            doc="columns; -1 means n"))),
]

for _name, _title, _doc, _eval, _params in SOURCES:
    _notes = INFERRED_DTYPE_NOTES if _name in ("tensor", "arange") else DTYPE_NOTES
    _dtype = Param("dtype", "choice", "default", choices=DTYPE_CHOICES, choice_notes=_notes, doc=DTYPE.doc)
    register(NodeSpec(f"source.{_name}", "source", _title, _doc, _eval,
                      params=_params + (_dtype, DEVICE) + grad_params(), code=_source_code(_name)))


INITS = ("zeros", "ones", "normal", "uniform", "xavier_uniform", "kaiming_uniform")


def init_tensor(shape: Sequence[int], init: str, seed: int | None, dtype: core.dtype | None = None,
                device: str = "cpu") -> core.Tensor:
    """A new tensor of ``shape`` filled by an initialiser from ``core.nn.init``, drawn from ``seed``."""
    g = core.Generator().manual_seed(0 if seed is None else seed)
    t = core.empty(shape, dtype=dtype, device=device)
    if init in ("zeros", "ones"):
        return core.nn.init.constant_(t, 0.0 if init == "zeros" else 1.0)
    if init == "normal":
        return core.nn.init.normal_(t, generator=g)
    if init == "uniform":
        return core.nn.init.uniform_(t, -1.0, 1.0, generator=g)
    if t.dim() < 2:  # fan-based initialisers need two dims; use the 1-d fan like nn.Linear's bias
        bound = 1.0 / math.sqrt(max(t.numel(), 1))
        return core.nn.init.uniform_(t, -bound, bound, generator=g)
    if init == "xavier_uniform":
        return core.nn.init.xavier_uniform_(t, generator=g)
    return core.nn.init.kaiming_uniform_(t, a=math.sqrt(5), generator=g)


def _parameter_key(p: NamedValues) -> tuple[tuple[int, ...], str, int | None, str]:
    """What a parameter node's tensor is built for (its name and device are not: a rename or a move keeps it)."""
    return p["shape"], p["init"], p["seed"], p["dtype"]


def _parameter(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    key, device = _parameter_key(p), device_of(ctx, p["device"])
    if ctx.state.get("key") != key:
        ctx.state["tensor"] = build_for(
            ctx.state, lambda: core.nn.Parameter(init_tensor(*key[:3], dtype_of(p["dtype"]), device)))
        ctx.state["key"] = key
    elif ctx.state["tensor"].device != core.device(device):  # moved, keeping its trained values
        ctx.state["tensor"] = core.nn.Parameter(ctx.state["tensor"].detach().to(device))
    ctx.state["name"] = p["name"]
    return ctx.state["tensor"]


register(NodeSpec(
    "param.parameter", "param", "Parameter", "a named trainable tensor, kept across steps", _parameter,
    outputs=(Port("out", "parameter"),),
    params=(Param("name", "str", "w", doc="the name the optimizer and inspector show"), SHAPE,
            Param("init", "choice", "normal", choices=INITS, doc="how the values start"),
            Param("seed", "seed", 0, doc="seed of the initialiser"),
            Param("dtype", "choice", "default", choices=("default", "float32", "float64"), choice_notes=DTYPE_NOTES),
            DEVICE),
    code=lambda cg: cg.parameter(), build_key=_parameter_key))

