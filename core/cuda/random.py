"""``core.cuda.random``: PyTorch's ``torch.cuda.random`` module, the CUDA generator's seeding and state functions
under the module name libraries call them by (torchattacks' APGD, FAB and Square call
``torch.cuda.random.manual_seed(seed)`` unguarded). The same functions as ``core.cuda``'s: without a GPU the seeding
does nothing and the state lists are empty, as in PyTorch's CPU build."""

from core.cuda import initial_seed, manual_seed, manual_seed_all, seed, seed_all
from core.cuda._runtime import get_rng_state, get_rng_state_all, set_rng_state, set_rng_state_all

__all__ = ["get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all", "manual_seed",
           "manual_seed_all", "seed", "seed_all", "initial_seed"]
