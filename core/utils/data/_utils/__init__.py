"""``torch.utils.data._utils``: the private home of collation that data code imports
(``from torch.utils.data._utils.collate import default_collate``)."""

from core.utils.data._utils import collate  # noqa: F401
