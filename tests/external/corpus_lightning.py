"""Drivers for PyTorch Lightning's and Hugging Face accelerate's own packages (``recipes_lightning.py``; our text).

A recipe fetches one of the library's modules (``lightning/pytorch/demos/boring_classes.py``...) as its script, with
the whole package beside it, and appends calls to the drivers here; the runner loads the package from the script's
folder in both runs (``runner._fetched_packages``, with ``fake_lightning_deps``' yaml, tqdm and psutil). The drivers
train the way Lightning's and accelerate's documentation and README do, on seeded random data: a LightningModule with
``Trainer(accelerator="cpu", devices=1, max_epochs=2, enable_progress_bar=False, logger=False,
enable_checkpointing=False, deterministic=True)`` then validate/test/predict, callbacks, manual optimization,
schedulers, checkpoints and resuming, Fabric; accelerate's ``Accelerator(cpu=True)``, ``prepare``, ``backward``,
``accumulate``, ``gather_for_metrics``, ``save_state``/``load_state``. Each prints losses, metrics and parameter sums
(5 decimals); temporary folders are never printed.
"""

from __future__ import annotations

import os
import tempfile

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def show(name, value):
    """A number, tensor, or a dict/list of them, to 5 decimals."""
    if isinstance(value, dict):
        for key in sorted(value):
            show(f"{name}.{key}", value[key])
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            show(f"{name}[{i}]", item)
    elif isinstance(value, torch.Tensor) and value.numel() == 1:
        print(name, value.dtype, f"{value.item():.5f}")
    elif isinstance(value, torch.Tensor):
        print(name, tuple(value.shape), value.dtype, f"sum {value.double().sum().item():.5f}",
              [f"{v:.5f}" for v in value.detach().flatten()[:4].tolist()])
    elif isinstance(value, float):
        print(name, f"{value:.5f}")
    else:
        print(name, value)


def parameters(name, model):
    """The sum of each parameter and their total (what training changed)."""
    total = sum(p.detach().double().sum().item() for p in model.parameters())
    print(name, "parameters", sum(p.numel() for p in model.parameters()), f"sum {total:.5f}")


def trainer(L, **options):
    """The Trainer the brief's scripts use: one CPU device, 2 epochs, no bar, logger or checkpoints, deterministic."""
    kwargs = dict(accelerator="cpu", devices=1, max_epochs=2, enable_progress_bar=False, logger=False,
                  enable_checkpointing=False, deterministic=True, enable_model_summary=False)
    kwargs.update(options)
    return L.Trainer(**kwargs)


def _classification_data(n=96, features=8, classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, features, generator=g)
    w = torch.randn(features, classes, generator=g)
    y = (x @ w + 0.5 * torch.randn(n, classes, generator=g)).argmax(1)
    return x, y


def lightning_classifier():
    """The docs' LightningModule + LightningDataModule: an MLP classifier with torchmetrics accuracy, fit 2 epochs,
    then validate, test and predict; seed_everything, save_hyperparameters, self.log of tensors and Metric objects."""
    import lightning.pytorch as L
    from torchmetrics.classification import MulticlassAccuracy

    class Data(L.LightningDataModule):
        def __init__(self, batch_size=16):
            super().__init__()
            self.save_hyperparameters()

        def setup(self, stage):
            x, y = _classification_data()
            full = TensorDataset(x, y)
            self.train, self.val, self.test = torch.utils.data.random_split(
                full, [64, 16, 16], generator=torch.Generator().manual_seed(1))

        def train_dataloader(self):
            return DataLoader(self.train, batch_size=self.hparams.batch_size, shuffle=True)

        def val_dataloader(self):
            return DataLoader(self.val, batch_size=8)

        def test_dataloader(self):
            return DataLoader(self.test, batch_size=8)

        def predict_dataloader(self):
            return DataLoader(self.test, batch_size=8)

    class LitClassifier(L.LightningModule):
        def __init__(self, hidden=32, lr=0.05):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 3))
            self.train_acc, self.val_acc = MulticlassAccuracy(3), MulticlassAccuracy(3)

        def forward(self, x):
            return self.net(x)

        def training_step(self, batch, batch_idx):
            x, y = batch
            logits = self(x)
            loss = F.cross_entropy(logits, y)
            self.train_acc(logits, y)
            self.log("train_loss", loss, on_step=True, on_epoch=True)
            self.log("train_acc", self.train_acc, on_step=False, on_epoch=True)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            logits = self(x)
            self.val_acc.update(logits, y)
            self.log("val_loss", F.cross_entropy(logits, y), prog_bar=True)
            self.log("val_acc", self.val_acc)

        def test_step(self, batch, batch_idx):
            x, y = batch
            self.log_dict({"test_loss": F.cross_entropy(self(x), y),
                           "test_acc": (self(x).argmax(1) == y).float().mean()})

        def predict_step(self, batch, batch_idx, dataloader_idx=0):
            return self(batch[0]).softmax(-1)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)

    print("seed", L.seed_everything(42))
    model, data = LitClassifier(), Data()
    print("hparams", dict(model.hparams), dict(data.hparams))
    t = trainer(L)
    t.fit(model, datamodule=data)
    print("epoch", t.current_epoch, "global_step", t.global_step, "state", t.state.status, t.state.fn)
    show("callback_metrics", dict(t.callback_metrics))
    show("logged_metrics", dict(t.logged_metrics))
    show("validate", t.validate(model, datamodule=data, verbose=False))
    show("test", t.test(model, datamodule=data, verbose=False))
    predictions = t.predict(model, datamodule=data)
    show("predict", torch.cat(predictions))
    parameters("model", model)
    print("training", model.training, "device", model.device, "dtype", model.dtype)


def lightning_cnn_callbacks():
    """A small CNN with BatchNorm, EarlyStopping on val_loss, ModelCheckpoint (top 2, into a temporary folder),
    a custom Callback counting hooks, then the best checkpoint loaded back with load_from_checkpoint."""
    import lightning.pytorch as L
    from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint

    class LitCNN(L.LightningModule):
        def __init__(self, channels=4, lr=1e-2):
            super().__init__()
            self.save_hyperparameters()
            # (no bias before BatchNorm, the usual idiom: its gradient would be float32 rounding noise, which Adam
            # turns into full steps that follow the summation order, as in the README's superminddpm)
            self.features = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                                          nn.ReLU(),
                                          nn.MaxPool2d(2), nn.Conv2d(channels, 8, 3), nn.ReLU(),
                                          nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.head = nn.Linear(8, 4)

        def forward(self, x):
            return self.head(self.features(x))

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self(x), y))

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)

    class Hooks(L.Callback):
        def __init__(self):
            self.calls = {}

        def _count(self, name):
            self.calls[name] = self.calls.get(name, 0) + 1

        def on_train_start(self, trainer, pl_module):
            self._count("train_start")

        def on_train_epoch_end(self, trainer, pl_module):
            self._count("train_epoch_end")
            print("  epoch", trainer.current_epoch, "train_loss", f"{trainer.callback_metrics['train_loss']:.5f}")

        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            self._count("train_batch_end")

        def on_validation_epoch_end(self, trainer, pl_module):
            self._count("validation_epoch_end")

        def on_save_checkpoint(self, trainer, pl_module, checkpoint):
            self._count("save_checkpoint")

    L.seed_everything(7)
    g = torch.Generator().manual_seed(3)
    x, y = torch.randn(48, 1, 10, 10, generator=g), torch.randint(0, 4, (48,), generator=g)
    train = DataLoader(TensorDataset(x[:32], y[:32]), batch_size=8, shuffle=True)
    val = DataLoader(TensorDataset(x[32:], y[32:]), batch_size=8)
    with tempfile.TemporaryDirectory() as folder:
        hooks = Hooks()
        stopping = EarlyStopping(monitor="val_loss", patience=1, mode="min", min_delta=0.0)
        checkpoint = ModelCheckpoint(dirpath=folder, monitor="val_loss", save_top_k=2, mode="min",
                                     filename="cnn-{epoch}-{val_loss:.3f}", save_last=True)
        t = trainer(L, max_epochs=5, enable_checkpointing=True, callbacks=[hooks, stopping, checkpoint])
        model = LitCNN()
        t.fit(model, train, val)
        print("stopped at epoch", t.current_epoch, "early stopping wait", stopping.wait_count,
              "should_stop", t.should_stop)
        print("hooks", sorted(hooks.calls.items()))
        print("files", sorted(os.listdir(folder)))
        print("best", os.path.basename(checkpoint.best_model_path), f"{checkpoint.best_model_score:.5f}")
        print("best_k", sorted((os.path.basename(k), f"{v:.5f}") for k, v in checkpoint.best_k_models.items()))
        best = LitCNN.load_from_checkpoint(checkpoint.best_model_path)
        print("loaded hparams", dict(best.hparams), "training", best.training)
        parameters("best", best)
        parameters("last", model)
        show("validate best", t.validate(best, val, verbose=False))
        saved = torch.load(checkpoint.best_model_path, weights_only=True)
        print("checkpoint keys", sorted(saved))
        print("state_dict keys", list(saved["state_dict"])[:6], "epoch", saved["epoch"],
              "global_step", saved["global_step"])
        print("optimizer state", sorted(saved["optimizer_states"][0]["state"])[:3],
              saved["optimizer_states"][0]["param_groups"][0]["lr"])


def lightning_manual_optimization():
    """Manual optimization as the docs' GAN example: automatic_optimization = False, two optimizers, toggle_optimizer,
    manual_backward, clip_gradients, and the schedulers stepped by hand at each epoch's end."""
    import lightning.pytorch as L

    class GAN(L.LightningModule):
        def __init__(self, latent=4):
            super().__init__()
            self.save_hyperparameters()
            self.automatic_optimization = False
            self.generator = nn.Sequential(nn.Linear(latent, 16), nn.LeakyReLU(0.2), nn.Linear(16, 6), nn.Tanh())
            self.discriminator = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

        def training_step(self, batch, batch_idx):
            (real,) = batch
            opt_g, opt_d = self.optimizers()
            z = torch.randn(real.shape[0], self.hparams.latent)
            self.toggle_optimizer(opt_g)
            fake = self.generator(z)
            g_loss = F.binary_cross_entropy_with_logits(self.discriminator(fake), torch.ones(real.shape[0], 1))
            self.manual_backward(g_loss)
            self.clip_gradients(opt_g, gradient_clip_val=0.5, gradient_clip_algorithm="norm")
            opt_g.step()
            opt_g.zero_grad()
            self.untoggle_optimizer(opt_g)
            self.toggle_optimizer(opt_d)
            real_loss = F.binary_cross_entropy_with_logits(self.discriminator(real), torch.ones(real.shape[0], 1))
            fake_loss = F.binary_cross_entropy_with_logits(self.discriminator(fake.detach()),
                                                           torch.zeros(real.shape[0], 1))
            d_loss = (real_loss + fake_loss) / 2
            self.manual_backward(d_loss)
            self.clip_gradients(opt_d, gradient_clip_val=1.0, gradient_clip_algorithm="value")
            opt_d.step()
            opt_d.zero_grad()
            self.untoggle_optimizer(opt_d)
            self.log_dict({"g_loss": g_loss, "d_loss": d_loss}, prog_bar=True)
            print("  step", self.global_step, f"g_loss {g_loss.item():.5f} d_loss {d_loss.item():.5f}")

        def on_train_epoch_end(self):
            for scheduler in self.lr_schedulers():
                scheduler.step()
            print("  lrs", [f"{o.param_groups[0]['lr']:.6f}" for o in self.trainer.optimizers])

        def configure_optimizers(self):
            opt_g = torch.optim.Adam(self.generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
            opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
            return [opt_g, opt_d], [torch.optim.lr_scheduler.StepLR(opt_g, 1, gamma=0.5),
                                    torch.optim.lr_scheduler.ExponentialLR(opt_d, gamma=0.9)]

    L.seed_everything(3)
    real = torch.randn(32, 6).tanh()
    model = GAN()
    t = trainer(L, limit_train_batches=3)
    t.fit(model, DataLoader(TensorDataset(real), batch_size=8, shuffle=True))
    print("global_step", t.global_step)
    show("callback_metrics", dict(t.callback_metrics))
    parameters("generator", model.generator)
    parameters("discriminator", model.discriminator)


def lightning_schedulers_logging():
    """configure_optimizers returning a dict with a per-step OneCycleLR, and ReduceLROnPlateau monitoring val_loss;
    gradient clipping, gradient accumulation, LearningRateMonitor and a CSVLogger in a temporary folder."""
    import lightning.pytorch as L
    from lightning.pytorch.callbacks import LearningRateMonitor
    from lightning.pytorch.loggers import CSVLogger

    class Regressor(L.LightningModule):
        def __init__(self, plateau=False):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.mse_loss(self.net(x), y)
            self.log("train_loss", loss, on_epoch=True)
            return loss

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.mse_loss(self.net(x), y))

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=0.05, weight_decay=0.01)
            if self.hparams.plateau:
                scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=0)
                return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}
            scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=12)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}

    L.seed_everything(11)
    g = torch.Generator().manual_seed(5)
    x = torch.randn(64, 5, generator=g)
    y = (x[:, :1] * 2 - x[:, 1:2]).sin()
    train = DataLoader(TensorDataset(x[:48], y[:48]), batch_size=8, shuffle=True)
    val = DataLoader(TensorDataset(x[48:], y[48:]), batch_size=16)
    for plateau in (False, True):
        with tempfile.TemporaryDirectory() as folder:
            logger = CSVLogger(folder, name="run", version=0)
            monitor = LearningRateMonitor(logging_interval="step")
            t = trainer(L, max_epochs=4 if plateau else 2, logger=logger, callbacks=[monitor],
                        gradient_clip_val=0.5, accumulate_grad_batches=2, log_every_n_steps=1)
            model = Regressor(plateau)
            t.fit(model, train, val)
            print("plateau", plateau, "global_step", t.global_step, "lr",
                  f"{t.optimizers[0].param_groups[0]['lr']:.6f}")
            show("callback_metrics", dict(t.callback_metrics))
            parameters("regressor", model)
            run = os.path.join(folder, "run", "version_0")
            print("logged files", sorted(os.listdir(run)))
            with open(os.path.join(run, "metrics.csv")) as f:
                rows = f.read().splitlines()
            print("metrics.csv", rows[0])
            for row in rows[1:7]:
                print("  ", row)
            with open(os.path.join(run, "hparams.yaml")) as f:
                print("hparams.yaml", f.read().strip())


def lightning_checkpoint_resume():
    """trainer.save_checkpoint, resuming fit from ckpt_path (the loops, optimizer and RNG states), load_from_checkpoint
    with an overridden hyperparameter, strict=False loading, and seed_everything(workers=True) shuffling."""
    import lightning.pytorch as L
    from lightning.pytorch.demos.boring_classes import RandomDataset

    class Model(L.LightningModule):
        def __init__(self, lr=0.1, width=8):
            super().__init__()
            self.save_hyperparameters()
            self.layer = nn.Sequential(nn.Linear(32, width), nn.ReLU(), nn.Linear(width, 2))

        def training_step(self, batch, batch_idx):
            loss = self.layer(batch).pow(2).mean()
            self.log("loss", loss)
            return loss

        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)
            return [opt], [torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)]

        def on_save_checkpoint(self, checkpoint):
            checkpoint["extra"] = {"note": "kept", "step": self.global_step}

        def on_load_checkpoint(self, checkpoint):
            print("  on_load_checkpoint extra", checkpoint["extra"])

    print("seed", L.seed_everything(123, workers=True))
    loader = DataLoader(RandomDataset(32, 40), batch_size=8, shuffle=True)
    with tempfile.TemporaryDirectory() as folder:
        model = Model()
        t = trainer(L)
        t.fit(model, loader)
        path = os.path.join(folder, "two_epochs.ckpt")
        t.save_checkpoint(path)
        parameters("after 2 epochs", model)
        saved = torch.load(path, weights_only=False)
        print("keys", sorted(saved))
        print("loops", sorted(saved["loops"]), "lr_schedulers", saved["lr_schedulers"][0]["last_epoch"],
              saved["lr_schedulers"][0]["_last_lr"])
        print("hyper_parameters", saved["hyper_parameters"])
        resumed = Model()
        t2 = trainer(L, max_epochs=4)
        t2.fit(resumed, loader, ckpt_path=path)
        print("resumed epoch", t2.current_epoch, "global_step", t2.global_step,
              "lr", t2.optimizers[0].param_groups[0]["lr"])
        parameters("resumed to 4 epochs", resumed)
        wider = Model.load_from_checkpoint(path, lr=0.5)
        print("override", dict(wider.hparams))
        parameters("loaded", wider)
        other = Model(width=8)
        print("strict=False", other.load_state_dict(saved["state_dict"], strict=False))
        print("first batch", [f"{v:.5f}" for v in next(iter(loader)).sum(1)[:4].tolist()])


def lightning_fabric():
    """Fabric as its README converts a PyTorch loop: setup, setup_dataloaders, backward, clip_gradients,
    no_backward_sync accumulation, all_gather/all_reduce in one process, save and load of a state dict."""
    from lightning.fabric import Fabric

    fabric = Fabric(accelerator="cpu", devices=1, precision="32-true")
    fabric.seed_everything(5)
    print("world", fabric.world_size, "rank", fabric.global_rank, fabric.local_rank, fabric.node_rank,
          "device", fabric.device, "is_global_zero", fabric.is_global_zero)
    model = nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.LayerNorm(12), nn.Linear(12, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    model, optimizer = fabric.setup(model, optimizer)
    x, y = _classification_data(48, 6, 2, seed=4)
    loader = fabric.setup_dataloaders(DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True))
    print("wrapped", type(model).__name__, type(optimizer).__name__, type(loader).__name__, len(loader))
    for epoch in range(2):
        total = 0.0
        for i, (xb, yb) in enumerate(loader):
            accumulating = i % 2 == 0
            with fabric.no_backward_sync(model, enabled=accumulating):
                loss = F.cross_entropy(model(xb), yb)
                fabric.backward(loss / 2)
            if not accumulating:
                norm = fabric.clip_gradients(model, optimizer, max_norm=1.0)
                optimizer.step()
                optimizer.zero_grad()
                print("  step", i, "grad norm", f"{norm.item():.5f}")
            total += loss.item()
        print("epoch", epoch, "loss", f"{total / len(loader):.5f}")
    print("all_gather", fabric.all_gather(torch.tensor([1.0, 2.0])), "all_reduce",
          fabric.all_reduce(torch.tensor(3.0), reduce_op="mean"), "broadcast", fabric.broadcast(7))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "state.ckpt")
        fabric.save(path, {"model": model, "optimizer": optimizer, "epoch": 2})
        fresh = fabric.setup(nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.LayerNorm(12), nn.Linear(12, 2)))
        state = {"model": fresh}
        rest = fabric.load(path, state)
        print("loaded, rest", sorted(rest), rest["epoch"])
        parameters("model", model)
        parameters("loaded", fresh)


def lightning_demos():
    """Lightning's own demo classes: BoringModel with BoringDataModule through fit/validate/test/predict,
    ManualOptimBoringModel, DemoModel, and the demo Transformer language model on random tokens."""
    import lightning.pytorch as L
    from lightning.pytorch.demos import BoringDataModule, BoringModel, DemoModel, Transformer
    from lightning.pytorch.demos.boring_classes import ManualOptimBoringModel, RandomDataset

    L.seed_everything(0)
    model = BoringModel()
    data = BoringDataModule()
    t = trainer(L, max_epochs=1, limit_train_batches=8, limit_val_batches=4, limit_test_batches=4,
                limit_predict_batches=2)
    t.fit(model, datamodule=data)
    parameters("boring", model)
    show("validate", t.validate(model, datamodule=data, verbose=False))
    show("test", t.test(model, datamodule=data, verbose=False))
    show("predict", torch.cat(t.predict(model, datamodule=data)))
    manual = ManualOptimBoringModel()
    trainer(L, max_epochs=1, limit_train_batches=5, limit_val_batches=0).fit(
        manual, DataLoader(RandomDataset(32, 64), batch_size=4))
    parameters("manual", manual)
    demo = DemoModel(out_dim=3)
    trainer(L, max_epochs=1, limit_train_batches=4).fit(demo, DataLoader(RandomDataset(32, 32), batch_size=4))
    parameters("demo", demo)

    class LanguageModel(L.LightningModule):
        def __init__(self, vocab_size=40):
            super().__init__()
            self.model = Transformer(vocab_size=vocab_size, ninp=16, nhead=2, nhid=32, nlayers=1, dropout=0.1)

        def training_step(self, batch, batch_idx):
            inputs, target = batch
            loss = F.nll_loss(self.model(inputs, target), target.view(-1))
            self.log("train_loss", loss)
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    tokens = torch.randint(0, 40, (33 * 8,), generator=torch.Generator().manual_seed(2))
    pairs = TensorDataset(tokens[:-8].view(-1, 8)[:, :8], tokens[8:].view(-1, 8)[:, :8])
    lm = LanguageModel()
    t = trainer(L, gradient_clip_val=0.25)
    t.fit(lm, DataLoader(pairs, batch_size=4, shuffle=True))
    show("language model", dict(t.callback_metrics))
    parameters("language model", lm)


def accelerate_loop():
    """accelerate's README loop: Accelerator(cpu=True), set_seed, prepare(model, optimizer, dataloaders, scheduler),
    accelerator.backward, clip_grad_norm_, gather_for_metrics over an evaluation set whose length is not a multiple
    of the batch size, unwrap_model, save_state/load_state (safe_serialization=False: safetensors is not installed)
    and accelerator.save of the unwrapped state dict."""
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    set_seed(42)
    accelerator = Accelerator(cpu=True)
    print("device", accelerator.device, "processes", accelerator.num_processes, "distributed",
          accelerator.distributed_type, "mixed_precision", accelerator.mixed_precision,
          "main", accelerator.is_main_process)
    x, y = _classification_data(90, 6, 3, seed=8)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-2)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.7)
    train = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=16, shuffle=True)
    evaluation = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=8)
    model, optimizer, train, evaluation, scheduler = accelerator.prepare(model, optimizer, train, evaluation,
                                                                         scheduler)
    print("prepared", type(optimizer).__name__, type(train).__name__, type(scheduler).__name__, len(train))
    for epoch in range(2):
        model.train()
        for xb, yb in train:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            accelerator.backward(loss)
            norm = accelerator.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            print("  loss", f"{loss.item():.5f}", "norm", f"{norm.item():.5f}", "lr",
                  f"{scheduler.get_last_lr()[0]:.6f}")
        model.eval()
        predictions, labels = [], []
        for xb, yb in evaluation:
            with torch.no_grad():
                logits = model(xb)
            p, t = accelerator.gather_for_metrics((logits.argmax(-1), yb))
            predictions.append(p)
            labels.append(t)
        predictions, labels = torch.cat(predictions), torch.cat(labels)
        print("epoch", epoch, "evaluated", len(labels), "accuracy", f"{(predictions == labels).float().mean():.5f}")
    print("reduce", accelerator.reduce(torch.tensor([1.0, 3.0]), reduction="mean"), "gather",
          accelerator.gather(torch.tensor([2.0])), "pad", accelerator.pad_across_processes(torch.ones(2)))
    unwrapped = accelerator.unwrap_model(model)
    parameters("model", unwrapped)
    with tempfile.TemporaryDirectory() as folder:
        accelerator.save_state(folder, safe_serialization=False)
        print("state files", sorted(os.listdir(folder)))
        before = [p.detach().clone() for p in unwrapped.parameters()]
        with torch.no_grad():
            for p in unwrapped.parameters():
                p.zero_()
        accelerator.load_state(folder)
        print("restored", all(torch.equal(a, b) for a, b in zip(before, unwrapped.parameters())),
              "lr", f"{scheduler.get_last_lr()[0]:.6f}", "optimizer steps",
              sorted({int(s["step"]) for s in optimizer.optimizer.state.values()}))
        accelerator.save(accelerator.get_state_dict(model), os.path.join(folder, "weights.pt"))
        loaded = torch.load(os.path.join(folder, "weights.pt"), weights_only=True)
        print("saved weights", sorted(loaded), f"{sum(v.sum().item() for v in loaded.values()):.5f}")
    accelerator.end_training()


def accelerate_accumulation():
    """Gradient accumulation as accelerate's docs show it: Accelerator(gradient_accumulation_steps=2) and
    ``with accelerator.accumulate(model)``, sync_gradients at each step, the scheduler stepped with the optimizer,
    then the same loop written by hand compared with it; DataLoaderConfiguration and a seeded shuffle."""
    from accelerate import Accelerator, DataLoaderConfiguration
    from accelerate.utils import GradientAccumulationPlugin, set_seed

    def run(accumulate):
        set_seed(3)
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 0.9 ** step)
        g = torch.Generator().manual_seed(6)
        x = torch.randn(32, 4, generator=g)
        y = x.sum(1, keepdim=True).sin()
        loader = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True)
        if not accumulate:
            losses = []
            for i, (xb, yb) in enumerate(loader):
                loss = F.mse_loss(model(xb), yb)
                (loss / 2).backward()
                losses.append(loss.item())
                if i % 2 == 1:
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad()
            return model, losses, []
        plugin = GradientAccumulationPlugin(num_steps=2, sync_with_dataloader=False)
        accelerator = Accelerator(cpu=True, gradient_accumulation_plugin=plugin,
                                  dataloader_config=DataLoaderConfiguration(split_batches=False))
        model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)
        losses, syncs = [], []
        for xb, yb in loader:
            with accelerator.accumulate(model):
                loss = F.mse_loss(model(xb), yb)
                accelerator.backward(loss)
                syncs.append(accelerator.sync_gradients)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            losses.append(loss.item())
        print("accumulate steps", accelerator.gradient_accumulation_steps, "step", accelerator.step,
              "optimizer skipped", optimizer.step_was_skipped)
        return accelerator.unwrap_model(model), losses, syncs

    model, losses, syncs = run(True)
    print("sync_gradients", syncs)
    print("losses", [f"{v:.5f}" for v in losses])
    parameters("accumulated", model)
    plain, plain_losses, _ = run(False)
    print("plain losses", [f"{v:.5f}" for v in plain_losses])
    parameters("by hand", plain)
    print("same", [torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), plain.parameters())])


def accelerate_regression(training):
    """accelerate's own test model (``accelerate.test_utils.training``: RegressionDataset, RegressionModel) trained
    as its test scripts do, with set_seed, prepare, a few SGD steps and the RNG states save_state keeps."""
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    set_seed(0)
    accelerator = Accelerator(cpu=True)
    dataset = training.RegressionDataset(length=48, seed=1)
    model = training.RegressionModel(a=1, b=1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=16, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(3):
        for batch in loader:
            loss = F.mse_loss(model(batch["x"]), batch["y"])
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        print("epoch", epoch, "loss", f"{loss.item():.5f}", "a", f"{model.a.item():.5f}", "b", f"{model.b.item():.5f}")
    with tempfile.TemporaryDirectory() as folder:
        accelerator.save_state(folder, safe_serialization=False)
        print("files", sorted(os.listdir(folder)))
        states = torch.load(os.path.join(folder, "random_states_0.pkl"), weights_only=False)
        print("random states", sorted(states), type(states["torch_manual_seed"]).__name__,
              tuple(states["torch_manual_seed"].shape))
        draw = torch.rand(2)
        accelerator.load_state(folder)
        print("rng restored", torch.equal(torch.rand(2), draw))


def mixed_precision():
    """bf16 autocast on the CPU as both libraries switch it on: accelerate's Accelerator(cpu=True,
    mixed_precision="bf16") (its forward wrapped in torch.autocast, outputs converted back to float32) and Lightning's
    Trainer(precision="bf16-mixed"); losses, output dtypes inside and outside autocast, parameter sums."""
    import lightning.pytorch as L
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    set_seed(1)
    accelerator = Accelerator(cpu=True, mixed_precision="bf16")
    print("accelerate", accelerator.mixed_precision, "native_amp", accelerator.native_amp)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = _classification_data(32, 6, 3, seed=2)
    model, optimizer, loader = accelerator.prepare(model, optimizer, DataLoader(TensorDataset(x, y), batch_size=8))
    for xb, yb in loader:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        print("  out", out.dtype, "loss", f"{loss.item():.4f}")
    with accelerator.autocast():
        inner = accelerator.unwrap_model(model)(x)
    print("inside autocast", inner.dtype, "sum", f"{inner.float().sum().item():.2f}")
    parameters("accelerate bf16", accelerator.unwrap_model(model))

    class Lit(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Linear(16, 3))

        def training_step(self, batch, batch_idx):
            logits = self.net(batch[0])
            if batch_idx == 0:
                print("  lightning logits", logits.dtype, "autocast", torch.is_autocast_enabled("cpu"),
                      torch.get_autocast_dtype("cpu"))
            loss = F.cross_entropy(logits, batch[1])
            self.log("loss", loss)
            return loss

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-2)

    L.seed_everything(4)
    lit = Lit()
    t = trainer(L, precision="bf16-mixed")
    t.fit(lit, DataLoader(TensorDataset(x, y), batch_size=8))
    print("lightning precision", t.precision, "loss", f"{t.callback_metrics['loss']:.3f}")
    parameters("lightning bf16", lit)
