"""``OneHotCategoricalStraightThrough``: one-hot draws whose ``rsample`` passes gradients to the probabilities by
the straight-through estimator (Bengio et al., 2013): the sample's value, the probabilities' gradient."""

from __future__ import annotations

from core.distributions.one_hot_categorical import OneHotCategorical

__all__ = ["OneHotCategoricalStraightThrough"]


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A one-hot categorical whose ``rsample`` passes gradients straight through to the probabilities (Bengio et
    al., 2013): the sample's value, the probabilities' gradient."""

    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
