"""tableref package."""
