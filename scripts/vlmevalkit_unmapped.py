"""Write ``python/gaia_fast/data/vlmevalkit_unmapped.json`` from the table of
``docs/vlmevalkit_coverage.md`` (between the ``coverage`` markers): every VLMEvalKit dataset
name gaia-fast has no flow for, with its grading and the reason, so ``gaia-fast grade`` names
the reason when it meets such a file (``gaia_fast.benchmarks.UNSUPPORTED``). The page is the
source: edit a line there, then run this.

    python scripts/vlmevalkit_unmapped.py          # rewrite the JSON file
    python scripts/vlmevalkit_unmapped.py --check  # exit 1 when it differs from the page
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "vlmevalkit_coverage.md"
OUT = ROOT / "python" / "gaia_fast" / "data" / "vlmevalkit_unmapped.json"


def parse(page: str) -> dict[str, dict[str, str]]:
    """name -> {"grading", "reason"}, in the page's order, from the table between the markers."""
    m = re.search(r"<!-- coverage:start -->\n(.*?)<!-- coverage:end -->", page, re.DOTALL)
    if m is None:
        raise SystemExit(f"{PAGE}: no <!-- coverage:start --> ... <!-- coverage:end --> markers")
    out: dict[str, dict[str, str]] = {}
    lines = m.group(1).splitlines()
    for lineno, line in enumerate(lines[2:], page[: m.start(1)].count("\n") + 3):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            raise SystemExit(f"{PAGE}:{lineno}: {len(cells)} cells, expected 3 (dataset | grading | reason)")
        name, grading, reason = cells
        if name in out:
            raise SystemExit(f"{PAGE}:{lineno}: {name} listed twice")
        out[name] = {"grading": grading, "reason": reason}
    return out


def render(page: str) -> str:
    return json.dumps(parse(page), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the JSON file differs from the page")
    args = ap.parse_args()
    text = render(PAGE.read_text(encoding="utf-8"))
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} differs from {PAGE.relative_to(ROOT)}: run python scripts/vlmevalkit_unmapped.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
