"The project settings that the notebooks and papermill rely on."
import json, re
import pytest
from pathlib import Path
from nbdev.config import get_config
from nbdev.clean import clean_nb

ROOT = Path(__file__).resolve().parents[1]

def test_papermill_parameters_tag_survives_nbdev_clean():
    cfg = get_config(path=ROOT)
    nb = {'nbformat': 4, 'nbformat_minor': 5, 'metadata': {'kernelspec': {'name': 'python3', 'display_name': 'Python 3'}},
          'cells': [{'cell_type': 'code', 'id': 'a1', 'execution_count': 3, 'outputs': [], 'source': 'method: str = "trust_ssl"',
                     'metadata': {'tags': ['parameters'], 'scrolled': True, 'collapsed': False}}]}
    clean_nb(nb, allowed_cell_metadata_keys=cfg.allowed_cell_metadata_keys.split())
    cell = nb['cells'][0]
    assert cell['metadata'] == {'tags': ['parameters']}
    assert cell['execution_count'] is None

def test_slow_and_gpu_cells_are_skipped_by_default():
    assert set(get_config(path=ROOT).tst_flags.split()) == {'slow', 'gpu'}

def test_every_library_notebook_has_its_module():
    for nb in sorted((ROOT / 'nbs').glob('[0-9]*.ipynb')):
        text = nb.read_text()
        if '#| default_exp ' not in text: continue
        mod = text.split('#| default_exp ')[1].split('\\n')[0].split('"')[0].strip()
        assert (ROOT / 'trust_ssl' / f'{mod}.py').exists(), f'{nb.name} exports {mod}, but trust_ssl/{mod}.py is missing'

def test_torch_floor_is_stated_once_and_matches_the_package_metadata():
    "README states the supported torch and torchvision once; settings.ini `requirements` has the same lower bounds."
    floors = dict(r.split('>=') for r in get_config(path=ROOT).requirements.split() if '>=' in r)
    readme = (ROOT / 'README.md').read_text()
    stated = re.findall(r'torch (\d+\.\d+) or later and torchvision (\d+\.\d+) or later', readme)
    assert stated == [(floors['torch'], floors['torchvision'])], (stated, floors)
    assert not re.search(r'torch(?:vision)? \d+\.\d+ (?:and later|to \d)', readme)   # no second, different statement


def test_minimum_python_is_stated_once_and_matches_the_settings():
    "README's minimum Python is settings.ini's `min_python` (which the package metadata carries)."
    stated = re.findall(r'Python (\d+\.\d+) or later', (ROOT / 'README.md').read_text())
    assert stated == [get_config(path=ROOT).min_python], stated

def _declarations(path):
    "The annotated assignments of a notebook's parameters cell (each parameter must have its type)."
    import ast
    nb = json.loads(path.read_text())
    cell = next(c for c in nb['cells'] if 'parameters' in c.get('metadata', {}).get('tags', []))
    body = ast.parse(''.join(cell['source'])).body
    assert all(isinstance(n, ast.AnnAssign) for n in body if isinstance(n, (ast.Assign, ast.AnnAssign))), f'{path.name}: a parameter without its type'
    return [n for n in body if isinstance(n, ast.AnnAssign)]

def _parameters(path):
    "The annotated names of a notebook's parameters cell, with their default values."
    import ast
    return {n.target.id: ast.literal_eval(n.value) for n in _declarations(path)}

def test_pretrain_notebook_takes_a_configuration_not_a_mirror_of_it():
    "10_pretrain resolves like every entry point: its preset defaults to DEFAULT_PRESET, and of TrainConfig's fields it names only the run's identity; the rest come in `config` (a file) and `overrides`."
    import dataclasses
    from trust_ssl.config import DEFAULT_PRESET, TrainConfig
    params = _parameters(ROOT / 'nbs' / '10_pretrain.ipynb')
    assert params['preset'] == DEFAULT_PRESET and params['config'] == '' and params['overrides'] == {}
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    assert set(params) & fields == {'preset', 'method', 'seed', 'data', 'out_dir'}, sorted(set(params) & fields)

def test_every_papermill_notebook_checks_its_parameters():
    "The first code cell after the parameters calls check_parameters, so that a misspelt or mistyped -p stops the notebook."
    checked = 0
    for path in sorted((ROOT / 'nbs').glob('*.ipynb')):
        cells = [c for c in json.loads(path.read_text())['cells'] if c['cell_type'] == 'code']
        at = [i for i, c in enumerate(cells) if 'parameters' in c.get('metadata', {}).get('tags', [])]
        if not at: continue
        _parameters(path)
        assert 'check_parameters(globals()' in ''.join(cells[at[0] + 1]['source']), path.name
        checked += 1
    assert checked >= 7, checked

_SHELL_CHECK = r"""
import json, sys, papermill
from pathlib import Path
from execnb.shell import CaptureShell
from trust_ssl.core import check_parameters, declared_parameters
def error(f):
    try: f()
    except TypeError as e: return str(e)
out = {}
for path, bad, tmp in json.loads(sys.argv[1]):
    name = Path(path).stem
    nb = papermill.execute_notebook(path, tmp, {'not_a_parameter': 1, bad: 2}, prepare_only=True, progress_bar=False)
    cells = [c for c in nb.cells if c.cell_type == 'code']
    upto = next(i for i, c in enumerate(cells) if 'injected-parameters' in c.metadata.get('tags', []))
    shell = CaptureShell()
    for c in cells[:upto + 1]:
        r = shell.run_cell(c.source)
        assert r.exception is None, (name, c.source[:200], r.exception)
    ns = shell.user_ns
    kept = {k: repr(v) for k, v in ns['__annotations__'].items()} if '__annotations__' in ns else None
    declared = {k: repr(v) for k, v in declared_parameters(ns).items()}
    ns.pop('__annotations__', None)                              # as Python 3.14 leaves a notebook's namespace,
    last = list(declared)[-1]                                    # with an __annotate__ that knows only the last annotated line
    ns['__annotate__'] = lambda format, last=last: {last: str}
    unknown = error(lambda: check_parameters(ns, name))
    del ns['not_a_parameter']
    out[name] = dict(kept=kept, declared=declared, unknown=unknown, mistyped=error(lambda: check_parameters(ns, name)))
print(json.dumps(out))
"""

def test_parameters_are_checked_from_the_cells_ipython_ran(tmp_path):
    """Each papermill notebook, its parameters injected by papermill and its cells run in IPython as nbdev_test runs them
    (execnb's shell): `declared_parameters` reads from the cells' source what `__annotations__` holds up to Python 3.13,
    and `check_parameters` still refuses an unknown and a mistyped parameter, naming every declared one, once
    `__annotations__` is gone and `__annotate__` knows only the last annotated line, as Python 3.14 (PEP 649) leaves a
    notebook's namespace in IPython. One process for all of them."""
    import ast, subprocess, sys
    cases = []
    for path in sorted((ROOT / 'nbs').glob('*.ipynb')):
        if not any('parameters' in c.get('metadata', {}).get('tags', []) for c in json.loads(path.read_text())['cells']): continue
        first_str = next(n.target.id for n in _declarations(path) if ast.unparse(n.annotation) == 'str')
        cases.append((str(path), first_str, str(tmp_path / path.name)))
    assert len(cases) >= 7, cases
    r = subprocess.run([sys.executable, '-c', _SHELL_CHECK, json.dumps(cases)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    for path, bad, _ in cases:
        name, params = Path(path).stem, _parameters(Path(path))
        got = out[name]
        if sys.version_info < (3, 14): assert got['declared'] == got['kept'], name
        assert set(got['declared']) == set(params), name
        assert got['unknown'] == f"{name}: unknown parameter(s) ['not_a_parameter']; its parameters are {sorted(params)}", got['unknown']
        assert got['mistyped'].startswith(f'{name}: `{bad}` must be str, got 2') and 'pass a string with -r (raw)' in got['mistyped'], got['mistyped']

def test_papermill_sees_every_notebook_parameter(caplog):
    "papermill's own parser (`--help-notebook`, the 'unknown parameter' check) reads each parameters cell whole, silently."
    import ast, logging
    from papermill.translators import PythonTranslator
    checked = 0
    for path in sorted((ROOT / 'nbs').glob('*.ipynb')):
        cells = [c for c in json.loads(path.read_text())['cells'] if 'parameters' in c.get('metadata', {}).get('tags', [])]
        for cell in cells:
            source = ''.join(cell['source'])
            targets = [n.target if isinstance(n, ast.AnnAssign) else n.targets[0]
                       for n in ast.parse(source).body if isinstance(n, (ast.AnnAssign, ast.Assign))]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger='papermill'):
                seen = [p.name for p in PythonTranslator.inspect({'source': source})]
            assert seen == names, f'{path.name}: papermill reads {sorted(set(names) - set(seen))} as no parameter'
            assert not caplog.records, f'{path.name}: {caplog.records[0].getMessage()}'
            checked += 1
    assert checked >= 7, checked

def _readme_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location('ci_readme', ROOT / '.ci' / 'readme.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod

def test_readme_includes_a_generated_table_as_written(tmp_path):
    "`{{< include PATH >}}` in index.ipynb's markdown is replaced by the file's text (PATH relative to nbs/); a missing file stops the render, naming it."
    readme = _readme_module()
    (tmp_path / 'nbs').mkdir(); (tmp_path / 'table.md').write_text('Caption.\n\n| a |\n|---|\n| 1 |\n')
    text = readme.expand('Before.\n{{< include ../table.md >}}\nAfter.', nbs=tmp_path / 'nbs')
    assert text == 'Before.\nCaption.\n\n| a |\n|---|\n| 1 |\nAfter.', text
    assert readme.expand('a line that mentions {{< include x.md >}} inside it', nbs=tmp_path / 'nbs').endswith('inside it')   # only a line of its own
    with pytest.raises(SystemExit, match='gone.md is not a file'): readme.expand('{{< include ../gone.md >}}', nbs=tmp_path / 'nbs')

def test_readme_is_rendered_from_index_with_its_includes():
    "README.md is what .ci/readme.py renders from nbs/index.ipynb now, included tables as they are committed (CI checks the same after a render)."
    readme = _readme_module()
    nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text(encoding='utf-8'))
    assert readme.render(nb) == (ROOT / 'README.md').read_text(encoding='utf-8'), 'README.md is stale: run python .ci/readme.py'


def test_every_console_script_names_a_function():
    "Each console script in setup.py points at a function the package has (a moved `main` breaks the installed command)."
    import importlib
    scripts = re.findall(r"'([\w-]+)=([\w.]+):(\w+)'", (ROOT / 'setup.py').read_text())
    assert {s for s, _, _ in scripts} >= {'trust-ssl-train', 'trust-ssl-reproduce', 'trust-ssl-pack'}, scripts
    for name, module, func in scripts:
        assert callable(getattr(importlib.import_module(module), func, None)), f'{name}: {module}.{func} is not a function'

def test_every_module_imports_only_modules_of_earlier_notebooks():
    """The planned order (ARCHITECTURE.md): a module imports only modules whose notebooks come before its own, so the
    notebooks read top to bottom and no module reaches down the order. Read from the exported modules' import lines."""
    order = {m.group(1): nb.name for nb in sorted((ROOT / 'nbs').glob('*.ipynb'))
             if (m := re.search(r'#\| default_exp (\w+)', nb.read_text()))}
    late = []
    for mod, nb in order.items():
        src = (ROOT / 'trust_ssl' / f'{mod}.py').read_text()
        used = set(re.findall(r'^from \.(\w+) import', src, re.M)) | set(re.findall(r'^from trust_ssl\.(\w+) import', src, re.M))
        late += [f'{nb} ({mod}) imports {order[u]} ({u})' for u in sorted(used) if u in order and order[u] > nb]
    assert len(order) > 30 and not late, late
