"""torch.distributed.device_mesh in a world of one (diffusers' models annotate their parallel config with
``torch.distributed.device_mesh.DeviceMesh``): meshes of ones, their ranks, groups, slices, reprs and errors."""

from __future__ import annotations

import pytest


def _describe(lib, mesh):
    return (repr(mesh), mesh.ndim, mesh.shape, mesh.size(), mesh.get_rank(), mesh.get_coordinate(),
            mesh.mesh_dim_names, mesh.device_type, mesh.mesh.tolist(), str(mesh.mesh.dtype).split(".")[-1],
            mesh.get_all_groups() == [lib.distributed.group.WORLD] * mesh.ndim)


def test_meshes_of_a_world_of_one_as_torch(world_of_one):
    seen = []
    for lib in world_of_one:
        dm = lib.distributed.device_mesh
        one = dm.init_device_mesh("cpu", (1,), mesh_dim_names=("dp",))
        two = lib.distributed.init_device_mesh("cpu", (1, 1), mesh_dim_names=("a", "b"))
        plain = dm.DeviceMesh("cpu", lib.arange(1))
        seen.append((_describe(lib, one), _describe(lib, two), _describe(lib, two["a"]), _describe(lib, plain),
                     one.get_local_rank(), two.get_local_rank("b"), one.get_group() is lib.distributed.group.WORLD,
                     one["dp"] == one, two[("a", "b")] == two, plain == one,
                     lib.distributed.DeviceMesh is dm.DeviceMesh))
    assert seen[0] == seen[1]


def test_mesh_errors_as_torch(world_of_one):
    def calls(lib):
        two = lib.distributed.init_device_mesh("cpu", (1, 1), mesh_dim_names=("a", "b"))
        return [lambda: lib.distributed.init_device_mesh("cpu", (2,)), lambda: two["c"],
                lambda: two.get_local_rank(),
                lambda: lib.distributed.init_device_mesh("cpu", (1,), mesh_dim_names=("a", "b")),
                lambda: lib.distributed.init_device_mesh("cpu", (1, 1), mesh_dim_names=("a", "a")),
                lambda: lib.distributed.init_device_mesh("cpu:0", (1,))]

    outcomes = []
    for lib in world_of_one:
        row = []
        for call in calls(lib):
            with pytest.raises(Exception) as info:
                call()
            row.append((type(info.value).__name__, str(info.value)))
        outcomes.append(row)
    assert outcomes[0] == outcomes[1]
