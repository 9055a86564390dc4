"""PyTorch Lightning's stand-in for the corpus (not installed here): what the UvA notebooks' plain-torch cells use.

``seed_everything`` seeds Python's ``random``, NumPy and torch as Lightning does; ``LightningModule`` is an
``nn.Module`` with ``save_hyperparameters`` (the calling ``__init__``'s arguments as ``hparams``), ``log`` and
``device``. ``Trainer`` is a plain loop with Lightning's order: per batch ``training_step``, ``zero_grad``,
``backward``, gradient clipping by norm, ``step`` and the per-step schedulers; validation after each epoch; ``test``
returns the logged values averaged over the batches (weighted by batch size), as Lightning's epoch-end logging does.
``ModelCheckpoint`` keeps the best state in memory for ``load_from_checkpoint`` (no files). ``LightningModule`` is
built on first use, so ``torch`` is the run's (core under the alias, or PyTorch). The runner installs this module as
``pytorch_lightning`` and ``pytorch_lightning.callbacks``.
"""

from __future__ import annotations

import inspect
import random

from fake_stand_ins import AttrDict

__version__ = "2.4.0"


def seed_everything(seed=None, workers=False):
    import numpy as np
    import torch
    seed = 0 if seed is None else int(seed)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


class AttributeDict(AttrDict):
    """Lightning's ``hparams``: a dict read as attributes."""


class _Logger:
    _default_hp_metric = None


class Trainer:
    def __init__(self, *args, max_epochs=1, gradient_clip_val=None, callbacks=(), **kwargs):
        self.max_epochs, self.gradient_clip_val, self.callbacks = max_epochs, gradient_clip_val, list(callbacks or ())
        self.logger = _Logger()
        self.current_epoch = 0

    @property
    def checkpoint_callback(self):
        found = [c for c in self.callbacks if isinstance(c, ModelCheckpoint)]
        if not found:  # Lightning adds one that keeps the last epoch
            self.callbacks.append(ModelCheckpoint())
        return next(c for c in self.callbacks if isinstance(c, ModelCheckpoint))

    def _optimizers(self, model):
        config = model.configure_optimizers()
        if isinstance(config, dict):
            scheduler = config.get("lr_scheduler")
            if scheduler is not None and not isinstance(scheduler, dict):
                scheduler = {"scheduler": scheduler, "monitor": config.get("monitor")}
            config = [config["optimizer"]], [scheduler] if scheduler is not None else []
        if not isinstance(config, (list, tuple)):
            return [config], []
        optimizers, schedulers = config if len(config) == 2 and isinstance(config[0], (list, tuple)) else (config, [])
        schedulers = [s if isinstance(s, dict) else {"scheduler": s, "interval": "epoch"} for s in schedulers]
        return list(optimizers), schedulers

    def fit(self, model, train_dataloaders=None, val_dataloaders=None, **kwargs):
        import torch
        model.trainer = self
        optimizers, schedulers = self._optimizers(model)
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            model.train()
            for batch_idx, batch in enumerate(train_dataloaders):
                loss = model.training_step(batch, batch_idx)
                loss = loss["loss"] if isinstance(loss, dict) else loss
                for opt in optimizers:
                    opt.zero_grad()
                loss.backward()
                if self.gradient_clip_val:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), self.gradient_clip_val)
                for opt in optimizers:
                    opt.step()
                for s in schedulers:
                    if s.get("interval", "epoch") == "step":
                        s["scheduler"].step()
            metrics = {} if val_dataloaders is None else self._evaluate(model, val_dataloaders, "validation_step")
            self.checkpoint_callback._after_validation(model, metrics)
            for s in schedulers:
                if s.get("interval", "epoch") == "epoch" and s.get("monitor"):  # ReduceLROnPlateau
                    s["scheduler"].step(metrics[s["monitor"]])
                elif s.get("interval", "epoch") == "epoch":
                    s["scheduler"].step()

    def _evaluate(self, model, loader, step):
        import torch
        model.trainer, model._fake_logged = self, {}
        model.eval()
        with torch.no_grad():
            for batch_idx, batch in enumerate(loader):
                model._fake_batch_size = len(batch[0]) if isinstance(batch, (list, tuple)) else len(batch)
                getattr(model, step)(batch, batch_idx)
        model.train()
        logged = model.__dict__.pop("_fake_logged")
        return {k: sum(v * n for v, n in values) / sum(n for _, n in values) for k, values in logged.items()}

    def validate(self, model, dataloaders=None, verbose=True, **kwargs):
        return [self._evaluate(model, dataloaders, "validation_step")]

    def test(self, model, dataloaders=None, verbose=True, **kwargs):
        return [self._evaluate(model, dataloaders, "test_step")]


class _Callback:
    def __init__(self, *args, **kwargs):
        pass


LearningRateMonitor = Callback = EarlyStopping = _Callback
_CHECKPOINTS = {}  # best_model_path -> (hparams, state dict): kept in memory, nothing is written


class ModelCheckpoint(_Callback):
    """Keeps the model's state at the best ``monitor`` value after each validation (the last one without monitor)."""

    def __init__(self, monitor=None, mode="min", **kwargs):
        self.monitor, self.mode, self.best_model_score, self.best_model_path = monitor, mode, None, ""

    def _after_validation(self, model, metrics):
        import copy
        score = metrics.get(self.monitor)
        if self.monitor is not None and score is None:
            return
        if score is not None and self.best_model_score is not None and (
                score <= self.best_model_score if self.mode == "max" else score >= self.best_model_score):
            return
        self.best_model_score = score
        self.best_model_path = f"checkpoint-{id(self)}.ckpt"
        _CHECKPOINTS[self.best_model_path] = (dict(model.hparams), copy.deepcopy(model.state_dict()))
callbacks = __import__("sys").modules[__name__]  # ``from pytorch_lightning.callbacks import ModelCheckpoint``


def _save_hyperparameters(self, *args, ignore=None, **kwargs):
    """The arguments of the ``__init__`` that calls this (Lightning reads its frame the same way)."""
    frame = inspect.currentframe().f_back
    info = inspect.getargvalues(frame)
    hparams = {name: info.locals[name] for name in info.args[1:]}
    if info.keywords:
        hparams.update(info.locals[info.keywords])
    for name in [ignore] if isinstance(ignore, str) else (ignore or ()):
        hparams.pop(name, None)
    object.__setattr__(self, "_fake_hparams", AttributeDict(hparams))


def _lightning_module():
    import torch

    class LightningModule(torch.nn.Module):
        save_hyperparameters = _save_hyperparameters

        @property
        def hparams(self):
            return self.__dict__.setdefault("_fake_hparams", AttributeDict())

        @property
        def device(self):
            return next((p.device for p in self.parameters()), torch.device("cpu"))

        def log(self, name, value, *args, **kwargs):
            logged = self.__dict__.get("_fake_logged")
            if logged is not None:
                value = value.item() if hasattr(value, "item") else float(value)
                logged.setdefault(name, []).append((value, self.__dict__.get("_fake_batch_size", 1)))

        def log_dict(self, *args, **kwargs):
            pass

        @classmethod
        def load_from_checkpoint(cls, checkpoint_path, **kwargs):
            if checkpoint_path not in _CHECKPOINTS:
                raise FileNotFoundError(f"Checkpoint at {checkpoint_path} not found. Aborting training.")
            hparams, state = _CHECKPOINTS[checkpoint_path]
            model = cls(**{**hparams, **kwargs})
            model.load_state_dict(state)
            return model

    return LightningModule


def __getattr__(name):
    if name == "LightningModule":
        globals()[name] = _lightning_module()
        return globals()[name]
    raise AttributeError(name)
