"""``LBFGS``: limited-memory BFGS driven by a closure, following PyTorch's loop and stopping rules."""

from __future__ import annotations

from core._backend import xp_of
from core.autograd import grad_mode
from core.optim.optimizer import Optimizer

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """Quasi-Newton steps from the last ``history_size`` curvature pairs; one parameter group only."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if line_search_fn is not None:
            raise RuntimeError("core's LBFGS supports only line_search_fn=None (fixed step lr)")
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
        offset = 0
        for p in self._params:
            n = p._data.size
            p._data += (direction[offset:offset + n] * step).reshape(p._data.shape)
            p._vc[0] += 1
            offset += n

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
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d, old_dirs, old_stps, ro, h_diag = -flat_grad, [], [], [], 1
            else:
                y, s = flat_grad - prev_flat_grad, d * t
                ys = float(y @ s)
                if ys > 1e-10:
                    if len(old_dirs) == history:
                        old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
                    old_dirs.append(y), old_stps.append(s), ro.append(1.0 / ys)
                    h_diag = ys / float(y @ y)
                d = _two_loop(-flat_grad, old_dirs, old_stps, ro, h_diag)
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            t = min(1.0, 1.0 / float(xp.abs(flat_grad).sum())) * lr if state["n_iter"] == 1 else lr
            if float(flat_grad @ d) > -tol_change:
                break
            self._add_grad(t, d)
            ls_evals = 0
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
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss


def _two_loop(q, old_dirs, old_stps, ro, h_diag):
    """The L-BFGS two-loop recursion: the approximate inverse Hessian applied to ``q``."""
    al = [0.0] * len(old_dirs)
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = float(old_stps[i] @ q) * ro[i]
        q = q - old_dirs[i] * al[i]
    r = q * h_diag
    for i in range(len(old_dirs)):
        be_i = float(old_dirs[i] @ r) * ro[i]
        r = r + old_stps[i] * (al[i] - be_i)
    return r
