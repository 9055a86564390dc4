"""``core.distributions``: probability distributions with ``torch.distributions``' API and semantics.

Each distribution has PyTorch's parameters, ``batch_shape``/``event_shape``, ``sample``/``rsample``
(reparameterised draws differentiable through core's autograd), ``log_prob``, ``entropy``,
moments, ``cdf``/``icdf`` where PyTorch has them, ``expand`` and argument validation with
PyTorch's ValueErrors. ``kl_divergence`` covers the common same-family pairs.
"""

from core._module_dir import hiding_submodules as _hiding_submodules
from core.distributions import (  # noqa: F401 - the kl_* modules register KL pairs
    constraint_registry,
    constraints,
    kl_continuous_bernoulli,
    kl_mixed,
    kl_more,
    kl_pareto,
    transforms,
)
from core.distributions.bernoulli import Bernoulli
from core.distributions.beta import Beta
from core.distributions.binomial import Binomial
from core.distributions.categorical import Categorical
from core.distributions.cauchy import Cauchy
from core.distributions.chi2 import Chi2
from core.distributions.constraint_registry import biject_to, transform_to
from core.distributions.continuous_bernoulli import ContinuousBernoulli
from core.distributions.dirichlet import Dirichlet
from core.distributions.distribution import Distribution
from core.distributions.exp_family import ExponentialFamily
from core.distributions.exponential import Exponential
from core.distributions.fishersnedecor import FisherSnedecor
from core.distributions.gamma import Gamma
from core.distributions.generalized_pareto import GeneralizedPareto
from core.distributions.geometric import Geometric
from core.distributions.gumbel import Gumbel
from core.distributions.half_cauchy import HalfCauchy
from core.distributions.half_normal import HalfNormal
from core.distributions.independent import Independent
from core.distributions.inverse_gamma import InverseGamma
from core.distributions.kl import kl_divergence, register_kl
from core.distributions.kumaraswamy import Kumaraswamy
from core.distributions.laplace import Laplace
from core.distributions.lkj_cholesky import LKJCholesky
from core.distributions.log_normal import LogNormal
from core.distributions.logistic_normal import LogisticNormal
from core.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from core.distributions.mixture_same_family import MixtureSameFamily
from core.distributions.multinomial import Multinomial
from core.distributions.multivariate_normal import MultivariateNormal
from core.distributions.negative_binomial import NegativeBinomial
from core.distributions.normal import Normal
from core.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from core.distributions.pareto import Pareto
from core.distributions.poisson import Poisson
from core.distributions.relaxed_bernoulli import RelaxedBernoulli
from core.distributions.relaxed_categorical import RelaxedOneHotCategorical
from core.distributions.studentT import StudentT
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import *  # noqa: F403
from core.distributions.uniform import Uniform
from core.distributions.von_mises import VonMises
from core.distributions.weibull import Weibull
from core.distributions.wishart import Wishart
from core.nn import _module_paths

__all__ = [
    "Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Exponential", "ExponentialFamily", "Gamma",
    "Independent", "Laplace", "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical", "Poisson",
    "Uniform", "constraints", "kl_divergence", "register_kl",
    "Binomial", "Cauchy", "Chi2", "Geometric", "Gumbel", "HalfNormal", "LogNormal", "StudentT",
    "TransformedDistribution", "biject_to", "LowRankMultivariateNormal", "MixtureSameFamily", "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "HalfCauchy", "Pareto", "Weibull", "NegativeBinomial",
    "transform_to", "transforms", "constraint_registry", "ContinuousBernoulli", "FisherSnedecor", "GeneralizedPareto",
    "InverseGamma", "Kumaraswamy", "LogisticNormal", "OneHotCategoricalStraightThrough", "VonMises",
    "LKJCholesky", "Wishart",
    *transforms.__all__,
]


# PyTorch's class paths (torch.distributions.transforms.StackTransform...): core keeps some in its own files
_module_paths.place_classes(__name__, "transforms", "CatTransform CorrCholeskyTransform "
                            "CumulativeDistributionTransform LowerCholeskyTransform PositiveDefiniteTransform "
                            "StackTransform ExpTransform PowerTransform SigmoidTransform SoftplusTransform "
                            "TanhTransform AbsTransform AffineTransform SoftmaxTransform StickBreakingTransform")
del _module_paths

# dir() lists torch.distributions' names: core's extra files stay out of it
__dir__ = _hiding_submodules(__name__, (
    "kl_continuous_bernoulli", "kl_mixed", "kl_more", "kl_pareto", "straight_through", "transforms_more",
    "_transforms_elementwise", "_transforms_simplex",
))
