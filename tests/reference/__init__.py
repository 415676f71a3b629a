"""Plain-Python references the compiled code is tested against (not shipped)."""
