"""print() of tensors in the corners learners meet, as PyTorch 2.13 prints them (#19): print options
(precision, sci_mode, linewidth, threshold/edgeitems, profiles), mixed magnitudes, every dtype, 0-d and empty
tensors, huge/tiny numbers, -0.0, nan/inf, requires_grad/grad_fn suffixes, Parameter and format specs. Each
snippet runs with torch and with core (tests/core/printed_twin.py resets the print options after it)."""

from __future__ import annotations

import pytest

import core
from tests.core.printed_twin import shown

SNIPPETS = {
    "precision": (
        'torch.set_printoptions(precision=2); '
        'print(torch.tensor([1.23456, 2.5, 1e-3])); '
        "torch.set_printoptions(profile='default')"
    ),
    "sci_mode_on_and_off": (
        'torch.set_printoptions(sci_mode=True); '
        'print(torch.tensor([1.5, 2.])); '
        'torch.set_printoptions(sci_mode=False); '
        'print(torch.tensor([1e-8, 1e8])); '
        "torch.set_printoptions(profile='default'); "
        'torch.set_printoptions(sci_mode=None)'
    ),
    "linewidth": (
        'torch.set_printoptions(linewidth=30); '
        'print(torch.arange(20.)); '
        "torch.set_printoptions(profile='default')"
    ),
    "threshold_and_edgeitems": (
        'torch.set_printoptions(threshold=5, edgeitems=2); '
        'print(torch.arange(10.)); '
        'print(torch.arange(30.).view(5,6)); '
        "torch.set_printoptions(profile='default')"
    ),
    "profiles_short_and_full": (
        "torch.set_printoptions(profile='short'); "
        'print(torch.randn(5,5)); '
        'print(torch.arange(2000)); '
        "torch.set_printoptions(profile='full'); "
        'print(torch.arange(1100)); '
        "torch.set_printoptions(profile='default')"
    ),
    "summarised_over_a_thousand": 'print(torch.arange(1001.)); print(torch.arange(2000).view(40, 50))',
    "mixed_magnitudes": (
        'print(torch.tensor([1e-5, 1., 1e5])); '
        'print(torch.tensor([1e-4, 1.])); '
        'print(torch.tensor([0.001, 1000.])); '
        'print(torch.tensor([1., 2., 3.])); '
        'print(torch.tensor([123456789., 1.]))'
    ),
    "int_bool_complex_half_bfloat16": (
        'print(torch.tensor([1, -2, 300])); '
        'print(torch.tensor([True, False])); '
        'print(torch.tensor([1+2j, -0.5j])); '
        'print(torch.tensor([1.5, 2], dtype=torch.float16)); '
        'print(torch.tensor([1.5, 2], dtype=torch.bfloat16)); '
        'print(torch.tensor([1,2], dtype=torch.uint8)); '
        'print(torch.tensor([1,2], dtype=torch.int32)); '
        'print(torch.tensor([1.,2.], dtype=torch.float64))'
    ),
    "zero_dim": (
        'print(torch.tensor(3.5)); '
        'print(torch.tensor(3)); '
        'print(torch.tensor(True)); '
        'print(torch.tensor(2., dtype=torch.float64)); '
        'print(torch.tensor(1+1j))'
    ),
    "empty": (
        'print(torch.tensor([])); '
        'print(torch.zeros(0, 3)); '
        'print(torch.zeros(2, 0)); '
        'print(torch.zeros(0, dtype=torch.long)); '
        'print(torch.zeros(0, 3, requires_grad=True))'
    ),
    "very_large_small_and_negative_zero": (
        'print(torch.tensor([1e30, 1e-30])); '
        'print(torch.tensor([3.4e38])); '
        'print(torch.tensor([1e-45])); '
        'print(torch.tensor([1e300], dtype=torch.float64)); '
        'print(torch.tensor([-0.0, 0.0])); '
        'print(torch.tensor(-0.0))'
    ),
    "nan_and_inf": (
        "print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5])); "
        "print(torch.tensor([float('nan')])); "
        "print(torch.tensor([float('inf'), 1e10])); "
        "print(torch.tensor([float('nan'), 1e-10, 1.]))"
    ),
    "requires_grad_and_grad_fn_suffixes": (
        'a = torch.ones(2, requires_grad=True); '
        'print(a); '
        'print(a*2); '
        'print((a*2).sum()); '
        'print(a.mean()); '
        'print(a[0]); '
        'print(a.view(2,1)); '
        'print(a.exp()); '
        'print(torch.tensor(2.0, requires_grad=True))'
    ),
    "parameter": (
        'print(nn.Parameter(torch.ones(2))); '
        'print(nn.Parameter(torch.ones(2), requires_grad=False)); '
        'print(nn.Parameter(torch.tensor(1.)))'
    ),
    "format_spec_on_a_0d_tensor": (
        'x = torch.tensor(3.14159); '
        'print(f"{x:.2f}"); '
        'print(f"{x}"); '
        'print("{:.3e}".format(x)); '
        'print(f"{x.item():.2f}")'
    ),
    "format_spec_on_a_1d_tensor": 'x = torch.tensor([3.14159]); print(f"{x:.2f}")',
    "f_string_without_spec": 'x = torch.tensor([3.14159]); print(f"{x}")',
    "int_format_spec": 'x = torch.tensor(3); print(f"{x:5d}")',
    "str_repr_format": 'print(str(torch.ones(2)), repr(torch.ones(2)), format(torch.ones(2)))',
    "three_dims": 'print(torch.randn(3,4,5))',
    "float64_scaled": 'print(torch.randn(2, 3, dtype=torch.float64) * 1000)',
    "two_by_two": 'print(torch.tensor([[1.5, -2.25], [100., 0.]]))',
    "half_with_grad_fn": 'print(torch.ones(2, dtype=torch.float16, requires_grad=True) * 2)',
    "small_int_and_complex128": (
        'print(torch.ones(2, dtype=torch.int64).float().to(torch.int16)); '
        'print(torch.ones(2, dtype=torch.int8)); '
        'print(torch.zeros(2, dtype=torch.complex128))'
    ),
    "half_and_bfloat16_magnitudes": (
        'print(torch.tensor([1e-3, 1e3], dtype=torch.float16)); '
        'print(torch.tensor([65504.], dtype=torch.float16)); '
        'print(torch.tensor([1e20, 1.], dtype=torch.bfloat16))'
    ),
    "non_contiguous_views": (
        'print(torch.arange(12).view(3,4).t()); '
        'print(torch.ones(2,3)[:, 1]); '
        'print(torch.ones(3).expand(2,3))'
    ),
    "nan_with_large_and_wide_ranges": (
        "print(torch.tensor([[float('nan'), 1e8], [1., 2.]])); "
        'print(torch.tensor([1e15, 1.])); '
        'print(torch.tensor([12345.678, 0.001]))'
    ),
    "float64_digits": (
        'print(torch.tensor([0.1, 0.25], dtype=torch.float64)); '
        'print(torch.tensor([1/3], dtype=torch.float64)); '
        'print(torch.tensor([1e-17, 1.], dtype=torch.float64))'
    ),
    "devices_and_meta": (
        "print(torch.ones(2).to(torch.device('cpu'))); "
        "print(torch.ones(2, device='meta')); "
        "print(torch.empty(2, 3, device='meta'))"
    ),
    "grad_and_grad_fn_objects": (
        'print(torch.ones(2).grad); '
        'a=torch.ones(2, requires_grad=True); '
        '(a*3).sum().backward(); '
        'print(a.grad); '
        'print(a.grad_fn); '
        'print((a*2).grad_fn); '
        'print((a*2).grad_fn.next_functions)'
    ),
    "shape_dtype_device_finfo": (
        'print(torch.ones(2).shape, torch.ones(2).size(), torch.ones(2).dtype, torch.ones(2).device, '
        'torch.Size([]), torch.ones(2).stride(), torch.float32, torch.finfo(torch.float32), torch.iinfo(torch.int8))'
    ),
    "precision_ten": (
        'torch.set_printoptions(precision=10); '
        'print(torch.tensor([1/3])); '
        'print(torch.tensor([1/3], dtype=torch.float64)); '
        "torch.set_printoptions(profile='default')"
    ),
    "near_integer_and_large_values": (
        'print(torch.tensor([1.0000001, 1.])); '
        'print(torch.tensor([100000., 1.])); '
        'print(torch.tensor([99999.5, 1.])); '
        'print(torch.tensor([1e8])); '
        'print(torch.tensor([1e7, 1.]))'
    ),
    "tensors_inside_containers": (
        'print([torch.tensor(1.), torch.tensor([2., 3.])]); '
        "print({'a': torch.ones(1)}); "
        'print((torch.ones(1),))'
    ),
    "tolist_item_numpy": (
        'x = torch.ones(3, requires_grad=True); '
        'y = x.sum(); '
        'print(y.item(), y.tolist(), x.tolist(), x.detach().numpy())'
    ),
    "threshold_on_int_and_bool": (
        'torch.set_printoptions(threshold=3); '
        'print(torch.arange(5)); '
        'print(torch.tensor([True]*5)); '
        "torch.set_printoptions(profile='default')"
    ),
    "several_options_at_once": (
        'torch.set_printoptions(precision=3, linewidth=40, sci_mode=True); '
        'print(torch.randn(4,4)); '
        "torch.set_printoptions(profile='default'); "
        'torch.set_printoptions(sci_mode=None)'
    ),
    "packed_sequence": 'print(torch.nn.utils.rnn.pack_sequence([torch.ones(3), torch.ones(2)]))',
    "cumsum_grad_fn": (
        'print(torch.tensor([1,2]).float().requires_grad_()); '
        'print(torch.tensor([[1,2]], dtype=torch.float32).cumsum(1))'
    ),
    "linspace_logspace_tiny": (
        'print(torch.linspace(0, 1, 7)); '
        'print(torch.logspace(-10, 10, 5)); '
        'print(torch.randn(3)*1e-6)'
    ),
    "float64_tiny": (
        'print(torch.tensor([1e-300, 1.], dtype=torch.float64)); '
        'print(torch.tensor([1.5e-5, 2.], dtype=torch.float64))'
    ),
    "complex_mixed_magnitudes": (
        'print(torch.tensor([[1+2j, 3.5-1e-3j],[0, 1e5j]])); '
        "print(torch.tensor([float('nan')+1j]))"
    ),
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_printed_tensor_is_torchs(source, torch):
    assert shown(core, source) == shown(torch, source)
