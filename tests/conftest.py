import sys
from pathlib import Path

# The story builders are shared by the lifecycle tests; they are not part of the package.
sys.path.insert(0, str(Path(__file__).parent))
