"""``nn.utils.rnn``: padding variable-length sequences and packing them for the recurrent layers.

A ``PackedSequence`` holds the time steps of a batch of sequences, sorted longest first, one after
the other: ``data`` has one row per (time step, sequence) that exists, and ``batch_sizes[t]`` says
how many sequences are still running at step ``t``. Packing, padding and unpacking are built from
indexing, ``cat`` and ``stack``, so gradients flow through them like through any other core op.
"""

from __future__ import annotations as _annotations  # (bound privately: not in dir())

from collections.abc import Iterable
from typing import NamedTuple

import numpy as _np

import core
from core._tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """A packed batch of sequences; made by ``pack_padded_sequence`` or ``pack_sequence``, not by hand."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes), ...)
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                             "created manually. They should be instantiated by functions like pack_sequence and "
                             "pack_padded_sequences in nn.utils.rnn.")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """The same packing with ``data`` moved or cast; ``batch_sizes`` stays on the CPU as int64."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        def move(t):
            return None if t is None else t.to(data.device)
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cuda(self, *args, **kwargs) -> PackedSequence:
        return self.to("cuda")

    def cpu(self, *args, **kwargs) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=core.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=core.float32)

    def half(self) -> PackedSequence:
        return self.to(dtype=core.float16)

    def long(self) -> PackedSequence:
        return self.to(dtype=core.int64)

    def int(self) -> PackedSequence:
        return self.to(dtype=core.int32)

    def short(self) -> PackedSequence:
        return self.to(dtype=core.int16)

    def char(self) -> PackedSequence:
        return self.to(dtype=core.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=core.uint8)

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation`` (``None`` stays ``None``)."""
    if permutation is None:
        return None
    return core.argsort(permutation)


def _lengths_array(lengths) -> _np.ndarray:
    """``lengths`` as a 1-D int64 NumPy array, checked like PyTorch checks it."""
    if isinstance(lengths, Tensor):
        if lengths.dim() != 1 or lengths.device.type != "cpu":
            kind = lengths.type().split(".")[-1].replace("Tensor", "")
            raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                               f"{lengths.dim()}D {lengths.device} {kind} tensor")
        return _np.asarray(lengths.to(core.int64)._data)
    return _np.asarray(list(lengths), dtype=_np.int64).reshape(-1)


def _batch_sizes(lengths: _np.ndarray, steps: int) -> _np.ndarray:
    if lengths.size and lengths.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if lengths.size and lengths.max() > steps:
        raise RuntimeError(f"a length in 'lengths' ({int(lengths.max())}) is longer than the padded input "
                           f"({steps} steps)")
    return (lengths[None, :] > _np.arange(int(lengths.max()) if lengths.size else 0)[:, None]).sum(1)


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) of sequences of ``lengths``."""
    lens = _lengths_array(lengths)
    batch_dim = 0 if batch_first else 1
    sorted_indices = None
    if enforce_sorted:
        if _np.any(lens[1:] > lens[:-1]):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
    else:
        # NOTE: the order of equal lengths is core.sort's (stable); PyTorch's unstable CPU sort may order ties
        # differently for more than 16 sequences, which changes only the packed row order (and dropout masks).
        order = core.sort(core.tensor(lens), descending=True).indices
        lens = lens[_np.asarray(order._data)]
        sorted_indices = order.to(input.device)
        input = input.index_select(batch_dim, sorted_indices)
    batch = input.shape[batch_dim]
    if lens.shape[0] != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lens.shape[0]} "
                           f"(batch_size={batch})")
    steps = input.shape[1 - batch_dim]
    batch_sizes = _batch_sizes(lens, steps)
    # Row (t, b) of the packed data is row t * B + b of the time-major input (b * T + t when batch first).
    t_idx = _np.concatenate([_np.full(n, t) for t, n in enumerate(batch_sizes)]).astype(_np.int64)
    b_idx = _np.concatenate([_np.arange(n) for n in batch_sizes]).astype(_np.int64)
    flat = b_idx * steps + t_idx if batch_first else t_idx * batch + b_idx
    rows = input.reshape((batch * steps,) + tuple(input.shape[2:]))
    data = rows[core.tensor(flat, device=input.device)]
    return PackedSequence(data, core.tensor(batch_sizes, dtype=core.int64), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Undo ``pack_padded_sequence``: the padded batch and each sequence's length (int64, on the CPU)."""
    batch_sizes = _np.asarray(sequence.batch_sizes._data, dtype=_np.int64)
    steps = batch_sizes.shape[0]
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    batch = int(batch_sizes[0]) if batch_sizes.size else 0
    lengths = core.tensor((batch_sizes[:, None] > _np.arange(batch)).sum(0), dtype=core.int64)  # steps per sequence
    padded = _padded_time_major(sequence.data, batch_sizes, steps, padding_value)
    if batch_first:
        padded = padded.transpose(0, 1)  # a view, as PyTorch's: not contiguous
    if sequence.unsorted_indices is not None:
        unsorted = sequence.unsorted_indices
        padded = padded.index_select(0 if batch_first else 1, unsorted)
        lengths = lengths[unsorted.cpu()]
    return padded, lengths


def _padded_time_major(data, batch_sizes, steps: int, padding_value: float):
    """``(steps, batch, *features)`` filled with ``padding_value``, each run of steps with one batch size copied in
    with one slice assignment, as PyTorch's ``_pad_packed_sequence`` does (so its ``grad_fn`` is ``CopySlices``)."""
    batch = int(batch_sizes[0]) if batch_sizes.size else 0
    features = tuple(data.shape[1:])
    out = core.full((steps, batch) + features, padding_value, dtype=data.dtype, device=data.device)
    offset, start = 0, 0
    for t in range(1, len(batch_sizes) + 1):
        if t < len(batch_sizes) and batch_sizes[t] == batch_sizes[start]:
            continue
        n, count = int(batch_sizes[start]), t - start
        out[start:t, :n] = data[offset:offset + n * count].view((count, n) + features)
        offset, start = offset + n * count, t
    return out


def _check_sequences(sequences) -> tuple:
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    elif not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    trailing = tuple(sequences[0].shape[1:])
    for s in sequences:
        if s.dim() == 0:
            raise RuntimeError("pad_sequence: expected every sequence to have at least one dimension, "
                               "got a 0-D tensor")
        if tuple(s.shape[1:]) != trailing:
            raise RuntimeError(f"The size of tensor a ({trailing}) must match the size of tensor b "
                               f"({tuple(s.shape[1:])}) after the first dimension")
    return sequences


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths into ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``)."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = _check_sequences(sequences)
    first = sequences[0]
    longest = max(s.shape[0] for s in sequences)
    rows = []
    for s in sequences:
        s = s.to(first.dtype)
        missing = longest - s.shape[0]
        if missing:
            pad = core.full((missing,) + tuple(s.shape[1:]), padding_value, dtype=first.dtype, device=s.device)
            s = core.cat([s, pad] if padding_side == "right" else [pad, s])
        rows.append(s)
    return core.stack(rows, 0 if batch_first else 1)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list[Tensor]:
    """The sequences of a padded batch, each cut to its length.

    NOTE: PyTorch transposes ``padded_sequences`` in place when ``batch_first`` is False; this leaves it alone.
    """
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences ``(L_i, *)``; with ``enforce_sorted`` they must come longest first."""
    lengths = [v.size(0) for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The list of sequences a ``PackedSequence`` was packed from, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
