"Fixtures for tests on the real data in shared/data beside the repository (present in CI, absent on a user's clone)."
from pathlib import Path
import pytest
import torch
from trust_ssl.core import find_shared_data

def shared_data():
    "shared/data beside this repository (or $TRUST_SSL_SHARED_DATA), or None."
    return find_shared_data('', Path(__file__).resolve().parent)

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
def eurosat_batch():
    """10 real EuroSAT images of each class (the first by file name) from the sample bundled with trust_ssl, float
    (100, 3, 64, 64) in [0, 1]: the same images on every machine, with or without shared/data."""
    from trust_ssl.data import SceneDataset, bundled_eurosat, read_rgb
    ds = SceneDataset(bundled_eurosat(), 'all')
    files = [f for c in range(len(ds.classes)) for f in [f for f, l in zip(ds.files, ds.labels) if l == c][:10]]
    return torch.stack([read_rgb(f) for f in files]).float() / 255

def pytest_addoption(parser):
    parser.addoption('--slow', action='store_true', help='also run the tests marked slow (minutes on a 2-core CPU)')

def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: a test that takes minutes on a 2-core CPU; run with --slow')

def pytest_collection_modifyitems(config, items):
    if config.getoption('--slow'): return
    skip = pytest.mark.skip(reason='slow: run with pytest --slow')
    for item in items:
        if 'slow' in item.keywords: item.add_marker(skip)
