"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

torchaudio's own Python package on core (2026-12-05, corpus helper s19 TORCHAUDIO): pytorch/audio at the commit of
its v2.8.0 release (BSD-2-Clause; the commit its release wheel's ``version.py`` names), every ``.py`` file of
``src/torchaudio`` and of ``src/torio`` (which torchaudio imports) fetched beside each script (``AUDIO_PACKAGE``; not
the generated ``version.py``, nor the compiled ``lib/*.so``). The runner loads both packages from the script's folder
in both runs (``runner._fetched_packages``); without ``lib/_torchaudio.so`` torchaudio reports its extension absent
(``_IS_TORCHAUDIO_EXT_AVAILABLE`` False), as a build without its C++ ops does, and takes its pure-Python paths
(``lfilter``'s loop, ``overdrive``'s). Each script is one of the package's modules run as the module it is
(``__package__`` set) with calls to ``corpus_torchaudio.py``'s drivers appended: seeded waveforms instead of
``torchaudio.load`` (which needs the extension or torchcodec), functional, transforms, Kaldi compliance, the
prototype DSP and the models at small sizes, printed to 6 decimals.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

AUDIO = ("pytorch/audio", "6e1c7fe9ff6d82b8665d0a46d859d3357d2ebaaa", "BSD-2-Clause")  # the v2.8.0 release
_MODULES = {
    "torchaudio": "__init__ _torchcodec kaldi_io",
    "torchaudio/_backend": "__init__ backend common ffmpeg soundfile soundfile_backend sox utils",
    "torchaudio/_extension": "__init__ utils",
    "torchaudio/_internal": "__init__ module_utils",
    "torchaudio/backend": "__init__ _no_backend _sox_io_backend common no_backend soundfile_backend sox_io_backend",
    "torchaudio/compliance": "__init__ kaldi",
    "torchaudio/datasets": "__init__ cmuarctic cmudict commonvoice dr_vctk fluentcommands gtzan iemocap "
        "librilight_limited librimix librispeech librispeech_biasing libritts ljspeech musdb_hq quesst14 snips "
        "speechcommands tedlium utils vctk voxceleb1 yesno",
    "torchaudio/functional": "__init__ _alignment filtering functional",
    "torchaudio/io": "__init__ _effector _playback",
    "torchaudio/lib": "__init__",
    "torchaudio/models": "__init__ _hdemucs conformer conv_tasnet deepspeech emformer rnnt rnnt_decoder tacotron2 "
        "wav2letter wavernn",
    "torchaudio/models/decoder": "__init__ _ctc_decoder _cuda_ctc_decoder",
    "torchaudio/models/squim": "__init__ objective subjective",
    "torchaudio/models/wav2vec2": "__init__ components model wavlm_attention",
    "torchaudio/models/wav2vec2/utils": "__init__ import_fairseq import_huggingface",
    "torchaudio/pipelines": "__init__ _source_separation_pipeline _squim_pipeline rnnt_pipeline",
    "torchaudio/pipelines/_tts": "__init__ impl interface utils",
    "torchaudio/pipelines/_wav2vec2": "__init__ aligner impl utils",
    "torchaudio/prototype": "__init__",
    "torchaudio/prototype/datasets": "__init__ musan",
    "torchaudio/prototype/functional": "__init__ _dsp _rir functional",
    "torchaudio/prototype/models": "__init__ _conformer_wav2vec2 _emformer_hubert conv_emformer hifi_gan rnnt "
        "rnnt_decoder",
    "torchaudio/prototype/pipelines": "__init__ hifigan_pipeline rnnt_pipeline",
    "torchaudio/prototype/pipelines/_vggish": "__init__ _vggish_impl _vggish_pipeline",
    "torchaudio/prototype/transforms": "__init__ _transforms",
    "torchaudio/sox_effects": "__init__ sox_effects",
    "torchaudio/transforms": "__init__ _multi_channel _transforms",
    "torchaudio/utils": "__init__ download ffmpeg_utils sox_utils",
    "torio": "__init__",
    "torio/_extension": "__init__ utils",
    "torio/io": "__init__ _streaming_media_decoder _streaming_media_encoder",
    "torio/lib": "__init__",
    "torio/utils": "__init__ ffmpeg_utils",
}
AUDIO_PACKAGE = [(f"src/{folder}/{name}.py", f"{folder}/{name}.py")
                 for folder, names in _MODULES.items() for name in names.split()]
DRIVERS = "import torch\nta = __import__('corpus_torchaudio')"
END = "\n]\n"  # the closing bracket of the module's __all__, its last line


FIRST = {  # each module's first line, which gets ``__package__`` before it
    "functional/__init__": "from torchaudio._internal.module_utils import dropping_support\n",
    "transforms/__init__": "from torchaudio._internal.module_utils import dropping_class_support\n",
    "models/__init__": "from ._hdemucs import ",
    "compliance/__init__": "from . import kaldi\n",
    "prototype/functional/__init__": "from ._dsp import (\n",
}


def _audio(name, module, *calls):
    """src/torchaudio/MODULE.py (a package's ``__init__``) run as its module, the drivers' ``calls`` appended."""
    package = ".".join(["torchaudio", *module.split("/")[:-1]])
    first = FIRST[module]
    line = f"__package__ = {package!r}  # run as the package's module\n"
    with_calls = "\n".join([END.rstrip("\n"), "", DRIVERS, *calls, ""])
    return _r(f"ta_{name}", AUDIO, f"src/torchaudio/{module}.py", [(first, line + first), (END, with_calls)],
              support=AUDIO_PACKAGE)


FUNCTIONAL = "functional/__init__"
RECIPES += [
    _audio("functional_spectral", FUNCTIONAL, "ta.functional_spectral()"),
    _audio("functional_filterbanks", FUNCTIONAL, "ta.functional_filterbanks()"),
    _audio("functional_resample", FUNCTIONAL, "ta.functional_resample()"),
    _audio("functional_filters", FUNCTIONAL, "ta.functional_filters(0)"),
    _audio("functional_effects", FUNCTIONAL, "ta.functional_filters(1)"),
    _audio("functional_mixing", FUNCTIONAL, "ta.functional_mixing()"),
    _audio("transforms_features", "transforms/__init__", "ta.transforms_features()"),
    _audio("transforms_augment", "transforms/__init__", "ta.transforms_augment()"),
    _audio("kaldi", "compliance/__init__", "ta.kaldi_features()"),
    _audio("prototype_dsp", "prototype/functional/__init__", "ta.prototype_dsp()"),
    _audio("models_speech", "models/__init__", "ta.models_speech()"),
    _audio("models_separation", "models/__init__", "ta.models_separation()"),
    _audio("models_wav2vec2", "models/__init__", "ta.models_wav2vec2()"),
    _audio("models_tacotron2", "models/__init__", "ta.models_tacotron2()"),
    _audio("models_rnnt", "models/__init__", "ta.models_rnnt()"),
    _audio("models_prototype", "models/__init__", "ta.models_prototype()"),
    _audio("models_hubert", "models/__init__", "ta.models_hubert()"),
    _audio("without_extension", FUNCTIONAL, "ta.without_extension()"),
    _audio("scripted_transforms", "transforms/__init__", "ta.scripted_transforms()"),
    _audio("pipelines_offline", "models/__init__", "ta.pipelines_offline()"),
    _audio("models_script_quantize", "models/__init__", "ta.models_scripting_and_quantization()"),
    _audio("models_variants", "models/__init__", "ta.models_variants()"),
    _audio("functional_gradients", FUNCTIONAL, "ta.functional_gradients()"),
    _audio("spectral_edge_cases", FUNCTIONAL, "ta.spectral_edge_cases()"),
    _audio("dtypes_and_errors", FUNCTIONAL, "ta.dtypes_and_errors()"),
]


# torchaudio's tutorials (examples/tutorials, each pinned at the commit its text was read at), run against the v2.8.0
# package: a seeded waveform for each asset ``torchaudio.load`` would read, prints of what the tutorial plots
AUDIO_AT = [(*AUDIO[:2], *entry) for entry in AUDIO_PACKAGE]  # the package from the release commit
TA = "__import__('corpus_torchaudio')"
NO_AUDIO_VERSION = ("print(torchaudio.__version__)\n", "")  # version.py is generated at build time: not fetched


def _tutorial(name, commit, path, edits):
    return _r(f"ta_tut_{name}", (AUDIO[0], commit, AUDIO[2]), f"examples/tutorials/{path}",
              [NO_AUDIO_VERSION, *edits], support=AUDIO_AT)


RECIPES += [
    _tutorial("feature_augmentation", "09cc135d322a76b7de2bfb3e8c9df28f2f170020",
              "audio_feature_augmentation_tutorial.py", [
                  ("from torchaudio.utils import _download_asset\n", ""),  # (2.8 names it download_asset)
                  ('_download_asset("tutorial-assets/Lab41-SRI-VOiCES-src-sp0307-ch127535-sg0042.wav")', "None"),
                  ("    return torchaudio.load(path)", f"    return {TA}.waveform(1, 16000, 16000), 16000"),
                  ("spec_09 = stretch(spec, overriding_rate=0.9)\n",
                   "spec_09 = stretch(spec, overriding_rate=0.9)\n"
                   f"{TA}.show('spec', spec); {TA}.show('spec_12', spec_12); {TA}.show('spec_09', spec_09)\n"),
                  ("    waveform = ispec(spec)\n", f"    waveform = ispec(spec)\n    {TA}.show('preview', waveform)\n"),
                  ("freq_masked = freq_masking(spec)\n", "freq_masked = freq_masking(spec)\n"
                   f"{TA}.show('time_masked', time_masked); {TA}.show('freq_masked', freq_masked)\n")]),
    _tutorial("filter_design", "131ffa50cf2ccbb67130d6ef3a670b1bc7977f8e", "filter_design_tutorial.py", [
        ("frs = torch.fft.rfft(irs, n=2048, dim=1).abs()\n",
         f"frs = torch.fft.rfft(irs, n=2048, dim=1).abs()\n{TA}.show('lowpass irs', irs); {TA}.show('lowpass frs', frs)\n"),
        ("plot_sinc_fr(frs, cutoff, legend=\"center right\")\n",
         f"plot_sinc_fr(frs, cutoff, legend=\"center right\")\n{TA}.show('highpass irs', irs); {TA}.show('highpass frs', frs)\n"),
        ("plot_sinc_fr(frs, coff, legend=\"right\", band=True)\n",
         f"plot_sinc_fr(frs, coff, legend=\"right\", band=True)\n{TA}.show('bandpass irs', irs); print(coff)\n"),
        ("    fr = torch.fft.rfft(ir, n=num_fft, dim=0).abs()\n",
         f"    fr = torch.fft.rfft(ir, n=num_fft, dim=0).abs()\n    {TA}.show('ir', ir); {TA}.show('fr', fr)\n")]),
]
SHOW_WAVEFORM = ("    waveform /= waveform.abs().max()\n",  # each synthesised sound, before it is normalised for playing
                 f"    {TA}.show('waveform', waveform)\n    waveform /= waveform.abs().max()\n")
RECIPES += [
    _tutorial("oscillator", "53ac75993bd42f6027d9eb5430ca96720030120a", "oscillator_tutorial.py",
              [SHOW_WAVEFORM, ("    axes[1].plot(t, amp)\n", f"    axes[1].plot(t, amp)\n    {TA}.show('amp', amp)\n")]),
    _tutorial("additive_synthesis", "47716772237c9efb92b7dff434da67a6176da098", "additive_synthesis_tutorial.py",
              [SHOW_WAVEFORM]),
    _tutorial("subtractive_synthesis", "288eff793807132e270be66b26a2a8802efeb499",
              "subtractive_synthesis_tutorial.py", [
                  ("duration = 4\n", "duration = 1\n"),  # one second of noise, not four
                  SHOW_WAVEFORM,
                  ("    return Audio(filtered, rate=sample_rate)",
                   f"    {TA}.show('filtered', filtered)\n    return Audio(filtered, rate=sample_rate)")]),
]
SPEECH = "_download_asset(\"tutorial-assets/Lab41-SRI-VOiCES-src-sp0307-ch127535-sg0042.wav\")"  # VOiCES' sample
RECIPES += [
    _tutorial("feature_extractions", "09cc135d322a76b7de2bfb3e8c9df28f2f170020",
              "audio_feature_extractions_tutorial.py", [
                  ("from torchaudio.utils import _download_asset\n", ""), (SPEECH, "None"),
                  ("SPEECH_WAVEFORM, SAMPLE_RATE = torchaudio.load(SAMPLE_SPEECH)",  # one second of the chord at 16 kHz
                   f"SPEECH_WAVEFORM, SAMPLE_RATE = {TA}.waveform(1, 16000, 16000), 16000"),
                  ("    waveform = waveform.numpy()\n", f"    {TA}.show(title, waveform)\n    waveform = waveform.numpy()\n"),
                  ("    ax.imshow(power_to_db(specgram), ",  # (its dB image would show noise-floor bins 1e-11 below
                   # the peak: float32 FFT rounding, which differs between torch's FFT and core's by 0.1% there)
                   f"    {TA}.show(f'{{title}} {{ylabel}}', specgram)\n    ax.imshow(power_to_db(specgram), "),
                  ("    axs.imshow(fbank, aspect=\"auto\")", f"    {TA}.show(title, fbank)\n    axs.imshow(fbank, aspect=\"auto\")"),
                  ("    axis2.legend(loc=0)", f"    {TA}.show('pitch', pitch)\n    axis2.legend(loc=0)")]),
]
