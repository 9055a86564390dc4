"""``torch.utils.model_zoo``: the old name of ``torch.hub``'s weight download (``load_url``)."""

from core.hub import load_state_dict_from_url as load_url
from core.hub import tqdm

__all__ = ["load_url", "tqdm"]
