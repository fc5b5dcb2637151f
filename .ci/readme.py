"""Write README.md from nbs/index.ipynb (what `nbdev_readme` does, without needing Quarto).

Markdown cells are copied as they are, except that a line `{{< include PATH >}}` (Quarto's include shortcode, PATH
relative to nbs/) is replaced by that file's text: a table the code writes (paper_figures/claims_summary.md) is shown
as written, never copied by hand; code cells become ```python blocks followed by their text output; cells flagged
`#| hide` are left out and `#|` directives are dropped. Run it after editing nbs/index.ipynb:
`python .ci/readme.py`; CI runs it and fails if README.md changes."""
import json, os, re, tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[1]

def cell_text(cell):
    src = cell['source']
    return ''.join(src) if isinstance(src, list) else src

INCLUDE = re.compile(r'^\{\{<\s*include\s+(\S+)\s*>\}\}$')

def expand(body, nbs=None):
    "A markdown cell's text with each `{{< include PATH >}}` line replaced by the file's text (PATH relative to nbs/)."
    nbs = nbs or root / 'nbs'
    def one(line):
        m = INCLUDE.match(line.strip())
        if not m: return line
        f = (nbs / m.group(1)).resolve()
        if not f.is_file(): raise SystemExit(f'nbs/index.ipynb: {line.strip()}: {f} is not a file; expected a Markdown file, its path relative to nbs/')
        return f.read_text(encoding='utf-8').strip()
    return '\n'.join(map(one, body.split('\n')))

def render(nb):
    parts = []
    for cell in nb['cells']:
        text = cell_text(cell)
        lines = text.splitlines()
        directives = [l.strip() for l in lines if l.strip().startswith('#|')]
        if any(d.replace(' ', '') == '#|hide' for d in directives): continue
        body = '\n'.join(l for l in lines if not l.strip().startswith('#|')).strip()
        if not body: continue
        if cell['cell_type'] == 'markdown': parts.append(expand(body))
        elif cell['cell_type'] == 'code':
            parts.append(f'```python\n{body}\n```')
            for out in cell.get('outputs', []):
                data = out.get('text') or out.get('data', {}).get('text/plain')
                if data: parts.append('    ' + ''.join(data).rstrip().replace('\n', '\n    '))
    return '<!-- Generated from nbs/index.ipynb by .ci/readme.py: edit the notebook, not this file. -->\n\n' + '\n\n'.join(parts) + '\n'

def main():
    nb = json.loads((root / 'nbs' / 'index.ipynb').read_text(encoding='utf-8'))
    text = render(nb)
    fd, tmp = tempfile.mkstemp(dir=root, prefix='.README.', suffix='.tmp')
    with os.fdopen(fd, 'w', encoding='utf-8') as f: f.write(text)
    os.replace(tmp, root / 'README.md')

if __name__ == '__main__': main()
