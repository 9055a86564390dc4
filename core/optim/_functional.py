"""``torch.optim._functional``: each optimizer's update as a function of lists (params, grads, state buffers).

PyTorch keeps a functional form beside every optimizer class; code that manages its own state (functorch-style
training loops, meta-learning) calls it. core has one implementation of each update rule, the class's, so a
functional call runs one step of the class over the given lists: the given buffers are that step's state, their
tensors are updated in place, and a ``None`` momentum buffer is filled in the list, as PyTorch's functions do.
"""

from __future__ import annotations

from core._tensor import Tensor
from core.autograd import grad_mode
from core.optim.adam import Adam
from core.optim.adam_variants import Adamax, NAdam, RAdam
from core.optim.adaptive import Adadelta, Adagrad, RMSprop
from core.optim.rprop_asgd import ASGD, Rprop
from core.optim.sgd import SGD
from core.optim.sparse_adam import SparseAdam

__all__ = ["adadelta", "adagrad", "adam", "adamax", "adamw", "asgd", "nadam", "radam", "rmsprop", "rprop", "sgd",
           "sparse_adam"]


def _step(cls, params, grads, buffers: dict, **hyper) -> None:
    """One ``cls`` step of ``params`` with ``grads``, whose state per parameter is taken from ``buffers``
    (state key -> list, one entry per parameter; an empty list means the rule keeps no such buffer)."""
    params = list(params)
    if not params:
        return
    optimizer = cls(params, **hyper)
    for i, p in enumerate(params):
        state = optimizer.state[p]
        state.clear()  # Adagrad fills its sums when built; the given ones are the state
        for key, values in buffers.items():
            if values and values[i] is not None:
                state[key] = values[i]
    saved = [p._grad for p in params]
    try:
        for p, g in zip(params, grads):
            p._grad = g
        optimizer.step()
    finally:
        for p, g in zip(params, saved):
            p._grad = g
    with grad_mode.no_grad():
        for i, p in enumerate(params):
            new = optimizer.state[p]
            for key, values in buffers.items():
                if key not in new or not values:
                    continue
                if values[i] is None or not isinstance(values[i], Tensor):
                    values[i] = new[key]
                elif new[key] is not values[i]:
                    values[i].copy_(new[key])


def sgd(params, d_p_list, momentum_buffer_list, has_sparse_grad=False, foreach=None, fused=None, grad_scale=None,
        found_inf=None, *, weight_decay, momentum, lr, dampening, nesterov, maximize):
    """SGD's update: with momentum, a ``None`` buffer in ``momentum_buffer_list`` is replaced by the new one."""
    _step(SGD, params, d_p_list, {"momentum_buffer": momentum_buffer_list}, lr=lr, momentum=momentum,
          dampening=dampening, weight_decay=weight_decay, nesterov=nesterov, maximize=maximize)


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=None, capturable=False,
         differentiable=False, fused=None, grad_scale=None, found_inf=None, has_complex=False,
         decoupled_weight_decay=False, *, amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    """Adam's update (AdamW's with ``decoupled_weight_decay=True``)."""
    _step(Adam, params, grads, {"step": state_steps, "exp_avg": exp_avgs, "exp_avg_sq": exp_avg_sqs,
                                "max_exp_avg_sq": max_exp_avg_sqs if amsgrad else []},
          lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
          decoupled_weight_decay=decoupled_weight_decay)


def adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=None, capturable=False,
          differentiable=False, fused=None, grad_scale=None, found_inf=None, has_complex=False, *, amsgrad, beta1,
          beta2, lr, weight_decay, eps, maximize):
    """AdamW's update: Adam's with the weight decay applied to the parameter."""
    adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, decoupled_weight_decay=True,
         amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay, eps=eps, maximize=maximize)


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False, differentiable=False,
           capturable=False, has_complex=False, *, eps, beta1, beta2, lr, weight_decay):
    """Adamax's update."""
    _step(Adamax, params, grads, {"step": state_steps, "exp_avg": exp_avgs, "exp_inf": exp_infs},
          lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay, maximize=maximize)


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, decoupled_weight_decay=False,
          foreach=None, capturable=False, differentiable=False, has_complex=False, maximize=False, *, beta1, beta2,
          lr, weight_decay, momentum_decay, eps):
    """NAdam's update."""
    _step(NAdam, params, grads, {"step": state_steps, "mu_product": mu_products, "exp_avg": exp_avgs,
                                 "exp_avg_sq": exp_avg_sqs},
          lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
          decoupled_weight_decay=decoupled_weight_decay, maximize=maximize)


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False, foreach=None,
          differentiable=False, capturable=False, has_complex=False, maximize=False, *, beta1, beta2, lr,
          weight_decay, eps):
    """RAdam's update."""
    _step(RAdam, params, grads, {"step": state_steps, "exp_avg": exp_avgs, "exp_avg_sq": exp_avg_sqs},
          lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay,
          decoupled_weight_decay=decoupled_weight_decay, maximize=maximize)


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False, foreach=None,
             differentiable=False, has_complex=False, *, lr, rho, eps, weight_decay, maximize):
    """Adadelta's update."""
    _step(Adadelta, params, grads, {"step": state_steps, "square_avg": square_avgs, "acc_delta": acc_deltas},
          lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)


def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None, found_inf=None,
            has_sparse_grad=False, foreach=None, differentiable=False, has_complex=False, *, lr, weight_decay,
            lr_decay, eps, maximize):
    """Adagrad's update."""
    _step(Adagrad, params, grads, {"step": state_steps, "sum": state_sums},
          lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, eps=eps, maximize=maximize)


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, foreach=None, maximize=False,
            differentiable=False, capturable=False, has_complex=False, *, lr, alpha, eps, weight_decay, momentum,
            centered):
    """RMSprop's update."""
    _step(RMSprop, params, grads, {"step": state_steps, "square_avg": square_avgs,
                                   "momentum_buffer": momentum_buffer_list if momentum > 0 else [],
                                   "grad_avg": grad_avgs if centered else []},
          lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum, centered=centered,
          maximize=maximize)


def rprop(params, grads, prevs, step_sizes, state_steps, foreach=None, capturable=False, maximize=False,
          differentiable=False, has_complex=False, *, step_size_min, step_size_max, etaminus, etaplus):
    """Rprop's update; the per-element step sizes are the given ``step_sizes``."""
    _step(Rprop, params, grads, {"step": state_steps, "prev": prevs, "step_size": step_sizes},
          etas=(etaminus, etaplus), step_sizes=(step_size_min, step_size_max), maximize=maximize)


def asgd(params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False, differentiable=False,
         capturable=False, has_complex=False, *, lambd, lr, t0, alpha, weight_decay):
    """ASGD's update."""
    _step(ASGD, params, grads, {"step": state_steps, "eta": etas, "mu": mus, "ax": axs},
          lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, maximize=maximize)


def sparse_adam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, eps, beta1, beta2, lr, maximize):
    """SparseAdam's update of sparse gradients; ``state_steps`` holds each parameter's step count, already
    advanced by the caller (the one functional form that does not count the step itself)."""
    steps = [s - 1 for s in state_steps]
    _step(SparseAdam, params, grads, {"step": steps, "exp_avg": exp_avgs, "exp_avg_sq": exp_avg_sqs},
          lr=lr, betas=(beta1, beta2), eps=eps, maximize=maximize)
