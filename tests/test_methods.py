"""What a method can do is said once, by the capabilities of its class (`trust_ssl.models`): a method registered in
METHODS is known to every list and check derived from them, across the modules; and no hand-written list of method
names comes back into the library, the notebooks' code or the tests, except where one is listed below with its reason."""
import ast, collections, json, re
from pathlib import Path
import numpy as np
import pytest
import torch
from trust_ssl.models import METHODS, Multiplicative, SimCLR, TrustSSL, build_method, methods_with

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = '(' + ', '.join(c.__name__ for c in METHODS.values()) + ')'   # the registry line's tuple of classes

# (file, literal) -> why the literal names methods by hand. Each entry must occur exactly once.
PRIMARIES = "{'image_statistics': SEEDS_PRIMARY, 'random_init': SEEDS_PRIMARY, 'simclr': SEEDS_PRIMARY, 'simclr_families': SEEDS_PRIMARY, 'trust_ssl': SEEDS_PRIMARY, 'multiplicative_isolated': SEEDS_PRIMARY, 'trust_nosel': SEEDS_OTHER, 'trust_constgate': SEEDS_OTHER, 'multiplicative': SEEDS_PRIMARY}"
ALLOWED = {
    ('trust_ssl/models.py', REGISTRY): 'the registry itself',
    ('nbs/06_models.ipynb', REGISTRY): 'the registry itself',
    ('nbs/06_models.ipynb', "('simclr', 'byol', 'vicreg', 'scalar', 'cosine_gate', 'trust_ssl', 'multiplicative', 'multiplicative_isolated', 'multiplicative_global')"):
        "the test that pins the registry's order, the paper's order of the tables' rows",
    ('nbs/16a_plan.ipynb', "('simclr', 'trust_ssl')"):
        "a test's input: one method without and one with evidential heads, whose plan the test spells out",
    ('nbs/16e_reproduce.ipynb', "('simclr', 'trust_ssl')"): 'the same input, for the tests of running that plan',
    ('nbs/15c_tables.ipynb', "['simclr', 'trust_ssl']"): "a test's expected rows of write_table, in METHODS order",
    ('nbs/07h_bench.ipynb', "('simclr', 'trust_ssl', 'byol')"):
        "the presets' cost benchmark times the base, the paper's method and the costliest (BYOL's extra forward)",
    ('trust_ssl/tables.py', "('multiplicative', 'trust_ssl')"):
        "ABLATION: the two forms the paper's ablation table and Fig. 6 compare (multiplicative, additive-residual)",
    ('nbs/15c_tables.ipynb', "('multiplicative', 'trust_ssl')"): 'the same, in its notebook',
    ('nbs/16e_reproduce.ipynb', "('trust_ssl', 'trust_nosel', 'simclr')"):
        "a test's input: a trunk, its branch and a run of its own, whose publishing units the test spells out",
    ('nbs/15d_claims.ipynb', "['multiplicative', 'simclr']"): "a test's expected differences of claim_table (those whose configurations ran)",
    ('trust_ssl/study.py', "('multiplicative_global', 'byol', 'vicreg', 'scalar', 'cosine_gate')"):
        "STUDY's second phase: configurations (named after their methods) that the study trains at seeds 0-2",
    ('nbs/07g_study.ipynb', "('multiplicative_global', 'byol', 'vicreg', 'scalar', 'cosine_gate')"): 'the same, in its notebook',
    ('trust_ssl/study.py', PRIMARIES): "STUDY's first phase: the primary comparisons' configurations, each with the seeds the study gives it",
    ('nbs/07g_study.ipynb', PRIMARIES): 'the same, in its notebook',
}
REGISTRIES = {'CONFIGURATIONS'}   # named registries of the study's configurations: rows named after methods where they are the method

def sources():
    "(file, where, Python source) of every library module, test file and notebook code cell."
    for folder in ('trust_ssl', 'tests'):
        for p in sorted((ROOT / folder).glob('*.py')):
            if p.name != '_modidx.py': yield p.relative_to(ROOT).as_posix(), '', p.read_text()
    for p in sorted((ROOT / 'nbs').glob('*.ipynb')):
        for i, c in enumerate(json.loads(p.read_text())['cells']):
            if c['cell_type'] == 'code':   # IPython magics and shell lines are not Python: `pass` in their place
                yield p.relative_to(ROOT).as_posix(), f' cell {i}', re.sub(r'(?m)^(\s*)[%!].*$', r'\1pass', ''.join(c['source']))

def method_lists(source: str):
    "The tuple, list, set and dict-key literals of `source` that hold two or more method names or method classes."
    names, classes = set(METHODS), {c.__name__ for c in METHODS.values()}
    tree = ast.parse(source)
    registries = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in REGISTRIES for t in n.targets)}
    for node in ast.walk(tree):
        if id(node) in registries: continue
        if isinstance(node, ast.Dict): elts = node.keys
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)): elts = node.elts
        else: continue
        hits = [e for e in elts if isinstance(e, ast.Constant) and e.value in names or isinstance(e, ast.Name) and e.id in classes]
        if len(hits) >= 2: yield ast.unparse(node)

def test_the_scan_finds_what_it_looks_for():
    "Not vacuous: each kind of literal is caught, and the sources hold the notebooks' code."
    assert list(method_lists("if m in ('scalar', 'trust_ssl'): x = ['byol', 'vicreg']; y = {'simclr': 1, 'byol': 2}")) == [
        "('scalar', 'trust_ssl')", "['byol', 'vicreg']", "{'simclr': 1, 'byol': 2}"]
    assert list(method_lists("M = {c.name: c for c in (SimCLR, BYOL)}; ok = ('simclr', 'sel', 'K')")) == ['(SimCLR, BYOL)']
    assert list(method_lists("CONFIGURATIONS = {'simclr': 1, 'byol': 2}; X = {'simclr': 1, 'byol': 2}")) == ["{'simclr': 1, 'byol': 2}"]   # the registry only
    files = {f for f, _, _ in sources()}
    assert {'trust_ssl/models.py', 'nbs/06_models.ipynb', 'nbs/10_pretrain.ipynb', 'tests/test_train.py'} <= files

def test_no_hand_written_lists_of_method_names():
    found = collections.Counter()
    where = collections.defaultdict(list)
    for f, cell, src in sources():
        for lit in method_lists(src): found[f, lit] += 1; where[f, lit].append(f + cell)
    assert found['trust_ssl/models.py', REGISTRY] == 1 and found['nbs/06_models.ipynb', REGISTRY] == 1, 'the registry line was not found'
    unexpected = {where[k][0]: k[1] for k in found if k not in ALLOWED or found[k] > 1}
    assert not unexpected, f'lists of method names written by hand; derive them from METHODS and the capabilities (methods_with): {unexpected}'
    stale = [k for k in ALLOWED if k not in found]
    assert not stale, f'allowed lists that no longer occur (remove them from ALLOWED): {stale}'

class MadeUpTrust(TrustSSL):
    "A made-up member of the Trust family: it inherits the evidential heads and `aux`."
    name = 'made_up_trust'

class MadeUpAnnealed(SimCLR):
    "A made-up SimCLR whose global term the schedule anneals out."
    name = 'made_up_annealed'
    anneals_global = True

@pytest.fixture
def registered(monkeypatch):
    "The two made-up methods, each registered with one line, for one test."
    for cls in (MadeUpTrust, MadeUpAnnealed): monkeypatch.setitem(METHODS, cls.name, cls)

def test_a_registered_method_is_in_every_derived_list(registered):
    assert methods_with('evidential')[-1] == methods_with('takes_aux')[-1] == MadeUpTrust.name
    assert methods_with('anneals_global') == (Multiplicative.name, MadeUpAnnealed.name)
    from trust_ssl.plan import plan
    steps = plan('sample', methods=(MadeUpTrust.name, MadeUpAnnealed.name), evals=('linear', 'ki'), figures=False)
    assert [s.name for s in steps] == [f'pretrain {MadeUpTrust.name} seed 0', f'linear {MadeUpTrust.name} seed 0',
                                       f'ki {MadeUpTrust.name} seed 0', f'pretrain {MadeUpAnnealed.name} seed 0',
                                       f'linear {MadeUpAnnealed.name} seed 0']      # K-I only for the evidential one

def test_a_registered_method_gets_its_schedule(registered):
    from trust_ssl.config import resolve_config
    from trust_ssl.optim import make_schedules
    annealed = make_schedules(resolve_config('paper', method=MadeUpAnnealed.name), 10)['glob']
    assert annealed[0] == 1.0 and annealed[-1] == 0.0
    assert np.all(make_schedules(resolve_config('paper', method=MadeUpTrust.name), 10)['glob'] == 1.0)

def test_a_registered_method_passes_the_evaluations_checks(registered):
    from trust_ssl.evaluate import ki_trajectories
    from trust_ssl.runs import PretrainedRun
    from trust_ssl.ood import ki_scores
    run = lambda name: PretrainedRun(build_method(name, backbone='resnet18', stem='small', **(
        dict(factor_dim=16, prototypes=8) if issubclass(METHODS[name], TrustSSL) else {})).eval(), name, 0, '', 32, 0, Path('-'))
    with pytest.raises(ValueError, match=f"method '{MadeUpAnnealed.name}' has none .*'{MadeUpTrust.name}'"):
        ki_trajectories(run(MadeUpAnnealed.name), None)
    with pytest.raises(ValueError, match='native K\\+I score needs evidential heads'): ki_scores(run(MadeUpAnnealed.name), None)
    images = torch.randint(0, 256, (4, 3, 32, 32), dtype=torch.uint8, generator=torch.Generator().manual_seed(0))
    scores = ki_scores(run(MadeUpTrust.name), images)
    assert scores.shape == (4,) and np.isfinite(scores).all()
