"""The transforms of ``torch.distributions.transforms`` onto the simplex: ``SoftmaxTransform`` (not bijective) and
``StickBreakingTransform`` (bijective, ``biject_to(simplex)``'s), with PyTorch's formulas and log-det-Jacobians.
``core.distributions.transforms`` re-exports them and ``core.distributions`` gives them that module as their
``__module__``, PyTorch's path.
"""

import core
from core.distributions import constraints
from core.distributions.transforms import Transform


class SoftmaxTransform(Transform):
    """Unconstrained vectors to the simplex by ``exp`` and normalisation (not bijective)."""

    domain, codomain = constraints.real_vector, constraints.simplex

    def __eq__(self, other):
        return isinstance(other, SoftmaxTransform)

    __hash__ = object.__hash__

    def _call(self, x):
        probs = (x - x.max(-1, keepdim=True)[0]).exp()
        return probs / probs.sum(-1, keepdim=True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return shape

    inverse_shape = forward_shape


class StickBreakingTransform(Transform):
    """R^(K-1) to the K-simplex by stick breaking (bijective), as used by ``biject_to(simplex)``."""

    domain, codomain, bijective = constraints.real_vector, constraints.simplex, True

    def __eq__(self, other):
        return isinstance(other, StickBreakingTransform)

    __hash__ = object.__hash__

    def _offset(self, n, like):
        return (n + 1) - like.new_ones(n).cumsum(-1)

    def _call(self, x):
        finfo = core.finfo(x.dtype)
        z = (x - self._offset(x.shape[-1], x).log()).sigmoid().clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        z_cumprod = (1 - z).cumprod(-1)
        return core.nn.functional.pad(z, [0, 1], value=1) * core.nn.functional.pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = self._offset(y.shape[-1] - 1, y)
        sf = 1 - y_crop.cumsum(-1)
        sf = core.clamp(sf, min=core.finfo(y.dtype).tiny)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        offset = self._offset(x.shape[-1], x)
        x = x - offset.log()
        return (-x + core.nn.functional.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        return tuple(shape[:-1]) + (shape[-1] - 1,)
