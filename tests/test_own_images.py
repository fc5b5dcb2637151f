"""Your own images with the default preset, through `python -m trust_ssl.train`: a flat folder of aerial tiles the
project never pretrained on, and a class-folder dataset with no known split, each for 2 steps; `split='auto'` picks
every image of both and the run says so."""
import json, subprocess, sys
from pathlib import Path
import pytest
import torch
from PIL import Image
from trust_ssl.data import BigEarthNetCorpus

def tiles(shared: Path, size: int = 48, stride: int = 9) -> list[Image.Image]:
    "81 overlapping RGB tiles of the BigEarthNet-S2 patch in shared/data (120 x 120 px at 10 m): aerial images never pretrained on."
    img = BigEarthNetCorpus(shared / 'bigearthnet_s2_sample', size=None)[0]
    return [Image.fromarray(img[:, y:y + size, x:x + size].permute(1, 2, 0).numpy())
            for y in range(0, 120 - size + 1, stride) for x in range(0, 120 - size + 1, stride)]

def pretrain(data: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'trust_ssl.train', f'data={data}', 'max_steps=2', f'out_dir={out}'],
                          capture_output=True, text=True, timeout=600)

def check_run(r: subprocess.CompletedProcess, out: Path):
    assert r.returncode == 0, r.stderr[-2000:]
    assert "split 'all'" in r.stdout, r.stdout[-2000:]                       # the run names the split it chose
    cfg = json.loads((out / 'config.json').read_text())
    assert (cfg['preset'], cfg['split']) == ('sample', 'all')
    assert torch.load(out / 'checkpoint.pt', weights_only=True)['step'] == 2

def test_flat_folder_of_new_aerial_images(shared_data_root, tmp_path):
    flat = tmp_path / 'my_tiles'; flat.mkdir()
    for i, t in enumerate(tiles(shared_data_root)): t.save(flat / f'tile_{i:03d}.png')
    check_run(pretrain(flat, tmp_path / 'runs' / 'flat'), tmp_path / 'runs' / 'flat')

def test_class_folders_of_a_dataset_never_seen(shared_data_root, tmp_path):
    root = tmp_path / 'field_survey'
    for i, t in enumerate(tiles(shared_data_root)):
        (root / ('north' if i < 45 else 'south')).mkdir(parents=True, exist_ok=True); t.save(root / ('north' if i < 45 else 'south') / f'{i:03d}.png')
    check_run(pretrain(root, tmp_path / 'runs' / 'classes'), tmp_path / 'runs' / 'classes')
