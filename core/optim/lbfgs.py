"""``LBFGS``: limited-memory BFGS driven by a closure, following PyTorch's loop and stopping rules."""

from __future__ import annotations

import numpy as np

from core._backend import xp_of
from core._fused import scaled_add, scaled_add_
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.optim._lbfgs_functions import _cubic_interpolate, _strong_wolfe  # noqa: F401 - torch's, libraries import
from core.optim._strong_wolfe import strong_wolfe
from core.optim.optimizer import Optimizer

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """Quasi-Newton steps from the last ``history_size`` curvature pairs; one parameter group only."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self):
        xp = xp_of(self._params[0]._data)
        parts = [p._grad._data.reshape(-1) if p._grad is not None else xp.zeros(p._data.size, p._data.dtype)
                 for p in self._params]
        return xp.concatenate(parts)

    def _add_grad(self, step, direction) -> None:
        """``p.add_(direction's slice, alpha=step)`` for each parameter, rounded once as torch's kernel does."""
        offset = 0
        for p in self._params:
            n = p._data.size
            scaled_add_(xp_of(p._data), p._data, direction[offset:offset + n].reshape(p._data.shape), step)
            p._vc[0] += 1
            offset += n

    def _line_search(self, closure, t, d, loss, flat_grad, gtd):
        """``strong_wolfe`` from the current parameters, each trial step evaluated and undone."""
        if self.param_groups[0]["line_search_fn"] != "strong_wolfe":
            raise RuntimeError("only 'strong_wolfe' is supported")
        start = [p._data.copy() for p in self._params]

        def evaluate(step):
            self._add_grad(step, d)
            with grad_mode.enable_grad():
                f = float(closure())
            g = self._flat_grad()
            for p, data in zip(self._params, start):
                p._data[...] = data
                p._vc[0] += 1
            return f, g

        tolerance = self.param_groups[0]["tolerance_change"]
        return strong_wolfe(evaluate, t, d, loss, flat_grad, gtd, tolerance_change=tolerance)

    def step(self, closure):
        """Run up to ``max_iter`` iterations; ``closure`` re-evaluates the loss and its gradients."""
        if closure is None:
            raise RuntimeError("LBFGS requires a closure that reevaluates the model and returns the loss")
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change, history = group["tolerance_grad"], group["tolerance_change"], group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with grad_mode.enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        xp = xp_of(flat_grad)
        if float(xp.abs(flat_grad).max()) <= tol_grad:
            return orig_loss
        d, t = _array(state.get("d")), _array(state.get("t"))
        old_dirs, old_stps, ro = (_array(state.get(k)) for k in ("old_dirs", "old_stps", "ro"))
        h_diag, prev_flat_grad = _array(state.get("H_diag")), _array(state.get("prev_flat_grad"))
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d, old_dirs, old_stps, ro, h_diag = -flat_grad, [], [], [], 1
            else:
                y, s = flat_grad - prev_flat_grad, d * d.dtype.type(t)
                ys = y @ s  # NOTE: float32 scalars, as torch's 0-d tensors, all through the update
                if ys > 1e-10:
                    if len(old_dirs) == history:
                        old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
                    old_dirs.append(y), old_stps.append(s), ro.append(1.0 / ys)
                    h_diag = ys / (y @ y)
                if "al" not in state:
                    state["al"] = [None] * history
                d = _two_loop(-flat_grad, old_dirs, old_stps, ro, h_diag, state["al"])
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            t = min(1.0, 1.0 / xp.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad @ d
            if float(gtd) > -tol_change:
                break
            ls_evals = 0
            if group["line_search_fn"] is not None:
                loss, flat_grad, t, ls_evals = self._line_search(closure, t, d, loss, flat_grad, gtd)
                self._add_grad(t, d)
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    with grad_mode.enable_grad():
                        loss = float(closure())
                    flat_grad = self._flat_grad()
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if n_iter == max_iter or evals >= max_eval or float(xp.abs(flat_grad).max()) <= tol_grad:
                break
            if float(xp.abs(d * t).max()) <= tol_change or abs(loss - prev_loss) < tol_change:
                break
        state.update(_tensors(dict(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                                   prev_flat_grad=prev_flat_grad)), prev_loss=prev_loss)
        return orig_loss


def _tensors(values: dict) -> dict:
    """The step's NumPy arrays and scalars as tensors (lists of them as lists), for ``state``: torch's state holds
    tensors, which ``state_dict``/``load_state_dict`` cast and a checkpoint saves."""
    def wrap(v):
        if isinstance(v, list):
            return [wrap(x) for x in v]
        return _tensor_of(v) if hasattr(v, "dtype") else v

    return {k: wrap(v) for k, v in values.items()}


def _tensor_of(value) -> Tensor:
    """An array or a NumPy scalar (what a product of two vectors gives) as a tensor."""
    return new_tensor(np.asarray(value) if isinstance(value, np.generic) else value)


def _array(value):
    """A state entry back as the arrays the step computes with (tensors, lists of them; floats stay)."""
    if isinstance(value, list):
        return [_array(v) for v in value]
    if isinstance(value, Tensor):
        return value._data if value.dim() else value._data[()]
    return value


def _two_loop(q, old_dirs, old_stps, ro, h_diag, al):
    """The L-BFGS two-loop recursion: the approximate inverse Hessian applied to ``q`` (float32 scalars and fused
    adds, as torch's q.add_(..., alpha=-al[i])); ``al`` (the state's, as torch's) gets each pair's coefficient."""
    xp = xp_of(q)
    for i in range(len(old_dirs) - 1, -1, -1):
        coefficient = (old_stps[i] @ q) * ro[i]
        al[i] = _tensor_of(coefficient)
        q = scaled_add(xp, q, old_dirs[i], -coefficient)
    r = q * q.dtype.type(h_diag)
    for i in range(len(old_dirs)):
        be_i = (old_dirs[i] @ r) * ro[i]
        r = scaled_add(xp, r, old_stps[i], _array(al[i]) - be_i)
    return r
