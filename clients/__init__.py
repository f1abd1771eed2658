"""The Python SDK that drives tables, its bots and command-line helpers (grows with the SDK issue)."""
