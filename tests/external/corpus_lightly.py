"""Drivers for lightly's own Python code (``recipes_lightly.py``; our text).

A driver recipe fetches lightly's ``__init__.py`` as its script (run as the package's module), with lightly's, timm's
and torchvision's packages beside it (the runner loads all three in both runs), and appends calls to the drivers
here. They use lightly as its docs, examples and tests do: each loss on seeded embeddings (the value and its input
gradients), the projection and prediction heads, the memory banks over several batches, ``lightly.models.utils``,
the schedulers, the transforms on seeded uint8 images, the masked vision transformers and a few momentum-encoder
training steps. Scalars print with 8 significant digits, tensors as shape, dtype, abs sum and first values (5
decimals). ``fake_cifar10`` stands in for CIFAR-10 in the examples.
"""

from __future__ import annotations

import copy

import numpy as np
import torch


def fake_cifar10(root=None, train=True, download=False, transform=None, size=8, **kwargs):
    """``torchvision.datasets.CIFAR10``'s shape: ``size`` seeded 3x32x32 uint8 images (a tensor image, which
    torchvision's v2 transforms take) through ``transform``, with labels from 0 to 9."""
    return _Images(size, 32, transform)


class _Images(torch.utils.data.Dataset):
    def __init__(self, size, side, transform):
        rng = np.random.default_rng(7)
        self.images = torch.from_numpy(rng.integers(0, 256, size=(size, 3, side, side), dtype=np.uint8))
        self.targets = rng.integers(0, 10, size=size).tolist()
        self.transform = transform

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        image = self.images[i]
        return (self.transform(image) if self.transform is not None else image), self.targets[i]


def _num(x):
    return f"{float(x):.8g}"


def show(name, out):
    """A tensor's shape, dtype, abs sum and first values (a tuple or list: each part; a number: 8 digits)."""
    if isinstance(out, (list, tuple)):
        for i, part in enumerate(out):
            show(f"{name}[{i}]", part)
        return
    if not isinstance(out, torch.Tensor):
        print(name, out if isinstance(out, (bool, str, type(None))) else _num(out))
        return
    t = out.detach()
    values = [f"{v:.5f}" for v in t.flatten()[:6].double().tolist()] if t.numel() else []
    total = _num(t.double().abs().sum()) if t.dtype != torch.bool else int(t.sum())
    print(name, tuple(t.shape), str(t.dtype).replace("torch.", ""), total, values)


def _loss(name, loss_fn, *inputs, **kwargs):
    """``loss_fn(*inputs)`` and the gradients of the inputs that need one."""
    leaves = [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
    value = loss_fn(*inputs, **kwargs)
    value.backward()
    print(name, _num(value), [_num(x.grad.abs().sum()) for x in leaves])


def _emb(*shape, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).requires_grad_()


def contrastive_losses():
    """NT-Xent, DCL/DCLW, NegativeCosineSimilarity, SymNegCosineSimilarity, Hypersphere, MACL, DirectCLR, KoLeo."""
    from lightly import loss

    torch.manual_seed(0)
    _loss("ntxent", loss.NTXentLoss(), _emb(8, 16, seed=1), _emb(8, 16, seed=2))
    _loss("ntxent_t0.1", loss.NTXentLoss(temperature=0.1), _emb(8, 16, seed=3), _emb(8, 16, seed=4))
    _loss("dcl", loss.DCLLoss(), _emb(8, 16, seed=5), _emb(8, 16, seed=6))
    _loss("dclw", loss.DCLWLoss(sigma=0.5), _emb(8, 16, seed=7), _emb(8, 16, seed=8))
    _loss("negcos", loss.NegativeCosineSimilarity(), _emb(8, 16, seed=9), _emb(8, 16, seed=10))
    z0, p0, z1, p1 = (_emb(8, 16, seed=s) for s in range(11, 15))
    _loss("symnegcos", loss.SymNegCosineSimilarityLoss(), (z0, p0), (z1, p1))
    from lightly.loss.hypersphere_loss import HypersphereLoss

    _loss("hypersphere", HypersphereLoss(), _emb(8, 16, seed=15), _emb(8, 16, seed=16))
    _loss("macl", loss.MACLLoss(), _emb(8, 16, seed=17), _emb(8, 16, seed=18))
    _loss("directclr", loss.DirectCLRLoss(loss_dim=8), _emb(8, 16, seed=19), _emb(8, 16, seed=20))
    _loss("koleo", loss.KoLeoLoss(), _emb(8, 16, seed=21))


def redundancy_losses():
    """Barlow Twins, VICReg, TiCo, MMCR, FroSSL, EMP-SSL, W-MSE and its whitening, LeJEPA's SIGReg."""
    from lightly import loss

    torch.manual_seed(0)
    _loss("barlow", loss.BarlowTwinsLoss(), _emb(16, 8, seed=1), _emb(16, 8, seed=2))
    _loss("vicreg", loss.VICRegLoss(), _emb(16, 8, seed=3), _emb(16, 8, seed=4))
    tico = loss.TiCoLoss()
    for step in range(2):
        _loss(f"tico{step}", tico, _emb(16, 8, seed=5 + step), _emb(16, 8, seed=7 + step))
    _loss("mmcr", loss.MMCRLoss(), _emb(6, 4, 8, seed=9), _emb(6, 4, 8, seed=10))
    _loss("frossl", loss.FroSSLLoss(), [_emb(16, 8, seed=11), _emb(16, 8, seed=12), _emb(16, 8, seed=13)])
    _loss("emp_ssl", loss.EMPSSLLoss(), [_emb(16, 8, seed=14), _emb(16, 8, seed=15)])
    wmse = loss.WMSELoss(embedding_dim=8, w_size=16)
    _loss("wmse", wmse, torch.cat([_emb(16, 8, seed=16), _emb(16, 8, seed=17)]).detach().requires_grad_())
    whiten = loss.Whitening2d(8, track_running_stats=True)
    show("whitened", whiten(_emb(32, 8, seed=18)))
    show("whitening_running", whiten.running_variance)
    _loss("lejepa", loss.LeJEPALoss(), _emb(2, 16, 8, seed=19))


def clustering_losses():
    """DINO (with its centre over several steps and the teacher-temperature warm-up), iBOT's patch loss, SwaV (with
    a queue), MSN and PMSN with their prototypes."""
    from lightly import loss

    torch.manual_seed(0)
    dino = loss.DINOLoss(output_dim=16, warmup_teacher_temp_epochs=3)
    for epoch in range(3):
        teacher = [_emb(4, 16, seed=10 * epoch + i) for i in range(2)]
        student = [_emb(4, 16, seed=10 * epoch + 5 + i) for i in range(3)]
        _loss(f"dino{epoch}", dino, [t.detach() for t in teacher], student, epoch=epoch)
    show("dino_center", dino.center)
    ibot = loss.IBOTPatchLoss(output_dim=16)
    mask = torch.zeros(2, 3, 3, dtype=torch.bool)
    mask[0, 1, 1] = mask[1, 0, 2] = mask[1, 2, 0] = True
    _loss("ibot", ibot, _emb(3, 16, seed=30).detach(), _emb(3, 16, seed=31), mask)
    swav = loss.SwaVLoss()
    high = [_emb(8, 6, seed=40), _emb(8, 6, seed=41)]
    low = [_emb(8, 6, seed=42) for _ in range(2)]
    _loss("swav", swav, high, low)
    _loss("swav_queue", loss.SwaVLoss(sinkhorn_iterations=5), [_emb(8, 6, seed=43), _emb(8, 6, seed=44)], [],
          queue_outputs=[_emb(16, 6, seed=45).detach(), _emb(16, 6, seed=46).detach()])
    prototypes = _emb(10, 16, seed=50)
    anchors, targets = _emb(12, 16, seed=51), _emb(4, 16, seed=52).detach()
    _loss("msn", loss.MSNLoss(), anchors, targets, prototypes)
    _loss("msn_memax", loss.MSNLoss(me_max_weight=0.5), _emb(12, 16, seed=53), targets, _emb(10, 16, seed=54))
    _loss("pmsn", loss.PMSNLoss(), _emb(12, 16, seed=55), targets, _emb(10, 16, seed=56))


def memory_banks():
    """NT-Xent with a memory bank of negatives over several batches (the bank fills, then wraps), the bank module on
    its own (``MemoryBankModule``), and NNCLR's nearest-neighbour bank (``NNMemoryBankModule``)."""
    from lightly.loss import NTXentLoss
    from lightly.models.modules import NNMemoryBankModule
    from lightly.models.modules.memory_bank import MemoryBankModule

    torch.manual_seed(0)
    criterion = NTXentLoss(memory_bank_size=(24, 16))
    for step in range(4):
        _loss(f"ntxent_bank{step}", criterion, _emb(8, 16, seed=step), _emb(8, 16, seed=10 + step))
    show("bank", criterion.memory_bank.bank)
    show("bank_ptr", criterion.memory_bank.bank_ptr)
    bank = MemoryBankModule(size=(10, 4), feature_dim_first=False)
    for step in range(3):
        out, queue = bank(_emb(4, 4, seed=20 + step).detach(), update=True)
        show(f"membank{step}", (out, queue))
    nn_bank = NNMemoryBankModule(size=(12, 16))
    for step in range(3):
        show(f"nn_bank{step}", nn_bank(_emb(6, 16, seed=30 + step).detach(), update=True))


def heads():
    """Each projection/prediction head in train mode (BatchNorm on the batch) and eval mode, with its gradient."""
    from lightly.models import modules
    from lightly.models.modules import heads as h

    torch.manual_seed(0)
    x = torch.randn(6, 32)
    made = [("simclr", modules.SimCLRProjectionHead(32, 16, 8)),
            ("simclr_v2", modules.SimCLRProjectionHead(32, 16, 8, num_layers=3, batch_norm=True)),
            ("byol_proj", modules.BYOLProjectionHead(32, 16, 8)), ("byol_pred", modules.BYOLPredictionHead(32, 16, 8)),
            ("moco", modules.MoCoProjectionHead(32, 16, 8)),
            ("moco_v3", modules.MoCoProjectionHead(32, 16, 8, 3, True)),
            ("simsiam_proj", modules.SimSiamProjectionHead(32, 16, 8)),
            ("simsiam_pred", modules.SimSiamPredictionHead(32, 16, 8)),
            ("nnclr_proj", modules.NNCLRProjectionHead(32, 16, 8)),
            ("nnclr_pred", modules.NNCLRPredictionHead(32, 16, 8)),
            ("barlow", modules.BarlowTwinsProjectionHead(32, 16, 8)),
            ("swav", modules.SwaVProjectionHead(32, 16, 8)),
            ("dino", modules.DINOProjectionHead(32, 16, 8, 10, batch_norm=True)),
            ("dino_freeze", modules.DINOProjectionHead(32, 16, 8, 10, freeze_last_layer=1)),
            ("dinov2", modules.DINOv2ProjectionHead(32, 16, 8, 10)),
            ("mmcr", modules.MMCRProjectionHead(32, 16, 8)),
            ("smog_proj", modules.SMoGProjectionHead(32, 16, 8)),
            ("smog_pred", modules.SMoGPredictionHead(8, 16, 8)),
            ("vicreg", h.VICRegProjectionHead(32, 16, 8, num_layers=3)),
            ("tico", h.TiCoProjectionHead(32, 16, 8)),
            ("msn", h.MSNProjectionHead(32, 16, 8)),
            ("densecl", modules.DenseCLProjectionHead(32, 16, 8)),
            ("lejepa", modules.LeJEPAProjectionHead(32, 16, 8))]
    for name, head in made:
        inputs = x[:, :8] if name == "smog_pred" else x
        if name == "densecl":
            inputs = x.reshape(6, 32, 1, 1).expand(6, 32, 2, 2)
        try:
            out = head(inputs)
            # a fixed linear readout (not out.pow(2).sum(): after a final BatchNorm that is nearly constant, and its
            # gradient rounding noise)
            (out * torch.linspace(-1, 1, out.numel()).reshape(out.shape)).sum().backward()
            grads = [_num(p.grad.abs().sum()) for p in head.parameters() if p.grad is not None]
            show(name, out)
            print(" grads", grads[:4], len(grads))
            head.eval()
            show(" eval", head(inputs))
        except Exception as e:  # a head whose input shape differs prints the same error in both runs
            print(name, "raises", type(e).__name__)
    prototypes = modules.SwaVPrototypes(8, n_prototypes=[5, 3])
    show("swav_prototypes", prototypes(torch.randn(4, 8)))
    smog = modules.SMoGPrototypes(group_features=torch.randn(3, 8), beta=0.9)
    assignments = smog.assign_groups(torch.randn(6, 8))
    show("smog_assign", assignments)
    show("smog_update", smog.get_updated_group_features(torch.randn(6, 8)))


def model_utils():
    """``lightly.models.utils``: momentum updates, batch shuffling, token masks and gathers, patchify, positional
    embeddings, nearest neighbours, weight-decay groups, truncated-normal init."""
    from lightly.models import utils

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.ReLU(), torch.nn.Linear(6, 2))
    ema = copy.deepcopy(model)
    utils.deactivate_requires_grad(ema)
    print("ema requires_grad", [p.requires_grad for p in ema.parameters()])
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    utils.update_momentum(model, ema, m=0.99)
    show("ema", [p for p in ema.parameters()])
    batch = torch.arange(12.0).reshape(6, 2)
    shuffled, order = utils.batch_shuffle(batch)
    show("shuffle", (shuffled, order, utils.batch_unshuffle(shuffled, order)))
    images = torch.randn(2, 3, 8, 8)
    patches = utils.patchify(images, 4)
    show("patchify", patches)
    print("unpatchify round trip", torch.equal(utils.unpatchify(patches, 4), images))
    idx_keep, idx_mask = utils.random_token_mask(size=(2, 5), mask_ratio=0.6)
    show("token_mask", (idx_keep, idx_mask))
    tokens = torch.randn(2, 5, 3)
    show("get_at_index", utils.get_at_index(tokens, idx_keep))
    show("set_at_index", utils.set_at_index(tokens, idx_mask, torch.zeros(2, idx_mask.shape[1], 3)))
    show("mask_at_index", utils.mask_at_index(tokens, idx_mask, torch.ones(1, 1, 3)))
    show("prepend", utils.prepend_class_token(tokens, torch.full((1, 1, 3), 7.0)))
    show("repeat_token", utils.repeat_token(torch.arange(3.0).reshape(1, 1, 3), (2, 4)))
    show("pos_embed_2d", utils.get_2d_sine_cosine_positional_embedding(embed_dim=8, grid_size=3, cls_token=True))
    show("block_mask", utils.random_block_mask(size=(2, 6, 6), num_masks=4, min_image_ratio=0.1))
    features, bank = torch.randn(4, 5), torch.randn(9, 5)
    show("nearest_neighbors", utils.nearest_neighbors(features, bank, num_neighbors=2))
    show("select_most_similar", utils.select_most_similar(torch.randn(2, 3, 4), torch.randn(2, 5, 4),
                                                          torch.randn(2, 5, 6)))
    show("normalize_mean_var", utils.normalize_mean_var(torch.randn(3, 4)))
    show("pool_masked", utils.pool_masked(torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)), num_cls=3))
    decay, no_decay = utils.get_weight_decay_parameters([model])
    print("weight decay groups", len(decay), len(no_decay))
    w = torch.nn.Parameter(torch.empty(200, 10))
    utils._no_grad_trunc_normal(w, mean=0, std=1, a=-2, b=2)
    show("trunc_normal", w)
    show("normalize_weight", utils.normalize_weight(torch.nn.Parameter(torch.randn(3, 4))))
    show("repeat_interleave_batch", utils.repeat_interleave_batch(torch.arange(8.0).reshape(4, 2), 2, 3))


def schedulers():
    """``cosine_schedule``, ``cosine_warmup_schedule``, ``linear_warmup_schedule`` and ``CosineWarmupScheduler``
    driving SGD's learning rate."""
    from lightly.utils import scheduler

    print("cosine", [_num(scheduler.cosine_schedule(s, 10, 0.996, 1.0)) for s in range(0, 11, 2)])
    print("cosine_warmup", [_num(scheduler.cosine_warmup_schedule(s, 12, 0.1, 1.0, warmup_steps=4,
                                                                  warmup_start_value=0.0)) for s in range(0, 13, 2)])
    print("linear_warmup", [_num(scheduler.linear_warmup_schedule(s, 5, 0.0, 1.0)) for s in range(7)])
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    sched = scheduler.CosineWarmupScheduler(optimizer, warmup_epochs=2, max_epochs=8, end_value=0.01)
    lrs = []
    for _ in range(9):
        optimizer.step()
        sched.step()
        lrs.append(_num(optimizer.param_groups[0]["lr"]))
    print("CosineWarmupScheduler", lrs)


def transforms():
    """lightly's augmentation pipelines on seeded uint8 images (torchvision's v2 transforms on tensors; blur and
    solarisation off: they are Pillow's, solarisation shown on the stand-in's PIL image):
    SimCLR, MoCo v2, BYOL's two views, SimSiam, VICReg, FastSiam, MMCR,
    MAE, TiCo, and the Fourier-domain transforms."""
    from lightly import transforms as T

    torch.manual_seed(0)
    np.random.seed(0)
    image = torch.from_numpy(np.random.default_rng(3).integers(0, 256, size=(3, 40, 40), dtype=np.uint8))
    pipelines = [("simclr", T.SimCLRTransform(input_size=32, gaussian_blur=0.0)),
                 ("moco_v2", T.MoCoV2Transform(input_size=32, gaussian_blur=0.0)),
                 ("byol", T.BYOLTransform(view_1_transform=T.BYOLView1Transform(input_size=32, gaussian_blur=0.0),
                                          view_2_transform=T.BYOLView2Transform(input_size=32, gaussian_blur=0.0,
                                                                                solarization_prob=0.0))),
                 ("simsiam", T.SimSiamTransform(input_size=32, gaussian_blur=0.0)),
                 ("vicreg", T.VICRegTransform(input_size=32, gaussian_blur=0.0, solarize_prob=0.0)),
                 ("fastsiam", T.FastSiamTransform(input_size=32, gaussian_blur=0.0)),
                 ("mmcr", T.MMCRTransform(k=3, input_size=32, gaussian_blur=0.0)),
                 ("mae", T.MAETransform(input_size=32)),
                 ("tico", T.TiCoTransform(view_1_transform=T.TiCoView1Transform(input_size=32, gaussian_blur=0.0),
                                          view_2_transform=T.TiCoView2Transform(input_size=32, gaussian_blur=0.0,
                                                                                solarization_prob=0.0)))]
    for name, transform in pipelines:
        show(name, transform(image))
    fimage = image.float() / 255
    show("rfft2d", T.RFFT2DTransform()(fimage))
    show("irfft2d", T.IRFFT2DTransform((40, 40))(T.RFFT2DTransform()(fimage)))
    show("phase_shift", T.PhaseShiftTransform(range=(0.4, 0.6))(T.RFFT2DTransform()(fimage)))
    show("amplitude_rescale", T.AmplitudeRescaleTransform(range=(0.4, 0.6))(T.RFFT2DTransform()(fimage)))
    show("freq_mask", T.RandomFrequencyMaskTransform(k=(1, 3))(T.RFFT2DTransform()(fimage)))
    show("gmm_mask", T.GaussianMixtureMask(num_gaussians=2, std_range=(5, 10))(T.RFFT2DTransform()(fimage)))
    from PIL import Image  # (the stand-in's: a PIL image holding the pixels, which solarisation takes)

    pil = Image.fromarray(image.permute(1, 2, 0).numpy())
    show("solarize", torch.from_numpy(np.asarray(T.RandomSolarization(prob=1.0)(pil))))
    try:
        T.RandomSolarization(prob=1.0)(image)
    except OSError as e:
        print("solarize a tensor:", e)
    show("rotate", T.RandomRotate(prob=1.0, angle=90)(image))


def masked_vit():
    """The masked ViT backbones over torchvision's and timm's ViT (MAE's encoder with a random token mask, the
    decoder, the predicted pixels' loss) at small sizes."""
    import timm
    import torchvision
    from lightly.models import utils
    from lightly.models.modules import MAEDecoderTIMM, MaskedVisionTransformerTIMM, MaskedVisionTransformerTorchvision
    from lightly.models.modules.masked_autoencoder import MAEDecoder

    torch.manual_seed(0)
    images = torch.randn(2, 3, 32, 32)
    vit = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=16,
                                               mlp_dim=32)
    backbone = MaskedVisionTransformerTorchvision(vit=vit)
    idx_keep, idx_mask = utils.random_token_mask(size=(2, backbone.sequence_length), mask_ratio=0.75)
    show("tv_encode", backbone.encode(images, idx_keep=idx_keep))
    show("tv_forward", backbone(images))
    decoder = MAEDecoder(seq_length=backbone.sequence_length, num_layers=1, num_heads=2, embed_input_dim=16,
                         hidden_dim=16, mlp_dim=32, out_dim=8 * 8 * 3)
    encoded = backbone.encode(images, idx_keep=idx_keep)
    mask_token = torch.nn.Parameter(torch.zeros(1, 1, 16))
    full = utils.repeat_token(mask_token, (2, backbone.sequence_length))
    full = utils.set_at_index(full, idx_keep, decoder.embed(encoded))
    pred = decoder.predict(utils.get_at_index(decoder.decode(full), idx_mask))
    target = utils.get_at_index(utils.patchify(images, 8), idx_mask - 1)
    show("mae_pred", pred)
    loss = torch.nn.functional.mse_loss(pred, target)
    loss.backward()
    print("mae_loss", _num(loss), _num(sum(p.grad.abs().sum() for p in vit.parameters() if p.grad is not None)))
    tvit = timm.models.vision_transformer.VisionTransformer(img_size=32, patch_size=8, embed_dim=16, depth=2,
                                                            num_heads=2, mlp_ratio=2.0)
    tbackbone = MaskedVisionTransformerTIMM(vit=tvit)
    show("timm_encode", tbackbone.encode(images, idx_keep=idx_keep))
    show("timm_forward", tbackbone(images))
    tdecoder = MAEDecoderTIMM(num_patches=16, patch_size=8, embed_dim=16, decoder_embed_dim=16, decoder_depth=1,
                              decoder_num_heads=2)
    tokens = tdecoder.embed(tbackbone.encode(images, idx_keep=idx_keep))
    show("timm_decode", tdecoder.predict(tdecoder.decode(utils.set_at_index(
        utils.repeat_token(tdecoder.mask_token, (2, 17)), idx_keep, tokens))))


def momentum_training(kind="byol", steps=3):
    """A few training steps of a momentum encoder (BYOL's or MoCo's recipe from lightly's examples) on an MLP
    backbone and seeded inputs: the loss, and the online and momentum weights."""
    from lightly.loss import NegativeCosineSimilarity, NTXentLoss
    from lightly.models.modules import BYOLPredictionHead, BYOLProjectionHead, MoCoProjectionHead
    from lightly.models.utils import deactivate_requires_grad, update_momentum
    from lightly.utils.scheduler import cosine_schedule

    torch.manual_seed(0)
    backbone = torch.nn.Sequential(torch.nn.Linear(12, 24), torch.nn.ReLU())
    projection = BYOLProjectionHead(24, 32, 8) if kind == "byol" else MoCoProjectionHead(24, 32, 8)
    prediction = BYOLPredictionHead(8, 16, 8) if kind == "byol" else torch.nn.Identity()
    momentum_backbone, momentum_projection = copy.deepcopy(backbone), copy.deepcopy(projection)
    deactivate_requires_grad(momentum_backbone)
    deactivate_requires_grad(momentum_projection)
    criterion = NegativeCosineSimilarity() if kind == "byol" else NTXentLoss(memory_bank_size=(16, 8))
    params = [*backbone.parameters(), *projection.parameters(), *prediction.parameters()]
    optimizer = torch.optim.SGD(params, lr=0.06)
    for step in range(steps):
        m = cosine_schedule(step, steps, 0.996, 1)
        update_momentum(backbone, momentum_backbone, m=m)
        update_momentum(projection, momentum_projection, m=m)
        x0, x1 = torch.randn(8, 12), torch.randn(8, 12)
        p0 = prediction(projection(backbone(x0)))
        z1 = momentum_projection(momentum_backbone(x1)).detach()
        if kind == "byol":
            p1 = prediction(projection(backbone(x1)))
            z0 = momentum_projection(momentum_backbone(x0)).detach()
            loss = 0.5 * (criterion(p0, z1) + criterion(p1, z0))
        else:
            loss = criterion(p0, z1)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(kind, step, _num(m), _num(loss))
    show("online", [p for p in backbone.parameters()])
    show("momentum", [p for p in momentum_backbone.parameters()])
