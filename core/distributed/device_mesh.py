"""``torch.distributed.device_mesh``: a named n-d layout of ranks, here over core's world of one process.

Every mesh is therefore all ones in shape, its one coordinate rank 0, each dimension's group the default group.
diffusers' context-parallel config annotates its fields with ``torch.distributed.device_mesh.DeviceMesh``, so the
module must exist for diffusers' models to import; building a mesh behaves as torch's does in a world of 1.
"""

from __future__ import annotations

import core
import core.distributed as dist

__all__ = ["init_device_mesh", "DeviceMesh"]


class DeviceMesh:
    """Ranks laid out as ``mesh`` (a tensor of rank ids) on ``device_type``, optionally with dimension names."""

    def __init__(self, device_type: str, mesh, *, mesh_dim_names=None, backend_override=None, _init_backend=True):
        self.device_type = device_type
        self.mesh = mesh.detach().to(core.int) if isinstance(mesh, core.Tensor) else core.tensor(mesh, dtype=core.int)
        self.mesh_dim_names = tuple(mesh_dim_names) if mesh_dim_names else None
        if not dist.is_initialized():
            dist.init_process_group()  # torch makes the default group from the environment (env://)
        world = dist.get_world_size()
        if self.mesh.numel() > world:
            raise RuntimeError(f"Mesh should not be bigger than default world size {world}, but found "
                               f"{self.mesh.numel()} ranks!")

    @property
    def ndim(self) -> int:
        return self.mesh.dim()

    @property
    def shape(self) -> tuple:
        return tuple(self.mesh.shape)

    def size(self, mesh_dim=None) -> int:
        return self.mesh.numel() if mesh_dim is None else self.mesh.size(mesh_dim)

    def get_rank(self) -> int:
        return dist.get_rank()

    def _dim(self, mesh_dim):
        if mesh_dim is None:
            if self.ndim > 1:
                raise RuntimeError(f"Found the DeviceMesh have {self.ndim} dimensions",
                                   "Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1.")
            return 0
        if isinstance(mesh_dim, str):
            return self._names_to_dims((mesh_dim,))[0]
        return mesh_dim

    def get_local_rank(self, mesh_dim=None) -> int:
        self._dim(mesh_dim)
        return 0  # the one rank's coordinate along any dimension

    def get_coordinate(self):
        return (0,) * self.ndim

    def get_group(self, mesh_dim=None):
        self._dim(mesh_dim)
        return dist.group.WORLD

    def get_all_groups(self) -> list:
        return [dist.group.WORLD] * self.ndim

    def _names_to_dims(self, names) -> list:
        valid = list(self.mesh_dim_names or ())
        if not all(name in valid for name in names):
            raise KeyError(f"Invalid mesh_dim_names {tuple(names)} specified. Valid mesh_dim_names are {valid}.")
        return [valid.index(name) for name in names]

    def __getitem__(self, mesh_dim_names):
        names = (mesh_dim_names,) if isinstance(mesh_dim_names, str) else tuple(mesh_dim_names)
        dims = self._names_to_dims(names)
        if dims == list(range(self.ndim)):
            return self
        keep = self.mesh.permute(*dims, *(d for d in range(self.ndim) if d not in dims))
        keep = keep.reshape(*(self.mesh.size(d) for d in dims), -1)[..., 0]
        return DeviceMesh(self.device_type, keep, mesh_dim_names=names)

    def __repr__(self) -> str:
        sizes = ", ".join(f"{n}={s}" for n, s in zip(self.mesh_dim_names, self.shape)) if self.mesh_dim_names \
            else ", ".join(str(s) for s in self.shape) + ("," if self.ndim == 1 else "")
        return f"DeviceMesh(({sizes}), '{self.device_type}', stride=({', '.join(['()'] * self.ndim)}" \
               f"{',' if self.ndim == 1 else ''}))"  # a world of one: each dimension of size 1 has no stride

    def __eq__(self, other) -> bool:
        return isinstance(other, DeviceMesh) and (self.device_type, self.shape, self.mesh.tolist(),
                                                  self.mesh_dim_names) == (other.device_type, other.shape,
                                                                           other.mesh.tolist(), other.mesh_dim_names)

    def __hash__(self) -> int:
        return hash((self.device_type, self.shape, tuple(self.mesh.flatten().tolist()), self.mesh_dim_names))


def init_device_mesh(device_type: str, mesh_shape, *, mesh_dim_names=None, backend_override=None) -> DeviceMesh:
    """A mesh of ``mesh_shape`` over the world's ranks in order (``mesh_dim_names`` one per dimension)."""
    if mesh_dim_names is not None:
        if len(set(mesh_dim_names)) != len(mesh_dim_names):
            raise RuntimeError("Each mesh_dim_name must be unique. "
                               f"Found repeated mesh_dim_name in mesh_dim_names {mesh_dim_names}")
        if len(mesh_shape) != len(mesh_dim_names):
            raise RuntimeError("mesh_shape and mesh_dim_names should have same length! "
                               f"Found len(mesh_dim_names): {len(mesh_dim_names)} and len(mesh_shape):"
                               f"{len(mesh_shape)}.")
    if device_type and not device_type.isalpha():
        raise RuntimeError(f"Device type with index is not supported but got {device_type}. ",
                           "If you maintained a 'torch.device' object, it's recommended to pass in 'device.type'.")
    count = 1
    for size in mesh_shape:
        count *= size
    return DeviceMesh(device_type, core.arange(count, dtype=core.int).view(*mesh_shape),
                      mesh_dim_names=mesh_dim_names)
