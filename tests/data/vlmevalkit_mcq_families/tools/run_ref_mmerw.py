"""MMERealWorld.evaluate at three commits (methods via ast, `.utils.multiple_choice` pointed at
that commit's extract_characters_regex / get_dimension_rating); copies the _rating.json."""
import os.path as osp, shutil, sys, tempfile
sys.path.insert(0, osp.dirname(osp.abspath(__file__)))
import harness
SRC, DST = sys.argv[1], sys.argv[2]
for commit, mc in [('5b288984', 'mc_5b288984'), ('55fba747', 'mc_55fba747'), ('e8e78f05', 'multiple_choice')]:
    path = osp.join(harness.HERE, 'src', 'image_mcq.py' if commit == 'e8e78f05' else f'image_mcq_{commit}.py')
    text = open(path).read().replace('from .utils.multiple_choice import extract_characters_regex, get_dimension_rating',
                                     f'from .utils.{mc} import extract_characters_regex, get_dimension_rating')
    tmp = tempfile.mktemp(suffix='.py'); open(tmp, 'w').write(text)
    d = tempfile.mkdtemp(prefix='ref_'); f = osp.join(d, 'm_MME-RealWorld.xlsx'); shutil.copy(osp.join(SRC, 'm_MME-RealWorld.xlsx'), f)
    s = harness.make_self('MMERealWorld', 'MME-RealWorld', None, path=tmp)
    import re, ast as _ast
    s.evaluate.__func__.__globals__.update(re=re, ast=_ast, get_file_extension=lambda p: p.split('.')[-1])
    s.evaluate(f)
    shutil.copy(osp.join(d, 'm_MME-RealWorld_rating.json'), osp.join(DST, f'm_MME-RealWorld_rating.{commit}.json'))
    print(commit, 'ok')
