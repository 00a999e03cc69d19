"""Run VCRDataset.evaluate at a tree, with spacy.load -> spacy.blank (no model download) and
evaluate.load('rouge') -> evaluate's rouge metric re-stated over rouge_score (no hub download)."""
import sys, types
tree, name, path = sys.argv[1:4]
sys.path.insert(0, tree)
import numpy as np, spacy
from rouge_score import rouge_scorer, scoring
spacy.load = lambda model: spacy.blank(model[:2])

class Rouge:  # evaluate-metric/rouge _compute, single references, use_aggregator=True
    def compute(self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
        class Tok:
            def tokenize(self, text): return tokenizer(text)
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=Tok() if tokenizer else None)
        agg = scoring.BootstrapAggregator()
        for ref, pred in zip(references, predictions):
            agg.add_scores(scorer.score(ref, pred))
        res = agg.aggregate()
        return {k: v.mid.fmeasure for k, v in res.items()}
ev = types.ModuleType('evaluate'); ev.load = lambda *a, **k: Rouge(); sys.modules['evaluate'] = ev
from vlmeval.dataset import vcr
vcr.initialize()
obj = object.__new__(vcr.VCRDataset)
obj.dataset_name = name
obj.language = 'en' if 'EN' in name else 'zh'
obj.difficulty = 'easy' if 'EASY' in name else 'hard'
obj.evaluate(path)
