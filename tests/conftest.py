import re
import sys
from pathlib import Path

import pytest

# Test helper modules live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

ADR = Path(__file__).resolve().parent.parent / "adr" / "gateway.md"


@pytest.fixture(scope="session")
def adr_rule_ids() -> set[str]:
    """Every rule id with an entry in adr/gateway.md."""
    return set(re.findall(r"^### (G\d{3}\.\d+) — ", ADR.read_text(encoding="utf-8"), re.M))
