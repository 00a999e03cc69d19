"""The yale-nlp/Physics list-answer step in linear time.

The harness runs ``re.findall(r"\\boxed{\\\\\\[(.*?)\\\\\\]}|\\\\\\\\\\[boxed{\\\\\\[(.*?)\\\\\\]}\\\\\\\\\\]", box)``
(no DOTALL) on every box. Python's engine rescans the rest of the line from each opener
that does not close, so a box holding ``\\boxed{\\[`` many times on one line costs
quadratic time. :func:`list_groups` gives the same matches with each search resuming where
the previous search of the same literal stopped.
"""

from __future__ import annotations

__all__ = ["list_groups"]

_OPEN1 = "\\boxed{\\["  # \boxed{\[
_CLOSE1 = "\\]}"  # \]}
_OPEN2 = "\\\\[boxed{\\["  # \\[boxed{\[
_CLOSE2 = "\\]}\\\\]"  # \]}\\]


def list_groups(box: str) -> list[str]:
    """The group of every match of the list pattern in ``box``, left to right (what
    ``findall`` returns, one string per match: the group of the alternative that matched).

    Each ``find`` below resumes from a position at or after where the previous ``find`` of
    the same literal started, and its answer is reused while it lies ahead, so every
    literal is searched over the text once: linear time.
    """
    n = len(box)
    out: list[str] = []
    # First occurrence at or after the last query of each literal (n: none).
    nxt = {_OPEN1: -1, _OPEN2: -1, _CLOSE1: -1, _CLOSE2: -1, "\n": -1}

    def first(lit: str, start: int) -> int:
        at = nxt[lit]
        if at < start:
            at = box.find(lit, start)
            at = n if at < 0 else at
            nxt[lit] = at
        return at

    pos = 0
    while pos < n:
        o1, o2 = first(_OPEN1, pos), first(_OPEN2, pos)
        i = min(o1, o2)
        if i >= n:
            break
        # The two openers differ in their second character: at most one starts at i.
        opener, closer = (_OPEN1, _CLOSE1) if i == o1 else (_OPEN2, _CLOSE2)
        a = i + len(opener)
        # `(.*?)` then the closer: its first occurrence from `a`, before any newline (the
        # openers hold no newline, so the first one from `i` is the first from `a`; `i`
        # only grows, as `a` does for each closer).
        j = first(closer, a)
        if j < first("\n", i):
            out.append(box[a:j])
            pos = j + len(closer)
        else:
            pos = i + 1
    return out
