import pathlib
import sys

# Test helpers live beside the tests.
sys.path.insert(0, str(pathlib.Path(__file__).parent))
