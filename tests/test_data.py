"The data loaders on real data: full EuroSAT packed and read back, the bundled sample, the installed command line."
import os, stat, subprocess, sys
from pathlib import Path
import numpy as np
import pytest
import torch
from trust_ssl.corruptions import psnr
from trust_ssl.data import SceneDataset, bundled_eurosat, read_rgb
from trust_ssl.packed import PackedImages, pack

def test_no_data_root_gives_the_bundled_sample():
    ds = SceneDataset(split='all')
    assert ds.root == bundled_eurosat() and len(ds) == 1000
    assert [ds.labels.count(c) for c in range(10)] == [100] * 10
    assert (bundled_eurosat() / 'LICENSE').read_text().startswith('MIT License')
    img, label = ds[0]
    assert img.shape == (3, 64, 64) and img.dtype == torch.uint8 and label == 0

@pytest.mark.slow
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
        worst = min(worst, psnr(back / 255, orig / 255).min().item())
        total_abs += (back.float() - orig.float()).abs().sum().item()
    mean_abs = total_abs / (27000 * 3 * 64 * 64)
    assert worst >= 30, worst
    assert mean_abs < 3, mean_abs

def test_pack_command_line(tmp_path, capsys):
    "The console script setup.py installs: a pack readable by others under umask 022; bad input in one line, status 2 (checked in this process: the same pack_cli, without three more interpreters starting torch)."
    from trust_ssl.packed import pack_cli
    out = subprocess.run([str(Path(sys.executable).parent / 'trust-ssl-pack'), 'scenes', str(bundled_eurosat()), str(tmp_path / 's.pack')],
                         capture_output=True, text=True, preexec_fn=lambda: os.umask(0o022))
    assert out.returncode == 0, out.stderr
    assert len(PackedImages(tmp_path / 's.pack')) == 1000
    assert stat.S_IMODE((tmp_path / 's.pack').stat().st_mode) == 0o644
    def refused(*args):
        with pytest.raises(SystemExit) as e: pack_cli([str(a) for a in args])
        assert e.value.code == 2
        return capsys.readouterr().err
    assert refused('folder', tmp_path / 'nowhere', tmp_path / 'x.pack') == f'trust-ssl-pack: {tmp_path / "nowhere"}: no such folder; expected a folder of images\n'
    assert not (tmp_path / 'x.pack').exists()
    assert refused('scenes', bundled_eurosat(), '/no/such/dir/x.pack') == 'trust-ssl-pack: /no/such/dir: no such folder to write x.pack into\n'
    assert 'LICENSE is a file, expected a folder of class folders' in refused('scenes', bundled_eurosat() / 'LICENSE', tmp_path / 'y.pack')

def test_bigearthnet_patch(shared_data_root):
    from trust_ssl.data import BigEarthNetCorpus, bigearthnet_labels
    ds = BigEarthNetCorpus(shared_data_root / 'bigearthnet_s2_sample', size=None)
    img = ds[0]
    assert img.shape == (3, 120, 120) and (img.min().item(), img.max().item()) == (0, 255)
    assert bigearthnet_labels(ds.patches[0]) == ['Non-irrigated arable land', 'Pastures']

def test_assets_found_when_the_package_has_no_file(tmp_path):
    """Run from a folder holding a folder named trust_ssl, an editable install's package is a namespace package whose
    __file__ is None; the modules load from their own files, and the bundled sample and paper numbers must still be found."""
    root = Path(__file__).resolve().parents[1] / 'trust_ssl'
    code = ('import runpy, sys, types\n'
            f'pkg = types.ModuleType("trust_ssl"); pkg.__path__ = [{str(root)!r}]; pkg.__file__ = None\n'
            'sys.modules["trust_ssl"] = pkg                      # what the import system builds for a namespace package\n'
            'from trust_ssl.data import bundled_eurosat\n'
            'from trust_ssl.tables import paper_numbers\n'
            'assert (bundled_eurosat() / "Forest").is_dir() and len(paper_numbers()) > 100\n'
            'sys.argv = ["trust_ssl.train", "--help"]; runpy.run_module("trust_ssl.train", run_name="__main__")\n')
    (tmp_path / 'trust_ssl').mkdir()
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert 'usage: python -m trust_ssl.train' in r.stdout
