"""``torch.stft`` and ``torch.istft``: short-time Fourier transforms composed from differentiable core ops.

stft: pad the signal by n_fft // 2 on both sides when ``center`` (``pad_mode``, reflect by default), cut it
into frames of n_fft every ``hop_length`` samples (``unfold``), multiply by the window (zero-padded to n_fft,
centred), and transform each frame (one-sided for real input). istft inverts it: transform back, window,
overlap-add (``_OverlapAdd``, whose gradient is the framing again) and divide by the summed squared window.
As in torch 2.x, a real input needs ``return_complex``; ``return_complex=False`` is deprecated (a warning)
and gives ``view_as_real`` of the result.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core import fft as _fft
from core._factories import ones
from core._tensor import Tensor, new_tensor
from core._user_warning import warn_in_core
from core._warn_once import warn_once
from core.autograd.function import Function
from core.ops.complex_ops import view_as_real

__all__ = ["stft", "istft"]

_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
              "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
              "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
              "`window=torch.ones(n_fft, device=<device>)`.")
_NO_WINDOW_ISTFT = ("A window was not provided. A rectangular window will be applied.Please provide the same window "
                    "used by stft to make the inversion lossless.To suppress this warning and use a rectangular "
                    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`.")
_REAL_DEPRECATED = ("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                    "complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                    "still call torch.view_as_real on the complex output to recover the old return format.")


def _window(window, n_fft: int, win_length: int, like: Tensor, message: str, prefix: str = "stft") -> Tensor:
    """The window, zero-padded on both sides to n_fft (a rectangular one, with torch's warning, when None);
    ``prefix`` starts the errors (stft's repr of its call, as PyTorch's)."""
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{prefix}: expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(f"{prefix}: expected a 1D window tensor of size equal to win_length={win_length}, but "
                           f"got window with size {list(window.shape)}")
    if window is None:
        warn_once(message, message, warn_in_core)  # (PyTorch's TORCH_WARN_ONCE, as the two below)
        window = ones(win_length, dtype=like.dtype.to_real())
    if win_length == n_fft:
        return window
    from core.nn.functional import pad  # (nn imports core's ops)

    left = (n_fft - win_length) // 2
    return pad(window, (left, n_fft - win_length - left))


def _type_name(t: Tensor) -> str:
    """A tensor's type as ATen's ``toString`` writes it: its legacy name, ``CPUComplexFloatType`` for complex ones."""
    return f"CPU{_dtype.SCALAR_NAMES[t.dtype.name]}Type" if t.is_complex() else t.type()


def _flag(value) -> str:
    return "None" if value is None else str(int(value) if isinstance(value, bool) else value)


def _window_repr(window) -> str:
    return "None" if window is None else f"{_type_name(window)}{{{list(window.shape)}}}"


def _call_repr(x, n_fft, hop, win_length, window, normalized, onesided, return_complex) -> str:
    """How PyTorch's stft names its call in its errors: the (padded) input's legacy type and sizes, the arguments."""
    return (f"stft({_type_name(x)}{list(x.shape)}, n_fft={n_fft}, hop_length={hop}, win_length={win_length}, "
            f"window={_window_repr(window)}, normalized={int(bool(normalized))}, onesided={_flag(onesided)}, "
            f"return_complex={_flag(return_complex)}, align_to_window=None) ")


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None):
    """Frames' spectra: shape (n_fft // 2 + 1 or n_fft, n_frames), with a leading batch dim for 2-D input."""
    if return_complex is None and not input.is_complex() and not (window is not None and window.is_complex()):
        raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                           "require that return_complex=True in a future PyTorch release.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if center:  # (torch.functional.stft pads before the operator checks anything)
        from core.nn.functional import pad

        dims = input.ndim
        padded = pad(input.reshape((1,) * (3 - dims) + tuple(input.shape)), (n_fft // 2, n_fft // 2), mode=pad_mode)
        input = padded.reshape(padded.shape[-dims:])
    prefix = _call_repr(input, n_fft, hop, win_length, window, normalized, onesided, return_complex)
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError(f"{prefix}: expected a tensor of floating point or complex values")
    if input.ndim not in (1, 2):
        raise RuntimeError(f"{prefix}: expected a 1D or 2D tensor")
    x = input if input.ndim == 2 else input.unsqueeze(0)
    if not 0 < n_fft <= x.shape[-1]:  # (PyTorch's message names win_length as n_fft)
        raise RuntimeError(f"{prefix}: expected 0 < n_fft < {x.shape[-1]}, but got n_fft={win_length}")
    if hop <= 0:
        raise RuntimeError(f"{prefix}: expected hop_length > 0, but got hop_length={hop}")
    w = _window(window, n_fft, win_length, input, _NO_WINDOW, prefix)
    frames = x.unfold(-1, n_fft, hop) * w  # (batch, n_frames, n_fft)
    if frames.dtype in (_dtype.float16, _dtype.bfloat16, _dtype.complex32):  # (PyTorch's CPU FFT is MKL's)
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: {_dtype.SCALAR_NAMES[frames.dtype.name]}")
    one = (onesided if onesided is not None else not (input.is_complex() or w.is_complex()))
    norm = "ortho" if normalized else "backward"
    spec = (_fft.rfft(frames, norm=norm) if one else _fft.fft(frames, norm=norm)).transpose(-1, -2)
    if input.ndim == 1:
        spec = spec.squeeze(0)
    if return_complex is False:
        warn_once(_REAL_DEPRECATED, _REAL_DEPRECATED, warn_in_core)
        return view_as_real(spec)
    return spec


class _OverlapAdd(Function):
    """Frames (..., n_frames, n) summed into a signal, frame t starting at t * hop; the gradient frames it back."""

    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, frames, *, hop):
        f = frames._data
        n_frames, n = f.shape[-2], f.shape[-1]
        ctx.hop, ctx.n = hop, n
        out = np.zeros(f.shape[:-2] + (n + hop * (n_frames - 1),), dtype=f.dtype)
        for t in range(n_frames):
            out[..., t * hop:t * hop + n] += f[..., t, :]
        return new_tensor(out)

    @staticmethod
    def backward(ctx, g):
        return g.unfold(-1, ctx.n, ctx.hop)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """The signal whose ``stft`` (with the same settings) is ``input``: windowed overlap-add of the frames."""
    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    prefix = (f"istft({_type_name(input)}{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, "
              f"win_length={win_length}, window={_window_repr(window)}, center={int(bool(center))}, "
              f"normalized={int(bool(normalized))}, onesided={_flag(onesided)}, length={_flag(length)}, "
              f"return_complex={int(bool(return_complex))}) ")
    dims = input.ndim + 1  # (PyTorch checks the view_as_real of the input)
    if dims < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{dims}, {dims - 1}], but got -3)")
    if input.numel() == 0:
        raise RuntimeError(f"{prefix}: input tensor cannot be empty.")
    if dims not in (3, 4):
        raise RuntimeError(f"{prefix}: expected a tensor with 3 or 4 dimensions, but got {dims}")
    fft_size = input.shape[-2]
    one = onesided if onesided is not None else fft_size != n_fft
    if one and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(f"{prefix}: expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not one and n_fft != fft_size:
        raise RuntimeError(f"{prefix}: expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win_length:
        raise RuntimeError(f"{prefix}: expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{prefix}: expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise RuntimeError(f"{prefix}: Invalid window shape. window has to be 1D and length of `win_length`")
    spec = input if input.ndim == 3 else input.unsqueeze(0)
    w = _window(window, n_fft, win_length, input, _NO_WINDOW_ISTFT)
    norm = "ortho" if normalized else "backward"
    cols = spec.transpose(-1, -2)  # (batch, n_frames, n_freq)
    if return_complex and one:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    if not return_complex and window is not None and window.is_complex():
        raise RuntimeError("Complex windows are incompatible with return_complex=False")
    if one:
        frames = _fft.irfft(cols, n=n_fft, norm=norm)
    else:
        frames = _fft.ifft(cols, n=n_fft, norm=norm)
        frames = frames if return_complex else frames.real
    n_frames = frames.shape[-2]
    y = _OverlapAdd.apply(frames * w, hop=hop)
    envelope = _OverlapAdd.apply((w * w).expand(n_frames, n_fft).detach(), hop=hop)
    expected = n_fft + hop * (n_frames - 1)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else (expected - n_fft // 2 if center else expected)
    y, envelope = y[..., start:min(end, expected)], envelope[start:min(end, expected)]
    if bool((envelope.abs() < 1e-11).any()):  # (PyTorch prints the check's 0-d bool tensor)
        raise RuntimeError(f"{prefix}window overlap add min: 1\n[ CPUBoolType{{}} ]")
    y = y / envelope
    if end > expected:
        from core.nn.functional import pad

        warn_once("istft length", "The length of signal is shorter than the length parameter. Result is being "
                  "padded with zeros in the tail. Please check your center and hop_length settings.")
        y = pad(y, (0, end - expected))
    return y.squeeze(0) if input.ndim == 2 else y
