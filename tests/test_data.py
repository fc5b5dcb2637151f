"The data loaders on real data: full EuroSAT packed and read back, the bundled sample, the installed command line."
import subprocess, sys
from pathlib import Path
import numpy as np
import pytest
import torch
from trust_ssl.data import PackedImages, SceneDataset, bundled_eurosat, pack, read_rgb

def test_no_data_root_gives_the_bundled_sample():
    ds = SceneDataset(split='all')
    assert ds.root == bundled_eurosat() and len(ds) == 1000
    assert [ds.labels.count(c) for c in range(10)] == [100] * 10
    assert (bundled_eurosat() / 'LICENSE').read_text().startswith('MIT License')
    img, label = ds[0]
    assert img.shape == (3, 64, 64) and img.dtype == torch.uint8 and label == 0

def test_full_eurosat_packs_and_reads_back(eurosat_root, tmp_path):
    "27,000 images at JPEG quality 90: same labels and classes; every image within JPEG tolerance (PSNR >= 30 dB)."
    src = SceneDataset(eurosat_root, 'all')
    assert len(src) == 27000
    hdr = pack(src, tmp_path / 'eurosat.pack', quality=90)
    size_mib = (tmp_path / 'eurosat.pack').stat().st_size / 2**20
    assert hdr['count'] == 27000 and size_mib < 64, size_mib            # travels to an accelerator machine
    pk = PackedImages(tmp_path / 'eurosat.pack')
    assert pk.classes == src.classes and pk.labels.tolist() == src.labels
    worst, total_abs = float('inf'), 0.
    for start in range(0, 27000, 1000):
        idx = range(start, start + 1000)
        back, _ = pk.read_batch(idx)
        orig = torch.stack([read_rgb(src.files[i]) for i in idx])
        err = back.float() - orig.float()
        mse = err.pow(2).flatten(1).mean(1).clamp_min(1e-10)
        worst = min(worst, (10 * torch.log10(255 ** 2 / mse)).min().item())
        total_abs += err.abs().sum().item()
    mean_abs = total_abs / (27000 * 3 * 64 * 64)
    assert worst >= 30, worst
    assert mean_abs < 3, mean_abs

def test_pack_command_line(tmp_path):
    exe = [str(Path(sys.executable).parent / 'trust-ssl-pack')]          # the console script setup.py installs
    out = subprocess.run(exe + ['scenes', str(bundled_eurosat()), str(tmp_path / 's.pack')], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert len(PackedImages(tmp_path / 's.pack')) == 1000
    bad = subprocess.run(exe + ['folder', str(tmp_path / 'nowhere'), str(tmp_path / 'x.pack')], capture_output=True, text=True)
    assert bad.returncode == 2 and 'nowhere: no such folder' in bad.stderr
    assert not (tmp_path / 'x.pack').exists()

def test_bigearthnet_patch(shared_data_root):
    from trust_ssl.data import BigEarthNetCorpus, bigearthnet_labels
    ds = BigEarthNetCorpus(shared_data_root / 'bigearthnet_s2_sample', size=None)
    img = ds[0]
    assert img.shape == (3, 120, 120) and (img.min().item(), img.max().item()) == (0, 255)
    assert bigearthnet_labels(ds.patches[0]) == ['Non-irrigated arable land', 'Pastures']
