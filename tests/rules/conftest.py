import sys
from pathlib import Path

# Make the shared helpers of this folder (rules_common) importable whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).parent))
