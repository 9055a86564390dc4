"""``core.distributions``: probability distributions with ``torch.distributions``' API and semantics.

Each distribution has PyTorch's parameters, ``batch_shape``/``event_shape``, ``sample``/``rsample``
(reparameterised draws differentiable through core's autograd), ``log_prob``, ``entropy``,
moments, ``cdf``/``icdf`` where PyTorch has them, ``expand`` and argument validation with
PyTorch's ValueErrors. ``kl_divergence`` covers the common same-family pairs.
"""

from core.distributions import constraints
from core.distributions.bernoulli import Bernoulli
from core.distributions.beta import Beta
from core.distributions.categorical import Categorical
from core.distributions.dirichlet import Dirichlet
from core.distributions.distribution import Distribution
from core.distributions.exp_family import ExponentialFamily
from core.distributions.exponential import Exponential
from core.distributions.gamma import Gamma
from core.distributions.independent import Independent
from core.distributions.kl import kl_divergence, register_kl
from core.distributions.laplace import Laplace
from core.distributions.multinomial import Multinomial
from core.distributions.multivariate_normal import MultivariateNormal
from core.distributions.normal import Normal
from core.distributions.one_hot_categorical import OneHotCategorical
from core.distributions.poisson import Poisson
from core.distributions.uniform import Uniform

__all__ = [
    "Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Exponential", "ExponentialFamily", "Gamma",
    "Independent", "Laplace", "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical", "Poisson",
    "Uniform", "constraints", "kl_divergence", "register_kl",
]
