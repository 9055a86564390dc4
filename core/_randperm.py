"""``randperm`` on the CPU: PyTorch's Fisher-Yates shuffle, bit for bit, with its swaps applied in vectorised rounds.

PyTorch's ``randperm_cpu`` (``aten/src/ATen/native/TensorFactories.cpp``) starts from ``0 .. n-1`` and, for
``i = 0 .. n-2``, swaps positions ``i`` and ``i + draw % (n - i)`` (one 32-bit draw per step). That loop is
sequential, but most of its swaps touch positions no nearby swap touches, and swaps on disjoint positions commute.
So the steps go a block at a time: every step of the block that is the first of the block to touch both of its
positions is applied at once (one gather and one scatter), then the same question is asked of the steps left
over, until few are left, which a short Python loop applies in order. A step is only ever applied after every
earlier step that shares a position with it, so the result is the sequential loop's.

NOTE: the hot path of ``DataLoader(shuffle=True)`` (``randperm(len(dataset))`` every epoch). Blocks are a fixed
fraction of the positions still open (``_FRACTION``): a block of ``B`` steps among ``m`` open positions has about
``B * B / m`` colliding steps, so the rounds stay few; the last ``_TAIL`` steps, where nearly every swap collides,
run in Python on a list. Below ``2**16`` one sort gives the same permutation in closed form (``sorted_swaps``),
which is cheaper than the rounds' per-block calls there.

For ``n`` of ``2**32 // 20`` or more PyTorch switches to the "inside-out" variant with 64-bit draws (position ``i``
takes ``i``, then swaps with ``draw % (i + 1)``), which is the same swap machinery on other pairs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["randperm", "INSIDE_OUT_FROM"]

INSIDE_OUT_FROM = (2**32 - 1) // 20  # PyTorch's switch to 64-bit draws and the inside-out shuffle
_FRACTION = 8  # a block is this fraction of the positions still open
_MIN_BLOCK = 256
_TAIL = 1024  # steps left for the plain Python loop
_LOOP = 32  # a round with fewer steps left goes to the Python loop
_KEY_LIMIT = 2**31 - 1
_SORTED_BELOW = 1 << 16  # below this n, sorted_swaps' closed form beats the rounds (2-3x at 1e3-2e4; even at 1e5)


def randperm(gen, n: int) -> np.ndarray:
    """PyTorch's ``randperm(n)`` (int64) from ``gen``'s stream."""
    if n < 2:  # (no draws)
        return np.arange(n, dtype=np.int64)
    if n >= INSIDE_OUT_FROM:
        return _inside_out(gen, n)
    if n < _SORTED_BELOW:
        return sorted_swaps(n, _offsets(gen, n))
    return forward_swaps(n, _offsets(gen, n))


def _offsets(gen, n: int) -> np.ndarray:
    """``draw % (n - i)`` for ``i = 0 .. n-2`` (the draws are 32-bit, the moduli below 2**32: uint32 arithmetic)."""
    raw = gen.random32(n - 1)
    low = raw.view(np.uint32)[::2] if np.little_endian else raw.astype(np.uint32)
    return low % np.arange(n, 1, -1, dtype=np.uint32)


def forward_swaps(n: int, offsets: np.ndarray) -> np.ndarray:
    """``arange(n)`` after swapping ``i`` with ``i + offsets[i]`` for ``i = 0, 1, ..`` in order."""
    perm = np.arange(n + 1, dtype=_values(n))  # (and a spare slot)
    partners = np.arange(offsets.size, dtype=np.int64)
    np.add(partners, offsets, out=partners, casting="unsafe")
    return apply_swaps(perm, partners, forward=True)


def sorted_swaps(n: int, offsets: np.ndarray) -> np.ndarray:
    """``forward_swaps``'s result in closed form, from one sort of the steps by the position each one reaches.

    Step ``i`` swaps ``i`` with ``j_i = i + offsets[i] >= i``, so position ``i`` is final after it and takes what
    ``j_i`` held then: what the last earlier step aimed at ``j_i`` left there (that step's value ``V(k)``), else
    ``j_i`` itself. ``V(k)``, position ``k``'s value just before step ``k``, is likewise what the last step before
    ``k`` aimed at ``k`` left there, else ``k``: a chain of earlier steps, resolved by pointer doubling. Sorting the
    steps by ``(j, i)`` lines up each position's steps in order (a no-op last step ``n-1 -> n-1`` included), so
    the last earlier step aimed at the same position is the entry before.

    NOTE: ``DataLoader(shuffle=True)`` on a small dataset: one sort of ``n`` keys and ~25 passes, where the rounds
    pay ~20 NumPy calls per block; from ``_SORTED_BELOW`` on, the sort and its random gathers cost more."""
    index = np.arange(n, dtype=np.uint64)
    key = index.copy()
    key[:-1] += offsets.astype(np.uint64, copy=False)
    key <<= np.uint64(32)
    key |= index
    key.sort()  # (j << 32 | i: distinct keys)
    steps = (key & np.uint64(0xFFFF_FFFF)).view(np.int64)
    targets = (key >> np.uint64(32)).view(np.int64)
    same = targets[1:] == targets[:-1]  # entry t + 1 aims where entry t does
    # the last step before p aimed at p writes itself into ptr[p] (a self-swap p -> p sorts last of p's steps);
    # every other entry writes into the spare last slot
    moves = steps != targets
    skip = ~moves
    skip[:-1] |= same & moves[1:]
    into = skip.view(np.int8).astype(np.int64)
    np.negative(into, out=into)
    into |= targets  # its target where it writes, else -1
    ptr = np.arange(n + 1, dtype=np.int64)
    ptr[into] = steps
    while True:  # V(p): follow the chain of earlier steps to its start
        further = ptr.take(ptr)
        if np.array_equal(further, ptr):
            break
        ptr = further
    # entry t takes V of the entry before when both aim at one position, else its target's own value
    before = ptr.take(steps[:-1])
    keep = same.view(np.int8).astype(np.int64)
    np.negative(keep, out=keep)
    before &= keep
    values = targets
    np.invert(keep, out=keep)
    values[1:] &= keep
    values[1:] |= before
    out = np.empty(n, dtype=np.int64)
    out[steps] = values
    return out


def inside_out_swaps(n: int, partners: np.ndarray) -> np.ndarray:
    """``arange(n)`` after swapping ``i`` with ``partners[i] <= i`` for ``i = 0 .. n-1`` in order (PyTorch's
    ``r[i] = i; r[i] = r[z]; r[z] = i`` is that swap, since ``r[i]`` is still ``i``)."""
    perm = np.arange(n + 1, dtype=_values(n))  # (and a spare slot)
    return apply_swaps(perm, partners.astype(np.int64, copy=False), forward=False)


def _values(n: int):
    """The dtype the shuffle moves values in: int32 while they fit (half the memory traffic of int64: a quarter
    faster at 1e6), the result is int64 either way."""
    return np.int32 if n < _KEY_LIMIT else np.int64


def _inside_out(gen, n: int) -> np.ndarray:
    """``random64() % (i + 1)`` for ``i = 0 .. n-1``, drawn a block at a time (no 2n-long array of draws), then the
    swaps."""
    partners = np.empty(n, dtype=np.uint64)
    block = 1 << 17  # 32-bit draws per step: two per 64-bit draw

    def consume(start: int, raw: np.ndarray) -> None:
        first = start // 2
        wide = raw[0::2] << np.uint64(32)
        wide |= raw[1::2]
        bounds = np.arange(first + 1, first + wide.size + 1, dtype=np.uint64)
        np.remainder(wide, bounds, out=partners[first:first + wide.size])

    gen.random32_each(2 * n, block, consume)
    return inside_out_swaps(n, partners)


def apply_swaps(perm: np.ndarray, partners: np.ndarray, forward: bool) -> np.ndarray:
    """Swap ``perm[i]`` and ``perm[partners[i]]`` for ``i = 0 .. len(partners)-1`` in order, in place; the last slot
    of ``perm`` is spare scratch and is cut off the result.

    ``forward``: every partner is at or after its step (``partners[i] >= i``: the positions still open are the
    tail), else at or before it (the open positions are the head)."""
    steps = partners.size
    owner = np.zeros(perm.size, dtype=perm.dtype)  # per position: the key of the round's first step to touch it
    base = 0  # keys grow from round to round, so an older round's keys never count
    start, stop = 0, steps - min(steps, _TAIL)
    if not forward:  # the first steps share few positions: nearly all collide
        stop = min(steps, _TAIL)
        _loop(perm, np.arange(stop), partners[:stop])
        start, stop = stop, steps
    while start < stop:
        open_positions = perm.size - 1 - start if forward else start + 1
        end = min(stop, start + max(open_positions // _FRACTION, _MIN_BLOCK))
        base = _block(perm, owner, start, end, partners[start:end], base)
        start = end
    _loop(perm, np.arange(start, steps), partners[start:])
    return perm[:-1].astype(np.int64, copy=False)


def _block(perm, owner, start: int, end: int, seconds, base: int) -> int:
    """Steps ``start .. end-1`` (``_rounds``, its first round on the slice ``start:end`` rather than by index).

    NOTE: the hot path. The first round moves the whole slice at once: a step that must wait swaps the spare last
    slot of ``perm`` instead of its partner and keeps its own value, so no index array of the free steps is made."""
    base = _room(owner, base, end - start + 1)
    keys = np.arange(base + end - start, base, -1, dtype=owner.dtype)  # an earlier step: a larger key, all > base
    base += end - start + 1
    np.maximum.at(owner, seconds, keys)
    mine = owner[start:end]
    np.maximum(mine, keys, out=mine)
    late = mine != keys
    late |= owner.take(seconds) != keys
    waiting = np.flatnonzero(late)
    partners = seconds
    if waiting.size:
        partners = seconds.copy()
        partners[waiting] = perm.size - 1  # the spare slot
    mine = perm[start:end].copy()
    theirs = perm.take(partners)  # (take and put: the plain gather and scatter, a little faster than indexing)
    theirs[waiting] = mine[waiting]
    perm[start:end] = theirs
    np.put(perm, partners, mine)
    if not waiting.size:
        return base
    return _rounds(perm, owner, waiting + start, seconds[waiting], base)


def _rounds(perm, owner, firsts, seconds, base: int) -> int:
    """Apply the swaps ``(firsts[k], seconds[k])`` in order: the steps first to touch both positions at once, then
    the same for what is left; the last few in a Python loop. Returns the next free key."""
    while firsts.size >= _LOOP:
        top = int(firsts[-1])
        base = _room(owner, base, top + 2 - int(firsts[0]))
        keys = ((base + top + 1) - firsts).astype(owner.dtype)  # an earlier step: a larger key, all above ``base``
        base += top + 2 - int(firsts[0])
        np.maximum.at(owner, seconds, keys)
        np.maximum.at(owner, firsts, keys)
        late = owner[firsts] != keys
        late |= owner[seconds] != keys
        free = ~late
        _swap(perm, firsts[free], seconds[free])
        firsts, seconds = firsts[late], seconds[late]
    _loop(perm, firsts, seconds)
    return base


def _room(owner, base: int, span: int) -> int:
    """``base``, or 0 after clearing ``owner`` when ``span`` more keys would not fit its dtype (a shuffle of a
    million values takes ~3.3 keys per step: with int32 keys, only inside-out shuffles of more than ~6e8 values or
    ones whose swaps nearly all collide get here)."""
    if base + span < np.iinfo(owner.dtype).max:
        return base
    owner.fill(0)
    return 0


def _swap(perm, firsts, seconds) -> None:
    """Swaps on pairwise disjoint positions, all at once."""
    a, b = perm.take(firsts), perm.take(seconds)
    np.put(perm, firsts, b)
    np.put(perm, seconds, a)


def _loop(perm, firsts, seconds) -> None:
    """The swaps one by one: in place for a few, else on a list of the values at the positions they touch."""
    if firsts.size < _LOOP:
        for i, j in zip(firsts.tolist(), seconds.tolist()):
            perm[i], perm[j] = perm[j], perm[i]
        return
    where, local = np.unique(np.concatenate([firsts, seconds]), return_inverse=True)
    vals = perm[where].tolist()
    k = firsts.size
    for i, j in zip(local[:k].tolist(), local[k:].tolist()):
        vals[i], vals[j] = vals[j], vals[i]
    perm[where] = vals
