"The 45 corruption cells on real EuroSAT images: shape and range, determinism, per-sample variety, monotone severity."
import pytest
import torch
from trust_ssl.corruptions import CORRUPTION_GROUPS, CORRUPTIONS, corrupt, psnr, ssim

DETERMINISTIC = {'gaussian_blur', 'brightness_inversion', 'contrast_reversal'}   # no random part by design
CELLS = [(n, s) for n in CORRUPTIONS for s in range(1, 6)]

@pytest.mark.parametrize('name,severity', CELLS)
def test_shape_range_and_determinism(eurosat_batch, name, severity):
    x = eurosat_batch[:32]
    y = corrupt(x, name, severity, torch.Generator().manual_seed(0))
    assert y.shape == x.shape and y.dtype == x.dtype and y.device == x.device
    assert y.min() >= 0 and y.max() <= 1
    assert not torch.equal(y, x), 'a corruption must change the image'
    assert torch.equal(y, corrupt(x, name, severity, torch.Generator().manual_seed(0)))
    if name not in DETERMINISTIC:
        assert not torch.equal(y, corrupt(x, name, severity, torch.Generator().manual_seed(1))), 'seed must matter'

@pytest.mark.parametrize('name', CORRUPTIONS)
def test_per_sample_variety(eurosat_batch, name):
    "Sixteen copies of one real image: random corruptions treat each copy differently, deterministic ones alike."
    x = eurosat_batch[5:6].expand(16, -1, -1, -1).contiguous()
    y = corrupt(x, name, 4, torch.Generator().manual_seed(0))
    distinct = len({tuple(v.flatten()[::97].tolist()) for v in y})
    if name in DETERMINISTIC: assert distinct == 1
    elif name == 'channel_dropout': assert distinct >= 4, distinct     # only 3! = 6 channel orders exist
    else: assert distinct == 16, distinct

@pytest.mark.parametrize('name', CORRUPTIONS)
def test_severity_is_monotone(eurosat_batch, name):
    "On 100 real images (10 per class), a higher severity never degrades less: SSIM falls, PSNR never rises."
    ys = [corrupt(eurosat_batch, name, s, torch.Generator().manual_seed(0)) for s in range(1, 6)]
    s_ssim = [ssim(eurosat_batch, y).mean().item() for y in ys]
    s_psnr = [psnr(eurosat_batch, y).mean().item() for y in ys]
    assert all(b < a for a, b in zip(s_ssim, s_ssim[1:])), s_ssim
    assert all(b <= a + 1e-6 for a, b in zip(s_psnr, s_psnr[1:])), s_psnr

def test_groups_are_the_papers():
    "The groups of Table III, as its caption lists them: erasure (haze, Gaussian blur, motion blur, occlusion), contradiction (colour distortion, brightness inversion, contrast reversal, channel dropout), weather (rain)."
    paper = {'erasure': {'haze', 'gaussian_blur', 'motion_blur', 'occlusion'},
             'contradiction': {'color_distortion', 'brightness_inversion', 'contrast_reversal', 'channel_dropout'}, 'weather': {'rain'}}
    ours = {g: {c for c, grp in CORRUPTION_GROUPS.items() if grp == g} for g in set(CORRUPTION_GROUPS.values())}
    assert ours == paper, ours

def test_refuses_what_a_new_user_passes(eurosat_batch):
    "Real images in 0..255 (no / 255), as uint8, or as a numpy array: each refused with what was expected."
    x = eurosat_batch[:4]
    with pytest.raises(ValueError, match=r'must lie in \[0, 1\].*use x / 255'): corrupt(x * 255, 'haze', 1)
    with pytest.raises(ValueError, match=r'x\.float\(\) / 255'): corrupt((x * 255).byte(), 'haze', 1)
    with pytest.raises(TypeError, match='must be a torch.Tensor, got numpy.ndarray'): corrupt(x.numpy(), 'haze', 1)
