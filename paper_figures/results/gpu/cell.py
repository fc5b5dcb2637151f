# Run one notebook cell (by id) as the library's code: the exported module's names in scope, fastcore.test's checks.
import json, sys
nb, cid, module = sys.argv[1], sys.argv[2], sys.argv[3]
src = ''.join(next(c for c in json.load(open(nb))['cells'] if c.get('id') == cid)['source'])
pre = f'import torch, time\nfrom fastcore.test import *\nfrom {module} import *\nimport {module} as _m\nglobals().update({{k: v for k, v in vars(_m).items() if k.startswith("_") and not k.startswith("__")}})\n'
exec(compile(pre + src, f'{nb}#{cid}', 'exec'), {'__name__': '__main__'})
print(f'{nb}#{cid}: ran')
