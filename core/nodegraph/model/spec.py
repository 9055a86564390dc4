"""Declarative node specs and the one registry of node types.

A node type is one ``NodeSpec``: a stable type id (``math.mul``), category, title, a one-line
description, input and output ports, typed parameters with defaults and bounds, and one
``evaluate`` function that computes the outputs with ``core`` ops. The palette, the inspector,
the file loader, shape inference and export are all driven by these specs, so adding a node
type is one ``register(NodeSpec(...))`` call in one place.

``evaluate(ctx, inputs, params)`` receives an ``EvalContext``, a dict of input values by port
name (missing optional inputs are absent) and a dict of validated parameter values; it returns a
dict of output values by port name (a single value is accepted for a one-output node).
"""

from __future__ import annotations

import difflib
import math
import reprlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

if TYPE_CHECKING:
    from core.nodegraph.model.document import Node
    from core.nodegraph.model.inference import PortInfo

__all__ = ["PORT_KINDS", "PARAM_KINDS", "Port", "Param", "NodeSpec", "EvalContext", "ParamError",
           "register", "unregister", "get_spec", "has_spec", "all_specs", "categories", "category_title", "quote",
           "QUOTE_MAX",
           "SEED_RANGE", "NamedValues", "EvalFn", "CodeGen", "CodeHook"]

PORT_KINDS = ("tensor", "scalar", "parameter", "gradient", "module", "any")
PARAM_KINDS = ("int", "float", "bool", "choice", "shape", "dims", "tensor", "seed", "str")
MAX_NUMEL = 50_000_000  # a shape above this is refused as a parameter value (files, inspector)
SEED_RANGE = (0, 2 ** 64 - 1)  # what torch.Generator.manual_seed takes: the uint64 range
QUOTE_MAX = 100  # a message quotes at most about this many characters of a user's value

_QUOTE = reprlib.Repr()
_QUOTE.maxlevel, _QUOTE.maxlist, _QUOTE.maxtuple, _QUOTE.maxdict = 3, 8, 8, 4
_QUOTE.maxstring, _QUOTE.maxlong, _QUOTE.maxother = QUOTE_MAX, 40, QUOTE_MAX


def quote(value: object, limit: int = QUOTE_MAX) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages that quote what a user typed or a file held.

    Bounded work whatever the value (a 10M-element list or a 50 MB name costs no more than a short one), so a
    refusal never turns into a 30 MB message.
    """
    text = _QUOTE.repr(value)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    if isinstance(value, str) and len(value) > limit:
        text += f" ({len(value)} characters)"
    return text


class ParamError(ValueError):
    """A parameter value that is out of bounds or of the wrong kind; the message names the parameter."""


@dataclass(frozen=True)
class Port:
    """An input or output of a node. ``kind`` picks the port colour and what may connect."""

    name: str
    kind: str = "tensor"
    optional: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PORT_KINDS:
            raise ValueError(f"port {self.name!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Param:
    """A typed parameter with a default and bounds; ``validate`` normalises or raises ParamError."""

    name: str
    kind: str
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    doc: str = ""
    # (choice, what it means) for a choice whose name says too little; a note may be a function read each time the
    # choice is offered (``default``'s dtype is core's default dtype at that moment)
    choice_notes: tuple[tuple[Any, str | Callable[[], str]], ...] = ()
    # (value, what it means) for a number that stands for something else (a dataset's batch_size 0: the whole set),
    # said beside it where the value is summed up (the canvas writes ``batch_size=0 (whole set)``)
    value_notes: tuple[tuple[Any, str], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"param {self.name!r}: unknown kind {self.kind!r}")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"param {self.name!r}: default {self.default!r} is not one of {self.choices}")
        unknown = [c for c, _ in self.choice_notes if c not in self.choices]
        if unknown:
            raise ValueError(f"param {self.name!r}: notes for {unknown} which are not among {self.choices}")

    def choice_text(self, choice: Any) -> str:
        """How a choice is offered where it is picked: its name, with its note when it has one
        (``context (the toolbar's device)``, ``default (float32)``); the value stored stays the bare choice."""
        note = dict(self.choice_notes).get(choice)
        if callable(note):
            note = note()
        return f"{choice} ({note})" if note else str(choice)

    def value_note(self, value: Any) -> str:
        """What ``value`` stands for when it is one of ``value_notes`` (``"whole set"``), else ``""``."""
        return next((note for v, note in self.value_notes if v == value and type(v) is type(value)), "")

    def validate(self, value: Any) -> Any:
        """The value in canonical form (ints, floats, tuples...), or ParamError naming the parameter."""
        check = _VALIDATORS[self.kind]
        try:
            return check(self, value)
        except ParamError:
            raise
        except (TypeError, ValueError, OverflowError) as exc:
            raise ParamError(f"parameter '{self.name}': {str(exc)[:200]}") from None


_Number = TypeVar("_Number", int, float)


def _bounded(p: Param, v: _Number) -> _Number:
    if p.minimum is not None and v < p.minimum:
        raise ParamError(f"parameter '{p.name}' must be >= {p.minimum}, got {quote(v)}")
    if p.maximum is not None and v > p.maximum:
        raise ParamError(f"parameter '{p.name}' must be <= {p.maximum}, got {quote(v)}")
    return v


INT64 = (-2 ** 63, 2 ** 63 - 1)  # the integers torch's ops take (a larger one: "Overflow when unpacking long long")


def _int64(p: Param, values: Iterable[int]) -> None:
    """Refuse an integer torch could not take (a dim of 10**23 or 1e308 typed in a field), naming the parameter."""
    lo, hi = INT64
    bad = next((v for v in values if not lo <= v <= hi), None)
    if bad is not None:
        raise ParamError(f"parameter '{p.name}' must be a 64-bit integer (-2**63 to 2**63 - 1, what torch takes), "
                         f"got {quote(bad)}")


def _int(p: Param, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) and not (isinstance(v, float) and v.is_integer()):
        raise ParamError(f"parameter '{p.name}' must be an integer, got {quote(v)}")
    _int64(p, (int(v),))
    return _bounded(p, int(v))


def _float(p: Param, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ParamError(f"parameter '{p.name}' must be a number, got {quote(v)}")
    v = float(v)
    if math.isnan(v):
        raise ParamError(f"parameter '{p.name}' must be a number, got nan")
    return _bounded(p, v)


def _bool(p: Param, v: object) -> bool:
    if not isinstance(v, bool):
        raise ParamError(f"parameter '{p.name}' must be true or false, got {quote(v)}")
    return v


def _choice(p: Param, v: object) -> object:
    if v not in p.choices:
        near = difflib.get_close_matches(v, [str(c) for c in p.choices], n=1) if isinstance(v, str) else []
        hint = f" (did you mean '{near[0]}'?)" if near else ""  # a typo in a file: 'flaot32'
        raise ParamError(f"parameter '{p.name}' must be one of {', '.join(map(str, p.choices))}; got {quote(v)}{hint}")
    return v


def _shape(p: Param, v: Any) -> tuple[int, ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,)
    if not isinstance(v, (list, tuple)) or any(isinstance(s, bool) or not isinstance(s, int) for s in v):
        raise ParamError(f"parameter '{p.name}' must be a list of integers, got {quote(v)}")
    if any(s < 0 for s in v):
        raise ParamError(f"parameter '{p.name}' has a negative size: {quote(list(v))}")
    _int64(p, v)  # (a zero-size shape passes the element count)
    if len(v) > 8 or math.prod(v) > MAX_NUMEL:
        raise ParamError(f"parameter '{p.name}' is too large: {quote(list(v))} (at most 8 dims and {MAX_NUMEL} "
                         "elements)")
    return tuple(v)


def _dims(p: Param, v: object) -> int | tuple[int, ...] | None:
    if v is None:
        return None
    if isinstance(v, int) and not isinstance(v, bool):
        _int64(p, (v,))
        return v
    if not isinstance(v, (list, tuple)) or any(isinstance(s, bool) or not isinstance(s, int) for s in v):
        raise ParamError(f"parameter '{p.name}' must be an integer, a list of integers or null, got {quote(v)}")
    _int64(p, v)
    return tuple(v)


def _tensor(p: Param, v: object) -> object:
    """A tensor literal: a number or a (nested, rectangular) list of numbers."""
    import numpy as np

    if isinstance(v, str):
        raise ParamError(f"parameter '{p.name}' must be a number or a list of numbers, got a string")
    try:
        arr = np.asarray(v)
    except ValueError:  # rows of different lengths: said as torch.tensor says it, not in NumPy's words
        arr = None
    if arr is None or arr.dtype == object or arr.dtype.kind not in "biuf":
        leaf = _not_a_number(v)  # named first: torch calls ["1.5", [2.0]] "too many dimensions 'str'"
        if leaf is not None:
            raise ParamError(f"parameter '{p.name}' must be a number or a list of numbers, got {leaf}")
        if arr is None:
            raise ParamError(f"parameter '{p.name}' must be a rectangular list of numbers: {_ragged(v)}")
        raise ParamError(f"parameter '{p.name}' must be a number or a rectangular list of numbers")
    if arr.size > MAX_NUMEL:
        raise ParamError(f"parameter '{p.name}' is too large ({arr.size} elements)")
    return v


def _not_a_number(v: object) -> str | None:
    """The first leaf of a nested list that JSON could hold but no tensor can (text, null, an object), said with
    where it is (``a string at [1][0]``), or None."""
    stack: list[tuple[object, str]] = [(v, "")]
    while stack:
        value, at = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend((item, f"{at}[{i}]") for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, (str, dict)) or value is None:
            kind = "a string" if isinstance(value, str) else "an object" if isinstance(value, dict) else "null"
            return f"{kind} at {at}" if at else kind
    return None


def _ragged(v: object) -> str:
    """Where a nested list stops being rectangular, in torch.tensor's words ("expected sequence of length 2 at dim
    1 (got 1)")."""
    import core

    try:
        core.tensor(v)
    except (ValueError, TypeError, RuntimeError) as exc:  # RuntimeError: a leaf torch can't infer a dtype of
        return str(exc)
    return "its rows differ in length"


def _seed(p: Param, v: object) -> int | None:
    if v is None:
        return None
    lo, hi = SEED_RANGE
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ParamError(f"parameter '{p.name}' must be an integer seed in [{lo}, 2**64 - 1], got {quote(v)}")
    return v


def _str(p: Param, v: object) -> str:
    if not isinstance(v, str) or len(v) > 10_000:
        raise ParamError(f"parameter '{p.name}' must be a text of at most 10000 characters")
    bad = next((i for i, c in enumerate(v) if 0xD800 <= ord(c) <= 0xDFFF), None) if not v.isascii() else None
    if bad is not None:  # a UTF-8 file can't hold it: the document would not save (the loader refuses it too)
        raise ParamError(f"parameter '{p.name}' holds a lone surrogate (\\u{ord(v[bad]):04x} at character {bad + 1}), "
                         "which a UTF-8 file can't hold")
    return v


_VALIDATORS: dict[str, Callable[[Param, Any], object]] = {
    "int": _int, "float": _float, "bool": _bool, "choice": _choice, "shape": _shape, "dims": _dims,
    "tensor": _tensor, "seed": _seed, "str": _str}


@dataclass
class EvalContext:
    """What a node's ``evaluate`` may use besides its inputs: device, randomness, training flag, state.

    ``state`` is the node's own persistent dict (a layer node keeps its ``core.nn`` module there);
    ``generator`` is a ``core.Generator`` seeded from the node's seed or the session's.
    """

    node_id: str = ""
    device: str = "cpu"
    training: bool = True
    generator: Any = None
    state: dict[str, Any] = field(default_factory=dict)
    step: int = 0
    node: Node | None = None  # the document Node being evaluated (a subgraph node reads its inner graph from it)
    seed: int = 0  # the run's seed (a subgraph seeds its inner nodes from it like expanded ones)
    split: str = "train"  # "val": a dataset node yields its validation rows (core.nodegraph.training.holdout)


NamedValues = dict[str, Any]  # input values, parameter values or output values by port or parameter name
# evaluate(ctx, inputs, params) -> {port: value}, or one value for a one-output node
EvalFn = Callable[[EvalContext, NamedValues, NamedValues], Any]


class CodeGen(Protocol):
    """What a node's export hook is given: the exporter's ``NodeCode`` (``core.nodegraph.export.code_hooks``,
    a layer above the model; its docstrings say what each member does)."""

    node_id: str
    params: NamedValues  # the validated parameter values
    inputs: dict[str, str]  # port -> the expression feeding it; unconnected optional ports absent
    api: str  # "core" or "torch"
    var: str  # the node's variable name

    def format(self, template: str) -> str: ...
    def connected(self, ports: Iterable[str]) -> list[str]: ...
    def generator(self, seed: int | None) -> str: ...
    def array(self, value: Any) -> str: ...
    def literal(self, tensor: Any) -> str: ...
    def recorded(self, port: str = "out", nonzero: bool = False) -> str: ...
    def setup(self, line: str) -> None: ...
    def setup_var(self, prefix: str, expr: str) -> str: ...
    def helper(self, text: str) -> None: ...
    def formula(self, formula: str, names: dict[str, str] | None = None) -> str: ...
    def input_value(self, port: str) -> Any: ...
    def refuse(self, why: str) -> NoReturn: ...
    def parameter(self) -> str: ...
    def module(self, constructor: str) -> str: ...


CodeHook = Callable[[CodeGen], "str | dict[str, str]"]  # code(cg) -> the output's expression, or one per port


@dataclass(frozen=True)
class NodeSpec:
    """One node type. ``version`` goes into files so old saves can be migrated per node type."""

    type_id: str
    category: str
    title: str
    description: str
    evaluate: EvalFn
    inputs: tuple[Port, ...] = ()
    outputs: tuple[Port, ...] = (Port("out"),)
    params: tuple[Param, ...] = ()
    version: int = 1
    # Optional fast shape inference: infer(input_infos, params) -> {port: PortInfo}; see core.nodegraph.model.inference
    infer: Callable[[dict[str, PortInfo], NamedValues], dict[str, PortInfo]] | None = None
    # params -> the input Ports, for nodes whose inputs follow a parameter
    dynamic_inputs: Callable[[NamedValues], Sequence[Port]] | None = None
    # Optional code for export (core.nodegraph.export.script): a template such as "torch.mul({a}, {b})" formatted with
    # the input expressions by port name and the repr of each parameter value, or a callable code(cg) -> str | dict
    # given the exporter's NodeCode (inputs, params, api, literal(), setup()...); see core.nodegraph.export.script.
    code: str | CodeHook | None = None
    # Optional, for a node that builds what it trains (a layer's module, a parameter's tensor) and keeps in
    # ``ctx.state["key"]`` what it built it for: build_key(validated params) -> that key, the same function its
    # evaluate compares. A parameter set that changes the key rebuilds on the next run, so a session saving before
    # that run knows the weights it holds are no longer the node's (``Session.stale_parameters``,
    # run.saved_training; a subgraph's inner nodes are judged by their own keys: model.nodes.stale_parameters)
    build_key: Callable[[NamedValues], Any] | None = None

    def input_ports(self, params: NamedValues | None = None) -> tuple[Port, ...]:
        """The input ports for these parameter values: ``dynamic_inputs(params)`` when set, else ``inputs``.

        A bad parameter value falls back to the static ``inputs`` so documents never fail to list ports.
        """
        if self.dynamic_inputs is None or params is None:
            return self.inputs
        try:
            return tuple(self.dynamic_inputs({**self.default_params(), **params}))
        except (ParamError, TypeError, ValueError):
            return self.inputs

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"node type '{self.type_id}' has no parameter '{name}'")

    def default_params(self) -> NamedValues:
        return {p.name: p.default for p in self.params}

    def validate_params(self, values: NamedValues) -> NamedValues:
        """All parameters, defaults filled in, each validated; unknown names raise ParamError."""
        known = {p.name for p in self.params}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ParamError(f"node type '{self.type_id}' has no parameter {quote(unknown[0])}")
        return {p.name: p.validate(values.get(p.name, p.default)) for p in self.params}


_REGISTRY: dict[str, NodeSpec] = {}


def register(spec: NodeSpec) -> NodeSpec:
    """Add a node type; a type id is registered once."""
    if spec.type_id in _REGISTRY:
        raise ValueError(f"node type '{spec.type_id}' is already registered")
    names = [p.name for p in spec.inputs] + [p.name for p in spec.params]
    if len(set(names)) != len(names):
        raise ValueError(f"node type '{spec.type_id}': input and parameter names must be unique")
    _REGISTRY[spec.type_id] = spec
    return spec


def unregister(type_id: str) -> None:
    """Remove a node type (tests and plug-ins that add temporary types)."""
    _REGISTRY.pop(type_id, None)


def get_spec(type_id: str) -> NodeSpec:
    try:
        return _REGISTRY[type_id]
    except KeyError:
        raise KeyError(f"unknown node type '{type_id}'") from None


def has_spec(type_id: str) -> bool:
    return type_id in _REGISTRY


def all_specs() -> list[NodeSpec]:
    """Every registered spec, sorted by category then title (the palette's order)."""
    return sorted(_REGISTRY.values(), key=lambda s: (s.category, s.title))


def categories() -> list[str]:
    return sorted({s.category for s in _REGISTRY.values()})


# What a learner reads for a category (the Node library's groups); the ids stay the type ids' prefixes.
CATEGORY_TITLES = {
    "check": "Gradient checks", "code": "Imported ops", "compare": "Comparisons and logic", "data": "Datasets",
    "expr": "Expressions", "grad": "Autograd (grad, detach, no_grad)", "graph": "Subgraphs",
    "inplace": "In-place ops", "join": "Joining (cat, stack)", "layer": "Layers (with weights)",
    "linalg": "Linear algebra", "loss": "Losses", "math": "Math", "nn": "Neural-net functions (relu…)",
    "param": "Parameters", "probe": "Probes (watch values)", "reduce": "Reductions (sum, mean…)",
    "shape": "Shape and indexing", "source": "Sources (new tensors)",
}


def category_title(category: str) -> str:
    """The words a learner reads for ``category`` (``"inplace"`` -> ``"In-place ops"``); a category without
    words of its own (a plugin's) reads as its id, capitalised."""
    return CATEGORY_TITLES.get(category, category[:1].upper() + category[1:])


# Node types declare how their old saved forms become current (core.nodegraph.files.migrations applies them).
NodeMigration = Callable[[dict[str, Any]], dict[str, Any]]
NODE_MIGRATIONS: dict[tuple[str, int], NodeMigration] = {}  # (type_id, from_version) -> fn(node_dict) -> node_dict


def register_node_migration(type_id: str, from_version: int, fn: NodeMigration) -> None:
    """Declare how a node of ``type_id`` saved at ``from_version`` becomes ``from_version + 1``."""
    NODE_MIGRATIONS[(type_id, from_version)] = fn
