"""Tables of the HiPhO verifier (VLMEvalKit ``vlmeval/dataset/utils/hipho_verifier.py``
at e8e78f05), used by :mod:`gaia_fast.scorers.vlm.hipho`.
"""

from __future__ import annotations

__all__ = ["ALL_SUBSETS", "REFERENCE_GLOBALS", "UNIT_TEXTS"]

#: The unit words the verifier strips (``unit_texts``: MathQA's list plus SI units), in its
#: order; the verifier then appends each with an ``s``. Each is used as a regular expression.
_UNIT_WORDS: tuple[str, ...] = (
    'east', 'degree', 'mph', 'kmph', 'ft', 'm sqaure', ' m east', 'sq m', 'deg', 'mile', 'q .',
    'monkey', 'prime', 'ratio', 'profit of rs', 'rd', 'o', 'p . m', 'lb', 'tile', 'per', 'lt',
    'gain', 'ab', 'way', 'west', 'no change', 'men', 'soldier', 'pie', 'bc', 'excess', 'st',
    'inches', 'noon', 'percent', 'by', 'gal', 'kmh', 'acre', 'rise', 'a . m', 'th', 'π r 2', 'sq',
    'mark', 'toy', 'coin', 'sq . m', 'gallon', '° f', 'profit', 'minw', 'yr', 'women', 'feet', 'am',
    'pm', 'hr', 'cu cm', 'square', 'v â € ™', 'are', 'rupee', 'rounds', 'cubic', 'cc', 'mtr', 'ohm',
    'number', 'kmph', 'day', 'hour', 'minute', 'min', 'second', 'man', 'woman', 'sec', 'cube', 'mt',
    'sq inch', 'mp', '∏ cm ³', 'hectare', 'more', 'sec', 'unit', 'cu . m', 'cm 2', 'rs .', 'rs',
    'kg', 'month', 'cm', 'mm', 'apple', 'liter', 'loss', 'yard', 'pure', 'year', 'increase',
    'decrease', 'less', 'Surface', 'litre', 'pi sq m', 's .', 'metre', 'meter', 'inch', 'kilogram',
    'second', 'ampere', 'A', 'K', 'mol', 'cd', 'N', 'J', 'W', 'Pa', 'Hz', 'C', 'V', 'Ω', 'F', 'T',
    'H', 'eV', 'kW·h', 'atm', 'bar', '°C',
)
UNIT_TEXTS: tuple[str, ...] = _UNIT_WORDS + tuple(t + "s" for t in _UNIT_WORDS)

#: The names defined in the verifier module's namespace. ``handle_pi`` calls ``eval`` on the
#: answer text there: a name among these (or a builtin) evaluates, any other raises NameError.
REFERENCE_GLOBALS: frozenset[str] = frozenset((
    'BAD_REGEXES', 'BAD_SUBSTRINGS', 'Decimal', 'ExprExtractionConfig', 'FAIL_MSG',
    'LatexExtractionConfig', 'Model_args', 'Mul', 'N', 'Optional', 'Pow', 'TUPLE_CHARS',
    '__builtins__', '__cached__', '__doc__', '__file__', '__loader__', '__name__', '__package__',
    '__spec__', '_inject_implicit_mixed_number', '_is_float', '_is_frac', '_is_int', '_parse_latex',
    '_str_is_int', '_str_to_int', '_strip_properly_formatted_commas', '_strip_string',
    '_sympy_parse', 'answer_tag_reward_fn_for_r1', 'are_equal_under_sympy', 'attach_wrapper',
    'compute_score', 'extract_boxed_answer', 'get_answer_str', 'grade', 'grade_answer_math_verify',
    'grade_answer_mathd', 'grade_answer_sympy', 'grade_answer_xverify', 'handle_pi', 'islice',
    'judge_MC', 'judge_TF', 'last_boxed_only_string', 'last_n_boxed_strings', 'latex2text',
    'localcontext', 'math', 'mathd_normalize_answer', 'os', 'parse', 'partial', 're',
    'remove_boxed', 'repeatness', 'retry', 'should_allow_eval', 'signal', 'solution2answer',
    'split_tuple', 'sympy', 'sympy_normalize_answer', 'sympy_parser', 'threading', 'time',
    'timeout', 'traceback', 'unit_texts', 'verify', 'wraps', 'zip_longest',
))

#: ``HiPhODataset.ALL_SUBSETS``: HiPhO_ALL's subsets, in the order its report lists them.
ALL_SUBSETS: tuple[str, ...] = (
    "IPhO_2024", "IPhO_2025", "EuPhO_2024", "EuPhO_2025", "APhO_2025", "PanPhO_2024", "PanPhO_2025",
    "NBPhO_2024", "NBPhO_2025", "F_MA_2024", "F_MA_2025", "PanMechanics_2024", "PanMechanics_2025",
)
