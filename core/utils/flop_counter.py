"""``torch.utils.flop_counter.FlopCounterMode``: counts the matrix-multiply and convolution FLOPs run inside it.

Counts follow torch 2.13's formulas and the ATen operator each call becomes on the CPU: ``F.linear`` is an
``aten.addmm`` (with a bias on a contiguous input) or a ``matmul``; ``matmul``/``@`` is ``aten.mm`` where ATen folds
the batch into rows and ``aten.bmm`` otherwise (``dot``/``mv`` are not counted, as torch's registry has them not);
convolutions are ``aten.convolution``; ``scaled_dot_product_attention`` is its two ``aten.bmm``s (torch's math
path on the CPU) or nothing where torch picks its flash kernel, which its registry does not count; ``mm``, ``bmm``,
``addmm`` and ``baddbmm`` count as themselves, ``einsum`` as the ``aten.bmm`` of each pair torch contracts (left to
right) and ``bilinear`` (``aten._trilinear``) as nothing. A call's backward (run inside the mode) counts as torch's:
``aten.mm``/``aten.bmm`` per operand that needs a gradient and ``aten.convolution_backward``. Counts are kept under
"Global" and the running modules' names (``get_flop_counts()``); ``display=True`` prints torch's table on exit (core
renders it without ``tabulate``).

The mode sees calls through core's ``__torch_function__`` protocol; a counted call's inner ops are not seen again,
other calls are followed into, so a composite counts the ops core composes it from, as torch's decomposes it:
multi-head attention its projections and ``bmm``s, recurrent layers their input projection and each step's
``linear`` (the mode asks them to record each step, ``records_rnn_steps``, so each step's backward ``mm``s count);
an ``nn.LSTM`` torch runs on oneDNN counts nothing, as torch's. A backward is counted by a hook on the call's
``grad_fn``.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict

import core
from core._torch_function import undispatched
from core.overrides import TorchFunctionMode
from core.utils.module_tracker import ModuleTracker

__all__ = ["FlopCounterMode", "register_flop_formula", "get_suffix_str", "convert_num_with_suffix",
           "convert_to_percent_str"]


class _OpName:
    """A stand-in for ``torch.ops.aten.<name>`` where core's ``aten`` namespace lacks the operator."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='aten.{self._name}')>"

    def __str__(self) -> str:
        return f"aten.{self._name}"

    def __eq__(self, other) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


_PACKETS: dict = {}


def _packet(name: str):
    """``core.ops.aten.<name>`` (or a stand-in with its names): the key of a count."""
    if name not in _PACKETS:
        try:
            _PACKETS[name] = getattr(core.ops.aten, name)
        except AttributeError:
            _PACKETS[name] = _OpName(name)
    return _PACKETS[name]


# ---- formulas (torch's) ----------------------------------------------------------------------------------------

def _mm(m: int, k: int, n: int, batch: int = 1) -> int:
    return 2 * batch * m * k * n


def conv_flop_count(x_shape, w_shape, out_shape, transposed: bool = False) -> int:
    """Multiplications (times two) of a convolution: each point of the output (the input when transposed)."""
    conv_shape = (x_shape if transposed else out_shape)[2:]
    c_out, c_in, *kernel = w_shape
    return math.prod(conv_shape) * math.prod(kernel) * x_shape[0] * c_out * c_in * 2


def _conv_backward(grad_out, x, w, transposed: bool, mask) -> int:
    def t(shape):
        return [shape[1], shape[0], *shape[2:]]

    flops = 0
    if mask[0]:
        flops += conv_flop_count(grad_out, w, x, not transposed)
    if mask[1]:
        flops += (conv_flop_count(t(grad_out), t(x), t(w)) if transposed else conv_flop_count(t(x), t(grad_out), t(w)))
    return flops


def _should_fold(a, b) -> bool:
    """ATen's ``matmul`` folds the batch into an ``mm`` when it can do so without a copy (its ``should_fold``)."""
    larger_first = a.dim() >= b.dim()
    big = a if larger_first else b.mT
    small = b if larger_first else a
    if not (big.dim() >= 3 and small.dim() <= 2):
        return False
    if small.requires_grad:
        return True
    if a.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    shape, strides = big.shape, big.stride()
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.dim() - 2))


def _matmul_op(a, b):
    """``(aten name, flops)`` of ``a @ b`` as ATen runs it, or None (a ``dot`` or ``mv``)."""
    d1, d2 = a.dim(), b.dim()
    if d2 == 1 and d1 >= 1 and (d1 == 1 or d1 == 2 or _should_fold(a, b)):
        return None
    if d1 == 1 and d2 == 2:
        return "mm", _mm(1, a.shape[0], b.shape[1])
    if d1 == 2 and d2 == 2:
        return "mm", _mm(a.shape[0], a.shape[1], b.shape[1])
    if _should_fold(a, b):
        if d1 < d2 and d1 == 1:
            return None
        batch = math.prod((a if d1 >= d2 else b).shape[:-2])
        m = a.shape[-2] if d1 > 1 else 1
        return "mm", _mm(m, a.shape[-1], b.shape[-1], batch)
    batch = math.prod(core.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2])))
    return "bmm", _mm(a.shape[-2] if d1 > 1 else 1, a.shape[-1], b.shape[-1] if d2 > 1 else 1, batch)


def _needing_grad(*tensors) -> int:
    return sum(1 for t in tensors if isinstance(t, core.Tensor) and t.requires_grad)


# ---- what each counted call becomes: [(name, forward flops)], [(name, backward flops)] --------------------------

def _linear(input, weight, bias=None):
    rows = input.numel() // weight.shape[-1] if weight.dim() == 2 else 1
    if weight.dim() == 2 and bias is not None and (input.dim() == 2 or input.is_contiguous()):
        flops = _mm(rows, weight.shape[1], weight.shape[0])
        return [("addmm", flops)], [("mm", flops * _needing_grad(input, weight))]
    return _matmul(input, weight.t())


def _matmul(a, b):
    op = _matmul_op(a, b)
    if op is None:
        return [], []
    return [op], [(op[0], op[1] * _needing_grad(a, b))]


def _addmm(input, mat1, mat2, *args, **kwargs):
    flops = _mm(mat1.shape[0], mat1.shape[1], mat2.shape[1])
    return [("addmm", flops)], [("mm", flops * _needing_grad(mat1, mat2))]


def _bmm(a, b, *args, **kwargs):
    flops = _mm(a.shape[1], a.shape[2], b.shape[2], a.shape[0])
    return [("bmm", flops)], [("bmm", flops * _needing_grad(a, b))]


def _baddbmm(input, a, b, *args, **kwargs):
    flops = _mm(a.shape[1], a.shape[2], b.shape[2], a.shape[0])
    return [("baddbmm", flops)], [("bmm", flops * _needing_grad(a, b))]


def _conv(transposed: bool):
    def count(input, weight, *args, out=None, **kwargs):
        x, o = list(input.shape), list(out.shape)
        if input.dim() == weight.dim() - 1:  # an unbatched input runs as a batch of one
            x, o = [1, *x], [1, *o]
        forward = conv_flop_count(x, list(weight.shape), o, transposed)
        mask = (input.requires_grad, weight.requires_grad)
        backward = _conv_backward(o, x, list(weight.shape), transposed, mask) if any(mask) else 0
        return [("convolution", forward)], [("convolution_backward", backward)]
    return count


def _sdpa(query, key, value, attn_mask=None, dropout_p=0.0, *args, **kwargs):
    """Two ``aten.bmm``s (torch's math kernel) and their backward; nothing where torch's CPU dispatch picks its flash
    kernel (4-D inputs of one batch and head count, no dropout...), whose ATen operator torch's registry lacks."""
    from core.nn.functional.attention import _flash_shapes  # (nn imports this package)

    if _flash_shapes(query, key, value, dropout_p) and query.shape[:2] == key.shape[:2] == value.shape[:2]:
        return [], []
    batch = math.prod(core.broadcast_shapes(tuple(query.shape[:-2]), tuple(key.shape[:-2])))
    length, embed, source, embed_v = query.shape[-2], query.shape[-1], key.shape[-2], value.shape[-1]
    scores, weighted = _mm(length, embed, source, batch), _mm(length, source, embed_v, batch)
    backward = scores * _needing_grad(query, key) + weighted * (_needing_grad(value)
                                                                 + (query.requires_grad or key.requires_grad))
    return [("bmm", scores), ("bmm", weighted)], [("bmm", backward)]


def _einsum_terms(equation: str, operands) -> tuple:
    """``(input terms, output term)`` of ``equation`` with each ``...`` spelled as letters of its own (right-aligned
    over the operands' extra dims) and an implicit output made explicit (letters seen once, in order)."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms, widest = inputs.split(","), 0
    for i, (term, op) in enumerate(zip(terms, operands)):
        if "..." in term:
            extra = op.dim() - len(term.replace("...", ""))
            widest = max(widest, extra)
            terms[i] = term.replace("...", "".join(chr(0x100 + widest - extra + d) for d in range(extra)))
    ellipsis = "".join(chr(0x100 + d) for d in range(widest))
    if arrow:
        return terms, output.replace("...", ellipsis)
    letters = "".join(terms)
    return terms, ellipsis + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ellipsis))


def _einsum(equation, *operands, **kwargs):
    """torch's einsum without opt_einsum: the operands contracted left to right, each pair with a summed letter as
    one ``aten.bmm`` over the letters either keeps or sums (a letter only one side has and nothing later needs is
    summed before); a pair with no summed letter is a product it does not count. The backward is a ``bmm`` of the
    same size for each side of a pair that needs a gradient."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if len(operands) < 2:
        return [], []
    terms, output = _einsum_terms(equation, operands)
    sizes = {}
    for term, op in zip(terms, operands):
        sizes.update((c, n) for c, n in zip(term, op.shape) if n != 1 or c not in sizes)
    forward, backward = [], []
    left, left_grad = terms[0], _needing_grad(operands[0])
    for i in range(1, len(terms)):
        right, right_grad = terms[i], _needing_grad(operands[i])
        later = output + "".join(terms[i + 1:])
        both = dict.fromkeys(left + right)
        summed = [c for c in both if c in left and c in right and c not in later]
        if summed:
            flops = 2 * math.prod(sizes[c] for c in both if c in later or c in summed)
            forward.append(("bmm", flops))
            backward.append(("bmm", flops * (left_grad + right_grad)))
        left, left_grad = "".join(c for c in both if c in later), int(bool(left_grad or right_grad))
    return forward, backward


def _uncounted(*args, **kwargs):
    """A call whose ATen operators torch's registry has no formula for (``bilinear``: ``aten._trilinear``)."""
    return [], []


_COUNTED = {"linear": _linear, "matmul": _matmul, "__matmul__": _matmul, "mm": _matmul,
            "__rmatmul__": lambda a, b: _matmul(b, a), "addmm": _addmm, "bmm": _bmm, "baddbmm": _baddbmm,
            "conv1d": _conv(False), "conv2d": _conv(False), "conv3d": _conv(False),
            "conv_transpose1d": _conv(True), "conv_transpose2d": _conv(True), "conv_transpose3d": _conv(True),
            "scaled_dot_product_attention": _sdpa, "einsum": _einsum, "bilinear": _uncounted}
_NOT_FOLLOWED = {"backward", "grad"}  # a backward is counted by its nodes' hooks, not as calls


def register_flop_formula(targets, get_raw=False):
    """Accepted for compatibility: core counts the calls above with torch's formulas and ignores new ones."""
    def register(formula):
        return formula
    return register


# ---- the table ---------------------------------------------------------------------------------------------------

suffixes = ["", "K", "M", "B", "T"]


def get_suffix_str(number) -> str:
    return suffixes[max(0, min(len(suffixes) - 1, (len(str(number)) - 2) // 3))]


def convert_num_with_suffix(number, suffix) -> str:
    index = suffixes.index(suffix)
    return f"{number / 1000 ** index:.3f}" + suffixes[index]


def convert_to_percent_str(num, denom) -> str:
    if denom == 0:
        return "0%"
    return f"{num / denom:.2%}"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _tabulate(rows, headers) -> str:
    """``tabulate(rows, headers, colalign=("left", "right", "right"))`` in its "simple" format as tabulate 0.10
    writes it for torch: cells stripped (0.10 no longer reads the ``PRESERVE_WHITESPACE`` flag torch sets, so the
    indentation torch adds is lost), a column of numbers written as tabulate writes floats (``format(x, "g")``)."""
    columns = [[cell.strip() for cell in col] for col in zip(*rows)]
    for i, col in enumerate(columns):
        if all(_is_number(cell) for cell in col):
            columns[i] = [format(float(cell), "g") for cell in col]
    widths = [max(len(headers[i]) + 2, *(len(cell) for cell in col)) for i, col in enumerate(columns)]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(cells) for cells in zip(*columns)]
    return "\n".join(out)


class FlopCounterMode:
    """Counts FLOPs inside ``with FlopCounterMode() as counter:``; prints torch's table on exit when ``display``."""

    def __init__(self, mods=None, depth: int = 2, display: bool = True, custom_mapping=None) -> None:
        self.flop_counts: dict = defaultdict(lambda: defaultdict(int))
        self.depth = depth
        self.display = display
        self.mode = None
        if mods is not None:
            warnings.warn("mods argument is not needed anymore, you can stop passing it", stacklevel=2)
        self.custom_mapping = dict(custom_mapping or {})
        self.mod_tracker = ModuleTracker()

    def get_total_flops(self) -> int:
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict:
        """``{module name: {aten op: flops}}``, "Global" holding everything."""
        return {k: dict(v) for k, v in self.flop_counts.items()}

    def get_table(self, depth=None) -> str:
        depth = self.depth if depth is None else depth
        depth = 999999 if depth is None else depth
        total = self.get_total_flops()
        suffix = get_suffix_str(total)
        subsumed = False

        def rows_of(name, indent):
            nonlocal subsumed
            flops = sum(self.flop_counts[name].values())
            subsumed |= flops >= total
            pad = " " * indent
            rows = [[pad + name, convert_num_with_suffix(flops, suffix), convert_to_percent_str(flops, total)]]
            rows += [[pad + " - " + str(op), convert_num_with_suffix(v, suffix), convert_to_percent_str(v, total)]
                     for op, v in self.flop_counts[name].items()]
            return rows

        rows = []
        for name in sorted(self.flop_counts):
            if name != "Global" and name.count(".") + 1 <= depth:
                rows += rows_of(name, name.count("."))
        if "Global" in self.flop_counts and not subsumed:
            for row in rows:
                row[0] = " " + row[0]
            rows = rows_of("Global", 0) + rows
        if not rows:
            rows = [["Global", "0", "0%"]]
        return _tabulate(rows, ["Module", "FLOP", "% Total"])

    def __enter__(self):
        self.flop_counts.clear()
        self.mod_tracker.__enter__()
        self.mode = _FlopCounterMode(self)
        self.mode.__enter__()
        return self

    def __exit__(self, *args):
        self.mode.__exit__(*args)
        self.mode = None
        self.mod_tracker.__exit__()
        if self.display:
            print(self.get_table(self.depth))
        return False

    def _add(self, counts, parents) -> None:
        for name, flops in counts:
            if flops:
                for parent in parents:
                    self.flop_counts[parent][_packet(name)] += flops


def _in_onednn_lstm(tracker) -> bool:
    """Whether an ``nn.LSTM`` that torch runs on oneDNN is running (float32 on the CPU, no projection): its layers are
    ``aten.mkldnn_rnn_layer`` calls, which torch's registry does not count."""
    from core.nn.modules._rnn_output import uses_onednn  # (nn imports this package)

    for module in tracker.running_modules():
        if getattr(module, "mode", None) == "LSTM" and hasattr(module, "weight_ih_l0"):
            if uses_onednn("LSTM", module.proj_size, module.weight_ih_l0):
                return True
    return False


class _FlopCounterMode(TorchFunctionMode):
    """The ``__torch_function__`` mode behind ``FlopCounterMode``."""

    records_rnn_steps = True  # recurrent layers record each step, whose node counts its backward mm's as torch's

    def __init__(self, counter: FlopCounterMode):
        super().__init__()
        self.counter = counter

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        count = _COUNTED.get(name)
        if count is None:
            original = undispatched(func)
            if name in _NOT_FOLLOWED or original is func:
                return func(*args, **kwargs)
            with self:  # follow the call into the op: the calls it is made of are counted
                return original(*args, **kwargs)
        out = func(*args, **kwargs)
        if _in_onednn_lstm(self.counter.mod_tracker):
            return out
        if name.startswith("conv"):
            forward, backward = count(*args, out=out, **kwargs)
        else:
            forward, backward = count(*args, **kwargs)
        parents = self.counter.mod_tracker.parents
        self.counter._add(forward, parents)
        grad_fn = getattr(out, "grad_fn", None)
        if grad_fn is not None and any(flops for _, flops in backward):
            grad_fn.register_hook(self._backward_hook(backward, parents))
        return out

    def _backward_hook(self, backward, parents):
        def hook(grad_inputs, grad_outputs):
            if self.counter.mode is self:  # only a backward inside the counter's context counts
                self.counter._add(backward, parents)
        return hook
