"""Drivers for torchaudio's own Python package (``recipes_torchaudio.py``; our text).

A recipe fetches one of torchaudio's package modules (``torchaudio/functional/__init__.py``...) as its script, with
the whole package (and ``torio``, which it imports) beside it, and appends calls to the drivers here. The runner
loads the package from the script's folder in both runs (``runner._fetched_packages``) without its compiled
``lib/*.so``, so torchaudio reports its extension absent and takes its pure-Python paths (``lfilter``'s loop).
``torchaudio.load`` needs that extension (or torchcodec): the drivers make seeded waveforms instead, a chord of
sines with seeded noise, as the library's own tests do (``get_whitenoise``/``get_sinusoid``). Each result is
printed as its shape, dtype, first values and sum to 6 decimals.
"""

from __future__ import annotations

import math

import corpus_show
import torch

SR = 8000


def waveform(channels=1, frames=4000, sample_rate=SR, seed=0):
    """A seeded chord (220, 440 and 1250 Hz) with 0.1 white noise in [-1, 1], ``channels x frames``."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(frames, dtype=torch.float32) / sample_rate
    tone = sum(a * torch.sin(2 * math.pi * f * t) for a, f in ((0.5, 220.0), (0.3, 440.0), (0.15, 1250.0)))
    noise = 0.1 * (2 * torch.rand(channels, frames, generator=g) - 1)
    return (tone + noise).clamp(-1, 1)


def _abs_and_squares(value) -> str:
    """(A signed sum near 0 is float32 rounding noise.)"""
    real = (torch.view_as_real(value.detach()) if value.is_complex() else value.detach()).double()
    absum = real.abs().sum().item() if value.numel() else 0.0
    squares = real.pow(2).sum().item() if value.numel() else 0.0
    return f"abs sum {absum:.6f} squares {squares:.6f}"


def show(name, value):
    """A tensor as ``name shape dtype first values (6 decimals) abs-sum squares``; containers item by item."""
    corpus_show.show(name, value, decimals=6, summary=_abs_and_squares)


def each(calls, *args):
    """``calls``: ``name, function`` pairs, each applied to ``args`` and shown (an exception is shown too)."""
    for name, fn in calls:
        try:
            show(name, fn(*args))
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:120] if str(exc) else "")


def gradients(name, fn, *inputs):
    """``fn(*inputs)``'s sum of squares differentiated: the output and each input's gradient."""
    inputs = [x.detach().clone().requires_grad_(True) for x in inputs]
    out = fn(*inputs)
    out = out[0] if isinstance(out, tuple) else out
    (torch.view_as_real(out) if out.is_complex() else out).pow(2).sum().backward()  # (smooth: no sign at 0)
    show(f"{name} out", out)
    for i, x in enumerate(inputs):
        show(f"{name} grad{i}", x.grad)


# functional ----------------------------------------------------------------------------------------------------------

def functional_spectral():
    """``F.spectrogram`` in its modes (power, complex, normalized by window or frame length, one- and two-sided,
    centre padding modes), its inverse, Griffin-Lim, the phase vocoder, decibels and the spectral centroid."""
    import torchaudio.functional as F

    w = waveform(2, 2000)
    win = torch.hann_window(256)
    pad = 0
    each([
        ("power2", lambda: F.spectrogram(w, pad, win, 256, 64, 256, 2.0, False)),
        ("power1 normalized", lambda: F.spectrogram(w, pad, win, 256, 64, 256, 1.0, True)),
        ("frame_length", lambda: F.spectrogram(w, pad, win, 256, 64, 256, 2.0, "frame_length")),
        ("complex", lambda: F.spectrogram(w, pad, win, 256, 64, 256, None, "window")),
        ("reflect off", lambda: F.spectrogram(w, pad, win, 256, 64, 256, 2.0, False, center=False)),
        ("constant pad", lambda: F.spectrogram(w, 10, torch.hamming_window(200), 256, 50, 200, 2.0, False,
                                               pad_mode="constant")),
        ("twosided", lambda: F.spectrogram(w, pad, win, 256, 64, 256, 2.0, False, onesided=False)),
        ("no complex", lambda: F.spectrogram(w, pad, win, 256, 64, 256, None, False, return_complex=False)),
    ])
    spec = F.spectrogram(w, pad, win, 256, 64, 256, None, False)
    each([
        ("inverse", lambda: F.inverse_spectrogram(spec, 2000, pad, win, 256, 64, 256, False)),
        ("inverse normalized", lambda: F.inverse_spectrogram(
            F.spectrogram(w, pad, win, 256, 64, 256, None, "window"), None, pad, win, 256, 64, 256, "window")),
        ("griffinlim", lambda: F.griffinlim(spec.abs() ** 2, win, 256, 64, 256, 2.0, 4, 0.99, 2000, False)),
        ("phase_vocoder 1.3", lambda: F.phase_vocoder(spec, 1.3, torch.linspace(0, math.pi * 64, 129)[..., None])),
        ("phase_vocoder 0.8", lambda: F.phase_vocoder(spec, 0.8, torch.linspace(0, math.pi * 64, 129)[..., None])),
        ("centroid", lambda: F.spectral_centroid(w, SR, 0, win, 256, 64, 256)),
    ])
    power = spec.abs() ** 2
    db = F.amplitude_to_DB(power, 10.0, 1e-10, 0.0, top_db=80.0)
    each([("to_db", lambda: db), ("to_db amplitude", lambda: F.amplitude_to_DB(spec.abs(), 20.0, 1e-5, 0.0, None)),
          ("to_db batched top", lambda: F.amplitude_to_DB(power[None], 10.0, 1e-10, 1.0, 60.0)),
          ("from_db", lambda: F.DB_to_amplitude(db, 1.0, 1.0)),
          ("from_db power", lambda: F.DB_to_amplitude(db, 1.0, 0.5))])
    gradients("spectrogram grad", lambda x: F.spectrogram(x, pad, win[::2], 128, 32, 128, 2.0, False), w[:1, :600])


def functional_filterbanks():
    """Mel and linear filter banks (HTK and Slaney scales, Slaney's area norm), the DCT matrix, mu-law, deltas,
    pitch detection, sliding-window CMN and masks."""
    import torchaudio.functional as F

    each([
        ("mel htk", lambda: F.melscale_fbanks(201, 0.0, 8000.0, 40, 16000)),
        ("mel slaney norm", lambda: F.melscale_fbanks(129, 50.0, 4000.0, 23, SR, "slaney", "slaney")),
        ("mel htk norm", lambda: F.melscale_fbanks(65, 0.0, 4000.0, 10, SR, "slaney", "htk")),
        ("linear", lambda: F.linear_fbanks(129, 100.0, 3000.0, 12, SR)),
        ("dct ortho", lambda: F.create_dct(13, 40, "ortho")), ("dct none", lambda: F.create_dct(20, 23, None)),
    ])
    w = waveform(2, 3000)
    mu = F.mu_law_encoding(w, 256)
    each([("mu encode", lambda: mu), ("mu decode", lambda: F.mu_law_decoding(mu, 256)),
          ("mu 16", lambda: F.mu_law_decoding(F.mu_law_encoding(w, 16), 16))])
    spec = F.spectrogram(w, 0, torch.hann_window(200), 200, 80, 200, 2.0, False)
    each([
        ("deltas", lambda: F.compute_deltas(spec, 5, "replicate")), ("deltas 7", lambda: F.compute_deltas(spec, 7)),
        ("pitch", lambda: F.detect_pitch_frequency(waveform(1, 8000), SR)),
        ("pitch 2ch", lambda: F.detect_pitch_frequency(waveform(2, 4000, seed=3), SR, 0.02, 20, 55, 1500)),
        ("cmn", lambda: F.sliding_window_cmn(spec.transpose(-1, -2), 30, 10, False, False)),
        ("cmn center norm", lambda: F.sliding_window_cmn(spec.transpose(-1, -2), 20, 5, True, True)),
        ("mask", lambda: F.mask_along_axis(spec, 10, 0.0, 1, p=1.0)),
        ("mask iid", lambda: F.mask_along_axis_iid(spec[None], 8, -1.0, 3, p=1.0)),
        ("mask time", lambda: F.mask_along_axis(spec, 6, 0.5, 2)),
    ])


def functional_resample():
    """``F.resample``'s sinc interpolation (Hann and Kaiser windows, rolloff, width, up and down, integer and
    rational ratios), ``speed`` and ``pitch_shift``."""
    import torchaudio.functional as F

    w = waveform(2, 1600)
    each([
        ("down 8k-6k", lambda: F.resample(w, SR, 6000)), ("up 8k-11025", lambda: F.resample(w, SR, 11025)),
        ("kaiser", lambda: F.resample(w, SR, 4000, lowpass_filter_width=16, rolloff=0.85,
                                      resampling_method="sinc_interp_kaiser", beta=8.555)),
        ("hann width 64", lambda: F.resample(w, SR, 16000, lowpass_filter_width=64, rolloff=0.99)),
        ("float64", lambda: F.resample(w.double(), SR, 3000)),
        ("same", lambda: F.resample(w, SR, SR)),
        ("speed", lambda: F.speed(w, SR, 1.1, torch.tensor([1600, 1200]))),
        ("speed slow", lambda: F.speed(w, SR, 0.9)),
        ("pitch_shift", lambda: F.pitch_shift(w[:, :400], SR, 12, n_fft=128)),  # an octave: resampled 2:1
        ("bad method", lambda: F.resample(w, SR, 4000, resampling_method="linear")),
    ])
    gradients("resample grad", lambda x: F.resample(x, 4, 3), w[:1, :300])


def functional_filters(part=0):
    """``lfilter`` (its Python loop: no compiled extension), ``filtfilt`` and the SoX-style biquads (``part`` 0), the
    shelving filters and effects (``part`` 1: each runs a loop per sample in Python, so the two halves are two
    scripts)."""
    import torchaudio.functional as F

    w = waveform(2, 300)  # (lfilter's Python loop runs once per sample)
    a = torch.tensor([1.0, -0.6, 0.2])
    b = torch.tensor([0.4, 0.2, 0.1])
    calls = [
        ("lfilter", lambda: F.lfilter(w, a, b)), ("lfilter noclamp", lambda: F.lfilter(w * 3, a, b, clamp=False)),
        ("lfilter batched", lambda: F.lfilter(w, torch.stack([a, a * 0.9 + 0.1]), torch.stack([b, b]), batching=True)),
        ("filtfilt", lambda: F.filtfilt(w, a, b)),
        ("lowpass", lambda: F.lowpass_biquad(w, SR, 1000.0)),
        ("highpass", lambda: F.highpass_biquad(w, SR, 500.0, 0.5)),
        ("bandpass", lambda: F.bandpass_biquad(w, SR, 440.0, 2.0, True)),
        ("bandreject", lambda: F.bandreject_biquad(w, SR, 440.0)), ("allpass", lambda: F.allpass_biquad(w, SR, 800.0)),
        ("equalizer", lambda: F.equalizer_biquad(w, SR, 1250.0, 6.0, 1.2)),
        ("band", lambda: F.band_biquad(w, SR, 300.0)),
        ("band noise", lambda: F.band_biquad(w, SR, 300.0, noise=True)),
        ("bass", lambda: F.bass_biquad(w, SR, 8.0)), ("treble", lambda: F.treble_biquad(w, SR, -4.0, 2000.0)),
        ("contrast", lambda: F.contrast(w, 60.0)), ("dcshift", lambda: F.dcshift(w, 0.3, 0.05)),
        ("deemph", lambda: F.deemph_biquad(w, 44100)), ("riaa", lambda: F.riaa_biquad(w, 44100)),
        ("gain", lambda: F.gain(w, 3.0)), ("overdrive", lambda: F.overdrive(w, 20.0, 30.0)),
        ("flanger", lambda: F.flanger(w, SR, 2.0, 2.0, 10.0)),
        ("flanger sine quad", lambda: F.flanger(w, SR, modulation="sinusoidal", interpolation="quadratic")),
        ("phaser", lambda: F.phaser(w, SR)), ("phaser sine", lambda: F.phaser(w, SR, sinusoidal=True)),
        ("dither", lambda: F.dither(w)), ("dither tpdf shaping", lambda: F.dither(w, "GPDF", True)),
        ("vad", lambda: F.vad(torch.cat([torch.zeros(1, 800), waveform(1, 2400)], 1), SR)),
        ("biquad", lambda: F.biquad(w, 0.4, 0.2, 0.1, 1.0, -0.6, 0.2)),
        ("preemphasis", lambda: F.preemphasis(w, 0.97)), ("deemphasis", lambda: F.deemphasis(w, 0.97)),
    ]
    half = [name for name, _ in calls].index("bass")
    each(calls[:half] if part == 0 else calls[half:])
    if part == 1:
        gradients("lfilter grad", lambda x, aa, bb: F.lfilter(x, aa, bb), w[:, :200], a, b)


def functional_mixing():
    """Convolution (direct and FFT, full/valid/same), ``add_noise`` at an SNR, loudness, edit distance,
    the Frechet distance and the multi-channel beamforming helpers (PSD, MVDR weights, RTF)."""
    import torchaudio.functional as F

    x = waveform(2, 500)
    y = waveform(2, 60, seed=1)
    each([(f"{name} {mode}", lambda fn=fn, mode=mode: fn(x, y, mode))
          for name, fn in (("convolve", F.convolve), ("fftconvolve", F.fftconvolve))
          for mode in ("full", "valid", "same")])
    noise = waveform(2, 500, seed=2)
    each([("add_noise", lambda: F.add_noise(x, noise, torch.tensor([10.0, 3.0]))),
          ("add_noise lengths", lambda: F.add_noise(x, noise, torch.tensor([20.0, 0.0]), torch.tensor([400, 500]))),
          ("loudness", lambda: F.loudness(waveform(2, 3600), SR)),
          ("edit_distance", lambda: F.edit_distance("kitten sitting".split(), "sitting kitten on".split())),
          ("edit_distance chars", lambda: F.edit_distance("intention", "execution")),
          ("frechet", lambda: F.frechet_distance(torch.zeros(3), torch.eye(3), torch.ones(3), 2 * torch.eye(3)))])
    g = torch.Generator().manual_seed(5)
    spec = torch.randn(3, 33, 20, dtype=torch.cfloat, generator=g)
    mask = torch.rand(33, 20, generator=g)
    psd_s = F.psd(spec, mask)
    psd_n = F.psd(spec, 1 - mask, normalize=False)
    each([("psd", lambda: psd_s), ("psd noise", lambda: psd_n),
          ("souden", lambda: F.mvdr_weights_souden(psd_s, psd_n, 0)),
          ("souden tensor ref", lambda: F.mvdr_weights_souden(psd_s, psd_n, torch.tensor([0.2, 0.5, 0.3]))),
          ("rtf_power", lambda: F.rtf_power(psd_s, psd_n, 0, 2)),
          ("rtf_power trace", lambda: F.rtf_power(psd_s, psd_n, torch.tensor([0.0, 1.0, 0.0]), 1)),
          ("mvdr rtf", lambda: F.mvdr_weights_rtf(F.rtf_power(psd_s, psd_n, 0), psd_n, 0)),
          ("beamform", lambda: F.apply_beamforming(F.mvdr_weights_souden(psd_s, psd_n, 1), spec))])


# transforms ----------------------------------------------------------------------------------------------------------

def transforms_features():
    """The feature transforms as the feature-extraction tutorial builds them: Spectrogram, InverseSpectrogram,
    GriffinLim, MelScale, MelSpectrogram, InverseMelScale, MFCC, LFCC, AmplitudeToDB, SpectralCentroid, Deltas."""
    import torchaudio.transforms as T

    w = waveform(1, 2400)
    spec = T.Spectrogram(n_fft=256, hop_length=64, power=None)(w)
    each([
        ("Spectrogram", lambda: T.Spectrogram(n_fft=256)(w)),
        ("Spectrogram hamming", lambda: T.Spectrogram(200, win_length=160, hop_length=40,
                                                      window_fn=torch.hamming_window, normalized=True,
                                                      center=False)(w)),
        ("InverseSpectrogram", lambda: T.InverseSpectrogram(n_fft=256, hop_length=64)(spec, 2400)),
        ("GriffinLim", lambda: T.GriffinLim(n_fft=256, n_iter=3, hop_length=64, rand_init=False)(spec.abs() ** 2)),
        ("MelScale", lambda: T.MelScale(n_mels=32, sample_rate=SR, n_stft=129)(spec.abs() ** 2)),
        ("MelSpectrogram", lambda: T.MelSpectrogram(SR, n_fft=256, hop_length=64, n_mels=40)(w)),
        ("MelSpectrogram slaney", lambda: T.MelSpectrogram(SR, n_fft=400, win_length=300, hop_length=100, center=True,
                                                           pad_mode="reflect", power=2.0, norm="slaney", n_mels=30,
                                                           mel_scale="htk")(w)),
        ("MFCC", lambda: T.MFCC(SR, n_mfcc=13, melkwargs={"n_fft": 256, "n_mels": 32, "hop_length": 64})(w)),
        ("MFCC log_mels", lambda: T.MFCC(SR, 20, log_mels=True, melkwargs={"n_fft": 256, "n_mels": 24})(w)),
        ("LFCC", lambda: T.LFCC(SR, n_lfcc=16, speckwargs={"n_fft": 256, "hop_length": 64})(w)),
        ("AmplitudeToDB", lambda: T.AmplitudeToDB("power", top_db=80)(spec.abs() ** 2)),
        ("AmplitudeToDB magnitude", lambda: T.AmplitudeToDB("magnitude")(spec.abs())),
        ("SpectralCentroid", lambda: T.SpectralCentroid(SR, n_fft=256, hop_length=64)(w)),
        ("ComputeDeltas", lambda: T.ComputeDeltas(win_length=5)(spec.abs())),
        ("Loudness", lambda: T.Loudness(SR)(waveform(1, 3600))),
    ])
    mel = T.MelSpectrogram(SR, n_fft=128, hop_length=64, n_mels=16)(w[:, :640])
    torch.manual_seed(0)
    out = T.InverseMelScale(65, n_mels=16, sample_rate=SR)(mel)  # a least-squares fit, then relu: whether a bin
    print("InverseMelScale", tuple(out.shape))  # sits at 0 or 1e-5 is LAPACK's rounding, so the values shown are
    show("InverseMelScale above 0.01", out[out > 0.01])  # those above 0.01


def transforms_augment():
    """The augmentation transforms (feature- and data-augmentation tutorials) on torch's seeded RNG: masking,
    TimeStretch, SpecAugment, Vol, Fade, Resample, Speed, AddNoise, Convolve, Preemphasis, MuLaw, PSD and MVDR."""
    import torchaudio.transforms as T

    w = waveform(2, 2000)
    spec = T.Spectrogram(n_fft=128, hop_length=32, power=None)(w)
    power = spec.abs() ** 2
    torch.manual_seed(0)
    each([
        ("FrequencyMasking", lambda: T.FrequencyMasking(freq_mask_param=20)(power)),
        ("FrequencyMasking iid", lambda: T.FrequencyMasking(20, iid_masks=True)(power[None])),
        ("TimeMasking", lambda: T.TimeMasking(time_mask_param=15)(power)),
        ("TimeMasking p", lambda: T.TimeMasking(time_mask_param=15, p=0.5)(power)),
        ("TimeStretch", lambda: T.TimeStretch(hop_length=32, n_freq=65, fixed_rate=1.2)(spec)),
        ("TimeStretch slower", lambda: T.TimeStretch(hop_length=32, n_freq=65)(spec, 0.9)),
        ("SpecAugment", lambda: T.SpecAugment(2, 10, 2, 8, iid_masks=True, p=1.0, zero_masking=True)(power)),
        ("Vol amplitude", lambda: T.Vol(0.5)(w)), ("Vol db", lambda: T.Vol(-6.0, "db")(w)),
        ("Vol power", lambda: T.Vol(2.0, "power")(w)),
        *[(f"Fade {shape}", lambda shape=shape: T.Fade(300, 500, shape)(w))
          for shape in ("linear", "exponential", "logarithmic", "quarter_sine", "half_sine")],
        ("Resample", lambda: T.Resample(SR, 6000)(w)),
        ("Resample kaiser", lambda: T.Resample(SR, 16000, "sinc_interp_kaiser", 8, 0.9, 14.7)(w)),
        ("Speed", lambda: T.Speed(SR, 1.2)(w)),
        ("SpeedPerturbation", lambda: T.SpeedPerturbation(SR, [0.9, 1.0, 1.1])(w)),
        ("AddNoise", lambda: T.AddNoise()(w, waveform(2, 2000, seed=4), torch.tensor([5.0, 15.0]))),
        ("Convolve", lambda: T.Convolve("same")(w, waveform(2, 50, seed=5))),
        ("FFTConvolve", lambda: T.FFTConvolve("valid")(w, waveform(2, 50, seed=5))),
        ("Preemphasis", lambda: T.Preemphasis(0.95)(w)), ("Deemphasis", lambda: T.Deemphasis(0.95)(w)),
        ("MuLawEncoding", lambda: T.MuLawEncoding(64)(w)),
        ("MuLawDecoding", lambda: T.MuLawDecoding(64)(T.MuLawEncoding(64)(w))),
        ("SlidingWindowCmn", lambda: T.SlidingWindowCmn(cmn_window=20, center=True)(power.transpose(-1, -2))),
        ("Vad", lambda: T.Vad(SR)(torch.cat([torch.zeros(1, 400), waveform(1, 3000)], 1))),
    ])
    g = torch.Generator().manual_seed(7)
    multi = torch.randn(4, 33, 12, dtype=torch.cfloat, generator=g)
    mask = torch.rand(33, 12, generator=g)
    each([("PSD", lambda: T.PSD()(multi, mask)),
          *[(f"MVDR {solution}", lambda solution=solution: T.MVDR(ref_channel=0, solution=solution,
                                                                   multi_mask=False)(multi, mask, 1 - mask))
            for solution in ("ref_channel", "stv_evd", "stv_power")],
          ("SoudenMVDR", lambda: T.SoudenMVDR()(multi, T.PSD()(multi, mask), T.PSD()(multi, 1 - mask), 0)),
          ("RTFMVDR", lambda: T.RTFMVDR()(multi, torch.ones(33, 4, dtype=torch.cfloat), T.PSD()(multi, 1 - mask), 0))])


def kaldi_features():
    """``torchaudio.compliance.kaldi``: Kaldi's spectrogram, fbank and MFCC (windows, dithering off, energy,
    pre-emphasis, snip edges, VTLN warping) on a 16-bit-scaled waveform, as the Kaldi-compatibility tests do."""
    import torchaudio.compliance.kaldi as kaldi

    w = waveform(1, 4000, 16000) * 32768
    each([
        ("spectrogram", lambda: kaldi.spectrogram(w, dither=0.0)),
        ("spectrogram hamming", lambda: kaldi.spectrogram(w, dither=0.0, window_type="hamming", snip_edges=False)),
        ("fbank", lambda: kaldi.fbank(w, num_mel_bins=23, dither=0.0)),
        ("fbank energy", lambda: kaldi.fbank(w, num_mel_bins=40, dither=0.0, use_energy=True, window_type="hanning",
                                             htk_compat=True, preemphasis_coefficient=0.0)),
        ("fbank vtln", lambda: kaldi.fbank(w, num_mel_bins=20, dither=0.0, vtln_warp=0.9, low_freq=40, high_freq=-400)),
        ("fbank povey power", lambda: kaldi.fbank(w, dither=0.0, use_power=False, use_log_fbank=False,
                                                  window_type="povey", remove_dc_offset=False,
                                                  round_to_power_of_two=False)),
        ("mfcc", lambda: kaldi.mfcc(w, dither=0.0)),
        ("mfcc options", lambda: kaldi.mfcc(w, num_ceps=10, num_mel_bins=20, dither=0.0, cepstral_lifter=0.0,
                                            use_energy=True, subtract_mean=True, frame_shift=12.5, frame_length=20.0)),
    ])
    torch.manual_seed(0)
    show("fbank dither", kaldi.fbank(w, dither=1.0, num_mel_bins=10))


def prototype_dsp():
    """torchaudio.prototype.functional's DSP (oscillator bank, ADSR envelope, pitch extension, sinc and frequency
    impulse responses, FIR filtering, exp-sigmoid, Bark and chroma filter banks) and prototype transforms."""
    import torchaudio.prototype.functional as PF
    import torchaudio.prototype.transforms as PT

    frames = 400
    freq = torch.linspace(200.0, 300.0, frames)[:, None] * torch.tensor([1.0, 2.0, 3.0])
    amp = torch.ones(frames, 3) * torch.tensor([0.5, 0.3, 0.2])
    each([
        ("oscillator_bank", lambda: PF.oscillator_bank(freq, amp, SR)),
        ("oscillator_bank float64", lambda: PF.oscillator_bank(freq.double(), amp.double(), SR)),
        ("adsr", lambda: PF.adsr_envelope(200, 0.1, 0.1, 0.5, 0.3, 0.2, 1.0, n_decay=2)),
        ("adsr linear", lambda: PF.adsr_envelope(100, attack=0.2, decay=0.2, sustain=0.3, release=0.1)),
        ("extend_pitch", lambda: PF.extend_pitch(torch.full((50, 1), 220.0), 4)),
        ("extend_pitch tensor", lambda: PF.extend_pitch(torch.full((50, 1), 220.0), torch.tensor([1.0, 2.5, 3.0]))),
        ("sinc_ir", lambda: PF.sinc_impulse_response(torch.tensor([0.1, 0.3]), 51)),
        ("sinc_ir highpass", lambda: PF.sinc_impulse_response(torch.tensor([0.2]), 31, high_pass=True)),
        ("freq_ir", lambda: PF.frequency_impulse_response(torch.linspace(1.0, 0.0, 65))),
        ("filter_waveform", lambda: PF.filter_waveform(waveform(1, 800)[0], PF.sinc_impulse_response(
            torch.linspace(0.1, 0.4, 8), 33))),
        ("exp_sigmoid", lambda: PF.exp_sigmoid(torch.linspace(-3, 3, 9))),
        ("barkscale", lambda: PF.barkscale_fbanks(65, 0.0, 4000.0, 12, SR, "traunmuller")),
        ("barkscale schroeder", lambda: PF.barkscale_fbanks(65, 50.0, 4000.0, 10, SR, "schroeder")),
        ("chroma", lambda: PF.chroma_filterbank(SR, 129, 12)),
    ])
    w = waveform(1, 2000)
    each([("BarkSpectrogram", lambda: PT.BarkSpectrogram(SR, n_fft=256, n_barks=16)(w)),
          ("ChromaSpectrogram", lambda: PT.ChromaSpectrogram(SR, 512, hop_length=128)(waveform(1, 4000)))])


# models --------------------------------------------------------------------------------------------------------------

def _train(name, model, forward, steps=2):
    """``steps`` SGD steps on the mean square of ``forward(model)``: the outputs' first values and the losses."""
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(steps):
        out = forward(model)
        out = out[0] if isinstance(out, tuple) else out
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 0:
            show(f"{name} out", out)
        print(name, "step", step, f"loss {loss.item():.6f}")
    print(name, "parameters", sum(p.numel() for p in model.parameters()))


def models_speech():
    """Wav2Letter, DeepSpeech, Conformer and Emformer (with its streaming ``infer``) at small sizes."""
    from torchaudio.models import Conformer, DeepSpeech, Emformer, Wav2Letter

    torch.manual_seed(0)
    _train("Wav2Letter mfcc", Wav2Letter(num_classes=10, input_type="mfcc", num_features=13),
           lambda m: m(torch.randn(2, 13, 60)))
    torch.manual_seed(0)
    m = Wav2Letter(num_classes=6, input_type="waveform", num_features=1)
    show("Wav2Letter waveform", m(waveform(1, 800)[None]))
    torch.manual_seed(0)
    _train("DeepSpeech", DeepSpeech(n_feature=20, n_hidden=32, n_class=10, dropout=0.0),
           lambda m: m(torch.randn(2, 1, 15, 20)))
    torch.manual_seed(0)
    conformer = Conformer(input_dim=16, num_heads=2, ffn_dim=32, num_layers=2, depthwise_conv_kernel_size=7,
                          dropout=0.0)
    lengths = torch.tensor([12, 9])
    _train("Conformer", conformer, lambda m: m(torch.randn(2, 12, 16), lengths))
    torch.manual_seed(0)
    conformer = Conformer(16, 4, 32, 1, 5, dropout=0.0, use_group_norm=True, convolution_first=True)
    show("Conformer group norm", conformer(torch.randn(2, 10, 16), torch.tensor([10, 6])))
    torch.manual_seed(0)
    emformer = Emformer(input_dim=16, num_heads=2, ffn_dim=32, num_layers=2, segment_length=4,
                        right_context_length=1, left_context_length=8, max_memory_size=2, dropout=0.0)
    _train("Emformer", emformer, lambda m: m(torch.randn(2, 13, 16), torch.tensor([13, 10])))
    emformer.eval()
    states = None
    for chunk in range(3):
        out, lengths, states = emformer.infer(torch.randn(1, 5, 16), torch.tensor([5]), states)
        show(f"Emformer infer {chunk}", out)


def models_separation():
    """ConvTasNet and Hybrid Demucs (source separation) and WaveRNN (a vocoder) at small sizes."""
    from torchaudio.models import ConvTasNet, HDemucs, WaveRNN

    torch.manual_seed(0)
    tasnet = ConvTasNet(num_sources=2, enc_kernel_size=8, enc_num_feats=16, msk_kernel_size=3, msk_num_feats=8,
                        msk_num_hidden_feats=16, msk_num_layers=2, msk_num_stacks=2, msk_activate="sigmoid")
    _train("ConvTasNet", tasnet, lambda m: m(waveform(2, 400)[:, None]))
    torch.manual_seed(0)
    demucs = HDemucs(["drums", "vocals"], audio_channels=1, channels=4, growth=2, nfft=256, depth=4)
    _train("HDemucs", demucs, lambda m: m(waveform(1, 1024)[None]), steps=1)
    torch.manual_seed(0)
    wavernn = WaveRNN(upsample_scales=[2, 4], n_classes=16, hop_length=8, n_res_block=1, n_rnn=16, n_fc=16,
                      kernel_size=3, n_freq=10, n_hidden=8, n_output=8)
    spec = torch.rand(2, 1, 10, 8)
    _train("WaveRNN", wavernn, lambda m: m(waveform(2, (8 - 3 + 1) * 8)[:, None], spec))
    wavernn.eval()
    torch.manual_seed(0)
    out, lengths = wavernn.infer(spec[:, 0], torch.tensor([8, 6]))
    show("WaveRNN infer", out)
    show("WaveRNN infer lengths", lengths)


def models_wav2vec2():
    """wav2vec 2.0 and HuBERT built from ``wav2vec2_model`` at a small size without weights: the feature extractor,
    the encoder's intermediate layers, the CTC head and a training step; WavLM's gated relative attention."""
    from torchaudio.models import wav2vec2_model, wavlm_model

    config = dict(extractor_mode="group_norm", extractor_conv_layer_config=[(16, 10, 5), (16, 3, 2)],
                  extractor_conv_bias=False, encoder_embed_dim=32, encoder_projection_dropout=0.0,
                  encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4, encoder_num_layers=2,
                  encoder_num_heads=2, encoder_attention_dropout=0.0, encoder_ff_interm_features=48,
                  encoder_ff_interm_dropout=0.0, encoder_dropout=0.0, encoder_layer_norm_first=False,
                  encoder_layer_drop=0.0, aux_num_out=12)
    torch.manual_seed(0)
    model = wav2vec2_model(**config)
    w = waveform(2, 800)
    lengths = torch.tensor([800, 600])
    model.eval()
    emissions, out_lengths = model(w, lengths)
    show("wav2vec2 emissions", emissions)
    show("wav2vec2 lengths", out_lengths)
    features, _ = model.extract_features(w, lengths, num_layers=2)
    show("wav2vec2 features", features)
    model.train()
    _train("wav2vec2", model, lambda m: m(w, lengths)[0].log_softmax(-1))
    torch.manual_seed(0)
    layer_norm = wav2vec2_model(**{**config, "extractor_mode": "layer_norm", "extractor_conv_bias": True,
                                   "encoder_layer_norm_first": True, "aux_num_out": None})
    show("wav2vec2 layer_norm_first", layer_norm.eval()(w)[0])
    torch.manual_seed(0)
    wavlm = wavlm_model(extractor_mode="layer_norm", extractor_conv_layer_config=[(16, 10, 5), (16, 3, 2)],
                        extractor_conv_bias=False, encoder_embed_dim=32, encoder_projection_dropout=0.0,
                        encoder_pos_conv_kernel=16, encoder_pos_conv_groups=4, encoder_num_layers=2,
                        encoder_num_heads=2, encoder_num_buckets=16, encoder_max_distance=40,
                        encoder_attention_dropout=0.0, encoder_ff_interm_features=48, encoder_ff_interm_dropout=0.0,
                        encoder_dropout=0.0, encoder_layer_norm_first=True, encoder_layer_drop=0.0, aux_num_out=8)
    show("WavLM", wavlm.eval()(w)[0])


def models_tacotron2():
    """Tacotron2 (text to mel) at a small size: teacher-forced forward with its prenet dropout on torch's seeded
    RNG, a training step, and greedy ``infer`` until the gate or ``decoder_max_step``."""
    from torchaudio.models import Tacotron2

    torch.manual_seed(0)
    model = Tacotron2(mask_padding=True, n_mels=12, n_symbol=20, n_frames_per_step=1, symbol_embedding_dim=24,
                      encoder_embedding_dim=24, encoder_n_convolution=2, encoder_kernel_size=5, decoder_rnn_dim=32,
                      decoder_max_step=12, decoder_dropout=0.1, decoder_early_stopping=True, attention_rnn_dim=32,
                      attention_hidden_dim=16, attention_location_n_filter=4, attention_location_kernel_size=7,
                      attention_dropout=0.1, prenet_dim=16, postnet_n_convolution=2, postnet_kernel_size=5,
                      postnet_embedding_dim=16, gate_threshold=0.5)
    tokens = torch.randint(1, 20, (2, 9))
    token_lengths = torch.tensor([9, 7])
    mel = torch.randn(2, 12, 10)
    mel_lengths = torch.tensor([10, 8])
    _train("Tacotron2", model, lambda m: m(tokens, token_lengths, mel, mel_lengths))
    model.eval()
    torch.manual_seed(0)
    out, lengths, alignments = model.infer(tokens, token_lengths)
    show("Tacotron2 infer", out)
    show("Tacotron2 infer lengths", lengths)
    show("Tacotron2 alignments", alignments)


def _rnnt_config():
    return dict(input_dim=16, encoding_dim=24, num_symbols=12, segment_length=4, right_context_length=2,
                time_reduction_input_dim=16, time_reduction_stride=2, transformer_num_heads=2,
                transformer_ffn_dim=32, transformer_num_layers=2, transformer_dropout=0.0,
                transformer_activation="gelu", transformer_left_context_length=6, transformer_max_memory_size=0,
                transformer_weight_init_scale_strategy="depthwise", transformer_tanh_on_mem=True,
                symbol_embedding_dim=16, num_lstm_layers=2, lstm_layer_norm=True, lstm_layer_norm_epsilon=1e-3,
                lstm_dropout=0.0)


def models_rnnt():
    """An Emformer RNN-T from ``emformer_rnnt_model`` at a small size: the joint network's output and a training step
    on it, ``transcribe``, streaming ``transcribe_streaming`` and ``RNNTBeamSearch`` (offline and streaming)."""
    from torchaudio.models import RNNTBeamSearch, emformer_rnnt_model

    torch.manual_seed(0)
    model = emformer_rnnt_model(**_rnnt_config())
    sources = torch.randn(2, 21, 16)
    source_lengths = torch.tensor([21, 17])
    targets = torch.randint(1, 12, (2, 5))
    target_lengths = torch.tensor([5, 3])
    _train("RNNT joint", model, lambda m: m(sources, source_lengths, targets, target_lengths))
    model.eval()
    with torch.no_grad():
        show("transcribe", model.transcribe(sources, source_lengths))
        state = None
        for chunk in range(2):
            out, lengths, state = model.transcribe_streaming(torch.randn(1, 6, 16), torch.tensor([6]), state)
            show(f"transcribe_streaming {chunk}", out)
        search = RNNTBeamSearch(model, blank=0, step_max_tokens=3)
        hypotheses = search(torch.randn(1, 13, 16), torch.tensor([13]), beam_width=3)
        for tokens, _, _, score in hypotheses:
            print("beam", tokens, f"{score:.5f}")
        hypotheses, state = search.infer(torch.randn(1, 6, 16), torch.tensor([6]), 2)
        for tokens, _, _, score in hypotheses:
            print("streaming beam", tokens, f"{score:.5f}")


def models_prototype():
    """torchaudio.prototype's models at small sizes: a HiFi-GAN vocoder, the Conformer RNN-T, the Conformer
    wav2vec 2.0 and ConvEmformer; and SQUIM's objective speech-quality model."""
    from torchaudio.models import squim_objective_model
    from torchaudio.prototype.models import conformer_rnnt_model, conformer_wav2vec2_model, hifigan_vocoder

    torch.manual_seed(0)
    hifigan = hifigan_vocoder(in_channels=8, upsample_rates=(2, 2), upsample_initial_channel=16,
                              upsample_kernel_sizes=(4, 4), resblock_kernel_sizes=(3, 5),
                              resblock_dilation_sizes=((1, 3, 5), (1, 3, 5)), resblock_type=1, lrelu_slope=0.1)
    _train("HiFiGAN", hifigan, lambda m: m(torch.randn(2, 8, 10)))
    torch.manual_seed(0)
    hifigan2 = hifigan_vocoder(8, (4,), 8, (8,), (3,), ((1, 2),), 2, 0.2)
    show("HiFiGAN type 2", hifigan2(torch.randn(1, 8, 6)))
    torch.manual_seed(0)
    rnnt = conformer_rnnt_model(input_dim=16, encoding_dim=16, time_reduction_stride=2, conformer_input_dim=16,
                                conformer_ffn_dim=32, conformer_num_layers=1, conformer_num_heads=2,
                                conformer_depthwise_conv_kernel_size=5, conformer_dropout=0.0, num_symbols=10,
                                symbol_embedding_dim=8, num_lstm_layers=1, lstm_hidden_dim=16, lstm_layer_norm=True,
                                lstm_layer_norm_epsilon=1e-5, lstm_dropout=0.0, joiner_activation="tanh")
    _train("Conformer RNNT", rnnt, lambda m: m(torch.randn(2, 12, 16), torch.tensor([12, 8]),
                                               torch.randint(1, 10, (2, 4)), torch.tensor([4, 2])))
    torch.manual_seed(0)
    w2v = conformer_wav2vec2_model(extractor_input_dim=16, extractor_output_dim=24, extractor_stride=2,
                                   encoder_embed_dim=24, encoder_projection_dropout=0.0, encoder_num_layers=2,
                                   encoder_num_heads=2, encoder_ff_interm_features=32,
                                   encoder_depthwise_conv_kernel_size=5, encoder_dropout=0.0,
                                   encoder_convolution_first=True, encoder_use_group_norm=True)
    out, lengths = w2v.eval()(torch.randn(2, 14, 16), torch.tensor([14, 10]))
    show("Conformer wav2vec2", out)
    show("Conformer wav2vec2 lengths", lengths)
    torch.manual_seed(0)
    squim = squim_objective_model(feat_dim=16, win_len=16, d_model=16, nhead=2, hidden_dim=16, num_blocks=1,
                                  rnn_type="LSTM", chunk_size=8, chunk_stride=4)
    show("SquimObjective", squim.eval()(waveform(2, 400)))


def models_hubert():
    """HuBERT's pre-training model from ``hubert_pretrain_model`` at a small size: span masking on torch's seeded RNG,
    the masked and unmasked logits against seeded labels, a training step, and ``wav2vec2_model``'s
    ``feature_grad_mult``."""
    from torchaudio.models import hubert_pretrain_model

    torch.manual_seed(0)
    model = hubert_pretrain_model(
        extractor_mode="group_norm", extractor_conv_layer_config=[(16, 10, 5), (16, 3, 2)], extractor_conv_bias=False,
        encoder_embed_dim=24, encoder_projection_dropout=0.0, encoder_pos_conv_kernel=8, encoder_pos_conv_groups=4,
        encoder_num_layers=2, encoder_num_heads=2, encoder_attention_dropout=0.0, encoder_ff_interm_features=32,
        encoder_ff_interm_dropout=0.0, encoder_dropout=0.0, encoder_layer_norm_first=False, encoder_layer_drop=0.0,
        mask_prob=0.5, mask_selection="static", mask_other=0.0, mask_length=4, no_mask_overlap=False,
        mask_min_space=1, mask_channel_prob=0.2, mask_channel_selection="static", mask_channel_other=0.0,
        mask_channel_length=3, no_mask_channel_overlap=False, mask_channel_min_space=1, skip_masked=False,
        skip_nomask=False, num_classes=10, final_dim=8, feature_grad_mult=0.1)
    w = waveform(2, 800)
    labels = torch.randint(0, 10, (2, 79))
    lengths = torch.tensor([800, 700])
    torch.manual_seed(1)
    logit_m, logit_u, feature_penalty = model(w, labels, lengths)
    show("logit_m", logit_m)
    show("logit_u", logit_u)
    show("feature_penalty", feature_penalty)
    torch.manual_seed(2)
    _train("HuBERT", model, lambda m: m(w, labels, lengths)[0])


def without_extension():
    """What a torchaudio built without its C++ extension says when asked for what needs it: forced alignment, the
    RNN-T loss, room simulation, codecs, SoX effects and file I/O each fail the same way (types and messages)."""
    import torchaudio
    import torchaudio.functional as F
    import torchaudio.transforms as T
    from torchaudio import _extension
    from torchaudio.prototype.functional import ray_tracing, simulate_rir_ism

    print("extension", _extension._IS_TORCHAUDIO_EXT_AVAILABLE, _extension._IS_RIR_AVAILABLE,
          _extension._IS_ALIGN_AVAILABLE)
    log_probs = torch.randn(1, 8, 5).log_softmax(-1)
    logits = torch.randn(1, 6, 3, 5)
    each([
        ("forced_align", lambda: F.forced_align(log_probs, torch.tensor([[1, 2]], dtype=torch.int32))),
        ("rnnt_loss", lambda: F.rnnt_loss(logits, torch.tensor([[1, 2]], dtype=torch.int32),
                                          torch.tensor([6], dtype=torch.int32), torch.tensor([2], dtype=torch.int32))),
        ("RNNTLoss", lambda: T.RNNTLoss()(logits, torch.tensor([[1, 2]], dtype=torch.int32),
                                          torch.tensor([6], dtype=torch.int32), torch.tensor([2], dtype=torch.int32))),
        ("simulate_rir_ism", lambda: simulate_rir_ism(torch.tensor([4.0, 3.0, 2.5]), torch.tensor([1.0, 1.0, 1.0]),
                                                      torch.tensor([[2.0, 2.0, 1.0]]), 2, 0.3)),
        ("ray_tracing", lambda: ray_tracing(torch.tensor([4.0, 3.0, 2.5]), torch.tensor([1.0, 1.0, 1.0]),
                                            torch.tensor([[2.0, 2.0, 1.0]]), 100)),
        ("load", lambda: torchaudio.load("missing.wav")),
        ("info", lambda: torchaudio.info("missing.wav")),
        ("save", lambda: torchaudio.save("out.wav", waveform(1, 100), SR)),
        ("backends", lambda: torchaudio.list_audio_backends()),
        ("apply_effects", lambda: torchaudio.sox_effects.apply_effects_tensor(waveform(1, 100), SR, [["gain", "1"]])),
    ])


def scripted_transforms():
    """torch.jit.script on torchaudio's transforms (they are written to be scriptable): the scripted module's
    results against the eager one's."""
    import torchaudio.transforms as T

    w = waveform(1, 1600)
    for name, transform in [("Spectrogram", T.Spectrogram(n_fft=128)),
                            ("MelSpectrogram", T.MelSpectrogram(SR, n_fft=128, n_mels=16)),
                            ("MFCC", T.MFCC(SR, n_mfcc=8, melkwargs={"n_fft": 128, "n_mels": 16})),
                            ("AmplitudeToDB", T.AmplitudeToDB()), ("Resample", T.Resample(SR, 6000)),
                            ("MuLawEncoding", T.MuLawEncoding()), ("Vol", T.Vol(0.5)),
                            ("Fade", T.Fade(100, 100)), ("Preemphasis", T.Preemphasis())]:
        scripted = torch.jit.script(transform)
        print(name, type(scripted).__name__, scripted.original_name)
        out = scripted(w)
        show(f"{name} scripted", out)
        print(name, "same as eager", torch.equal(out, transform(w)))


def pipelines_offline():
    """torchaudio.pipelines' bundles where nothing is downloaded: their sample rates and labels, Tacotron2's
    character text processor, and the Griffin-Lim vocoder (InverseMelScale and GriffinLim at full size)."""
    from torchaudio import pipelines

    for name in ("WAV2VEC2_ASR_BASE_960H", "HUBERT_ASR_LARGE", "WAV2VEC2_BASE", "HDEMUCS_HIGH_MUSDB",
                 "CONVTASNET_BASE_LIBRI2MIX", "SQUIM_OBJECTIVE", "TACOTRON2_GRIFFINLIM_CHAR_LJSPEECH"):
        bundle = getattr(pipelines, name)
        print(name, type(bundle).__name__, bundle.sample_rate)
    print(pipelines.WAV2VEC2_ASR_BASE_960H.get_labels())
    print(pipelines.WAV2VEC2_ASR_BASE_960H._params)
    bundle = pipelines.TACOTRON2_GRIFFINLIM_CHAR_LJSPEECH
    processor = bundle.get_text_processor()
    print(processor.tokens[:20])
    tokens, lengths = processor(["Hello world!", "torchaudio on core"])
    show("tokens", tokens)
    show("lengths", lengths)
    vocoder = bundle.get_vocoder()
    torch.manual_seed(0)
    mel = torch.randn(1, 80, 12) - 4
    waveforms, _ = vocoder(mel)
    show("GriffinLim vocoder", waveforms)


def functional_gradients():
    """Gradients through the differentiable features: MelSpectrogram, MFCC, resample, amplitude to dB, the phase
    vocoder on a complex spectrogram, add_noise, fftconvolve, the spectral centroid and Griffin-Lim's input."""
    import torchaudio.functional as F
    import torchaudio.transforms as T

    w = waveform(1, 800)
    gradients("MelSpectrogram", T.MelSpectrogram(SR, n_fft=128, n_mels=12), w)
    gradients("MFCC", T.MFCC(SR, n_mfcc=6, melkwargs={"n_fft": 128, "n_mels": 12}), w)
    gradients("resample", lambda x: F.resample(x, SR, 6000), w)
    gradients("amplitude_to_DB", lambda x: F.amplitude_to_DB(x.abs() + 0.1, 20.0, 1e-5, 0.0, 60.0), w)
    spec = T.Spectrogram(n_fft=64, power=None)(w)
    gradients("phase_vocoder", lambda s: F.phase_vocoder(s, 1.25, torch.linspace(0, math.pi * 16, 33)[..., None]),
              spec)
    gradients("add_noise", lambda x, n: F.add_noise(x, n, torch.tensor([6.0])), w, waveform(1, 800, seed=3))
    gradients("fftconvolve", lambda x, k: F.fftconvolve(x, k), w, waveform(1, 30, seed=4))
    gradients("spectral_centroid", lambda x: F.spectral_centroid(x, SR, 0, torch.hann_window(64), 64, 16, 64), w)
    gradients("InverseSpectrogram", T.InverseSpectrogram(n_fft=64), spec)


def spectral_edge_cases():
    """The STFT paths torchaudio reaches at their edges: float64 and batched 3-D input, a window shorter than
    ``n_fft`` (zero-padded in the middle), odd lengths without centring, two-sided normalized spectra, the inverse
    with an explicit ``length``, Griffin-Lim from a random start (torch's seeded RNG), a phase vocoder at rate 2.5,
    and the transforms on float64 and on (batch, channel, time) input."""
    import torchaudio.functional as F
    import torchaudio.transforms as T

    w = waveform(3, 1001)
    each([
        ("float64", lambda: F.spectrogram(w.double(), 0, torch.hann_window(128, dtype=torch.float64), 128, 32, 128,
                                          2.0, False)),
        ("batched 3-d", lambda: F.spectrogram(w.reshape(3, 1, 1001).expand(3, 2, 1001), 0, torch.hann_window(100),
                                              128, 25, 100, 1.0, "frame_length")),
        ("short window", lambda: F.spectrogram(w, 0, torch.hamming_window(60), 128, 30, 60, None, "window")),
        ("odd no centre", lambda: F.spectrogram(w[:, :997], 3, torch.hann_window(127), 127, 33, 127, 2.0, False,
                                                center=False)),
        ("twosided normalized", lambda: F.spectrogram(w, 0, torch.hann_window(64), 64, 16, 64, None, True,
                                                      onesided=False)),
        ("power 0.5", lambda: F.spectrogram(w, 0, torch.hann_window(64), 64, 16, 64, 0.5, False)),
    ])
    spec = F.spectrogram(w, 0, torch.hann_window(128), 128, 32, 128, None, False)
    each([
        ("inverse length", lambda: F.inverse_spectrogram(spec, 990, 0, torch.hann_window(128), 128, 32, 128, False)),
        ("inverse float64", lambda: F.inverse_spectrogram(spec.to(torch.complex128), None, 0,
                                                          torch.hann_window(128, dtype=torch.float64), 128, 32, 128,
                                                          "frame_length")),
        ("phase_vocoder 2.5", lambda: F.phase_vocoder(spec, 2.5, torch.linspace(0, math.pi * 32, 65)[..., None])),
    ])
    torch.manual_seed(0)
    show("griffinlim random init", F.griffinlim(spec.abs(), torch.hann_window(128), 128, 32, 128, 1.0, 3, 0.5, None,
                                                True))
    batch = waveform(2, 1600).reshape(2, 1, 1600)
    each([
        ("MelSpectrogram 3-d", lambda: T.MelSpectrogram(SR, n_fft=256, n_mels=20)(batch)),
        ("MFCC float64", lambda: T.MFCC(SR, 10, melkwargs={"n_fft": 256, "n_mels": 20}).double()(batch.double())),
        ("Resample float64", lambda: T.Resample(SR, 11025, dtype=torch.float64)(batch.double())),
        ("Spectrogram frame_length", lambda: T.Spectrogram(200, normalized="frame_length", power=None)(batch)),
        ("LFCC log_lf", lambda: T.LFCC(SR, n_filter=24, n_lfcc=12, log_lf=True, speckwargs={"n_fft": 256})(batch)),
        ("AmplitudeToDB 4-d", lambda: T.AmplitudeToDB(top_db=40.0)(T.Spectrogram(128)(batch)[None])),
        ("SpectralCentroid float64", lambda: T.SpectralCentroid(SR, n_fft=128).double()(batch.double())),
    ])


def models_scripting_and_quantization():
    """What torchaudio's model tests and ASR tutorials do beyond a forward: ``torch.jit.script`` on the models (the
    scripted module's outputs against the eager one's), a state dict saved to bytes and loaded into a fresh model,
    and dynamic int8 quantization of wav2vec 2.0's and the Conformer's Linear layers (``quantize_dynamic``)."""
    import io

    from torchaudio.models import Conformer, ConvTasNet, Wav2Letter, wav2vec2_model

    torch.manual_seed(0)
    w = waveform(2, 400)
    models = [
        ("Wav2Letter", Wav2Letter(num_classes=5, input_type="mfcc", num_features=8), (torch.randn(2, 8, 30),)),
        ("ConvTasNet", ConvTasNet(2, 8, 8, 3, 4, 8, 2, 1), (w[:, None],)),
        ("Conformer", Conformer(8, 2, 16, 1, 3), (torch.randn(2, 7, 8), torch.tensor([7, 5]))),
        ("wav2vec2", wav2vec2_model("group_norm", [(8, 10, 5), (8, 3, 2)], False, 16, 0.0, 8, 4, 1, 2, 0.0, 24, 0.0,
                                    0.0, False, 0.0, 6), (w, torch.tensor([400, 300]))),
    ]
    for name, model, inputs in models:
        model.eval()
        eager = model(*inputs)
        eager = eager[0] if isinstance(eager, tuple) else eager
        try:
            scripted = torch.jit.script(model)
            out = scripted(*inputs)
            out = out[0] if isinstance(out, tuple) else out
            print(name, "scripted", type(scripted).__name__, "same as eager", torch.allclose(out, eager, atol=1e-6))
        except Exception as exc:
            print(name, "script raised", type(exc).__name__)
        buffer = io.BytesIO()
        torch.save(model.state_dict(), buffer)
        buffer.seek(0)
        state = torch.load(buffer)
        print(name, "state", len(state), sorted(state)[:3])
        show(f"{name} eager", eager)
    for name, model, inputs in models[2:]:
        quantized = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        out = quantized(*inputs)
        show(f"{name} quantized", out[0] if isinstance(out, tuple) else out)
        print(name, "quantized modules", sorted({type(m).__name__ for m in quantized.modules()
                                                 if "Linear" in type(m).__name__}))


def models_variants():
    """Model options the small builds above leave at their defaults: Emformer without tanh on the memory, with
    constant weight-init scaling and a finite negative infinity; ConvEmformer; wav2vec 2.0's layer drop while
    training (torch's seeded RNG); the RNN-T's ``predict`` and ``join`` one step at a time; Tacotron2 without
    padding masks; an online MVDR whose PSDs update over calls."""
    import torchaudio.transforms as T
    from torchaudio.models import Emformer, Tacotron2, emformer_rnnt_model, wav2vec2_model
    from torchaudio.prototype.models import ConvEmformer

    torch.manual_seed(0)
    for scale in ("constant", None):
        emformer = Emformer(8, 2, 16, 2, 3, dropout=0.0, left_context_length=4, right_context_length=2,
                            max_memory_size=3, weight_init_scale_strategy=scale, tanh_on_mem=False,
                            negative_inf=-1e4)
        show(f"Emformer {scale}", emformer(torch.randn(2, 11, 8), torch.tensor([11, 7]))[0])
    torch.manual_seed(0)
    conv = ConvEmformer(8, 2, 16, 2, 4, 3, left_context_length=4, right_context_length=2, max_memory_size=2)
    show("ConvEmformer", conv(torch.randn(2, 14, 8), torch.tensor([14, 9]))[0])
    conv.eval()
    out, lengths, states = conv.infer(torch.randn(1, 6, 8), torch.tensor([6]))
    show("ConvEmformer infer", out)
    torch.manual_seed(0)
    w2v = wav2vec2_model("group_norm", [(8, 10, 5), (8, 3, 2)], False, 16, 0.1, 8, 4, 4, 2, 0.1, 24, 0.1, 0.1, True,
                         0.5, 5)
    w2v.train()
    torch.manual_seed(3)
    show("wav2vec2 layer drop", w2v(waveform(2, 400))[0])
    torch.manual_seed(0)
    rnnt = emformer_rnnt_model(**_rnnt_config()).eval()
    with torch.no_grad():
        encoded, lengths = rnnt.transcribe(torch.randn(1, 12, 16), torch.tensor([12]))
        token, state = torch.tensor([[0]]), None
        for step in range(3):
            predicted, predicted_lengths, state = rnnt.predict(token, torch.tensor([1]), state)
            joint, _, _ = rnnt.join(encoded[:, step:step + 1], torch.tensor([1]), predicted, predicted_lengths)
            token = joint.argmax(-1).reshape(1, 1)
            show(f"RNNT join {step}", joint)
    torch.manual_seed(0)
    taco = Tacotron2(mask_padding=False, n_mels=8, n_symbol=12, symbol_embedding_dim=16, encoder_embedding_dim=16,
                     encoder_n_convolution=1, decoder_rnn_dim=16, decoder_max_step=6, decoder_early_stopping=False,
                     attention_rnn_dim=16, attention_hidden_dim=8, attention_location_n_filter=4, prenet_dim=8,
                     postnet_n_convolution=1, postnet_embedding_dim=8)
    out = taco(torch.randint(1, 12, (2, 5)), torch.tensor([5, 4]), torch.randn(2, 8, 6), torch.tensor([6, 6]))
    show("Tacotron2 no mask", out)
    taco.eval()
    show("Tacotron2 no early stop", taco.infer(torch.randint(1, 12, (1, 4)))[0])
    g = torch.Generator().manual_seed(11)
    mvdr = T.MVDR(ref_channel=0, solution="ref_channel", multi_mask=True, online=True)
    for call in range(3):
        spec = torch.randn(3, 17, 8, dtype=torch.cfloat, generator=g)
        mask = torch.rand(3, 17, 8, generator=g)
        show(f"MVDR online {call}", mvdr(spec, mask, 1 - mask))


def dtypes_and_errors():
    """torchaudio's functional API off its usual path: half, float64, integer and complex inputs, broadcast
    convolution shapes, unnormalised filter coefficients, and the errors its checks raise for bad arguments."""
    import torchaudio.functional as F
    import torchaudio.transforms as T

    w = waveform(2, 600)
    each([
        ("spectrogram half", lambda: F.spectrogram(w.half(), 0, torch.hann_window(64).half(), 64, 16, 64, 2.0,
                                                   False)),
        ("resample int16", lambda: F.resample((w * 1000).to(torch.int16), SR, 4000)),
        ("resample float64", lambda: F.resample(w.double(), 4, 3, lowpass_filter_width=3)),
        ("mu_law float64", lambda: F.mu_law_encoding(w.double(), 128)),
        ("mu_law int", lambda: F.mu_law_encoding((w * 10).long(), 128)),
        ("mu_law decode float64", lambda: F.mu_law_decoding(torch.arange(0, 256, 17), 256)),
        ("to_db complex", lambda: F.amplitude_to_DB(torch.ones(3, dtype=torch.cfloat), 10.0, 1e-10, 0.0)),
        ("deltas 4-d float64", lambda: F.compute_deltas(w.double().reshape(1, 2, 20, 30), 3)),
        ("convolve broadcast", lambda: F.convolve(w.reshape(2, 1, 600), waveform(3, 40, seed=1).reshape(1, 3, 40))),
        ("fftconvolve float64", lambda: F.fftconvolve(w.double(), waveform(2, 33, seed=1).double(), "same")),
        ("convolve 1-d", lambda: F.convolve(w[0], w[1, :10])),
        ("convolve bad mode", lambda: F.convolve(w, w, "middle")),
        ("convolve bad shapes", lambda: F.convolve(w.reshape(2, 1, 600), waveform(3, 40).reshape(3, 1, 40))),
        ("add_noise bad snr", lambda: F.add_noise(w, w, torch.tensor([1.0, 2.0, 3.0]))),
        ("add_noise bad noise", lambda: F.add_noise(w, w[:, :10], torch.tensor([1.0, 2.0]))),
        ("lfilter a0 2", lambda: F.lfilter(w[:, :100], torch.tensor([2.0, -0.5]), torch.tensor([1.0, 0.3]))),
        ("lfilter float64", lambda: F.lfilter(w[:, :100].double(), torch.tensor([1.0, -0.5, 0.1]).double(),
                                              torch.tensor([0.5, 0.3, 0.2]).double())),
        ("lfilter mismatched", lambda: F.lfilter(w, torch.tensor([1.0, -0.5]), torch.tensor([1.0, 0.3, 0.1]))),
        ("speed no lengths", lambda: F.speed(w, SR, 1.5)),
        ("melscale bad norm", lambda: F.melscale_fbanks(65, 0.0, 4000.0, 10, SR, "area")),
        ("melscale bad scale", lambda: F.melscale_fbanks(65, 0.0, 4000.0, 10, SR, None, "bark")),
        ("create_dct bad norm", lambda: F.create_dct(13, 40, "l2")),
        ("spectral_centroid float64", lambda: F.spectral_centroid(w.double(), SR, 0, torch.hann_window(
            64, dtype=torch.float64), 64, 16, 64)),
        ("MelSpectrogram int", lambda: T.MelSpectrogram(SR, n_fft=64)((w * 100).long())),
        ("Resample int", lambda: T.Resample(SR, 4000)((w * 100).long())),
        ("Vol bad gain", lambda: T.Vol(-1.0, "amplitude")),
        ("Fade too long", lambda: T.Fade(400, 400)(w)),
        ("TimeStretch no rate", lambda: T.TimeStretch(n_freq=33)(T.Spectrogram(64, power=None)(w))),
        ("frechet bad shapes", lambda: F.frechet_distance(torch.zeros(3), torch.eye(2), torch.zeros(3),
                                                          torch.eye(3))),
        ("InverseSpectrogram real", lambda: T.InverseSpectrogram(64)(T.Spectrogram(64)(w))),
        ("InverseSpectrogram wrong n_fft", lambda: T.InverseSpectrogram(128)(T.Spectrogram(64, power=None)(w))),
        ("InverseSpectrogram hop", lambda: T.InverseSpectrogram(64, hop_length=80)(T.Spectrogram(64, power=None)(w))),
        ("GriffinLim wrong n_fft", lambda: T.GriffinLim(128, n_iter=2)(T.Spectrogram(64)(w))),
        ("inverse zero window", lambda: F.inverse_spectrogram(T.Spectrogram(64, power=None)(w), None, 0,
                                                              torch.zeros(64), 64, 16, 64, False)),
    ])
