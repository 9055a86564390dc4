"""Random number generation: PyTorch's CPU generator (a 32-bit-seeded MT19937), one default per process.

A ``Generator`` holds exactly what PyTorch's ``CPUGeneratorImpl`` holds: the Mersenne Twister's 624
words and position, the seed, and the cached second value of the last scalar Box-Muller pair. The
engine is NumPy's ``MT19937`` bit generator put into the state that PyTorch's ``init_with_uint32``
seeding gives, so ``random_raw`` yields PyTorch's 32-bit draws in order; ``core._random_kernels``
turns them into PyTorch's values. All generators share one NumPy engine (``_Engine``): a draw loads the
generator's 624 words and position into it, draws and stores them back, which keeps a new generator
and a saved state cheap. ``get_state`` returns PyTorch's 5056-byte state layout, so a state
saved by one library restores the same stream in the other. CUDA tensors draw from a CuPy generator
seeded with the same seed (values differ from PyTorch's CUDA generator).
"""

from __future__ import annotations

import ctypes
import struct
import threading

import numpy as np

from core import _backend
from core._device import CPU
from core._tensor import Tensor

__all__ = ["manual_seed", "seed", "initial_seed", "Generator", "default_generator", "get_rng_state",
           "set_rng_state"]

_DEFAULT_SEED = 67280421310721
_N = 624
# PyTorch's CPUGeneratorImplState: seed, left, seeded, next, state[624] as uint64, normal_x/y/rho,
# normal_is_valid (padded to 8), then the float normal cache and its flag (padded to 4): 5056 bytes.
_HEAD = struct.Struct("<QiiQ")
_TAIL = struct.Struct("<dddi4xf?3x")
_STATE_BYTES = _HEAD.size + 8 * _N + _TAIL.size


class _VmapState:
    error = False  # True inside torch.func.vmap(..., randomness="error"): a draw raises (core._vmap sets it)
    depth = 0  # how many vmaps are running (core._vmap counts them): a user's Function checks it


vmap_state = _VmapState()
_VMAP_RANDOM = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                "'different' randomness flags on vmap or perform the randomness operation out of vmap")


def _seed_words(seed: int) -> np.ndarray:
    """The 624 state words of MT19937's ``init_genrand`` for the low 32 bits of ``seed`` (the slow way)."""
    words = np.empty(_N, dtype=np.uint32)
    x = seed & 0xFFFF_FFFF
    words[0] = x
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFF_FFFF
        words[j] = x
    return words


def _address(words: np.ndarray) -> int:
    """The array's data address. ``ndarray.ctypes`` imports NumPy's ``_internal`` module on first use, which fails
    while a caller hides NumPy (``sys.modules["numpy"] = None``: Ignite's tests of ``keep_random_state`` without
    NumPy), where torch's generators still work; the array interface imports nothing."""
    return words.__array_interface__["data"][0]


class _Engine:
    """One NumPy ``MT19937`` that every ``Generator`` borrows under a lock.

    A generator's state is 625 uint32 words (the key, then the position), the head of NumPy's
    ``mt19937_state`` struct, copied in and out with ``memmove``; if a NumPy ever lays that struct out
    otherwise, the (slower) ``state`` property does the copying instead."""

    def __init__(self):
        self.bit_generator = np.random.MT19937(0)
        # NumPy's legacy randint on the same engine: its uint64 draws below 2**53 are a 64-bit draw (two 32-bit
        # ones, the first high, as PyTorch's random64) masked to its low 53 bits, in one C loop (NEP 19 freezes it)
        self.legacy = np.random.RandomState(self.bit_generator)
        self.lock = threading.Lock()
        self.address = self.bit_generator.ctypes.state_address
        self.direct = self._layout_is_known()

    def _layout_is_known(self) -> bool:
        self.bit_generator.random_raw(3)
        words = np.empty(_N + 1, dtype=np.uint32)
        ctypes.memmove(_address(words), self.address, words.nbytes)
        st = self.bit_generator.state["state"]
        return bool(np.array_equal(words[:_N], st["key"])) and int(words[_N]) == int(st["pos"])

    def _load(self, words: np.ndarray) -> None:
        if self.direct:
            ctypes.memmove(self.address, _address(words), words.nbytes)
        else:
            self.bit_generator.state = {"bit_generator": "MT19937",
                                        "state": {"key": words[:_N], "pos": int(words[_N])}}

    def _store(self, words: np.ndarray) -> None:
        if self.direct:
            ctypes.memmove(_address(words), self.address, words.nbytes)
        else:
            st = self.bit_generator.state["state"]
            words[:_N], words[_N] = st["key"], st["pos"]

    def seed(self, words: np.ndarray, seed: int) -> None:
        with self.lock:
            legacy = getattr(self.bit_generator, "_legacy_seeding", None)
            if legacy is None:
                words[:_N], words[_N] = _seed_words(seed), _N
                return
            legacy(seed & 0xFFFF_FFFF)  # MT19937's init_genrand, position 624
            self._store(words)

    def draw(self, words: np.ndarray, n: int) -> np.ndarray:
        with self.lock:
            self._load(words)
            out = self.bit_generator.random_raw(n)
            self._store(words)
        return out

    def draw_each(self, words: np.ndarray, n: int, block: int, consume, low53: bool = False) -> None:
        """``draw``'s ``n`` outputs ``block`` at a time, each handed to ``consume(start, raw)`` as it is drawn; with
        ``low53``, ``n`` 64-bit draws' low 53 bits instead (uint64)."""
        with self.lock:
            self._load(words)
            try:
                for start in range(0, n, block):
                    size = min(block, n - start)
                    if low53:
                        consume(start, self.legacy.randint(0, 1 << 53, size=size, dtype=np.uint64))
                    else:
                        consume(start, self.bit_generator.random_raw(size))
            finally:
                self._store(words)


_ENGINE = _Engine()


def _seed_value(seed) -> int:
    seed = int(seed)
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return seed & 0xFFFF_FFFF_FFFF_FFFF


class Generator:
    """``torch.Generator``: an independent stream of random numbers, PyTorch's on the CPU."""

    __module__ = "core._C"  # PyTorch's class path (torch._C.Generator)

    def __repr__(self) -> str:  # torch's class lives in its C extension: a notebook's torch.manual_seed(42) shows it
        return f"<torch._C.Generator object at {id(self):#x}>"

    def __init__(self, device="cpu"):
        self.device = _backend.canonical(device)
        if self.device.type == "cuda" and not _backend.cuda_available():  # PyTorch's CPU build has no CUDA generator
            raise RuntimeError(_NO_CUDA_GENERATOR)
        self._words = np.empty(_N + 1, dtype=np.uint32)  # the key, then the position
        self._cp = None
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed) -> Generator:
        seed = _seed_value(seed)
        self._seed = seed
        _ENGINE.seed(self._words, seed)
        self._fresh = True  # PyTorch reports next=0 (not 624) until the first draw
        self.next_double_normal = None
        self.next_float_normal = None
        self.seed_cuda(seed)
        return self

    def seed_cuda(self, seed) -> None:
        """Seed only the stream CUDA draws come from (``torch.cuda.manual_seed``); the CPU stream goes on."""
        self._cuda_seed = _seed_value(seed)
        self._cp = None

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy) & 0xFFFF_FFFF_FFFF_FFFF
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    # ----- draws ------------------------------------------------------------------------------

    def random32(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs (``CPUGeneratorImpl::random``), as uint64."""
        if vmap_state.error:
            raise RuntimeError(_VMAP_RANDOM)
        if not n:
            return np.empty(0, dtype=np.uint64)
        self._fresh = False
        return _ENGINE.draw(self._words, n)

    def random32_each(self, n: int, block: int, consume) -> None:
        """``random32(n)``'s outputs ``block`` at a time: ``consume(start, raw)`` gets each block as it is drawn.

        NOTE: for samplers of millions of values (a big layer's init): each block is turned into values while it is
        in cache, and no ``n``-long uint64 array is allocated (its fresh pages cost more than drawing into them).
        ``consume`` runs under the engine's lock, so it must not draw."""
        if vmap_state.error:
            raise RuntimeError(_VMAP_RANDOM)
        if n:
            self._fresh = False
            _ENGINE.draw_each(self._words, n, block, consume)

    def random53_each(self, n: int, block: int, consume) -> None:
        """The low 53 bits of the next ``n`` 64-bit outputs (``random64``'s), ``block`` at a time as
        ``random32_each``: what a float64 uniform keeps (drawn in one C loop, no 32-bit halves to put together)."""
        if vmap_state.error:
            raise RuntimeError(_VMAP_RANDOM)
        if n:
            self._fresh = False
            _ENGINE.draw_each(self._words, n, block, consume, low53=True)

    def peek32(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs without moving the stream: rejection samplers read ahead, then
        ``random32`` moves the stream past what they used."""
        if not n:
            return np.empty(0, dtype=np.uint64)
        return _ENGINE.draw(self._words.copy(), n)

    def random64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit outputs (``random64``: two 32-bit draws, the first one high)."""
        raw = self.random32(2 * n)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    def rng_for(self, dev):
        """The CuPy generator that draws numbers for a CUDA device ``dev``."""
        if dev is CPU:
            raise ValueError("CPU draws go through core._random_kernels")
        if self._cp is None:
            cp = _backend.xp_for(dev)
            self._cp = cp.random.default_rng(self._cuda_seed)
        return self._cp

    # ----- state ------------------------------------------------------------------------------

    def get_state(self):
        """The generator's state as PyTorch's 5056-byte uint8 tensor."""
        from core._factories import from_numpy  # factories import this module

        pos = int(self._words[_N])
        head = _HEAD.pack(self._seed, _N + 1 - pos, 1, 0 if self._fresh else pos)
        words = self._words[:_N].astype("<u8").tobytes()
        dbl, flt = self.next_double_normal, self.next_float_normal
        tail = _TAIL.pack(0.0, dbl or 0.0, 0.0, dbl is not None, flt or 0.0, flt is not None)
        return from_numpy(np.frombuffer(head + words + tail, dtype=np.uint8).copy())

    def clone_state(self) -> Generator:
        """A new generator in this one's state (the two then draw independently)."""
        twin = Generator.__new__(Generator)
        twin.__dict__.update(self.__dict__)
        twin._words, twin._cp = self._words.copy(), None
        return twin

    def graphsafe_get_state(self):  # CUDA-graph-safe states: PyTorch's CPU generator has none
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state):
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    def set_state(self, new_state) -> Generator:
        """Restore a state from ``get_state`` (this library's or PyTorch's)."""
        data = _state_bytes(new_state)
        seed, left, seeded, _ = _HEAD.unpack_from(data, 0)
        words = np.frombuffer(data, dtype="<u8", count=_N, offset=_HEAD.size)
        _, dbl, _, dbl_ok, flt, flt_ok = _TAIL.unpack_from(data, _HEAD.size + 8 * _N)
        if not seeded or not 0 < left <= _N:
            raise RuntimeError("Invalid mt19937 state")
        self._seed = self._cuda_seed = seed
        self._words[:_N], self._words[_N] = words, _N + 1 - left
        self._fresh = False
        self.next_double_normal = dbl if dbl_ok else None
        self.next_float_normal = flt if flt_ok else None
        self._cp = None
        return self


_NO_CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, "
    "but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA library MUST be "
    "loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library dependencies if "
    "you don't depend on any of their symbols.  You can check if this has occurred by using ldd on your binary to "
    "see if there is a dependency on *_cuda.so library.")


def _state_bytes(state) -> bytes:
    if isinstance(state, Tensor):
        if state.dtype.name != "uint8":
            raise TypeError("RNG state must be a torch.ByteTensor")
        arr = _backend.to_numpy_array(state._data)
    else:
        arr = np.asarray(state)
        if arr.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
    if arr.size != _STATE_BYTES:
        raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input RNG "
                           f"state size to be {arr.size}")
    return np.ascontiguousarray(arr).reshape(-1).tobytes()


default_generator = Generator()


def manual_seed(seed) -> Generator:
    """Seed every random factory and in-place sampler (CPU and CUDA) reproducibly."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


def generator_for(generator) -> Generator:
    """The generator a draw uses: ``generator`` when given, else the default one."""
    return default_generator if generator is None else generator


def rng(device, generator=None):
    """The CuPy generator for a CUDA ``device`` (CPU draws go through ``core._random_kernels``)."""
    return generator_for(generator).rng_for(device)
