import sys
from pathlib import Path

# Test helper modules live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
