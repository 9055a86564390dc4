"""Drivers for Captum's own Python package (``recipes_captum.py``; our text).

A recipe fetches one of Captum's package modules (``captum/attr/__init__.py``...) as its script, with the whole
package beside it, and appends calls to the drivers here; the runner loads the package from the script's folder in
both runs (``runner._fetched_packages``). The drivers call Captum as its documentation and tutorials do, on small
seeded models of ours built from explicit modules (Captum's DeepLift, GuidedBackprop and LRP hook ``nn.ReLU``,
``nn.MaxPool2d``... modules): each attribution is printed as its shape, dtype, first values and sum to 7 decimals,
with the convergence deltas where the method returns them.
"""

from __future__ import annotations

import torch
from corpus_show import show as _show

nn = torch.nn


def _number(v: float, decimals: int = 7) -> str:
    """Seven significant digits, but ``decimals`` under 1 (where a cancelling sum leaves float32 rounding noise)."""
    return f"{v:.7g}" if abs(v) >= 1 else f"{v:.{decimals}f}"


_SHOWN = int(__import__("os").environ.get("CORPUS_CAPTUM_SHOWN", 12))  # (all of them, to find a difference)


def _sums(t) -> str:
    t = t.detach().double()
    return f"sum {_number(t.sum().item(), 6)} abs {_number(t.abs().sum().item(), 6)}" if t.numel() else "empty"


def show(name, value):
    """A tensor (or tuple of them): shape, dtype, its values (the first 12 of a larger one), its sum and absolute
    sum, each number to seven significant digits (what core and torch are compared on); under 1, to 7 decimals
    (sums to 6): a cancelling difference of outputs or a sum over hundreds of them keeps the float32 matrix
    products' and convolutions' last-bit rounding, which is not torch's (tests/external/README.md)."""
    if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v)
        return
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        flat = value.detach().flatten().tolist()
        print(name, tuple(value.shape), str(value.dtype).replace("torch.", ""),
              [_number(v) for v in flat[:_SHOWN]], _sums(value))
        return
    _show(name, value, summary=_sums)


def attempt(name, fn):
    """``fn()`` shown, or the exception it raised (the failure is the output, in both libraries)."""
    try:
        show(name, fn())
    except Exception as exc:
        print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:120] if str(exc) else "")


class ConvNet(nn.Module):
    """A CIFAR-tutorial-like CNN at 1x10x10: conv, ReLU, max-pool, conv, ReLU, two Linear layers with a ReLU."""

    def __init__(self, classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.relu1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 6, 2)
        self.relu2 = nn.ReLU()
        self.fc1 = nn.Linear(6 * 3 * 3, 8)
        self.relu3 = nn.ReLU()
        self.fc2 = nn.Linear(8, classes)

    def forward(self, x):
        x = self.pool1(self.relu1(self.conv1(x)))
        x = self.relu2(self.conv2(x))
        return self.fc2(self.relu3(self.fc1(x.flatten(1))))


class TabularNet(nn.Module):
    """The Titanic tutorial's model in miniature: Linear, Sigmoid, Linear, Tanh, Linear, Softmax over 2 classes."""

    def __init__(self, features=6):
        super().__init__()
        self.linear1 = nn.Linear(features, 8)
        self.sigmoid1 = nn.Sigmoid()
        self.linear2 = nn.Linear(8, 5)
        self.tanh = nn.Tanh()
        self.linear3 = nn.Linear(5, 2)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        return self.softmax(self.linear3(self.tanh(self.linear2(self.sigmoid1(self.linear1(x))))))


class TwoInputNet(nn.Module):
    """Two inputs and an extra forward argument, as Captum's multi-input examples: ReLU(x1 W1 + x2 W2) * scale."""

    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(4, 5)
        self.lin2 = nn.Linear(3, 5)
        self.relu = nn.ReLU()
        self.out = nn.Linear(5, 3)

    def forward(self, x1, x2, scale=1.0):
        return self.out(self.relu(self.lin1(x1) + self.lin2(x2))) * scale


class TextNet(nn.Module):
    """The IMDB tutorial's classifier in miniature: an embedding, a 1-d convolution, max over time, a Linear."""

    def __init__(self, vocab=30, dim=6):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
        self.conv = nn.Conv1d(dim, 5, 3)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(5, 2)

    def forward(self, tokens):
        x = self.relu(self.conv(self.embedding(tokens).permute(0, 2, 1)))
        return self.fc(x.max(dim=2).values)


class LSTMNet(nn.Module):
    """An embedding, an LSTM and a Linear on its last hidden state."""

    def __init__(self, vocab=30, dim=5, hidden=6):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 3)

    def forward(self, tokens):
        out, (h, c) = self.lstm(self.embedding(tokens))
        return self.fc(h[-1])


def _seeded(cls, *args, seed=0):
    torch.manual_seed(seed)
    model = cls(*args)
    model.eval()
    return model


def images(n=3, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, 1, 10, 10, generator=g)


def rows(n=4, features=6, seed=2):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, features, generator=g)


def tokens(n=2, length=7, seed=3):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(1, 30, (n, length), generator=g)


# captum.attr: gradient methods ------------------------------------------------------------------------------------


def gradient_methods():
    """Saliency (abs and signed), InputXGradient, GuidedBackprop and Deconvolution on the CNN, each class a target;
    on two inputs with an additional forward argument; targets as a list per example."""
    from captum.attr import Deconvolution, GuidedBackprop, InputXGradient, Saliency

    net, x = _seeded(ConvNet), images()
    show("logits", net(x))
    for cls in (Saliency, InputXGradient, GuidedBackprop, Deconvolution):
        method = cls(net)
        for target in (0, 2):
            show(f"{cls.__name__} target {target}", method.attribute(x, target=target))
        show(f"{cls.__name__} targets per example", method.attribute(x, target=[0, 1, 3]))
    show("Saliency abs=False", Saliency(net).attribute(x, target=1, abs=False))
    two = _seeded(TwoInputNet)
    x1, x2 = rows(3, 4), rows(3, 3, seed=5)
    show("Saliency two inputs", Saliency(two).attribute((x1, x2), target=2, additional_forward_args=(0.5,)))
    show("InputXGradient two inputs", InputXGradient(two).attribute((x1, x2), target=(1, 0, 2)[0]))
    show("GuidedBackprop two inputs", GuidedBackprop(two).attribute((x1, x2), target=1))
    show("the model's parameters after", [p.sum() for p in net.parameters()])
    print("hooks left on ReLUs:", sum(len(m._forward_hooks) + len(m._backward_hooks) for m in net.modules()))


def integrated_gradients():
    """IntegratedGradients with each approximation method (Riemann left/right/middle/trapezoid, Gauss-Legendre from
    NumPy's nodes), convergence deltas, internal batching, scalar and tensor baselines, multiple inputs and
    ``multiply_by_inputs=False``."""
    from captum.attr import IntegratedGradients

    net, x = _seeded(TabularNet), rows()
    ig = IntegratedGradients(net)
    for method in ("riemann_left", "riemann_right", "riemann_middle", "riemann_trapezoid", "gausslegendre"):
        attr, delta = ig.attribute(x, target=1, n_steps=20, method=method, return_convergence_delta=True)
        show(f"IG {method}", attr)
        show(f"IG {method} delta", delta)
    show("IG internal_batch_size=7", ig.attribute(x, target=0, n_steps=20, internal_batch_size=7))
    show("IG scalar baseline", ig.attribute(x, baselines=0.5, target=0, n_steps=16))
    show("IG tensor baseline", ig.attribute(x, baselines=x.mean(0, keepdim=True), target=1, n_steps=16))
    show("IG no multiply", IntegratedGradients(net, multiply_by_inputs=False).attribute(x, target=1, n_steps=16))
    two = _seeded(TwoInputNet)
    x1, x2 = rows(3, 4), rows(3, 3, seed=5)
    attr, delta = IntegratedGradients(two).attribute((x1, x2), baselines=(torch.zeros(1, 4), 0.1), target=[0, 1, 2],
                                                     additional_forward_args=(2.0,), n_steps=25,
                                                     return_convergence_delta=True)
    show("IG two inputs", attr)
    show("IG two inputs delta", delta)
    cnn, imgs = _seeded(ConvNet), images(2)
    show("IG CNN", IntegratedGradients(cnn).attribute(imgs, target=3, n_steps=12, internal_batch_size=5))


def noise_tunnel():
    """NoiseTunnel (smoothgrad, smoothgrad_sq, vargrad) over Saliency, IntegratedGradients and InputXGradient:
    torch's seeded normal noise, samples in batches, baselines drawn from a distribution."""
    from captum.attr import InputXGradient, IntegratedGradients, NoiseTunnel, Saliency

    net, x = _seeded(TabularNet), rows(3)
    for nt_type in ("smoothgrad", "smoothgrad_sq", "vargrad"):
        torch.manual_seed(0)
        show(f"NT saliency {nt_type}", NoiseTunnel(Saliency(net)).attribute(x, nt_type=nt_type, nt_samples=6,
                                                                            stdevs=0.3, target=1))
    torch.manual_seed(1)
    attr, delta = NoiseTunnel(IntegratedGradients(net)).attribute(
        x, nt_type="smoothgrad", nt_samples=4, nt_samples_batch_size=3, stdevs=0.2, target=0, n_steps=10,
        return_convergence_delta=True)
    show("NT IG", attr)
    show("NT IG delta", delta)
    torch.manual_seed(2)
    show("NT IxG stdevs per input", NoiseTunnel(InputXGradient(net)).attribute(x, nt_samples=5, stdevs=0.5, target=1))
    torch.manual_seed(3)
    show("NT IG baselines from distribution",
         NoiseTunnel(IntegratedGradients(net)).attribute(x, nt_samples=3, stdevs=0.1, target=1, n_steps=8,
                                                         baselines=rows(5, seed=9), draw_baseline_from_distrib=True))
    cnn = _seeded(ConvNet)
    torch.manual_seed(4)
    show("NT saliency CNN", NoiseTunnel(Saliency(cnn)).attribute(images(2), nt_type="vargrad", nt_samples=3,
                                                                  stdevs=0.1, target=2))


def deeplift():
    """DeepLift's rescale rule through ReLU, max-pooling, Sigmoid, Tanh and Softmax (its backward hooks replace
    the nonlinearities' gradients), with convergence deltas, a custom attribution function and
    ``multiply_by_inputs=False``; DeepLiftShap over a distribution of baselines."""
    from captum.attr import DeepLift, DeepLiftShap

    cnn, x = _seeded(ConvNet), images()
    dl = DeepLift(cnn)
    attr, delta = dl.attribute(x, baselines=x * 0.1, target=2, return_convergence_delta=True)
    show("DeepLift CNN", attr)
    show("DeepLift CNN delta", delta)
    show("DeepLift CNN zero baseline", dl.attribute(x, target=[0, 1, 2]))
    tab, rs = _seeded(TabularNet), rows()
    attr, delta = DeepLift(tab).attribute(rs, baselines=torch.zeros(1, 6), target=1, return_convergence_delta=True)
    show("DeepLift sigmoid/tanh/softmax", attr)
    show("DeepLift sigmoid/tanh/softmax delta", delta)
    show("DeepLift no multiply", DeepLift(tab, multiply_by_inputs=False).attribute(rs, target=0))
    show("DeepLift custom function", DeepLift(tab).attribute(
        rs, target=0, custom_attribution_func=lambda mult, inp, base: tuple(m * (i - b) ** 2 for m, i, b in
                                                                             zip(mult, inp, base))))
    attr, delta = DeepLiftShap(tab).attribute(rs, baselines=rows(5, seed=7), target=1, return_convergence_delta=True)
    show("DeepLiftShap", attr)
    show("DeepLiftShap delta", delta)
    show("DeepLiftShap CNN", DeepLiftShap(cnn).attribute(x[:2], baselines=images(3, seed=8) * 0.5, target=3))
    two = _seeded(TwoInputNet)
    show("DeepLift two inputs", DeepLift(two).attribute((rows(3, 4), rows(3, 3, seed=5)), target=1,
                                                        additional_forward_args=(3.0,)))


def gradient_shap():
    """GradientShap: seeded random baselines and noise (``n_samples``, ``stdevs``), deltas, two inputs."""
    from captum.attr import GradientShap

    tab, x = _seeded(TabularNet), rows()
    for stdevs in (0.0, 0.09):
        torch.manual_seed(5)
        attr, delta = GradientShap(tab).attribute(x, baselines=rows(6, seed=11), n_samples=8, stdevs=stdevs,
                                                  target=1, return_convergence_delta=True)
        show(f"GradientShap stdevs {stdevs}", attr)
        show(f"GradientShap stdevs {stdevs} delta", delta)
    torch.manual_seed(6)
    two = _seeded(TwoInputNet)
    torch.manual_seed(6)
    show("GradientShap two inputs", GradientShap(two).attribute(
        (rows(3, 4), rows(3, 3, seed=5)), baselines=(torch.zeros(4, 4), torch.randn(4, 3)), target=2,
        n_samples=5, stdevs=(0.1, 0.2)))
    torch.manual_seed(7)
    show("GradientShap no multiply", GradientShap(tab, multiply_by_inputs=False).attribute(
        x, baselines=torch.zeros(2, 6), target=0, n_samples=4))


# captum.attr: perturbation methods --------------------------------------------------------------------------------


def perturbation_methods():
    """Occlusion (windows and strides), FeatureAblation (feature masks, several perturbations per evaluation),
    FeaturePermutation (torch's seeded permutations), ShapleyValueSampling and exact ShapleyValues."""
    from captum.attr import FeatureAblation, FeaturePermutation, Occlusion, ShapleyValues, ShapleyValueSampling

    cnn, x = _seeded(ConvNet), images(2)
    occ = Occlusion(cnn)
    show("Occlusion 3x3 stride 2", occ.attribute(x, sliding_window_shapes=(1, 3, 3), strides=(1, 2, 2), target=1))
    show("Occlusion 4x4 baseline 0.5", occ.attribute(x, sliding_window_shapes=(1, 4, 4), strides=3, baselines=0.5,
                                                    target=[0, 3], perturbations_per_eval=4))
    mask = (torch.arange(100).reshape(1, 1, 10, 10) // 25)  # four horizontal bands
    show("FeatureAblation bands", FeatureAblation(cnn).attribute(x, feature_mask=mask, target=2))
    tab, rs = _seeded(TabularNet), rows(5)
    fa = FeatureAblation(tab)
    show("FeatureAblation per feature", fa.attribute(rs, target=1))
    show("FeatureAblation groups", fa.attribute(rs, baselines=rs.mean(0, keepdim=True), target=0,
                                                feature_mask=torch.tensor([[0, 0, 1, 1, 2, 2]]),
                                                perturbations_per_eval=3))
    show("FeatureAblation no target (output per example)", FeatureAblation(lambda r: tab(r)[:, 1]).attribute(rs))
    for seed in (0, 1):
        torch.manual_seed(seed)
        show(f"FeaturePermutation seed {seed}", FeaturePermutation(tab).attribute(rs, target=1))
    torch.manual_seed(2)
    show("FeaturePermutation groups", FeaturePermutation(tab).attribute(
        rs, target=0, feature_mask=torch.tensor([[0, 1, 1, 2, 2, 0]]), perturbations_per_eval=2))
    torch.manual_seed(3)
    show("ShapleyValueSampling", ShapleyValueSampling(tab).attribute(rs[:2], target=1, n_samples=6))
    torch.manual_seed(4)
    show("ShapleyValueSampling groups", ShapleyValueSampling(tab).attribute(
        rs[:2], baselines=0.2, target=0, feature_mask=torch.tensor([[0, 0, 1, 1, 2, 2]]), n_samples=4,
        perturbations_per_eval=3))
    show("ShapleyValues exact", ShapleyValues(tab).attribute(rs[:2], target=1,
                                                             feature_mask=torch.tensor([[0, 1, 1, 2, 3, 3]])))
    two = _seeded(TwoInputNet)
    show("FeatureAblation two inputs", FeatureAblation(two).attribute(
        (rows(2, 4), rows(2, 3, seed=5)), target=1, additional_forward_args=(0.5,)))


def surrogate_methods():
    """Lime with Captum's own torch-trained linear models (SGDLasso, SGDLinearRegression, SGDRidge) and KernelShap
    with its scikit-learn linear regression (the runner's stand-in fits it by least squares): seeded samples."""
    from captum._utils.models.linear_model import SGDLasso, SGDLinearRegression, SGDRidge
    from captum.attr import KernelShap, Lime
    from captum.attr._core.lime import get_exp_kernel_similarity_function

    tab, x = _seeded(TabularNet), rows(1)
    mask = torch.tensor([[0, 0, 1, 1, 2, 3]])
    for model in (SGDLasso, SGDLinearRegression, SGDRidge):
        torch.manual_seed(0)
        lime = Lime(tab, interpretable_model=model(),
                    similarity_func=get_exp_kernel_similarity_function("euclidean", kernel_width=1.0))
        show(f"Lime {model.__name__}", lime.attribute(x, target=1, feature_mask=mask, n_samples=20))
    torch.manual_seed(1)
    lime = Lime(tab, interpretable_model=SGDLinearRegression())
    show("Lime interpretable coefficients", lime.attribute(x, target=0, feature_mask=mask, n_samples=16,
                                                           perturbations_per_eval=4, return_input_shape=False))
    torch.manual_seed(2)
    show("KernelShap", KernelShap(tab).attribute(x, baselines=torch.zeros(1, 6), target=1, feature_mask=mask,
                                                 n_samples=30))
    torch.manual_seed(3)
    show("KernelShap per feature", KernelShap(tab).attribute(x, target=0, n_samples=40, perturbations_per_eval=8))


# captum.attr: layer and neuron methods ----------------------------------------------------------------------------


def layer_methods():
    """LayerConductance, LayerActivation, LayerGradientXActivation, InternalInfluence, LayerGradientShap,
    LayerDeepLift(Shap), LayerFeatureAblation on the CNN's and the tabular model's layers, to their outputs and
    inputs, with deltas."""
    from captum.attr import (
        InternalInfluence,
        LayerActivation,
        LayerConductance,
        LayerDeepLift,
        LayerDeepLiftShap,
        LayerFeatureAblation,
        LayerGradientShap,
        LayerGradientXActivation,
    )

    cnn, x = _seeded(ConvNet), images(2)
    tab, rs = _seeded(TabularNet), rows()
    attr, delta = LayerConductance(tab, tab.sigmoid1).attribute(rs, target=1, n_steps=20,
                                                                return_convergence_delta=True)
    show("LayerConductance sigmoid1", attr)
    show("LayerConductance sigmoid1 delta", delta)
    show("LayerConductance conv2", LayerConductance(cnn, cnn.conv2).attribute(x, target=2, n_steps=10,
                                                                              internal_batch_size=6))
    show("LayerActivation fc1", LayerActivation(cnn, cnn.fc1).attribute(x))
    show("LayerActivation [conv1, fc1]", LayerActivation(cnn, [cnn.conv1, cnn.fc1]).attribute(x))
    show("LayerActivation fc2 input", LayerActivation(cnn, cnn.fc2).attribute(x, attribute_to_layer_input=True))
    show("LayerGradientXActivation conv1", LayerGradientXActivation(cnn, cnn.conv1).attribute(x, target=0))
    show("LayerGradientXActivation no multiply", LayerGradientXActivation(
        tab, tab.linear2, multiply_by_inputs=False).attribute(rs, target=1))
    show("InternalInfluence linear2", InternalInfluence(tab, tab.linear2).attribute(rs, target=0, n_steps=15))
    torch.manual_seed(0)
    attr, delta = LayerGradientShap(tab, tab.linear1).attribute(rs, baselines=rows(4, seed=12), n_samples=6,
                                                                stdevs=0.1, target=1, return_convergence_delta=True)
    show("LayerGradientShap linear1", attr)
    show("LayerGradientShap linear1 delta", delta)
    attr, delta = LayerDeepLift(cnn, cnn.conv2).attribute(x, baselines=x * 0.2, target=1,
                                                          return_convergence_delta=True)
    show("LayerDeepLift conv2", attr)
    show("LayerDeepLift conv2 delta", delta)
    show("LayerDeepLift fc1 input", LayerDeepLift(cnn, cnn.fc1).attribute(x, target=3, attribute_to_layer_input=True))
    show("LayerDeepLiftShap sigmoid1", LayerDeepLiftShap(tab, tab.sigmoid1).attribute(rs, baselines=rows(3, seed=13),
                                                                                       target=0))
    show("LayerFeatureAblation linear2", LayerFeatureAblation(tab, tab.linear2).attribute(rs, target=1))
    show("LayerFeatureAblation conv1 mask", LayerFeatureAblation(cnn, cnn.conv1).attribute(
        x, target=0, layer_mask=torch.tensor([[[[0]], [[0]], [[1]], [[1]]]])))


def embedding_attribution():
    """The IMDB tutorial's pattern: LayerIntegratedGradients on an embedding layer (padding-token baselines), with
    deltas and internal batching, summed over the embedding; on an LSTM model too; TokenReferenceBase's reference
    sequence; configure/remove_interpretable_embedding_layer with IntegratedGradients on the embeddings."""
    from captum.attr import (
        IntegratedGradients,
        LayerIntegratedGradients,
        TokenReferenceBase,
        configure_interpretable_embedding_layer,
        remove_interpretable_embedding_layer,
    )

    net, toks = _seeded(TextNet), tokens()
    reference = TokenReferenceBase(reference_token_idx=0).generate_reference(7, device="cpu").unsqueeze(0)
    print("reference", reference.tolist())
    lig = LayerIntegratedGradients(net, net.embedding)
    attr, delta = lig.attribute(toks, baselines=reference.expand(2, -1), target=1, n_steps=20,
                                return_convergence_delta=True, internal_batch_size=13)
    show("LIG embedding", attr)
    show("LIG per token", attr.sum(dim=2))
    show("LIG delta", delta)
    lstm = _seeded(LSTMNet)
    attr = LayerIntegratedGradients(lstm, lstm.embedding).attribute(toks, target=2, n_steps=10)
    show("LIG LSTM per token", attr.sum(dim=2))
    interpretable = configure_interpretable_embedding_layer(net, "embedding")
    embedded = interpretable.indices_to_embeddings(toks)
    show("IG on embeddings", IntegratedGradients(net).attribute(embedded, target=1, n_steps=10).sum(2))
    remove_interpretable_embedding_layer(net, interpretable)
    show("model after removal", net(toks))


def gradcam_methods():
    """LayerGradCam (ReLU'd and not, channel sums kept), LayerAttribution.interpolate to the input's size (nearest,
    bilinear, area), GuidedGradCam, NeuronGuidedBackprop/NeuronDeconvolution."""
    from captum.attr import GuidedGradCam, LayerAttribution, LayerGradCam, NeuronDeconvolution, NeuronGuidedBackprop

    cnn, x = _seeded(ConvNet), images(2)
    gc = LayerGradCam(cnn, cnn.conv2)
    cam = gc.attribute(x, target=1)
    show("GradCam conv2", cam)
    show("GradCam relu", gc.attribute(x, target=2, relu_attributions=True))
    show("GradCam per channel", gc.attribute(x, target=0, attr_dim_summation=False))
    for mode in ("nearest", "bilinear", "area"):
        show(f"interpolate {mode}", LayerAttribution.interpolate(cam, (10, 10), interpolate_mode=mode))
    show("GradCam conv1", LayerGradCam(cnn, cnn.conv1).attribute(x, target=3))
    show("GuidedGradCam conv2", GuidedGradCam(cnn, cnn.conv2).attribute(x, target=1))
    show("GuidedGradCam conv1 bilinear", GuidedGradCam(cnn, cnn.conv1).attribute(x, target=0,
                                                                                 interpolate_mode="bilinear"))
    show("NeuronGuidedBackprop", NeuronGuidedBackprop(cnn, cnn.fc1).attribute(x, neuron_selector=3))
    show("NeuronDeconvolution", NeuronDeconvolution(cnn, cnn.conv2).attribute(x, neuron_selector=(1, 0, 2)))


def neuron_methods():
    """NeuronConductance, NeuronGradient, NeuronIntegratedGradients, NeuronGradientShap, NeuronDeepLift(Shap) and
    NeuronFeatureAblation, with neurons picked by index tuples, by slices and by a function of the layer's output."""
    from captum.attr import (
        NeuronConductance,
        NeuronDeepLift,
        NeuronDeepLiftShap,
        NeuronFeatureAblation,
        NeuronGradient,
        NeuronGradientShap,
        NeuronIntegratedGradients,
    )

    tab, rs = _seeded(TabularNet), rows()
    cnn, x = _seeded(ConvNet), images(2)
    show("NeuronConductance sigmoid1[3]", NeuronConductance(tab, tab.sigmoid1).attribute(rs, neuron_selector=3,
                                                                                          target=1, n_steps=20))
    show("NeuronConductance conv2 (2,1,1)", NeuronConductance(cnn, cnn.conv2).attribute(
        x, neuron_selector=(2, 1, 1), target=0, n_steps=10, internal_batch_size=7))
    show("NeuronGradient linear2[4]", NeuronGradient(tab, tab.linear2).attribute(rs, neuron_selector=4))
    show("NeuronGradient conv1 slice", NeuronGradient(cnn, cnn.conv1).attribute(
        x, neuron_selector=(slice(0, 2), 3, slice(2, 5))))
    show("NeuronGradient by function", NeuronGradient(cnn, cnn.fc1).attribute(
        x, neuron_selector=lambda out: out[:, 1:4].sum(1)))
    show("NeuronIntegratedGradients", NeuronIntegratedGradients(tab, tab.linear1).attribute(
        rs, neuron_selector=2, n_steps=15, method="riemann_trapezoid"))
    torch.manual_seed(0)
    show("NeuronGradientShap", NeuronGradientShap(tab, tab.linear2).attribute(rs, neuron_selector=1,
                                                                              baselines=rows(3, seed=14),
                                                                              n_samples=5, stdevs=0.05))
    show("NeuronDeepLift", NeuronDeepLift(cnn, cnn.relu3).attribute(x, neuron_selector=5, baselines=x * 0.3))
    show("NeuronDeepLift to input", NeuronDeepLift(tab, tab.linear2).attribute(
        rs, neuron_selector=0, attribute_to_neuron_input=True))
    show("NeuronDeepLiftShap", NeuronDeepLiftShap(tab, tab.sigmoid1).attribute(rs, neuron_selector=6,
                                                                                baselines=rows(3, seed=15)))
    show("NeuronFeatureAblation", NeuronFeatureAblation(tab, tab.linear2).attribute(
        rs, neuron_selector=3, feature_mask=torch.tensor([[0, 0, 1, 1, 2, 2]])))


def lrp():
    """LRP with Captum's default rules (epsilon for Linear and Conv, pass-through for ReLU), its own rules set per
    Linear layer (GammaRule, EpsilonRule), convergence deltas; LayerLRP."""
    from captum.attr import LRP, LayerLRP
    from captum.attr._utils.lrp_rules import EpsilonRule, GammaRule

    cnn, x = _seeded(ConvNet), images(2)
    attr, delta = LRP(cnn).attribute(x, target=1, return_convergence_delta=True)
    show("LRP default rules", attr)
    show("LRP delta", delta)
    cnn.fc1.rule, cnn.fc2.rule = GammaRule(gamma=0.25), EpsilonRule(epsilon=0.1)
    show("LRP own rules", LRP(cnn).attribute(x, target=2))
    plain = _seeded(ConvNet)
    attr, delta = LayerLRP(plain, plain.fc1).attribute(x, target=0, return_convergence_delta=True)
    show("LayerLRP fc1", attr)
    show("LayerLRP fc1 delta", delta)
    show("LayerLRP [conv2, fc1] input", LayerLRP(plain, [plain.conv2, plain.fc1]).attribute(
        x, target=3, attribute_to_layer_input=True))
    print("parameters unchanged:", all(torch.equal(a, b) for a, b in zip(plain.parameters(),
                                                                          _seeded(ConvNet).parameters())))


# captum.metrics and captum.robust ---------------------------------------------------------------------------------


def metrics():
    """infidelity with a seeded perturbation function (with and without normalisation, batched), and sensitivity_max
    of Saliency and IntegratedGradients under Captum's default uniform perturbations."""
    from captum.attr import IntegratedGradients, Saliency
    from captum.metrics import infidelity, infidelity_perturb_func_decorator, sensitivity_max

    tab, x = _seeded(TabularNet), rows()

    def perturb_fn(inputs):
        noise = torch.randn(inputs.shape) * 0.05
        return noise, inputs - noise

    @infidelity_perturb_func_decorator(multiply_by_inputs=True)
    def perturb_decorated(inputs, baselines):
        return inputs - torch.randn(inputs.shape) * 0.05 * (inputs - baselines)

    ig = IntegratedGradients(tab)
    attr = ig.attribute(x, target=1, n_steps=20)
    for normalize in (False, True):
        torch.manual_seed(0)
        show(f"infidelity normalize={normalize}", infidelity(tab, perturb_fn, x, attr, target=1,
                                                             n_perturb_samples=6, normalize=normalize))
    torch.manual_seed(1)
    show("infidelity batched", infidelity(tab, perturb_fn, x, attr, target=1, n_perturb_samples=6,
                                          max_examples_per_batch=5))
    torch.manual_seed(2)
    show("infidelity decorated", infidelity(tab, perturb_decorated, x, attr, baselines=torch.zeros(1, 6),
                                            target=1, n_perturb_samples=4))
    torch.manual_seed(3)
    show("sensitivity saliency", sensitivity_max(Saliency(tab).attribute, x, target=1, n_perturb_samples=5))
    torch.manual_seed(4)
    show("sensitivity IG", sensitivity_max(ig.attribute, x, target=0, n_steps=10, perturb_radius=0.1,
                                           n_perturb_samples=4, max_examples_per_batch=8))


def robust():
    """FGSM (untargeted and targeted, bounded, masked), PGD (L2, Linf with a random start from torch's seeded RNG),
    AttackComparator over FGSM and a noise transform, MinParamPerturbation's search for the smallest epsilon."""
    from captum.robust import FGSM, PGD, AttackComparator, MinParamPerturbation

    cnn, x = _seeded(ConvNet), images(3)
    labels = cnn(x).argmax(1)
    print("labels", labels.tolist())
    fgsm = FGSM(cnn, lower_bound=0.0, upper_bound=1.0)
    adv = fgsm.perturb(x, epsilon=0.1, target=labels)
    show("FGSM", adv)
    print("FGSM predictions", cnn(adv).argmax(1).tolist())
    show("FGSM targeted", fgsm.perturb(x, epsilon=0.05, target=torch.tensor([3, 3, 3]), targeted=True))
    mask = torch.zeros_like(x)
    mask[..., 2:8, 2:8] = 1
    show("FGSM masked", fgsm.perturb(x, epsilon=0.2, target=labels, mask=mask))
    pgd = PGD(cnn, lower_bound=0.0, upper_bound=1.0)
    show("PGD Linf", pgd.perturb(x, radius=0.1, step_size=0.02, step_num=5, target=labels))
    show("PGD L2", pgd.perturb(x, radius=0.5, step_size=0.1, step_num=4, target=labels, norm="L2"))
    torch.manual_seed(0)  # (its L2 random start broadcasts a per-example norm over the last dim: 4-d input fails)
    show("PGD Linf random start", pgd.perturb(x, radius=0.1, step_size=0.02, step_num=3, target=labels,
                                              random_start=True))
    show("PGD targeted", pgd.perturb(x, radius=0.2, step_size=0.05, step_num=3, target=1, targeted=True))

    def accuracy(out, target):
        return (out.argmax(1) == target).float().mean()

    def gaussian_noise(inp, std):
        return inp + std * torch.randn_like(inp)

    torch.manual_seed(1)
    comparator = AttackComparator(forward_func=cnn, metric=accuracy)
    comparator.add_attack(FGSM(cnn), "FGSM", attack_kwargs={"epsilon": 0.15}, additional_attack_arg_names=["target"])
    comparator.add_attack(gaussian_noise, "noise", num_attempts=3, attack_kwargs={"std": 0.3})
    results = comparator.evaluate(x, target=labels, additional_forward_args=None)
    for name, value in sorted(results.items()):
        print(name, {k: round(float(v), 7) for k, v in sorted(value.items())} if isinstance(value, dict) else value)
    summary = comparator.summary()  # (sorted: its stats' order follows their classes' ids, see ``ordered``)
    print("summary", {k: {m: round(float(v), 7) for m, v in sorted(d.items())} for k, d in sorted(summary.items())})

    def correct(out, target):
        return bool((out.argmax(1) == target).all())

    search = MinParamPerturbation(forward_func=cnn, attack=FGSM(cnn), arg_name="epsilon", arg_min=0.0, arg_max=1.0,
                                  arg_step=0.05, correct_fn=correct)
    adv, eps = search.evaluate(x[:1], target=labels[:1], attack_kwargs={"target": labels[:1]},
                               correct_fn_kwargs={"target": labels[:1]})
    print("MinParamPerturbation epsilon", None if eps is None else round(float(eps), 7))
    if adv is not None:
        show("MinParamPerturbation input", adv)


class InplaceNet(nn.Module):
    """A torchvision-style block: conv, BatchNorm (eval), ``ReLU(inplace=True)``, a residual add, adaptive average
    pooling and a Linear; the in-place ReLUs are what Captum's hooks must work around."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1)
        self.relu2 = nn.ReLU(inplace=True)
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        h = self.relu1(self.bn1(self.conv1(x)))
        h = self.relu2(self.conv2(h) + h)
        return self.fc(self.pool(h).flatten(1))


def inplace_model():
    """Attributions of a model with in-place ReLUs and eval-mode BatchNorm (running statistics set from a seeded
    batch): Saliency, IntegratedGradients, DeepLift, GuidedBackprop, LayerGradCam on the residual block, LRP-free
    methods' NoiseTunnel; the model's output unchanged afterwards (no hook left behind)."""
    from captum.attr import (
        DeepLift,
        GuidedBackprop,
        IntegratedGradients,
        LayerAttribution,
        LayerGradCam,
        NoiseTunnel,
        Saliency,
    )

    net = _seeded(InplaceNet)
    net.train()
    net(images(8, seed=21))  # BatchNorm's running statistics
    net.eval()
    x = images(2)
    before = net(x).detach()
    show("logits", before)
    show("Saliency", Saliency(net).attribute(x, target=1))
    attr, delta = IntegratedGradients(net).attribute(x, target=2, n_steps=16, return_convergence_delta=True)
    show("IG", attr)
    show("IG delta", delta)
    attr, delta = DeepLift(net).attribute(x, baselines=x * 0.5, target=0, return_convergence_delta=True)
    show("DeepLift", attr)
    show("DeepLift delta", delta)
    show("GuidedBackprop", GuidedBackprop(net).attribute(x, target=1))
    cam = LayerGradCam(net, net.conv2).attribute(x, target=2, relu_attributions=True)
    show("GradCam conv2", cam)
    show("GradCam upsampled", LayerAttribution.interpolate(cam, (10, 10), interpolate_mode="bilinear"))
    torch.manual_seed(0)
    show("NoiseTunnel GuidedBackprop", NoiseTunnel(GuidedBackprop(net)).attribute(x, nt_samples=3, stdevs=0.1,
                                                                                   target=0))
    print("output unchanged:", torch.equal(before, net(x)))


def utilities():
    """Captum's gradient utilities and modules: per-sample gradients from SampleGradientWrapper's hooks (Linear and
    Conv2d), ``compute_gradients``, ``compute_layer_gradients_and_eval``, the stochastic gates (binary concrete and
    Gaussian) trained a few steps with their L0 regularisation, Summarizer statistics over batches of attributions,
    and the visualisation's normalisation of an attribution map."""
    from captum._utils.gradient import compute_gradients, compute_layer_gradients_and_eval
    from captum._utils.sample_gradient import SampleGradientWrapper
    from captum.attr import CommonStats, Saliency, Summarizer
    from captum.attr._utils.visualization import _cumulative_sum_threshold, _normalize_attr
    from captum.module import BinaryConcreteStochasticGates, GaussianStochasticGates

    cnn, x = _seeded(ConvNet), images(3)
    wrapper = SampleGradientWrapper(cnn)
    wrapper.add_hooks()
    out = cnn(x.clone().requires_grad_())  # (its backward hooks sit on each layer's input tensor too)
    wrapper.compute_param_sample_gradients(out[:, 1].sum(), loss_mode="sum")
    for name, p in cnn.named_parameters():
        show(f"sample grad {name}", p.sample_grad)
    wrapper.remove_hooks()
    show("compute_gradients", compute_gradients(cnn, x.clone().requires_grad_(), target_ind=2))
    grads, evals = compute_layer_gradients_and_eval(cnn, cnn.fc1, x, target_ind=0)
    show("layer grads fc1", grads)
    show("layer eval fc1", evals)
    for cls, kwargs in ((BinaryConcreteStochasticGates, {"temperature": 0.5}), (GaussianStochasticGates, {"std": 0.4})):
        torch.manual_seed(1)
        gates = cls(6, reg_weight=0.1, **kwargs)
        optimizer = torch.optim.Adam(gates.parameters(), lr=0.05)
        tab, rows_ = _seeded(TabularNet), rows(8)
        for step in range(4):
            gated, reg = gates(rows_)
            loss = tab(gated)[:, 1].sum() + reg
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"{cls.__name__} step {step} loss {loss.item():.6f} reg {reg.item():.6f}")
        gates.eval()
        show(f"{cls.__name__} gate values", gates.get_gate_values())
        show(f"{cls.__name__} active probabilities", gates.get_gate_active_probs())
    summary = Summarizer(CommonStats())
    saliency = Saliency(cnn)
    for seed in range(3):
        summary.update(saliency.attribute(images(2, seed=30 + seed), target=seed))
    for stat, value in sorted(summary.summary.items()):  # (its order follows the stats' hashes: classes' ids)
        show(f"summary {stat}", value)
    attr = saliency.attribute(x, target=1, abs=False)[0].permute(1, 2, 0).numpy()
    for sign in ("all", "positive", "negative", "absolute_value"):
        normalised = _normalize_attr(attr, sign, outlier_perc=2)
        print(f"normalised {sign}", normalised.shape, f"{normalised.sum():.6f}", f"{abs(normalised).max():.6f}")
    print("threshold", f"{_cumulative_sum_threshold(abs(attr), 98):.7f}")


class TinyTransformer(nn.Module):
    """A BERT-like classifier in miniature: token and position embeddings, one post-norm TransformerEncoderLayer
    (2 heads, GELU, no dropout), the first token's state through a Linear."""

    def __init__(self, vocab=30, dim=8, length=7):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
        self.position = nn.Embedding(length, dim)
        layer = nn.TransformerEncoderLayer(dim, 2, dim_feedforward=16, dropout=0.0, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.classifier = nn.Linear(dim, 2)

    def forward(self, tokens, mask=None):
        h = self.embedding(tokens) + self.position(torch.arange(tokens.shape[1]).expand_as(tokens))
        return self.classifier(self.encoder(h, src_key_padding_mask=mask)[:, 0])


def transformer_attribution():
    """The BERT tutorial's pattern on a tiny Transformer: LayerIntegratedGradients on the token embedding (padding
    references, deltas, a key-padding mask as an additional argument), on both embeddings at once, LayerConductance
    and LayerActivation of the encoder layer, InternalInfluence of its feed-forward Linear, FeatureAblation and
    Occlusion over token positions, and Saliency on the summed embeddings through ``forward`` hooks."""
    from captum.attr import (
        FeatureAblation,
        InternalInfluence,
        LayerActivation,
        LayerConductance,
        LayerIntegratedGradients,
        Occlusion,
        Saliency,
    )

    net, toks = _seeded(TinyTransformer), tokens()
    mask = torch.zeros(2, 7, dtype=torch.bool)
    mask[1, 5:] = True
    show("logits", net(toks, mask))
    reference = torch.zeros_like(toks)
    lig = LayerIntegratedGradients(net, net.embedding)
    attr, delta = lig.attribute(toks, baselines=reference, target=1, additional_forward_args=(mask,), n_steps=16,
                                return_convergence_delta=True)
    show("LIG token embedding per token", attr.sum(-1))
    show("LIG delta", delta)
    both = LayerIntegratedGradients(net, [net.embedding, net.position])
    show("LIG both embeddings", [a.sum(-1) for a in both.attribute(toks, baselines=reference, target=0,
                                                                   n_steps=10)])
    layer = net.encoder.layers[0]
    show("LayerActivation encoder layer", LayerActivation(net, layer).attribute(toks, additional_forward_args=(mask,)))
    show("LayerActivation norm1 input", LayerActivation(net, layer.norm1).attribute(toks,
                                                                                   attribute_to_layer_input=True))
    position_mask = torch.arange(7).expand(2, 7)
    show("FeatureAblation tokens", FeatureAblation(net).attribute(toks, baselines=0, target=1,
                                                                  feature_mask=position_mask,
                                                                  additional_forward_args=(mask,)))
    show("Occlusion windows of 2", Occlusion(net).attribute(toks, sliding_window_shapes=(2,), strides=1,
                                                            baselines=0, target=0))

    class Embedded(nn.Module):  # the embeddings as the input (captum's interpretable-embedding pattern)
        def forward(self, h):
            return net.classifier(net.encoder(h)[:, 0])

    embedded = (net.embedding(toks) + net.position(torch.arange(7))).detach()
    show("Saliency on embeddings", Saliency(Embedded()).attribute(embedded, target=1, abs=False).sum(-1))
    show("LayerConductance encoder layer", LayerConductance(Embedded(), layer).attribute(
        embedded, target=1, n_steps=8).sum(-1))
    show("InternalInfluence linear1", InternalInfluence(Embedded(), layer.linear1).attribute(
        embedded, target=0, n_steps=8).sum(-1))


class MixedNet(nn.Module):
    """The nonlinearities DeepLift rescales besides ReLU, on 1-d and 3-d data: ELU, LeakyReLU, Softplus-free
    Sigmoid gates, MaxPool1d/MaxPool3d (unpooled by index in its backward), Softmax over a middle dimension."""

    def __init__(self):
        super().__init__()
        self.conv1d = nn.Conv1d(2, 3, 3)
        self.elu = nn.ELU()
        self.pool1d = nn.MaxPool1d(2)
        self.conv3d = nn.Conv3d(1, 2, 2)
        self.leaky = nn.LeakyReLU(0.2)
        self.pool3d = nn.MaxPool3d(2)
        self.softmax = nn.Softmax(dim=1)
        self.fc = nn.Linear(3 * 3 + 2 * 2 * 2 * 2, 3)

    def forward(self, seq, vol):
        a = self.pool1d(self.elu(self.conv1d(seq))).flatten(1)
        b = self.pool3d(self.leaky(self.conv3d(vol))).flatten(1)
        return self.fc(torch.cat([self.softmax(a.view(-1, 3, 3)).flatten(1), b], 1))


def mixed_model():
    """Two-input attributions through ELU, LeakyReLU, MaxPool1d/3d and a Softmax over dim 1: DeepLift (with deltas),
    DeepLiftShap, IntegratedGradients, GuidedBackprop, LayerDeepLift on the 3-d pooling, Occlusion with a window per
    input, FeatureAblation with masks per input; LayerIntegratedGradients on the LSTM model's LSTM (a tuple output)."""
    from captum.attr import (
        DeepLift,
        DeepLiftShap,
        FeatureAblation,
        GuidedBackprop,
        IntegratedGradients,
        LayerDeepLift,
        LayerIntegratedGradients,
        Occlusion,
    )

    net = _seeded(MixedNet)
    g = torch.Generator().manual_seed(41)
    seq, vol = torch.randn(2, 2, 8, generator=g), torch.randn(2, 1, 5, 5, 5, generator=g)
    show("logits", net(seq, vol))
    attr, delta = DeepLift(net).attribute((seq, vol), baselines=(seq * 0.1, vol * 0.1), target=1,
                                          return_convergence_delta=True)
    show("DeepLift", attr)
    show("DeepLift delta", delta)
    show("DeepLiftShap", DeepLiftShap(net).attribute(
        (seq, vol), baselines=(torch.randn(3, 2, 8, generator=g), torch.randn(3, 1, 5, 5, 5, generator=g)),
        target=2))
    attr, delta = IntegratedGradients(net).attribute((seq, vol), target=0, n_steps=12, return_convergence_delta=True)
    show("IG", attr)
    show("IG delta", delta)
    show("GuidedBackprop", GuidedBackprop(net).attribute((seq, vol), target=1))
    show("LayerDeepLift pool3d", LayerDeepLift(net, net.pool3d).attribute((seq, vol), target=0))
    show("Occlusion", Occlusion(net).attribute((seq, vol), sliding_window_shapes=((2, 3), (1, 2, 2, 2)),
                                               strides=((1, 2), (1, 2, 2, 2)), target=2))
    show("FeatureAblation masks", FeatureAblation(net).attribute(
        (seq, vol), target=1, feature_mask=(torch.arange(8).expand(1, 2, 8) // 4,
                                            2 + (torch.arange(125).view(1, 1, 5, 5, 5) % 3))))
    lstm, toks = _seeded(LSTMNet), tokens()
    show("LIG on the LSTM", LayerIntegratedGradients(lstm, lstm.lstm).attribute(toks, target=1, n_steps=8,
                                                                                 attribute_to_layer_input=True))


def dtypes():
    """The same attributions of the tabular model in float64, bfloat16 and float16 (Captum multiplies the gradients
    by float32 step sizes, so dtypes promote), and of the CNN in float64: IG with deltas, Saliency, DeepLift,
    GradientShap, FeatureAblation, Occlusion, NoiseTunnel."""
    from captum.attr import (
        DeepLift,
        FeatureAblation,
        GradientShap,
        IntegratedGradients,
        NoiseTunnel,
        Occlusion,
        Saliency,
    )

    for dtype in (torch.float64, torch.bfloat16, torch.float16):
        tab, x = _seeded(TabularNet).to(dtype), rows().to(dtype)
        name = str(dtype).replace("torch.", "")
        attr, delta = IntegratedGradients(tab).attribute(x, target=1, n_steps=10, return_convergence_delta=True)
        show(f"{name} IG", attr)
        show(f"{name} IG delta", delta)
        show(f"{name} IG riemann", IntegratedGradients(tab).attribute(x, target=0, n_steps=6,
                                                                      method="riemann_middle"))
        show(f"{name} Saliency", Saliency(tab).attribute(x, target=0, abs=False))
        attempt(f"{name} DeepLift", lambda tab=tab, x=x: DeepLift(tab).attribute(x, baselines=x * 0.5, target=1))
        torch.manual_seed(0)
        attempt(f"{name} GradientShap", lambda tab=tab, x=x, dtype=dtype: GradientShap(tab).attribute(
            x, baselines=torch.zeros(2, 6, dtype=dtype), n_samples=3, target=1))  # (its noise is float32: both raise)
        show(f"{name} FeatureAblation", FeatureAblation(tab).attribute(x, target=1, perturbations_per_eval=2))
        torch.manual_seed(1)
        attempt(f"{name} NoiseTunnel", lambda tab=tab, x=x: NoiseTunnel(Saliency(tab)).attribute(
            x, nt_samples=3, stdevs=0.2, target=0))
    cnn, imgs = _seeded(ConvNet).double(), images(2).double()
    show("float64 CNN Occlusion", Occlusion(cnn).attribute(imgs, sliding_window_shapes=(1, 3, 3), strides=2,
                                                           target=1))
    attr, delta = DeepLift(cnn).attribute(imgs, target=2, return_convergence_delta=True)
    show("float64 CNN DeepLift", attr)
    show("float64 CNN DeepLift delta", delta)


# captum.influence -------------------------------------------------------------------------------------------------


def _influence_setup():
    """A small regression model trained for three SGD steps on seeded data, a checkpoint saved with ``torch.save``
    after each step; Captum's loader for them, and the test examples."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 1))
    g = torch.Generator().manual_seed(4)
    x, y = torch.randn(12, 4, generator=g), torch.randn(12, 1, generator=g)
    test = (torch.randn(3, 4, generator=g), torch.randn(3, 1, generator=g))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    checkpoints = []
    folder = __import__("tempfile").mkdtemp()
    for step in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        path = f"{folder}/checkpoint-{step}.pt"
        torch.save(model.state_dict(), path)
        checkpoints.append(path)
        print(f"step {step} loss {loss.item():.7f}")

    def load(net, path):
        net.load_state_dict(torch.load(path))
        return 0.1  # the learning rate TracIn weighs each checkpoint by

    return model, torch.utils.data.TensorDataset(x, y), test, checkpoints, load, folder


def influence():
    """TracIn's training-data influence from checkpoints (``_influence_setup``): TracInCP with per-example losses by
    batch or with per-sample gradients from its hooks, on all layers or one, top-k proponents and opponents,
    self-influence; TracInCPFast on the last layer. (TracInCPFastRandProj needs the annoy package.)"""
    import shutil

    from captum.influence import TracInCP, TracInCPFast

    model, train, test, checkpoints, load, folder = _influence_setup()
    tracin = TracInCP(model, train, checkpoints, load, loss_fn=nn.MSELoss(reduction="none"), batch_size=4)
    show("TracInCP influence", tracin.influence(test))
    show("TracInCP self influence", tracin.self_influence())
    indices, scores = tracin.influence(test, k=3, proponents=True)
    show("TracInCP proponents", scores)
    print("proponent indices", indices.tolist())
    print("opponent indices", tracin.influence(test, k=2, proponents=False)[0].tolist())
    sample_wise = TracInCP(model, train, checkpoints, load, loss_fn=nn.MSELoss(reduction="sum"), batch_size=4,
                           sample_wise_grads_per_batch=True)
    show("TracInCP sample-wise grads", sample_wise.influence(test))
    show("TracInCP layer 0 only", TracInCP(model, train, checkpoints, load, layers=["0"],
                                           loss_fn=nn.MSELoss(reduction="none"), batch_size=6).self_influence())
    fast = TracInCPFast(model, model[2], train, checkpoints, load, loss_fn=nn.MSELoss(reduction="sum"), batch_size=4)
    show("TracInCPFast influence", fast.influence(test))
    show("TracInCPFast self influence", fast.self_influence())
    shutil.rmtree(folder)


def influence_functions():
    """Influence functions on the last checkpoint (``_influence_setup``): NaiveInfluenceFunction (the loss's Hessian
    over the parameters through ``torch.autograd.functional``, inverted through ``torch.linalg.eig``) and
    ArnoldiInfluenceFunction (its Arnoldi iteration on Hessian-vector products)."""
    import shutil

    from captum.influence import NaiveInfluenceFunction
    from captum.influence._core.arnoldi_influence_function import ArnoldiInfluenceFunction

    model, train, test, checkpoints, load, folder = _influence_setup()
    naive = NaiveInfluenceFunction(model, train, checkpoints[-1], load, loss_fn=nn.MSELoss(reduction="none"),
                                   batch_size=4)
    show("NaiveInfluenceFunction influence", naive.influence(test))
    show("NaiveInfluenceFunction self influence", naive.self_influence())
    arnoldi = ArnoldiInfluenceFunction(model, train, checkpoints[-1], load, loss_fn=nn.MSELoss(reduction="none"),
                                       batch_size=4, arnoldi_dim=10, projection_dim=5, seed=1)
    show("ArnoldiInfluenceFunction influence", arnoldi.influence(test))
    shutil.rmtree(folder)

def ordered(value):
    """``value`` with every dict's keys in sorted order: AttackComparator's results come from Summarizers, whose
    stats are a set hashed by their classes' ids, so their order (Mean, Min, Max) changes from run to run in torch
    as in core (a notebook cell shows the dict's repr)."""
    if isinstance(value, dict):
        return {k: ordered(value[k]) for k in sorted(value)}
    return value


# Captum's own test files ------------------------------------------------------------------------------------------


def test_stand_ins():
    """``corpus_labml.captum_stand_ins()`` (matplotlib's modules, ``parameterized.expand`` and ``param``) and
    ``parameterized_class``, which test_llm_attr uses."""
    import sys

    __import__("corpus_labml").captum_stand_ins()
    sys.modules["parameterized"].parameterized_class = _parameterized_class


def _parameterized_class(attrs, input_values=None, class_name_func=None, classname_func=None):
    """``parameterized.parameterized_class``: one subclass of the decorated TestCase per row of class attributes
    (``attrs`` names them, ``input_values`` gives the rows; or a list of dicts), named ``Class_0``, ``Class_1``...
    in the defining module; the decorated class keeps no tests of its own, as the package does."""
    import sys

    rows = [dict(zip((attrs,) if isinstance(attrs, str) else attrs, (v,) if isinstance(attrs, str) else v))
            for v in input_values] if input_values is not None else list(attrs)

    def decorate(cls):
        namespace = sys._getframe(1).f_globals
        tests = {k: v for k, v in vars(cls).items() if k.startswith("test")}
        for i, row in enumerate(rows):
            name = f"{cls.__name__}_{i}"
            namespace[name] = type(cls)(name, (cls,), {**tests, **row, "__module__": cls.__module__})
        for key in tests:
            setattr(cls, key, None)
        return cls

    return decorate


def run_tests(namespace, leave_out=(), every=1):
    """``corpus_labml.run_tests`` without the tests named in ``leave_out`` (``Class.test_name``, or ``test_name`` in
    every class): the ones that take tens of seconds (a thousand Shapley samples through a language model)."""
    import os
    import unittest

    corpus_labml = __import__("corpus_labml")
    cases = sorted((v for v in namespace.values() if isinstance(v, type) and issubclass(v, unittest.TestCase)
                    and v.__module__ == "__main__"), key=lambda c: c.__name__)
    timing = os.environ.get("CORPUS_CAPTUM_TIMES")  # (to choose what to leave out; never in the output compared)
    for case in cases:
        for name in [n for n in unittest.defaultTestLoader.getTestCaseNames(case)
                     if n in leave_out or f"{case.__name__}.{n}" in leave_out]:
            setattr(case, name, None)
        if timing:
            for name in unittest.defaultTestLoader.getTestCaseNames(case):
                setattr(case, name, _timed(getattr(case, name), f"{case.__name__}.{name}"))
    corpus_labml.run_tests({c.__name__: c for c in cases}, every=every)


def _timed(method, name):
    import functools
    import sys
    import time

    @functools.wraps(method)
    def timed(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            print(f"{time.perf_counter() - start:8.3f} {name}", file=sys.stderr)

    return timed
