import sys
from pathlib import Path

# Make this folder's helpers (toe_helpers) importable whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).parent))
