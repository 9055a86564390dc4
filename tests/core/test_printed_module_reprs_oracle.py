"""print() of nn modules, optimizers, lr schedulers' state_dict() and distributions, as PyTorch 2.13 prints them
(#19): each snippet runs once with torch and once with core, and the two printed texts must be the same."""

from __future__ import annotations

import pytest

import core
from tests.core.printed_twin import shown

SNIPPETS = {
    "conv2d_reflect_dilation_no_bias": "print(nn.Conv2d(3, 8, 3, stride=2, padding=1, dilation=2, bias=False, "
                                       "padding_mode='reflect'))",
    "conv2d_groups_same_padding": "print(nn.Conv2d(4, 8, (3, 5), groups=2, padding='same'))",
    "conv1d_circular_and_transposed": "print(nn.Conv1d(4, 8, 3, padding_mode='circular', padding=1), "
                                      "nn.ConvTranspose2d(3, 8, 3, stride=2, output_padding=1), nn.Conv3d(1, 2, 3), "
                                      "nn.ConvTranspose1d(2, 3, 4, dilation=2))",
    "lstm_with_options": "print(nn.LSTM(10, 20, num_layers=2, batch_first=True, dropout=0.5, bidirectional=True))\n"
                         "print(nn.LSTM(10, 20, proj_size=5, bias=False))",
    "rnns_and_cells": "print(nn.GRU(10, 20), nn.RNN(10, 20, nonlinearity='relu'), nn.LSTMCell(3, 4, bias=False), "
                      "nn.GRUCell(3, 4), nn.RNNCell(3, 4, nonlinearity='relu'), sep='\\n')",
    "transformer_layers": "print(nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, batch_first=True))\n"
                          "print(nn.TransformerDecoderLayer(16, 2, dim_feedforward=32, norm_first=True, "
                          "activation='gelu'))\n"
                          "print(nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, 32), 2))",
    "transformer_and_attention": "print(nn.Transformer(16, 2, 1, 1, 32))\n"
                                 "print(nn.MultiheadAttention(16, 2, dropout=0.1, kdim=8, vdim=8))",
    "activations_with_arguments": "print(nn.LeakyReLU(0.2, inplace=True), nn.ELU(alpha=0.5), nn.Softplus(beta=2, "
                                  "threshold=10), nn.Hardtanh(-2, 2), nn.PReLU(3), nn.GELU('tanh'), nn.Softmax(dim=1),"
                                  " nn.LogSoftmax(1), nn.Threshold(0.1, 20), nn.CELU(0.3), nn.RReLU(0.1, 0.3), "
                                  "nn.Hardshrink(0.3), nn.Softshrink(), nn.SELU(inplace=True), nn.ReLU6(True), "
                                  "nn.SiLU(), nn.Mish(), nn.Softmin(0), nn.GLU(), nn.Softmax2d(), nn.Identity(3, a=1),"
                                  " sep='\\n')",
    "pooling_with_ceil_mode": "print(nn.MaxPool2d(3, stride=2, padding=1, dilation=2, ceil_mode=True, "
                              "return_indices=True), nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False, "
                              "divisor_override=2), nn.AdaptiveAvgPool2d((None, 4)), nn.AdaptiveMaxPool1d(3, "
                              "return_indices=True), nn.LPPool2d(2, 3), nn.MaxUnpool2d(2), "
                              "nn.FractionalMaxPool2d(3, output_size=5), sep='\\n')",
    "embedding_options": "print(nn.Embedding(10, 3, padding_idx=0, max_norm=1.0, norm_type=3., "
                         "scale_grad_by_freq=True, sparse=True), nn.EmbeddingBag(10, 3, mode='max'), "
                         "nn.Embedding.from_pretrained(torch.zeros(3, 2)), sep='\\n')",
    "upsample_and_shuffles": "print(nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True), "
                             "nn.Upsample(size=(4, 5)), nn.UpsamplingNearest2d(scale_factor=2), "
                             "nn.UpsamplingBilinear2d(size=3), nn.PixelShuffle(2), nn.PixelUnshuffle(2), sep='\\n')",
    "flatten_unflatten_fold": "print(nn.Flatten(0, -1), nn.Unflatten(1, (2, 5)), nn.Fold(output_size=(4, 5), "
                              "kernel_size=2), nn.Unfold(kernel_size=(2, 3), padding=1, stride=2), sep='\\n')",
    "unflatten_named_sizes_are_refused": "nn.Unflatten('features', (('C', 2), ('H', 3)))",
    "unflatten_size_not_a_tuple": "nn.Unflatten(1, 6)",
    "nested_containers": "print(nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Dropout(0.3)), "
                         "nn.ModuleList([nn.Linear(3, 3) for _ in range(3)]), nn.ModuleDict({'a': nn.Tanh(), "
                         "'b': nn.BatchNorm1d(3, momentum=None, affine=False)})))\n"
                         "print(nn.Sequential(*[nn.Linear(2, 2) for _ in range(5)]))\n"
                         "print(nn.ModuleList(), nn.Sequential(), nn.ModuleDict())",
    "parameter_list_and_dict": "print(nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), "
                               "nn.Parameter(torch.zeros(3, dtype=torch.float64))]))\n"
                               "print(nn.ParameterDict({'w': nn.Parameter(torch.zeros(2)), "
                               "'b': nn.Parameter(torch.ones(1))}))",
    "norms_pads_and_misc": "print(nn.BatchNorm2d(3, eps=1e-3, momentum=0.2, track_running_stats=False), "
                           "nn.LayerNorm((3, 4), elementwise_affine=False, bias=False), nn.GroupNorm(2, 4, "
                           "affine=False), nn.InstanceNorm2d(3, affine=True), nn.LocalResponseNorm(3), "
                           "nn.RMSNorm(4, eps=1e-5), nn.LazyLinear(3), nn.Bilinear(2, 3, 4, bias=False), "
                           "nn.Dropout2d(0.2, inplace=True), nn.ZeroPad2d((1, 2, 0, 1)), nn.ConstantPad2d(1, 3.5), "
                           "nn.ReplicationPad3d(1), nn.CircularPad2d(1), nn.CosineSimilarity(dim=0, eps=1e-6), "
                           "nn.PairwiseDistance(p=1.), nn.ChannelShuffle(2), nn.Linear(3, 4, bias=False), sep='\\n')",
    "losses_with_options": "print(nn.CrossEntropyLoss(weight=torch.ones(3), ignore_index=1, label_smoothing=0.1), "
                           "nn.MSELoss(reduction='sum'), nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)), "
                           "nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.), nn.KLDivLoss(reduction='batchmean', "
                           "log_target=True), nn.TripletMarginLoss(margin=2.), nn.CTCLoss(), sep='\\n')",
    "custom_module_with_multiline_extra_repr": "class Net(nn.Module):\n"
                                               "    def __init__(self):\n"
                                               "        super().__init__(); self.fc = nn.Linear(2, 3)\n"
                                               "        self.p = nn.Parameter(torch.zeros(2))\n"
                                               "    def extra_repr(self): return 'a=1\\nb=2'\n"
                                               "print(Net()); print(repr(Net().fc.weight))",
    "weight_norm_parametrization": "print(nn.utils.parametrizations.weight_norm(nn.Linear(2, 3)))",
    "every_optimizer": "p = [nn.Parameter(torch.zeros(2))]\n"
                       "for o in [torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4), "
                       "torch.optim.Adam(p, betas=(0.8, 0.9), amsgrad=True), torch.optim.AdamW(p), "
                       "torch.optim.RMSprop(p, alpha=0.9, centered=True), torch.optim.Adagrad(p, lr_decay=0.1), "
                       "torch.optim.Adadelta(p), torch.optim.Adamax(p), torch.optim.NAdam(p, "
                       "decoupled_weight_decay=True), torch.optim.RAdam(p), torch.optim.ASGD(p), "
                       "torch.optim.Rprop(p), torch.optim.LBFGS(p), torch.optim.SparseAdam(p), "
                       "torch.optim.Adafactor(p), torch.optim.Adam(p, lr=torch.tensor(0.01))]:\n"
                       "    print(o)",
    "optimizer_state_dict_after_a_step": "p = [nn.Parameter(torch.ones(2))]\n"
                                         "o = torch.optim.SGD(p, lr=0.1, momentum=0.9); p[0].sum().backward()\n"
                                         "o.step(); print(o.state_dict()); print(o.state)\n"
                                         "o = torch.optim.Adam(p); o.step(); print(o.state_dict())",
    "lr_scheduler_state_dicts": "S = torch.optim.lr_scheduler\n"
                                "for f in [lambda o: S.StepLR(o, 3, gamma=0.5), lambda o: S.MultiStepLR(o, [2, 4]), "
                                "lambda o: S.ExponentialLR(o, 0.9), lambda o: S.CosineAnnealingLR(o, 10, eta_min=0.01),"
                                " lambda o: S.ReduceLROnPlateau(o, patience=2), lambda o: S.OneCycleLR(o, max_lr=1., "
                                "total_steps=10), lambda o: S.CyclicLR(o, 0.01, 0.1), "
                                "lambda o: S.CosineAnnealingWarmRestarts(o, 5, T_mult=2), lambda o: S.LinearLR(o), "
                                "lambda o: S.PolynomialLR(o), lambda o: S.LambdaLR(o, lambda e: 0.9 ** e)]:\n"
                                "    o = torch.optim.SGD([nn.Parameter(torch.zeros(2))], lr=0.1); s = f(o)\n"
                                "    for _ in range(3):\n"
                                "        o.step(); s.step(1.0) if isinstance(s, S.ReduceLROnPlateau) else s.step()\n"
                                "    print(type(s).__name__, s.state_dict())",
    "sequential_lr_state_dict": "S = torch.optim.lr_scheduler\n"
                                "o = torch.optim.SGD([nn.Parameter(torch.zeros(2))], lr=0.1)\n"
                                "s = S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=2), "
                                "S.ExponentialLR(o, 0.9)], milestones=[2])\n"
                                "for _ in range(3): o.step(); s.step()\n"
                                "print(s.state_dict())",
    "scheduler_step_before_optimizer_warns": "o = torch.optim.SGD([nn.Parameter(torch.zeros(2))], lr=0.1)\n"
                                             "s = torch.optim.lr_scheduler.StepLR(o, 3); s.step(); print(s.get_lr())",
    "distributions": "D = torch.distributions\n"
                     "for d in [D.Normal(0., 1.), D.Normal(torch.zeros(12), torch.ones(12)), D.Bernoulli(probs=0.3), "
                     "D.Categorical(logits=torch.zeros(2, 3)), D.Uniform(0., 2.), D.Beta(1., 2.), D.Poisson(3.), "
                     "D.Binomial(10, probs=0.5), D.MultivariateNormal(torch.zeros(2), torch.eye(2)), "
                     "D.Dirichlet(torch.ones(3)), D.Independent(D.Normal(torch.zeros(3), torch.ones(3)), 1), "
                     "D.OneHotCategorical(torch.tensor([0.5, 0.5])), D.StudentT(2.), "
                     "D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.zeros(2), torch.ones(2))), "
                     "D.TransformedDistribution(D.Normal(0., 1.), [D.transforms.ExpTransform()])]:\n"
                     "    print(d)\n"
                     "print(D.transforms.AffineTransform(0., 2.), D.constraints.interval(0, 1), "
                     "D.Normal.arg_constraints)",
    "distribution_argument_errors": "D = torch.distributions\n"
                                    "try: D.Normal(0., -1.)\n"
                                    "except ValueError as e: print(e)\n"
                                    "D.Categorical(probs=torch.tensor([0.2, -0.1]))",
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_printed_text_is_torchs(source, torch):
    assert shown(core, source) == shown(torch, source)
