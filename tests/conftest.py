"Fixtures for tests on the real data in shared/data beside the repository (present in CI, absent on a user's clone)."
from pathlib import Path
import pytest
import torch

def shared_data():
    "shared/data in this repository's folder or any folder above it, or None."
    here = Path(__file__).resolve().parent
    return next((d / 'shared' / 'data' for d in here.parents if (d / 'shared' / 'data').is_dir()), None)

@pytest.fixture(scope='session')
def shared_data_root():
    root = shared_data()
    if root is None: pytest.skip('needs shared/data beside the repository (present in CI only)')
    return root

@pytest.fixture(scope='session')
def eurosat_root():
    root = shared_data()
    if root is None or not (root / 'eurosat_rgb').is_dir():
        pytest.skip('needs the full EuroSAT RGB set in shared/data/eurosat_rgb beside the repository (present in CI only)')
    return root / 'eurosat_rgb'

@pytest.fixture(scope='session')
def eurosat_batch(eurosat_root):
    "10 real EuroSAT images of each class (the first by file name), float (100, 3, 64, 64) in [0, 1]."
    from trust_ssl.data import SceneDataset, read_rgb
    ds = SceneDataset(eurosat_root, 'all')
    files = [f for c in range(len(ds.classes)) for f in [f for f, l in zip(ds.files, ds.labels) if l == c][:10]]
    return torch.stack([read_rgb(f) for f in files]).float() / 255
